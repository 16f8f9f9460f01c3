"""Worked solutions for lesson 11: a memory rendered as safe HTML, and a small memory panel.

Open this when you are stuck on exercises 11.1 and 9.2. Every value in a memory
came from a person, a model or a web page, so each one goes through
``html.escape`` exactly once before it is put between tags: the browser then
shows ``<img src=x onerror=alert(1)>`` as those characters instead of building
an image whose error handler runs. Only the tags written here are markup.
"""

from __future__ import annotations

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
