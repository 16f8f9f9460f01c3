"""What changed: when two recalled memories give one thing two values, the newer first (lesson 10).

``newer_first(query, candidates, top_k, embedder)`` reorders a search's best ``WINDOW`` hits and
returns the first ``top_k``. Two hits *conflict* (``conflicts``) when they are versions of one fact:
linked by ``supersede``; or the same statement with another value (most words shared, at most
``VALUE_WORDS`` differ, none of them a word of the query); or, for long memories, their *key
sentences* (each hit's sentence nearest the query) say similar things, the hits score alike and the
newer key sentence is worded as a change ("now", "instead", "went up"). The newer (later
``memory_date``, else the higher memory number) then moves just above the older, unless the
query asks about the past ("before", "used to", "originally": ``asks_about_past``), when the
older goes above the newer. The other hit moves down one place, so it stays found; hits that
conflict with nothing keep their order. The window is fixed, so a smaller ``top_k`` is a prefix.

``memory_date(metadata)`` is the day a memory was stored (``"date"``, written by ``clock.dated``,
or the conversation log's ``"at"``). Not here: deciding which value is true, or writing anything.
The thresholds were chosen on the dev splits (``benchmarks/bench_newer_first.py``).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import numpy as np

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.embeddings import normalize
from aria_kit.interfaces import Embedder, Hit
from aria_kit.memory_rules import seq_of

WINDOW = 20  # hits reordered: twice the memory_search tool's largest top_k
SAME_WORDS, VALUE_WORDS = 0.5, 2  # "…'s language is Rust." / "…'s language is Go.": shared ≥ half, ≤ 2 differ
KEY_COSINE = 0.4  # key sentences this alike (centred on the window's sentences) say one thing
CLOSE = 0.8  # and the lower fused score is at least this share of the higher
COPY = 0.95  # key sentences more alike than this repeat each other: nothing changed
PAST = re.compile(r"\b(before|used to|did \w+ use to|originally|original|previous(ly)?|at first|"
                  r"first (said|came|saw|started|was)|at the (start|beginning)|when (i|we|you|he|she|they) "
                  r"(first|started)|initially|formerly|back then|in the beginning|earlier)\b", re.IGNORECASE)
CHANGE = re.compile(r"\b(now|no longer|any ?more|instead|changed|switched|moved|went (up|down)|gone (up|down)|"
                    r"has (risen|fallen|dropped|grown)|updated|latest|from now on|these days|stepped|revised|"
                    r"actually)\b", re.IGNORECASE)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
CACHED = 50_000  # sentence vectors kept per embedder (a memory's turns are searched again and again)
_VECTORS: weakref.WeakKeyDictionary[Embedder, dict[str, np.ndarray]] = weakref.WeakKeyDictionary()


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


def newer(a: Hit, b: Hit) -> bool | None:
    """Whether ``a`` was said after ``b``: by date when both have one and they differ, else by memory number."""
    day_a, day_b = memory_date(a.metadata), memory_date(b.metadata)
    if day_a and day_b and day_a != day_b:
        return day_a > day_b
    seq_a, seq_b = seq_of(a.id), seq_of(b.id)
    return None if seq_a is None or seq_b is None or seq_a == seq_b else seq_a > seq_b


class KeySentences:
    """Each hit's sentence nearest the query, as text and as a vector centred on all the hits' sentences."""

    def __init__(self, query: str, hits: Sequence[Hit], embedder: Embedder) -> None:
        split = [SENTENCE_END.split(hit.text.strip()) or [hit.text] for hit in hits]
        vectors = normalize(_embedded(embedder, [query] + [s for part in split for s in part]))
        # Static embeddings share one large direction; without it, "about Kenji" stops looking like "one fact".
        vectors = normalize(vectors - vectors[1:].mean(axis=0))
        self.text, self.vector, start = {}, {}, 1
        for hit, part in zip(hits, split):
            block = vectors[start:start + len(part)]
            best = int(np.argmax(block @ vectors[0]))
            self.text[hit.id], self.vector[hit.id] = part[best], block[best]
            start += len(part)


def _embedded(embedder: Embedder, sentences: list[str]) -> np.ndarray:
    """The embedder's vectors for ``sentences``, each embedded once (the query, first, always: it is new)."""
    try:
        known = _VECTORS.setdefault(embedder, {})
    except TypeError:  # an embedder that cannot be a dictionary key (it defines __eq__ only): no cache
        known = {}
    if len(known) > CACHED:
        known.clear()
    missing = list(dict.fromkeys(s for s in sentences[1:] if s not in known))
    fresh = np.asarray(embedder.embed([sentences[0], *missing]), dtype=np.float32)
    known.update(zip(missing, fresh[1:]))
    return np.stack([fresh[0], *(known[s] for s in sentences[1:])])


def conflicts(older: Hit, later: Hit, query_words: set[str], keys: KeySentences | None,
              words: Mapping[str, set[str]]) -> bool:
    """Whether ``later`` may give a new value of what ``older`` says (see the module docstring for the three ways)."""
    if later.supersedes == older.id or older.superseded_by == later.id:
        return True
    old_words, new_words = words[older.id], words[later.id]
    if old_words <= new_words or new_words <= old_words:
        return False  # one repeats the other (a quote, a duplicate): nothing changed
    differ = old_words ^ new_words
    if (len(old_words & new_words) >= SAME_WORDS * len(old_words | new_words) and len(differ) <= VALUE_WORDS
            and not differ & query_words):
        return True  # the same statement with another value
    if keys is None:
        return False  # no embedder: no key sentences to compare
    alike = float(keys.vector[older.id] @ keys.vector[later.id])
    scores = sorted((older.score, later.score))
    return (KEY_COSINE <= alike < COPY and scores[0] >= CLOSE * scores[1]
            and CHANGE.search(keys.text[later.id]) is not None)


def reorder(query: str, hits: Sequence[Hit], embedder: Embedder | None) -> list[Hit]:
    """``hits`` (best first) with each conflicting pair's newer hit just above the older (the older, for the past).

    Without an ``embedder`` only linked versions and same statements with another value count as conflicts.
    """
    if len(hits) < 2:
        return list(hits)
    keys = KeySentences(query, hits, embedder) if embedder is not None else None
    words = {hit.id: set(tokenize(hit.text, STOPWORDS, stem=True)) for hit in hits}
    query_words = set(tokenize(query, STOPWORDS, stem=True))
    past, order, moved, place = asks_about_past(query), list(hits), set(), 0
    while place < len(order):
        upper = order[place]
        for lower in order[place + 1:]:
            later = newer(lower, upper)
            if lower.id in moved or later is None or later == past:
                continue  # only a hit that should go first moves, and each hit moves once
            if conflicts(*((upper, lower) if later else (lower, upper)), query_words, keys, words):
                order.remove(lower)
                order.insert(place, lower)  # above `upper`, which moves down one place and stays in the results
                moved.add(lower.id)
                break
        else:
            place += 1
    return order


def newer_first(query: str, candidates: Sequence[Hit] | Callable[[int], Sequence[Hit]], top_k: int,
                embedder: Embedder | None = None) -> list[Hit]:
    """The ``top_k`` best hits after ``reorder`` of the first ``WINDOW``.

    ``candidates`` is a list of hits, best first (at least ``max(top_k, WINDOW)`` of them, or all there are), or a
    function that returns that many for a given count, such as ``lambda k: memory.search(query, k)``.
    ``embedder`` (the memory's own) finds each hit's key sentence; without one, long turns are never paired.
    """
    hits = list(candidates(max(top_k, WINDOW)) if callable(candidates) else candidates)
    return (reorder(query, hits[:WINDOW], embedder) + hits[WINDOW:])[:top_k]
