"""The catalogue of exercises: what each one asks the learner to design, its kind and its estimated minutes.

Each lesson module lists its exercises as ``EXERCISES = [Exercise("05.1", …), Exercise("Stretch 05", …)]``.
From that one list come three things a learner or an instructor sees: ``show_solution("05.1")`` (one
worked answer, not the whole file), the difficulty table ``docs/exercises.md`` (written by
``scripts/exercise_table.py``, checked by ``tests/test_exercise_catalogue.py``) and the lesson's time
estimate (``tests/test_lesson_structure.py`` adds the minutes). It does not run or check exercises:
the ``check_*`` functions in each lesson module do that. A design exercise names its check, and
``aria_kit.solutions.lessonNN.SOLUTIONS[id]`` lists two or more designs, each the arguments of one call of
that check: ``tests/test_exercise_kinds.py`` runs the check on each, so the label is tested.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass

KINDS = ("warm-up", "specification", "design", "stretch")
_ID = re.compile(r"^(?:(\d\d)\.(\d+)|Stretch (\d\d))$")


@dataclass(frozen=True)
class Exercise:
    """One exercise: ``id`` is "05.1" or "Stretch 05"; ``solution`` names objects in ``aria_kit.solutions.lessonNN``.

    ``kind`` is a warm-up (a formula or recipe the lesson just gave, written out), a specification (the
    task states what must hold; the learner chooses how, but the check accepts one answer), a design (the
    learner makes a decision the lesson does not make for them, and two shipped solutions of different
    design pass its check) or the lesson's open stretch task. ``check`` names the ``check_*`` function of
    ``aria_kit.exercises.lessonNN`` that grades a design exercise.
    """

    id: str
    designs: str
    kind: str
    minutes: int
    solution: tuple[str, ...] = ()
    check: str = ""

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"exercise id {self.id!r}: write 'NN.M' (e.g. '05.1') or 'Stretch NN'")
        if self.kind not in KINDS:
            raise ValueError(f"exercise {self.id}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if (self.kind == "stretch") != self.id.startswith("Stretch"):
            raise ValueError(f"exercise {self.id}: only 'Stretch NN' has kind 'stretch', and it must")
        if not isinstance(self.minutes, int) or not 1 <= self.minutes <= 180:
            raise ValueError(f"exercise {self.id}: minutes must be a whole number from 1 to 180")
        if (self.kind == "design") != bool(self.check):
            raise ValueError(f"exercise {self.id}: a design exercise names the check_* function that grades it "
                             "(check=\"check_…\"), and only a design exercise does")
        object.__setattr__(self, "solution", tuple(self.solution))

    @property
    def lesson(self) -> str:
        """The two-digit lesson number, e.g. "05"."""
        match = _ID.match(self.id)
        return match.group(1) or match.group(3)


def lesson_exercises(lesson: str) -> list[Exercise]:
    """The ``EXERCISES`` of ``aria_kit.exercises.lessonNN`` (``lesson`` = "05"), or [] where it has none."""
    module = importlib.import_module(f"aria_kit.exercises.lesson{lesson}")
    return list(getattr(module, "EXERCISES", []))


def all_exercises() -> dict[str, list[Exercise]]:
    """Every lesson's exercises, keyed by the two-digit lesson number, in lesson order."""
    import aria_kit.exercises as package

    lessons = sorted(info.name[len("lesson"):] for info in pkgutil.iter_modules(package.__path__)
                     if re.fullmatch(r"lesson\d\d", info.name))
    return {lesson: lesson_exercises(lesson) for lesson in lessons}


def find(name: str) -> Exercise | None:
    """The exercise "05.1" or "stretch 05" (any case), or None."""
    name = name.strip()
    match = re.fullmatch(r"(\d{1,2})\.(\d+)|stretch\s*(\d{1,2})", name, flags=re.IGNORECASE)
    if not match:
        return None
    lesson = f"{int(match.group(1) or match.group(3)):02d}"
    wanted = f"{lesson}.{int(match.group(2))}" if match.group(1) else f"Stretch {lesson}"
    try:
        exercises = lesson_exercises(lesson)
    except ModuleNotFoundError:
        return None
    return next((exercise for exercise in exercises if exercise.id == wanted), None)
