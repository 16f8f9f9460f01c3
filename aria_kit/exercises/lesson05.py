"""Exercise checks for lesson 05 (measuring memory), and the lesson's quiz.

Each check tests behaviour, not code shape, and answers a typical wrong attempt with the
smallest case that fails and a hint. ``check_ranking_score`` grades exercise 05.1, a score
for one ranking of the learner's design, by properties, so capped recall, reciprocal rank,
nDCG or any other reasonable score passes: in [0, 1]; 1 for a perfect top k; 0 when no
answer is in the top k, whatever lies below; never lower when an answer moves up; repeats
earn nothing; no labels raise. Cases go from the smallest up. ``check_cluster_bootstrap``
cannot compare numbers exactly (any generator will do), so it checks what a clustered 95%
interval must do. ``check_sign_flip`` checks the stretch task on cases whose answer is known.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.measuring import bootstrap_interval

SOLUTION = "lesson05"

EXERCISES = [
    Exercise("05.1", designs="a score for one ranking with stated properties (in [0, 1], 1 for a perfect top k, 0 "
             "when no answer is in it, never lower when an answer moves up, repeats earn nothing); capped recall is "
             "one answer", kind="design", minutes=20, solution=("capped_recall_at_k", "reciprocal_rank_at_k"),
             check="check_ranking_score"),
    Exercise("05.2", designs="a bootstrap interval for questions that come in sessions", kind="specification",
             minutes=25, solution=("cluster_bootstrap_interval",)),
    Exercise("Stretch 05", designs="a paired sign-flip test, compared with the bootstrap interval", kind="stretch",
             minutes=30, solution=("sign_flip_p_value",)),
]


def _score(fn: Callable, ranking: list[str], relevant: list[str], k: int) -> float:
    call = f"my_score({ranking}, {relevant}, k={k})"
    got = fn(list(ranking), list(relevant), k)  # a stub raises NotImplementedError here
    assert isinstance(got, (int, float, np.integer, np.floating)) and not isinstance(got, bool), (
        f"{call} returned {got!r}; return one number")
    got = float(got)
    assert -1e-9 <= got <= 1 + 1e-9, f"{call} = {got:.4f}. Rule 1: a score lies in [0, 1]"
    return got


def _score_cases() -> list[tuple[list[str], list[str], int]]:
    """(ranking, relevant, k) from the smallest up: every case of 1 to 4 ranked ids, then random ones."""
    cases = []
    for size in (1, 2, 3, 4):
        ranking = [f"d{i}" for i in range(1, size + 1)]
        pool = [*ranking, "d40"]  # d40 is relevant but never ranked
        for count in range(1, len(pool) + 1):
            for relevant in itertools.combinations(pool, count):
                cases += [(ranking, list(relevant), k) for k in range(1, size + 2)]
    rng = np.random.default_rng(5)
    for _ in range(150):
        ranking = [f"d{i}" for i in rng.permutation(12)[:int(rng.integers(3, 12))]]
        relevant = [f"d{i}" for i in rng.choice(15, size=int(rng.integers(1, 7)), replace=False)]
        cases.append((ranking, relevant, int(rng.integers(1, 10))))
    return cases


def _score_problem(fn: Callable, ranking: list[str], relevant: list[str], k: int) -> str | None:
    """The first rule ``fn`` breaks on this case, with its hint, or None."""
    wanted = list(dict.fromkeys(relevant))
    score = _score(fn, ranking, relevant, k)
    fit = min(k, len(wanted))
    others = [f"x{i}" for i in range(1, k + 1)]
    perfect = wanted + others
    if abs(_score(fn, perfect, relevant, k) - 1) > 1e-9:
        return (f"my_score({perfect}, {relevant}, k={k}) should be 1. Rule 2: its top {fit} are all relevant "
                f"ids, and no top {k} can do better (a top {k} holds at most min(k, number relevant) = "
                f"{fit} of them)")
    missing = others + wanted
    if abs(_score(fn, missing, relevant, k)) > 1e-9:
        return (f"my_score({missing}, {relevant}, k={k}) should be 0. Rule 3: no relevant id is in the top {k}")
    reordered = ranking[:k] + ranking[k:][::-1] + ["x99"]
    if abs(_score(fn, reordered, relevant, k) - score) > 1e-9:
        return (f"my_score({ranking}, {relevant}, k={k}) and my_score({reordered}, {relevant}, k={k}) differ, "
                f"though their top {k} is the same. Rule 3: what lies below rank k does not count")
    doubled = [*relevant, relevant[0]]
    if abs(_score(fn, ranking, doubled, k) - score) > 1e-9:
        return (f"my_score({ranking}, {doubled}, k={k}) differs from my_score({ranking}, {relevant}, k={k}). Rule 5: "
                f"count each relevant id once, {relevant[0]!r} listed twice is one answer")
    found = set(wanted)
    for i in range(min(k, len(ranking)) - 1):
        if ranking[i] not in found and ranking[i + 1] in found:
            swapped = [*ranking[:i], ranking[i + 1], ranking[i], *ranking[i + 2:]]
            if _score(fn, swapped, relevant, k) < score - 1e-9:
                return (f"my_score({swapped}, {relevant}, k={k}) is below my_score({ranking}, {relevant}, k={k}), "
                        f"though the only change is {ranking[i + 1]!r} moving up past {ranking[i]!r}. Rule 4: a "
                        "score never falls when an answer moves up")
    for j in range(1, min(k, len(ranking))):
        earlier = next((item for item in ranking[:j] if item in found), None)
        if earlier is not None and ranking[j] not in found:
            copied = [*ranking[:j], earlier, *ranking[j + 1:]]
            if _score(fn, copied, relevant, k) > score + 1e-9:
                return (f"my_score({copied}, {relevant}, k={k}) is above my_score({ranking}, {relevant}, k={k}): "
                        f"{earlier!r} ranked twice earned more. Rule 5: repeats earn nothing, an id ranked twice "
                        "is found once")
    return None


def _ranking_score_test(fn: Callable) -> None:
    for ranking, relevant, k in _score_cases():
        problem = _score_problem(fn, ranking, relevant, k)
        assert problem is None, problem
    try:
        fn(["d1", "d2"], [], 2)
    except ValueError:
        return
    raise AssertionError("my_score(['d1', 'd2'], [], 2) returned; rule 6: with no relevant ids a score means "
                         "nothing, raise ValueError (a mistake in the labels)")


def _cluster_test(fn: Callable) -> None:
    def interval(values, clusters) -> tuple[float, float]:
        low, high = fn(np.asarray(values, dtype=float), list(clusters))  # a stub raises NotImplementedError here
        return float(low), float(high)

    # 40 sessions of 5 questions that succeed or fail together: the evidence is 40 sessions, not 200 questions.
    sessions = np.random.default_rng(3).integers(0, 2, 40).astype(float)
    values, labels = np.repeat(sessions, 5), [f"s{i}" for i in np.repeat(np.arange(40), 5)]
    low, high = interval(values, labels)
    assert low < values.mean() < high, f"the interval ({low:.3f}, {high:.3f}) should contain the mean {values.mean()}"
    # Repeatability on values with no ties: on 0s and 1s an unseeded generator can repeat its percentiles by chance.
    untied, threes = np.sqrt(np.arange(1.0, 61.0)), np.repeat(np.arange(20), 3)
    assert interval(untied, threes) == interval(untied, threes), (
        "two calls with the same values gave different intervals: seed your generator")
    naive_low, naive_high = bootstrap_interval(values)
    once_low, once_high = bootstrap_interval(sessions)  # one value per session: what the data really hold
    assert high - low > 1.6 * (naive_high - naive_low), (
        f"sessions whose 5 questions always agree hold as much evidence as 40 questions, so the interval should be "
        f"about as wide as ({once_low:.2f}, {once_high:.2f}), not ({low:.2f}, {high:.2f}): resample whole "
        "sessions, not single questions")
    shuffled = np.random.default_rng(4).permutation(len(values))
    moved = interval(values[shuffled], [labels[i] for i in shuffled])
    assert abs((moved[1] - moved[0]) - (high - low)) < 0.08, (
        "the same sessions listed in another order gave a much different interval: group values by their label, "
        "wherever they sit")
    singles = interval(np.sqrt(np.arange(1.0, 61.0)), range(60))
    ref = bootstrap_interval(np.sqrt(np.arange(1.0, 61.0)))
    assert abs(singles[0] - ref[0]) < 0.25 and abs(singles[1] - ref[1]) < 0.25, (
        f"with one question per session this is the plain bootstrap, about ({ref[0]:.2f}, {ref[1]:.2f}); "
        f"got ({singles[0]:.2f}, {singles[1]:.2f})")
    # One session of nine questions that all succeed, nine sessions of one question that fail: the mean over
    # questions is 0.5 (every question weighs the same), while the mean of session means is 0.1.
    uneven = interval([1.0] * 9 + [0.0] * 9, ["big"] * 9 + [f"small{i}" for i in range(9)])
    assert uneven[0] <= 0.5 <= uneven[1], (
        f"for 9 successes in one session and 9 failures in nine sessions the mean over questions is 0.5, and your "
        f"interval ({uneven[0]:.2f}, {uneven[1]:.2f}) leaves it out: each resample's mean is over the questions "
        "it holds (sum of their values / their number), not a mean of session means")
    flat = interval(np.full(30, 0.25), np.repeat(np.arange(6), 5))
    assert flat == (0.25, 0.25), f"every value is 0.25, so every resample's mean is too; got {flat}"


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


def check_ranking_score(fn: Callable) -> bool:
    """Check exercise 05.1: ``my_score(ranking, relevant, k)`` has the six properties of the lesson's rubric."""
    return check("Exercise 05.1 (a score for one ranking)", lambda: _ranking_score_test(fn), SOLUTION)


def check_cluster_bootstrap(fn: Callable) -> bool:
    """Check ``cluster_bootstrap_interval(values, clusters)`` -> ``(low, high)`` by what it must do."""
    return check("Exercise 05.2 (a bootstrap by session)", lambda: _cluster_test(fn), SOLUTION)


def check_sign_flip(fn: Callable) -> bool:
    """Check the stretch task's ``sign_flip_p_value(a, b)`` on cases whose answer is known."""
    return check("Stretch 05 (sign-flip test)", lambda: _sign_flip_test(fn), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_recall_and_reciprocal_rank() -> str:
    """05: 2 labelled facts, found at ranks 2 and 5 of a top 10."""
    from aria_kit.measuring import recall_at_k, reciprocal_rank

    ranking = ["x1", "fact_a", "x2", "x3", "fact_b", "x4", "x5", "x6", "x7", "x8"]
    pair = (recall_at_k(ranking, ["fact_a", "fact_b"], 5), reciprocal_rank(ranking, ["fact_a", "fact_b"]))
    return only_true({"a": pair == (1.0, 0.35), "b": pair == (0.4, 0.5), "c": pair == (1.0, 0.5),
                      "d": pair == (1.0, 0.2)})


def _key_ndcg_of_one_answer() -> str:
    """05: one labelled answer, ranked 3rd: its nDCG@10."""
    from aria_kit.measuring import ndcg_at_k

    score = round(ndcg_at_k(["x1", "x2", "answer", "x3", "x4"], ["answer"], 10), 2)
    return only_true({"a": score == 0.33, "b": score == 0.5, "c": score == 1.0, "d": score == 0.63})


def _key_bootstrap_by_session() -> str:
    """05: 30 sessions of 4 questions that succeed or fail together; resample sessions instead of questions."""
    import numpy as np

    from aria_kit.measuring import bootstrap_interval

    rng = np.random.default_rng(0)
    outcomes = rng.integers(0, 2, size=30).astype(float)  # one outcome per session ...
    values = np.repeat(outcomes, 4)  # ... shared by its four questions
    sessions = np.repeat(np.arange(30), 4)
    low, high = bootstrap_interval(values)
    low_s, high_s = bootstrap_interval(values, clusters=sessions)
    return only_true({"a": high_s - low_s > high - low, "b": high_s - low_s < high - low,
                      "c": (low_s, high_s) == (low, high), "d": False})


QUIZ = Quiz("Lesson 05", [
    Question(
        "A question has 2 labelled facts, and a search ranks them 2nd and 5th in its top 10. What are its recall@5 "
        "and its reciprocal rank (the question's part of MRR)?",
        {"a": "recall@5 1.0 and reciprocal rank 0.35", "b": "recall@5 0.4 and reciprocal rank 0.5",
         "c": "recall@5 1.0 and reciprocal rank 0.5", "d": "recall@5 1.0 and reciprocal rank 0.2"},
        "c", "both facts are in the top 5, so recall@5 is 2/2; the reciprocal rank looks only at the first "
             "relevant hit, 1/2.",
        {"a": "0.35 is the mean of 1/2 and 1/5; the reciprocal rank counts the first relevant hit only.",
         "b": "recall divides the facts found by the facts labelled (2), not by the places in the top 5.",
         "d": "1/5 is the rank of the last relevant hit; MRR rewards how soon the first one comes."},
        kind="predict", case=("ranks them 2nd and 5th",), compute=_key_recall_and_reciprocal_rank),
    Question(
        "A question has one labelled answer, and a search ranks it 3rd. What is the question's nDCG@10?",
        {"a": "0.33", "b": "0.5", "c": "1.0", "d": "0.63"},
        "b", "the answer earns 1/log2(3 + 1) = 1/2, and the best possible ranking (the answer first) earns "
             "1/log2(2) = 1, so nDCG@10 is 0.5.",
        {"a": "1/3 is its reciprocal rank; nDCG discounts by log2(rank + 1), more gently than 1/rank.",
         "c": "1.0 is its recall@10 (the answer is in the top 10); nDCG also asks how high.",
         "d": "1/log2(3) is the gain of rank 2: the discount is log2(rank + 1), and the rank is 3."},
        kind="predict", case=("ranks it 3rd",), compute=_key_ndcg_of_one_answer),
    Question(
        "A test set holds 30 sessions of 4 questions, and the questions of one session succeed or fail together. If "
        "the bootstrap resamples whole sessions instead of single questions, what happens to the 95% interval?",
        {"a": "it gets wider: there are 30 independent units of evidence, not 120",
         "b": "it gets narrower: averaging within sessions removes noise",
         "c": "it stays the same: the mean does not change, so neither does the interval",
         "d": "it cannot be computed: resampling sessions leaves too few values to take percentiles of"},
        "a", "questions that move together count as less evidence than as many independent ones, so the spread of "
             "resampled means grows.",
        {"b": "nothing is averaged away: each resample still holds every question of the sessions it draws.",
         "c": "the point estimate stays, but the interval measures how much the mean would move on other sessions.",
         "d": "each of the 2,000 resamples still has a mean; 30 clusters are plenty to take percentiles over."},
        kind="predict", case=("30 sessions of 4 questions",), compute=_key_bootstrap_by_session),
    Question(
        "Cut each fanoutqa document down to its answer and article title, dropping the sub-question, and keyword "
        "search loses its lead over vector search (section 3). What does that show?",
        {"a": "the sub-questions repeat the question's words, so the shipped set favours keyword search",
         "b": "BM25 cannot score short documents",
         "c": "the embedder understands answers better than questions",
         "d": "keyword search's lead was luck on the dev questions"},
        "a", "a human wrote each sub-question from the question, reusing its words, and BM25 matches them; a memory "
             "of facts would not always hold such words.",
        {"b": "BM25 still scores the cut documents; they share fewer words with the question.",
         "c": "vector search also lost ground when the sub-questions were cut; it did not gain.",
         "d": "the same questions were scored both times; only the document text changed, and the lead went with it."},
        kind="explain", case=("fanoutqa",)),
])
