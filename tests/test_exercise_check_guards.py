"""Exercise checks and quizzes against hostile learner code and odd answers (issue 30, findings 4 and 7).

A check prints a verdict and returns; whatever the learner's code does (returns 10 million items,
raises an exception whose message cannot be shown, calls sys.exit, never returns), only
KeyboardInterrupt, the Stop button, gets past it.
"""

from __future__ import annotations

import signal
import sys
import time

import pytest

from aria_kit import exercises
from aria_kit.exercises import check, lesson00, lesson02

needs_sigalrm = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="the time limit needs a SIGALRM timer")


def test_a_result_of_ten_million_items_prints_a_verdict_of_at_most_a_thousand_characters(capsys) -> None:
    assert lesson02.check_cosine(lambda a, b: list(range(10**7))) is False
    out = capsys.readouterr().out
    assert out.startswith("✗ Exercise 02.2") and len(out) < 1_200 and "characters cut" in out, out[:2_000]
    assert "show_solution(\"02.2\")" in out  # the hint, after the cut, is still there


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ is broken too")


class UnprintableAssertion(AssertionError):
    def __str__(self) -> str:
        raise RuntimeError("__str__ is broken too")


@pytest.mark.parametrize("error", [Unprintable, UnprintableAssertion])
def test_an_exception_whose_message_cannot_be_shown_is_still_a_cross(error: type[Exception], capsys) -> None:
    def learner() -> None:
        raise error()

    assert check("Exercise 99.1 (hostile)", learner, "lesson02") is False
    out = capsys.readouterr().out
    assert out.startswith("✗ Exercise 99.1 (hostile): ") and "could not be shown" in out, out


def test_sys_exit_in_the_learners_code_is_a_cross_not_the_end_of_the_kernel(capsys) -> None:
    assert check("Exercise 99.1 (hostile)", lambda: sys.exit(3), "lesson02") is False
    assert capsys.readouterr().out.startswith("✗ Exercise 99.1 (hostile): your code raised SystemExit: 3.")


def test_keyboard_interrupt_the_stop_button_passes_through() -> None:
    def stopped() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check("Exercise 99.1 (hostile)", stopped, "lesson02")


def test_the_time_limit_is_ten_seconds() -> None:
    assert exercises.TIME_LIMIT == 10


@needs_sigalrm
def test_a_learner_function_that_does_not_return_is_stopped_with_a_message_that_says_so(monkeypatch, capsys) -> None:
    monkeypatch.setattr(exercises, "TIME_LIMIT", 0.2, raising=False)

    def spins() -> None:  # a loop that does not end on its own (bounded here, so a broken check cannot hang pytest)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            pass

    started = time.monotonic()
    assert check("Exercise 99.1 (hostile)", spins, "lesson02") is False
    assert time.monotonic() - started < 2
    out = capsys.readouterr().out
    assert out.startswith("✗ Exercise 99.1 (hostile): your code was still running after 0.2 s, so the check "
                          "stopped it."), out
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no timer left behind
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.default_int_handler, None)


@needs_sigalrm
def test_a_quick_check_is_untouched_by_the_time_limit(capsys) -> None:
    assert check("Exercise 99.1 (quick)", lambda: None, "lesson02") is True
    assert capsys.readouterr().out == "✓ Exercise 99.1 (quick): correct.\n"


def test_the_quiz_grades_string_keys_as_question_numbers(capsys) -> None:
    answers = {str(number): question.answer for number, question in enumerate(lesson00.QUIZ.questions, 1)}
    assert lesson00.QUIZ.grade(answers) == len(lesson00.QUIZ.questions)
    assert capsys.readouterr().out.splitlines()[-1] == "4 of 4 right."
