"""Embedders: turning texts into unit-length vectors (lesson 02).

One ``Embedder`` and one helper:

- ``normalize`` scales each row to length 1, so a dot product *is* the cosine.
- ``WordLlamaEmbedder`` (the default) runs fully offline. WordLlama's wheel
  ships its 256-d token-embedding table and needs only numpy (no torch), which
  is what a Binder session with 1–2 GB of memory and no API key can afford
  (load and embedding times: ``benchmarks/README.md``). The
  sentence-transformers models we looked at need torch, which is too heavy.

Embeddings from a server live in ``openai_embedder.py`` (lesson 08), beside the
provider whose client and error handling they share, so this lesson-02 module
never loads the OpenAI SDK.

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
