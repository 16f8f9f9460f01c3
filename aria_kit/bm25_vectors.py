"""BM25 as sparse vectors: what ``QdrantMemory`` stores per memory and sends per query (lesson 12).

A memory's sparse vector holds, for each token of ``aria_kit.bm25.tokenize``,
BM25's term-frequency part ``tf·(k1+1) / (tf + k1·(1 − b + b·dl/AVGDL))`` at
index ``crc32(token) & 0x7FFFFFFF`` (stable across processes, unlike ``hash``).
A Qdrant collection with the IDF modifier multiplies in Lucene's IDF at query
time, and the query vector holds each token's count, so the engine's score is
``BM25Index``'s, except that the length norm uses a fixed ``AVGDL`` (stored
vectors cannot follow a drifting average) and tokens whose hashes collide
(about V²/2³² pairs for V distinct tokens) count as one term.

Plain Python, no Qdrant import: the engines convert ``SparseVector`` to their
own type (``qdrant_engines.py``). Not here: the IDF (the engine's) and the
dense vectors (the embedder's).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from aria_kit.bm25 import B, K1

AVGDL = 10.0  # a one-sentence memory is about 10 tokens; K1 and B are BM25Index's defaults
SPARSE_SCHEME = f"bm25-tf k1={K1} b={B} avgdl={AVGDL} crc32-31"  # kept in the ledger: a change is refused


@dataclass(frozen=True)
class SparseVector:
    """Nonzero weights of a sparse vector: ``values[i]`` at dimension ``indices[i]`` (indices sorted)."""

    indices: list[int]
    values: list[float]


def term_index(token: str) -> int:
    """The sparse-vector index of a token: its CRC-32 cut to 31 bits, so it fits any signed int32."""
    return zlib.crc32(token.encode("utf-8")) & 0x7FFFFFFF


def document_vector(tokens: Sequence[str]) -> SparseVector:
    """A memory's sparse vector: BM25's saturated term frequency per term (the engine adds the IDF)."""
    counts = Counter(term_index(t) for t in tokens)
    norm = K1 * (1 - B + B * len(tokens) / AVGDL)
    indices = sorted(counts)
    return SparseVector(indices=indices, values=[counts[i] * (K1 + 1) / (counts[i] + norm) for i in indices])


def query_vector(tokens: Sequence[str]) -> SparseVector:
    """A query's sparse vector: each term's count, so a repeated word counts twice, as in BM25."""
    counts = Counter(term_index(t) for t in tokens)
    return SparseVector(indices=sorted(counts), values=[float(counts[i]) for i in sorted(counts)])
