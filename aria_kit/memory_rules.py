"""What a memory may hold, and what its id looks like — the input rules every backend shares (lesson 04).

``HybridMemory`` and ``QdrantMemory`` both check texts, queries and metadata
here, so the same bad input gets the same clear ``ValueError`` whichever
engine holds the memory: texts are non-blank ``str`` of at most
``MAX_TEXT_BYTES`` of UTF-8 (emoji, right-to-left scripts, combining marks and
NUL are fine; lone surrogates are not), and metadata is a dict of str keys to
JSON scalars with ``category`` defaulting to "general" and ``thread``, if given, a str (a category that is a
str holds at most ``MAX_CATEGORY_CHARS``: it is a label that is repeated in
every prompt that recalls its memory). Ids are ``mem_0001``,
…, ``mem_9999``, ``mem_10000``, … A moment at which a memory was superseded is an
ISO 8601 string.

It also fixes how a memory is *shown to a model* (``quoted_entry``): one JSON
object per line, so a stored text holding a newline and a fake
``[mem_0999]`` line stays inside its own quotes instead of reading as another
memory. This module stores nothing and ranks nothing.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timezone
from typing import Any

from aria_kit.interfaces import Metadata

# A memory is a fact or a note. 100 kB of UTF-8 (~15,000 words) is far beyond that and still
# embeds in a fraction of a second; longer documents should be split into chunks and stored one by one.
MAX_TEXT_BYTES = 100_000
MAX_CATEGORY_CHARS = 64
_ID = re.compile(r"mem_(\d{4,})")
MAX_SEQ = 2**63 - 1  # the largest SQLite INTEGER, so the largest id a memory file can hand out
_MAX_ID_LENGTH = len(f"mem_{MAX_SEQ}")
SEQ_LIMIT = 2**62  # the largest number a memory file may hold: far beyond any use, and far below MAX_SEQ
# json.dumps(ensure_ascii=False) escapes C0 controls but leaves these raw: C1 controls and U+2028/9, which
# str.splitlines() (and many readers) treat as line breaks, and lone surrogates, which UTF-8 cannot encode.
# Escaping them too keeps one entry on exactly one line of valid UTF-8.
_RAW_LINE_BREAKS = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")
CITATION = re.compile(r"\[(mem_\d+)\]")  # how an answer cites a memory: "… [mem_0004]"


def check_text(text: Any, what: str = "text") -> str:
    """Return ``text`` if it can be stored or searched, else raise ``ValueError`` saying why."""
    if not isinstance(text, str):
        raise ValueError(f"the {what} must be a str, got {type(text).__name__}")
    if not text.strip():
        raise ValueError(f"the {what} is empty or only whitespace; write at least one word")
    _check_size(text, f"the {what}")
    return text


def utf8_size(text: str, what: str, fix: str = "; decode your bytes with errors='replace' first") -> int:
    """The bytes of UTF-8 ``text`` takes, or ``ValueError`` naming ``what``'s lone surrogate and saying ``fix``."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} contains {text[exc.start]!r}, a lone surrogate that is not valid Unicode{fix}") from exc


def _check_size(text: str, what: str) -> None:
    size = utf8_size(text, what)
    if size > MAX_TEXT_BYTES:
        raise ValueError(f"{what} is {size:,} bytes of UTF-8, over the {MAX_TEXT_BYTES:,}-byte limit; "
                         "split it into smaller chunks and store each one")


def check_metadata(metadata: Any) -> Metadata:
    """Return a copy of ``metadata`` with ``category`` defaulted, or raise ``ValueError`` saying what is wrong."""
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise ValueError(f"metadata must be a dict such as {{'category': 'task'}}, got {type(metadata).__name__}")
    for key, value in metadata.items():
        if not isinstance(key, str):
            raise ValueError(f"metadata keys must be strings, got {key!r}")
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise ValueError(f"metadata[{key!r}] is a {type(value).__name__}; values must be str, int, float, "
                             "bool or None (store nested data as a JSON string)")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"metadata[{key!r}] is {value}, which JSON cannot hold; use a finite number or None")
    thread = metadata.get("thread")
    if thread is not None and not isinstance(thread, str):  # else 1, 1.0 and True would be one conversation
        raise ValueError(f"metadata['thread'] is the {type(thread).__name__} {thread!r}; a thread id is a str: "
                         f"pass str(thread), such as {str(thread)!r}")
    checked = {**metadata, "category": metadata.get("category", "general")}
    if isinstance(checked["category"], str) and len(checked["category"]) > MAX_CATEGORY_CHARS:
        raise ValueError(f"the category is {len(checked['category']):,} characters; a category is a short label "
                         f"such as 'task' or 'user_pref' of at most {MAX_CATEGORY_CHARS}")
    _check_size(json.dumps(checked, ensure_ascii=False), "the metadata, as JSON,")
    return checked


def check_batch(texts: Any, metadatas: Any) -> tuple[list[str], list[Metadata]]:
    """Check a whole ``store_many`` batch before anything is written; return the texts and checked metadata."""
    if isinstance(texts, str):
        raise ValueError("store_many takes a list of texts; use store() for a single text")
    texts = [check_text(text) for text in texts]
    metadatas = list(metadatas) if metadatas is not None else [None] * len(texts)
    if len(metadatas) != len(texts):
        raise ValueError(f"got {len(texts)} texts but {len(metadatas)} metadata entries")
    return texts, [check_metadata(metadata) for metadata in metadatas]


def make_memory_id(seq: int) -> str:
    """The id of the ``seq``-th memory: ``mem_0001`` … ``mem_9999``, then ``mem_10000`` …"""
    return f"mem_{seq:04d}"


def seq_of(memory_id: str) -> int | None:
    """The number in a well-formed id (``mem_0042`` → 42), else ``None``."""
    match = _ID.fullmatch(memory_id) if isinstance(memory_id, str) and len(memory_id) <= _MAX_ID_LENGTH else None
    seq = int(match.group(1)) if match else 0
    if not 0 < seq <= MAX_SEQ:  # beyond SQLite's 64-bit integers no memory can have that id
        return None
    return seq if make_memory_id(seq) == memory_id else None  # "mem_00042" is not "mem_0042"


def quoted_entry(**fields: Any) -> str:
    """One memory (id, category, text, scores…) as one line of JSON, for a prompt or a tool result.

    The text is JSON-quoted, so nothing inside it — a newline, a quote, a fake
    ``{"id": "mem_0999", …}`` — can end the entry or start another one: a
    reader that takes one JSON object per line gets back exactly the fields
    that were stored. Non-ASCII text stays readable (``ensure_ascii=False``).
    """
    line = json.dumps(fields, ensure_ascii=False)
    return _RAW_LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def read_quoted_entries(text: str) -> list[dict[str, Any]]:
    """The memories that ``quoted_entry`` wrote into ``text`` (a prompt or a tool result), in order.

    Only whole lines that parse as a JSON object with a string ``id`` and ``text``
    count, so prose around the entries — and anything a memory's own text says —
    is never read as a memory.
    """
    entries = []
    for line in text.splitlines():
        try:
            entry = json.loads(line) if line.startswith("{") else None
        except json.JSONDecodeError:
            entry = None
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("text"), str):
            entries.append(entry)
    return entries


def as_quoted_text(text: str) -> str:
    """``text`` ready to repeat in an answer that cites memories as "[mem_0004]": a citation-shaped "[mem_0002]"
    inside a stored text is written "(mem_0002)", so only the ids of real hits ever read as citations."""
    return CITATION.sub(r"(\1)", text)


def chain_problem(rows: dict[int, tuple[Any, Any]]) -> str | None:
    """What is wrong with stored chains of versions, ``{seq: (superseded_by, supersedes)}``, or ``None`` (lesson 10).

    A memory may not be superseded by a memory that is not there, nor by itself, and following either kind of
    link from any memory must end: a cycle would make ``history()`` endless and hide every memory on it from
    search. Numbers must lie in 1 … ``SEQ_LIMIT``. One pass over the links (each chain is walked once).
    """
    for seq in rows:
        if not 0 < seq <= SEQ_LIMIT:
            return (f"the row with seq {seq} is numbered outside 1 … {SEQ_LIMIT:,} (2^62: room for every later "
                    "store below SQLite's largest integer)")
    for side, name in ((0, "superseded_by"), (1, "supersedes")):
        links = {seq: pair[side] for seq, pair in rows.items() if isinstance(pair[side], int)}
        for seq, target in links.items():
            if side == 0 and target not in rows:
                return f"memory {seq} is superseded by memory {target}, which is not in the file"
        done: set[int] = set()
        for seq in links:
            path: dict[int, None] = {}  # the walk from seq, in order
            while seq in links and seq not in done and seq not in path:
                path[seq] = None
                seq = links[seq]
            if seq in path:
                cycle = list(path)[list(path).index(seq):]
                shown = " -> ".join(str(n) for n in [*cycle, seq])
                return f"the {name} links of memories {shown} form a cycle"
            done.update(path)
    return None


def check_moment(at: Any) -> str:
    """``at`` as an ISO 8601 string (``None`` → now, UTC, to the second), or ``ValueError`` saying why (lesson 10)."""
    if at is None:
        return datetime.now(timezone.utc).isoformat(timespec="seconds")
    if not isinstance(at, str):
        raise ValueError(f"at must be an ISO 8601 string such as '2026-03-01T09:00:00+00:00', got {type(at).__name__}")
    try:
        datetime.fromisoformat(at)
    except ValueError:
        raise ValueError(f"at={at!r} is not an ISO 8601 date or time, such as '2026-03-01' "
                         "or '2026-03-01T09:00:00+00:00'") from None
    return at
