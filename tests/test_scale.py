"""Memory at scale: bulk stores in steps (atomic, quiet when nobody watches) and the scale benchmark's engines."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from aria_kit import hybrid_memory
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder

REPO = Path(__file__).resolve().parents[1]


class FailingOnThirdCall(Embedder):
    """WordLlama, until the third call: an embedding server that dies halfway through a bulk store."""

    name, dim = "wordllama-256", 256

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if self.calls == 3:
            raise ConnectionError("embedding server went away")
        return default_embedder().embed(texts)


def test_a_bulk_store_that_fails_halfway_stores_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hybrid_memory, "BATCH", 10)
    memory = HybridMemory(embedder=FailingOnThirdCall())
    first = memory.store("Alice likes green tea.")  # call 1 (the constructor does not embed: dim is known)
    with pytest.raises(ConnectionError):
        memory.store_many([f"note {i}" for i in range(25)])  # steps of 10: calls 2 and 3, which fails
    assert [r.id for r in memory.list_all()] == [first] and len(memory) == 1
    assert memory.store("Bob prefers Go.") == "mem_0002"


def test_bulk_stores_in_steps_give_the_same_memory_as_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"note {i} about {word}" for i, word in enumerate(["Raft", "Rust", "orders", "tea"] * 30)]
    whole = HybridMemory()
    whole.store_many(texts)
    monkeypatch.setattr(hybrid_memory, "BATCH", 7)
    stepped = HybridMemory()
    stepped.store_many(texts)
    for query in ("Raft", "note 17", "tea orders"):
        assert stepped.search(query, top_k=10) == whole.search(query, top_k=10)


def test_a_big_bulk_store_prints_no_progress_when_stderr_is_not_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(hybrid_memory, "BATCH", 50)
    monkeypatch.setattr(hybrid_memory, "PROGRESS_FROM", 100)  # the bar's threshold, lowered to keep this fast
    memory = HybridMemory()
    memory.store_many([f"note {i}" for i in range(300)])
    assert len(memory) == 300
    assert capfd.readouterr().err == ""  # captured output is not a TTY: tqdm's disable=None switches it off


def test_the_scale_benchmark_engines_run_at_a_small_size(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_scale", REPO / "benchmarks" / "bench_scale.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script adds benchmarks/ to sys.path
    spec.loader.exec_module(bench)
    for engine in ("hybrid", "bm25-ours", "bm25s", "edge-no-hnsw"):
        result = bench.one(engine, 300, 12)
        assert result["engine"] == engine and result["ingest_s"] > 0 and 0 < result["p50_ms"] <= result["p99_ms"]
