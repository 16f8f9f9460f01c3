"""Superseding across a restart, between two processes' views of one file, and from a version-1 file (lesson 10).

The in-memory behaviour is in the shared contract (``memory_contract.py``); this
file checks what only a backend with a file or folder can get wrong: the links
and the history surviving a close and reopen, another open copy of the file
seeing a supersede, and a memory file written before superseding existed
(schema version 1, built here with that version's exact SQL) being upgraded
in place with every memory, vector and score intact.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from aria_kit.demo_data import DEMO_FACTS, seed_memory
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend
from aria_kit.persistence import SCHEMA_VERSION, MemoryFileError

GO = "Alice's favourite programming language is Go."
ZIG = "Alice's favourite programming language is Zig."
QUERY = "Alice's favourite programming language"


def hybrid_on_file(tmp_path: Path) -> HybridMemory:
    return HybridMemory(path=tmp_path / "memory.sqlite3")


def qdrant_on_disk(tmp_path: Path) -> MemoryBackend:
    qdrant = pytest.importorskip("aria_kit.qdrant_memory")
    return qdrant.QdrantMemory(path=tmp_path / "qdrant")


@pytest.mark.parametrize("open_memory", [hybrid_on_file, qdrant_on_disk], ids=["HybridMemory on SQLite", "Qdrant folder"])
def test_links_history_and_search_survive_a_restart(tmp_path: Path, open_memory: Callable[[Path], MemoryBackend]) -> None:
    memory = open_memory(tmp_path)
    seed_memory(memory)
    go = memory.supersede("mem_0001", GO, at="2026-03-01")
    zig = memory.supersede(go, ZIG, at="2026-06-01")
    # the three versions tie on BM25, and ties may fall either way after a rebuild: compare what was found
    before = memory.list_all(), {h.id for h in memory.search(QUERY, top_k=9, include_history=True)}
    memory.close()
    reopened = open_memory(tmp_path)
    try:
        assert (reopened.list_all(), {h.id for h in reopened.search(QUERY, top_k=9, include_history=True)}) == before
        assert [(r.id, r.superseded_at) for r in reopened.history("mem_0001")] == [
            ("mem_0001", "2026-03-01"), (go, "2026-06-01"), (zig, None)]
        assert reopened.search(QUERY, top_k=1)[0].id == zig
        assert "mem_0001" not in [h.id for h in reopened.search(QUERY, top_k=9)]
        assert reopened.supersede(zig, GO) == "mem_0010"  # ids go on from the file, never reused
    finally:
        reopened.close()


def test_another_open_copy_of_the_file_sees_a_supersede_and_a_forget(tmp_path: Path) -> None:
    with hybrid_on_file(tmp_path) as writer, hybrid_on_file(tmp_path) as reader:
        seed_memory(writer)
        assert reader.search(QUERY, top_k=1)[0].id == "mem_0001"
        go = writer.supersede("mem_0001", GO)
        assert reader.get("mem_0001").superseded_by == go and reader.search(QUERY, top_k=1)[0].id == go
        assert writer.forget(go) == ["mem_0001", go]
        assert reader.get("mem_0001") is None and reader.get(go) is None
        assert reader.search(QUERY, top_k=1, include_history=True)[0].id not in {"mem_0001", go}


def test_a_supersede_that_lost_a_race_changes_nothing(tmp_path: Path) -> None:
    with hybrid_on_file(tmp_path) as first, hybrid_on_file(tmp_path) as second:
        seed_memory(first)
        second.get("mem_0001")  # second has loaded mem_0001 while it was current
        first.supersede("mem_0001", GO)
        with pytest.raises(ValueError, match="already superseded by mem_0008"):
            second.supersede("mem_0001", ZIG)
        assert [r.text for r in second.history("mem_0001")] == [DEMO_FACTS[0][0], GO]


# ---------------------------------------------------------------- files written before superseding existed

# Schema version 1, exactly as aria_kit wrote it before lesson 10 (persistence.py at that version).
V1_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE memories (seq INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL,"
    " metadata TEXT NOT NULL, embedding BLOB NOT NULL)",
)


def write_version_1_file(path: Path, deleted: tuple[int, ...] = ()) -> None:
    """The demo facts in a version-1 memory file, as the old code wrote them (WAL, vectors as float32)."""
    embedder = default_embedder()
    vectors = embedder.embed([text for text, _ in DEMO_FACTS])
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    for statement in V1_SCHEMA:
        connection.execute(statement)
    meta = {"format": "aria_kit memory", "embedder": embedder.name, "dim": str(embedder.dim), "deletes": str(len(deleted))}
    connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    connection.executemany("INSERT INTO memories (text, metadata, embedding) VALUES (?, ?, ?)",
                           [(text, json.dumps({"category": category}), np.asarray(vector, "<f4").tobytes())
                            for (text, category), vector in zip(DEMO_FACTS, vectors)])
    connection.executemany("DELETE FROM memories WHERE seq = ?", [(seq,) for seq in deleted])
    connection.execute("PRAGMA user_version = 1")
    connection.close()


def test_a_version_1_file_is_upgraded_in_place_with_every_memory_and_score_intact(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    write_version_1_file(path, deleted=(3,))
    with HybridMemory() as reference:  # the same memories, never on disk: what the old file must still answer
        seed_memory(reference)
        reference.delete("mem_0003")
        expected = [(h.id, h.score, h.cosine, h.bm25) for h in reference.search("VelocityDB deadline", top_k=6)]
        with HybridMemory(path=path) as upgraded:
            assert upgraded.list_all() == reference.list_all()
            assert [(h.id, h.score, h.cosine, h.bm25) for h in upgraded.search("VelocityDB deadline", top_k=6)] == expected
            assert all(r.is_current for r in upgraded.list_all())
            go = upgraded.supersede("mem_0001", GO, at="2026-03-01")
            assert go == "mem_0008"  # AUTOINCREMENT still remembers every number handed out
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert connection.execute("SELECT seq, superseded_by, superseded_at FROM memories WHERE seq = 1").fetchone() == (
        1, 8, "2026-03-01")
    connection.close()
    with HybridMemory(path=path) as reopened:
        assert [r.id for r in reopened.history("mem_0001")] == ["mem_0001", "mem_0008"]
        assert reopened.get("mem_0003") is None


def test_a_file_from_a_newer_schema_is_still_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    HybridMemory(path=path).close()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match=f"schema version {SCHEMA_VERSION + 1}"):
        HybridMemory(path=path)
    assert path.read_bytes() == before


def test_a_copy_that_missed_another_supersede_reloads_and_keeps_both(tmp_path: Path) -> None:
    with hybrid_on_file(tmp_path) as first, hybrid_on_file(tmp_path) as second:
        seed_memory(first)
        assert len(second) == len(DEMO_FACTS)  # second has loaded the file
        first.supersede("mem_0001", GO)
        deadline = second.supersede("mem_0005", "The project deadline for VelocityDB v1.0 is April 15.")
        assert deadline == "mem_0009"
        for memory in (first, second):
            assert [r.superseded_by for r in memory.list_all()[:5]] == ["mem_0008", None, None, None, "mem_0009"]
            assert {h.id for h in memory.search("Alice VelocityDB deadline language", top_k=9)} == {
                "mem_0002", "mem_0003", "mem_0004", "mem_0006", "mem_0007", "mem_0008", "mem_0009"}
