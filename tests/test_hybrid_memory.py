"""HybridMemory: the shared memory contract (in process and on SQLite) plus what is specific to it."""

from __future__ import annotations

import importlib.util
import random
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from memory_contract import DEMO_FACTS, MemoryBackendContract

from aria_kit.embeddings import default_embedder
from aria_kit.fusion import reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.memory_rules import MAX_TEXT_BYTES
from aria_kit.interfaces import Embedder

REPO = Path(__file__).resolve().parents[1]


class TestHybridMemoryInProcess(MemoryBackendContract):
    def make_memory(self, tmp_path: Path) -> HybridMemory:
        return HybridMemory()


class TestHybridMemoryOnSQLite(MemoryBackendContract):
    def make_memory(self, tmp_path: Path) -> HybridMemory:
        return HybridMemory(path=tmp_path / "memory.sqlite3")


class ScaledEmbedder(Embedder):
    """WordLlama's vectors times 7: an embedder that forgets to normalise."""

    name, dim = "scaled", 256

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return 7.0 * default_embedder().embed(texts)


def random_corpus(rng: random.Random, size: int, vocabulary: list[str]) -> list[str]:
    return [" ".join(rng.choices(vocabulary, k=rng.randint(1, 12))) for _ in range(size)]


# ---------------------------------------------------------------- fusion, ranking, ties


def test_vectorised_fusion_agrees_exactly_with_reciprocal_rank_fusion_on_random_data() -> None:
    rng = random.Random(4821)
    vocabulary = "raft paxos alice rust order ddr5 deadline march meeting friday storage engine tree lsm".split()
    for trial in range(8):
        memory = HybridMemory(rrf_k=rng.choice([0, 1, 10, 60]))
        memory.store_many(random_corpus(rng, rng.randint(5, 120), vocabulary))
        for memory_id in rng.sample([r.id for r in memory.list_all()], 3):
            memory.delete(memory_id)
        for query in random_corpus(rng, 5, vocabulary):
            hits = memory.search(query, top_k=len(memory))
            by_vector = [h.id for h in sorted(hits, key=lambda h: h.vector_rank)]
            by_keyword = [h.id for h in sorted(hits, key=lambda h: h.keyword_rank or 0) if h.keyword_rank]
            expected = reciprocal_rank_fusion([by_vector, by_keyword], k=memory.rrf_k)
            assert [(h.id, h.score) for h in hits] == expected, (trial, query)


def test_top_k_hits_are_the_head_of_the_full_ranking_even_with_ties() -> None:
    rng = random.Random(31)
    vocabulary = "raft paxos alice rust order deadline".split()
    memory = HybridMemory()
    corpus = random_corpus(rng, 60, vocabulary)
    memory.store_many(corpus + corpus[:20])  # duplicated texts tie on every score
    for query in random_corpus(rng, 10, vocabulary):
        everything = memory.search(query, top_k=len(memory))
        for top_k in (1, 2, 3, 5, 17, 79, 80, 81):
            assert memory.search(query, top_k=top_k) == everything[:top_k]


def test_vector_ranking_orders_every_memory_by_cosine_and_keyword_ranking_skips_zero_bm25() -> None:
    memory = HybridMemory()
    memory.store_many([text for text, _ in DEMO_FACTS])
    query = "order 4821"
    hits = memory.search(query, top_k=len(DEMO_FACTS))
    vectors = default_embedder().embed([text for text, _ in DEMO_FACTS])
    cosines = vectors @ default_embedder().embed([query])[0]
    assert sorted(h.vector_rank for h in hits) == list(range(1, len(DEMO_FACTS) + 1))
    for hit in hits:
        row = int(hit.id[4:]) - 1
        assert hit.cosine == pytest.approx(float(cosines[row]), abs=1e-6)
        assert hit.vector_rank == 1 + sum(c > cosines[row] for c in cosines)
        assert (hit.keyword_rank is None) == (hit.bm25 == 0.0)
    assert [h.keyword_rank for h in hits if h.bm25 > 0] == [1]


def test_equal_scores_go_to_the_older_memory() -> None:
    memory = HybridMemory()
    first, second = memory.store_many(["Alice likes green tea.", "Alice likes green tea."])
    hits = memory.search("green tea", top_k=2)
    assert [h.id for h in hits] == [first, second]
    assert hits[0].cosine == hits[1].cosine and hits[0].bm25 == hits[1].bm25


def test_rrf_k_changes_the_fused_scores_as_the_formula_says() -> None:
    memory = HybridMemory(rrf_k=10)
    memory.store_many([text for text, _ in DEMO_FACTS])
    (top,) = memory.search("order 4821", top_k=1)
    assert (top.vector_rank, top.keyword_rank) == (1, 1)
    assert top.score == 1 / 11 + 1 / 11


# ---------------------------------------------------------------- storage layout and ids


def test_ids_keep_growing_past_mem_9999() -> None:
    memory = HybridMemory()
    ids = memory.store_many([f"note {i}" for i in range(10_000)])
    assert ids[9_998:] == ["mem_9999", "mem_10000"]
    assert memory.store("one more") == "mem_10001"
    assert memory.get("mem_10000").text == "note 9999"
    assert memory.get("mem_00042") is None  # a different spelling is a different (unknown) id


def test_vectors_live_in_one_growing_unit_normalised_float32_matrix() -> None:
    memory = HybridMemory(embedder=ScaledEmbedder())
    for i in range(40):
        memory.store(f"fact {i} about VelocityDB")
    matrix = memory._memories.matrix[:40]
    assert matrix.dtype == np.float32 and memory._memories.matrix.flags["C_CONTIGUOUS"]
    assert len(memory._memories.matrix) == 64  # 16 -> 32 -> 64: doubling, not one copy per store
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, rtol=1e-5)
    assert all(-1.0001 <= h.cosine <= 1.0001 for h in memory.search("VelocityDB", top_k=40))


def test_a_file_whose_numbers_jump_to_a_million_loads_only_the_rows_it_holds(tmp_path: Path) -> None:
    # Issue 13: a hand-edited seq once made the loader allocate a row for every number below it (1.1 GiB here).
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        memory.store_many(["Alice likes green tea.", "Order #4821 was placed by Bob."])
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE memories SET seq = 1000000 WHERE seq = 2")
    with HybridMemory(path=path) as memory:
        assert memory._memories.matrix.nbytes < 100_000 and len(memory._memories.bm25._lengths) < 100
        assert [r.id for r in memory.list_all()] == ["mem_0001", "mem_1000000"]
        assert memory.get("mem_1000000").text == "Order #4821 was placed by Bob."
        assert memory.search("order 4821", top_k=1)[0].id == "mem_1000000"
        assert memory.store("Carol prefers Go.") == "mem_1000001"
        assert memory.delete("mem_1000000") and memory.get("mem_1000000") is None


@pytest.mark.parametrize("on_file", [False, True])
def test_rows_of_deleted_memories_are_reclaimed(tmp_path: Path, on_file: bool) -> None:
    # Issue 13: 99,990 deletes of 100,000 memories used to leave the whole matrix (128 MiB) allocated.
    memory = HybridMemory(path=tmp_path / "memory.sqlite3" if on_file else None)
    ids = memory.store_many([f"note {i} about VelocityDB" for i in range(3_000)])
    full = memory._memories.matrix.nbytes
    kept = ids[1234:1244]
    for memory_id in ids[:1234] + ids[1244:]:
        memory.delete(memory_id)
    assert memory._memories.matrix.nbytes <= full / 64 and memory._memories.bm25.slots == 10
    assert [r.id for r in memory.list_all()] == kept
    assert memory.search("note 1240", top_k=1)[0].id == "mem_1241"
    assert memory.store("one more note") == "mem_3001"
    memory.close()


def test_an_embedder_returning_the_wrong_shape_is_reported() -> None:
    class Broken(Embedder):
        name, dim = "broken", 4

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            return np.ones((len(texts), 3), dtype=np.float32)

    with pytest.raises(ValueError, match="returned shape"):
        HybridMemory(embedder=Broken()).store("anything")


def test_records_handed_out_are_copies() -> None:
    memory = HybridMemory()
    memory_id = memory.store("Alice likes tea.", {"category": "user_pref"})
    memory.get(memory_id).metadata["category"] = "changed"
    memory.list_all()[0].metadata["category"] = "changed"
    memory.search("tea")[0].metadata["category"] = "changed"
    assert memory.get(memory_id).category == "user_pref"


# ---------------------------------------------------------------- input rules specific to HybridMemory


def test_text_up_to_the_size_limit_is_stored_and_found_and_one_byte_more_is_rejected() -> None:
    memory = HybridMemory()
    memory.store_many([text for text, _ in DEMO_FACTS])
    room = MAX_TEXT_BYTES - len("qwertyuiop ")
    body = "qwertyuiop " + "é" * (room // 2) + "x" * (room % 2)  # "é" is two bytes of UTF-8
    assert len(body.encode()) == MAX_TEXT_BYTES
    memory_id = memory.store(body)
    assert memory.search("qwertyuiop", top_k=1)[0].id == memory_id
    with pytest.raises(ValueError, match="split it into smaller chunks"):
        memory.store(body + "!")
    with pytest.raises(ValueError, match="limit"):
        memory.search(body + "!")


def test_lone_surrogates_are_rejected_in_text_and_metadata() -> None:
    memory = HybridMemory()
    with pytest.raises(ValueError, match="surrogate"):
        memory.store("broken \ud800 text")
    with pytest.raises(ValueError, match="surrogate"):
        memory.store("fine text", {"note": "broken \udfff"})
    assert len(memory) == 0


def test_error_messages_say_what_to_do() -> None:
    memory = HybridMemory()
    with pytest.raises(ValueError, match="empty or only whitespace"):
        memory.store("   ")
    with pytest.raises(ValueError, match=r"metadata\['tags'\] is a list"):
        memory.store("text", {"tags": ["a"]})
    with pytest.raises(ValueError, match="top_k must be"):
        memory.search("text", top_k=True)
    with pytest.raises(ValueError, match="use store"):
        memory.store_many("a single string")


# ---------------------------------------------------------------- the benchmark cannot rot


def test_benchmark_runs_in_quick_mode(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_memory", REPO / "benchmarks" / "bench_memory.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_memory", bench)  # dataclasses look their module up there
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script adds the repository to sys.path
    spec.loader.exec_module(bench)
    rows = bench.main(["--quick"])
    assert rows and all(row.ours_store_ms > 0 and row.baseline_search_ms > 0 for row in rows)
    assert "speed-up" in capsys.readouterr().out
