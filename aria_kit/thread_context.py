"""Thread context at search time: a conversation turn's keyword score borrows from its neighbours' (lessons 04, 09).

A memory whose metadata has a ``"thread"`` (a conversation id, a str) is one turn of that thread, and
store order is turn order. A reply like "Yes, last Friday!" carries its topic in the turns around it,
so search adds to a turn's own BM25 score a share of what the ``window`` current turns before and after it
score on the query words the turn itself lacks (``with_context``): a word the turn holds is paid for once, by
the turn. The share is ``weight`` for a turn of up to ``length`` tokens
and ``weight · length / tokens`` for a longer one, so a long turn is found by its own words first.
Who the neighbours are is a pure function of the rows and their links (``neighbour_pairs``): a chain of
versions keeps the place of its oldest version reached without leaving the thread, its current version
speaks for it, and a place whose every version is history is skipped. A store, delete or supersede changes one
index entry, and a reopened file ranks as the live instance. The settings were chosen on the dev
splits of chitchat_turns and long_turns (``benchmarks/sweep_thread_window.py``, then what a neighbour lends:
``benchmarks/sweep_thread_borrow.py``). Not here: tokens, BM25,
files; memories without a thread are never touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

THREAD_WINDOW = 1  # current turns on each side whose keyword scores join a turn's (0 turns the context off)
THREAD_WEIGHT = 1.0  # the share of what each neighbour lends that a short turn gets
THREAD_LENGTH = 40  # a turn longer than this many tokens gets a proportionally smaller share
THREAD_BORROW = "missing words"  # a neighbour lends its scores for the query words a turn lacks ("all words": all)


def thread_of(metadata: Mapping[str, Any]) -> str | None:
    """The thread a memory belongs to, or ``None`` when it has none.

    New memories may only hold a str thread (``memory_rules.check_metadata``); a file written before that
    rule may hold 1, 1.0 or True, read here as ``str(thread)``: "1", "1.0" and "True", three conversations.
    """
    thread = metadata.get("thread")
    return thread if thread is None or isinstance(thread, str) else str(thread)


def neighbour_pairs(threads: np.ndarray, keys: np.ndarray, voiced: np.ndarray,
                    window: int) -> tuple[np.ndarray, np.ndarray]:
    """``(targets, sources)``: row ``targets[i]`` takes a share of row ``sources[i]``'s keyword score.

    Per row: ``threads`` its thread as a number (-1: none or deleted), ``keys`` its place in the thread
    (ascending = turn order; a row's versions share the key), ``voiced`` whether it speaks for its place
    (current). A placed row's sources are the voices of the ``window`` nearest voiced places on each side
    of its own. Pairs come nearest-first, before-side first, for every target alike, so the sums that
    ``with_context`` makes are added in one order however the rows are numbered.
    """
    placed = np.flatnonzero(threads >= 0)
    if window < 1 or not len(placed):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # (thread, key) as one sortable number: the key's rank among all keys, offset by thread
    _, key_rank = np.unique(keys[placed], return_inverse=True)
    place = threads[placed].astype(np.int64) * len(placed) + key_rank
    voices = np.flatnonzero(voiced[placed])
    if not len(voices):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = voices[np.argsort(place[voices], kind="stable")]
    voice_place, voice_thread = place[order], threads[placed][order]
    at = np.searchsorted(voice_place, place)  # the first voice at or after each row's place
    own_voice = (at < len(order)) & (voice_place[np.minimum(at, len(order) - 1)] == place)
    first = np.searchsorted(voice_thread, threads[placed], side="left")
    last = np.searchsorted(voice_thread, threads[placed], side="right")
    targets, sources = [], []
    for side in (-1, 1):
        start = at - 1 if side < 0 else at + own_voice
        for step in range(window):
            index = start + side * step
            ok = (index >= first) & (index < last)
            targets.append(placed[ok])
            sources.append(placed[order[index[ok]]])
    return np.concatenate(targets), np.concatenate(sources)


def lent_term_scores(index: Any, query_tokens: Sequence[str]) -> np.ndarray | None:
    """What ``with_context`` needs from a turn's neighbours under ``THREAD_BORROW``: each query word's scores
    (``index.term_scores``, a ``BM25Index``'s) for "missing words", or None for "all words"."""
    return index.term_scores(query_tokens) if THREAD_BORROW == "missing words" else None

def shares(lengths: np.ndarray, weight: float, length: float) -> np.ndarray:
    """Each turn's share of a neighbour's keyword score: ``weight``, scaled down by ``length / tokens`` past it."""
    return weight * np.minimum(1.0, length / np.maximum(lengths, 1))


def with_context(scores: np.ndarray, targets: np.ndarray, sources: np.ndarray, share: np.ndarray,
                 term_scores: np.ndarray | None = None) -> np.ndarray:
    """``scores`` (one per row) with each target's ``share`` of what its sources lend it added; other rows unchanged.

    Without ``term_scores`` a source lends its whole score. With them (one row per distinct query word, each
    that word's score of every row: ``BM25Index.term_scores``) a source lends only its scores for the query words
    its target lacks, so a turn that holds a word is not paid for it again by its neighbours: the default.
    """
    if not len(targets):
        return scores
    if term_scores is None:
        lent = scores[sources]
    else:
        lent = np.where(term_scores[:, targets] > 0, 0.0, term_scores[:, sources]).sum(axis=0)
    borrowed = np.bincount(targets, weights=lent, minlength=len(scores))
    rows = np.unique(targets)
    out = scores.copy()
    out[rows] += share[rows] * borrowed[rows]
    return out
