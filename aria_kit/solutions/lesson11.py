"""Worked solutions for lesson 11: a memory rendered as safe HTML, and a small memory panel.

Open this when you are stuck on exercises 11.1, 11.2, 11.3 or the stretch. Every value in a memory
came from a person, a model or a web page, so each one goes through
``html.escape`` exactly once before it is put between tags: the browser then
shows ``<img src=x onerror=alert(1)>`` as those characters instead of building
an image whose error handler runs. Only the tags written here are markup.
``render_history`` (11.3) lists a fact's versions oldest first, each superseded one
struck through and pointing at its successor, as the chat's panel does; ``render_history_table``,
a second design, puts the current version on top of a table and links each older one to its successor.
``highlight`` (the stretch) marks query words without ever marking inside an entity.
"""

from __future__ import annotations

import re
from html import escape

from aria_kit.interfaces import MemoryRecord


def render_memory(record: MemoryRecord) -> str:
    return f"<li><code>{escape(record.id)}</code> <i>{escape(record.category)}</i> {escape(record.text)}</li>"


def render_panel(records: list[MemoryRecord], limit: int = 5) -> str:
    if not records:
        return "<p><i>Nothing stored yet.</i></p>"
    shown = list(records)[::-1][:limit]  # newest first; slicing copies, so the caller's list is untouched
    older = len(records) - len(shown)
    note = f"<p>… and {older} older memor{'y' if older == 1 else 'ies'}.</p>" if older else ""
    return f"<ul>{''.join(render_memory(record) for record in shown)}</ul>{note}"


def render_history(versions: list[MemoryRecord]) -> str:
    rows = []
    for record in versions:
        text = escape(record.text)
        if record.superseded_by is not None:
            text = f"<s>{text}</s> <small>replaced by <code>{escape(record.superseded_by)}</code></small>"
        rows.append(f"<li><code>{escape(record.id)}</code> {text}</li>")
    return f"<ul>{''.join(rows)}</ul>"


def render_history_table(versions: list[MemoryRecord]) -> str:
    # A second design: newest first, as a table with a status column; each replaced version is deleted text
    # (<del>) whose status links to the row of the version that replaced it.
    rows = []
    for record in reversed(versions):
        text, anchor = escape(record.text), escape(record.id)
        if record.superseded_by is None:
            status = "<b>current</b>"
        else:
            text, successor = f"<del>{text}</del>", escape(record.superseded_by)
            status = f"replaced by <a href='#version-{successor}'>{successor}</a>"
        rows.append(f"<tr><td><a id='version-{anchor}'></a><code>{anchor}</code></td><td>{text}</td><td>{status}</td></tr>")
    return f"<table><tr><th>id</th><th>text</th><th>status</th></tr>{''.join(rows)}</table>"


# Each design is the argument of one call of check_render_history (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"11.3": [(render_history,), (render_history_table,)]}


def highlight(text: str, words: list[str]) -> str:
    if not words:
        return escape(text)
    # Find matches in the *original* text, then escape each piece on its own: marking after escaping could
    # land inside an entity (the "amp" of "&amp;") and change what the browser shows.
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?!\w)",
                         flags=re.I)
    pieces, start = [], 0
    for match in pattern.finditer(text):
        pieces += [escape(text[start:match.start()]), f"<mark>{escape(match.group(0))}</mark>"]
        start = match.end()
    return "".join(pieces) + escape(text[start:])
