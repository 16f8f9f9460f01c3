"""Worked solutions for lesson 12 (memory on Qdrant): point ids, and one BM25 weight of a sparse vector.

Open this when you are stuck on exercises 12.1 and 10.2. ``to_point_id`` reads
the number out of a memory id and accepts only ids the kit itself writes, so
``mem_42`` and ``mem_00042`` cannot land on point 42 by accident. (QdrantMemory
does the same with ``memory_rules.seq_of``.) ``bm25_weight`` is BM25's term-frequency
part, which ``QdrantMemory`` stores per word in a memory's sparse vector. The IDF
is missing on purpose: the engine multiplies it in at query time.
"""

from __future__ import annotations

import re
from typing import Any

K1, B = 1.5, 0.75  # the kit's BM25 constants (aria_kit.bm25 and aria_kit.qdrant_memory)
MEMORY_ID = re.compile(r"mem_(\d{4,})")


def to_point_id(memory_id: Any) -> int | None:
    """``"mem_0042"`` → 42; ``None`` for anything the kit would not write as a memory id."""
    match = MEMORY_ID.fullmatch(memory_id) if isinstance(memory_id, str) else None
    if match is None:
        return None
    number = int(match.group(1))
    # "mem_00042" has the right shape but is not how the kit writes 42 ("mem_0042"); and ids start at 1.
    return number if number >= 1 and f"mem_{number:04d}" == memory_id else None


def bm25_weight(tf: int, doc_len: int, avgdl: float = 10.0) -> float:
    """BM25's weight for a word ``tf`` times in a memory ``doc_len`` tokens long, given the average length ``avgdl``."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * doc_len / avgdl))
