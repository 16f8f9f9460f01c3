"""A quiz question's kind is decided by running things, not by its label.

Transfer: a question counts as transfer only if it declares a ``case`` and no piece of that case
appears in any cell or committed output of its lesson (scripts/quiz_cases.py). Predict: every
"predict" question carries ``compute``, which runs the kit on the question's case; the option it names
must be the key, so a key cannot be wrong. docs/exercises.md shows the computed transfer counts.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from aria_kit.exercises.catalogue import all_exercises

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import quiz_cases  # noqa: E402  (scripts/ is not a package)

QUESTIONS = [(lesson, number, question)
             for lesson in all_exercises()
             for number, question in enumerate(importlib.import_module(f"aria_kit.exercises.lesson{lesson}").QUIZ.questions, 1)]
IDS = [f"{lesson}-q{number}" for lesson, number, _ in QUESTIONS]
PREDICT = [(lesson, number, q) for lesson, number, q in QUESTIONS if q.kind == "predict"]


@pytest.mark.parametrize(("lesson", "number", "question"), QUESTIONS, ids=IDS)
def test_every_piece_of_a_case_is_in_its_question(lesson, number, question):
    # A case names what the question asks about; a piece found nowhere in the question would make any
    # question "transfer" by naming something the lesson happens not to mention.
    text = " ".join([question.prompt, *question.options.values()])
    missing = [piece for piece in question.case if not quiz_cases.appears(piece, text)]
    assert not missing, f"lesson {lesson} question {number}: case pieces {missing} are not in its prompt or options"


@pytest.mark.parametrize(("lesson", "number", "question"), PREDICT, ids=[f"{l}-q{n}" for l, n, _ in PREDICT])
def test_a_predict_questions_key_is_what_the_kit_does(lesson, number, question):
    assert question.compute is not None, (
        f"lesson {lesson} question {number} is a predict question without compute=: add a function "
        "above the lesson's QUIZ that runs the kit on its case (compute=), or call it explain or choose")
    assert question.compute() == question.answer, (
        f"lesson {lesson} question {number}: running the kit makes option {question.compute()!r} true, "
        f"but the key is {question.answer!r}")


@pytest.mark.parametrize(("lesson", "number", "question"), QUESTIONS, ids=IDS)
def test_only_predict_questions_carry_a_computed_key(lesson, number, question):
    assert question.compute is None or question.kind == "predict", (
        f"lesson {lesson} question {number} computes its key but is labelled {question.kind!r}")


def test_a_case_the_lesson_printed_is_not_transfer():
    from aria_kit.exercises.quiz import Question

    # Lesson 00's section 3 asks about "order 4821": a question on that case repeats the lesson.
    printed = Question("Which memory answers 'order 4821'?", {"a": "mem_0007", "b": "mem_0001"}, "a", "right",
                       {"b": "no"}, case=("order 4821",))
    assert quiz_cases.shown_pieces(printed, "00") == ["order 4821"]
    assert not quiz_cases.is_transfer(printed, "00")


def test_the_quizs_own_cells_do_not_count_as_the_lesson_showing_a_case():
    # QUIZ.show() prints every prompt into the notebook; those cells are left out, or nothing could be transfer.
    question = next(q for lesson, number, q in QUESTIONS if lesson == "02" and q.case == ("[-6, -8]",))
    assert quiz_cases.is_transfer(question, "02")
    assert "QUIZ" not in quiz_cases.lesson_text("02")


def test_a_question_without_a_case_is_not_transfer():
    from aria_kit.exercises.quiz import Question

    question = Question("Who writes Aria's answers offline?", {"a": "OfflineProvider", "b": "gpt-4o-mini"}, "a",
                        "right", {"b": "no key is set"})
    assert not quiz_cases.is_transfer(question, "00")


# Issue 27: in every lesson at least 60% of the quiz needs transfer.
TRANSFER_BAR = 0.6


@pytest.mark.parametrize("lesson", all_exercises())
def test_at_least_sixty_percent_of_a_lessons_quiz_needs_transfer(lesson):
    questions = [q for each, _, q in QUESTIONS if each == lesson]
    transfer = [number for number, q in enumerate(questions, 1) if quiz_cases.is_transfer(q, lesson)]
    assert len(transfer) >= TRANSFER_BAR * len(questions), (
        f"lesson {lesson}: {len(transfer)} of {len(questions)} questions need transfer ({transfer}); give at least "
        f"{TRANSFER_BAR:.0%} a case (numbers, strings or code) that no cell or output of the lesson shows")


@pytest.mark.parametrize("lesson", all_exercises())
def test_every_question_has_four_options(lesson):
    # Four options, each wrong one a misconception with its explanation (tests/test_quizzes.py checks those).
    short = [number for each, number, q in QUESTIONS if each == lesson and len(q.options) != 4]
    assert not short, f"lesson {lesson}: questions {short} do not have four options (a, b, c, d)"


@pytest.mark.parametrize(("piece", "text", "found"), [
    ("5", "a score of 0.5", False), ("5", "15 questions", False), ("5", "top 5, then", True),
    ("5", "rank 5.", True), ("0.625", "recall 0.6250", False), ("[-6, -8]", "cosine([3,4], [-6,-8])", True),
    ("Dave likes tea.", "memory.store('Dave  likes\ntea.')", True), ("tea", "the team", False),
    ("clear()", "chat.clear() runs", True), ("DDR5", "ddr5 ram", True),
])
def test_case_pieces_match_as_whole_tokens_whatever_the_spacing(piece, text, found):
    assert quiz_cases.appears(piece, text) is found


def test_a_case_must_be_a_tuple_of_strings():
    from aria_kit.exercises.quiz import Question

    with pytest.raises(ValueError, match="case must be a tuple of non-empty strings"):
        Question("?", {"a": "x", "b": "y"}, "a", "right", {"b": "no"}, case="[-6, -8]")
    with pytest.raises(ValueError, match="case must be a tuple of non-empty strings"):
        Question("?", {"a": "x", "b": "y"}, "a", "right", {"b": "no"}, case=(" ",))
