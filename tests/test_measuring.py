"""Retrieval metrics against hand-computed values, and evaluate() against the memory it measures."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from aria_kit.datasets import load_dataset
from aria_kit.fusion import RRF, ConvexFusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import (bootstrap_interval, capped_recall_at_k, evaluate, ndcg_at_k, paired, query_clusters,
                                recall_at_k, reciprocal_rank, score)


def test_recall_counts_the_share_of_relevant_ids_in_the_top_k() -> None:
    assert recall_at_k(["a", "x", "b", "y"], ["a", "b"], 2) == 0.5
    assert recall_at_k(["a", "x", "b", "y"], ["a", "b"], 3) == 1.0
    assert recall_at_k(["x"], ["a"], 10) == 0.0


def test_capped_recall_lets_a_perfect_top_k_score_one_when_more_than_k_are_relevant() -> None:
    relevant = [f"r{i}" for i in range(8)]
    assert recall_at_k(relevant, relevant, 5) == 5 / 8  # plain recall@5 cannot reach 1 here
    assert capped_recall_at_k(relevant, relevant, 5) == 1.0
    assert capped_recall_at_k(["a", "x", "b"], ["a", "b"], 5) == recall_at_k(["a", "x", "b"], ["a", "b"], 5) == 1.0
    assert capped_recall_at_k(["x", "r0"], relevant, 2) == 0.5 and score("capped recall@2", ["x", "r0"], relevant) == 0.5


def test_reciprocal_rank_is_one_over_the_first_relevant_position() -> None:
    assert reciprocal_rank(["x", "y", "b", "a"], ["a", "b"]) == 1 / 3
    assert reciprocal_rank(["x"], ["a"]) == 0.0


def test_ndcg_follows_the_textbook_formula() -> None:
    # DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal DCG for two relevant = 1 + 1/log2(3).
    assert ndcg_at_k(["a", "x", "b"], ["a", "b"], 10) == pytest.approx(1.5 / (1 + 1 / math.log2(3)))
    assert ndcg_at_k(["a", "b", "x"], ["a", "b"], 10) == pytest.approx(1.0)
    # More relevant ids than k: the ideal list is cut at k too, so a perfect top-k scores 1.
    assert ndcg_at_k(["a", "b"], ["a", "b", "c"], 2) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "a"], ["a"], 1) == 0.0


def test_score_dispatches_by_metric_name_and_refuses_unknown_ones() -> None:
    assert score("recall@1", ["a"], ["a"]) == 1.0 and score("MRR", ["x", "a"], ["a"]) == 0.5
    with pytest.raises(ValueError, match="unknown metric"):
        score("precision@5", ["a"], ["a"])


def test_paired_counts_wins_losses_and_ties() -> None:
    assert paired([1, 0, 0.5, 1], [0, 0, 1, 1]) == (1, 1, 2)
    with pytest.raises(ValueError):
        paired([1, 0], [1])


def test_bootstrap_interval_is_deterministic_and_brackets_the_mean() -> None:
    values = np.random.default_rng(1).random(200)
    low, high = bootstrap_interval(values)
    assert (low, high) == bootstrap_interval(values)
    assert low < values.mean() < high
    assert bootstrap_interval([0.5] * 10) == (0.5, 0.5)


def test_a_cluster_bootstrap_is_wider_when_questions_of_one_session_fail_together() -> None:
    # 30 sessions of 5 questions; a session's questions all succeed or all fail together.
    session_scores = np.random.default_rng(2).integers(0, 2, 30).astype(float)
    values, sessions = np.repeat(session_scores, 5), np.repeat(np.arange(30), 5)
    naive, clustered = bootstrap_interval(values), bootstrap_interval(values, clusters=sessions)
    assert clustered[1] - clustered[0] > 1.8 * (naive[1] - naive[0])  # about sqrt(5) wider
    assert clustered[0] < values.mean() < clustered[1]
    singletons = bootstrap_interval(values, clusters=list(range(len(values))))
    assert singletons == naive  # one question per cluster is the plain bootstrap
    with pytest.raises(ValueError, match="one cluster label per value"):
        bootstrap_interval(values, clusters=[1, 2])


def test_chat_questions_cluster_by_session_and_fact_questions_stand_alone() -> None:
    chat = load_dataset("chitchat")
    labels = query_clusters(chat, chat.queries["dev"])
    assert len(set(labels)) < len(labels)  # several questions per session
    assert labels[0] == chat.queries["dev"][0].relevant[0].rsplit("-c", 1)[0]
    facts = load_dataset("fanoutqa")
    assert len(set(query_clusters(facts, facts.queries["dev"]))) == len(facts.queries["dev"])


@pytest.fixture(scope="module")
def small_set():
    dataset = load_dataset("fanoutqa")
    return replace(dataset, queries={"dev": dataset.queries["dev"][:25], "heldout": ()})


def test_evaluate_reads_the_three_orderings_from_the_memory_itself(small_set) -> None:
    result = evaluate(small_set, "dev", memory=lambda: HybridMemory(fusion=RRF(60)), fusions={"again": RRF(60)})
    assert result.methods == ["vector", "keyword", "fused", "again"]
    # Re-fusing the hits' own scores with the memory's own fusion gives exactly the order search returned.
    assert result.rankings["again"] == result.rankings["fused"]
    memory = HybridMemory(fusion=RRF(60))
    memory.store_many([d.text for d in small_set.documents], [{"doc_id": d.id} for d in small_set.documents])
    query = small_set.queries["dev"][0]
    hits = memory.search(query.text, top_k=10)
    assert [hit.metadata["doc_id"] for hit in hits] == result.rankings["fused"][0][:10]


def test_evaluate_with_another_fusion_changes_some_rankings(small_set) -> None:
    result = evaluate(small_set, "dev", memory=lambda: HybridMemory(fusion=RRF(60)),
                      fusions={"convex": ConvexFusion(0.5)})
    assert result.rankings["convex"] != result.rankings["fused"]
    assert 0 <= result.mean("convex", "nDCG@10") <= 1
    comparison = result.compare("convex", "fused", "nDCG@10")
    assert comparison["wins"] + comparison["losses"] + comparison["ties"] == 25
    assert comparison["low"] <= comparison["difference"] <= comparison["high"]


def test_evaluate_refuses_an_unknown_split(small_set) -> None:
    with pytest.raises(ValueError, match="unknown split"):
        evaluate(small_set, "test")
