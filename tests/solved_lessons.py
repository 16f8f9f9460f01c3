"""Run a lesson with its exercise stubs replaced by the worked solutions (tests/test_exercises_NN.py).

The committed notebooks show every exercise unfinished, so the cells that compare a
learner's code with the kit's only ever print "(not done yet)". ``run_solved`` swaps
each stub cell for an import of the worked answer and runs the whole lesson, so those
comparisons run too; it returns the text of every output.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def run_solved(stem: str, replacements: dict[str, str]) -> str:
    """Run ``notebooks/<stem>.ipynb`` with each stub defining a name in ``replacements`` replaced by its source."""
    notebook = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    replaced = set()
    for cell in notebook.cells:
        if cell.cell_type == "code" and "raise NotImplementedError" in cell.source:
            defined = [node.name for node in ast.parse(cell.source).body if hasattr(node, "name")]
            name = next(n for n in defined if n in replacements)
            cell.source = replacements[name]
            replaced.add(name)
    assert replaced == set(replacements), f"stub cells not found for {set(replacements) - replaced}"
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPENAI_")}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}})
    with client.setup_kernel(env=env):
        for number, cell in enumerate(notebook.cells):
            client.execute_cell(cell, number)
    return "\n".join(output.get("text", "") + output.get("data", {}).get("text/plain", "")
                     for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs)
