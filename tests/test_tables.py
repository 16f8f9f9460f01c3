"""Tests for aria_kit.tables: both views show the same cells, aligned, escaped and deterministic."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

from aria_kit.tables import Table, format_cell


class _CellReader(HTMLParser):
    """Reads an HTML table back into caption, header cells and body rows (the stdlib parser is the reference)."""

    def __init__(self) -> None:
        super().__init__()
        self.caption = ""
        self.headers: list[str] = []
        self.rows: list[list[str]] = []
        self._where: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr" and self._where != "caption":
            self.rows.append([])
        if tag in ("th", "td", "caption"):
            self._where = tag
            if tag == "th":
                self.headers.append("")
            elif tag == "td":
                self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag in ("th", "td", "caption"):
            self._where = None

    def handle_data(self, data):
        if self._where == "th":
            self.headers[-1] += data
        elif self._where == "td":
            self.rows[-1][-1] += data
        elif self._where == "caption":
            self.caption += data


def _read_html(table: Table) -> _CellReader:
    reader = _CellReader()
    reader.feed(table._repr_html_())
    reader.rows = [row for row in reader.rows if row]  # the header <tr> has no <td>
    return reader


def test_html_view_round_trips_every_cell_and_the_title():
    table = Table([("mem_0001", 0.5, 3), ("mem_0002", 0.25, None)], headers=["id", "cosine", "rank"], title="Hits")
    parsed = _read_html(table)
    assert parsed.caption == "Hits"
    assert parsed.headers == ["id", "cosine", "rank"]
    assert parsed.rows == [["mem_0001", "0.5000", "3"], ["mem_0002", "0.2500", "—"]]


def test_html_view_escapes_markup_in_cells_headers_and_title():
    table = Table([("<script>alert(1)</script>", "a & b")], headers=["<i>text</i>", "x"], title="<b>t</b>")
    markup = table._repr_html_()
    assert "<script>" not in markup and "<i>text" not in markup and "<b>t</b>" not in markup
    parsed = _read_html(table)  # the parser unescapes, so the learner sees the literal text
    assert parsed.rows == [["<script>alert(1)</script>", "a & b"]]
    assert parsed.headers == ["<i>text</i>", "x"]
    assert parsed.caption == "<b>t</b>"


def test_text_view_aligns_columns_and_right_aligns_numbers():
    table = Table([("a", 1.5, 10), ("longer name", 22.25, 2)], headers=["name", "score", "rank"])
    lines = repr(table).splitlines()
    assert lines[0].split() == ["name", "score", "rank"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert lines[2:] == ["a             1.5000    10", "longer name  22.2500     2"]
    # every number column ends at the same position on every line
    assert len({len(line) for line in lines[2:]}) == 1


def test_text_view_starts_with_the_title_when_given():
    assert repr(Table([(1,)], headers=["n"], title="Counts")).splitlines()[0] == "Counts"
    assert repr(Table([(1,)], headers=["n"])).splitlines()[0].strip() == "n"


def test_str_and_repr_are_the_same_text():
    table = Table([("x", 1)], headers=["a", "b"])
    assert str(table) == repr(table)


def test_floats_are_rounded_to_the_requested_digits():
    assert format_cell(0.123456) == "0.1235"
    assert format_cell(0.123456, digits=2) == "0.12"
    assert Table([(2 / 3,)], headers=["x"], digits=3).cells() == [["0.667"]]


def test_numpy_numbers_format_like_python_numbers():
    assert format_cell(np.float32(0.5)) == format_cell(0.5)
    assert format_cell(np.float64(1 / 3)) == format_cell(1 / 3)
    assert format_cell(np.int64(7)) == "7"


def test_negative_zero_after_rounding_loses_its_sign():
    # rounding noise (-1e-17 on one machine, +1e-17 on another) must not change the output
    assert format_cell(-1e-17) == format_cell(1e-17) == "0.0000"
    assert format_cell(-0.5) == "-0.5000"


def test_integers_booleans_and_none_are_shown_plainly():
    assert [format_cell(v) for v in (42, True, None, "text")] == ["42", "True", "—", "text"]


def test_line_breaks_in_text_stay_on_one_row():
    table = Table([("first line\nsecond line", 1)], headers=["text", "n"])
    assert len(repr(table).splitlines()) == 3
    assert table.cells() == [["first line second line", "1"]]


def test_a_row_of_the_wrong_length_is_reported_with_its_number():
    with pytest.raises(ValueError, match=r"Row 2 has 1 cells but there are 2 headers"):
        Table([("a", 1), ("b",)], headers=["name", "n"])


def test_rows_can_be_any_iterable_including_a_generator():
    table = Table(((i, i * i) for i in range(3)), headers=["i", "square"])
    assert len(table) == 3
    assert table.cells()[-1] == ["2", "4"]


def test_an_empty_table_still_shows_its_headers():
    table = Table([], headers=["id", "score"], title="Nothing found")
    assert repr(table).splitlines()[:2] == ["Nothing found", "id  score"]
    assert _read_html(table).headers == ["id", "score"]


def test_trace_shows_every_step_of_a_turn_under_the_user_message():
    from aria_kit.agent import AutonomousAgent
    from aria_kit.persona import ARIA
    from aria_kit.scripted import ScriptedProvider, call_tool, say
    from aria_kit.tables import trace
    from aria_kit.tools import WebSearchTool
    from toy_memory import ToyMemory

    agent = AutonomousAgent(ARIA, ScriptedProvider([call_tool("web_search", {"query": "BM25"}), say("Done.")]),
                            ToyMemory(), [WebSearchTool()])
    agent.chat("What is BM25?")
    table = trace(agent.last_turn)
    assert table.title == "user: What is BM25?"
    assert [row[1] for row in table.rows] == ["recall", "model", "tool", "model", "answer"]


def test_trace_cuts_each_step_to_its_width_and_keeps_the_whole_text_in_the_turn():
    from aria_kit.agent import AutonomousAgent
    from aria_kit.persona import ARIA
    from aria_kit.scripted import ScriptedProvider, call_tool, say
    from aria_kit.tables import TRACE_WIDTH, trace
    from aria_kit.tools import WebSearchTool
    from toy_memory import ToyMemory

    long_answer = "A" * 300
    query = "BM25 " + "and more words " * 10
    agent = AutonomousAgent(ARIA, ScriptedProvider([call_tool("web_search", {"query": query}), say(long_answer)]),
                            ToyMemory(), [WebSearchTool()])
    agent.chat("What is BM25?")
    for width in (TRACE_WIDTH, 60):
        shown = [row[2] for row in trace(agent.last_turn, width=width).rows]
        assert max(len(text) for text in shown) == width and shown[-1] == "A" * (width - 1) + "…"
        tool = shown[2]
        # the long arguments are cut, not the result: what the tool said still starts the text after the arrow
        assert tool.startswith("web_search({") and "…) → " in tool
        assert tool.split(" → ", 1)[1][:10] == agent.last_turn.steps[2].detail["result"][:10]
    assert agent.last_turn.answer == long_answer
    with pytest.raises(ValueError, match="at least 10"):
        trace(agent.last_turn, width=3)
