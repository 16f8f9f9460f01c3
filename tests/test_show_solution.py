"""show_solution prints one exercise's answer, a stretch answer or a whole lesson, and names the choices on a typo."""

from __future__ import annotations

import inspect

import pytest

import aria_kit.solutions.lesson05 as lesson05_solutions
from aria_kit.exercises import catalogue, show_solution
from aria_kit.exercises.catalogue import Exercise


def test_a_whole_lesson_prints_its_solutions_file(capsys):
    show_solution("lesson05")
    assert capsys.readouterr().out.strip() == inspect.getsource(lesson05_solutions).strip()


@pytest.mark.parametrize("typo", ["lesson2", "lesson99", "5.99", "stretch 99", "", "Lesson 05"])
def test_a_name_that_is_no_solution_gets_one_line_naming_the_choices(typo, capsys):
    show_solution(typo)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("No solution is called"), out
    assert '"05.1"' in out and '"stretch 05"' in out and '"lesson00"' in out and '"lesson14"' in out


def _a_solution_function() -> str:
    """The name of the first function the lesson 05 solutions define (whatever the lesson calls it)."""
    return next(name for name, obj in inspect.getmembers(lesson05_solutions, inspect.isfunction)
                if obj.__module__ == lesson05_solutions.__name__)


def test_one_exercise_prints_only_the_objects_its_catalogue_entry_names(capsys, monkeypatch):
    name = _a_solution_function()
    entry = Exercise("05.1", designs="a metric", kind="specification", minutes=10, solution=(name,))
    monkeypatch.setattr(catalogue, "lesson_exercises", lambda lesson: [entry] if lesson == "05" else [])
    show_solution("05.1")
    out = capsys.readouterr().out
    assert out.strip() == inspect.getsource(getattr(lesson05_solutions, name)).strip()
    show_solution("5.1")  # the lesson number may drop its leading zero
    assert capsys.readouterr().out == out


def test_a_stretch_task_is_found_in_any_case(monkeypatch):
    entry = Exercise("Stretch 05", designs="a test", kind="stretch", minutes=30, solution=(_a_solution_function(),))
    monkeypatch.setattr(catalogue, "lesson_exercises", lambda lesson: [entry])
    assert catalogue.find("STRETCH 05") is entry and catalogue.find("stretch 5") is entry


@pytest.mark.parametrize(("fields", "message"), [
    (dict(id="5.1", kind="design"), "write 'NN.M'"),
    (dict(id="05.1", kind="recipe"), "kind must be one of"),
    (dict(id="05.1", kind="stretch"), "only 'Stretch NN'"),
    (dict(id="Stretch 05", kind="design"), "only 'Stretch NN'"),
    (dict(id="05.1", kind="design", minutes=0), "minutes must be"),
])
def test_a_malformed_catalogue_entry_is_refused(fields, message):
    values = dict(designs="x", minutes=10) | fields
    with pytest.raises(ValueError, match=message):
        Exercise(**values)


def test_a_solution_that_is_a_plain_value_prints_its_assignment(capsys, monkeypatch):
    monkeypatch.setattr(lesson05_solutions, "CASES", [1, 2], raising=False)
    entry = Exercise("05.9", designs="cases", kind="specification", minutes=5, solution=("CASES",))
    monkeypatch.setattr(catalogue, "lesson_exercises", lambda lesson: [entry])
    show_solution("05.9")
    assert capsys.readouterr().out == "CASES = [1, 2]\n"
