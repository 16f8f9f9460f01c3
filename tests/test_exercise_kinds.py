"""An exercise's kind is what its check and its solutions show, not what its label says.

A design exercise ships at least two solutions of different design (``SOLUTIONS[id]`` in
aria_kit/solutions/lessonNN.py, each the arguments of one call of the exercise's check), and the check
passes every one: if only one structure passes, the exercise is a specification. Two solutions that
differ only in their names are one design. A notebook heading that names a kind, "(design)", names
the catalogue's.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import nbformat
import pytest

from aria_kit.exercises.catalogue import Exercise, all_exercises

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = [exercise for exercises in all_exercises().values() for exercise in exercises]
DESIGNS = [exercise for exercise in EXERCISES if exercise.kind == "design"]


def _shape(value: object) -> str:
    """The structure of a solution's code with every name, argument and constant blanked out."""
    if not (inspect.isfunction(value) or inspect.isclass(value)):
        return type(value).__name__  # a rule's text or a list of example replies: data, not design
    tree = ast.parse(inspect.getsource(value).strip())
    for node in ast.walk(tree):
        for field in ("name", "id", "arg", "attr"):
            if isinstance(getattr(node, field, None), str):
                setattr(node, field, "_")
        if isinstance(node, ast.Constant):
            node.value = None
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.body and isinstance(
                getattr(node.body[0], "value", None), ast.Constant):
            node.body = node.body[1:] or [ast.Pass()]  # a docstring is not design
    return ast.dump(tree)


def design_problems(exercise: Exercise, capsys=None) -> list[str]:
    """What keeps ``exercise`` from being a design: missing solutions, a failing one, or two of one shape."""
    solutions = getattr(importlib.import_module(f"aria_kit.solutions.lesson{exercise.lesson}"), "SOLUTIONS", {})
    designs = solutions.get(exercise.id, [])
    if len(designs) < 2:
        return [f"{exercise.id} ships {len(designs)} solution(s) in SOLUTIONS[{exercise.id!r}]; a design needs two "
                "of different design that its check passes, or call it a specification"]
    check = getattr(importlib.import_module(f"aria_kit.exercises.lesson{exercise.lesson}"), exercise.check)
    problems = [f"{exercise.id}: {exercise.check} rejects solution {n}"
                for n, arguments in enumerate(designs, 1) if check(*arguments) is not True]
    shapes = [tuple(_shape(argument) for argument in arguments) for arguments in designs]
    problems += [f"{exercise.id}: solutions {a + 1} and {b + 1} differ only in their names"
                 for a in range(len(shapes)) for b in range(a + 1, len(shapes)) if shapes[a] == shapes[b]]
    return problems


@pytest.mark.parametrize("exercise", DESIGNS, ids=[exercise.id for exercise in DESIGNS])
def test_a_design_exercises_check_passes_two_solutions_of_different_design(exercise, capsys):
    assert design_problems(exercise) == []
    assert capsys.readouterr().out.count("✓") == len(
        importlib.import_module(f"aria_kit.solutions.lesson{exercise.lesson}").SOLUTIONS[exercise.id])


def test_the_kit_has_design_exercises():
    assert len(DESIGNS) >= 3


def test_a_design_with_one_solution_or_a_renamed_copy_is_refused(monkeypatch, capsys):
    from aria_kit.solutions import lesson11

    exercise = next(e for e in DESIGNS if e.id == "11.3")
    monkeypatch.setattr(lesson11, "SOLUTIONS", {"11.3": [(lesson11.render_history,)]})
    assert "ships 1 solution(s)" in design_problems(exercise)[0]

    namespace: dict = {}
    source = inspect.getsource(lesson11.render_history).replace("render_history", "render_versions")
    source = source.replace("rows", "items").replace("record", "version")
    exec(compile(source, "<renamed>", "exec"), vars(lesson11) | namespace, namespace)  # a renamed copy
    monkeypatch.setattr(inspect, "getsource", lambda value, _real=inspect.getsource:
                        source if value is namespace["render_versions"] else _real(value))
    monkeypatch.setattr(lesson11, "SOLUTIONS", {"11.3": [(lesson11.render_history,), (namespace["render_versions"],)]})
    assert design_problems(exercise) == ["11.3: solutions 1 and 2 differ only in their names"]

    monkeypatch.setattr(lesson11, "SOLUTIONS", {"11.3": [(lesson11.render_history,), (lesson11.render_panel,)]})
    assert "11.3: check_render_history rejects solution 2" in design_problems(exercise)


def test_a_design_exercise_must_name_its_check_and_only_a_design_does():
    with pytest.raises(ValueError, match="a design exercise names the check_"):
        Exercise("03.1", designs="x", kind="design", minutes=10)
    with pytest.raises(ValueError, match="a design exercise names the check_"):
        Exercise("03.1", designs="x", kind="specification", minutes=10, check="check_inverted_index")


def _heading_kinds() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            for line in cell.source.splitlines():
                match = re.match(r"#+ .*?Exercise (\d\d\.\d+)\b.*\((warm-up|specification|design)\)\s*$", line)
                if match:
                    found.append((path.name, match.group(1), match.group(2)))
    return found


@pytest.mark.parametrize(("notebook", "exercise_id", "kind"), _heading_kinds(),
                         ids=[f"{n[:2]}-{e}" for n, e, _ in _heading_kinds()])
def test_a_heading_that_names_a_kind_names_the_catalogues(notebook, exercise_id, kind):
    catalogued = next(e.kind for e in EXERCISES if e.id == exercise_id)
    assert kind == catalogued, f"{notebook}: the heading of {exercise_id} says {kind}, the catalogue {catalogued}"
