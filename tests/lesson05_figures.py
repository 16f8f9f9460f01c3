"""Lesson 05's held-out comparisons as its output prints them, for the claims of later lessons that quote them."""

from __future__ import annotations

import re

from lesson_claims import Lesson

LESSON_05 = Lesson("05_measuring_memory")


def heldout_difference(data_set: str, against: str = "the seed") -> tuple[float, float, float]:
    """Held-out capped recall@5, kit default minus ``against``: (mean, 95% low, 95% high), as lesson 05 prints it."""
    table = LESSON_05.output('"the setting tuned on dev": None}')
    row = re.search(rf"^{data_set}\s+kit default vs {re.escape(against)}\s+\d+\s+\d+\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)",
                    table, re.M)
    assert row, f"lesson 05 prints no held-out row for the kit default against {against} on {data_set}"
    return tuple(float(x) for x in row.groups())


def quotes(data_set: str, quoted: tuple[float, float, float], interval_includes_zero: bool,
           against: str = "the seed") -> bool:
    """True when lesson 05 prints ``quoted`` for ``data_set`` and its interval does (not) include zero."""
    got = heldout_difference(data_set, against)
    assert got == quoted, f"lesson 05 prints {got} for {data_set} against {against}; the prose quotes {quoted}"
    assert (got[1] <= 0 <= got[2]) is interval_includes_zero, f"{data_set}: interval {got[1:]}"
    return True
