"""Labelled data sets for measuring memory search, shipped inside the package (lesson 05).

Each set is a folder ``aria_kit/data/<name>/`` with ``documents.jsonl`` (``id``, ``text``,
``metadata``), ``queries.jsonl`` (``id``, ``text``, ``relevant`` document ids, ``split``), a
``README.md`` (source, licence, attribution, how it was cut) and the upstream ``LICENSE``. The
files are package data, so they are found the same way from a checkout and from an installed
wheel. Every set has a fixed ``dev`` split (tune on it as often as you like) and a ``heldout``
split (report it once, never tune on it). The scripts in ``scripts/make_<name>.py`` cut them
from the upstream files; ``paraphrase`` and ``long_turns`` were written for the kit, and their
scripts hold the text. A query about a value that changed says so (``update``, a ``ValueUpdate``).

This module only reads the files; it searches nothing (see ``measuring.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"
SPLITS = ("dev", "heldout")


@dataclass(frozen=True)
class Document:
    """One text to store in a memory, with the id the labels refer to."""

    id: str
    text: str
    metadata: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ValueUpdate:
    """A query about a value stated twice: ``asks`` "current" (answered by ``newer``) or "past" (by ``older``)."""

    asks: str
    newer: str
    older: str


@dataclass(frozen=True)
class LabelledQuery:
    """One question and the ids of the documents that answer it (``update`` when it asks about a changed value)."""

    id: str
    text: str
    relevant: tuple[str, ...]
    split: str
    update: ValueUpdate | None = None


@dataclass(frozen=True)
class LabelledSet:
    """A data set: its documents, and its queries by split (``queries["dev"]``, ``queries["heldout"]``)."""

    name: str
    documents: tuple[Document, ...]
    queries: dict[str, tuple[LabelledQuery, ...]]
    description: str = ""

    def __repr__(self) -> str:
        counts = ", ".join(f"{len(self.queries[s])} {s}" for s in SPLITS)
        return f"<LabelledSet {self.name!r}: {len(self.documents)} documents, queries: {counts}>"


def list_datasets() -> list[str]:
    """Names of the data sets shipped with the kit, sorted."""
    return sorted(p.name for p in DATA_DIR.iterdir() if (p / "queries.jsonl").is_file()) if DATA_DIR.is_dir() else []


def _read_jsonl(path: Path, fields: dict[str, type]) -> list[dict]:
    """The rows of a JSON-lines file, each an object with ``fields`` of those types; else ``ValueError`` naming
    the file and line (a hand-made file must fail clearly, not with a ``KeyError`` three calls later)."""
    rows = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{path}, line {number}"
            try:
                row = json.loads(line, parse_constant=lambda name: name)  # NaN stays the string "NaN": refused below
            except (ValueError, RecursionError) as exc:
                raise ValueError(f"{where} is not one JSON object ({type(exc).__name__}); write one object per "
                                 "line, such as {\"id\": \"d1\", \"text\": \"...\"}") from None
            if not isinstance(row, dict):
                raise ValueError(f"{where} is a JSON {type(row).__name__}, not an object with {', '.join(fields)}")
            for name, kind in fields.items():
                value = row.get(name)
                if kind is list:
                    ok = isinstance(value, list) and value and all(isinstance(v, str) for v in value)
                else:
                    ok = isinstance(value, str) and bool(value.strip()) and value not in ("NaN", "Infinity")
                if not ok:
                    wanted = "a non-empty list of document ids" if kind is list else "a non-blank string"
                    raise ValueError(f"{where}: {name!r} must be {wanted}, got {value!r}")
            if not isinstance(row.get("metadata", {}), dict):
                raise ValueError(f"{where}: 'metadata' must be an object, got {row['metadata']!r}")
            rows.append(row)
    return rows


def _value_update(row: dict, ids: set[str], path: Path) -> ValueUpdate:
    """A query's ``update`` field, checked: asks "current" or "past", two different document ids, and the
    query's ``relevant`` is exactly the one it asks for; else ``ValueError`` naming the file and query."""
    given = row["update"]
    ok = (isinstance(given, dict) and set(given) == {"asks", "newer", "older"} and given["asks"] in ("current", "past")
          and given["newer"] in ids and given["older"] in ids and given["newer"] != given["older"])
    if not ok or row["relevant"] != [given["newer" if given["asks"] == "current" else "older"]]:
        raise ValueError(f"{path}: query {row['id']!r} has update {given!r}; write "
                         '{"asks": "current" or "past", "newer": <id>, "older": <id>} with two different document '
                         "ids, and 'relevant' [newer] when it asks for the current value, [older] for the past one")
    return ValueUpdate(given["asks"], given["newer"], given["older"])


def load_dataset(name: str) -> LabelledSet:
    """Load the shipped data set ``name`` (see ``list_datasets()``).

    Raises ``ValueError`` naming the known sets for an unknown name, and ``FileNotFoundError``
    naming the folder if the files are missing (an install without package data). Labels that
    point at a document id not in the set, or a split other than dev/heldout, raise ``ValueError``:
    a broken file must not quietly score as a miss.
    """
    folder = DATA_DIR / name
    if name not in list_datasets():
        if not DATA_DIR.is_dir():
            raise FileNotFoundError(f"no data folder at {DATA_DIR}; reinstall aria_kit (its wheel ships the data)")
        raise ValueError(f"unknown data set {name!r}; the kit ships {', '.join(list_datasets()) or 'none'}")
    documents = tuple(Document(row["id"], row["text"], dict(row.get("metadata") or {}))
                      for row in _read_jsonl(folder / "documents.jsonl", {"id": str, "text": str}))
    ids = {document.id for document in documents}
    if len(ids) != len(documents):
        repeated = sorted(i for i, n in Counter(d.id for d in documents).items() if n > 1)[:5]
        raise ValueError(f"{folder / 'documents.jsonl'}: document ids must be unique; repeated: {repeated}")
    queries: dict[str, list[LabelledQuery]] = {split: [] for split in SPLITS}
    for row in _read_jsonl(folder / "queries.jsonl", {"id": str, "text": str, "relevant": list, "split": str}):
        missing = [doc for doc in row["relevant"] if doc not in ids]
        if missing or not row["relevant"] or row["split"] not in queries:
            raise ValueError(f"{folder / 'queries.jsonl'}: query {row['id']!r} has split {row['split']!r} and "
                             f"relevant ids {row['relevant']!r}, of which {missing!r} are not documents")
        update = _value_update(row, ids, folder / "queries.jsonl") if "update" in row else None
        queries[row["split"]].append(LabelledQuery(row["id"], row["text"], tuple(row["relevant"]), row["split"],
                                                   update))
    readme = folder / "README.md"
    title = readme.read_text(encoding="utf-8").splitlines()[0].lstrip("# ") if readme.is_file() else name
    return LabelledSet(name, documents, {split: tuple(rows) for split, rows in queries.items()}, title)
