"""Exercise checks for the lessons: one module per lesson (``lesson02`` …), one ``check_*`` per exercise.

A check cell in a notebook calls, for example, ``check_cosine(cosine)`` with the
learner's function. It prints a verdict — done, not done yet, or what is wrong —
and returns ``True``/``False``; it never raises, so "Restart and run all" keeps
going while an exercise is unfinished. Worked solutions ship inside the package
(``aria_kit/solutions/lessonNN.py``), so ``show_solution("lesson02")`` prints one
wherever the kit is installed; the test suite runs every check against them (and
against wrong answers) so neither can rot.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable


def show_solution(lesson: str) -> None:
    """Print the worked solutions of ``lesson`` (e.g. ``"lesson02"``), read from the installed package."""
    module = importlib.import_module(f"aria_kit.solutions.{lesson}")
    print(inspect.getsource(module))


def check(exercise: str, test: Callable[[], None], solution: str) -> bool:
    """Run ``test`` (which asserts) and print a verdict; ``solution`` names the lesson whose answers to show."""
    # The hint goes on a line of its own: a long single line wraps mid-word in a narrow output area.
    hint = f"  Stuck? Run: from aria_kit.exercises import show_solution; show_solution(\"{solution}\")"
    try:
        test()
    except NotImplementedError:
        print(f"○ {exercise}: not done yet — write your code where it says\n"
              f"  `raise NotImplementedError`, then run this cell again.\n{hint}")
        return False
    except AssertionError as exc:
        print(f"✗ {exercise}: {exc or 'a check failed'}.\n{hint}")
        return False
    except Exception as exc:  # the learner's code may fail in any way; report it, don't crash the lesson
        print(f"✗ {exercise}: your code raised {type(exc).__name__}: {exc}.\n{hint}")
        return False
    print(f"✓ {exercise}: correct.")
    return True
