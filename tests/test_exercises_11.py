"""The exercise checks of lesson 11 pass the worked solutions and fail plausible wrong answers.

Each wrong answer is a mistake a learner could really make: forgetting to escape
(or escaping only the text), escaping twice, stripping tags instead of escaping,
listing the panel oldest first or reversing the caller's list in place. The
worked ``render_memory`` is also compared with the reference, the chat widget's
own memory panel: for hostile records both show the same id, category and text.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.chat_widget import ChatWidget
from aria_kit.exercises import lesson11
from aria_kit.interfaces import MemoryRecord
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider
from exercise_checks import assert_refused, check_tests, verdict
from aria_kit.solutions.lesson11 import highlight, render_history, render_memory, render_panel
from toy_memory import ToyMemory


CHECKS = [(lesson11.check_render_memory, render_memory), (lesson11.check_render_panel, render_panel),
          (lesson11.check_render_history, render_history), (lesson11.check_highlight, highlight)]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- exercise 11.1: one memory


def _unescaped(record):
    return f"<li><code>{record.id}</code> <i>{record.category}</i> {record.text}</li>"


def _text_only_escaped(record):  # forgets that the model chooses the category too
    return f"<li><code>{record.id}</code> <i>{record.category}</i> {escape(record.text)}</li>"


def _escaped_twice(record):
    return render_memory(MemoryRecord(record.id, escape(record.text), {"category": escape(record.category)}))


def _tags_stripped(record):  # removes markup instead of showing it: the memory's text is lost
    def strip(text):
        return re.sub(r"<[^>]*>", "", text)
    return f"<li><code>{record.id}</code> <i>{strip(record.category)}</i> {strip(record.text)}</li>"


def _without_category(record):
    return f"<li><code>{escape(record.id)}</code> {escape(record.text)}</li>"


@pytest.mark.parametrize(("wrong", "hint"), [
    (_unescaped, "html.escape"),
    (_text_only_escaped, "<script>"),
    (_escaped_twice, "escaped twice"),
    (_tags_stripped, "exactly as stored"),
    (_without_category, "category"),
])
def test_render_memory_check_rejects_unsafe_or_unfaithful_html(wrong, hint, capsys):
    assert_refused(lesson11.check_render_memory(wrong), capsys, hint)


def test_render_memory_check_rejects_a_non_string(capsys):
    assert lesson11.check_render_memory(lambda record: [record.id, record.text]) is False
    assert "return a str" in capsys.readouterr().out


class Cells(HTMLParser):
    """The text of each <td> (or, outside tables, each text chunk) a browser would show."""

    def __init__(self, markup: str, cells_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.cells_only, self.in_cell, self.values = cells_only, False, []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self.in_cell = True
            self.values.append("")

    def handle_endtag(self, tag):
        if tag == "td":
            self.in_cell = False

    def handle_data(self, data):
        if self.cells_only and self.in_cell:
            self.values[-1] += data
        elif not self.cells_only and data.strip():
            self.values.append(data.strip())


HOSTILE = [
    MemoryRecord("mem_0001", "<img src=x onerror=alert(1)>", {"category": "note"}),
    MemoryRecord("mem_0002", "Ask Bob.", {"category": "<script>alert(2)</script>"}),
    MemoryRecord("mem_0003", "Tom & Jerry's \"Q&A\" uses <b>, not bold.", {"category": "fact"}),
]


@pytest.mark.parametrize("record", HOSTILE, ids=["img-text", "script-category", "ampersands-quotes"])
def test_worked_render_memory_shows_what_the_chat_widgets_panel_shows(record):
    memory = ToyMemory()
    stored = memory.get(memory.store(record.text, dict(record.metadata)))
    chat = ChatWidget(AutonomousAgent(ARIA, ScriptedProvider([]), memory))
    widget_cells = Cells(chat.memory_panel.value, cells_only=True).values
    assert widget_cells == [stored.id, record.category, record.text]
    assert Cells(render_memory(stored), cells_only=False).values == widget_cells


# ---------------------------------------------------------------- exercise 11.2: the panel


def _oldest_first(records, limit=5):
    return f"<ul>{''.join(render_memory(r) for r in records[:limit])}</ul>"


def _reversed_in_place(records, limit=5):
    records.reverse()
    return render_panel(records[::-1], limit)


def _no_limit(records, limit=5):
    return render_panel(records, limit=len(records))


def _limit_ignored(records, limit=5):
    return render_panel(records, 5)


def _no_older_line(records, limit=5):
    if not records:
        return "<p>Nothing stored yet.</p>"
    return f"<ul>{''.join(render_memory(r) for r in records[::-1][:limit])}</ul>"


def _silent_when_empty(records, limit=5):
    return render_panel(records, limit) if records else "<ul></ul>"


def _unescaped_rows(records, limit=5):
    shown = records[::-1][:limit]
    older = f"<p>… and {len(records) - len(shown)} older memories.</p>" if len(records) > len(shown) else ""
    return f"<ul>{''.join(_unescaped(r) for r in shown)}</ul>{older}" if records else "<p>Nothing stored yet.</p>"


@pytest.mark.parametrize(("wrong", "hint"), [
    (_oldest_first, "oldest first"),
    (_reversed_in_place, "in place"),
    (_no_limit, "limit=5"),
    (_limit_ignored, "limit"),
    (_no_older_line, "older memories"),
    (_silent_when_empty, "Nothing stored yet"),
    (_unescaped_rows, "html.escape"),
])
def test_render_panel_check_rejects_panels_that_miss_a_requirement(wrong, hint, capsys):
    assert_refused(lesson11.check_render_panel(wrong), capsys, hint)


def test_worked_render_panel_says_one_older_memory_in_the_singular():
    records = [MemoryRecord(f"mem_{n:04d}", f"Fact {n}.", {"category": "fact"}) for n in (1, 2, 3)]
    assert "… and 1 older memory." in render_panel(records, limit=2)


# ---------------------------------------------------------------- stretch 11: highlighting


def _escape_then_mark(text, words):  # marks inside entities: "&amp;" becomes "&<mark>amp</mark>;"
    marked = escape(text)
    for word in words:
        marked = re.sub(rf"\b{re.escape(word)}\b", lambda m: f"<mark>{m.group(0)}</mark>", marked, flags=re.I)
    return marked


def _mark_then_escape(text, words):  # the <mark> tags themselves get escaped and show as text
    marked = text
    for word in words:
        marked = re.sub(rf"\b{re.escape(word)}\b", lambda m: f"<mark>{m.group(0)}</mark>", marked, flags=re.I)
    return escape(marked)


def _case_sensitive(text, words):
    pieces, start = [], 0
    for match in re.finditer("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words) or r"(?!)", text):
        pieces += [escape(text[start:match.start()]), f"<mark>{escape(match.group(0))}</mark>"]
        start = match.end()
    return "".join(pieces) + escape(text[start:])


def _regex_characters_unescaped(text, words):
    pieces, start = [], 0
    for match in re.finditer("|".join(rf"(?<!\w){w}(?!\w)" for w in words) or r"(?!)", text, flags=re.I):
        pieces += [escape(text[start:match.start()]), f"<mark>{escape(match.group(0))}</mark>"]
        start = match.end()
    return "".join(pieces) + escape(text[start:])


def _substrings_too(text, words):
    pieces, start = [], 0
    for match in re.finditer("|".join(re.escape(w) for w in words) or r"(?!)", text, flags=re.I):
        pieces += [escape(text[start:match.start()]), f"<mark>{escape(match.group(0))}</mark>"]
        start = match.end()
    return "".join(pieces) + escape(text[start:])


@pytest.mark.parametrize("wrong", [_escape_then_mark, _mark_then_escape, _case_sensitive, _regex_characters_unescaped,
                                   _substrings_too])
def test_highlight_check_rejects_marking_that_changes_the_text_or_misses_words(wrong, capsys):
    assert lesson11.check_highlight(wrong) is False
    assert verdict(capsys) == "✗"


# ---------------------------------------------------------------- exercise 11.3: a fact that changed (design)


def _nothing_struck(versions):
    return "<ul>" + "".join(f"<li>{escape(r.text)}</li>" for r in versions) + "</ul>"


def _everything_struck(versions):
    return "<ul>" + "".join(f"<li><s>{escape(r.text)}</s> → {escape(r.superseded_by or '')}</li>" for r in versions) + "</ul>"


def _no_successor(versions):
    return "<ul>" + "".join(f"<li>{'<s>' if r.superseded_by else ''}{escape(r.text)}{'</s>' if r.superseded_by else ''}</li>"
                            for r in versions) + "</ul>"


def _unescaped_history(versions):
    return "<ul>" + "".join(f"<li>{'<del>' if r.superseded_by else ''}{r.text}{'</del> → ' + r.superseded_by if r.superseded_by else ''}</li>"
                            for r in versions) + "</ul>"


@pytest.mark.parametrize("wrong, says", [
    (_nothing_struck, "put a superseded version's text inside"), (_everything_struck, "strikes through the current"),
    (_no_successor, "name the successor"), (_unescaped_history, "Pass every value through html.escape")])
def test_render_history_answers_each_wrong_design_with_its_hint(wrong, says, capsys):
    assert_refused(lesson11.check_render_history(wrong), capsys, says)


def test_render_history_accepts_another_design_with_del_and_a_table(capsys):
    def as_table(versions):
        rows = "".join(f"<tr><td>{escape(r.id)}</td><td>{'<del>' + escape(r.text) + '</del> (now ' + escape(r.superseded_by) + ')' if r.superseded_by else escape(r.text)}</td></tr>"
                       for r in reversed(versions))
        return f"<table>{rows}</table>"
    assert lesson11.check_render_history(as_table) is True
    assert verdict(capsys) == "✓"
