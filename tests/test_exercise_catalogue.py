"""The exercise catalogue matches the lessons, keeps warm-ups rare, and its table in docs/ is current.

Each lesson module's ``EXERCISES`` (aria_kit/exercises/catalogue.py) must list exactly the
``Exercise NN.M`` headings and the ``Stretch NN`` of its notebook; warm-ups do not grow past the nine a
cold read found (issue 27) and are at most five in the kit (issue 23's bar), every lesson after the
welcome has a specification or design exercise, and at least 60% of
each lesson's quiz questions ask the learner to predict, explain or choose (issue 23's bars; the
quiz mechanics themselves, full marks for the key and one explanation per wrong option, are
tests/test_quizzes.py's, for every lesson).
tests/test_exercise_kinds.py tests the design label itself.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import nbformat
import pytest

from aria_kit.exercises.catalogue import all_exercises

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import exercise_table  # noqa: E402  (scripts/ is not a package)

NOTEBOOKS = {path.stem[:2]: path for path in sorted((ROOT / "notebooks").glob("*.ipynb"))}
MAX_WARM_UPS = 5  # issue 23's bar
WARM_UPS_FOUND = 9  # what a cold read (issue 27) found once the labels were made honest: may shrink, not grow


def _headings(lesson: str) -> set[str]:
    notebook = nbformat.read(NOTEBOOKS[lesson], as_version=4)
    found = set()
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("#"):
                found |= {f"{a}.{b}" for a, b in re.findall(r"\bExercise (\d\d)\.(\d+)", line)}
            if line.startswith("## Stretch") or re.match(rf"\*\*Stretch {lesson}\b", line):
                found.add(f"Stretch {lesson}")
    return found


@pytest.mark.parametrize("lesson", sorted(NOTEBOOKS))
def test_the_catalogue_lists_exactly_the_lessons_exercises(lesson):
    listed = [exercise.id for exercise in all_exercises()[lesson]]
    assert len(listed) == len(set(listed)), f"lesson {lesson} lists an exercise twice: {listed}"
    headings = _headings(lesson)
    assert set(listed) == headings, (
        f"aria_kit/exercises/lesson{lesson}.py EXERCISES lists {sorted(set(listed) - headings)} that the notebook "
        f"has no heading for, and misses {sorted(headings - set(listed))}")


@pytest.mark.parametrize("lesson", sorted(NOTEBOOKS))
def test_every_named_solution_exists(lesson):
    solutions = importlib.import_module(f"aria_kit.solutions.lesson{lesson}")
    for exercise in all_exercises()[lesson]:
        missing = [name for name in exercise.solution if not hasattr(solutions, name)]
        assert not missing, f"{exercise.id} names {missing}, not in aria_kit/solutions/lesson{lesson}.py"


def _warm_ups() -> list[str]:
    return [e.id for exercises in all_exercises().values() for e in exercises if e.kind == "warm-up"]


def test_warm_ups_do_not_grow_past_what_the_cold_read_found():
    assert len(_warm_ups()) <= WARM_UPS_FOUND, f"{len(_warm_ups())} warm-ups ({', '.join(_warm_ups())})"


def test_warm_ups_are_at_most_five_in_the_whole_kit():
    assert len(_warm_ups()) <= MAX_WARM_UPS, f"{len(_warm_ups())} warm-ups ({', '.join(_warm_ups())}); at most {MAX_WARM_UPS}"


@pytest.mark.parametrize("lesson", [lesson for lesson in sorted(NOTEBOOKS) if lesson != "00"])
def test_every_lesson_after_the_welcome_has_a_specification_or_design_exercise(lesson):
    kinds = {exercise.kind for exercise in all_exercises()[lesson]}
    assert kinds & {"specification", "design"}, f"lesson {lesson} has only {sorted(kinds) or 'no exercises'}"


@pytest.mark.parametrize("lesson", sorted(NOTEBOOKS))
def test_most_quiz_questions_ask_to_predict_explain_or_choose(lesson):
    quiz = importlib.import_module(f"aria_kit.exercises.lesson{lesson}").QUIZ
    understanding = [q for q in quiz.questions if q.kind != "recall"]
    assert len(understanding) >= 0.6 * len(quiz.questions), (
        f"lesson {lesson}: {len(understanding)} of {len(quiz.questions)} questions predict, explain or choose; "
        "at least 60% should (set kind= on each Question)")


def test_docs_exercises_md_is_current():
    committed = (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8")
    assert committed == exercise_table.render(), "docs/exercises.md is stale: run python scripts/exercise_table.py"
