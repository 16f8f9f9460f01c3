"""Worked solutions for lesson 04 (hybrid search).

Open this when you are stuck on exercise 04.1 (a fusion of your design), 04.2
(``MyHybridMemory``) or the stretch task (``convex_mix``). Exercise 04.1 has two
answers of different design in ``SOLUTIONS["04.1"]``: ``rrf_fuse`` adds 1/(60 + rank)
per ranking (Reciprocal Rank Fusion), so a high rank in one list can outweigh a low
one in both; ``votes_fuse`` ranks by how many rankings found a memory first, then by
the sum of its ranks, so agreement always wins. ``aria_kit.fusion`` holds RRF and the
convex mix with input checks, and ``aria_kit.hybrid_memory`` the memory with
persistence, deletes and vectorised fusion.
"""

from __future__ import annotations

import numpy as np

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.embeddings import normalize
from aria_kit.fusion import reciprocal_rank_fusion


def rrf_fuse(vector: list[str], keyword: list[str], k: int = 60) -> list[str]:
    """Design A, Reciprocal Rank Fusion: each ranking adds 1/(k + rank) to the ids it holds, ranks from 1."""
    scores: dict[str, float] = {}
    for ranking in (vector, keyword):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    # sorted() is stable: equal scores keep the vector ranking's order, a rule taken from the rankings, not the ids.
    return sorted(scores, key=lambda item: -scores[item])


def votes_fuse(vector: list[str], keyword: list[str]) -> list[str]:
    """Design B, agreement first: found by both rankings beats found by one; then the smaller sum of ranks wins.

    No constant to tune. The price: a memory found by both at ranks 30 and 30 beats one that is 1st by
    cosine and shares no word with the query (the coffee answer of this lesson falls the same way).
    """
    keyword_rank = {item: rank for rank, item in enumerate(keyword, start=1)}

    def key(item_and_rank: tuple[int, str]) -> tuple[int, int, int]:
        rank, item = item_and_rank
        found_by = 1 + (item in keyword_rank)
        return -found_by, rank + keyword_rank.get(item, 0), rank  # the vector rank breaks what is left

    return [item for _, item in sorted(enumerate(vector, start=1), key=key)]


# Each design is the arguments of one call of check_fusion (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"04.1": [(rrf_fuse,), (votes_fuse,)]}


class MyHybridMemory:
    """Store texts; rank them by cosine and by BM25 (the kit's BM25Index); fuse the two rankings with RRF."""

    def __init__(self, embedder, k: int = 60) -> None:
        self.embedder, self.k = embedder, k
        self.ids: list[str] = []
        self.vectors = np.zeros((0, embedder.dim), dtype=np.float32)  # one unit row per memory
        self.bm25 = BM25Index()  # slot i holds memory i: nothing is removed here

    def store(self, text: str) -> str:
        self.ids.append(f"mem_{len(self.ids) + 1:04d}")
        self.vectors = np.vstack([self.vectors, normalize(self.embedder.embed([text]))])
        self.bm25.add(tokenize(text))
        return self.ids[-1]

    def vector_ranking(self, query: str) -> list[str]:
        cosine = self.vectors @ normalize(self.embedder.embed([query]))[0]
        return [self.ids[i] for i in np.argsort(-cosine, kind="stable")]  # stable: equal cosines, older first

    def keyword_ranking(self, query: str) -> list[str]:
        scores = self.bm25.scores(tokenize(query))
        order = np.argsort(-scores, kind="stable")
        return [self.ids[i] for i in order if scores[i] > 0]  # no shared word, no keyword vote

    def search(self, query: str, top_k: int = 3) -> list[tuple[str, float]]:
        if not self.ids:
            return []
        # Vector ranking first: it holds every id, so equal fused scores go to the better vector rank.
        return reciprocal_rank_fusion([self.vector_ranking(query), self.keyword_ranking(query)], self.k)[:top_k]


def convex_mix(cosine: np.ndarray, bm25: np.ndarray, weight: float = 0.5) -> np.ndarray:
    """Stretch 04: ``weight · cosine' + (1 − weight) · bm25'``, each score divided by the query's best.

    ``cosine' = (cosine + 1) / (max cosine + 1)`` (cosine's least value is −1) and ``bm25' = bm25 / max bm25``,
    0 everywhere when no memory shares a word with the query. For the stretch's question, run the lesson's
    memory with ``HybridMemory(embedder, fusion=ConvexFusion(w), stopwords=(), stemming=False)`` for a few
    weights ``w`` and read the coffee answer's rank (tests/test_exercises_04.py records what it finds).
    """
    cosine, bm25 = np.asarray(cosine, dtype=np.float64), np.asarray(bm25, dtype=np.float64)
    vector = (cosine + 1) / (cosine.max() + 1) if cosine.max() > -1 else np.zeros_like(cosine)
    keyword = bm25 / bm25.max() if bm25.max() > 0 else np.zeros_like(bm25)
    return weight * vector + (1 - weight) * keyword
