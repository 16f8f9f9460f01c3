"""Imports point backward in the lesson order, and drawing a chart never loads the agent or openai.

The lesson map is ``aria_kit.LESSONS`` (module -> the lesson that introduces it).
This test reads every module's source with ``ast`` — imports inside functions
count too, only ``if TYPE_CHECKING:`` blocks are skipped — and checks each
``aria_kit`` import against the map. Exercise and solution modules belong to the
lesson in their name.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import aria_kit

PACKAGE = Path(aria_kit.__file__).parent
DISPLAY_MODULES = {"charts", "chat_widget"}  # the only modules that may import matplotlib / ipywidgets
DISPLAY_LIBRARIES = {"matplotlib", "ipywidgets"}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def _lesson_of(name: str) -> int | None:
    """The lesson of a module named relative to the package (``hybrid_memory``, ``exercises.lesson04``)."""
    match = re.fullmatch(r"(?:exercises|solutions)\.lesson(\d\d)", name)
    if match:
        return int(match.group(1))
    if name in {"exercises", "exercises.quiz", "exercises.catalogue", "solutions", "__init__"}:
        return 0  # the check/quiz machinery and package roots: import nothing from the lessons
    return aria_kit.LESSONS.get(name)


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path) -> list[str]:
    """Every module name imported anywhere in ``path``, outside ``if TYPE_CHECKING:`` blocks."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "aria_kit":  # from aria_kit import hybrid_memory
                found.extend(f"aria_kit.{alias.name}" for alias in node.names)
            else:
                found.append(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
EDGES = [(_module_name(p).removesuffix(".__init__") or "__init__", imported)
         for p in SOURCES for imported in _imports(p)]


@pytest.mark.parametrize("path", SOURCES, ids=[_module_name(p) for p in SOURCES])
def test_every_module_is_on_the_lesson_map(path):
    name = _module_name(path).removesuffix(".__init__") or "__init__"
    assert _lesson_of(name) is not None, f"aria_kit/{path.relative_to(PACKAGE)} is on no lesson: add it to aria_kit.LESSONS"


# Lesson 00 is the tour of the finished agent (its notebook runs make_agent); its quiz asks what that agent does on
# a new case, so its computed keys run it. Those keys are the only forward imports allowed, and only these.
QUIZ_KEYS_OF_THE_TOUR = {("exercises.lesson00", "demo"), ("exercises.lesson00", "offline"),
                         ("exercises.lesson00", "openai_provider")}


def test_imports_point_backward_in_the_lesson_order():
    forward = []
    for importer, imported in EDGES:
        if not imported.startswith("aria_kit."):
            continue
        target = imported.removeprefix("aria_kit.")
        if (importer, target) in QUIZ_KEYS_OF_THE_TOUR:
            continue
        target_lesson = _lesson_of(target)
        source_lesson = _lesson_of(importer)
        if target_lesson is not None and source_lesson is not None and target_lesson > source_lesson:
            forward.append(f"{importer} (lesson {source_lesson:02d}) imports {target} (lesson {target_lesson:02d})")
    assert not forward, "imports that point forward:\n" + "\n".join(forward)


def test_display_modules_are_leaves_and_the_only_ones_importing_display_libraries():
    problems = []
    for importer, imported in EDGES:
        top = imported.split(".")[0]
        lesson_material = importer.startswith(("exercises.", "solutions."))
        if top in DISPLAY_LIBRARIES and importer not in DISPLAY_MODULES and not lesson_material:
            problems.append(f"{importer} imports {imported}")
        if imported.removeprefix("aria_kit.") in DISPLAY_MODULES and not lesson_material:
            problems.append(f"{importer} imports the display module {imported}")
    assert not problems, "\n".join(problems)


def test_the_import_graph_sees_real_forward_imports():
    """The checker itself: a made-up module of lesson 02 importing the agent is caught."""
    tree = ast.parse("def f():\n    from aria_kit.agent import AutonomousAgent\n")
    names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert names == ["aria_kit.agent"] and _lesson_of("agent") > _lesson_of("embeddings")


def test_drawing_the_retrieval_charts_loads_neither_the_agent_nor_openai():
    script = """
import sys
import matplotlib
matplotlib.use("Agg")
import numpy as np
from aria_kit import charts
fig = charts.plot_similarity(np.eye(2), ["a", "b"], ["a", "b"])
fig = charts.plot_idf(7)
loaded = sorted(m for m in sys.modules if m == "openai" or m.startswith(("openai.", "aria_kit.agent", "aria_kit.openai_provider")))
print(loaded)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout
