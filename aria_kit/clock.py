"""What day it is, for the dates the kit writes on memories (lesson 07's recalled memories show them).

``today()`` is the ISO day (``"2026-03-02"``) a memory stored now is dated with: the real date in
UTC, or ``ARIA_KIT_TODAY`` when that is set, so a test or a notebook run can pin it and print the
same dates on every run. The test session and ``scripts/execute_notebooks.py`` pin it to
``LESSON_DAY``. ``dated(metadata)`` is that metadata with ``"date"`` set to today: what a tool
passes when it stores a fact.

It deliberately does not read the time of day, and it is not used for ``superseded_at`` or the
conversation log's ``at`` (those keep the real time to the second).
"""

from __future__ import annotations

import os
from datetime import date, datetime, timezone
from typing import Any

TODAY_VARIABLE = "ARIA_KIT_TODAY"
LESSON_DAY = "2026-03-02"  # the day tests and committed notebook outputs pretend it is (a Monday)


def today() -> str:
    """Today as an ISO day: ``ARIA_KIT_TODAY`` if set, else the real date in UTC. ``ValueError`` for a bad pin."""
    pinned = os.environ.get(TODAY_VARIABLE)
    if pinned is None or not pinned.strip():
        return datetime.now(timezone.utc).date().isoformat()
    try:
        return date.fromisoformat(pinned.strip()).isoformat()
    except ValueError:
        raise ValueError(f"{TODAY_VARIABLE}={pinned!r} is not a day such as {LESSON_DAY!r}; "
                         f"fix it, or unset it to date memories with today's date") from None


def dated(metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """A copy of ``metadata`` with ``"date"`` set to ``today()`` (a stored fact's day; any older date is replaced)."""
    return {**(metadata or {}), "date": today()}
