"""Live and reopened memories rank thread turns identically after every step (issue 28).

Hypothesis runs random store / supersede / delete / search / reopen steps over three threads and
memories without one (a correction may stay in its thread, move to another or leave threads), on
TWO ``HybridMemory`` instances sharing one SQLite file, each step on either. After every step both
instances and a third opened afresh on the file must return the very same hits, scores included, for
every query, with and without history: thread context is a function of the rows and links alone, so
how a copy came to hold them (by its own writes, by picking up the other's, or by loading) cannot
matter. Index-time context failed this in 5 of 6 random sequences of 150 steps (issue 28).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule
from test_memory_stateful import WORDS, HashEmbedder

from aria_kit.hybrid_memory import HybridMemory

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
threads = st.sampled_from([None, "a", "b", "c"])
QUERIES = ["tea rust", "deadline friday", "alice", "raft paxos go"]


def metadata(thread: str | None) -> dict:
    return {} if thread is None else {"thread": thread}


def hits(memory: HybridMemory) -> list:
    return [[(h.id, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank) for h in
             memory.search(query, top_k=8, include_history=history)]
            for query in QUERIES for history in (False, True)]


class ThreadRankings(RuleBasedStateMachine):
    ids = Bundle("ids")

    def __init__(self) -> None:
        super().__init__()
        self.path = Path(tempfile.mkdtemp(prefix="aria-threads-")) / "memory.sqlite3"
        self.views = [self.open(), self.open()]
        self.count = 0

    def open(self) -> HybridMemory:
        return HybridMemory(HashEmbedder(), path=self.path, thread_window=2, thread_weight=0.5)

    def teardown(self) -> None:
        for view in self.views:
            view.close()

    @rule(target=ids, view=st.integers(0, 1), batch=st.lists(st.tuples(texts, threads), min_size=1, max_size=4))
    def store(self, view: int, batch: list) -> str:
        stored = self.views[view].store_many([t for t, _ in batch], [metadata(th) for _, th in batch])
        self.count += len(stored)
        return stored[-1]

    @rule(target=ids, view=st.integers(0, 1), memory_id=ids, text=texts, move=st.one_of(st.none(), threads))
    def supersede(self, view: int, memory_id: str, text: str, move) -> str:
        memory = self.views[view]
        record = memory.get(memory_id)
        if record is None or record.superseded_by is not None:
            with pytest.raises(ValueError):
                memory.supersede(memory_id, text)
            return memory_id
        # move None keeps the old metadata (its thread); else the correction goes to that thread or none
        return memory.supersede(memory_id, text, None if move is None else metadata(move), at="2026-12-01")

    @rule(view=st.integers(0, 1), memory_id=ids)
    def delete(self, view: int, memory_id: str) -> None:
        self.views[view].delete(memory_id)

    @rule(view=st.integers(0, 1))
    def reopen(self, view: int) -> None:
        self.views[view].close()
        self.views[view] = self.open()

    @invariant()
    def live_and_reopened_rank_alike(self) -> None:
        with self.open() as fresh:
            expected = hits(fresh)
        for view in self.views:
            assert hits(view) == expected


SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), stateful_step_count=30)
TestLiveAndReopenedThreadRankings = ThreadRankings.TestCase
TestLiveAndReopenedThreadRankings.settings = settings(max_examples=30, **SETTINGS)
