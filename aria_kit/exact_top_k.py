"""Exact top-k for hybrid search without sorting every memory (used in lesson 04, explained in lesson 13).

Ranking every memory by cosine and by BM25 costs two full sorts, O(N log N):
at 100,000 memories that is most of a search. But a search returns 3 hits,
and RRF only needs the ranks of memories that could be among them. So, for RRF:

1. Take the ``depth`` best rows of each ranking (``np.partition`` finds the
   cut in O(N); only those rows are sorted). Their ranks are exact, because
   every row left out scores lower than every row taken.
2. A row below a head ranks at least ``len(head) + 1`` there, which bounds its
   fused score from above; the known ranks bound it from below. Rows whose
   best case cannot reach the k-th best worst case are dropped; the few that
   remain with an unknown rank get it counted exactly (one O(N) pass each).
3. Rows outside both heads score at most ``1/(k + |head| + 1)`` per ranking;
   if the k-th best row beats that strictly, nothing outside can reach the
   top k. Otherwise dig four times deeper and repeat.

A score fusion (``fusion.ConvexFusion``) needs no ranks: it scales cosine and
BM25 by their best values, which the two heads hold, so fusing just the union
of the heads gives the very numbers fusing every row would; and a row below
both heads fuses to less than an imaginary row made of the heads' lowest
scores. Ranks are then counted only for the hits returned.

The result is what full sorts give, to the bit (``tests/test_ranking_equality.py``
checks it against a frozen copy of the full-sort code). This module knows
nothing about memories: it sees two score arrays, one entry per row, where an
excluded row has cosine ``-inf`` and BM25 0 (no keyword evidence, no keyword rank).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.fusion import fused_scores

HEAD_DEPTH = 1024  # rows sorted per ranking: deep enough that a search almost never counts a rank


def ranked_head(scores: np.ndarray, depth: int, floor: float) -> tuple[np.ndarray, int]:
    """The rows scoring above ``floor`` and among the ``depth`` best, best first (ties: lower row first).

    Also returns how many rows score above ``floor`` at all. Rows tied with the
    ``depth``-th best are all included, so position + 1 is each row's exact rank.
    """
    rows = np.flatnonzero(scores > floor)
    if depth < len(rows):
        pool = scores if len(rows) == len(scores) else scores[rows]  # no copy when every row is eligible
        # np.partition puts the depth-th largest score at this position in O(N), without sorting the rest.
        cut = np.partition(pool, len(pool) - depth)[len(pool) - depth]
        ranked = np.flatnonzero(scores >= cut) if pool is scores else rows[pool >= cut]
    else:
        ranked = rows
    # lexsort sorts by its last key first: best score first, then by row number.
    return ranked[np.lexsort((ranked, -scores[ranked]))], len(rows)


def rank_of(scores: np.ndarray, row: int) -> int:
    """The 1-based rank of ``row`` by descending score, equal scores going to the lower row, in one O(N) pass.

    A row is ahead of ``row`` if it scores higher, or scores the same and comes first.
    """
    value = scores[row]
    return 1 + int(np.count_nonzero(scores[:row] >= value)) + int(np.count_nonzero(scores[row + 1 :] > value))


def _heads(cosine: np.ndarray, bm25: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The union of both heads (sorted rows), their vector and keyword ranks (0 = below that head, or no keyword
    evidence), and how far each head reaches: its length, or 0 when it already holds every row it ranks."""
    by_vector, visible = ranked_head(cosine, depth, -np.inf)
    by_keyword, matched = ranked_head(bm25, depth, 0.0)
    rows = np.union1d(by_vector, by_keyword)  # sorted, so searchsorted finds each head row's place
    vector_rank, keyword_rank = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.int64)
    vector_rank[np.searchsorted(rows, by_vector)] = np.arange(1, len(by_vector) + 1)
    keyword_rank[np.searchsorted(rows, by_keyword)] = np.arange(1, len(by_keyword) + 1)
    vector_reach = len(by_vector) if len(by_vector) < visible else 0
    keyword_reach = len(by_keyword) if len(by_keyword) < matched else 0
    return rows, vector_rank, keyword_rank, vector_reach, keyword_reach


def rrf_contenders(cosine: np.ndarray, bm25: np.ndarray, top_k: int, rrf_k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows that can reach the RRF top ``top_k``, with their exact vector and keyword ranks (0 = no keyword rank).

    ``cosine`` is ``-inf`` and ``bm25`` 0 on rows that must not be returned.
    The ranks are the ones full sorts of all rows would give.
    """
    depth = max(HEAD_DEPTH, top_k)
    while True:
        rows, vector_rank, keyword_rank, vector_reach, keyword_reach = _heads(cosine, bm25, depth)
        # Ranks still unknown: below the vector head, or below the keyword head with some keyword evidence.
        vector_unknown = vector_rank == 0
        keyword_unknown = (keyword_rank == 0) & (bm25[rows] > 0)
        # Worst case: an unknown rank adds nothing. Best case: it is the first rank below its head.
        worst = fused_scores([vector_rank, keyword_rank], rrf_k)
        best = worst + vector_unknown / (rrf_k + vector_reach + 1) + keyword_unknown / (rrf_k + keyword_reach + 1)
        # The top_k-th best worst case: at least top_k rows score that much, so a row whose best is lower is out.
        bar = np.partition(worst, len(worst) - top_k)[len(worst) - top_k] if len(worst) >= top_k else -np.inf
        keep = best >= bar
        rows, vector_rank, keyword_rank = rows[keep], vector_rank[keep], keyword_rank[keep]
        for i in np.flatnonzero(vector_unknown[keep]):
            vector_rank[i] = rank_of(cosine, rows[i])
        for i in np.flatnonzero(keyword_unknown[keep]):
            keyword_rank[i] = rank_of(bm25, rows[i])
        # The most a row outside both heads can score (nothing from a head that holds every row it ranks).
        outside = ((1 / (rrf_k + vector_reach + 1) if vector_reach else 0.0)
                   + (1 / (rrf_k + keyword_reach + 1) if keyword_reach else 0.0))
        fused = fused_scores([vector_rank, keyword_rank], rrf_k)
        if not vector_reach or (len(fused) >= top_k and np.sort(fused)[-top_k] > outside):
            return rows, vector_rank, keyword_rank
        depth *= 4


def score_contenders(cosine: np.ndarray, bm25: np.ndarray, top_k: int,
                     fuse: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                    np.ndarray]:
    """Rows that can reach the top ``top_k`` of a score fusion, their fused scores, and their ranks (0 = unknown).

    For fusions that grow with both scores and scale them by the best of each (``ConvexFusion``): the heads
    hold both bests, so fusing just these rows gives the very numbers fusing every row would. A row below
    both heads scores at most what the best scores just below them would fuse to.
    """
    depth = max(HEAD_DEPTH, top_k)
    while True:
        rows, vector_rank, keyword_rank, vector_reach, keyword_reach = _heads(cosine, bm25, depth)
        if not vector_reach:  # the vector head holds every row: nothing lies outside
            return rows, fuse(cosine[rows], bm25[rows]), vector_rank, keyword_rank
        # One extra, imaginary row with the lowest cosine of the vector head and the lowest BM25 of the keyword
        # head: every row outside both heads scores less on both, so it fuses to less than this row.
        ceiling_cosine = cosine[rows][vector_rank == vector_reach][0]
        ceiling_bm25 = bm25[rows][keyword_rank == keyword_reach][0] if keyword_reach else 0.0
        fused = fuse(np.append(cosine[rows], ceiling_cosine), np.append(bm25[rows], ceiling_bm25))
        fused, outside = fused[:-1], fused[-1]
        if len(fused) >= top_k and np.sort(fused)[-top_k] > outside:
            return rows, fused, vector_rank, keyword_rank
        depth *= 4


def complete_ranks(scores: np.ndarray, rows: np.ndarray, known: np.ndarray, floor: float) -> list[int | None]:
    """Each row's rank: ``known`` where it is not 0, else counted (rows scoring at most ``floor`` get None)."""
    return [int(rank) if rank else rank_of(scores, int(row)) if scores[row] > floor else None
            for row, rank in zip(rows, known)]
