"""Two processes storing the same fact at the same moment store it once (issue 29, item 6).

``store_if_absent`` looks for a current memory with exactly this text inside the write transaction
(``BEGIN IMMEDIATE``: one writer at a time), so the second writer finds the first one's row instead
of adding its own. Two forked writers race on the same 40 facts, released together by a barrier
before each one.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder

FACTS = [f"The build server for team {i} is called Heron-{i}." for i in range(40)]


class CountingEmbedder(Embedder):
    name, dim = "two-writers-4", 4

    def embed(self, batch: Any) -> np.ndarray:
        return np.asarray([[1.0, len(text) % 7, text.count("1"), 2.0] for text in batch], dtype=np.float32)


def _writer(path: str, through_tool: bool, facts: list[str], together: Any, results: Any) -> None:
    """Store ``facts`` one by one, released with the other writer before each: straight through
    ``store_if_absent``, or as the agent does, through the ``memory_store`` tool (check, then write)."""
    from aria_kit.tools import MemoryStoreTool

    try:
        memory = HybridMemory(CountingEmbedder(), path=path)
        store = (MemoryStoreTool(memory).run if through_tool
                 else lambda fact, category: memory.store_if_absent(fact, {"category": category}))
        outcomes = []
        for fact in facts:
            together.wait(timeout=30)
            outcomes.append(store(fact, "fact"))
        memory.close()
        results.put(outcomes)
    except Exception as exc:  # reported to the parent, which says what failed
        results.put(f"{type(exc).__name__}: {exc}")


def _race(path: Path, through_tool: bool, facts: list[str]) -> tuple[Any, Any]:
    """Two forked writers storing the same ``facts`` at the same moments; what each reported."""
    HybridMemory(CountingEmbedder(), path=path).close()  # the file exists before the race
    context = multiprocessing.get_context("fork")
    together, results = context.Barrier(2), context.Queue()
    writers = [context.Process(target=_writer, args=(str(path), through_tool, facts, together, results))
               for _ in range(2)]
    for writer in writers:
        writer.start()
    first, second = (results.get(timeout=120) for _ in writers)
    for writer in writers:
        writer.join(timeout=60)
    return first, second


def test_two_processes_racing_to_store_the_same_fact_store_it_once(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    first, second = _race(path, through_tool=False, facts=FACTS)
    assert isinstance(first, list) and isinstance(second, list), (first, second)
    with sqlite3.connect(path) as raw:
        counts = dict(raw.execute("SELECT text, count(*) FROM memories GROUP BY text"))
    assert counts == {fact: 1 for fact in FACTS}
    assert [a[0] for a in first] == [b[0] for b in second]  # both were given the one id
    assert all(a[1] != b[1] for a, b in zip(first, second))  # exactly one of the two stored it
    with HybridMemory(CountingEmbedder(), path=path) as memory:
        assert memory.store_if_absent(FACTS[0]) == (first[0][0], False)
        new_id, stored = memory.store_if_absent("A fact nobody stored yet.")
        assert stored and memory.store_if_absent("A fact nobody stored yet.") == (new_id, False)


def test_two_processes_calling_memory_store_with_the_same_fact_store_it_once(tmp_path: Path) -> None:
    # The tool checks for a repeat, then writes; a fact the other process stores between the two is caught
    # by the write's own transaction (store_if_absent), not stored a second time.
    path = tmp_path / "memory.sqlite3"
    first, second = _race(path, through_tool=True, facts=FACTS[:20])
    assert isinstance(first, list) and isinstance(second, list), (first, second)
    with sqlite3.connect(path) as raw:
        counts = dict(raw.execute("SELECT text, count(*) FROM memories GROUP BY text"))
    assert counts == {fact: 1 for fact in FACTS[:20]}
    for a, b in zip(first, second):
        assert sorted([a.startswith("Stored as"), b.startswith("Stored as")]) == [False, True], (a, b)
