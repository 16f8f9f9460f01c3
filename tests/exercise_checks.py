"""Shared pieces of the exercise-check tests (tests/test_exercises_*.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from aria_kit.exercises import show_solution


def unwritten(*args, **kwargs):
    """A learner's untouched exercise: the notebook stub's body is ``raise NotImplementedError``."""
    raise NotImplementedError


def verdict(capsys: pytest.CaptureFixture[str]) -> str:
    """The mark a check printed first: ✓ correct, ○ not done yet, ✗ wrong."""
    return capsys.readouterr().out.strip()[:1]


def assert_refused(result: bool, capsys: pytest.CaptureFixture[str], hint: str = "") -> str:
    """A check's answer to a wrong attempt: it returned False and printed ✗ with ``hint`` (the idea it missed).

    Returns what it printed, for a test that also asserts the failing case it names."""
    out = capsys.readouterr().out
    assert result is False and out.startswith("✗") and hint in out, out
    return out


def check_tests(checks: list[tuple]) -> tuple[Callable[..., None], Callable[..., None]]:
    """The two tests every exercise check must pass, for ``checks`` = [(check, worked solution[, notebook stub]), …].

    The worked solution gets True and ✓. The stub, as the notebook gives it (default ``unwritten``), gets
    False, ○, "not done yet" and a ``show_solution("NN.M")`` line that prints a worked answer of the check's own
    lesson (the exercise's entry in that lesson's ``EXERCISES`` names it).
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
        lesson = check.__module__.rsplit(".", 1)[-1][len("lesson"):]  # aria_kit.exercises.lesson07 -> 07
        assert out.startswith("○") and "not done yet" in out, out
        offered = re.search(r'show_solution\("([^"]+)"\)', out)
        assert offered, f"the hint should say which solution to show: {out}"
        name = offered.group(1)
        assert name in (f"lesson{lesson}", f"stretch {lesson}") or name.startswith(f"{lesson}."), (
            f"the hint offers {name!r}, not a solution of lesson {lesson}")
        show_solution(name)
        shown = capsys.readouterr().out
        assert not shown.startswith("No solution"), (f"show_solution({name!r}) finds nothing: add the exercise to "
                                                     f"EXERCISES in aria_kit/exercises/lesson{lesson}.py")

    return accepts_the_worked_solution, reports_an_untouched_stub_as_not_done_yet
