"""No API key in the repository: not in notebook outputs, not in docs, not in code.

Keys look like ``sk-…`` (OpenAI, including ``sk-proj-…``) followed by a long
run of key characters. The tests' own fake keys are marked ``sk-test-`` and are
allowed; anything else key-shaped in a tracked file fails this test.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KEY_SHAPED = re.compile(r"sk-(?!test-)[A-Za-z0-9_\-]{20,}")
ASSIGNED = re.compile(r"OPENAI_API_KEY\s*=\s*['\"]?(?!sk-\.\.\.|\.\.\.|<)[A-Za-z0-9_\-]{8,}")


def tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in out.splitlines() if (ROOT / name).is_file()]


def test_the_pattern_catches_real_looking_keys_and_spares_the_fakes():
    # Built at run time, so this file does not itself hold a key-shaped string.
    body = "AbCdEf0123456789" * 2
    assert KEY_SHAPED.search("key = sk-" + "proj-" + body)
    assert KEY_SHAPED.search("sk-" + body)
    assert not KEY_SHAPED.search("sk-test-SECRET1234567890abcdef")
    assert not KEY_SHAPED.search("export OPENAI_API_KEY=sk-...")
    assert ASSIGNED.search("OPENAI_API_KEY" + "='abcd1234efgh'")
    assert not ASSIGNED.search("export OPENAI_API_KEY=sk-...")


def test_no_tracked_file_holds_a_key():
    offenders = []
    for path in tracked_files():
        if path.suffix in {".png", ".jpg", ".sqlite3"}:
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        if KEY_SHAPED.search(text) or ASSIGNED.search(text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == [], f"key-shaped strings in: {offenders}"


def test_notebook_outputs_never_show_a_key_or_its_value():
    notebooks = [p for p in tracked_files() if p.suffix == ".ipynb"]
    assert len(notebooks) >= 10
    for path in notebooks:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                text = json.dumps(output)
                assert not KEY_SHAPED.search(text), f"{path.name}: a key-shaped string in an output"
                assert "OPENAI_API_KEY is set" not in text, f"{path.name}: executed with a key configured"
