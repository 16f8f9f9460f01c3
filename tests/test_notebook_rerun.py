"""Going back up works: after "Run All", every code cell can be run again on its own, last to first.

A learner who reaches the end of a lesson and scrolls back to re-run an earlier
cell meets the state the later cells left: an exercise stub that re-defined a
lesson's function, a clean-up cell that deleted what an earlier cell uses. For
each notebook in ``notebooks/`` this test starts one kernel, runs every code
cell in order, then runs every code cell once more from the last to the first in
the same kernel, and fails on the first cell that raises (naming it). Runs
offline: the kernel gets no OPENAI_* variables. The outputs themselves are
compared elsewhere (strict nbval); here only "does not raise" counts.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
OFFLINE_ENV = {name: value for name, value in os.environ.items() if not name.startswith("OPENAI_")}


def _first_line(source: str) -> str:
    return next((line for line in source.splitlines() if line.strip()), "")[:80]


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_every_code_cell_runs_again_from_the_last_to_the_first_after_run_all(path):
    notebook = nbformat.read(path, as_version=4)
    code = [(number, cell) for number, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    with client.setup_kernel(env=OFFLINE_ENV):
        for phase, cells in (("Run All", code), ("re-run, last to first", list(reversed(code)))):
            for number, cell in cells:
                try:
                    client.execute_cell(cell, number)
                except CellExecutionError as exc:
                    pytest.fail(f"{path.name}, {phase}: cell {number} ({_first_line(cell.source)!r}) raised "
                                f"{exc.ename}: {exc.evalue}", pytrace=False)
