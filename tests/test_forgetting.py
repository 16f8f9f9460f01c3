"""Forget means forgotten (issue 29, item 4).

Deleting the current version of a fact never brings an older one back; ``forget`` removes a fact with
every version, and its text is then in no file of the memory: every byte of every file in the memory's
folder is read (SQLite's main file, -wal and -shm; everything under a Qdrant Edge folder). SQLite is
forced to ``secure_delete=OFF`` on every new connection first, as many builds default to (this
machine's happens to be built with it on), so the kit must turn it on itself.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from aria_kit.conversation_log import ConversationLog
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend

LISBON = "Carol lives at 12 Rua Augusta, Lisbon."
PORTO = "Carol lives at 3 Rua das Flores, Porto."
FILLERS = [f"Filler note number {i}: the standup moved to room {i % 9}." for i in range(300)]


@pytest.fixture
def deleted_bytes_kept(monkeypatch) -> None:
    """Every SQLite connection starts with secure_delete off, as on builds that default to it."""
    connect = sqlite3.connect

    def connect_keeping_deleted_bytes(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = connect(*args, **kwargs)
        connection.execute("PRAGMA secure_delete = OFF")
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect_keeping_deleted_bytes)


def files_holding(folder: Path, *needles: str) -> set[tuple[str, str]]:
    """(file, needle) for every needle found in the bytes of a file under ``folder``."""
    return {(str(path.relative_to(folder)), needle) for path in folder.rglob("*") if path.is_file()
            for needle in needles if needle.encode() in path.read_bytes()}


def open_hybrid(folder: Path) -> MemoryBackend:
    return HybridMemory(path=folder / "memory.sqlite3")


def open_edge(folder: Path) -> MemoryBackend:
    return pytest.importorskip("aria_kit.qdrant_memory").QdrantMemory(path=folder)


@pytest.mark.parametrize("open_memory", [open_hybrid, open_edge], ids=["HybridMemory file", "QdrantMemory Edge"])
def test_a_forgotten_fact_is_in_no_file_of_the_memory(tmp_path: Path, open_memory: Any, deleted_bytes_kept: None) -> None:
    memory = open_memory(tmp_path)
    memory.store_many(FILLERS[:150])
    lisbon = memory.store(LISBON)
    porto = memory.supersede(lisbon, PORTO)
    memory.store_many(FILLERS[150:])
    assert files_holding(tmp_path, "Rua Augusta", "Rua das Flores", "number 299")  # the scan finds text
    assert memory.forget(porto) == [lisbon, porto]
    assert files_holding(tmp_path, "Rua Augusta", "Rua das Flores", "number 299") == {
        found for found in files_holding(tmp_path, "number 299")}  # the fillers stay, the fact is gone
    assert files_holding(tmp_path, "number 299") and not memory.search("where does Carol live", include_history=True,
                                                                       top_k=5)[0].text.startswith("Carol")
    memory.close()
    assert not files_holding(tmp_path, "Rua Augusta", "Rua das Flores")
    reopened = open_memory(tmp_path)
    assert len(reopened) == len(FILLERS) and reopened.get(lisbon) is None and reopened.store("x") not in (lisbon, porto)
    reopened.close()


@pytest.mark.parametrize("path", [None, "file"], ids=["in process", "file"])
def test_deleting_the_new_address_never_makes_the_old_one_current(tmp_path: Path, path: str | None) -> None:
    # The red team's case: store Lisbon, update to Porto, delete Porto. Search answered Lisbon, as current.
    memory = HybridMemory(path=tmp_path / "memory.sqlite3" if path else None)
    lisbon = memory.store(LISBON)
    porto = memory.supersede(lisbon, PORTO)
    with pytest.raises(ValueError, match=f"forget\\('{porto}'\\)"):
        memory.delete(porto)
    assert [h.id for h in memory.search("Where does Carol live?", top_k=1)] == [porto]
    assert memory.delete(lisbon)  # an older version alone may go: it was not current
    assert memory.get(porto).supersedes is None and memory.delete(porto)
    assert memory.search("Where does Carol live?", top_k=1, include_history=True) == []


def test_the_log_turns_that_carry_a_forgotten_fact_go_when_asked() -> None:
    log = ConversationLog(session="s1")
    log.record("Remember that Carol lives at 3 Rua das Flores in Porto.", "Noted: Carol lives at 3 Rua das Flores, Porto.")
    log.record("What time is standup?", "Standup is at 9.")
    log.record("Carol moved house.", "Good to know.")
    forgotten = log.forget_turns_with([PORTO])
    assert forgotten == ["mem_0001", "mem_0002"]
    assert [r.text for r in log.memory.list_all()] == ["What time is standup?", "Standup is at 9.", "Carol moved house.",
                                                       "Good to know."]


def test_forget_on_ten_thousand_memories_takes_well_under_a_second(tmp_path: Path, record_property: Any) -> None:
    memory = open_hybrid(tmp_path)
    memory.store_many([f"note {i} about project {i % 97}" for i in range(10_000)])
    lisbon = memory.store(LISBON)
    porto = memory.supersede(lisbon, PORTO)
    started = time.perf_counter()
    assert memory.forget(porto) == [lisbon, porto]
    took = time.perf_counter() - started
    record_property("forget_s_10000", round(took, 3))
    assert took < 1.0 and (tmp_path / "memory.sqlite3-wal").stat().st_size == 0
    memory.close()


def test_forget_in_the_terminal_chat_removes_every_version_and_says_which(tmp_path: Path, capsys) -> None:
    from aria_kit.__main__ import _command
    from aria_kit.agent import AutonomousAgent
    from aria_kit.persona import ARIA
    from aria_kit.scripted import ScriptedProvider

    memory = HybridMemory(path=tmp_path / "memory.sqlite3")
    lisbon = memory.store(LISBON)
    porto = memory.supersede(lisbon, PORTO)
    agent = AutonomousAgent(ARIA, ScriptedProvider([]), memory, [])
    _command(agent, f"/forget {porto}", str(tmp_path / "memory.sqlite3"))
    out = capsys.readouterr().out
    assert f"Forgot {lisbon}, {porto} (every version of this fact):" in out and LISBON in out and PORTO in out
    assert memory.list_all() == [] and not files_holding(tmp_path, "Rua Augusta", "Rua das Flores")


def test_an_edge_rewrite_cut_short_is_finished_or_dropped_on_the_next_open(tmp_path: Path) -> None:
    import shutil

    memory = open_edge(tmp_path)
    memory.store_many(FILLERS[:20])
    memory.close()
    folder = tmp_path / "aria_memory"
    shutil.copytree(folder, tmp_path / "aria_memory.rewrite")  # cut while writing the copy: the copy goes
    reopened = open_edge(tmp_path)
    assert len(reopened) == 20 and not (tmp_path / "aria_memory.rewrite").exists()
    reopened.close()
    shutil.copytree(folder, tmp_path / "aria_memory.rewrite")  # cut between the two renames: the copy comes in
    folder.rename(tmp_path / "aria_memory.forgotten")
    reopened = open_edge(tmp_path)
    assert len(reopened) == 20 and sorted(p.name for p in tmp_path.iterdir()) == ["aria_memory"]
    reopened.close()
