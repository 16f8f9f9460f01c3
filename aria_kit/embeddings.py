"""Embedders: turning texts into unit-length vectors (lesson 02).

Two ``Embedder`` implementations and one helper:

- ``normalize`` scales each row to length 1, so a dot product *is* the cosine.
- ``WordLlamaEmbedder`` (the default) runs fully offline. WordLlama's wheel
  (~19 MB) ships its 256-d token-embedding table, needs only numpy (no torch),
  loads in ~0.3 s and embeds 1,000 short texts in ~10 ms, which is what a
  Binder session with 1–2 GB of memory and no API key can afford. The
  sentence-transformers models we looked at need torch, which is too heavy.
- ``OpenAIEmbedder`` calls ``/embeddings`` on OpenAI or any OpenAI-compatible
  server through the official SDK, in batches.

This module does not store or search anything (see ``hybrid_memory.py``), and
it never downloads: WordLlama is loaded from the files inside its own package.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from aria_kit.interfaces import Embedder


def normalize(vectors: np.ndarray) -> np.ndarray:
    """Scale every row of ``vectors`` to unit length and return float32.

    A row of zeros (an embedder's answer for a text with no known tokens) has
    no direction, so it stays zero instead of becoming NaN; its cosine with
    anything is then 0.
    """
    vectors = np.asarray(vectors, dtype=np.float64)  # float32 squares of tiny values underflow to 0
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0).astype(np.float32)


@functools.cache
def _load_wordllama() -> Any:
    """Load WordLlama's bundled weights once per process (the model is read-only, so sharing is safe)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    import wordllama
    from wordllama import WordLlama

    # wordllama calls logging.basicConfig(level=INFO) at import time, which would
    # make every library's INFO logs (e.g. each HTTP request) appear in notebooks.
    root.handlers[:] = handlers
    root.setLevel(level)
    package_dir = Path(wordllama.__file__).parent
    try:
        # The default arguments look for the tokenizer in a folder the wheel does
        # not use and then try to download it; the package folder has everything.
        return WordLlama.load(cache_dir=package_dir, disable_download=True)
    except FileNotFoundError as exc:
        raise RuntimeError(
            f"WordLlama's weights were not found inside {package_dir} ({exc}). "
            "Reinstall the pinned version with `pip install -r requirements.txt`; its wheel ships them."
        ) from exc


class WordLlamaEmbedder(Embedder):
    """The offline default: WordLlama's 256-d embeddings, averaged over tokens, unit-normalised."""

    name = "wordllama-256"
    dim = 256

    def __init__(self) -> None:
        self._model = _load_wordllama()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in one call; returns float32 of shape (len(texts), 256)."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalize(self._model.embed(texts, norm=False))


@functools.cache
def default_embedder() -> Embedder:
    """The shared ``WordLlamaEmbedder`` every memory uses unless told otherwise."""
    return WordLlamaEmbedder()


class OpenAIEmbedder(Embedder):
    """Embeddings from OpenAI (or an OpenAI-compatible server) through the ``openai`` SDK.

    ``client`` is an ``openai.OpenAI``; without one, ``aria_kit.openai_provider.make_client()``
    builds it from ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL``. ``dim`` starts as the
    model's documented width (0 when unknown) and is updated to whatever width
    the server actually returns, since compatible servers and shortened models differ.
    """

    KNOWN_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}

    def __init__(self, model: str = "text-embedding-3-small", client: Any = None, batch_size: int = 256) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if client is None:
            from aria_kit.openai_provider import make_client  # imported here so this module never depends on it

            client = make_client()
        self.model = model
        self.name = f"openai/{model}"
        self.dim = self.KNOWN_DIMS.get(model, 0)
        self.batch_size = batch_size
        self._client = client

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in batches of ``batch_size``; rows come back in input order, unit-normalised."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        starts = range(0, len(texts), self.batch_size)
        batches = [self._create(texts[start : start + self.batch_size]) for start in starts]
        widths = {batch.shape[1] for batch in batches}
        if len(widths) != 1:
            raise ValueError(f"the embeddings server returned vectors of different widths {sorted(widths)}")
        vectors = normalize(np.concatenate(batches))
        self.dim = vectors.shape[1]
        return vectors

    def _create(self, batch: list[str]) -> np.ndarray:
        """One request: the batch's vectors as a float32 array, rows in input order."""
        import openai

        from aria_kit.openai_provider import ProviderError, translate_error

        try:
            response = self._client.embeddings.create(model=self.model, input=batch)
            # The API documents that ``index`` gives each vector's input position; honour it, not list order.
            data = sorted(response.data, key=lambda item: item.index)
            rows = np.asarray([item.embedding for item in data], dtype=np.float32)
        except openai.OpenAIError as exc:
            error = translate_error(exc)
        except (AttributeError, TypeError, ValueError, RecursionError):  # a reply of the wrong shape or types
            error = ProviderError(f"The embeddings server sent a reply that is not a list of {self.model!r} vectors. "
                                  "Check that OPENAI_BASE_URL points at an OpenAI-compatible API and that the model "
                                  "is an embedding model.", kind="bad_response")
        else:
            if rows.ndim != 2 or len(rows) != len(batch):
                raise ValueError(f"the embeddings server returned {len(rows)} vectors for {len(batch)} texts")
            return rows
        # Raised outside the except blocks: chaining the SDK's error (`from exc`, or the implicit __context__)
        # would print its text, which can echo the server's "Bearer sk-…", in every traceback.
        raise error
