"""Lesson 05's split scoring, ablations and comparisons, checked against HybridMemory and measuring.py."""

from __future__ import annotations

import numpy as np
import pytest

from aria_kit.bm25 import STOPWORDS
from aria_kit.datasets import Document, LabelledQuery, LabelledSet, load_dataset
from aria_kit.evaluation import EVAL_MEMORIES, orderings
from aria_kit.fusion import RRF, ConvexFusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import bootstrap_interval, evaluate, fill_memory, paired, score
from aria_kit.tuning import (
    ablation,
    compare,
    failure_table,
    kit_default,
    method_name,
    one_factor_steps,
    one_factor_table,
    recall_curve,
    score_dataset,
    setting_label,
    summary_table,
)


@pytest.fixture(scope="module")
def small_set():
    """The 31 memories as a labelled set with a few questions in each split."""
    documents = tuple(Document(f"m{i:02d}", text) for i, (text, _) in enumerate(EVAL_MEMORIES, start=1))
    questions = [("What does she drink in the morning?", ("m15",), "dev"), ("5190", ("m13",), "dev"),
                 ("Which dashboards track the database?", ("m31",), "dev"), ("Jepsen", ("m25",), "heldout"),
                 ("Who is Alice's boss?", ("m10",), "heldout"), ("zzz", ("m01", "m02"), "heldout")]
    queries = {"dev": [], "heldout": []}
    for n, (text, relevant, split) in enumerate(questions):
        queries[split].append(LabelledQuery(f"q{n}", text, relevant, split))
    return LabelledSet("small", documents, {k: tuple(v) for k, v in queries.items()})


# ---------------------------------------------------------------- scoring a split once


@pytest.mark.parametrize("fusion", [RRF(60), RRF(5), ConvexFusion(0.3), ConvexFusion(1.0)], ids=repr)
@pytest.mark.parametrize("stopwords", [True, False])
@pytest.mark.parametrize("stemming", [True, False])
def test_scored_split_ranks_exactly_as_hybrid_memory_searches(small_set, fusion, stopwords, stemming):
    scored = score_dataset(small_set)
    store = HybridMemory(fusion=fusion, stopwords=STOPWORDS if stopwords else (), stemming=stemming)
    to_doc = fill_memory(small_set, store)
    for split in ("dev", "heldout"):
        for q, query in enumerate(small_set.queries[split]):
            expected = [to_doc[hit.id] for hit in store.search(query.text, top_k=10)]
            assert scored[split].ranking(q, fusion, stopwords, stemming, depth=10) == expected


def test_scored_split_vector_keyword_and_default_rankings_match_measurings_evaluate(small_set):
    scored = score_dataset(small_set)["dev"]
    reference = evaluate(small_set, "dev")  # HybridMemory() as a user gets it
    fusion, stopwords, stemming = kit_default()
    for method, ours in (("vector", "vector"), ("keyword", "keyword"), ("fused", fusion)):
        assert scored.rankings(ours, stopwords, stemming) == reference.rankings[method]


def test_scored_split_agrees_with_hybrid_memory_on_a_shipped_data_set():
    dataset = load_dataset("fanoutqa")
    head = LabelledSet(dataset.name, dataset.documents, {"dev": dataset.queries["dev"][:12], "heldout": ()})
    scored = score_dataset(head)
    assert set(scored) == {"dev"}  # an empty split is skipped
    store = HybridMemory(fusion=RRF(60), stopwords=STOPWORDS)  # stems, as the kit does by default
    to_doc = fill_memory(head, store)
    for q, query in enumerate(head.queries["dev"]):
        assert scored["dev"].ranking(q, RRF(60), stopwords=True, depth=20) == [to_doc[h.id] for h in store.search(query.text, 20)]


@pytest.mark.parametrize("window", [0, 1, 2])
def test_scored_split_indexes_thread_turns_with_their_neighbours_as_hybrid_memory_does(window):
    turns = load_dataset("chitchat_turns")
    threads = list(dict.fromkeys(d.metadata["thread"] for d in turns.documents))[:6]
    documents = tuple(d for d in turns.documents if d.metadata["thread"] in threads)
    ids = {d.id for d in documents}
    dev = tuple(q for q in turns.queries["dev"] + turns.queries["heldout"] if set(q.relevant) <= ids)
    head = LabelledSet("turns", documents, {"dev": dev, "heldout": ()})
    assert len(dev) >= 5
    scored = score_dataset(head, thread_window=window)["dev"]
    store = HybridMemory(thread_window=window)
    to_doc = fill_memory(head, store)
    for q, query in enumerate(dev):
        expected = [to_doc[h.id] for h in store.search(query.text, 15)]
        assert scored.ranking(q, kit_default()[0], depth=15) == expected
        keyword = orderings(store.search(query.text, len(documents)))["keyword"]
        assert scored.ranking(q, "keyword", depth=len(documents)) == [to_doc[memory_id] for memory_id in keyword]


def test_an_unknown_method_is_refused_by_name(small_set):
    with pytest.raises(ValueError, match="unknown method 'bm25'"):
        score_dataset(small_set)["dev"].ranking(0, "bm25")


def test_ablation_rows_are_the_means_of_the_per_query_metrics(small_set):
    scored = score_dataset(small_set)["dev"]
    methods = ["vector", "keyword", RRF(60), ConvexFusion(0.5)]
    rows = ablation(scored, methods, max_k=5)
    assert [(r.stopwords, r.stemming, r.method) for r in rows] == [
        (stop, stem, method_name(m)) for stop in (True, False) for stem in (True, False) for m in methods]
    for row, method in zip(rows, methods * 4):
        ranked = scored.rankings(method, row.stopwords, row.stemming)
        for k in range(1, 6):
            expected = np.mean([score(f"capped recall@{k}", r, q.relevant) for r, q in zip(ranked, scored.queries)])
            assert row.recall[k - 1] == pytest.approx(expected)
        assert row.ndcg == pytest.approx(np.mean([score("nDCG@10", r, q.relevant)
                                                  for r, q in zip(ranked, scored.queries)]))
        assert row.mrr == pytest.approx(np.mean([score("MRR", r, q.relevant) for r, q in zip(ranked, scored.queries)]))
    assert all(rows[0].recall == rows[i * len(methods)].recall for i in range(4))  # vector search reads neither
    assert method_name(ConvexFusion(0.5)) == "convex(w=0.5)" and method_name("vector") == "vector"


def test_kit_default_reports_what_a_plain_hybrid_memory_does():
    fusion, stopwords, stemming = kit_default()
    plain = HybridMemory()
    assert repr(plain.fusion) == repr(fusion) and bool(plain.stopwords) == stopwords
    assert plain.stemming == stemming


# ---------------------------------------------------------------- one factor at a time (lesson 05's claims file
# checks what the lesson says about the shipped data: tests/claims/lesson_05.py)


def test_one_factor_steps_change_exactly_one_setting_each_from_the_seed_to_the_default():
    steps = list(one_factor_steps().values())
    assert repr(steps[0][0]) == "RRF(k=60)" and steps[0][1:] == (False, False)
    assert repr(steps[-1][0]) == repr(kit_default()[0]) and steps[-1][1:] == kit_default()[1:]
    for before, after in zip(steps, steps[1:]):
        changed = [repr(x) != repr(y) for x, y in zip(before, after)]
        assert sum(changed) == 1, f"{before} -> {after} changes {sum(changed)} things"


def test_one_factor_table_reports_each_step_and_its_paired_change(small_set):
    split = score_dataset(small_set)["dev"]
    table = one_factor_table({"small": split})
    steps = one_factor_steps()
    assert [row[1] for row in table.rows] == list(steps) and table.rows[0][3] == "—"
    seed, stems = (split.scores(split.rankings(*s), "capped recall@5") for s in list(steps.values())[:2])
    assert table.rows[1][3].startswith(f"{(stems - seed).mean():+.3f} [")


def test_compare_pairs_the_same_queries_and_bootstraps_their_differences(small_set):
    split = score_dataset(small_set)["dev"]
    a, b = (RRF(60), False, False), ("vector", True, True)
    first, second = split.scores(split.rankings(*a), "MRR"), split.scores(split.rankings(*b), "MRR")
    result = compare(split, a, b, "MRR")
    assert len(set(split.clusters)) == len(split.queries)  # fact questions: each its own cluster
    assert (result["wins"], result["losses"], result["ties"]) == paired(first, second)
    assert (result["low"], result["high"]) == bootstrap_interval(first - second)
    assert result["difference"] == pytest.approx((first - second).mean())


def test_compare_can_rank_the_second_setting_on_another_scoring_of_the_same_questions():
    turns = load_dataset("chitchat_turns")
    head = LabelledSet("turns", turns.documents, {"dev": turns.queries["dev"][:20], "heldout": ()})
    context, plain = score_dataset(head)["dev"], score_dataset(head, thread_window=0)["dev"]
    default = kit_default()
    across = compare(context, default, default, other=plain)
    with_context = context.scores(context.rankings(*default), "capped recall@5")
    without = plain.scores(plain.rankings(*default), "capped recall@5")
    assert across["difference"] == pytest.approx((with_context - without).mean())
    assert compare(context, default, default)["difference"] == 0.0
    with pytest.raises(ValueError, match="same questions"):
        compare(context, default, default, other=score_dataset(LabelledSet(
            "turns", turns.documents, {"dev": turns.queries["dev"][1:3], "heldout": ()}), thread_window=0)["dev"])


def test_recall_curve_summary_and_labels_agree_with_the_ablation_rows(small_set):
    split = score_dataset(small_set)["dev"]
    row = ablation(split, [ConvexFusion(0.5)], max_k=4)[0]  # stop words dropped comes first
    assert recall_curve(split, (ConvexFusion(0.5), True, True), max_k=4) == pytest.approx(list(row.recall))
    table = summary_table({"small": split}, {"v": ("vector", True, True), "c": (ConvexFusion(0.5), True, True)},
                          ("MRR",))
    assert [r[:2] for r in table.rows] == [["small", "v"], ["small", "c"]] and table.headers == ["data set", "setting",
                                                                                                  "MRR"]
    assert table.rows[1][2].startswith(f"{row.mrr:.3f} [")
    assert setting_label((ConvexFusion(0.5), True, True)) == "convex(w=0.5) −stop +stem"
    assert setting_label(("vector", True, False)) == "vector" and setting_label((RRF(60), False, False)) == "rrf(k=60)"


def test_failure_table_lists_the_lowest_ranked_answers_with_exact_ranks(small_set):
    split = score_dataset(small_set)["heldout"]
    table = failure_table(small_set, split, (RRF(60), False, False), n=2)
    ranks_ = [row[3] for row in table.rows]
    everything = len(small_set.documents)
    full = {q.text: split.ranking(i, RRF(60), False, False, depth=everything) for i, q in enumerate(split.queries)}
    for row in table.rows:
        query = next(q for q in split.queries if q.text == row[0])
        assert row[3] == min(full[row[0]].index(r) + 1 for r in query.relevant)
    assert ranks_ == sorted(ranks_, reverse=True) and len(table.rows) == 2
