"""Lesson 05's exercise checks pass the worked solutions and answer typical wrong attempts with a reason."""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests

from aria_kit.exercises import lesson05
from aria_kit.solutions import lesson05 as solved

CHECKS = [(lesson05.check_ranking_score, solved.capped_recall_at_k),
          (lesson05.check_ranking_score, solved.reciprocal_rank_at_k), (lesson05.check_ranking_score, solved.ndcg_at_k),
          (lesson05.check_cluster_bootstrap, solved.cluster_bootstrap_interval),
          (lesson05.check_sign_flip, solved.sign_flip_p_value)]

test_lesson05_checks_pass_the_worked_solutions, test_lesson05_checks_say_not_done_yet_for_a_stub = check_tests(CHECKS)


# ---------------------------------------------------------------- typical wrong answers


def _plain_recall(ranking, relevant, k):  # divides by every relevant id: a perfect top k can score below 1
    return len(set(ranking[:k]) & set(relevant)) / len(set(relevant))


def _recall_counting_positions(ranking, relevant, k):  # an id ranked twice counts twice
    return min(1.0, sum(item in set(relevant) for item in ranking[:k]) / min(k, len(set(relevant))))


def _recall_with_duplicate_labels(ranking, relevant, k):  # 'd3' listed twice is two answers
    return len(set(ranking[:k]) & set(relevant)) / min(k, len(relevant))


def _recall_that_reads_below_k(ranking, relevant, k):  # a relevant id at rank k + 1 earns half a point
    found = len(set(ranking[:k]) & set(relevant)) + 0.5 * (len(ranking) > k and ranking[k] in set(relevant))
    return min(1.0, found / min(k, len(set(relevant))))


def _reciprocal_rank_past_k(ranking, relevant, k):  # not cut at k: an answer below the top k still scores
    return next((1 / rank for rank, item in enumerate(ranking, 1) if item in set(relevant)), 0.0)


def _score_that_doubts_a_lucky_first(ranking, relevant, k):  # halves an imperfect top k that starts with an answer
    wanted = set(relevant)
    found = len(set(ranking[:k]) & wanted) / min(k, len(wanted))
    return found if found == 1 or ranking[0] not in wanted else found / 2


def _score_without_a_label_check(ranking, relevant, k):
    return len(set(ranking[:k]) & set(relevant)) / max(1, min(k, len(set(relevant))))


def _bootstrap_ignoring_sessions(values, clusters, resamples=2000, seed=0):
    values = np.asarray(values, dtype=float)
    means = values[np.random.default_rng(seed).integers(0, len(values), (resamples, len(values)))].mean(axis=1)
    return tuple(np.percentile(means, [2.5, 97.5]))


def _bootstrap_of_session_means(values, clusters, resamples=2000, seed=0):  # a big session weighs as a small one
    values, clusters = np.asarray(values, dtype=float), list(clusters)
    means = np.array([values[[c == label for c in clusters]].mean() for label in dict.fromkeys(clusters)])
    picks = np.random.default_rng(seed).integers(0, len(means), (resamples, len(means)))
    return tuple(np.percentile(means[picks].mean(axis=1), [2.5, 97.5]))


def _bootstrap_unseeded(values, clusters, resamples=2000, seed=0):
    return solved.cluster_bootstrap_interval(values, clusters, resamples, seed=None)


def _one_sided_sign_flip(a, b, resamples=10000, seed=0):
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(resamples, len(diff)))
    return float(((signs * diff).mean(axis=1) >= diff.mean() - 1e-12).sum() + 1) / (resamples + 1)


def _unseeded_sign_flip(a, b, resamples=10000, seed=0):
    return solved.sign_flip_p_value(a, b, resamples, seed=None)


@pytest.mark.parametrize("check, wrong, message", [
    (lesson05.check_ranking_score, _plain_recall, "Rule 2"),
    (lesson05.check_ranking_score, _recall_counting_positions, "an id ranked twice is found once"),
    (lesson05.check_ranking_score, _recall_with_duplicate_labels, "count each relevant id once"),
    (lesson05.check_ranking_score, _recall_that_reads_below_k, "Rule 3"),
    (lesson05.check_ranking_score, _reciprocal_rank_past_k, "Rule 3"),
    (lesson05.check_ranking_score, _score_that_doubts_a_lucky_first, "Rule 4"),
    (lesson05.check_ranking_score, _score_without_a_label_check, "raise ValueError"),
    (lesson05.check_cluster_bootstrap, _bootstrap_ignoring_sessions, "resample whole sessions"),
    (lesson05.check_cluster_bootstrap, _bootstrap_of_session_means, "not a mean of session means"),
    (lesson05.check_cluster_bootstrap, _bootstrap_unseeded, "seed your generator"),
    (lesson05.check_sign_flip, _one_sided_sign_flip, "which method comes first"),
    (lesson05.check_sign_flip, _unseeded_sign_flip, "seed the generator"),
])
def test_lesson05_checks_fail_typical_mistakes_with_a_reason(check, wrong, message, capsys):
    assert_refused(check(wrong), capsys, message)
