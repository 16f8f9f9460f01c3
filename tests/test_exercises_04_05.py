"""The exercise checks of lesson 05 pass the worked solutions and fail plausible wrong answers."""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import check_tests

from aria_kit.exercises import lesson05
from aria_kit.solutions import lesson05 as solved05

# ---------------------------------------------------------------- lesson 05


def _recall_over_k(ranking, relevant, k):
    return len(set(ranking[:k]) & set(relevant)) / k


def _recall_counting_duplicates(ranking, relevant, k):
    return sum(item in ranking[:k] for item in relevant) / len(relevant)


def _rr_from_zero(ranking, relevant):
    return next((1 / max(rank, 1) for rank, item in enumerate(ranking) if item in relevant), 0.0)


def _ndcg_ideal_uncapped(ranking, relevant, k=10):
    dcg = sum(1 / np.log2(r + 1) for r, item in enumerate(ranking[:k], 1) if item in relevant)
    return dcg / sum(1 / np.log2(r + 1) for r in range(1, len(set(relevant)) + 1))


def _ndcg_log_of_rank(ranking, relevant, k=10):
    dcg = sum(1 / np.log2(r + 1.5) for r, item in enumerate(ranking[:k], 1) if item in relevant)
    return dcg / sum(1 / np.log2(r + 1.5) for r in range(1, min(len(set(relevant)), k) + 1))


def _bootstrap_90(values, resamples=2000, seed=0):
    values = np.asarray(values, dtype=float)
    means = values[np.random.default_rng(seed).integers(0, len(values), (resamples, len(values)))].mean(axis=1)
    return tuple(np.percentile(means, [5, 95]))


def _bootstrap_of_the_values_not_the_mean(values, resamples=2000, seed=0):
    return tuple(np.percentile(np.asarray(values, dtype=float), [2.5, 97.5]))


def _bootstrap_unseeded(values, resamples=2000, seed=0):
    return solved05.bootstrap_interval(values, resamples, seed=None)


def _one_sided_sign_flip(a, b, resamples=10000, seed=0):
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(resamples, len(diff)))
    return float(((signs * diff).mean(axis=1) >= diff.mean() - 1e-12).sum() + 1) / (resamples + 1)


def _unseeded_sign_flip(a, b, resamples=10000, seed=0):
    return solved05.sign_flip_p_value(a, b, resamples, seed=None)


LESSON05 = [(lesson05.check_recall_at_k, solved05.recall_at_k), (lesson05.check_reciprocal_rank,
                                                                   solved05.reciprocal_rank),
            (lesson05.check_ndcg_at_k, solved05.ndcg_at_k), (lesson05.check_bootstrap_interval,
                                                             solved05.bootstrap_interval),
            (lesson05.check_sign_flip, solved05.sign_flip_p_value)]

test_lesson05_checks_pass_the_worked_solutions, test_lesson05_checks_say_not_done_yet_for_a_stub = check_tests(LESSON05)


@pytest.mark.parametrize("check, wrong, message", [
    (lesson05.check_recall_at_k, _recall_over_k, "distinct"),
    (lesson05.check_recall_at_k, _recall_counting_duplicates, "distinct"),
    (lesson05.check_reciprocal_rank, _rr_from_zero, "ranks from 1"),
    (lesson05.check_ndcg_at_k, _ndcg_ideal_uncapped, "min(number relevant, k)"),
    (lesson05.check_ndcg_at_k, _ndcg_log_of_rank, "log2(rank + 1)"),
    (lesson05.check_bootstrap_interval, _bootstrap_90, "2.5th and 97.5th"),
    (lesson05.check_bootstrap_interval, _bootstrap_of_the_values_not_the_mean, "each resample's mean"),
    (lesson05.check_bootstrap_interval, _bootstrap_unseeded, "seed the generator"),
    (lesson05.check_sign_flip, _one_sided_sign_flip, "which method comes first"),
    (lesson05.check_sign_flip, _unseeded_sign_flip, "seed the generator"),
])
def test_lesson05_checks_fail_typical_mistakes_with_a_reason(check, wrong, message, capsys):
    assert check(wrong) is False
    out = capsys.readouterr().out
    assert out.startswith("✗") and message in out, out


# ---------------------------------------------------------------- quizzes


@pytest.mark.parametrize("quiz", [lesson05.QUIZ], ids=["lesson05"])
def test_quiz_key_scores_full_marks_and_every_wrong_option_is_explained(quiz, capsys):
    key = {n: q.answer for n, q in enumerate(quiz.questions, 1)}
    assert 3 <= len(quiz.questions) <= 5
    assert quiz.grade(key) == len(quiz.questions)
    for n, question in enumerate(quiz.questions, 1):
        for letter in question.why_not:
            capsys.readouterr()
            assert quiz.grade({n: letter}) == 0
            assert question.why_not[letter] in capsys.readouterr().out
