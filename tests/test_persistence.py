"""HybridMemory on an SQLite file: reopening, the file format, refusals, and two instances sharing one file."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from memory_contract import DEMO_FACTS

from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder
from aria_kit.persistence import SCHEMA_VERSION, MemoryFileError

QUERIES = ["What consensus algorithm does VelocityDB use?", "order 4821", "Alice's language preference", "Alice"]


class CountingEmbedder(Embedder):
    """WordLlama, counting how many texts it was asked to embed."""

    name, dim = "wordllama-256", 256

    def __init__(self) -> None:
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        return default_embedder().embed(texts)


class TinyEmbedder(Embedder):
    name, dim = "tiny-hash-16", 16

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.ones((len(texts), 16), dtype=np.float32) / 4


def seed(memory: HybridMemory) -> None:
    memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])


def snapshot(memory: HybridMemory) -> tuple[list, list]:
    return memory.list_all(), [memory.search(query, top_k=10) for query in QUERIES]


# ---------------------------------------------------------------- reopening


def test_reopening_restores_every_memory_with_identical_ids_and_scores(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        seed(memory)
        memory.delete("mem_0002")
        memory.store("Alice switched VelocityDB's storage engine from LSM-tree to B-tree.", {"category": "decision"})
        memory.delete("mem_0005")
        memory.store_many([f"filler note {i} about Alice" for i in range(30)])
        before = snapshot(memory)
    with HybridMemory(path=path) as reopened:
        after = snapshot(reopened)
    assert after == before  # Hit equality compares ids, texts, metadata, every score and both ranks exactly
    assert [r.id for r in after[0]][:3] == ["mem_0001", "mem_0003", "mem_0004"]


def test_reopening_does_not_embed_the_stored_texts_again(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(embedder=CountingEmbedder(), path=path) as memory:
        seed(memory)
    embedder = CountingEmbedder()
    with HybridMemory(embedder=embedder, path=path) as reopened:
        assert len(reopened) == len(DEMO_FACTS)
        assert embedder.texts == 0
        reopened.search("order 4821")
        assert embedder.texts == 1  # only the query


def test_ids_are_not_reused_after_deleting_the_newest_memory_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        memory.store_many(["one", "two", "three"])
        memory.delete("mem_0003")
    with HybridMemory(path=path) as reopened:
        assert reopened.store("four") == "mem_0004"
        assert [r.id for r in reopened.list_all()] == ["mem_0001", "mem_0002", "mem_0004"]


def test_metadata_and_unusual_text_round_trip_exactly(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    metadata = {"category": "odd", "n": 2**62, "x": 0.1, "flag": True, "none": None, "note": "naïve ☕ שלום"}
    text = "NUL\x00inside, emoji 🦀, RTL שלום, combining e\u0301"
    with HybridMemory(path=path) as memory:
        memory_id = memory.store(text, metadata)
    with HybridMemory(path=path) as reopened:
        record = reopened.get(memory_id)
    assert record.text == text and record.metadata == metadata
    assert [type(v) for v in record.metadata.values()] == [type(v) for v in metadata.values()]


# ---------------------------------------------------------------- the file itself


def test_every_store_and_delete_is_committed_before_the_call_returns(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    memory = HybridMemory(path=path)
    memory_id = memory.store("Alice likes tea.", {"category": "user_pref"})
    other = sqlite3.connect(path)  # a second connection sees only committed data
    assert other.execute("SELECT seq, text FROM memories").fetchall() == [(1, "Alice likes tea.")]
    memory.delete(memory_id)
    assert other.execute("SELECT COUNT(*) FROM memories").fetchone() == (0,)
    other.close()
    memory.close()


def test_the_file_is_wal_synchronous_full_versioned_and_names_its_embedder(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        memory.store("Alice likes tea.")
        assert memory._file._conn.execute("PRAGMA synchronous").fetchone() == (2,)  # 2 = FULL
        other = sqlite3.connect(path)
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert other.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        meta = dict(other.execute("SELECT key, value FROM meta"))
        assert (meta["embedder"], meta["dim"]) == ("wordllama-256", "256")
        (blob,) = other.execute("SELECT embedding FROM memories").fetchone()
        other.close()
    stored = np.frombuffer(blob, dtype="<f4")
    np.testing.assert_array_equal(stored, default_embedder().embed(["Alice likes tea."])[0])


def test_an_existing_empty_file_becomes_a_memory_file(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    path.touch()
    with HybridMemory(path=path) as memory:
        assert memory.store("first") == "mem_0001"


def test_a_file_written_with_another_embedder_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        seed(memory)
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match=r"'wordllama-256' \(256-d\).*'tiny-hash-16' \(16-d\)") as caught:
        HybridMemory(embedder=TinyEmbedder(), path=path)
    assert isinstance(caught.value, ValueError) and "new file" in str(caught.value)
    assert path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Dear diary, today I met Alice.\n" * 50)
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match="not an Aria Kit memory file"):
        HybridMemory(path=path)
    assert path.read_bytes() == before


def test_a_missing_folder_is_reported_with_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(MemoryFileError, match="folder exists"):
        HybridMemory(path=tmp_path / "no such folder" / "memory.sqlite3")


# ---------------------------------------------------------------- two instances, one file


def test_two_instances_on_one_file_see_each_others_stores_and_deletes(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as a, HybridMemory(path=path) as b:
        seed(a)
        assert len(b) == len(DEMO_FACTS)
        assert b.search("order 4821", top_k=1)[0].id == "mem_0007"
        assert b.store("Alice's cat is called Raft.") == "mem_0008"
        assert a.get("mem_0008").text == "Alice's cat is called Raft."
        assert b.delete("mem_0007")
        assert a.get("mem_0007") is None and len(a) == 7
        assert a.delete("mem_0003") and b.get("mem_0003") is None
        assert a.store("after the deletes") == "mem_0009"
        assert snapshot(a) == snapshot(b)


def test_deleting_a_memory_another_instance_already_deleted_returns_false(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as a, HybridMemory(path=path) as b:
        seed(a)
        len(b)
        assert a.delete("mem_0004")
        assert b.delete("mem_0004") is False
        assert len(b) == len(a) == 6
