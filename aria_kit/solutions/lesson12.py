"""Worked solutions for lesson 12 (memory on Qdrant): point ids, and a migration between backends.

Open this when you are stuck on exercises 12.1 and 12.2 or stretch 12. ``to_point_id`` reads
the number out of a memory id and accepts only ids the kit itself writes, so
``mem_42`` and ``mem_00042`` cannot land on point 42 by accident. (QdrantMemory
does the same with ``memory_rules.seq_of``.) Exercise 12.2 has two designs in
``SOLUTIONS["12.2"]``: ``replay`` repeats the source's writes in order and refuses a
target that is not empty; ``facts_in_one_batch`` stores first versions in one batch,
walks each history forward, and merges.
``top3_agreement`` counts the top-3 places where two memories name the same memory, and
``stretch_agreement_table`` uses it to ask which of the kit's three default settings (convex
fusion, query stop words, stems) makes ``HybridMemory()`` differ from ``QdrantMemory``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from aria_kit.demo_data import CONVERSATION, SHOWDOWN_QUERIES, seed_memory
from aria_kit.fusion import RRF
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend

MEMORY_ID = re.compile(r"mem_(\d{4,})")


def to_point_id(memory_id: Any) -> int | None:
    """``"mem_0042"`` → 42; ``None`` for anything the kit would not write as a memory id."""
    match = MEMORY_ID.fullmatch(memory_id) if isinstance(memory_id, str) else None
    if match is None:
        return None
    number = int(match.group(1))
    # "mem_00042" has the right shape but is not how the kit writes 42 ("mem_0042"); and ids start at 1.
    return number if number >= 1 and f"mem_{number:04d}" == memory_id else None


def replay(source: MemoryBackend, target: MemoryBackend) -> dict[str, str]:
    """Replay the source's writes in its order: a store for a first version, a supersede (at the same moment) for a
    later one. A target that is not empty is refused before anything is written: ids from two memories would mix.
    """
    if len(target):
        raise ValueError(f"the target is not empty ({len(target)} held); migrate into an empty one")
    moved: dict[str, str] = {}
    for record in source.list_all():  # oldest first, so an older version is always moved before its successor
        if record.supersedes is None:
            moved[record.id] = target.store(record.text, record.metadata)
        else:
            older = source.get(record.supersedes)
            moved[record.id] = target.supersede(moved[older.id], record.text, record.metadata, at=older.superseded_at)
    return moved


def facts_in_one_batch(source: MemoryBackend, target: MemoryBackend) -> dict[str, str]:
    """Store every fact's first version in one batch (one embedding call, one transaction), then walk each fact's
    history forward. Merges into a target that is not empty: its own memories are left as they are.
    """
    records = {record.id: record for record in source.list_all()}
    firsts = [record for record in records.values() if record.supersedes is None]
    moved = dict(zip([r.id for r in firsts], target.store_many([r.text for r in firsts], [r.metadata for r in firsts])))
    for first in firsts:
        version = first
        while version.superseded_by is not None:
            newer = records[version.superseded_by]
            moved[newer.id] = target.supersede(moved[version.id], newer.text, newer.metadata, at=version.superseded_at)
            version = newer
    return moved


# Each design is the argument of one call of check_migrate (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"12.2": [(replay,), (facts_in_one_batch,)]}


def top3_agreement(memory_a: MemoryBackend, memory_b: MemoryBackend, queries: Sequence[str]) -> int:
    """How many (query, rank) places of the two top 3s name the same memory: at most 3 per query."""
    return sum(a.id == b.id for query in queries
               for a, b in zip(memory_a.search(query, top_k=3), memory_b.search(query, top_k=3)))


def stretch_agreement_table() -> dict[str, int]:
    """QdrantMemory against five HybridMemory set-ups, on the showdown queries and the conversation's messages.

    Switching one default at a time shows what each costs: all three together are ``HybridMemory()``.
    Needs Qdrant Edge (``pip install -e '.[qdrant]'``).
    """
    from aria_kit.qdrant_memory import QdrantMemory  # optional extra: imported only when the stretch runs

    qdrant = QdrantMemory()
    setups = {"RRF(60), every word as written (like Qdrant)": HybridMemory(fusion=RRF(60), stopwords=(),
                                                                          stemming=False),
              "RRF(60), stop words dropped": HybridMemory(fusion=RRF(60), stemming=False),
              "convex 0.5, every word as written": HybridMemory(stopwords=(), stemming=False),
              "RRF(60), every word, stems": HybridMemory(fusion=RRF(60), stopwords=()),
              "HybridMemory() (convex 0.5, stop words dropped, stems)": HybridMemory()}
    for memory in (qdrant, *setups.values()):
        seed_memory(memory)
    queries = [*SHOWDOWN_QUERIES, *CONVERSATION]
    table = {name: top3_agreement(qdrant, memory, queries) for name, memory in setups.items()}
    qdrant.close()
    return table
