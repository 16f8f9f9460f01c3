"""Reciprocal Rank Fusion, checked against hand-computed values and the properties it is used for."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from aria_kit.fusion import fused_scores, ranks, reciprocal_rank_fusion


def test_hand_computed_scores_with_k_60() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b", "c"], ["b", "c"]]))
    assert fused == {"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 63 + 1 / 62}


def test_scores_equal_exact_fractions() -> None:
    rankings = [["x", "y", "z", "w"], ["w", "x"], ["z"]]
    exact: dict[str, Fraction] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            exact[item] = exact.get(item, Fraction(0)) + Fraction(1, 10 + rank)
    for item, score in reciprocal_rank_fusion(rankings, k=10):
        assert score == pytest.approx(float(exact[item]), rel=1e-15)


def test_prefers_documents_ranked_high_by_both() -> None:
    vector = ["only_vector", "both", "x", "y"]
    keyword = ["only_keyword", "both", "z"]
    assert reciprocal_rank_fusion([vector, keyword])[0][0] == "both"


def test_an_id_missing_from_a_ranking_gets_nothing_from_it() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b"], ["a"]]))
    assert fused["b"] == 1 / 62


def test_single_ranking_preserves_order() -> None:
    ranking = ["d", "a", "c", "b"]
    assert [item for item, _ in reciprocal_rank_fusion([ranking])] == ranking


def test_larger_k_flattens_the_difference_between_ranks() -> None:
    ranking = ["first", "second"]

    def ratio(k: int) -> float:
        scores = dict(reciprocal_rank_fusion([ranking], k=k))
        return scores["first"] / scores["second"]

    assert ratio(0) == 2.0
    assert ratio(1) > ratio(10) > ratio(60) > ratio(1000) > 1.0


def test_ties_go_to_the_id_met_first_reading_the_rankings_in_order() -> None:
    # p and q both score 1/61 + 1/62; p comes first in the first ranking.
    assert [i for i, _ in reciprocal_rank_fusion([["p", "q"], ["q", "p"]])] == ["p", "q"]
    assert [i for i, _ in reciprocal_rank_fusion([["q", "p"], ["p", "q"]])] == ["q", "p"]
    # r and s each appear once at rank 1, in different rankings.
    assert [i for i, _ in reciprocal_rank_fusion([["r"], ["s"]])] == ["r", "s"]


def test_no_rankings_or_empty_rankings_give_nothing() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []


def test_an_id_listed_twice_in_one_ranking_is_rejected() -> None:
    with pytest.raises(ValueError, match="more than once"):
        reciprocal_rank_fusion([["a", "b", "a"]])


def test_negative_k_is_rejected() -> None:
    with pytest.raises(ValueError, match="k must be"):
        reciprocal_rank_fusion([["a"]], k=-1)


# ---------------------------------------------------------------- the vectorised form used by HybridMemory


def test_ranks_count_from_one_break_ties_by_position_and_skip_non_candidates() -> None:
    scores = np.array([0.5, 0.9, 0.5, 0.0, 0.7])
    assert ranks(scores).tolist() == [3, 1, 4, 5, 2]
    assert ranks(scores, np.flatnonzero(scores > 0)).tolist() == [3, 1, 4, 0, 2]


@pytest.mark.parametrize("seed", range(20))
def test_fused_scores_equal_reciprocal_rank_fusion_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 80)), int(rng.choice([0, 1, 60]))
    # Coarse scores make ties common; the keyword side only ranks positive scores.
    vector, keyword = rng.integers(0, 5, n).astype(float), rng.integers(0, 3, n).astype(float)
    vector_rank, keyword_rank = ranks(vector), ranks(keyword, np.flatnonzero(keyword > 0))
    ids = [f"doc{i}" for i in range(n)]
    by_rank = [[ids[i] for i in np.argsort(r) if r[i] > 0] for r in (vector_rank, keyword_rank)]
    fused = fused_scores([vector_rank, keyword_rank], k)
    order = np.lexsort((vector_rank, -fused))
    assert [(ids[i], float(fused[i])) for i in order] == reciprocal_rank_fusion(by_rank, k)
