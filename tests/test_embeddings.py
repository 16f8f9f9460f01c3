"""Embedders: normalisation, the offline WordLlama default and the OpenAI embedder's batching."""

from __future__ import annotations

import logging
import socket
from types import SimpleNamespace
from typing import Any

import numpy as np
import openai
import pytest

from aria_kit import embeddings
from aria_kit.embeddings import WordLlamaEmbedder, default_embedder, normalize
from aria_kit.openai_embedder import OpenAIEmbedder

DEMO_TEXTS = [
    "Alice's favourite programming language is Rust.",
    "VelocityDB uses the Raft consensus algorithm for replication.",
    "Alice has a meeting with the infrastructure team on Friday at 2 PM.",
    "Order #4821 was placed by Alice for 32 GB of DDR5 RAM modules.",
]


# ---------------------------------------------------------------- normalize


def test_normalize_scales_rows_to_unit_length_and_keeps_direction() -> None:
    vectors = np.array([[3.0, 4.0], [0.0, -2.0], [1e-30, 1e-30]])
    out = normalize(vectors)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(out[0], [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(out[1], [0.0, -1.0])


def test_normalize_leaves_zero_rows_zero_instead_of_nan() -> None:
    out = normalize(np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]))
    assert np.isfinite(out).all()
    assert out[0].tolist() == [0.0, 0.0, 0.0] and out[1].tolist() == [1.0, 0.0, 0.0]


def test_normalize_of_no_rows_is_no_rows() -> None:
    assert normalize(np.zeros((0, 8))).shape == (0, 8)


# ---------------------------------------------------------------- WordLlama


def test_wordllama_returns_unit_float32_rows_of_width_256() -> None:
    vectors = WordLlamaEmbedder().embed(DEMO_TEXTS)
    assert vectors.shape == (len(DEMO_TEXTS), 256) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_wordllama_of_nothing_is_an_empty_matrix() -> None:
    vectors = WordLlamaEmbedder().embed([])
    assert vectors.shape == (0, 256) and vectors.dtype == np.float32


def test_wordllama_is_deterministic_and_batch_independent() -> None:
    embedder = WordLlamaEmbedder()
    batch = embedder.embed(DEMO_TEXTS)
    one_by_one = np.vstack([embedder.embed([text]) for text in DEMO_TEXTS])
    np.testing.assert_allclose(batch, one_by_one, atol=1e-6)
    np.testing.assert_array_equal(batch, embedder.embed(DEMO_TEXTS))


@pytest.mark.parametrize(
    ("query", "expected"),
    [("memory purchase", 3), ("which coding language does she like", 0), ("how do replicas agree", 1)],
)
def test_wordllama_ranks_related_texts_first(query: str, expected: int) -> None:
    embedder = default_embedder()
    cosines = embedder.embed(DEMO_TEXTS) @ embedder.embed([query])[0]
    assert int(np.argmax(cosines)) == expected


def test_wordllama_is_loaded_once_and_shared() -> None:
    assert WordLlamaEmbedder()._model is WordLlamaEmbedder()._model
    assert default_embedder() is default_embedder()
    assert default_embedder().name == "wordllama-256" and default_embedder().dim == 256


def test_wordllama_loads_without_the_network_and_leaves_logging_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("WordLlama tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    embeddings._load_wordllama.cache_clear()
    try:
        assert WordLlamaEmbedder().embed(["offline"]).shape == (1, 256)
    finally:
        embeddings._load_wordllama.cache_clear()
    assert (root.handlers, root.level) == (handlers, level)


# ---------------------------------------------------------------- OpenAI embedder with a fake client


class FakeEmbeddingsClient:
    """Mimics ``client.embeddings.create``: vectors [len(text), 1, 0], returned in reverse order."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.error = error
        self.embeddings = SimpleNamespace(create=self.create)

    def create(self, *, model: str, input: list[str]) -> Any:
        self.calls.append({"model": model, "input": list(input)})
        if self.error is not None:
            raise self.error
        data = [SimpleNamespace(index=i, embedding=[float(len(t)), 1.0, 0.0]) for i, t in enumerate(input)]
        return SimpleNamespace(data=data[::-1])


def test_openai_embedder_sends_batches_and_returns_rows_in_input_order() -> None:
    client = FakeEmbeddingsClient()
    embedder = OpenAIEmbedder(model="text-embedding-3-small", client=client, batch_size=2)
    texts = ["a", "bbb", "cc", "dddd", "e"]
    vectors = embedder.embed(texts)
    assert [call["input"] for call in client.calls] == [["a", "bbb"], ["cc", "dddd"], ["e"]]
    assert {call["model"] for call in client.calls} == {"text-embedding-3-small"}
    expected = normalize(np.array([[len(t), 1.0, 0.0] for t in texts]))
    np.testing.assert_allclose(vectors, expected, rtol=1e-6)
    assert vectors.dtype == np.float32 and embedder.dim == 3  # the width the server really returned
    assert embedder.name == "openai/text-embedding-3-small"


def test_openai_embedder_knows_documented_widths_and_sends_nothing_for_no_texts() -> None:
    client = FakeEmbeddingsClient()
    embedder = OpenAIEmbedder(model="text-embedding-3-large", client=client)
    assert embedder.dim == 3072
    assert embedder.embed([]).shape == (0, 3072)
    assert client.calls == []


def test_openai_embedder_turns_sdk_errors_into_provider_errors() -> None:
    providers = pytest.importorskip("aria_kit.openai_provider")
    error = openai.APIConnectionError(request=None)  # type: ignore[arg-type]
    with pytest.raises(providers.ProviderError):
        OpenAIEmbedder(client=FakeEmbeddingsClient(error=error)).embed(["hello"])


def test_openai_embedder_rejects_a_batch_size_below_one() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        OpenAIEmbedder(client=FakeEmbeddingsClient(), batch_size=0)
