"""Reciprocal Rank Fusion: merging several rankings into one (lesson 04).

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
