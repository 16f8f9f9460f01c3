"""A stateful property test of the memory backends against a plain dict model (issue 24).

Hypothesis runs random store / delete / supersede / search / history / reopen
steps on TWO ``HybridMemory`` instances sharing one SQLite file (each step on
either one), and on one ``QdrantMemory`` in an Edge folder (a second opener of
an Edge folder is refused, so reopen is its "other process"); after every step
both views must hold exactly the model's memories, texts and links. The model
is a dict ``id -> [text, superseded_by, supersedes]``; it splices a deleted
older version out of its chain as the contract says, refuses deleting the current version of a fact
with history (that would revive an older one), and forgets a whole chain. A default run fits the suite's
budget; the seeded longer run (``derandomize=True``) repeats the same steps on
every machine.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder

WORDS = ["tea", "coffee", "rust", "go", "raft", "paxos", "deadline", "friday", "alice", "bob"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


class HashEmbedder(Embedder):
    """A quick deterministic embedder (the machine tests bookkeeping, not ranking quality)."""

    name, dim = "stateful-hash-8", 8

    def embed(self, batch: Any) -> np.ndarray:
        rows = [[1.0 + (sum(map(ord, t)) * (i + 1)) % 7 for i in range(8)] for t in batch]
        return np.asarray(rows, dtype=np.float32)


class MemoryMachine(RuleBasedStateMachine):
    """Steps on ``views`` (open backends sharing one store), checked against ``self.model`` after each."""

    ids = Bundle("ids")
    views_count = 2

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="aria-stateful-"))
        self.views = [self.open() for _ in range(self.views_count)]
        self.model: dict[str, list[str | None]] = {}  # id -> [text, superseded_by, supersedes]
        self.handed_out = 0  # the highest number ever returned: ids are never reused

    def open(self) -> Any:
        return HybridMemory(HashEmbedder(), path=self.folder / "memory.sqlite3")

    def teardown(self) -> None:
        for view in self.views:
            view.close()

    def _new_id(self, memory_id: str) -> None:
        number = int(memory_id[4:])
        assert number > self.handed_out, f"{memory_id} handed out again (last was {self.handed_out})"
        self.handed_out = number

    @rule(target=ids, view=st.integers(0, 1), text=texts)
    def store(self, view: int, text: str) -> str:
        memory_id = self.views[view % len(self.views)].store(text)
        self._new_id(memory_id)
        self.model[memory_id] = [text, None, None]
        return memory_id

    @rule(view=st.integers(0, 1), memory_id=ids)
    def delete(self, view: int, memory_id: str) -> None:
        memory = self.views[view % len(self.views)]
        if memory_id in self.model and self.model[memory_id][1] is None and self.model[memory_id][2] is not None:
            with pytest.raises(ValueError, match="forget"):  # the current version of a fact with history
                memory.delete(memory_id)
            return
        existed = memory.delete(memory_id)
        assert existed == (memory_id in self.model)
        if existed:
            _, successor, predecessor = self.model.pop(memory_id)
            if predecessor in self.model:
                self.model[predecessor][1] = successor
            if successor in self.model:
                self.model[successor][2] = predecessor

    @rule(view=st.integers(0, 1), memory_id=ids)
    def forget(self, view: int, memory_id: str) -> None:
        chain, pending = set(), [memory_id] if memory_id in self.model else []
        while pending:
            found = pending.pop()
            if found not in chain:
                chain.add(found)
                pending += [link for link in self.model[found][1:] if link is not None]
        assert self.views[view % len(self.views)].forget(memory_id) == sorted(chain, key=lambda i: int(i[4:]))
        for gone in chain:
            del self.model[gone]

    @rule(target=ids, view=st.integers(0, 1), memory_id=ids, text=texts)
    def supersede(self, view: int, memory_id: str, text: str) -> str:
        memory = self.views[view % len(self.views)]
        if memory_id not in self.model or self.model[memory_id][1] is not None:
            with pytest.raises(ValueError):
                memory.supersede(memory_id, text)
            return memory_id
        new_id = memory.supersede(memory_id, text, at="2026-12-01T00:00:00+00:00")
        self._new_id(new_id)
        self.model[memory_id][1] = new_id
        self.model[new_id] = [text, None, memory_id]
        return new_id

    @rule(view=st.integers(0, 1), query=texts, top_k=st.integers(1, 5), history=st.booleans())
    def search(self, view: int, query: str, top_k: int, history: bool) -> None:
        hits = self.views[view % len(self.views)].search(query, top_k=top_k, include_history=history)
        allowed = {i for i, (_, by, _) in self.model.items() if history or by is None}
        assert {h.id for h in hits} <= allowed and len(hits) == min(top_k, len(allowed))
        assert all(h.text == self.model[h.id][0] for h in hits)

    @rule(view=st.integers(0, 1), memory_id=ids)
    def history(self, view: int, memory_id: str) -> None:
        versions = [r.id for r in self.views[view % len(self.views)].history(memory_id)]
        if memory_id not in self.model:
            assert versions == []
            return
        first = memory_id
        while self.model[first][2] is not None:
            first = self.model[first][2]
        expected = [first]
        while self.model[expected[-1]][1] is not None:
            expected.append(self.model[expected[-1]][1])
        assert versions == expected

    @rule(view=st.integers(0, 1))
    def reopen(self, view: int) -> None:
        self.views[view % len(self.views)].close()
        self.views[view % len(self.views)] = self.open()

    @invariant()
    def every_view_holds_exactly_the_model(self) -> None:
        expected = [(i, text, by, of) for i, (text, by, of) in sorted(self.model.items(), key=lambda kv: int(kv[0][4:]))]
        for memory in self.views:
            found = [(r.id, r.text, r.superseded_by, r.supersedes) for r in memory.list_all()]
            assert found == expected
            assert len(memory) == len(expected)


SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), stateful_step_count=25)
TestTwoHybridMemoriesOnOneFile = MemoryMachine.TestCase
TestTwoHybridMemoriesOnOneFile.settings = settings(max_examples=40, **SETTINGS)


class SeededMemoryMachine(MemoryMachine):
    pass


TestTwoHybridMemoriesOnOneFileSeededLongerRun = SeededMemoryMachine.TestCase
TestTwoHybridMemoriesOnOneFileSeededLongerRun.settings = settings(max_examples=200, derandomize=True,
                                                                  **{**SETTINGS, "stateful_step_count": 40})


class QdrantMachine(MemoryMachine):
    """The same steps on QdrantMemory in an Edge folder: one view (a second opener is refused), reopened."""

    views_count = 1

    def open(self) -> Any:
        qdrant = pytest.importorskip("aria_kit.qdrant_memory")
        return qdrant.QdrantMemory(HashEmbedder(), path=self.folder / "qdrant")


TestQdrantMemoryOnEdge = QdrantMachine.TestCase
TestQdrantMemoryOnEdge.settings = settings(max_examples=10, **SETTINGS)


class SeededQdrantMachine(QdrantMachine):
    pass


TestQdrantMemoryOnEdgeSeededLongerRun = SeededQdrantMachine.TestCase
TestQdrantMemoryOnEdgeSeededLongerRun.settings = settings(max_examples=30, derandomize=True,
                                                          **{**SETTINGS, "stateful_step_count": 40})
