"""Lesson 04's small memory: its rankings checked against an independent recomputation."""

from __future__ import annotations

import numpy as np
import pytest

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import EVAL_MEMORIES, build_eval_memory, rankings
from aria_kit.fusion import reciprocal_rank_fusion
from toy_memory import ToyMemory

SAMPLE_QUERIES = ["What does she drink in the morning?", "5190", "Which dashboards track the database?",
                  "Who is Alice's boss?", "Jepsen", "How does the database keep its copies in sync?"]


@pytest.fixture(scope="module")
def memory():
    return build_eval_memory()


# ---------------------------------------------------------------- lesson 04: the small memory


def test_the_small_memory_is_the_demo_facts_plus_more_about_the_same_people(memory):
    assert EVAL_MEMORIES[: len(DEMO_FACTS)] == DEMO_FACTS
    assert 20 <= len(EVAL_MEMORIES) - len(DEMO_FACTS) <= 30
    assert [record.id for record in memory.list_all()] == [f"mem_{i:04d}" for i in range(1, len(EVAL_MEMORIES) + 1)]
    assert [record.category for record in memory.list_all()] == [category for _, category in EVAL_MEMORIES]


def test_the_small_memory_runs_in_the_seeds_mode(memory):
    assert memory.rrf_k == 60 and not memory.stopwords


@pytest.mark.parametrize("query", SAMPLE_QUERIES)
def test_rankings_match_an_independent_recomputation_of_cosine_and_bm25(memory, query):
    ranked = rankings(memory, query)
    texts = [text for text, _ in EVAL_MEMORIES]
    ids = [f"mem_{i:04d}" for i in range(1, len(texts) + 1)]
    vectors = memory.embedder.embed(texts)
    cosine = vectors @ memory.embedder.embed([query])[0]
    assert ranked["vector"] == [ids[i] for i in np.argsort(-cosine, kind="stable")]
    index = BM25Index()
    for text in texts:
        index.add(tokenize(text))
    bm25 = index.scores(tokenize(query))
    matched = [i for i in np.argsort(-bm25, kind="stable") if bm25[i] > 0]
    assert ranked["keyword"] == [ids[i] for i in matched]
    assert ranked["fused"] == [item for item, _ in reciprocal_rank_fusion([ranked["vector"], ranked["keyword"]])]
    assert ranked["fused"] == [hit.id for hit in memory.search(query, top_k=len(ids))]


def test_refusing_with_another_k_changes_the_order_and_the_memorys_own_k_does_not(memory):
    query = "What does she drink in the morning?"
    assert rankings(memory, query, rrf_k=60) == rankings(memory, query)
    assert rankings(memory, query, rrf_k=1)["fused"] != rankings(memory, query)["fused"]


def test_a_backend_without_per_ranking_ranks_is_refused_with_a_reason():
    toy = ToyMemory()
    toy.store("Alice likes Rust")
    with pytest.raises(ValueError, match="does not report each hit's vector and keyword ranks"):
        rankings(toy, "Rust")


def _fused_rank(memory, query, answer, rrf_k=None):
    return rankings(memory, query, rrf_k)["fused"].index(answer) + 1


def test_what_lesson_04_says_about_its_showdown_queries_still_holds(memory):
    # The lesson quotes these ranks in words; if the embedder or BM25 changes, this says to rewrite it.
    order = rankings(memory, "5190")
    assert order["vector"].index("mem_0013") + 1 == 4 and order["keyword"] == ["mem_0013"]
    assert order["fused"][0] == "mem_0013"
    dashboards = rankings(memory, "Which dashboards track the database?")
    assert (dashboards["vector"].index("mem_0031") + 1, dashboards["keyword"].index("mem_0031") + 1) == (6, 4)
    assert dashboards["fused"].index("mem_0031") + 1 == 2
    drink = rankings(memory, "What does she drink in the morning?")
    assert drink["vector"][0] == "mem_0015" and "mem_0015" not in drink["keyword"]
    texts = {record.id: set(tokenize(record.text)) for record in memory.list_all()}
    shared = set().union(*(texts[i] & set(tokenize("What does she drink in the morning?")) for i in drink["keyword"]))
    assert len(drink["keyword"]) == 15 and shared == {"the", "in"}  # "fifteen memories that share only the or in"
    assert _fused_rank(memory, "What does she drink in the morning?", "mem_0015") == 16
    assert _fused_rank(memory, "What does she drink in the morning?", "mem_0015", rrf_k=1) == 2
    assert _fused_rank(memory, "Which dashboards track the database?", "mem_0031", rrf_k=1) == 5
