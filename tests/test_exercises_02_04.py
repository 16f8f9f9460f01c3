"""The exercise checks of lessons 02–04 pass the worked solutions and fail plausible wrong answers.

Each wrong answer is a mistake a learner could really make (a bare dot product,
rank_bm25's unsmoothed IDF, ranks counted from 0, …), so a check that stopped
checking something would turn one of these tests red.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from aria_kit.exercises import lesson02, lesson03, lesson04
from aria_kit.solutions.lesson02 import cosine, top_k_by_cosine
from aria_kit.solutions.lesson03 import bm25_term, idf
from exercise_checks import unwritten, verdict
from aria_kit.solutions.lesson04 import reciprocal_rank, rrf


CHECKS = [
    (lesson02.check_cosine, cosine),
    (lesson02.check_top_k, top_k_by_cosine),
    (lesson03.check_idf, idf),
    (lesson03.check_bm25_term, bm25_term),
    (lesson04.check_rrf, rrf),
    (lesson04.check_reciprocal_rank, reciprocal_rank),
]
IDS = [check.__name__ for check, _ in CHECKS]


@pytest.mark.parametrize(("check", "solution"), CHECKS, ids=IDS)
def test_every_check_accepts_the_worked_solution(check, solution, capsys):
    assert check(solution) is True
    assert verdict(capsys) == "✓"


@pytest.mark.parametrize(("check", "solution"), CHECKS, ids=IDS)
def test_an_untouched_stub_reads_as_not_done_yet_and_names_the_solution_file(check, solution, capsys):
    assert check(unwritten) is False
    out = capsys.readouterr().out
    assert out.startswith("○") and "not done yet" in out
    assert f'show_solution("lesson0{check.__module__[-1]}")' in out


# ---------------------------------------------------------------- plausible wrong answers: ✗


def _dot_product(a, b):
    return float(np.dot(a, b))  # forgot to divide by the lengths


def _worst_first(query, matrix, k):
    scores = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return list(np.argsort(scores)[:k])


def _by_dot_product(query, matrix, k):
    return list(np.argsort(-(matrix @ query))[:k])


def _okapi_idf(n, n_docs):
    return math.log((n_docs - n + 0.5) / (n + 0.5))  # rank_bm25's formula, negative for common terms


def _plain_idf(n, n_docs):
    return math.log(n_docs / n)  # the textbook TF-IDF idf, not BM25's


def _no_length_norm(tf, doc_len, avg_len, idf, k1=1.5, b=0.75):
    return idf * tf * (k1 + 1) / (tf + k1)


def _no_saturation(tf, doc_len, avg_len, idf, k1=1.5, b=0.75):
    return idf * tf * (1 - b + b * avg_len / doc_len)


def _ranks_from_zero(rankings, k=60):
    scores = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def _absent_counts_as_last(rankings, k=60):
    everything = {item for ranking in rankings for item in ranking}
    scores = dict.fromkeys(everything, 0.0)
    for ranking in rankings:
        for item in everything:
            rank = ranking.index(item) + 1 if item in ranking else len(ranking) + 1
            scores[item] += 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def _unsorted_rrf(rankings, k=60):
    return list(reversed(rrf(rankings, k)))


def _rank_not_reciprocal(ranking, relevant):
    return next((float(i) for i, item in enumerate(ranking, start=1) if item in relevant), 0.0)


def _last_relevant(ranking, relevant):
    ranks = [i for i, item in enumerate(ranking, start=1) if item in relevant]
    return 1.0 / ranks[-1] if ranks else 0.0


WRONG = [
    (lesson02.check_cosine, _dot_product, "divide the dot product by both lengths"),
    (lesson02.check_top_k, _worst_first, "least similar"),
    (lesson02.check_top_k, _by_dot_product, "ranked by dot product"),
    (lesson03.check_idf, _okapi_idf, "unsmoothed"),
    (lesson03.check_idf, _plain_idf, "should be"),
    (lesson03.check_bm25_term, _no_length_norm, "BM25Index scores"),
    (lesson03.check_bm25_term, _no_saturation, "can never exceed"),
    (lesson04.check_rrf, _ranks_from_zero, "ranks start at 1"),
    (lesson04.check_rrf, _absent_counts_as_last, "should score"),
    (lesson04.check_rrf, _unsorted_rrf, "not sorted best first"),
    (lesson04.check_reciprocal_rank, _rank_not_reciprocal, "should be"),
    (lesson04.check_reciprocal_rank, _last_relevant, "should be"),
]


@pytest.mark.parametrize(("check", "wrong", "hint"), WRONG, ids=[w.__name__ for _, w, _ in WRONG])
def test_a_plausible_wrong_answer_fails_with_a_hint(check, wrong, hint, capsys):
    assert check(wrong) is False
    out = capsys.readouterr().out
    assert out.startswith("✗") and hint in out, out


def test_a_crashing_answer_is_reported_not_raised(capsys):
    assert lesson04.check_rrf(lambda rankings, k=60: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out
