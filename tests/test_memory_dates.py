"""Dates on memories: the pinnable clock (clock.py) and each recalled memory's day in the live context (persona.py)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from aria_kit.clock import LESSON_DAY, TODAY_VARIABLE, dated, today
from aria_kit.interfaces import Hit
from aria_kit.memory_rules import read_quoted_entries
from aria_kit.persona import ARIA, DATE_NOTE, MEMORY_QUOTING_NOTE

ROOT = Path(__file__).resolve().parent.parent


def test_the_test_session_is_pinned_to_the_lesson_day():
    assert today() == LESSON_DAY  # the root conftest.py pins it, so every dated memory in a test is reproducible


def test_a_pinned_day_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv(TODAY_VARIABLE, "2031-12-24")
    assert today() == "2031-12-24"
    assert dated({"category": "fact", "date": "1999-01-01"}) == {"category": "fact", "date": "2031-12-24"}
    assert dated() == {"date": "2031-12-24"}


def test_without_a_pin_today_is_the_real_date_in_utc(monkeypatch):
    monkeypatch.delenv(TODAY_VARIABLE)
    before = datetime.now(timezone.utc).date().isoformat()
    assert today() in {before, datetime.now(timezone.utc).date().isoformat()}  # a run across midnight sees either


@pytest.mark.parametrize("pin", ["yesterday", "2026-02-30", "02/03/2026"])
def test_a_pin_that_is_not_a_day_is_refused_with_what_to_do(monkeypatch, pin):
    monkeypatch.setenv(TODAY_VARIABLE, pin)
    with pytest.raises(ValueError, match=f"{TODAY_VARIABLE}=.*unset it"):
        today()


def test_notebook_runs_pin_the_same_day_as_the_test_session():
    source = (ROOT / "scripts" / "execute_notebooks.py").read_text(encoding="utf-8")
    assert "os.environ[TODAY_VARIABLE] = LESSON_DAY" in source
    assert "os.environ[TODAY_VARIABLE] = LESSON_DAY" in (ROOT / "conftest.py").read_text(encoding="utf-8")


def hit(memory_id: str, text: str, **metadata) -> Hit:
    return Hit(memory_id, text, {"category": "fact", **metadata}, 0.5, 0.5, 1.0)


def test_each_recalled_memory_carries_the_day_it_was_stored_when_it_is_known():
    hits = [hit("mem_0009", "Alice's language is Go.", date="2026-03-02"),
            hit("mem_0004", "Alice's language is Rust.", date="2026-01-15"),
            hit("mem_0007", "Said in a chat.", at="2026-02-10T08:00:00+00:00"),
            hit("mem_0001", "No date known.")]
    message = ARIA.live_context(hits)
    assert [entry.get("date") for entry in read_quoted_entries(message)] == [
        "2026-03-02", "2026-01-15", "2026-02-10", None]
    assert message.splitlines()[2] == ('{"id": "mem_0009", "category": "fact", "date": "2026-03-02", '
                                       '"text": "Alice\'s language is Go."}')
    assert message.splitlines()[1] == MEMORY_QUOTING_NOTE + " " + DATE_NOTE  # the model is told what a date means


def test_memories_without_dates_are_listed_exactly_as_before():
    message = ARIA.live_context([hit("mem_0001", "No date known.", date="someday")])
    assert message.splitlines()[1:] == [MEMORY_QUOTING_NOTE,
                                        '{"id": "mem_0001", "category": "fact", "text": "No date known."}']
    assert json.loads(message.splitlines()[2]) == {"id": "mem_0001", "category": "fact", "text": "No date known."}
