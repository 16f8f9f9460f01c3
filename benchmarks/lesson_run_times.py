"""Measure how long each lesson notebook takes to run, and record it in ``lesson_run_times.json``.

A lesson's first cell states its time ("**Time:** about 40 minutes"), and
``tests/test_lesson_structure.py`` recomputes that estimate: reading time of the
markdown at 200 words a minute, each exercise's and the stretch task's minutes from
the lesson's ``EXERCISES``, plus the notebook's run time, which comes from the JSON this script writes. Run
times are measured here rather than in the test because a timing taken inside a
test suite on a busy machine is noise; they are a small part of the estimate.

    python benchmarks/lesson_run_times.py                      # every notebook
    python benchmarks/lesson_run_times.py 02_embeddings 03_bm25  # just these; the others keep their figures

Each notebook runs once, top to bottom, in a fresh kernel, offline (no OPENAI_*
variables), so the figure includes kernel start-up and imports, as a learner's
"Restart and Run All" does. It does not change the notebooks.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUT = Path(__file__).resolve().parent / "lesson_run_times.json"


def run_seconds(path: Path) -> float:
    """Wall-clock seconds to run ``path`` top to bottom in a fresh offline kernel."""
    notebook = nbformat.read(path, as_version=4)
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPENAI_")}
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    start = time.perf_counter()
    with client.setup_kernel(env=env):
        for number, cell in enumerate(notebook.cells):
            client.execute_cell(cell, number)
    return time.perf_counter() - start


def main(names: list[str]) -> None:
    record = json.loads(OUT.read_text()) if OUT.exists() else {"seconds": {}}
    paths = [NOTEBOOKS / f"{name}.ipynb" for name in names] if names else sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        seconds = run_seconds(path)
        record["seconds"][path.stem] = round(seconds, 1)
        print(f"{path.stem:36s} {seconds:6.1f} s")
    record["seconds"] = dict(sorted(record["seconds"].items()))
    record["measured"] = str(date.today())
    record["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    record["load_average_1min_at_end"] = round(os.getloadavg()[0], 1)  # above the core count: a busy machine
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
