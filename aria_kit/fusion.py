"""Fusion: merging the vector and the keyword ranking into one (lessons 04 and 05).

Cosine similarities and BM25 scores live on different scales, so adding them
needs arbitrary weights. RRF ignores the raw scores and uses only positions:
an item at rank ``r`` (1 = best) in a ranking earns ``1 / (k + r)``, and its
fused score is the sum over the rankings it appears in. Being near the top of
*both* lists beats being first in one and absent from the other. The constant
``k`` (60 in the original paper by Cormack, Clarke and Büttcher, 2009) damps the
difference between neighbouring ranks: the larger it is, the flatter the curve.

``reciprocal_rank_fusion`` fuses lists of ids and reads like the formula.
``ranks`` and ``fused_scores`` do the same arithmetic on numpy arrays (one
entry per item), which is how ``HybridMemory.search`` fuses thousands of
memories in well under a millisecond; a test checks that both agree exactly.

The other way is to trust the scores after all, once they are put on one scale: a convex
combination ``w · cosine' + (1 − w) · bm25'`` of normalised scores (Bruch, Gai and Ingber, "An
Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023, found it beats RRF when ``w`` is
tuned on a few labelled queries). Normalisation is their "TM2C2": subtract the theoretical minimum
(−1 for cosine, 0 for BM25) and divide by the largest score seen, so a query whose best keyword
match is weak still gives its best match 1.0.

A search calls a *fusion* object: ``RRF(k)`` or ``ConvexFusion(weight)``, each with a ``name`` and
``fuse(cosine, bm25)`` mapping one array per candidate to fused scores (BM25 0 = no keyword
evidence: RRF leaves such items out of the keyword ranking; the convex sum gives them 0 there).
``DEFAULT_FUSION`` is what ``HybridMemory`` uses unless told otherwise, chosen by measurement on
the dev splits of the shipped data sets (``benchmarks/bench_quality.py`` prints the evidence).
This module computes no similarity and looks nothing up.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse ``rankings`` (each a list of ids, best first) into ``[(id, score), …]``, best first.

    ``score = Σ 1/(k + rank)`` over the rankings that contain the id, with
    ranks counted from 1; a ranking that lacks an id adds nothing for it.
    Ties in score keep the order in which ids are first met when reading the
    rankings in the order given, each from its top: the first ranking breaks
    ties. An id listed twice in one ranking is a caller's bug: ``ValueError``.
    """
    if k < 0:
        raise ValueError(f"the RRF constant k must be >= 0, got {k}")
    scores: dict[str, float] = {}  # dicts keep insertion order: first met, first listed
    for number, ranking in enumerate(rankings, start=1):
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"ranking {number} lists some ids more than once; each id may appear once per ranking")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    # sorted() is stable, so equal scores stay in first-met order.
    return sorted(scores.items(), key=lambda pair: -pair[1])


def ranks(scores: np.ndarray, candidates: np.ndarray | None = None) -> np.ndarray:
    """1-based rank of each item by descending score; 0 for items not in ``candidates`` (default: all).

    Equal scores are ranked by position, lower index first, so the result is deterministic.
    """
    candidates = np.arange(len(scores)) if candidates is None else candidates
    order = candidates[np.argsort(-scores[candidates], kind="stable")]
    result = np.zeros(len(scores), dtype=np.int64)
    result[order] = np.arange(1, len(order) + 1)
    return result


def fused_scores(rank_arrays: Sequence[np.ndarray], k: int = 60) -> np.ndarray:
    """RRF on rank arrays (as made by ``ranks``; 0 = not ranked): ``Σ 1/(k + rank)`` per item, float64.

    The terms are added in the order of ``rank_arrays``, as ``reciprocal_rank_fusion`` adds them, so the
    two functions give bit-identical scores.
    """
    total = np.zeros(len(rank_arrays[0]) if rank_arrays else 0)
    for rank in rank_arrays:
        total += np.divide(1.0, k + rank, out=np.zeros(len(rank)), where=rank > 0)
    return total


class RRF:
    """Reciprocal Rank Fusion with constant ``k``: ranks only, raw scores ignored (the seed's fusion, k = 60)."""

    def __init__(self, k: int = 60) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"the RRF constant k must be a whole number >= 0, got {k!r}")
        self.k = k
        self.name = f"rrf(k={k})"

    def fuse(self, cosine: np.ndarray, bm25: np.ndarray) -> np.ndarray:
        """``Σ 1/(k + rank)`` over the vector ranking and the keyword ranking (items with BM25 > 0 only)."""
        return fused_scores([ranks(cosine), ranks(bm25, np.flatnonzero(bm25 > 0))], self.k)

    def __repr__(self) -> str:
        return f"RRF(k={self.k})"


class ConvexFusion:
    """``weight · cosine' + (1 − weight) · bm25'`` on TM2C2-normalised scores (Bruch et al., TOIS 2023).

    ``cosine' = (cosine + 1) / (max cosine + 1)`` and ``bm25' = bm25 / max bm25`` over the candidates
    (0 when no candidate shares a word with the query). ``weight`` 1.0 is vector search alone,
    0.0 keyword search alone (with the vector order breaking its ties).
    """

    def __init__(self, weight: float = 0.5) -> None:
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0.0 <= weight <= 1.0:
            raise ValueError(f"the convex fusion weight must be a number from 0 to 1, got {weight!r}")
        self.weight = float(weight)
        self.name = f"convex(w={self.weight:g})"

    def fuse(self, cosine: np.ndarray, bm25: np.ndarray) -> np.ndarray:
        """The weighted sum of the normalised scores, float64, one per candidate."""
        cosine = np.asarray(cosine, dtype=np.float64)
        bm25 = np.asarray(bm25, dtype=np.float64)
        if not len(cosine):
            return np.zeros(0)
        top_cosine, top_bm25 = cosine.max() + 1.0, bm25.max()
        vector = (cosine + 1.0) / top_cosine if top_cosine > 0 else np.zeros_like(cosine)
        keyword = bm25 / top_bm25 if top_bm25 > 0 else np.zeros_like(bm25)
        return self.weight * vector + (1.0 - self.weight) * keyword

    def __repr__(self) -> str:
        return f"ConvexFusion(weight={self.weight:g})"


Fusion = RRF | ConvexFusion

# Chosen on the dev splits (benchmarks/README.md has the sweep), together with ``HybridMemory``'s
# stemming: with query stop words dropped and stems, convex fusion at w = 0.5 was within one query
# of the best chitchat recall@5 (0.253 vs 0.256 for RRF k = 30) with the best chitchat nDCG@10 (0.201)
# and lifted fanoutqa from the seed's 0.320 to 0.376; the seed's RRF k = 60 scored 0.184 on chitchat.
DEFAULT_FUSION: Fusion = ConvexFusion(0.5)
