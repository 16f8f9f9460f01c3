"""Small display tables for the lessons: ``Table(rows, headers, title=None)``.

A notebook cell that ends with a ``Table`` shows an HTML table in JupyterLab and
an aligned plain-text table everywhere else (``print``, a terminal, the text
output nbval compares). Both views format cells the same way so they stay
deterministic across machines: floats are rounded to a fixed number of decimals,
``None`` shows as an em dash, and every other value is shown with ``str``.
Numbers are right-aligned, everything else left-aligned.

``trace(turn)`` shows the agent's record of one turn (lessons 08 and 09) as such a table, each step
cut to ``width`` characters (the turn keeps the whole text).

What it deliberately does not do: sorting, paging, styling, wrapping or
truncating long text (shorten text before you put it in a row), or anything
pandas does. It has no dependencies beyond the standard library.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

MISSING = "—"


def format_cell(value: Any, digits: int = 4) -> str:
    """Format one cell: floats rounded to ``digits`` decimals, ``None`` as an em dash, the rest via ``str``.

    Booleans and integers are shown as they are (``True``, ``42``); a float such
    as ``0.123456`` becomes ``0.1235``. Line breaks inside text are replaced by
    spaces so that one row always stays one line in the plain-text view.
    """
    if value is None:
        return MISSING
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        text = f"{float(value):.{digits}f}"
        # -0.0000 and 0.0000 are the same number; a sign that depends on rounding noise would
        # make a committed notebook output differ between machines.
        return text[1:] if text.startswith("-") and float(text) == 0 else text
    return " ".join(str(value).splitlines())


def _is_number(value: Any) -> bool:
    # bool is an Integral, but True/False read better left-aligned like words.
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class Table:
    """Rows under headers, shown as an HTML table in Jupyter and as aligned text in ``repr``.

    ``rows`` is any iterable of sequences, each as long as ``headers``; a row of
    the wrong length raises ``ValueError`` naming the row, so a mistake shows up
    where the table is built rather than as a ragged display. ``title`` becomes
    the HTML caption and the first line of the text view. ``digits`` is the
    number of decimals floats are rounded to (4 by default).
    """

    def __init__(
        self,
        rows: Iterable[Sequence[Any]],
        headers: Sequence[str],
        title: str | None = None,
        *,
        digits: int = 4,
    ) -> None:
        self.headers: list[str] = [str(h) for h in headers]
        self.rows: list[list[Any]] = [list(row) for row in rows]
        self.title = title
        self.digits = digits
        for number, row in enumerate(self.rows, start=1):
            if len(row) != len(self.headers):
                raise ValueError(
                    f"Row {number} has {len(row)} cells but there are {len(self.headers)} headers "
                    f"({', '.join(self.headers)}); give every row one value per header."
                )

    def cells(self) -> list[list[str]]:
        """The rows as formatted strings, exactly as both views show them."""
        return [[format_cell(value, self.digits) for value in row] for row in self.rows]

    def _numeric_columns(self) -> list[bool]:
        # A column is right-aligned when every non-missing value in it is a number.
        columns = []
        for i in range(len(self.headers)):
            values = [row[i] for row in self.rows if row[i] is not None]
            columns.append(bool(values) and all(_is_number(v) for v in values))
        return columns

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        cells = self.cells()
        numeric = self._numeric_columns()
        widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(self.headers)]

        def line(values: Sequence[str]) -> str:
            parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
            return "  ".join(parts).rstrip()

        lines = [self.title] if self.title else []
        lines.append(line(self.headers))
        lines.append("  ".join("-" * w for w in widths))
        lines.extend(line(row) for row in cells)
        return "\n".join(lines)

    __str__ = __repr__

    def _repr_html_(self) -> str:
        numeric = self._numeric_columns()

        def align(num: bool) -> str:
            return "right" if num else "left"

        head = "".join(
            f"<th style='text-align:{align(num)}'>{html.escape(h)}</th>" for h, num in zip(self.headers, numeric)
        )
        body = "".join(
            "<tr>"
            + "".join(
                f"<td style='text-align:{align(num)}'>{html.escape(cell)}</td>" for cell, num in zip(row, numeric)
            )
            + "</tr>"
            for row in self.cells()
        )
        caption = f"<caption style='text-align:left'><b>{html.escape(self.title)}</b></caption>" if self.title else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


TRACE_WIDTH = 100


def _fit(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _step_text(step: Any, width: int) -> str:
    # A tool step shows name(arguments) → result, the arguments cut to a third of the width so the result shows.
    detail = getattr(step, "detail", None) or {}
    call, result = detail.get("call"), detail.get("result")
    if step.kind == "tool" and call is not None and isinstance(result, str):
        return _fit(f"{call.name}({_fit(str(call.arguments), width // 3)}) → {result}", width)
    return _fit(step.summary, width)


def trace(turn: Any, width: int = TRACE_WIDTH) -> Table:
    """The agent's record of one turn as a table: recall, each model call, each tool call, the answer.

    ``turn`` is an ``aria_kit.agent.Turn`` (anything with ``user`` and ``steps``), such as ``agent.last_turn``.
    Each step is cut to ``width`` characters, ending in "…", so a row fits a notebook's width; the turn keeps
    the whole text.
    """
    if not isinstance(width, int) or width < 10:
        raise ValueError(f"width must be a whole number of characters, at least 10; got {width!r}")
    rows = [(number, step.kind, _step_text(step, width)) for number, step in enumerate(turn.steps, start=1)]
    return Table(rows, headers=["#", "step", "what happened"], title=f"user: {turn.user}")
