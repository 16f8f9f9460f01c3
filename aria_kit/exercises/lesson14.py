"""Exercise checks for lesson 14 (going further: tuning without fooling yourself), and the lesson's quiz.

``check_choose_then_report`` grades exercise 14.1, a rule of the learner's design that chooses a
setting on dev and reports its held-out score, by properties, so "the best dev score", "the
simplest setting within a question of the best" or any other rule that looks only at dev passes:
it returns one of the candidates with that candidate's held-out score; it reads every dev score
before held-out, and held-out once; other held-out scores never change its choice; a clear dev
winner is chosen; no candidates raise. The scoring functions it hands over count their calls.
``check_winners_curse`` checks the stretch task's simulation on cases whose answer is known.
"""

from __future__ import annotations

from collections.abc import Callable

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true

SOLUTION = "lesson14"

EXERCISES = [
    Exercise("14.1", designs="a rule that chooses a setting on dev and reads held-out once, for the choice "
             "(best dev score, the simplest within a margin of it, or another rule that looks only at dev)",
             kind="design", minutes=20, solution=("best_on_dev", "simplest_near_best"),
             check="check_choose_then_report"),
    Exercise("Stretch 14", designs="a simulation of how much of a dev winner's lead is luck", kind="stretch",
             minutes=20, solution=("winners_curse",)),
]

# Dev and held-out scores of five candidates, listed simplest first; the check varies them.
CASES = [
    ({"a": 0.30, "b": 0.42, "c": 0.42, "d": 0.10, "e": 0.41}, {"a": 0.50, "b": 0.31, "c": 0.33, "d": 0.60, "e": 0.2}),
    ({"a": 0.20, "b": 0.25, "c": 0.70, "d": 0.30, "e": 0.10}, {"a": 0.90, "b": 0.80, "c": 0.40, "d": 0.95, "e": 0.9}),
    ({"a": 0.81, "b": 0.40, "c": 0.45, "d": 0.50, "e": 0.55}, {"a": 0.10, "b": 0.70, "c": 0.75, "d": 0.80, "e": 0.9}),
    ({"a": 0.50, "b": 0.50, "c": 0.50, "d": 0.50, "e": 0.50}, {"a": 0.10, "b": 0.20, "c": 0.30, "d": 0.40, "e": 0.5}),
]


def _run(fn: Callable, dev: dict[str, float], heldout: dict[str, float]) -> tuple[str, float, list[str]]:
    calls: list[str] = []

    def dev_score(setting: str) -> float:
        assert "heldout" not in calls, ("a dev score was read after the held-out one. Rule 2: choose on dev first, "
                                        "then read held-out")
        calls.append("dev")
        return dev[setting]

    def heldout_score(setting: str) -> float:
        calls.append("heldout")
        return heldout[setting]

    candidates = {f"setting {name}": name for name in dev}
    result = fn(candidates, dev_score, heldout_score)  # a stub raises NotImplementedError here
    assert isinstance(result, tuple) and len(result) == 2, f"returned {result!r}; return (label, held-out score)"
    chosen, reported = result
    assert chosen in candidates, f"chose {chosen!r}. Rule 1: return one of the labels {list(candidates)}"
    reads = calls.count("heldout")
    assert reads == 1, (f"held-out was read {reads} times. Rule 2: read it once, for the one setting chosen on dev "
                        "(reading it for every candidate is tuning on it)")
    assert calls.count("dev") >= 1, "no dev score was read: the choice must come from dev"
    assert abs(float(reported) - heldout[candidates[chosen]]) < 1e-12, (
        f"reported {reported} for {chosen!r}. Rule 1: report its held-out score ({heldout[candidates[chosen]]}), "
        "not its dev score")
    return chosen, float(reported), calls


def _choice_test(fn: Callable) -> None:
    for dev, heldout in CASES:
        chosen, _, _ = _run(fn, dev, heldout)
        assert _run(fn, dev, heldout)[0] == chosen, "the same scores gave another choice: a rule must repeat"
        flipped = {name: 1.0 - score for name, score in heldout.items()}
        other, _, _ = _run(fn, dev, flipped)
        assert other == chosen, (
            f"with the same dev scores {dev} you chose {chosen!r}, and {other!r} when only the held-out scores "
            "changed. Rule 3: the choice depends on dev alone")
        best = max(dev, key=dev.get)
        if all(dev[best] - score >= 0.2 for name, score in dev.items() if name != best):
            assert chosen == f"setting {best}", (
                f"dev scores {dev}: 'setting {best}' is ahead of every other by 0.2 or more, and you chose {chosen!r}. "
                "Rule 4: a clear dev winner is chosen")
    try:
        fn({}, lambda setting: 0.0, lambda setting: 0.0)
    except ValueError:
        return
    raise AssertionError("with no candidates there is nothing to choose. Rule 5: raise ValueError")


def _curse_test(fn: Callable) -> None:
    one = float(fn(1, 200, repeats=300, seed=1))  # a stub raises NotImplementedError here
    assert abs(one) < 0.02, f"one setting is chosen whatever its luck: its dev and held-out should agree, got {one:.3f}"
    few, many = float(fn(2, 100, repeats=300, seed=1)), float(fn(30, 100, repeats=300, seed=1))
    assert many > few > 0, (f"the best of 30 equally good settings should carry more luck than the best of 2; "
                            f"got {many:.3f} and {few:.3f}")
    assert float(fn(30, 1000, repeats=300, seed=1)) < many / 2, (
        "ten times the questions should cut the gap by about three: luck shrinks as questions grow")
    assert float(fn(30, 100, p=1.0, repeats=50, seed=1)) == 0.0, "with p = 1 every setting finds every answer: no gap"
    assert float(fn(30, 100, repeats=300, seed=1)) == many, "the same seed gave another figure: seed the generator"


def check_choose_then_report(fn: Callable) -> bool:
    """Check exercise 14.1: ``choose_then_report(candidates, dev_score, heldout_score)`` -> ``(label, held-out)``."""
    return check("Exercise 14.1 (choose on dev, report held-out once)", lambda: _choice_test(fn), SOLUTION)


def check_winners_curse(fn: Callable) -> bool:
    """Check the stretch task's ``winners_curse(settings, questions, p, repeats, seed)`` on known cases."""
    return check("Stretch 14 (the winner's curse)", lambda: _curse_test(fn), SOLUTION)


# The key of the predict question below, computed: it runs the kit on the question's case and returns the
# letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_tune_on_a_tie() -> str:
    """14: three notes, two questions whose answers every weight puts in the top 5: which weight does tune keep?"""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    ids = [memory.store(text) for text in ("The spare key is under the blue pot.", "Ines plays the cello.",
                                           "The boiler was serviced in March.")]
    try:
        memory.tune([("Where is the spare key?", [ids[0]]), ("Who plays the cello?", [ids[1]])])
    except ValueError:
        return "d"
    weight = memory.fusion.weight
    return only_true({"a": weight == 0.0, "b": weight == 0.5, "c": weight == 1.0, "d": False})


QUIZ = Quiz("Lesson 14", [
    Question(
        "You try 40 settings on the dev questions and keep the one with the highest dev score. On the held-out "
        "questions, what do you expect its score to be, and why?",
        {"a": "about its dev score: the same setting on questions cut by the same rule",
         "b": "lower, most likely: the highest of 40 noisy scores is partly luck on those questions",
         "c": "higher: held-out questions are the easier half",
         "d": "anything at all: dev scores say nothing about held-out ones"},
        "b", "picking the maximum of many noisy scores favours the settings that got lucky on dev (selection bias); "
             "the more settings tried, the more luck the winner carries.",
        {"a": "true for a setting fixed in advance; the choice itself was tuned to the dev questions' luck.",
         "c": "both splits are cut by the same rule; neither is meant to be easier.",
         "d": "dev scores carry real information; the chosen one is only biased upward, not meaningless."},
        kind="explain", case=("40 settings",)),
    Question(
        "A memory holds three notes, and you call memory.tune on two questions whose answers every weight puts in "
        "the top 5. Which weight does it keep?",
        {"a": "0.0: the first weight it tried", "b": "0.5: on a tie, the weight nearest the middle",
         "c": "1.0: the last weight it tried", "d": "none: it raises, since no weight is better than another"},
        "b", "every weight scores 1.0, and tune breaks ties toward 0.5 (then the smaller weight), so a tie leaves "
             "the default mix.",
        {"a": "a rule that keeps the first of equal scores would, but tune breaks ties toward the middle.",
         "c": "a rule that keeps the last improvement would; tune compares every weight's score at the end.",
         "d": "a tie is a result, not an error: every weight found every answer."},
        kind="predict", case=("three notes",), compute=_key_tune_on_a_tie),
    Question(
        "A walk from a baseline adds stems, then drops the query's stop words, then changes the fusion. On one set "
        "the stop-words step reads −0.021 [−0.047, +0.004], and the whole path is clearly ahead of the baseline. "
        "What does that show?",
        {"a": "that step is within noise there, after the stems; the path's lead comes from the steps together",
         "b": "dropping stop words hurts on that set: undo it and the end gains 0.021",
         "c": "the path's lead must be wrong, since one of its steps lost",
         "d": "dropping stop words helps, since the path it belongs to is ahead"},
        "a", "a step is measured against the step before it; an interval that includes 0 says the data cannot tell, "
             "and the path is measured as a pair of its own.",
        {"b": "the interval includes 0, and the step was measured after the stems: undone at the end, the change "
              "could differ.",
         "c": "the whole path is compared question by question on its own; steps within noise do not undo it.",
         "d": "the path's lead says nothing about which step made it."},
        kind="explain", case=("−0.021 [−0.047, +0.004]",)),
    Question(
        "Two ways to report a tuned fusion weight: (A) choose it on dev, then score held-out once; (B) choose it on "
        "dev and held-out together, then report the mean over both. Which tells you what a new user will see?",
        {"a": "A: the held-out questions played no part in the choice",
         "b": "B: twice the questions give a narrower interval",
         "c": "either: the bootstrap interval corrects for tuning",
         "d": "neither: score held-out after each weight tried, and report the best held-out score"},
        "a", "only questions that played no part in the choice measure the choice without its luck.",
        {"b": "narrower, yes, but around a number inflated by the tuning: precise and wrong.",
         "c": "the bootstrap knows nothing about how a setting was chosen; it only resamples the questions given.",
         "d": "then held-out has become a second dev set: choosing by it carries its luck into the number reported."},
        kind="choose"),
])
