"""Worked solutions for lesson 10: follow a fact to its current version, spot an update, search as of a date.

``follow_to_current`` walks ``superseded_by`` links until it reaches a memory
nobody replaced. ``is_update`` is a handful of surface rules, like the offline
stand-in's (``aria_kit/offline_updates.py``): questions are never updates, and
the cue words of a change are "switched", "moved/changed from … to", "now",
"no longer". The stretch answer, ``search_as_of``, asks for history too and
keeps the versions that were current on the given day: a version is current
from the moment its predecessor was superseded until its own ``superseded_at``.
"""

from __future__ import annotations

import re

from aria_kit.interfaces import Hit, MemoryBackend


def follow_to_current(memory: MemoryBackend, memory_id: str) -> str:
    record = memory.get(memory_id)
    if record is None:
        raise ValueError(f"there is no memory {memory_id!r}")
    while record.superseded_by is not None:
        record = memory.get(record.superseded_by)
    return record.id


CHANGE = re.compile(r"\b(switched|no longer|any ?more|is now|are now|now (prefers|uses|likes))\b|"
                    r"\b(moved|changed|migrated)\b.*\bfrom\b.*\bto\b", re.I)


def is_update(message: str) -> bool:
    return not message.rstrip().endswith("?") and CHANGE.search(message) is not None


def search_as_of(memory: MemoryBackend, query: str, day: str, top_k: int = 3) -> list[Hit]:
    """The best ``top_k`` memories among those that were current on ``day`` (ISO dates compare as text)."""
    kept = []
    for hit in memory.search(query, top_k=max(top_k, len(memory)), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        started = before.superseded_at if before is not None else ""
        ended = memory.get(hit.id).superseded_at
        if started[:10] <= day and (ended is None or day < ended[:10]):
            kept.append(hit)
    return kept[:top_k]
