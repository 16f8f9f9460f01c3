"""Exercise checks for the lessons: one module per lesson (``lesson02`` …), one ``check_*`` per exercise.

A check cell in a notebook calls, for example, ``check_cosine(cosine)`` with the
learner's function. It prints one line — done, not done yet, or what is wrong —
and returns ``True``/``False``; it never raises, so "Restart and run all" keeps
going while an exercise is unfinished. Worked solutions live in the repository's
``solutions/`` folder, and the test suite runs every check against them (and
against a wrong answer) so neither can rot.
"""

from __future__ import annotations

from collections.abc import Callable


def check(exercise: str, test: Callable[[], None], solution: str) -> bool:
    """Run ``test`` (which asserts) and print a one-line verdict; ``solution`` names the file to open when stuck."""
    try:
        test()
    except NotImplementedError:
        print(f"○ {exercise}: not done yet — write your code where it says `raise NotImplementedError`, "
              f"then run this cell again. Stuck? Open {solution}.")
        return False
    except AssertionError as exc:
        print(f"✗ {exercise}: {exc or 'a check failed'}. Stuck? Open {solution}.")
        return False
    except Exception as exc:  # the learner's code may fail in any way; report it, don't crash the lesson
        print(f"✗ {exercise}: your code raised {type(exc).__name__}: {exc}. Stuck? Open {solution}.")
        return False
    print(f"✓ {exercise}: correct.")
    return True
