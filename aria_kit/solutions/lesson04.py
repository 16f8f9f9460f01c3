"""Worked solutions for lesson 04 (your own hybrid memory).

Open this when you are stuck on exercise 04.1 (``rrf``), 04.2 (``MyHybridMemory``)
or the stretch task (``ScoreFusionMemory``). ``aria_kit.fusion`` holds the same
RRF with input checks and a documented tie order, and ``aria_kit.hybrid_memory``
the same memory with persistence, deletes and vectorised fusion.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from aria_kit.bm25 import tokenize
from aria_kit.embeddings import normalize


def rrf(rankings: Sequence[Sequence[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse rankings (lists of ids, best first): each id earns 1/(k + rank) per ranking it is in, ranks from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        if len(set(ranking)) != len(ranking):  # which of its two ranks would count? The caller has a bug.
            raise ValueError(f"a ranking lists an id twice: {list(ranking)}")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    # sorted() is stable: equal scores keep the order in which ids were first met (the first ranking's order).
    return sorted(scores.items(), key=lambda pair: pair[1], reverse=True)


class MyHybridMemory:
    """Store texts; rank them by cosine and by BM25; fuse the two rankings with ``rrf``."""

    def __init__(self, embedder, k: int = 60, k1: float = 1.5, b: float = 0.75) -> None:
        self.embedder, self.k, self.k1, self.b = embedder, k, k1, b
        self.ids: list[str] = []
        self.vectors = np.zeros((0, embedder.dim), dtype=np.float32)  # one unit row per memory
        self.term_counts: list[Counter] = []  # per memory: token -> how often it occurs

    def store(self, text: str) -> str:
        self.ids.append(f"mem_{len(self.ids) + 1:04d}")
        self.vectors = np.vstack([self.vectors, normalize(self.embedder.embed([text]))])
        self.term_counts.append(Counter(tokenize(text)))
        return self.ids[-1]

    def vector_ranking(self, query: str) -> list[str]:
        cosine = self.vectors @ normalize(self.embedder.embed([query]))[0]
        return [self.ids[i] for i in np.argsort(-cosine, kind="stable")]  # stable: equal cosines, older first

    def bm25_scores(self, query: str) -> list[float]:
        n_docs = len(self.term_counts)
        if not n_docs:
            return []
        lengths = [sum(counts.values()) for counts in self.term_counts]
        avg_len = sum(lengths) / n_docs or 1.0
        scores = [0.0] * n_docs
        for term in tokenize(query):  # a repeated query word counts each time
            n = sum(term in counts for counts in self.term_counts)
            idf = math.log(1 + (n_docs - n + 0.5) / (n + 0.5))
            for i, counts in enumerate(self.term_counts):
                tf = counts[term]
                if tf:
                    scores[i] += idf * tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * lengths[i] / avg_len))
        return scores

    def keyword_ranking(self, query: str) -> list[str]:
        scores = self.bm25_scores(query)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])  # stable too
        return [self.ids[i] for i in order if scores[i] > 0]  # no shared word, no keyword vote

    def search(self, query: str, top_k: int = 3) -> list[tuple[str, float]]:
        if not self.ids:
            return []
        # Vector ranking first: it holds every id, so equal fused scores go to the better vector rank.
        return rrf([self.vector_ranking(query), self.keyword_ranking(query)], self.k)[:top_k]


# ------------------------------------------------------------------ stretch 04


class ScoreFusionMemory(MyHybridMemory):
    """Stretch 04: fuse scores instead of ranks, ``weight · cosine' + (1 − weight) · bm25'``.

    Each score is min-max normalised over the memories first (primes above), so
    both live in [0, 1]; a memory with no keyword match gets bm25' = 0. With
    ``weight = 1`` this is vector search, with ``weight = 0`` keyword search
    (ties broken by cosine). Unlike RRF, a memory far ahead of the rest in one
    ranking keeps that lead: try "What does she drink in the morning?".
    """

    def __init__(self, embedder, weight: float = 0.5) -> None:
        super().__init__(embedder)
        self.weight = weight

    def search(self, query: str, top_k: int = 3) -> list[tuple[str, float]]:
        if not self.ids:
            return []
        cosine = self.vectors @ normalize(self.embedder.embed([query]))[0]
        bm25 = np.array(self.bm25_scores(query))

        def min_max(x: np.ndarray) -> np.ndarray:
            span = x.max() - x.min()
            return (x - x.min()) / span if span > 0 else np.zeros_like(x, dtype=np.float64)

        fused = self.weight * min_max(cosine.astype(np.float64)) + (1 - self.weight) * min_max(bm25)
        order = np.lexsort((-cosine, -fused))  # by fused score, then cosine
        return [(self.ids[i], float(fused[i])) for i in order[:top_k]]
