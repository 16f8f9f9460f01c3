"""Shared pieces of the exercise-check tests (tests/test_exercises_*.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def unwritten(*args, **kwargs):
    """A learner's untouched exercise: the notebook stub's body is ``raise NotImplementedError``."""
    raise NotImplementedError


def verdict(capsys: pytest.CaptureFixture[str]) -> str:
    """The mark a check printed first: ✓ correct, ○ not done yet, ✗ wrong."""
    return capsys.readouterr().out.strip()[:1]


def check_tests(checks: list[tuple]) -> tuple[Callable[..., None], Callable[..., None]]:
    """The two tests every exercise check must pass, for ``checks`` = [(check, worked solution[, notebook stub]), …].

    The worked solution gets True and ✓. The stub, as the notebook gives it (default ``unwritten``), gets
    False, ○, "not done yet" and the ``show_solution("lessonNN")`` line of the check's own lesson.
    A test file takes them as ``test_a, test_b = check_tests(CHECKS)``: pytest collects them by those names.
    """
    cases = [(entry[0], entry[1], entry[2] if len(entry) > 2 else unwritten) for entry in checks]
    ids = [check.__name__ for check, _, _ in cases]

    @pytest.mark.parametrize(("check", "solution", "stub"), cases, ids=ids)
    def accepts_the_worked_solution(check, solution, stub, capsys):
        assert check(solution) is True
        assert verdict(capsys) == "✓"

    @pytest.mark.parametrize(("check", "solution", "stub"), cases, ids=ids)
    def reports_an_untouched_stub_as_not_done_yet(check, solution, stub, capsys):
        assert check(stub) is False
        out = capsys.readouterr().out
        lesson = check.__module__.rsplit(".", 1)[-1]  # aria_kit.exercises.lesson07 -> lesson07
        assert out.startswith("○") and "not done yet" in out and f'show_solution("{lesson}")' in out, out

    return accepts_the_worked_solution, reports_an_untouched_stub_as_not_done_yet
