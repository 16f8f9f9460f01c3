"""Lesson 02's checks hold a learner to the specification, and answer each typical mistake with its case.

Wrong answers are ones learners write: dividing by the whole matrix's norm or by a sum, NaN for a
zero row, a list where an array was asked for, dividing in place, a bare dot product, ``a / b * c``
for ``a / (b * c)``, an unstable sort. Correct answers written other ways (a Python loop, ``math``,
``sorted``) pass, and hypothesis checks the spec's properties on the worked solution itself.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests, unwritten
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from solved_lessons import run_solved

from aria_kit.exercises import lesson02
from aria_kit.solutions import lesson02 as s02


class _UnwrittenEmbedder(s02.OrderAwareEmbedder):
    def __init__(self):
        pass

    def embed(self, texts):
        raise NotImplementedError


CHECKS = [
    (lesson02.check_unit_length, s02.to_unit_length, unwritten),
    (lesson02.check_cosine, s02.cosine, unwritten),
    (lesson02.check_top_k, s02.top_k_by_cosine, unwritten),
    (lesson02.check_order_aware_embedder, s02.OrderAwareEmbedder(), _UnwrittenEmbedder()),
]
test_every_check_accepts_the_worked_solution, test_an_untouched_stub_reads_as_not_done_yet = check_tests(CHECKS)

# ---------------------------------------------------------------- other correct designs pass


def _unit_by_loop(vectors):
    out = np.zeros_like(vectors, dtype=float)
    for i, row in enumerate(vectors):
        length = math.sqrt(sum(float(x) ** 2 for x in row))
        if length:
            out[i] = row / length
    return out


def _cosine_with_math(a, b):
    dot = sum(float(x) * float(y) for x, y in zip(a, b))
    lengths = math.hypot(*a) * math.hypot(*b)
    return dot / lengths if lengths else 0.0


def _top_k_with_sorted(query, matrix, k):
    scores = [_cosine_with_math(row, query) for row in matrix]
    return sorted(range(len(matrix)), key=lambda i: -scores[i])[:k]


@pytest.mark.parametrize(("check", "answer"), [(lesson02.check_unit_length, _unit_by_loop),
                                               (lesson02.check_cosine, _cosine_with_math),
                                               (lesson02.check_top_k, _top_k_with_sorted)])
def test_a_correct_answer_written_another_way_passes(check, answer, capsys):
    assert check(answer) is True, capsys.readouterr().out


# ---------------------------------------------------------------- the spec's properties hold for the solution

finite = st.floats(-1e3, 1e3, allow_nan=False, width=64)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)), elements=finite))
def test_unit_rows_keep_their_direction_and_zero_rows_stay_zero(matrix):
    before = matrix.copy()
    unit = s02.to_unit_length(matrix)
    assert np.array_equal(matrix, before) and isinstance(unit, np.ndarray) and unit.shape == matrix.shape
    lengths = np.linalg.norm(matrix, axis=1)
    for row, out, length in zip(matrix, unit, lengths):
        if length > 1e-150:  # a row that is not (numerically) zero: unit length, same direction
            assert math.isclose(np.linalg.norm(out), 1, rel_tol=1e-9)
            assert np.allclose(out * length, row, atol=1e-9 * max(1.0, length))
        elif length == 0:
            assert not out.any()


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, 4, elements=finite), arrays(np.float64, 4, elements=finite),
       st.floats(0.01, 100))
def test_cosine_is_symmetric_bounded_and_blind_to_length(a, b, stretch):
    value = s02.cosine(a, b)
    assert -1 - 1e-9 <= value <= 1 + 1e-9
    assert value == pytest.approx(s02.cosine(b, a), abs=1e-12)
    if not a.any() or not b.any():
        assert value == 0.0  # a zero vector has no direction
    elif np.linalg.norm(a) > 1e-100 and np.linalg.norm(b) > 1e-100:  # far from underflow
        assert value == pytest.approx(s02.cosine(a * stretch, b), abs=1e-9)


# ---------------------------------------------------------------- typical wrong answers


def _divides_by_matrix_norm(vectors):
    return np.asarray(vectors, dtype=float) / np.linalg.norm(vectors)


def _nan_for_zero_rows(vectors):
    vectors = np.asarray(vectors, dtype=float)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _divides_by_sum(vectors):
    vectors = np.asarray(vectors, dtype=float)
    sums = np.abs(vectors).sum(axis=1, keepdims=True)
    return np.divide(vectors, sums, out=np.zeros_like(vectors), where=sums > 0)


def _returns_a_list(vectors):
    return s02.to_unit_length(vectors).tolist()


def _divides_in_place(vectors):
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    np.divide(vectors, lengths, out=vectors, where=lengths > 0)
    return vectors


def _dot_product(a, b):
    return float(np.dot(a, b))  # forgot to divide by the lengths


def _textbook_cosine(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))  # NaN for a zero vector


def _precedence_slip(a, b):
    return float(np.dot(a, b) / np.linalg.norm(a) * np.linalg.norm(b))


def _cosine_as_array(a, b):
    return s02.to_unit_length(np.array([a])) @ s02.to_unit_length(np.array([b])).T  # a 1×1 matrix


def _worst_first(query, matrix, k):
    scores = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return list(np.argsort(scores)[:k])


def _by_dot_product(query, matrix, k):
    return list(np.argsort(-(matrix @ query))[:k])


def _unstable_sort(query, matrix, k):
    scores = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return list(np.argsort(-scores)[:k])  # numpy's default sort may reorder equal scores


class _BagOfWords(s02.OrderAwareEmbedder):
    def __init__(self):
        super().__init__(order_weight=0.0)  # WordLlama alone: word order is still lost


class _TrigramsOnly(s02.OrderAwareEmbedder):
    def __init__(self):
        super().__init__(order_weight=1.0)  # hears the order, has lost the meaning


WRONG = [
    (lesson02.check_unit_length, _divides_by_matrix_norm, "", "divide each row by its own length"),
    (lesson02.check_unit_length, _nan_for_zero_rows, "", "became NaN"),
    (lesson02.check_unit_length, _divides_by_sum, "", "square root of the sum of its squares"),
    (lesson02.check_unit_length, _returns_a_list, "", "asks for a numpy array"),
    (lesson02.check_unit_length, _divides_in_place, "", "changed the array it was given"),
    (lesson02.check_cosine, _dot_product, "", "bare dot product"),
    (lesson02.check_cosine, _textbook_cosine, "", "zero vector"),
    (lesson02.check_cosine, _precedence_slip, "", "put both lengths in parentheses"),
    (lesson02.check_cosine, _cosine_as_array, "", "return one float"),
    (lesson02.check_top_k, _worst_first, "", "least similar"),
    (lesson02.check_top_k, _by_dot_product, "", "ranked by dot product"),
    (lesson02.check_top_k, _unstable_sort, "", "kind='stable'"),
    (lesson02.check_order_aware_embedder, _BagOfWords(), "", "order of their tokens"),
    (lesson02.check_order_aware_embedder, _TrigramsOnly(), "", "meaning got lost"),
]


def _name(wrong) -> str:
    return getattr(wrong, "__name__", type(wrong).__name__)


@pytest.mark.parametrize(("check", "wrong", "_", "hint"), WRONG, ids=[_name(w) for _, w, _, _ in WRONG])
def test_a_typical_wrong_answer_fails_with_a_hint(check, wrong, _, hint, capsys):
    assert_refused(check(wrong), capsys, hint)


def test_the_smallest_failing_case_is_the_one_reported(capsys):
    lesson02.check_unit_length(_divides_by_matrix_norm)
    assert "[[3.0, 4.0], [0.5, 0.0]]" in capsys.readouterr().out  # the first case with two rows of different lengths


def test_a_crashing_answer_is_reported_not_raised(capsys):
    assert lesson02.check_cosine(lambda a, b: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out


def test_with_the_solutions_in_place_every_check_passes_and_every_comparison_shows_the_learners_result():
    replacements = {name: f"from aria_kit.solutions.lesson02 import {name}"
                    for name in ("to_unit_length", "cosine", "top_k_by_cosine")}
    replacements["MyOrderAwareEmbedder"] = ("from aria_kit.interfaces import Embedder\n"
                                            "from aria_kit.solutions.lesson02 import OrderAwareEmbedder as "
                                            "MyOrderAwareEmbedder")
    text = run_solved("02_embeddings", replacements)
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts and set(verdicts) == {"✓"}, f"check verdicts with the solutions in place: {verdicts}"
    assert "not done yet" not in text


def _top_k_as_array(query, matrix, k):
    return np.array(s02.top_k_by_cosine(query, matrix, k))  # right rows, but not the list the task asks for


def test_top_k_refuses_an_array_where_the_task_asks_for_a_list(capsys):
    assert_refused(lesson02.check_top_k(_top_k_as_array), capsys, "asks for a list of row indices")


def test_the_stretch_answers_measured_cost_holds():
    """The ranks OrderAwareEmbedder's docstring quotes, WordLlama alone → with trigrams, on the 31 memories."""
    from aria_kit.embeddings import default_embedder
    from aria_kit.evaluation import EVAL_MEMORIES

    texts = [text for text, _ in EVAL_MEMORIES]
    cases = [("5190", 12), ("20931", 25), ("order 4812", 13), ("What does she drink in the morning?", 14),
             ("What was the old storage engine?", 18), ("How much money can we spend on servers?", 28)]
    ranks = []
    for embedder in (default_embedder(), s02.OrderAwareEmbedder()):
        matrix = embedder.embed(texts)
        ranks.append([list(np.argsort(-(matrix @ embedder.embed([q])[0]), kind="stable")).index(a) + 1
                      for q, a in cases])
    assert ranks == [[4, 4, 2, 1, 1, 1], [1, 1, 1, 1, 2, 1]]
