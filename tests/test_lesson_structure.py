"""Every lesson follows the frame of docs/lesson_format.md, and every cross-reference names a real lesson.

Checked per notebook in ``notebooks/``:

- the first cell is the title ``# NN · …`` (NN = the file's number), 3–5 objectives under
  "**You will**", "**Before you start:**" and "**Time:** about N minutes" with N a multiple of 5;
- the Time line says it is an estimate, and N is within a third of the recomputed estimate: markdown words
  at 200 a minute, plus each exercise's and the stretch task's minutes from the lesson's ``EXERCISES``
  (docs/exercises.md), plus the run time recorded in
  ``benchmarks/lesson_run_times.json`` (regenerate it with ``python benchmarks/lesson_run_times.py``;
  a figure measured in a test on a shared machine would be noise);
- exercises are numbered ``Exercise NN.M`` with the lesson's own NN, and each ends with a check cell;
- the last level-2 headings are ``## Recap``, ``## Stretch`` (naming ``Stretch NN``), ``## Quiz``, and the
  quiz cells show and grade ``aria_kit.exercises.lessonNN.QUIZ`` with one answer slot per question;
- no function or class is defined in two code cells (an exercise that shadows a lesson's name breaks
  re-running the earlier cells; tests/test_notebook_rerun.py checks the behaviour itself).

And across the kit: lesson 00's table lists every notebook and no other, and every "lesson N",
"lessons N–M" or ``NN_name`` in a notebook or the README names a notebook that exists.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import nbformat
import pytest

from aria_kit.exercises.catalogue import lesson_exercises

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
RUN_TIMES = ROOT / "benchmarks" / "lesson_run_times.json"
WORDS_PER_MINUTE = 200

LESSON_REF = re.compile(r"\b[Ll]essons?\s+(\d{1,2}(?:\s*(?:–|-|,|and|or|to)\s*\d{1,2}\b)*)")
NOTEBOOK_REF = re.compile(r"\b\d\d_[a-z][a-z0-9_]*\b")
EXERCISE = re.compile(r"\bExercise (\d+)\.(\d+)")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _markdown(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


def _headings(notebook, level: int) -> list[str]:
    marks = "#" * level + " "
    return [line[len(marks):].strip() for text in _markdown(notebook) for line in text.splitlines()
            if line.startswith(marks)]


def _stated_minutes(first_cell: str) -> int | None:
    match = re.search(r"\*\*Time:\*\* about (\d+) minutes", first_cell)
    return int(match.group(1)) if match else None


def _estimate_minutes(notebook, lesson: str, run_seconds: float) -> float:
    words = sum(len(text.split()) for text in _markdown(notebook))
    exercises = sum(exercise.minutes for exercise in lesson_exercises(lesson))
    return words / WORDS_PER_MINUTE + exercises + run_seconds / 60


IDS = [path.stem for path in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_first_cell_states_title_objectives_prerequisites_and_time(path):
    first = _read(path).cells[0]
    assert first.cell_type == "markdown", "the first cell should be the lesson's markdown header"
    number = path.stem[:2]
    assert re.match(rf"# {number} · \S", first.source), f"the first line should be '# {number} · Title'"
    assert "**You will**" in first.source, "the first cell should list objectives under **You will**"
    objectives = first.source.split("**You will**", 1)[1].split("\n\n", 1)[0]
    count = len(re.findall(r"^- ", objectives.strip(), flags=re.M))
    assert 3 <= count <= 5, f"expected 3 to 5 objectives under **You will**, found {count}"
    assert "**Before you start:**" in first.source, "say which lessons come first: **Before you start:** …"
    minutes = _stated_minutes(first.source)
    assert minutes is not None, "state the time as **Time:** about N minutes"
    time_line = next(line for line in first.source.splitlines() if line.startswith("**Time:**"))
    assert "estimate" in time_line, ("say the time is an estimate (reading, exercises and run time, not learners "
                                     f"timed): {time_line!r}")
    assert minutes % 5 == 0, f"round the time to 5 minutes, got {minutes}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_stated_time_is_within_a_third_of_the_measured_estimate(path):
    notebook = _read(path)
    stated = _stated_minutes(notebook.cells[0].source)
    assert stated is not None, "no **Time:** line in the first cell"
    seconds = json.loads(RUN_TIMES.read_text())["seconds"] if RUN_TIMES.exists() else {}
    assert path.stem in seconds, (f"no run time recorded for {path.stem}: run "
                                  f"`python benchmarks/lesson_run_times.py {path.stem}` and commit the JSON")
    estimate = _estimate_minutes(notebook, path.stem[:2], seconds[path.stem])
    assert abs(stated - estimate) <= estimate / 3, (
        f"the first cell says about {stated} minutes; reading, exercises (EXERCISES minutes) and run time add up to "
        f"{estimate:.0f} (state about {5 * round(estimate / 5)})")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_exercises_carry_the_lessons_number_and_end_with_a_check(path):
    notebook, number = _read(path), path.stem[:2]
    for text in _markdown(notebook):
        for match in EXERCISE.finditer(text):
            assert match.group(1) == number, (
                f"'{match.group(0)}' in {path.name}: exercises are numbered Exercise {number}.M")
    current = None
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    if current is not None:
                        pytest.fail(f"{current} in {path.name} has no check cell (a code cell calling a check_…)")
                    heading = EXERCISE.search(line)
                    current = heading.group(0) if heading else None
        elif current is not None and "check_" in cell.source:
            current = None
    assert current is None, f"{current} in {path.name} has no check cell"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_lesson_ends_with_recap_stretch_and_a_graded_quiz(path):
    notebook, number = _read(path), path.stem[:2]
    assert _headings(notebook, 2)[-3:] == ["Recap", "Stretch", "Quiz"], (
        f"the last sections should be ## Recap, ## Stretch, ## Quiz; found {_headings(notebook, 2)[-3:]}")
    stretch = next(text for text in _markdown(notebook) if "## Stretch" in text).split("## Stretch", 1)[1]
    assert f"Stretch {number}" in stretch, f"name the stretch task 'Stretch {number}'"
    quiz = importlib.import_module(f"aria_kit.exercises.lesson{number}").QUIZ
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert f"aria_kit.exercises.lesson{number} import QUIZ" in code[-2] and "QUIZ.show()" in code[-2], (
        f"the second-to-last code cell should import lesson{number}'s QUIZ and show it")
    assert "QUIZ.grade(my_answers)" in code[-1], "the last code cell should grade my_answers"
    slots = re.search(r"my_answers = \{([^}]*)\}", code[-1])
    assert slots, "the last code cell should define my_answers = {1: None, …}"
    keys = [int(k) for k in re.findall(r"(\d+)\s*:", slots.group(1))]
    assert keys == list(range(1, len(quiz.questions) + 1)), (
        f"my_answers should have one slot per question, 1 to {len(quiz.questions)}; got {keys}")


def _defined_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell with IPython magics: nothing this check can read
        return set()
    return {node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_function_or_class_is_defined_in_two_cells(path):
    seen: dict[str, int] = {}
    for number, cell in enumerate(_read(path).cells):
        if cell.cell_type != "code":
            continue
        for name in sorted(_defined_names(cell.source)):
            assert name not in seen, (f"{name} is defined in cell {seen[name]} and again in cell {number} of "
                                      f"{path.name}: after Run All, every cell that uses it gets cell {number}'s. "
                                      "Give the exercise its own name")
            seen[name] = number


def test_lesson_00_lists_every_notebook_and_no_other():
    welcome = _read(ROOT / "notebooks" / "00_welcome.ipynb")
    rows = [line for text in _markdown(welcome) for line in text.splitlines() if line.startswith("|")]
    listed = {match.group(1) for row in rows for match in re.finditer(r"`(\d\d_[a-z][a-z0-9_]*)`", row)}
    present = {path.stem for path in NOTEBOOKS}
    assert listed == present, (f"lesson 00's table lists {sorted(listed - present)} that are not in notebooks/, "
                               f"and misses {sorted(present - listed)}")


def _texts() -> list[tuple[str, str]]:
    texts = [("README.md", (ROOT / "README.md").read_text())]
    for path in NOTEBOOKS:
        texts += [(f"{path.name} cell {n}", cell.source) for n, cell in enumerate(_read(path).cells)]
    return texts


def test_every_lesson_reference_names_an_existing_notebook():
    numbers = {path.stem[:2] for path in NOTEBOOKS}
    stems = {path.stem for path in NOTEBOOKS}
    broken = []
    for where, text in _texts():
        for match in LESSON_REF.finditer(text):
            for cited in re.findall(r"\d+", match.group(1)):
                if f"{int(cited):02d}" not in numbers:
                    broken.append(f"{where}: '{match.group(0)}'")
        for match in NOTEBOOK_REF.finditer(text):
            if match.group(0) not in stems:
                broken.append(f"{where}: '{match.group(0)}'")
    assert not broken, "references to notebooks that do not exist:\n" + "\n".join(sorted(set(broken)))
