"""QdrantMemory: the shared memory contract (embedded in memory and in a local folder) plus what is Qdrant's own.

Embedded mode is Qdrant Edge (Qdrant's engine in-process), offline; a ready
qdrant-client ``client=`` (local mode here) is tested where the server path
matters (two writers, foreign collections). The one test
that speaks to "a server" uses a small fake on 127.0.0.1: it checks the
requests QdrantMemory sends over HTTP (RRF k, prefetches, insert-only writes),
not how a real Qdrant server answers them.
"""

from __future__ import annotations

import importlib.util
import json
import random
import socket
import sys
import threading
from dataclasses import asdict
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("qdrant_client")  # an optional extra: pip install 'aria_kit[qdrant]'
# qdrant-client checks a server's version in a background thread and warns when it cannot; the
# tests below that point at a closed port mean it
pytestmark = pytest.mark.filterwarnings("ignore:Failed to obtain server version:UserWarning")

from memory_contract import DEMO_FACTS, MemoryBackendContract  # noqa: E402
from qdrant_client import QdrantClient  # noqa: E402

from aria_kit.bm25 import B, K1, BM25Index, tokenize  # noqa: E402
from aria_kit.embeddings import default_embedder  # noqa: E402
from aria_kit.fusion import reciprocal_rank_fusion  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.interfaces import Embedder  # noqa: E402
from aria_kit.qdrant_engines import Nearest  # noqa: E402
from aria_kit.qdrant_memory import (  # noqa: E402
    AVGDL, DENSE, MARGIN, SPARSE, SPARSE_SCHEME, QdrantMemory, document_vector, query_vector, term_index,
)

REPO = Path(__file__).resolve().parents[1]
VOCABULARY = "raft paxos alice rust order ddr5 deadline march meeting friday storage engine tree lsm".split()


class TestQdrantMemoryEmbeddedInMemory(MemoryBackendContract):
    def make_memory(self, tmp_path: Path) -> QdrantMemory:
        return QdrantMemory(location=":memory:")


class TestQdrantMemoryEmbeddedOnDisk(MemoryBackendContract):
    def make_memory(self, tmp_path: Path) -> QdrantMemory:
        return QdrantMemory(path=tmp_path / "qdrant")


class TestQdrantMemoryThroughQdrantClient(MemoryBackendContract):
    """The qdrant-client path a server uses, on its local mode: the contract holds there too."""

    def make_memory(self, tmp_path: Path) -> QdrantMemory:
        return QdrantMemory(client=QdrantClient(":memory:"))


def seeded(memory: QdrantMemory | HybridMemory) -> QdrantMemory | HybridMemory:
    memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])
    return memory


# ---------------------------------------------------------------- fusion in the engine


@pytest.mark.parametrize("engine", ["Qdrant Edge", "qdrant-client local mode"])
def test_engine_rrf_with_k_61_equals_the_kits_rrf_with_k_60_on_random_data(engine: str) -> None:
    # The engine's own fused scores (before QdrantMemory re-fuses in float64) against the kit's RRF on the
    # engine's own candidate lists, in the engine's own order of ties
    rng = random.Random(4821)
    for trial in range(4):
        memory = QdrantMemory() if engine == "Qdrant Edge" else QdrantMemory(client=QdrantClient(":memory:"))
        texts = {" ".join(rng.choices(VOCABULARY, k=rng.randint(1, 12))): None for _ in range(rng.randint(5, 60))}
        memory.store_many(list(texts))
        for memory_id in rng.sample([r.id for r in memory.list_all()], 3):
            memory.delete(memory_id)
        for _ in range(5):
            query = " ".join(rng.choices(VOCABULARY, k=rng.randint(1, 4)))
            retrievers = [Nearest(DENSE, memory.embedder.embed([query])[0].tolist()),
                          Nearest(SPARSE, query_vector(tokenize(query)))]
            fused, lists = memory.engine.hybrid(retrievers, len(memory), len(memory), None)
            expected = dict(reciprocal_rank_fusion([[p.id for p in listed] for listed in lists], k=60))
            assert {p.id: p.score for p in fused} == pytest.approx(expected, rel=1e-6), (trial, query)
        memory.close()


def test_cosines_and_vector_ranks_match_numpy_on_the_same_embeddings() -> None:
    memory = seeded(QdrantMemory(location=":memory:"))
    query = "What consensus algorithm does VelocityDB use?"
    hits = memory.search(query, top_k=len(DEMO_FACTS))
    vectors = default_embedder().embed([text for text, _ in DEMO_FACTS])
    cosines = vectors @ default_embedder().embed([query])[0]
    for hit in hits:
        row = int(hit.id[4:]) - 1
        assert hit.cosine == pytest.approx(float(cosines[row]), abs=1e-6)
        assert hit.vector_rank == 1 + sum(c > cosines[row] + 1e-6 for c in cosines)


def test_engine_bm25_equals_bm25_index_when_the_average_length_is_avgdl() -> None:
    rng = random.Random(7)
    length = int(AVGDL)
    assert length == AVGDL, "this reference test needs documents of exactly AVGDL tokens"
    texts = [" ".join(rng.choices(VOCABULARY, k=length)) for _ in range(40)]
    memory = QdrantMemory(location=":memory:")
    memory.store_many(texts)
    reference = BM25Index(k1=K1, b=B)
    for text in texts:
        reference.add(tokenize(text))
    for query in ["raft order", "alice alice rust", "lsm tree storage engine", "paxos"]:
        expected = reference.scores(tokenize(query))
        hits = memory.search(query, top_k=len(texts))
        for hit in hits:
            assert hit.bm25 == pytest.approx(expected[int(hit.id[4:]) - 1], rel=1e-5), query
            assert (hit.keyword_rank is None) == (hit.bm25 == 0.0)


def test_bm25_differs_from_bm25_index_only_by_the_fixed_average_length() -> None:
    qdrant, hybrid = seeded(QdrantMemory(location=":memory:")), seeded(HybridMemory())
    query = "order 4821"
    ours = {h.id: h.bm25 for h in qdrant.search(query, top_k=7)}
    theirs = {h.id: h.bm25 for h in hybrid.search(query, top_k=7)}
    assert {i for i, s in ours.items() if s > 0} == {i for i, s in theirs.items() if s > 0} == {"mem_0007"}
    assert ours["mem_0007"] == pytest.approx(theirs["mem_0007"], rel=0.05)  # the demo facts average 9.7 tokens


def test_hits_beyond_a_cut_candidate_list_still_get_exact_scores_and_no_rank() -> None:
    narrow = seeded(QdrantMemory(location=":memory:", candidates=3))
    wide = seeded(QdrantMemory(location=":memory:"))
    query = "Alice's language preference"
    hits = narrow.search(query, top_k=3)
    full = {h.id: h for h in wide.search(query, top_k=7)}
    assert any(h.vector_rank is None or h.keyword_rank is None for h in hits)  # the case under test happens
    for hit in hits:
        assert hit.cosine == pytest.approx(full[hit.id].cosine, abs=1e-6)
        assert hit.bm25 == pytest.approx(full[hit.id].bm25, rel=1e-6)
        assert hit.vector_rank in (None, full[hit.id].vector_rank) and (hit.vector_rank or 0) <= 3
        assert hit.keyword_rank in (None, full[hit.id].keyword_rank) and (hit.keyword_rank or 0) <= 3


# ---------------------------------------------------------------- sparse vectors


def test_document_vector_holds_bm25_term_frequency_saturation_per_term() -> None:
    tokens = tokenize("Raft, raft and more Raft: the Raft log")
    vector = document_vector(tokens)
    assert vector.indices == sorted(vector.indices) and len(set(vector.indices)) == len(vector.indices)
    weights = dict(zip(vector.indices, vector.values))
    by_term = {term: weights[document_vector([term]).indices[0]] for term in set(tokens)}
    norm = K1 * (1 - B + B * len(tokens) / AVGDL)
    assert by_term["raft"] == pytest.approx(4 * (K1 + 1) / (4 + norm))
    assert by_term["log"] == pytest.approx(1 * (K1 + 1) / (1 + norm))


def test_query_vector_counts_repeated_words_like_bm25() -> None:
    vector = query_vector(tokenize("alice Alice rust"))
    assert sorted(vector.values) == [1.0, 2.0]


def test_term_indices_are_pinned_31_bit_and_colliding_tokens_merge() -> None:
    # pinned values: changing the hash would silently orphan every collection already written
    assert term_index("raft") == 1302884120 and term_index("café") == 414007989
    assert all(0 <= i < 2**31 for i in document_vector(tokenize(" ".join(VOCABULARY))).indices)
    collided = document_vector(["plumless", "buckeroo"])  # a known CRC-32 collision
    assert len(collided.indices) == 1
    assert collided.values[0] == pytest.approx(2 * (K1 + 1) / (2 + K1 * (1 - B + B * 2 / AVGDL)))


# ---------------------------------------------------------------- persistence, ids, settings


def test_reopening_a_local_folder_restores_memories_and_search_results(tmp_path: Path) -> None:
    memory = seeded(QdrantMemory(path=tmp_path / "q"))
    memory.delete(memory.store("a memory deleted before closing"))
    records, hits = memory.list_all(), memory.search("order 4821", top_k=4)
    memory.close()
    reopened = QdrantMemory(path=tmp_path / "q")
    assert reopened.list_all() == records
    again = reopened.search("order 4821", top_k=4)
    assert [(h.id, h.score, h.vector_rank, h.keyword_rank) for h in again] == [
        (h.id, h.score, h.vector_rank, h.keyword_rank) for h in hits]
    # the memory deleted before closing left the IDF when it was deleted; reopening must not change any score
    assert [h.cosine for h in again] == pytest.approx([h.cosine for h in hits], abs=1e-6)
    assert [h.bm25 for h in again] == pytest.approx([h.bm25 for h in hits], rel=1e-6)
    assert reopened.store("the next memory") == "mem_0009"  # mem_0008 was deleted: never handed out again
    reopened.close()


def test_a_collection_written_with_another_embedder_is_refused(tmp_path: Path) -> None:
    class Tiny(Embedder):
        name, dim = "tiny-4", 4

        def embed(self, texts: list[str]) -> np.ndarray:
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    seeded(QdrantMemory(path=tmp_path / "q")).close()
    with pytest.raises(ValueError, match="same embedder, or pass another collection"):
        QdrantMemory(Tiny(), path=tmp_path / "q")
    reopened = QdrantMemory(path=tmp_path / "q")  # the refused open released the folder's lock
    assert len(reopened) == len(DEMO_FACTS)
    reopened.close()
    other = QdrantMemory(Tiny(), path=tmp_path / "q2", collection="tiny")  # another folder or collection is fine
    assert other.store("fine") == "mem_0001"
    other.close()


def test_a_collection_not_made_by_qdrant_memory_is_refused() -> None:
    from qdrant_client import models

    client = QdrantClient(":memory:")
    client.create_collection("theirs", vectors_config=models.VectorParams(size=4, distance=models.Distance.DOT))
    with pytest.raises(ValueError, match="not made by QdrantMemory"):
        QdrantMemory(client=client, collection="theirs")


def test_two_writers_on_one_collection_never_overwrite_each_other() -> None:
    client = QdrantClient(":memory:")
    first, second = QdrantMemory(client=client), QdrantMemory(client=client)
    assert first.store_many(["one", "two", "three"]) == ["mem_0001", "mem_0002", "mem_0003"]
    # `second` still believes mem_0001 is free: insert-only writes and the writer tokens say otherwise
    assert second.store_many(["four", "five"]) == ["mem_0004", "mem_0005"]
    assert [r.text for r in first.list_all()] == ["one", "two", "three", "four", "five"]


# ---------------------------------------------------------------- where the memory lives


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_server_is_reported_with_what_to_do() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(ConnectionError, match="docs/qdrant.md") as caught:
        QdrantMemory(url=url)
    assert url in str(caught.value)


def test_aria_qdrant_url_is_used_only_when_no_location_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("ARIA_QDRANT_URL", url)
    with pytest.raises(ConnectionError, match="unset ARIA_QDRANT_URL"):
        QdrantMemory()
    assert QdrantMemory(location=":memory:").store("embedded after all") == "mem_0001"
    with pytest.raises(ValueError, match="at most one of"):
        QdrantMemory(location=":memory:", url=url)
    with pytest.raises(ValueError, match="at most one of"):
        QdrantMemory(client=QdrantClient(":memory:"), path="somewhere")


class FakeQdrant(BaseHTTPRequestHandler):
    """Just enough of Qdrant's REST API for QdrantMemory: a dict of points; every request is logged."""

    points: dict[int, dict[str, Any]] = {}
    log: list[tuple[str, str, Any]] = []
    api_key: str | None = None  # when set, requests without it get 401 as from a real server

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def _answer(self, result: Any) -> None:
        self._send({"result": result, "status": "ok", "time": 0.0})

    def _send(self, reply: dict[str, Any]) -> None:
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _request(self, method: str) -> tuple[str, Any]:
        size = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(size)) if size else None
        path = self.path.split("?")[0]
        self.log.append((method, path, body))
        return path, body

    def do_GET(self) -> None:
        path, _ = self._request("GET")
        if self.api_key and self.headers.get("api-key") != self.api_key and path != "/":
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path.endswith("/exists"):
            self._answer({"exists": bool(self.points)})
        else:  # the version check answers without the usual envelope
            self._send({"title": "qdrant - vector search engine", "version": "1.20.0"})

    def do_PUT(self) -> None:
        path, body = self._request("PUT")
        for point in body.get("points", []):
            if body.get("update_mode") != "insert_only" or point["id"] not in self.points:
                self.points[point["id"]] = point
        self._answer({"operation_id": 0, "status": "completed"} if path.endswith("/points") else True)

    def do_POST(self) -> None:
        path, body = self._request("POST")
        if path.endswith("/points"):  # retrieve
            found = [self.points[i] for i in body["ids"] if i in self.points]
            self._answer([{"id": p["id"], "payload": p.get("payload", {})} for p in found])
        elif path.endswith("/query/batch"):
            self._answer([{"points": []} for _ in body["searches"]])
        else:  # set_payload
            for i in body.get("points", []):
                self.points[i]["payload"].update(body["payload"])
            self._answer({"operation_id": 0, "status": "completed"})


@pytest.fixture
def fake_server() -> Iterator[str]:
    FakeQdrant.points, FakeQdrant.log, FakeQdrant.api_key = {}, [], None
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeQdrant)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_over_http_it_sends_rrf_k_61_two_prefetches_and_insert_only_writes(fake_server: str) -> None:
    memory = QdrantMemory(url=fake_server, candidates=50)
    assert memory.store("Order #4821 was placed by Alice.") == "mem_0001"
    assert memory.search("order 4821", top_k=2) == []  # the fake finds nothing; we look at what was asked
    creates = [body for method, path, body in FakeQdrant.log if method == "PUT" and path.endswith("/aria_memory")]
    assert set(creates[0]["vectors"]) == {"dense"} and creates[0]["sparse_vectors"]["bm25"]["modifier"] == "idf"
    writes = [body for method, path, body in FakeQdrant.log if method == "PUT" and path.endswith("/points")]
    assert all(body["update_mode"] == "insert_only" for body in writes)
    assert FakeQdrant.points[0]["payload"]["sparse"] == SPARSE_SCHEME
    (batch,) = [body for _, path, body in FakeQdrant.log if path.endswith("/query/batch")]
    fused, dense, sparse = batch["searches"]
    assert fused["query"] == {"rrf": {"k": 61}} and fused["limit"] == 2 + MARGIN  # cut to top_k after re-scoring
    assert [(p["using"], p["limit"]) for p in fused["prefetch"]] == [("dense", 50), ("bm25", 50)]
    assert fused["prefetch"][1]["query"] == asdict(query_vector(tokenize("order 4821")))
    assert (dense["using"], sparse["using"]) == ("dense", "bm25")


@pytest.mark.filterwarnings("ignore:Api key is used with an insecure connection")  # it is: a test on 127.0.0.1
def test_a_refused_api_key_is_reported_with_what_to_do(fake_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    FakeQdrant.api_key = "right"
    with pytest.raises(PermissionError, match="ARIA_QDRANT_API_KEY"):
        QdrantMemory(url=fake_server, api_key="wrong")
    monkeypatch.setenv("ARIA_QDRANT_API_KEY", "right")
    assert QdrantMemory(url=fake_server).store("let in") == "mem_0001"


# ---------------------------------------------------------------- the benchmark cannot rot


def test_benchmark_runs_in_quick_mode(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_qdrant", REPO / "benchmarks" / "bench_qdrant.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # @dataclass looks its module up there
    spec.loader.exec_module(bench)
    rows = bench.main(["--quick"])
    assert rows and all(row.search_ms > 0 for row in rows)
    assert "QdrantMemory" in capsys.readouterr().out
