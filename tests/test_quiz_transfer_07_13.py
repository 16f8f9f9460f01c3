"""Lessons 07-13: at least 60% of each lesson's quiz needs transfer, decided by scripts/quiz_cases.py (issue 27).

A question needs transfer when it declares a case (numbers, strings or code) that no cell or committed output of
its lesson shows. Lessons 00-06 carry the same bar in tests/test_quiz_kinds.py once that work is merged; this file
holds it for 07-13, whose quizzes were rewritten to meet it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import quiz_cases  # noqa: E402  (scripts/ is not a package)

TRANSFER_BAR = 0.6
LESSONS = ["07", "08", "09", "10", "11", "12", "13"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_at_least_sixty_percent_of_a_lessons_quiz_needs_transfer(lesson):
    questions = importlib.import_module(f"aria_kit.exercises.lesson{lesson}").QUIZ.questions
    transfer = [number for number, q in enumerate(questions, 1) if quiz_cases.is_transfer(q, lesson)]
    assert len(transfer) >= TRANSFER_BAR * len(questions), (
        f"lesson {lesson}: {len(transfer)} of {len(questions)} questions need transfer ({transfer}); give at least "
        f"{TRANSFER_BAR:.0%} a case (numbers, strings or code) that no cell or output of the lesson shows")


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_question_of_lessons_07_to_13_has_four_options(lesson):
    questions = importlib.import_module(f"aria_kit.exercises.lesson{lesson}").QUIZ.questions
    short = [number for number, q in enumerate(questions, 1) if len(q.options) != 4]
    assert not short, f"lesson {lesson}: questions {short} do not have four options (a, b, c, d)"
