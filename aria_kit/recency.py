"""What changed: when two recalled memories say different things about one subject, the newer first (lesson 10).

``newer_first(query, candidates, top_k)`` reorders a search's best ``WINDOW`` hits and returns
the first ``top_k``. Two hits *conflict* when they are about the same thing (``conflict``: they
share a rare word, neither repeats the other, and the newer one is worded as a change, "now",
"instead", "went up"); then the newer (later ``memory_date``, else the higher memory number) is
moved just above the older, unless the query asks about the past ("before", "used to",
"originally", ``asks_about_past``): then the older goes first. The other memory of a pair moves
down one place, so it stays in the results; hits that conflict with nothing keep their order. The
window is fixed, so ``newer_first(q, s, 3)`` is the first three of ``newer_first(q, s, 10)``.

``memory_date(metadata)`` is the day a memory was stored, read from its metadata (``"date"``, an
ISO day written by ``clock.dated``, or the conversation log's ``"at"``). Not here: deciding which
value is true, merging memories, or writing anything (``write_conflicts.py`` checks on write).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.interfaces import Hit
from aria_kit.memory_rules import seq_of

WINDOW = 20  # hits reordered: at least twice the memory_search tool's largest top_k (10)
RARE = 2  # a word shared by two hits marks one subject when at most this many hits of the window hold it
PAST = re.compile(r"\b(before|used to|originally|original|previous(ly)?|at first|first (said|came|saw|started|was)|"
                  r"at the (start|beginning)|when (i|we|you|he|she|they) (first|started)|initially|formerly|"
                  r"back then|in the beginning|earlier)\b", re.IGNORECASE)
CHANGE = re.compile(r"\b(now|no longer|any ?more|instead|changed|switched|moved|went (up|down)|gone (up|down)|"
                    r"has (risen|fallen|dropped|grown)|updated|latest|from now on|these days|stepped|revised|"
                    r"not \w+ any ?more|actually)\b", re.IGNORECASE)


def asks_about_past(query: str) -> bool:
    """Whether ``query`` asks what something was, not what it is ("What was the quote before the damp?")."""
    return PAST.search(query) is not None


def memory_date(metadata: Mapping[str, Any]) -> str | None:
    """The ISO day a memory was stored: its ``"date"``, else the day of its ``"at"`` (conversation log); or ``None``."""
    for key, parse in (("date", date.fromisoformat), ("at", datetime.fromisoformat)):
        value = metadata.get(key)
        if isinstance(value, str):
            try:
                return parse(value).isoformat()[:10]
            except ValueError:
                continue  # a hand-written "date": "last week" is no date, and no reason to fail a search
    return None


def _newer(a: Hit, b: Hit) -> bool | None:
    """Whether ``a`` was said after ``b``: by date when both have one and they differ, else by memory number."""
    day_a, day_b = memory_date(a.metadata), memory_date(b.metadata)
    if day_a and day_b and day_a != day_b:
        return day_a > day_b
    seq_a, seq_b = seq_of(a.id), seq_of(b.id)
    return None if seq_a is None or seq_b is None or seq_a == seq_b else seq_a > seq_b


def conflict(older: Hit, newer: Hit, words: Mapping[str, set[str]], counts: Counter) -> bool:
    """Whether ``newer`` may state a new value of what ``older`` says: one subject, two wordings, a change."""
    if newer.supersedes == older.id or older.superseded_by == newer.id:
        return True  # linked by supersede (history hits): known to be two versions of one fact
    shared = words[older.id] & words[newer.id]
    if not any(counts[word] <= RARE for word in shared):
        return False
    if words[older.id] <= words[newer.id] or words[newer.id] <= words[older.id]:
        return False  # one repeats the other (a quote, a duplicate): nothing changed
    return CHANGE.search(newer.text) is not None


def reorder(query: str, hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` (best first) with each conflicting pair's newer hit just above the older (the older, for the past)."""
    words = {hit.id: set(tokenize(hit.text, STOPWORDS, stem=True)) for hit in hits}
    counts = Counter(word for hit in hits for word in words[hit.id])
    past, order, moved = asks_about_past(query), list(hits), set()
    place = 0
    while place < len(order):
        upper = order[place]
        for lower in order[place + 1:]:
            newer = _newer(lower, upper)
            if lower.id in moved or newer is None or newer == past:
                continue
            pair = (upper, lower) if newer else (lower, upper)  # (older, newer)
            if conflict(*pair, words, counts):
                order.remove(lower)
                order.insert(place, lower)  # above `upper`, which moves down one place and stays in the results
                moved.add(lower.id)
                break
        else:
            place += 1
    return order


def newer_first(query: str, candidates: Sequence[Hit] | Callable[[int], Sequence[Hit]], top_k: int) -> list[Hit]:
    """The ``top_k`` best hits after ``reorder`` of the first ``WINDOW``.

    ``candidates`` is a list of hits, best first (at least ``max(top_k, WINDOW)`` of them, or all there are), or a
    function that returns that many for a given count, such as ``lambda k: memory.search(query, k)``.
    """
    hits = list(candidates(max(top_k, WINDOW)) if callable(candidates) else candidates)
    return (reorder(query, hits[:WINDOW]) + hits[WINDOW:])[:top_k]
