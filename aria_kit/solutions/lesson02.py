"""Worked solutions for lesson 02 (embeddings and vector search).

Open this when you are stuck on exercise 2.1 or 2.2. Cosine similarity is the
dot product of two vectors divided by both their lengths; once every vector is
scaled to length 1 (what ``aria_kit.embeddings.normalize`` does), it *is* the dot
product, so searching a whole matrix is one matrix–vector product and a sort.
"""

from __future__ import annotations

import numpy as np


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The cosine of the angle between ``a`` and ``b``: 1 same direction, 0 unrelated, −1 opposite."""
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def top_k_by_cosine(query: np.ndarray, matrix: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` rows of ``matrix`` most similar to ``query``, best first."""
    rows = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)  # unit rows: dot product = cosine
    scores = rows @ (query / np.linalg.norm(query))
    return [int(i) for i in np.argsort(-scores)[:k]]
