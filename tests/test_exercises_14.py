"""Lesson 14's exercise checks pass the worked solutions and answer typical wrong attempts with a reason."""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests

from aria_kit.exercises import lesson14
from aria_kit.solutions import lesson14 as solved

CHECKS = [(lesson14.check_choose_then_report, solved.best_on_dev),
          (lesson14.check_choose_then_report, solved.simplest_near_best),
          (lesson14.check_winners_curse, solved.winners_curse)]

test_lesson14_checks_pass_the_worked_solutions, test_lesson14_checks_say_not_done_yet_for_a_stub = check_tests(CHECKS)


# ---------------------------------------------------------------- typical wrong answers


def _choose_on_heldout(candidates, dev_score, heldout_score):  # tunes on held-out: reads it for every candidate
    scores = {label: heldout_score(setting) for label, setting in candidates.items()}
    best = max(scores, key=scores.get)
    return best, scores[best]


def _report_the_dev_score(candidates, dev_score, heldout_score):
    scores = {label: dev_score(setting) for label, setting in candidates.items()}
    best = max(scores, key=scores.get)
    heldout_score(candidates[best])
    return best, scores[best]


def _always_the_first(candidates, dev_score, heldout_score):  # reads dev, then ignores it
    if not candidates:
        raise ValueError("no candidates")
    first = next(iter(candidates))
    dev_score(candidates[first])
    return first, heldout_score(candidates[first])


def _peek_then_choose(candidates, dev_score, heldout_score):  # one held-out read, but before dev is done
    if not candidates:
        raise ValueError("no candidates")
    labels = list(candidates)
    peek = heldout_score(candidates[labels[0]])
    scores = {label: dev_score(candidates[label]) for label in labels}
    best = max(scores, key=scores.get)
    return best, peek


def _break_ties_by_heldout(candidates, dev_score, heldout_score):  # a tie on dev decided by held-out: read once each
    scores = {label: dev_score(setting) for label, setting in candidates.items()}
    top = max(scores.values())
    tied = [label for label in scores if scores[label] == top]
    if len(tied) == 1:
        return tied[0], heldout_score(candidates[tied[0]])
    reads = {label: heldout_score(candidates[label]) for label in tied}
    best = max(reads, key=reads.get)
    return best, reads[best]


def _no_error_when_empty(candidates, dev_score, heldout_score):
    if not candidates:
        return None, float("nan")
    return solved.best_on_dev(candidates, dev_score, heldout_score)


def _curse_of_the_mean(n_settings, n_questions, p=0.5, repeats=500, seed=0):  # the mean setting, not the winner
    rng = np.random.default_rng(seed)
    dev = rng.binomial(n_questions, p, size=(repeats, n_settings)) / n_questions
    heldout = rng.binomial(n_questions, p, size=(repeats, n_settings)) / n_questions
    return float((dev.mean(axis=1) - heldout.mean(axis=1)).mean())


def _unseeded_curse(n_settings, n_questions, p=0.5, repeats=500, seed=0):
    return solved.winners_curse(n_settings, n_questions, p, repeats, seed=None)


@pytest.mark.parametrize("check, wrong, message", [
    (lesson14.check_choose_then_report, _choose_on_heldout, "read it once"),
    (lesson14.check_choose_then_report, _report_the_dev_score, "not its dev score"),
    (lesson14.check_choose_then_report, _always_the_first, "Rule 4"),
    (lesson14.check_choose_then_report, _peek_then_choose, "choose on dev first"),
    (lesson14.check_choose_then_report, _break_ties_by_heldout, "Rule 2"),
    (lesson14.check_choose_then_report, _no_error_when_empty, "raise ValueError"),
    (lesson14.check_winners_curse, _curse_of_the_mean, "best of 30"),
    (lesson14.check_winners_curse, _unseeded_curse, "seed the generator"),
])
def test_lesson14_checks_fail_typical_mistakes_with_a_reason(check, wrong, message, capsys):
    assert_refused(check(wrong), capsys, message)
