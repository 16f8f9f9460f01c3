"""What every data-cutting script shares: the split rule and how a cut set is written.

``split_of`` puts a key (a session or question id) in ``dev`` when the first hex
digit of its SHA-256 is even, else in ``heldout`` — the same rule for every
shipped set, decided by the key alone, so a small fixture splits exactly as the
full upstream file does. ``run`` reads the upstream JSON, calls the script's
``cut`` and writes ``documents.jsonl`` and ``queries.jsonl`` byte-identically on
every run. Used by ``make_chitchat.py`` and ``make_fanoutqa.py``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Rows = list[dict[str, Any]]


def split_of(key: str) -> str:
    """``dev`` or ``heldout``, fixed by ``key`` alone."""
    return "dev" if int(hashlib.sha256(key.encode()).hexdigest()[0], 16) % 2 == 0 else "heldout"


def write_jsonl(path: Path, rows: Rows) -> None:
    """One JSON object per line, UTF-8, keys in a fixed order: byte-identical on every run."""
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def run(cut: Callable[[Any], tuple[Rows, Rows]], source: str, out_dir: str) -> None:
    """Cut the upstream JSON file ``source`` and write the set into ``out_dir``."""
    documents, queries = cut(json.loads(Path(source).read_text(encoding="utf-8")))
    out = Path(out_dir)
    write_jsonl(out / "documents.jsonl", documents)
    write_jsonl(out / "queries.jsonl", queries)
    print(f"{len(documents)} documents, {len(queries)} queries "
          f"({sum(q['split'] == 'dev' for q in queries)} dev) -> {out}")
