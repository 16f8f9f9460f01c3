"""Lesson 14's held-out comparisons and best dev settings (lesson 05's data sets) as its output prints them.

For the claims of the lessons that quote them (05, 09, 14). The file keeps its name: the figures are lesson 05's
settings, tuned and reported in lesson 14.
"""

from __future__ import annotations

import re

from lesson_claims import Lesson

LESSON_14 = Lesson("14_going_further_tuning")
HELDOUT_CELL = '"tuned on dev": None}'  # a fragment of the one cell that prints the held-out table


def heldout_table() -> dict[str, dict[str, str]]:
    """The held-out table, ``{data set: {column header: cell}}``, as lesson 14 prints it."""
    lines = [line.strip() for line in LESSON_14.output(HELDOUT_CELL).splitlines()
             if line.strip() and not set(line.strip()) <= set("- ")]
    at = next((i for i, line in enumerate(lines) if re.match(r"held-out\s{2,}", line)), None)
    assert at is not None, "lesson 14's held-out table has no header row starting 'held-out'"
    headers = re.split(r"\s{2,}", lines[at])
    return {cells[0]: dict(zip(headers, cells)) for cells in (re.split(r"\s{2,}", line) for line in lines[at + 1:])}


def heldout_difference(data_set: str, against: str = "the seed") -> tuple[float, float, float]:
    """Held-out capped recall@5, kit default minus ``against``: (mean, 95% low, 95% high), as lesson 14 prints it."""
    table, column = heldout_table(), f"kit default − {against}"
    assert data_set in table, f"lesson 14 prints no held-out row for {data_set}; rows: {sorted(table)}"
    assert column in table[data_set], f"lesson 14's held-out table has no column {column!r}"
    mean, low, high = (float(x) for x in re.findall(r"[-+]?\d+\.\d+", table[data_set][column]))
    return mean, low, high


def best_on_dev(data_set: str) -> str:
    """The setting lesson 14 prints as ``data_set``'s best on dev capped recall@5, such as "rrf(k=30) −stop +stem"."""
    rows = [re.split(r"\s{2,}", line.strip()) for line in LESSON_14.output('title="dev: the best of 64').splitlines()]
    found = [row[1] for row in rows if row[0] == data_set]
    assert len(found) == 1, f"lesson 14 prints {len(found)} best dev settings for {data_set}"
    return found[0]


def quotes(data_set: str, quoted: tuple[float, float, float], interval_includes_zero: bool,
           against: str = "the seed") -> bool:
    """True when lesson 14 prints ``quoted`` for ``data_set`` and its interval does (not) include zero."""
    got = heldout_difference(data_set, against)
    assert got == quoted, f"lesson 14 prints {got} for {data_set} against {against}; the prose quotes {quoted}"
    assert (got[1] <= 0 <= got[2]) is interval_includes_zero, f"{data_set}: interval {got[1:]}"
    return True
