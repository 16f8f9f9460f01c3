"""Exercise checks for lesson 05 (measuring memory), and the lesson's quiz.

Each check tests behaviour, not code shape, and answers a typical wrong attempt with the
smallest case that fails and a hint. ``check_capped_recall`` compares with
``measuring.capped_recall_at_k`` on edge cases (more relevant ids than k, ids listed twice,
k beyond the ranking) and on seeded random rankings. ``check_ndcg_at_k`` (the lesson's
warm-up) compares with ``measuring.ndcg_at_k``. ``check_cluster_bootstrap`` cannot compare
numbers exactly (any generator will do), so it checks what a clustered 95% interval must do.
``check_tune_then_report`` hands the learner's protocol scoring functions that count their
calls. ``check_sign_flip`` checks the stretch task on cases whose answer is known.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz
from aria_kit.measuring import bootstrap_interval, capped_recall_at_k, ndcg_at_k

SOLUTION = "lesson05"

EXERCISES = [
    Exercise("05.1", designs="a recall@k a perfect top k always scores 1 on, whatever the number of answers",
             kind="specification", minutes=15, solution=("capped_recall_at_k",)),
    Exercise("05.2", designs="nDCG@k written out from its formula", kind="warm-up", minutes=10,
             solution=("ndcg_at_k",)),
    Exercise("05.3", designs="a bootstrap interval for questions that come in sessions", kind="specification",
             minutes=25, solution=("cluster_bootstrap_interval",)),
    Exercise("05.4", designs="a tuning protocol that reads the held-out split once, after choosing",
             kind="specification", minutes=15, solution=("tune_then_report",)),
    Exercise("Stretch 05", designs="a paired sign-flip test, compared with the bootstrap interval", kind="stretch",
             minutes=30, solution=("sign_flip_p_value",)),
]

RANKING = ["d3", "d7", "d1", "d9", "d4", "d2", "d8", "d5", "d6", "d0", "d11", "d12"]
NDCG_CASES = [(["d3"], 10), (["d7"], 10), (["d1", "d9"], 10), (["d11"], 10), (["d40"], 10),
              (["d3", "d6", "d11", "d40"], 10), (["d7", "d1"], 2), (RANKING[:12], 10), (["d2", "d5"], 5)]


def _recall_test(fn: Callable) -> None:
    def case(ranking: list[str], relevant: list[str], k: int, hint: str) -> None:
        expected = capped_recall_at_k(ranking, relevant, k)
        got = float(fn(list(ranking), list(relevant), k))  # a stub raises NotImplementedError here
        assert abs(got - expected) < 1e-9, (f"capped_recall_at_k({ranking}, {relevant}, k={k}) should be "
                                            f"{expected:.4f}, got {got:.4f}: {hint}")

    case(RANKING, ["d3", "d1"], 3, "both relevant ids are in the top 3")
    case(RANKING, ["d3", "d7", "d1", "d9", "d4", "d2", "d8", "d5"], 5,
         "all five places hold a relevant id, and no top 5 can do better: divide by min(k, number relevant)")
    case(RANKING, ["d7", "d40"], 1, "the top 1 holds one of the two, and one is all it can hold")
    case(RANKING, ["d3", "d3", "d40"], 3, "count each relevant id once: 'd3' listed twice is one answer")
    case(["d1", "d1", "d2"], ["d1", "d2"], 2, "the top 2 finds 'd1' only; an id ranked twice is found once")
    case(RANKING[:3], ["d1", "d40"], 10, "k beyond the end of the ranking: count what the ranking holds")
    case(RANKING, ["d40"], 5, "nothing relevant is ranked: 0")
    rng = np.random.default_rng(5)
    for _ in range(200):
        relevant = [f"d{i}" for i in rng.choice(15, size=int(rng.integers(1, 9)), replace=False)]
        case(RANKING, relevant, int(rng.integers(1, 14)), "a random case; compare with the rule above")
    try:
        fn(RANKING, [], 5)
    except ValueError:
        return
    raise AssertionError("with no relevant ids recall means nothing: raise ValueError, as measuring's does")


def _ndcg_test(fn: Callable) -> None:
    for relevant, k in NDCG_CASES:
        expected = ndcg_at_k(RANKING, relevant, k)
        got = float(fn(list(RANKING), relevant, k))  # a stub raises NotImplementedError here
        assert abs(got - expected) < 1e-9, (
            f"ndcg_at_k(ranking, {relevant!r}, {k}) should be {expected:.4f}, got {got:.4f} (DCG = Σ 1/log2(rank + 1) "
            "over relevant ids in the top k; divide by the DCG of the best possible top k, which holds "
            "min(number relevant, k) relevant ids)")


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


def _protocol_test(fn: Callable) -> None:
    dev = {"a": 0.30, "b": 0.42, "c": 0.42, "d": 0.10}
    heldout = {"a": 0.50, "b": 0.31, "c": 0.33, "d": 0.60}
    calls: list[str] = []

    def dev_score(setting: str) -> float:
        assert not calls or calls[-1] != "heldout", "a dev score was read after the held-out one: choose first"
        calls.append("dev")
        return dev[setting]

    def heldout_score(setting: str) -> float:
        calls.append("heldout")
        return heldout[setting]

    candidates = {f"setting {name}": name for name in dev}
    chosen, reported = fn(candidates, dev_score, heldout_score)  # a stub raises NotImplementedError here
    reads = calls.count("heldout")
    assert reads == 1, (f"the held-out split was read {reads} times; read it once, for the one setting chosen on "
                        "dev (reading it for every candidate is tuning on it)")
    assert chosen == "setting b", (
        f"chose {chosen!r}; the highest dev score (0.42) is shared by 'setting b' and 'setting c': keep the first "
        "in the order given, so the choice does not depend on luck or on the held-out split")
    assert abs(float(reported) - heldout["b"]) < 1e-12, (
        f"reported {reported}; report the chosen setting's held-out score ({heldout['b']}), not its dev score")
    try:
        fn({}, dev_score, heldout_score)
    except ValueError:
        return
    raise AssertionError("with no candidates there is nothing to choose: raise ValueError")


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


def check_capped_recall(fn: Callable) -> bool:
    """Check ``capped_recall_at_k(ranking, relevant, k)`` against ``measuring.capped_recall_at_k``."""
    return check("Exercise 05.1 (capped recall@k)", lambda: _recall_test(fn), SOLUTION)


def check_ndcg_at_k(fn: Callable) -> bool:
    """Check ``ndcg_at_k(ranking, relevant, k)`` against ``measuring.ndcg_at_k``."""
    return check("Exercise 05.2 (nDCG@k)", lambda: _ndcg_test(fn), SOLUTION)


def check_cluster_bootstrap(fn: Callable) -> bool:
    """Check ``cluster_bootstrap_interval(values, clusters)`` -> ``(low, high)`` by what it must do."""
    return check("Exercise 05.3 (a bootstrap by session)", lambda: _cluster_test(fn), SOLUTION)


def check_tune_then_report(fn: Callable) -> bool:
    """Check ``tune_then_report(candidates, dev_score, heldout_score)`` -> ``(label, held-out score)``."""
    return check("Exercise 05.4 (tune on dev, report held-out once)", lambda: _protocol_test(fn), SOLUTION)


def check_sign_flip(fn: Callable) -> bool:
    """Check the stretch task's ``sign_flip_p_value(a, b)`` on cases whose answer is known."""
    return check("Stretch 05 (sign-flip test)", lambda: _sign_flip_test(fn), SOLUTION)


QUIZ = Quiz("Lesson 05", [
    Question(
        "You try twenty settings on the dev questions and keep the one with the highest dev score. On the held-out "
        "questions, what do you expect its score to be, and why?",
        {"a": "about its dev score: the same setting on questions cut by the same rule",
         "b": "lower, most likely: the highest of twenty noisy scores is partly luck on those questions",
         "c": "higher: held-out questions are the easier half",
         "d": "anything at all: dev scores say nothing about held-out ones"},
        "b", "picking the maximum of many noisy scores favours the settings that got lucky on dev (selection bias).",
        {"a": "true for a setting fixed in advance; the choice itself was tuned to the dev questions' luck.",
         "c": "both splits are cut by the same rule; neither is meant to be easier.",
         "d": "dev scores carry real information; the chosen one is only biased upward, not meaningless."},
        kind="predict"),
    Question(
        "A question has 8 labelled facts, and the top 5 of a search holds 5 of them. What are its recall@5 and "
        "its capped recall@5?",
        {"a": "0.625 and 1.0", "b": "1.0 and 1.0", "c": "0.625 and 0.625", "d": "1.0 and 0.625"},
        "a", "recall divides the 5 found by all 8 relevant; capped recall by min(5, 8) = 5, the most a top 5 can hold.",
        {"b": "plain recall divides by every relevant fact, so it cannot reach 1 with 8 answers and 5 places.",
         "c": "capped recall divides by min(k, number relevant): 5 here, so a perfect top 5 scores 1.",
         "d": "the two are swapped: capped recall is the one that forgives the lack of room."},
        kind="predict"),
    Question(
        "The questions of one chat session tend to succeed or fail together. If the bootstrap resamples whole "
        "sessions instead of single questions, what happens to the 95% interval?",
        {"a": "it gets wider: there are fewer independent units of evidence than questions",
         "b": "it gets narrower: averaging within sessions removes noise",
         "c": "it stays the same: the mean does not change, so neither does the interval",
         "d": "it cannot be computed when sessions have different sizes"},
        "a", "questions that move together count as less evidence than as many independent ones, so the spread of "
             "resampled means grows.",
        {"b": "nothing is averaged away: each resample still holds every question of the sessions it draws.",
         "c": "the point estimate stays, but the interval measures how much the mean would move on other sessions.",
         "d": "each resample's mean is the sum over the questions it holds divided by their number, whatever the sizes."},
        kind="predict"),
    Question(
        "Two ways to report a tuned fusion weight: (A) choose it on dev, then score held-out once; (B) choose it on "
        "dev and held-out together, then report the mean over both. Which tells you what a new user will see?",
        {"a": "A", "b": "B: twice the questions give a narrower interval",
         "c": "either: the bootstrap interval corrects for tuning",
         "d": "B, as long as the bootstrap resamples whole sessions"},
        "a", "only questions that played no part in the choice measure the choice without its luck.",
        {"b": "narrower, yes, but around a number inflated by the tuning: precise and wrong.",
         "c": "the bootstrap knows nothing about how a setting was chosen; it only resamples the questions given.",
         "d": "resampling sessions makes the interval honest about clustered questions, not about a choice made on "
              "those same questions: the mean is still inflated by the tuning."},
        kind="choose"),
    Question(
        "Cut each fanoutqa document down to its answer and article title, dropping the sub-question, and keyword "
        "search loses its lead over vector search (section 3). What does that show?",
        {"a": "the sub-questions repeat the question's words, so the shipped set favours keyword search",
         "b": "BM25 cannot score short documents",
         "c": "the embedder understands answers better than questions",
         "d": "the labels were wrong"},
        "a", "a human wrote each sub-question from the question, reusing its words, and BM25 matches them; a memory "
             "of facts would not always hold such words.",
        {"b": "BM25 still scores the cut documents; they share fewer words with the question.",
         "c": "vector search also lost ground when the sub-questions were cut; it did not gain.",
         "d": "the same labels were used for both versions; only the document text changed."},
        kind="explain"),
])
