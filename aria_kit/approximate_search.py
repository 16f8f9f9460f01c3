"""An approximate nearest-neighbour index small enough to read in one sitting: an inverted file (lesson 13).

Exact search reads every vector on every query, so its cost grows in step with
the number of memories. An inverted file (IVF) pays once, up front: it groups
the vectors into ``n_lists`` clusters (a few rounds of k-means on unit
vectors, seeded) and remembers which rows fell into which cluster. A query
then reads only the rows of the ``nprobe`` clusters whose centres are nearest
to it. Fewer rows read means a faster search, but a true neighbour filed in a
cluster that was not probed is missed, so recall@k drops below 1: the trade
every approximate index makes. (FAISS calls this ``IndexIVFFlat``; Qdrant's
HNSW is a graph rather than clusters, with the same trade.)

``HybridMemory`` does not use this module: it stays exact. This module
neither embeds texts nor knows about BM25.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class IVFIndex:
    """Unit ``vectors`` (one per row), ``centroids`` (one per cluster) and ``lists[c]``: the rows of cluster c."""

    vectors: np.ndarray
    centroids: np.ndarray
    lists: list[np.ndarray]

    @classmethod
    def build(cls, vectors: np.ndarray, n_lists: int, rounds: int = 5, seed: int = 0) -> IVFIndex:
        """Cluster unit ``vectors`` into ``n_lists`` lists with ``rounds`` of spherical k-means (seeded)."""
        if not 1 <= n_lists <= len(vectors):
            raise ValueError(f"n_lists must be between 1 and the number of vectors ({len(vectors)}), got {n_lists}")
        rng = np.random.default_rng(seed)
        centroids = vectors[rng.choice(len(vectors), n_lists, replace=False)]
        for _ in range(rounds):
            nearest = np.argmax(vectors @ centroids.T, axis=1)  # each row joins the centre it is most similar to
            for cluster in range(n_lists):
                members = vectors[nearest == cluster]
                if len(members):  # an empty cluster keeps its old centre
                    total = members.sum(axis=0)
                    centroids[cluster] = total / (np.linalg.norm(total) or 1.0)
        nearest = np.argmax(vectors @ centroids.T, axis=1)
        return cls(vectors, centroids, [np.flatnonzero(nearest == cluster) for cluster in range(n_lists)])

    def search(self, query: np.ndarray, k: int, nprobe: int) -> tuple[np.ndarray, int]:
        """The ``k`` rows most similar to ``query`` among the ``nprobe`` nearest lists, best first; and how many
        rows were read. With ``nprobe = len(lists)`` this is exact search."""
        probed = np.argsort(-(self.centroids @ query), kind="stable")[:nprobe]
        rows = np.sort(np.concatenate([self.lists[cluster] for cluster in probed]))
        scores = np.einsum("ij,j->i", self.vectors[rows], query)  # einsum: no BLAS threads to wake (lesson 13)
        return rows[np.lexsort((rows, -scores))][:k], len(rows)


def exact_search(vectors: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` rows most similar to ``query``, best first (equal scores: lower row first). Reads every row."""
    scores = np.einsum("ij,j->i", vectors, query)
    rows = np.arange(len(vectors))
    return rows[np.lexsort((rows, -scores))][:k]


def recall_at_k(found: Sequence[int], truth: Sequence[int]) -> float:
    """Share of the true top-k rows (``truth``) that an approximate search also ``found``."""
    return len(set(map(int, found)) & set(map(int, truth))) / len(truth) if len(truth) else 1.0
