"""Exercise checks for the lessons: one module per lesson (``lesson02`` …), one ``check_*`` per exercise.

A check cell in a notebook calls, for example, ``check_cosine(cosine)`` with the
learner's function. It prints a verdict — done, not done yet, or what is wrong —
and returns ``True``/``False``; it never raises (only ``KeyboardInterrupt``, the Stop
button, passes through), so "Restart and run all" keeps going while an exercise is
unfinished. A verdict quotes at most ``MAX_VERDICT_CHARS`` of what the code returned or
raised, and a learner's function still running after ``TIME_LIMIT`` seconds (10) is
stopped with a ✗ that says so (a ``SIGALRM`` timer: Unix, main thread, as in Jupyter). Worked solutions ship inside the package
(``aria_kit/solutions/lessonNN.py``), so ``show_solution("02.1")`` prints one
exercise's answer (``"stretch 02"`` the stretch task's, ``"lesson02"`` the whole file)
wherever the kit is installed; the test suite runs every check against them (and
against wrong answers) so neither can rot.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable

from aria_kit.time_limits import time_limit

TIME_LIMIT = 10.0  # seconds a check may run; the slowest worked solution needs well under one
MAX_VERDICT_CHARS = 1_000  # of a failure's message (the longest a check writes is ~920): a 50 MB one is cut


class CheckTimeout(BaseException):
    """Raised inside the learner's code when a check runs past ``TIME_LIMIT``."""


def show_solution(name: str) -> None:
    """Print a worked solution: one exercise ("05.1"), a stretch task ("stretch 05") or a lesson ("lesson05").

    A name that is none of these gets one line saying which names exist, not a traceback.
    """
    from aria_kit.exercises import catalogue

    name = name.strip() if isinstance(name, str) else repr(name)
    lessons = sorted(catalogue.all_exercises())
    if re.fullmatch(r"lesson\d\d", name) and name[len("lesson"):] in lessons:
        print(inspect.getsource(importlib.import_module(f"aria_kit.solutions.{name}")))
        return
    exercise = catalogue.find(name)
    if exercise is None:
        print(f"No solution is called {name!r}. Choose an exercise such as \"05.1\", a stretch task such as "
              f"\"stretch 05\", or a whole lesson from \"lesson{lessons[0]}\" to \"lesson{lessons[-1]}\".")
        return
    module = importlib.import_module(f"aria_kit.solutions.lesson{exercise.lesson}")
    if not exercise.solution:  # an open task: the lesson's file says what a good answer covers
        print(inspect.getsource(module))
        return
    print("\n\n".join(_source(module, part) for part in exercise.solution))


def _source(module, name: str) -> str:
    """A function's or class's source; for a plain value (a list of cases, a constant), its assignment."""
    value = getattr(module, name)
    if inspect.isfunction(value) or inspect.isclass(value):
        return inspect.getsource(value)
    return f"{name} = {value!r}"


def _solution_name(exercise: str, lesson: str) -> str:
    """What a check's hint offers to show: "05.1" for "Exercise 05.1 (…)", "stretch 05", else the lesson."""
    match = re.search(r"Exercise (\d\d\.\d+)|Stretch (\d\d)", exercise)
    if not match:
        return lesson
    return match.group(1) or f"stretch {match.group(2)}"


def _message(exc: BaseException) -> str:
    """What an exception says, at most ``MAX_VERDICT_CHARS`` of it (its start and end), even if ``str`` fails."""
    try:
        with time_limit(TIME_LIMIT, CheckTimeout):  # the learner's __str__ is the learner's code too
            text = str(exc)
    except (Exception, CheckTimeout):  # noqa: BLE001 - it may fail in any way; the type name is still reported
        return "(its message could not be shown: its __str__ failed)"
    if len(text) <= MAX_VERDICT_CHARS:
        return text
    head, tail = MAX_VERDICT_CHARS * 2 // 3, MAX_VERDICT_CHARS // 3
    return f"{text[:head]} … ({len(text) - head - tail:,} characters cut) … {text[-tail:]}"


def check(exercise: str, test: Callable[[], None], solution: str) -> bool:
    """Run ``test`` (which asserts) and print a verdict; ``solution`` names the lesson whose answers to show."""
    # The hint goes on a line of its own: a long single line wraps mid-word in a narrow output area.
    hint = (f"  Stuck? Run: from aria_kit.exercises import show_solution; "
            f"show_solution(\"{_solution_name(exercise, solution)}\")")
    try:
        with time_limit(TIME_LIMIT, CheckTimeout):
            test()
    except NotImplementedError:
        print(f"○ {exercise}: not done yet — write your code where it says\n"
              f"  `raise NotImplementedError`, then run this cell again.\n{hint}")
        return False
    except AssertionError as exc:
        print(f"✗ {exercise}: {_message(exc) or 'a check failed'}.\n{hint}")
        return False
    except CheckTimeout:
        print(f"✗ {exercise}: your code was still running after {TIME_LIMIT:g} s, so the check stopped it. Look for "
              f"a loop that never ends (a `while` whose condition stays true), or work on a smaller input.\n{hint}")
        return False
    except KeyboardInterrupt:  # the Stop button: the learner wants the cell to end, not a verdict
        raise
    except BaseException as exc:  # noqa: BLE001 - the learner's code may fail in any way, sys.exit() included
        print(f"✗ {exercise}: your code raised {type(exc).__name__}: {_message(exc)}.\n{hint}")
        return False
    print(f"✓ {exercise}: correct.")
    return True
