"""QdrantMemory embedded on Qdrant Edge: same rankings as its like-for-like HybridMemory, a folder that
survives closing and crashing, one opener at a time, and clear errors for folders it did not write.

The shared memory contract runs on Edge in ``test_qdrant_memory.py``; this file is what is Edge's own.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("qdrant_edge")  # an optional extra: pip install 'aria_kit[qdrant]'

import qdrant_edge as qe  # noqa: E402

from aria_kit.bm25 import STOPWORDS  # noqa: E402
from aria_kit.demo_data import CONVERSATION, DEMO_FACTS, SHOWDOWN_QUERIES, seed_memory  # noqa: E402
from aria_kit.fusion import RRF  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.qdrant_engines import EdgeEngine  # noqa: E402
from aria_kit.qdrant_memory import AVGDL, QdrantMemory  # noqa: E402

WORDS = ("raft paxos alice rust order ddr5 deadline march meeting friday storage engine tree lsm btree "
         "replica leader vote term log commit index snapshot quorum shard").split()


def like_for_like() -> HybridMemory:
    """The HybridMemory set-up QdrantMemory reproduces: RRF with k = 60, every query word kept as written."""
    return HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)


def ranking(memory: QdrantMemory | HybridMemory, query: str, top_k: int) -> list[tuple]:
    return [(h.id, h.score, h.vector_rank, h.keyword_rank) for h in memory.search(query, top_k=top_k)]


def test_qdrant_memory_embedded_runs_on_qdrant_edge() -> None:
    memory = QdrantMemory()
    assert isinstance(memory.engine, EdgeEngine) and "Qdrant Edge" in repr(memory)
    memory.close()


def test_rankings_equal_hybrid_memory_with_rrf_60_on_the_demo_data() -> None:
    qdrant, hybrid = QdrantMemory(), like_for_like()
    seed_memory(qdrant), seed_memory(hybrid)
    for query in SHOWDOWN_QUERIES + CONVERSATION:
        assert ranking(qdrant, query, len(DEMO_FACTS)) == ranking(hybrid, query, len(DEMO_FACTS)), query
        assert ranking(qdrant, query, 3) == ranking(hybrid, query, 3), query
    qdrant.close()


def test_rankings_equal_hybrid_memory_with_rrf_60_on_random_corpora_with_deletes() -> None:
    # Documents of 1..19 tokens average exactly AVGDL, so the engine's BM25 is BM25Index's; distinct
    # lengths make BM25 ties (ordered by each engine its own way) all but impossible.
    assert AVGDL == 10
    rng = random.Random(2024)
    for trial in range(3):
        texts = [" ".join(rng.choices(WORDS, k=length)) for length in rng.sample(range(1, 20), 19)]
        qdrant, hybrid = QdrantMemory(), like_for_like()
        assert qdrant.store_many(texts) == hybrid.store_many(texts)
        for query in [" ".join(rng.choices(WORDS, k=rng.randint(1, 4))) for _ in range(6)]:
            for top_k in (3, 19):
                assert ranking(qdrant, query, top_k) == ranking(hybrid, query, top_k), (trial, query, top_k)
        # delete two memories whose lengths average AVGDL: the IDF must forget them at once, as BM25Index does
        by_length = {len(text.split()): f"mem_{i:04d}" for i, text in enumerate(texts, start=1)}
        gap = rng.randint(1, 9)
        for memory in (qdrant, hybrid):
            assert memory.delete(by_length[10 - gap]) and memory.delete(by_length[10 + gap])
        for query in [" ".join(rng.choices(WORDS, k=rng.randint(1, 4))) for _ in range(6)]:
            assert ranking(qdrant, query, 17) == ranking(hybrid, query, 17), (trial, "after deletes", query)
        qdrant.close()


def test_with_stop_words_and_stems_rankings_equal_hybrid_memory_with_rrf_60_and_its_default_keyword_side() -> None:
    inflected = ("store stored storing stores meeting meetings met replica replicas replicated vote votes voting "
                 "commit commits committed").split()
    rng = random.Random(7)  # lengths 1..19 average AVGDL, as in the test above
    vocabulary = WORDS + inflected + ["the", "what", "was"]  # stop words too: memories keep theirs, queries not
    texts = [" ".join(rng.choices(vocabulary, k=length)) for length in rng.sample(range(1, 20), 19)]
    qdrant, hybrid = QdrantMemory(stopwords=STOPWORDS, stemming=True), HybridMemory(fusion=RRF(60))
    assert qdrant.stemming and hybrid.stemming and qdrant.stopwords == hybrid.stopwords
    assert qdrant.store_many(texts) == hybrid.store_many(texts)
    queries = ["what was stored", "who votes on the commits", "which replicated meeting"]
    queries += [" ".join(rng.choices(vocabulary, k=rng.randint(1, 4))) for _ in range(8)]
    for query in queries:
        for top_k in (3, 19):
            assert ranking(qdrant, query, top_k) == ranking(hybrid, query, top_k), (query, top_k)
    words = QdrantMemory()  # the default matches words as written: "stored" alone finds no "storing"
    words.store_many(["the backups were stored"])
    assert words.search("storing", top_k=1)[0].keyword_rank is None
    assert qdrant.search("storing", top_k=1)[0].bm25 > 0
    qdrant.close(), words.close()


def test_a_folder_written_with_stems_is_refused_to_a_memory_that_matches_words(tmp_path: Path) -> None:
    QdrantMemory(path=tmp_path, stemming=True).close()
    with pytest.raises(ValueError, match="other settings"):
        QdrantMemory(path=tmp_path)
    QdrantMemory(path=tmp_path, stemming=True).close()  # refused, not changed: it opens as it was written


def test_reopening_a_folder_keeps_every_memory_and_never_reuses_a_number(tmp_path: Path) -> None:
    memory = QdrantMemory(path=tmp_path)
    seed_memory(memory)
    newest = memory.store("the newest memory, deleted before closing")
    memory.delete(newest)
    before = memory.list_all()
    memory.close()
    reopened = QdrantMemory(path=tmp_path)
    assert reopened.list_all() == before and len(reopened) == len(DEMO_FACTS)
    assert newest == "mem_0008" and reopened.store("after reopening") == "mem_0009"
    reopened.close()
    again = QdrantMemory(path=tmp_path)
    assert again.store_many(["one", "two"]) == ["mem_0010", "mem_0011"]
    again.close()


def test_a_process_that_dies_without_closing_loses_nothing_it_stored(tmp_path: Path) -> None:
    # os._exit skips close(), flush and every finaliser: what survives is Edge's write-ahead log
    code = ("import os, sys\nfrom aria_kit import QdrantMemory\n"
            "memory = QdrantMemory(path=sys.argv[1])\n"
            "memory.store_many(['stored before the crash', 'this one too'])\n"
            "memory.supersede('mem_0001', 'stored before the crash, corrected')\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=120)
    memory = QdrantMemory(path=tmp_path)
    assert [(r.id, r.text, r.superseded_by) for r in memory.list_all()] == [
        ("mem_0001", "stored before the crash", "mem_0003"), ("mem_0002", "this one too", None),
        ("mem_0003", "stored before the crash, corrected", None)]
    assert memory.store("after the crash") == "mem_0004"
    memory.close()


def test_a_folder_open_elsewhere_is_refused_with_what_to_do_until_it_is_closed(tmp_path: Path) -> None:
    first = QdrantMemory(path=tmp_path)
    first.store("held open")
    with pytest.raises(RuntimeError, match=r"open in another QdrantMemory .* close that one first"):
        QdrantMemory(path=tmp_path)  # Edge locks the folder's write-ahead log
    code = ("import sys\nfrom aria_kit import QdrantMemory\n"
            "try:\n    QdrantMemory(path=sys.argv[1])\nexcept RuntimeError as exc:\n    print(exc)\n")
    other = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert "open in another QdrantMemory" in other.stdout, other.stderr
    assert first.list_all()[0].text == "held open"  # the refused opens changed nothing
    first.close()
    second = QdrantMemory(path=tmp_path)
    assert [r.text for r in second.list_all()] == ["held open"]
    second.close()


def test_a_closed_memory_says_so_when_used_and_closing_twice_is_fine(tmp_path: Path) -> None:
    memory = QdrantMemory(path=tmp_path)
    memory.store("kept")
    memory.close()
    memory.close()
    for use in (lambda: memory.store("lost?"), lambda: memory.search("kept"), memory.list_all, lambda: len(memory)):
        with pytest.raises(RuntimeError, match="was closed; open it again"):
            use()
    reopened = QdrantMemory(path=tmp_path)
    assert [r.text for r in reopened.list_all()] == ["kept"]
    reopened.close()


@pytest.mark.parametrize("name", ["", "..", "a/b", "../escape"])
def test_a_collection_name_that_is_not_a_plain_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="use a plain name"):
        QdrantMemory(path=tmp_path / "memory", collection=name)
    assert not (tmp_path / "escape").exists()


def test_in_memory_mode_removes_its_temporary_folder_on_close() -> None:
    memory = QdrantMemory(location=":memory:")
    memory.store("gone with the folder")
    folder = memory.engine.folder
    assert folder.exists()
    memory.close()
    assert not folder.parent.exists()


def test_a_shard_not_made_by_qdrant_memory_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    shard = qe.EdgeShard.create(str(tmp_path / "aria_memory"), qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=256, distance=qe.Distance.Cosine)}))
    shard.update(qe.UpdateOperation.upsert_points([qe.Point(7, {"dense": [1.0] * 256}, {"theirs": True})]))
    shard.close()
    with pytest.raises(ValueError, match="not made by QdrantMemory"):
        QdrantMemory(path=tmp_path)
    shard = qe.EdgeShard.load(str(tmp_path / "aria_memory"))  # the refused open released the folder
    assert [(r.id, r.payload) for r in shard.retrieve([0, 7], True, False)] == [(7, {"theirs": True})]
    shard.close()


def test_a_folder_written_by_qdrant_client_local_mode_is_refused_and_still_readable_through_it(
        tmp_path: Path) -> None:
    qdrant_client = pytest.importorskip("qdrant_client")
    old = QdrantMemory(client=qdrant_client.QdrantClient(path=str(tmp_path)))  # how path= was stored before Edge
    seed_memory(old)
    old.close()
    with pytest.raises(ValueError, match="written by qdrant-client's local mode"):
        QdrantMemory(path=tmp_path)
    reader = QdrantMemory(client=qdrant_client.QdrantClient(path=str(tmp_path)))
    assert [(r.text, r.category) for r in reader.list_all()] == DEMO_FACTS
    reader.close()
