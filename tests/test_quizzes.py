"""Every lesson quiz grades as it promises: the key scores full marks, each wrong option explains itself.

The quizzes are found by walking ``aria_kit.exercises`` for ``lessonNN`` modules with a
``QUIZ``, so a quiz added by a new lesson is tested without touching this file.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import aria_kit.exercises
from aria_kit.exercises.quiz import Question, Quiz


def _quizzes() -> list[tuple[str, Quiz]]:
    found = []
    for module in pkgutil.iter_modules(aria_kit.exercises.__path__):
        if module.name.startswith("lesson"):
            quiz = getattr(importlib.import_module(f"aria_kit.exercises.{module.name}"), "QUIZ", None)
            if quiz is not None:
                found.append((module.name, quiz))
    return found


QUIZZES = _quizzes()
WRONG_OPTIONS = [(name, quiz, number, letter)
                 for name, quiz in QUIZZES
                 for number, question in enumerate(quiz.questions, 1)
                 for letter in question.options if letter != question.answer]


def test_at_least_the_first_four_lessons_have_a_quiz():
    assert {"lesson00", "lesson01", "lesson02", "lesson03"} <= {name for name, _ in QUIZZES}


@pytest.mark.parametrize(("name", "quiz"), QUIZZES, ids=[name for name, _ in QUIZZES])
def test_a_quiz_has_three_to_five_questions_of_several_options(name, quiz):
    assert isinstance(quiz, Quiz) and 3 <= len(quiz.questions) <= 5
    for question in quiz.questions:
        assert len(question.options) >= 3, question.prompt
        assert len(set(question.why_not.values())) == len(question.why_not), (
            f"{name}: two wrong options of {question.prompt!r} share one explanation")


@pytest.mark.parametrize(("name", "quiz"), QUIZZES, ids=[name for name, _ in QUIZZES])
def test_the_key_scores_full_marks(name, quiz, capsys):
    key = {number: question.answer for number, question in enumerate(quiz.questions, 1)}
    assert quiz.grade(key) == len(quiz.questions)
    lines = capsys.readouterr().out.splitlines()
    assert [line[:1] for line in lines[:-1]] == ["✓"] * len(quiz.questions)
    assert lines[-1] == f"{len(quiz.questions)} of {len(quiz.questions)} right."


@pytest.mark.parametrize(("name", "quiz", "number", "letter"), WRONG_OPTIONS,
                         ids=[f"{name}-q{number}-{letter}" for name, _, number, letter in WRONG_OPTIONS])
def test_each_wrong_option_prints_its_own_explanation(name, quiz, number, letter, capsys):
    question = quiz.questions[number - 1]
    assert quiz.grade({number: letter.upper()}) == 0  # letters are read case-insensitively
    out = capsys.readouterr().out
    assert f"✗ {number}: not {letter} — {question.why_not[letter]}" in out
    others = [text for other, text in question.why_not.items() if other != letter]
    assert not any(text in out for text in others), "another option's explanation was printed too"


@pytest.mark.parametrize(("name", "quiz"), QUIZZES, ids=[name for name, _ in QUIZZES])
def test_unanswered_questions_print_a_circle_and_score_nothing(name, quiz, capsys):
    blank = dict.fromkeys(range(1, len(quiz.questions) + 1))
    assert quiz.grade(blank) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:-1] == [f"○ {n}: not answered yet." for n in range(1, len(quiz.questions) + 1)]
    assert quiz.grade({}) == 0  # a dict with nothing in it is the same as all unanswered


def test_an_answer_that_is_not_an_option_is_reported_invalid_not_unanswered(capsys):
    quiz = QUIZZES[0][1]
    assert quiz.grade({1: "z", 2: 3, 3: ["a"]}) == 0
    out = capsys.readouterr().out
    letters = ", ".join(f'"{letter}"' for letter in quiz.questions[0].options)
    assert f"? 1: 'z' is not a valid answer — write one of the letters {letters}." in out
    assert "? 2: 3 is not a valid answer" in out and "? 3: ['a'] is not a valid answer" in out
    # only a missing or empty answer is "not answered yet"
    assert [line[:1] for line in out.splitlines()[:3]] == ["?", "?", "?"]


def test_a_question_kind_must_be_one_of_the_four():
    with pytest.raises(ValueError, match="kind must be one of predict, explain, choose, recall"):
        Question("?", {"a": "x", "b": "y"}, "a", "right", {"b": "no"}, kind="guess")


def test_a_question_without_an_explanation_for_a_wrong_option_is_refused():
    with pytest.raises(ValueError, match="missing: \\['c'\\]"):
        Question("?", {"a": "x", "b": "y", "c": "z"}, "a", "right", {"b": "no"})
