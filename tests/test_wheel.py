"""A learner who installs the built wheel (no ``-e``, no checkout) gets everything the lessons import.

The wheel is built from this repository, installed into a fresh virtual
environment of the base interpreter, and used from a folder outside the
repository. The fresh environment borrows the pinned dependencies of the test
environment through a ``.pth`` line — a directory added that way has its own
``.pth`` files ignored, so the test environment's editable ``aria_kit`` stays
invisible and every ``aria_kit`` module comes from the wheel.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

import aria_kit

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Build from a copy of the files git knows (committed or not, never ignored ones): setuptools reuses a
    # stale build/ folder in the source tree, which could hide a file the packaging config leaves out.
    source = tmp_path_factory.mktemp("source")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.splitlines()
    for name in listed:
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source)],
                   check=True, timeout=600)
    (built,) = out.glob("aria_kit-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_python(wheel, tmp_path_factory) -> Path:
    env = tmp_path_factory.mktemp("fresh-env")
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-compile", str(wheel)], check=True, timeout=600)
    (site / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _lesson_imports() -> list[str]:
    """Every ``aria_kit`` import line of every lesson's code cells."""
    lines = []
    for notebook in NOTEBOOKS:
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                lines += [line.strip() for line in source.splitlines()
                          if re.match(r"\s*(from aria_kit[\w.]* import [\w, ]+$|import aria_kit)", line)]
    return sorted(set(lines))


def test_the_wheel_holds_every_module_on_the_lesson_map_and_every_exercise(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f"aria_kit/{module}.py" for module in aria_kit.LESSONS if f"aria_kit/{module}.py" not in names]
    package = Path(aria_kit.__file__).parent
    for folder in ("exercises", "solutions"):
        missing += [f"aria_kit/{folder}/{p.name}" for p in (package / folder).glob("*.py")
                    if f"aria_kit/{folder}/{p.name}" not in names]
    assert not missing, f"not in the wheel: {missing}"


def test_an_installed_wheel_runs_the_lessons_imports_and_a_check_cell_outside_the_repository(fresh_python, tmp_path):
    imports = _lesson_imports()
    assert len(imports) > 20  # the lessons really were read
    script = "\n".join(imports) + """
import aria_kit, sys
from pathlib import Path
assert "fresh-env" in aria_kit.__file__, aria_kit.__file__
from aria_kit.exercises.lesson02 import check_cosine
from aria_kit.solutions.lesson02 import cosine
assert check_cosine(cosine) is True
from aria_kit.exercises import show_solution
show_solution("lesson02")
print("OK from", Path(aria_kit.__file__).parent)
"""
    result = subprocess.run([str(fresh_python), "-c", script], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300, env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "✓ Exercise 02.2" in result.stdout and "def cosine" in result.stdout
    assert str(REPO) not in result.stdout.splitlines()[-1]
