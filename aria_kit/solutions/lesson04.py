"""Worked solutions for lesson 04 (hybrid search and its evaluation).

Open this when you are stuck on exercise 4.1 or 4.2. ``aria_kit.fusion`` holds
the same RRF with input checks and a documented tie order, and
``aria_kit.evaluation`` the same reciprocal rank; HybridMemory does the RRF sum
vectorised with numpy.
"""

from __future__ import annotations

from collections.abc import Sequence


def rrf(rankings: Sequence[Sequence[str]], k: int = 60) -> list[tuple[str, float]]:
    """Fuse rankings (lists of ids, best first): each id earns 1/(k + rank) per ranking it is in, ranks from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: pair[1], reverse=True)


def reciprocal_rank(ranking: Sequence[str], relevant: Sequence[str]) -> float:
    """1 / (rank of the first relevant id), or 0.0 when no relevant id is in the ranking."""
    for rank, item in enumerate(ranking, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0
