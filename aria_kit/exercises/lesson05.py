"""Exercise checks for lesson 05 (measuring memory), and the lesson's quiz.

The metric checks compare the learner's ``recall_at_k``, ``reciprocal_rank``
and ``ndcg_at_k`` with ``aria_kit.measuring`` on cases chosen to catch the usual
slips: several relevant ids, a relevant id just past the cut, none found, more
relevant ids than k (the ideal DCG has only k terms). ``check_bootstrap_interval``
cannot compare numbers exactly (any random generator will do), so it checks
what a 95% interval must do: contain the mean, collapse for constant values,
match ``measuring.bootstrap_interval`` to within Monte-Carlo noise, shrink as
queries are added, and repeat itself for the same seed. ``check_sign_flip``
checks the stretch task the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from aria_kit.exercises import check
from aria_kit.exercises.quiz import Question, Quiz
from aria_kit.measuring import bootstrap_interval, ndcg_at_k, recall_at_k, reciprocal_rank

SOLUTION = "lesson05"

RANKING = ["d3", "d7", "d1", "d9", "d4", "d2", "d8", "d5", "d6", "d0", "d11", "d12"]
RECALL_CASES = [(["d3"], 1), (["d7"], 1), (["d1", "d9"], 3), (["d1", "d9"], 4), (["d5", "d40"], 10),
                (["d40"], 5), (["d12"], 20), (["d3", "d3", "d40"], 1)]
RR_CASES = [["d3"], ["d1"], ["d4", "d9"], ["d40"], ["d0", "d12"]]
NDCG_CASES = [(["d3"], 10), (["d7"], 10), (["d1", "d9"], 10), (["d11"], 10), (["d40"], 10),
              (["d3", "d6", "d11", "d40"], 10), (["d7", "d1"], 2), (RANKING[:12], 10), (["d2", "d5"], 5)]


def _compare(name: str, mine: Callable, reference: Callable, cases: Sequence[tuple], hint: str) -> None:
    for args in cases:
        expected = reference(RANKING, *args)
        got = float(mine(list(RANKING), *args))  # a stub raises NotImplementedError here
        shown = ", ".join(repr(a) for a in args)
        assert abs(got - expected) < 1e-9, f"{name}(ranking, {shown}) should be {expected:.4f}, got {got:.4f} ({hint})"


def _recall_test(fn: Callable) -> None:
    _compare("recall_at_k", fn, recall_at_k, RECALL_CASES,
             "the share of the *distinct* relevant ids found among the first k, whatever the ranking's length")


def _rr_test(fn: Callable) -> None:
    _compare("reciprocal_rank", fn, reciprocal_rank, [(relevant,) for relevant in RR_CASES],
             "1 / the rank of the first relevant id, ranks from 1, and 0 when none is ranked")
    assert float(fn([], ["d1"])) == 0.0, "an empty ranking finds nothing: reciprocal rank 0"


def _ndcg_test(fn: Callable) -> None:
    _compare("ndcg_at_k", fn, ndcg_at_k, NDCG_CASES,
             "DCG = Σ 1/log2(rank + 1) over relevant ids in the top k; divide by the DCG of the best possible "
             "top k, which holds min(number relevant, k) relevant ids")


def _bootstrap_test(fn: Callable) -> None:
    spread = np.arange(20.0)  # 0, 1, …, 19: mean 9.5, standard error about 1.3
    low, high = (float(x) for x in fn(spread))  # a stub raises NotImplementedError here
    assert low < 9.5 < high, f"the interval ({low:.3f}, {high:.3f}) should contain the mean, 9.5"
    # Repeatability is checked on values with no ties (square roots): an unseeded generator could give the same
    # percentiles twice by chance on 0..19, whose resample means take only a few hundred distinct values.
    untied = np.sqrt(np.arange(1.0, 41.0))
    assert tuple(float(x) for x in fn(untied)) == tuple(float(x) for x in fn(untied)), (
        "two calls with the same values gave different intervals; seed the generator so results repeat")
    ref_low, ref_high = bootstrap_interval(spread)
    # Two correct generators differ by Monte-Carlo noise (about 0.1 here); a 90% interval is 0.4 narrower.
    assert abs(low - ref_low) < 0.25 and abs(high - ref_high) < 0.25, (
        f"for the numbers 0 to 19 you gave ({low:.2f}, {high:.2f}), a 95% bootstrap interval is about "
        f"({ref_low:.2f}, {ref_high:.2f}): resample the values with replacement, take each resample's mean, and "
        "keep the 2.5th and 97.5th percentiles of those means")
    flat = tuple(float(x) for x in fn(np.full(30, 0.25)))
    assert flat == (0.25, 0.25), f"every value is 0.25, so every resample's mean is too; got {flat}"
    more = np.tile(spread, 5)
    wide, narrow = high - low, float(np.subtract(*fn(more)[::-1]))
    assert narrow < 0.7 * wide, (
        f"with five times the queries the interval should be about {1 / np.sqrt(5):.2f} as wide; yours went from "
        f"{wide:.2f} to {narrow:.2f}")


def _sign_flip_test(fn: Callable) -> None:
    rng = np.random.default_rng(7)
    a = rng.random(60)
    same = float(fn(a, a.copy()))  # a stub raises NotImplementedError here
    assert same == 1.0, f"a method compared with itself differs by 0 on every query: p should be 1, got {same:.3f}"
    better = float(fn(a + 0.2, a))
    assert better < 0.01, f"a is 0.2 better on every one of 60 queries: p should be tiny, got {better:.4f}"
    noisy = a + rng.normal(0, 0.3, 60)
    p_ab, p_ba = float(fn(noisy, a)), float(fn(a, noisy))
    assert abs(p_ab - p_ba) < 0.03, f"the test should not care which method comes first: {p_ab:.3f} vs {p_ba:.3f}"
    assert p_ab > 0.05, f"pure noise around 0 should rarely look significant; got p = {p_ab:.3f}"
    assert float(fn(noisy, a)) == p_ab, "the same inputs gave another p; seed the generator so results repeat"


def check_recall_at_k(fn: Callable) -> bool:
    """Check ``recall_at_k(ranking, relevant, k)`` against ``measuring.recall_at_k``."""
    return check("Exercise 05.1 (recall@k)", lambda: _recall_test(fn), SOLUTION)


def check_reciprocal_rank(fn: Callable) -> bool:
    """Check ``reciprocal_rank(ranking, relevant)`` against ``measuring.reciprocal_rank``."""
    return check("Exercise 05.2 (reciprocal rank)", lambda: _rr_test(fn), SOLUTION)


def check_ndcg_at_k(fn: Callable) -> bool:
    """Check ``ndcg_at_k(ranking, relevant, k)`` against ``measuring.ndcg_at_k``."""
    return check("Exercise 05.3 (nDCG@k)", lambda: _ndcg_test(fn), SOLUTION)


def check_bootstrap_interval(fn: Callable) -> bool:
    """Check ``bootstrap_interval(values)`` -> ``(low, high)`` by what a 95% interval must do."""
    return check("Exercise 05.4 (bootstrap interval)", lambda: _bootstrap_test(fn), SOLUTION)


def check_sign_flip(fn: Callable) -> bool:
    """Check the stretch task's ``sign_flip_p_value(a, b)`` on cases whose answer is known."""
    return check("Stretch 05 (sign-flip test)", lambda: _sign_flip_test(fn), SOLUTION)


QUIZ = Quiz("Lesson 05", [
    Question(
        "You try twenty settings on the dev queries and keep the best. Why report its score on held-out queries "
        "rather than its dev score?",
        {"a": "held-out queries are harder", "b": "the best of twenty dev scores is partly luck on those queries; "
         "fresh queries measure what a user will see", "c": "dev scores have no interval",
         "d": "held-out queries are more numerous"},
        "b", "picking the maximum of many noisy scores favours settings that got lucky on dev.",
        {"a": "both splits are cut from the same data by the same rule; neither is meant to be harder.",
         "c": "the same bootstrap gives an interval on any split.",
         "d": "size is not the point: even a large dev split is biased once you tuned on it."}),
    Question(
        "A query has 2 labelled memories; the search's top 5 holds one of them, at rank 3. What are recall@5 and "
        "the reciprocal rank?",
        {"a": "0.5 and 1/3", "b": "1.0 and 1/3", "c": "0.5 and 0.5", "d": "0.2 and 1/3"},
        "a", "1 of 2 relevant memories found: 0.5; the first relevant one is at rank 3: 1/3.",
        {"b": "recall counts the share of the relevant memories found, and one of two is missing.",
         "c": "the reciprocal rank is 1 / the rank of the first relevant memory, here 1/3.",
         "d": "recall divides by the number of relevant memories (2), not by k (5)."}),
    Question(
        "Fused search beats vector search on 30 queries and loses on 25; the 95% interval of the mean "
        "difference is [−0.01, 0.04]. What do you conclude?",
        {"a": "fused is better", "b": "vector is better",
         "c": "no clear difference on this data: the interval includes 0",
         "d": "the data set is broken"},
        "c", "an interval that includes 0 means a difference of 0 is compatible with what was measured.",
        {"a": "more wins than losses can happen by chance; the interval says how much chance.",
         "b": "the point estimate even favours fused; nothing here says vector is better.",
         "d": "mixed results are normal: different queries favour different methods."}),
    Question(
        "Why compare two methods with paired per-query differences rather than two separate means?",
        {"a": "it is faster to compute", "b": "it needs no labels",
         "c": "both methods answer the same queries, so easy and hard queries cancel out in each difference",
         "d": "separate means cannot be computed for MRR"},
        "c", "pairing removes the variation between queries, so a smaller real difference becomes visible.",
        {"a": "the arithmetic costs about the same; the point is what it measures.",
         "b": "each method's score per query still comes from the labels.",
         "d": "a mean of reciprocal ranks is exactly what MRR is."}),
    Question(
        "A memory says \"Alice stored the backups\". The query is \"storing backup\". Which is true of its BM25 "
        "score with stemming off, and on (the kit's default)?",
        {"a": "positive both times: BM25 matches parts of words",
         "b": "0 without stemming (no token in common), positive with it (store, backup in both)",
         "c": "0 both times: stemming changes only the query",
         "d": "the same both times: stemming only changes the vector side"},
        "b", "without stemming the tokens stored/storing and backups/backup differ; stems put each pair on one token.",
        {"a": "BM25 compares whole tokens; a shared beginning counts for nothing.",
         "c": "the kit stems the memories when it indexes them and the query when it searches, with one stemmer.",
         "d": "the embedding never sees stems; stemming is a keyword-side setting."}),
])
