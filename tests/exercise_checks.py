"""Shared pieces of the exercise-check tests (tests/test_exercises_*.py)."""

from __future__ import annotations

import pytest


def unwritten(*args, **kwargs):
    """A learner's untouched exercise: the notebook stub's body is ``raise NotImplementedError``."""
    raise NotImplementedError


def verdict(capsys: pytest.CaptureFixture[str]) -> str:
    """The mark a check printed first: ✓ correct, ○ not done yet, ✗ wrong."""
    return capsys.readouterr().out.strip()[:1]
