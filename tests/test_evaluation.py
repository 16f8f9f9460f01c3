"""The labelled evaluation: metrics against hand-worked values, rankings against an independent recomputation."""

from __future__ import annotations

import numpy as np
import pytest

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import (
    EVAL_MEMORIES,
    EVAL_QUERIES,
    RANKINGS,
    EvalQuery,
    QueryResult,
    build_eval_memory,
    evaluate,
    first_relevant_rank,
    kind_table,
    rankings,
    recall_at_k,
    reciprocal_rank,
    results_table,
    summarize,
    summary_table,
)
from aria_kit.fusion import reciprocal_rank_fusion
from toy_memory import ToyMemory


@pytest.fixture(scope="module")
def memory():
    return build_eval_memory()


@pytest.fixture(scope="module")
def results(memory):
    return evaluate(memory)


# ---------------------------------------------------------------- the labelled set


def test_the_set_is_the_demo_facts_plus_more_about_the_same_people_and_projects(memory):
    assert EVAL_MEMORIES[: len(DEMO_FACTS)] == DEMO_FACTS
    assert 20 <= len(EVAL_MEMORIES) - len(DEMO_FACTS) <= 30
    assert [record.id for record in memory.list_all()] == [f"mem_{i:04d}" for i in range(1, len(EVAL_MEMORIES) + 1)]
    assert [record.category for record in memory.list_all()] == [category for _, category in EVAL_MEMORIES]


def test_every_query_is_labelled_with_existing_memories_and_a_known_kind(memory):
    assert 15 <= len(EVAL_QUERIES) <= 25
    assert len({q.text for q in EVAL_QUERIES}) == len(EVAL_QUERIES)
    ids = {record.id for record in memory.list_all()}
    for query in EVAL_QUERIES:
        assert query.relevant and set(query.relevant) <= ids, query
    assert {q.kind for q in EVAL_QUERIES} == {"paraphrase", "exact", "rare name", "mixed"}


def test_exact_and_rare_name_queries_name_a_token_their_answer_contains(memory):
    # The label is right by construction: the id, number or name typed is in the memory's text.
    texts = {record.id: tokenize(record.text) for record in memory.list_all()}
    for query in EVAL_QUERIES:
        if query.kind in ("exact", "rare name"):
            specific = [t for t in tokenize(query.text) if t not in {"order", "is", "there", "any", "news", "on"}]
            assert all(set(specific) <= set(texts[i]) for i in query.relevant), query


# ---------------------------------------------------------------- metrics


def test_recall_at_k_counts_the_share_of_relevant_ids_in_the_top_k():
    ranking = ["m1", "m2", "m3", "m4"]
    assert recall_at_k(ranking, ["m2"], 1) == 0.0
    assert recall_at_k(ranking, ["m2"], 2) == 1.0
    assert recall_at_k(ranking, ["m1", "m4"], 3) == 0.5
    assert recall_at_k(ranking, ["m9"], 10) == 0.0
    with pytest.raises(ValueError, match="at least one relevant"):
        recall_at_k(ranking, [], 3)


def test_reciprocal_rank_is_one_over_the_first_relevant_rank_and_zero_when_missing():
    ranking = ["m1", "m2", "m3", "m4"]
    assert reciprocal_rank(ranking, ["m1"]) == 1.0
    assert reciprocal_rank(ranking, ["m4", "m3"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(ranking, ["m9"]) == 0.0
    assert first_relevant_rank(ranking, ["m4", "m3"]) == 3
    assert first_relevant_rank(ranking, ["m9"]) is None


def test_verdict_compares_fusion_with_the_better_single_ranking():
    query = EvalQuery("q", ("b",), "mixed")
    helps = QueryResult(query, {"vector": ["a", "c", "b"], "keyword": ["c", "a", "b"], "fused": ["a", "b", "c"]})
    same = QueryResult(query, {"vector": ["b", "a"], "keyword": [], "fused": ["b", "a"]})
    hurts = QueryResult(query, {"vector": ["b", "a"], "keyword": ["a"], "fused": ["a", "b"]})
    assert [r.verdict() for r in (helps, same, hurts)] == ["helps", "same", "hurts"]
    assert same.rank("keyword") is None


def test_summary_is_the_mean_over_queries_computed_independently(results):
    summary = summarize(results, k=3)
    for name in RANKINGS:
        ranks = [r.rank(name) for r in results]
        mrr = np.mean([1 / rank if rank else 0.0 for rank in ranks])
        assert summary[name]["MRR"] == pytest.approx(mrr)
        hits = [len(set(r.rankings[name][:3]) & set(r.query.relevant)) / len(r.query.relevant) for r in results]
        assert summary[name]["recall@3"] == pytest.approx(np.mean(hits))


# ---------------------------------------------------------------- rankings come from HybridMemory itself


@pytest.mark.parametrize("query", [q.text for q in EVAL_QUERIES[::3]])
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


def test_refusing_with_the_memorys_own_k_reproduces_its_fused_order_exactly(memory, results):
    assert [r.rankings for r in evaluate(memory, rrf_k=memory.rrf_k)] == [r.rankings for r in results]


def test_a_different_rrf_k_changes_the_fused_order_of_some_query(memory, results):
    changed = [r for r, s in zip(results, evaluate(memory, rrf_k=1)) if r.rankings["fused"] != s.rankings["fused"]]
    assert changed


def test_a_backend_without_per_ranking_ranks_is_refused_with_a_reason():
    toy = ToyMemory()
    toy.store("Alice likes Rust")
    with pytest.raises(ValueError, match="does not report each hit's vector and keyword ranks"):
        rankings(toy, "Rust")


# ---------------------------------------------------------------- the honest picture the lesson describes


def test_fusion_helps_on_some_queries_and_hurts_on_others(results):
    # Lesson 04 says so in words; if the embedder or BM25 changes, this tells us to rewrite it.
    verdicts = {r.verdict() for r in results}
    assert {"helps", "hurts", "same"} <= verdicts


def test_keyword_search_finds_the_exact_ids_that_vector_search_ranks_lower(results):
    by_text = {r.query.text: r for r in results}
    for text in ("5190", "order 4812"):
        assert by_text[text].rank("keyword") == 1 < by_text[text].rank("vector")


def test_tables_show_one_row_per_query_and_per_ranking(results):
    per_query = results_table(results)
    assert len(per_query) == len(EVAL_QUERIES)
    assert per_query.headers == ["query", "kind", "relevant", "vector", "keyword", "fused", "fusion"]
    summary = summary_table(results, k=3)
    assert [row[0] for row in summary.rows] == list(RANKINGS)
    assert summary.headers == ["ranking", "recall@3", "MRR"]


def test_kind_table_summarises_each_kind_of_query_separately(results):
    table = kind_table(results, k=3)
    assert [row[0] for row in table.rows] == ["paraphrase", "exact", "rare name", "mixed"]
    assert sum(row[1] for row in table.rows) == len(results)
    exact = [r for r in results if r.query.kind == "exact"]
    assert table.rows[1][2:] == [*(summarize(exact)[n]["recall@3"] for n in RANKINGS),
                                 *(summarize(exact)[n]["MRR"] for n in RANKINGS)]
