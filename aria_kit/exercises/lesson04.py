"""Exercise checks for lesson 04 (hybrid search): Reciprocal Rank Fusion, then reciprocal rank.

``check_rrf(rrf)`` compares the learner's ``rrf(rankings, k=60)`` with
``fusion.reciprocal_rank_fusion`` — scores within 1e-12 and the order best
first (ids with equal scores may come in either order). The cases include an id
missing from one ranking, three rankings, and k = 0, so counting ranks from 0
or giving absent ids a score fails. ``check_reciprocal_rank(reciprocal_rank)``
compares with ``evaluation.reciprocal_rank``, including a query whose relevant
memory is not in the ranking at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aria_kit.evaluation import reciprocal_rank as reference_reciprocal_rank
from aria_kit.exercises import check
from aria_kit.fusion import reciprocal_rank_fusion

SOLUTION = "lesson04"

RRF_CASES: list[tuple[list[list[str]], int]] = [
    ([["a", "b", "c"], ["b", "c", "a"]], 60),
    ([["mem_3", "mem_5", "mem_2"], ["mem_3", "mem_1"]], 60),  # mem_5 and mem_2 are missing from the keyword list
    ([["x", "y"], ["y", "z"], ["z", "x", "y"]], 10),
    ([["a", "b", "c", "d"], ["d", "c"]], 0),
]


def _rrf_test(rrf: Callable[..., list[tuple[str, float]]]) -> None:
    for rankings, k in RRF_CASES:
        expected = dict(reciprocal_rank_fusion(rankings, k=k))
        got = list(rrf(rankings, k=k))  # a stub raises NotImplementedError here: "not done yet"
        got_scores = {item: float(score) for item, score in got}
        assert set(got_scores) == set(expected), (
            f"for {rankings} you returned ids {sorted(got_scores)}; expected each id that appears anywhere, once")
        for item, score in expected.items():
            assert abs(got_scores[item] - score) < 1e-12, (
                f"rrf({rankings}, k={k}): {item!r} should score {score:.6f}, got {got_scores[item]:.6f} "
                "(ranks start at 1, and each ranking adds 1/(k + rank))")
        scores = [float(score) for _, score in got]
        assert scores == sorted(scores, reverse=True), f"rrf({rankings}, k={k}) is not sorted best first: {got}"


def _reciprocal_rank_test(reciprocal_rank: Callable[[Sequence[str], Sequence[str]], float]) -> None:
    cases = [(["m1", "m2", "m3"], ["m1"]), (["m1", "m2", "m3"], ["m3"]), (["m4", "m2", "m9"], ["m9", "m2"]),
             (["m1", "m2"], ["m7"]), ([], ["m1"])]
    for ranking, relevant in cases:
        expected = reference_reciprocal_rank(ranking, relevant)
        got = float(reciprocal_rank(ranking, relevant))  # a stub raises NotImplementedError here
        assert abs(got - expected) < 1e-12, (
            f"reciprocal_rank({ranking}, relevant={relevant}) should be {expected:.4f}, got {got:.4f}"
            + (" (when no relevant id is ranked, the reciprocal rank is 0)" if expected == 0 else ""))


def check_rrf(rrf: Callable[..., list[tuple[str, float]]]) -> bool:
    """Check ``rrf(rankings, k=60)``: fuse lists of ids into ``[(id, score), …]``, best first."""
    return check("Exercise 4.1 (Reciprocal Rank Fusion)", lambda: _rrf_test(rrf), SOLUTION)


def check_reciprocal_rank(reciprocal_rank: Callable[[Sequence[str], Sequence[str]], float]) -> bool:
    """Check ``reciprocal_rank(ranking, relevant)``: 1 / rank of the first relevant id, 0 if none is ranked."""
    return check("Exercise 4.2 (reciprocal rank)", lambda: _reciprocal_rank_test(reciprocal_rank), SOLUTION)
