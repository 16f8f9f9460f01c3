"""OpenAIEmbedder: embeddings from OpenAI or any OpenAI-compatible server (lessons 02 and 08).

Calls ``/embeddings`` through the official SDK, in batches, with the client and
the key-free error translation of ``openai_provider.py``. Opt-in: a memory file
records which embedder wrote it and refuses another, so the offline
``WordLlamaEmbedder`` (``embeddings.py``) stays the default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import openai

from aria_kit.embeddings import normalize
from aria_kit.interfaces import Embedder
from aria_kit.openai_provider import ProviderError, make_client, translate_error


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
