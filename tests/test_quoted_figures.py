"""A latency quoted in a lesson or the README comes from a committed benchmark run, not from memory.

``benchmarks/README.md`` is the record of every benchmark run (command, date,
machine, figures). Any "N ms" / "N µs" in a lesson's markdown or in README.md
must be one of its figures, written with the same or fewer decimals ("95 ms"
may quote a recorded "94.7 ms"). A figure typed by hand, or left behind when
the benchmark was re-run, fails here and names the file and the cell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LATENCY = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s?(ms|µs)\b")
RECORD = REPO / "benchmarks" / "README.md"


def _figures(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in LATENCY.finditer(text)]


def _recorded() -> dict[str, set[float]]:
    found: dict[str, set[float]] = {"ms": set(), "µs": set()}
    for number, unit in _figures(RECORD.read_text(encoding="utf-8")):
        found[unit].add(float(number.replace(",", "")))
    # Table cells hold bare numbers under an "ms" column header: count every number in the record as a candidate.
    for number in re.findall(r"(?<![\w.])\d[\d,]*\.\d+(?![\w.])", RECORD.read_text(encoding="utf-8")):
        found["ms"].add(float(number.replace(",", "")))
    return found


def _quoted() -> list[tuple[str, str, str]]:
    quoted = []
    for notebook in sorted((REPO / "notebooks").glob("*.ipynb")):
        for index, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "markdown":
                quoted += [(f"{notebook.name} cell {index}", n, u) for n, u in _figures("".join(cell["source"]))]
    quoted += [("README.md", n, u) for n, u in _figures((REPO / "README.md").read_text(encoding="utf-8"))]
    return quoted


def _matches(number: str, recorded: set[float]) -> bool:
    decimals = len(number.split(".")[1]) if "." in number else 0
    value = float(number.replace(",", ""))
    return any(round(r, decimals) == value for r in recorded)


def test_every_quoted_latency_is_a_recorded_benchmark_figure():
    recorded = _recorded()
    stray = [f"{where}: {number} {unit}" for where, number, unit in _quoted() if not _matches(number, recorded[unit])]
    assert not stray, ("latencies quoted without a committed run in benchmarks/README.md (re-run the benchmark and "
                       "quote its figure, or add the run):\n" + "\n".join(stray))


@pytest.mark.parametrize(("quoted", "recorded", "ok"), [("95", {94.7}, True), ("8.6", {8.62}, True),
                                                        ("13", {2.0, 146.0}, False), ("1.10", {1.12}, False)])
def test_a_quote_may_round_a_recorded_figure_but_not_invent_one(quoted, recorded, ok):
    assert _matches(quoted, recorded) is ok
