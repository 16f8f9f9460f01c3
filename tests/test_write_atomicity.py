"""Writes are all or nothing, whatever cuts them short (issue 29, item 1).

A fault (``KeyboardInterrupt``, or a ``BaseException`` of our own) is raised at a random line of aria_kit
code during random stores, supersedes, deletes, forgets and ``store_if_absent`` calls, through
``sys.settrace``. After each, the memory must hold exactly the state before the call or the state after it
(a dict model says which are allowed), and a file-backed one must equal the same file opened afresh: the
same memories and the same search results. ``write_guard.py`` is left out of the injection: its few lines
run with the signals it guards held, so only a fault that no signal can cause could cut them. Then the
real thing: the agent's SIGALRM tool timer with a timeout of a millisecond or two over 3,000 thread
memories, as the red team ran it; and a store tool whose timer ran out mid-write, which must have stored
whole and must tell the model to look before it tries again.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aria_kit
from aria_kit.agent import AutonomousAgent, ToolTimeout, _time_limit
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder
from aria_kit.persistence import MemoryFile
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import MemoryStoreTool
from aria_kit.write_guard import deferred_signals

KIT_DIR = str(Path(aria_kit.__file__).parent)
SPARED = str(Path(aria_kit.__file__).parent / "write_guard.py")
WORDS = ["tea", "coffee", "rust", "go", "raft", "paxos", "deadline", "friday", "alice", "bob", "lisbon", "porto"]
AT = "2026-12-01T00:00:00+00:00"


class Fault(BaseException):
    """Stands for anything that can stop Python mid-line: a timeout, a signal, MemoryError."""


class WordEmbedder(Embedder):
    """Deterministic and quick: one dimension per word of ``WORDS`` (tests bookkeeping, not ranking)."""

    name, dim = "atomicity-words", len(WORDS)

    def embed(self, batch: Any) -> np.ndarray:
        return np.asarray([[1.0 + text.count(word) for word in WORDS] for text in batch], dtype=np.float32)


class Faulting:
    """A trace function that counts the lines run in aria_kit (write_guard.py spared) and raises ``fault`` at
    line ``at`` (``at=None``: only counts)."""

    def __init__(self, at: int | None, fault: BaseException) -> None:
        self.at, self.fault, self.seen = at, fault, 0

    def local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            self.seen += 1
            if self.seen == self.at:
                raise self.fault
        return self.local

    def __call__(self, frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        return self.local if name.startswith(KIT_DIR) and name != SPARED else None


class Model:
    """What the memory must hold: ``id -> [text, superseded_by, supersedes]``, and the next number."""

    def __init__(self) -> None:
        self.rows: dict[str, list[str | None]] = {}
        self.next = 1

    def state(self) -> list[tuple]:
        return [(i, *row) for i, row in sorted(self.rows.items(), key=lambda kv: int(kv[0][4:]))]

    def copy(self) -> Model:
        twin = Model()
        twin.rows, twin.next = {i: list(row) for i, row in self.rows.items()}, self.next
        return twin

    def apply(self, op: str, memory_id: str, text: str) -> None:
        """The op's effect, as the contract says (a refused op changes nothing)."""
        new, rows = f"mem_{self.next:04d}", self.rows
        if op == "store" or (op == "store_if_absent" and not any(r[0] == text and r[1] is None for r in rows.values())):
            rows[new], self.next = [text, None, None], self.next + 1
        elif op == "supersede" and memory_id in rows and rows[memory_id][1] is None:
            rows[memory_id][1] = new
            rows[new], self.next = [text, None, memory_id], self.next + 1
        elif op == "delete" and memory_id in rows and not (rows[memory_id][1] is None and rows[memory_id][2]):
            _, successor, predecessor = rows.pop(memory_id)
            if predecessor in rows:
                rows[predecessor][1] = successor
            if successor in rows:
                rows[successor][2] = predecessor
        elif op == "forget" and memory_id in rows:
            pending, chain = [memory_id], set()
            while pending:
                found = pending.pop()
                if found not in chain:
                    chain.add(found)
                    pending += [link for link in rows[found][1:] if link is not None]
            for gone in chain:
                del rows[gone]


def run(memory: HybridMemory, op: str, memory_id: str, text: str, metadata: dict) -> None:
    if op in ("store", "store_if_absent"):
        getattr(memory, op)(text, metadata)
    elif op == "supersede":
        memory.supersede(memory_id, text, at=AT)
    else:
        getattr(memory, op)(memory_id)


def held(memory: HybridMemory) -> list[tuple]:
    return [(r.id, r.text, r.superseded_by, r.supersedes) for r in memory.list_all()]


def answers(memory: HybridMemory) -> list[list[tuple]]:
    return [[(h.id, round(h.score, 6), round(h.bm25, 6)) for h in memory.search(query, top_k=4, include_history=history)]
            for query in ("tea coffee", "lisbon porto friday", "alice") for history in (False, True)]


@pytest.mark.parametrize("on_file", [True, False], ids=["file", "in process"])
def test_a_fault_at_any_line_of_a_write_leaves_the_state_before_or_after_it(tmp_path: Path, on_file: bool) -> None:
    rng = random.Random(29)
    path = tmp_path / "memory.sqlite3"
    memory = HybridMemory(WordEmbedder(), path=path if on_file else None, thread_window=1)
    model, lines, faults, outcomes = Model(), {}, 0, {"before": 0, "after": 0}
    for step in range(240):
        op = rng.choice(["store", "store", "supersede", "delete", "forget", "store_if_absent"])
        ids = list(model.rows) or ["mem_0001"]
        memory_id, text = rng.choice(ids), " ".join(rng.sample(WORDS, rng.randint(1, 3)))
        metadata = {"thread": "t1"} if rng.random() < 0.5 else {"category": "general"}
        before, after = model.state(), model.copy()
        after.apply(op, memory_id, text)
        # Now and then a run only counts the op's lines; the others fault at a line anywhere in that range.
        counting = op not in lines or rng.random() < 0.15
        tracer = Faulting(None if counting else rng.randint(1, lines[op]), rng.choice([Fault(), KeyboardInterrupt()]))
        sys.settrace(tracer)
        try:
            run(memory, op, memory_id, text, metadata)
        except (Fault, KeyboardInterrupt):
            faults += 1
        except ValueError:  # a refusal (superseding history, deleting a current version with history)
            pass
        finally:
            sys.settrace(None)
        if counting:
            lines[op] = max(lines.get(op, 0), tracer.seen)
        now = held(memory)
        assert now in (before, after.state()), f"step {step}: {op}({memory_id!r}, {text!r}) cut at {tracer.at}"
        outcomes["before" if now == before and before != after.state() else "after"] += 1
        model = after if now == after.state() else model
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the guard gave the handler back
        if on_file:
            with HybridMemory(WordEmbedder(), path=path, thread_window=1) as reopened:
                assert held(reopened) == now and answers(reopened) == answers(memory), f"step {step}: {op}"
        else:
            hits = memory.search("tea", top_k=50)
            assert sorted(h.id for h in hits) == sorted(i for i, row in model.rows.items() if row[1] is None)
    assert faults > 80 and outcomes["before"] > 10 and outcomes["after"] > 60  # the faults really cut writes
    memory.close()


def test_the_tool_timer_over_3000_thread_memories_never_splits_a_write(tmp_path: Path) -> None:
    rng = random.Random(3000)
    path = tmp_path / "memory.sqlite3"
    memory = HybridMemory(WordEmbedder(), path=path, thread_window=2)
    memory.store_many([" ".join(rng.sample(WORDS, 3)) for _ in range(3000)], [{"thread": f"s{i // 30}"}
                                                                            for i in range(3000)])
    timeouts = 0
    for call in range(150):
        current = [r.id for r in memory.list_all() if r.superseded_by is None]
        text = f"{rng.choice(WORDS)} update {call}"
        try:
            with _time_limit(rng.uniform(0.00002, 0.002)):
                if call % 3 == 0:
                    memory.store(text, {"thread": f"s{call % 7}"})
                elif call % 3 == 1:
                    memory.supersede(rng.choice(current), text)
                else:
                    target = rng.choice(current)
                    memory.delete(target) if memory.get(target).supersedes is None else memory.forget(target)
        except ToolTimeout:
            timeouts += 1
    with sqlite3.connect(path) as raw:
        in_file = raw.execute("SELECT count(*), sum(superseded_by IS NULL) FROM memories").fetchone()
    records = memory.list_all()
    assert (len(records), sum(r.superseded_by is None for r in records)) == in_file
    with HybridMemory(WordEmbedder(), path=path, thread_window=2) as reopened:
        assert held(reopened) == held(memory) and answers(reopened) == answers(memory)
    chains = [memory.history(r.id) for r in records if r.supersedes is None]
    assert all(sum(v.superseded_by is None for v in chain) == 1 for chain in chains)  # one current version each
    assert timeouts > 20, timeouts  # the timer really fired
    memory.close()


def test_a_timeout_in_the_apply_phase_lands_just_after_it_and_leaves_the_handlers_as_they_were() -> None:
    handlers = signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGINT)
    done = []
    with pytest.raises(ToolTimeout):
        with _time_limit(0.01):
            with deferred_signals():
                time.sleep(0.1)  # the timer fires here, and is held
                done.append("applied")
            done.append("went on")  # never: the timeout arrives as the block ends
    assert done == ["applied"] and (signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGINT)) == handlers


def test_a_store_tool_that_timed_out_mid_write_stored_whole_and_the_model_is_told_to_look(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    memory = HybridMemory(WordEmbedder(), path=tmp_path / "memory.sqlite3")
    slow_insert = MemoryFile.insert_unless_present  # memory_store writes through store_if_absent

    def insert(self: MemoryFile, *args: Any) -> Any:
        time.sleep(0.3)  # a slow disk: the tool's 0.05 s run out in the middle of the write
        return slow_insert(self, *args)

    monkeypatch.setattr(MemoryFile, "insert_unless_present", insert)
    llm = ScriptedProvider([call_tool("memory_store", {"text": "Carol lives in Porto."}), say("Noted.")])
    agent = AutonomousAgent(ARIA, llm, memory, [MemoryStoreTool(memory)], tool_timeout=0.05, recall_k=0)
    agent.chat("Carol lives in Porto.")
    told = [m for m in llm.requests[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "did not finish within 0.05 s" in told and "Search memory for it before trying again" in told
    with HybridMemory(WordEmbedder(), path=tmp_path / "memory.sqlite3") as reopened:
        assert held(reopened) == held(memory) == [("mem_0001", "Carol lives in Porto.", None, None)]
