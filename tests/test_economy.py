"""The course fits its budget: lessons a learner can finish in a sitting, and no wall of text or rows.

Issue 27's economy, checked on the committed notebooks:

- at most 2,400 words of markdown in any lesson and 24,000 in the whole course (``notebooks/*.ipynb``);
- no lesson over 90 minutes by the kit's own estimate (tests/test_lesson_structure.py: markdown words at
  200 a minute, the ``EXERCISES`` minutes, the run time in ``benchmarks/lesson_run_times.json``), and no
  first cell that states more;
- no table longer than 10 rows, in a markdown cell or in an output (markdown or HTML); longer tables
  belong in benchmarks/README.md, with a chart or a three-line takeaway in the lesson;
- one "predict, then run" moment per lesson: a code cell before the quiz that sets ``my_prediction`` (or,
  in lesson 00's tour, ``my_predictions``, which the same cell then runs);
- from lesson 03 on, at least one design exercise per lesson (what makes a design is decided by
  tests/test_exercise_kinds.py, not by the label);
- no project history a learner never saw, in the forms the course's review found ("before this lesson", "how
  the kit wrote them before", "the old HybridMemory", "the two sets added since", issue numbers, rounds). A
  list of phrases catches only those forms again; the cold reads catch the rest.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from aria_kit.exercises.catalogue import lesson_exercises
from test_lesson_structure import _estimate_minutes, _markdown, _stated_minutes

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IDS = [path.stem for path in NOTEBOOKS]
MAX_WORDS, MAX_COURSE_WORDS, MAX_MINUTES, MAX_ROWS = 2_400, 24_000, 90, 10
PREDICTION = re.compile(r"^my_predictions? = ", re.M)
HISTORY = re.compile(r"before this lesson|how the kit wrote|the old HybridMemory|sets added since|\bissue \d+|"
                     r"\b(?:last|this|previous) round\b|since last (?:round|session)", re.I)


def _words(path: Path) -> int:
    return sum(len(text.split()) for text in _markdown(nbformat.read(path, as_version=4)))


def markdown_rows(text: str) -> int:
    """The body rows of the longest pipe table in ``text`` (its header and rule line not counted)."""
    longest = run = 0
    for line in text.splitlines():
        run = run + 1 if line.lstrip().startswith("|") else 0
        longest = max(longest, run - 2)
    return longest


def html_rows(text: str) -> int:
    """The body rows of the longest HTML table in ``text`` (its header row not counted)."""
    return max([table.count("<tr") - 1 for table in text.split("</table>")] + [0])


def _tables(notebook) -> list[tuple[int, int]]:
    found = []
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            found.append((number, markdown_rows(cell.source)))
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text", "") if output.get("output_type") == "stream" else ""
            found.append((number, max(markdown_rows(data.get("text/markdown", "")),
                                      html_rows(data.get("text/html", "")), markdown_rows(text))))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_lesson_has_more_than_2400_words_of_markdown(path):
    assert _words(path) <= MAX_WORDS, f"{path.name} has {_words(path)} words of markdown (at most {MAX_WORDS:,})"


def test_the_course_has_at_most_24000_words_of_markdown():
    counts = {path.stem: _words(path) for path in NOTEBOOKS}
    assert sum(counts.values()) <= MAX_COURSE_WORDS, (
        f"the lessons hold {sum(counts.values()):,} words of markdown (at most {MAX_COURSE_WORDS:,}): {counts}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_lesson_takes_more_than_90_minutes(path):
    notebook = nbformat.read(path, as_version=4)
    seconds = json.loads((ROOT / "benchmarks" / "lesson_run_times.json").read_text())["seconds"]
    estimate = _estimate_minutes(notebook, path.stem[:2], seconds.get(path.stem, 0.0))
    assert estimate <= MAX_MINUTES, f"{path.name}: about {estimate:.1f} minutes by the kit's estimate (at most 90)"
    assert (_stated_minutes(notebook.cells[0].source) or 0) <= MAX_MINUTES, f"{path.name} says it takes over 90 minutes"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_table_in_a_lesson_is_longer_than_10_rows(path):
    long = [(cell, rows) for cell, rows in _tables(nbformat.read(path, as_version=4)) if rows > MAX_ROWS]
    assert not long, (f"{path.name}: tables over {MAX_ROWS} rows (cell, rows) {long}; move the full table to "
                      "benchmarks/README.md and keep a chart or a three-line takeaway in the lesson")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_each_lesson_has_a_predict_then_run_moment(path):
    code = [cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
    predicting = [number for number, source in enumerate(code) if PREDICTION.search(source)]
    assert predicting, f"{path.name}: no code cell sets my_prediction = … before the cell that shows the answer"
    assert predicting[0] < len(code) - 2, f"{path.name}: the prediction comes after every cell that could show it"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem[:2] >= "03"], ids=[s for s in IDS if s[:2] >= "03"])
def test_from_lesson_03_on_each_lesson_has_a_design_exercise(path):
    kinds = [exercise.kind for exercise in lesson_exercises(path.stem[:2])]
    assert "design" in kinds, f"{path.name}: no design exercise (kinds {kinds})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_lesson_tells_project_history(path):
    notebook = nbformat.read(path, as_version=4)
    found = [(number, match.group(0)) for number, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"
             for match in HISTORY.finditer(cell.source)]
    assert not found, f"{path.name}: project history a learner never saw (cell, phrase): {found}"


@pytest.mark.parametrize("text", ["As the kit wrote them before this lesson", "the old HybridMemory ranked",
                                  "fixed in issue 28", "since last round"])
def test_the_history_phrases_are_caught(text):
    assert HISTORY.search(text)


@pytest.mark.parametrize(("text", "rows"), [("| a |\n|---|\n| 1 |\n| 2 |\n", 2), ("no table", 0),
                                            ("| a |\n|---|\n" + "| x |\n" * 11 + "\ntext\n| b |\n|--|\n| 1 |", 11)])
def test_markdown_rows_counts_the_body_of_the_longest_table(text, rows):
    assert markdown_rows(text) == rows


def test_html_rows_counts_the_body_of_the_longest_table():
    table = "<table><tr><th>a</th></tr>" + "<tr><td>1</td></tr>" * 12 + "</table>"
    assert html_rows(table + "<table><tr><th>b</th></tr><tr><td>2</td></tr></table>") == 12
