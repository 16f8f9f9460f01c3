"""Exercise checks for lesson 02 (embeddings and vector search): cosine similarity, then top-k search.

``check_cosine(cosine)`` compares the learner's ``cosine(a, b)`` with numpy's
``a·b / (|a| |b|)`` on vectors that are *not* unit length (so a bare dot product
fails) and on the three landmark cases: same direction 1, orthogonal 0,
opposite −1. ``check_top_k(top_k_by_cosine)`` compares the learner's search
over a matrix of embeddings with an ``argsort`` reference, on random vectors
and on the real demo facts. Neither check cares how the code is written.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.exercises import check

SOLUTION = "lesson02"


def _reference_cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def _cosine_test(cosine: Callable[[np.ndarray, np.ndarray], float]) -> None:
    a, b = np.array([3.0, 4.0]), np.array([6.0, 8.0])
    got = cosine(a, b)  # a stub raises NotImplementedError here: "not done yet"
    assert np.isscalar(got) or np.ndim(got) == 0, f"cosine should return one number, got {type(got).__name__}"
    assert abs(got - 1.0) < 1e-6, (f"cosine([3, 4], [6, 8]) should be 1.0 (same direction, different lengths), "
                                   f"got {float(got):.4f}: divide the dot product by both lengths")
    landmarks = [([1.0, 0.0], [0.0, 2.0], 0.0, "orthogonal"), ([1.0, 2.0], [-2.0, -4.0], -1.0, "opposite")]
    for x, y, expected, what in landmarks:
        got = float(cosine(np.array(x), np.array(y)))
        assert abs(got - expected) < 1e-6, f"cosine({x}, {y}) should be {expected} ({what} vectors), got {got:.4f}"
    rng = np.random.default_rng(2)
    for _ in range(20):
        x, y = rng.normal(size=8) * rng.uniform(0.1, 10), rng.normal(size=8) * rng.uniform(0.1, 10)
        expected, got = _reference_cosine(x, y), float(cosine(x, y))
        assert abs(got - expected) < 1e-6, f"for two random 8-d vectors expected {expected:.4f}, got {got:.4f}"


def _top_k_test(top_k_by_cosine: Callable[[np.ndarray, np.ndarray, int], list[int]]) -> None:
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(30, 16))  # rows of different lengths: only the direction may count
    query = rng.normal(size=16)
    got = top_k_by_cosine(query, matrix, 5)
    cosines = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    expected = [int(i) for i in np.argsort(-cosines)[:5]]
    got = [int(i) for i in got]
    assert len(got) == 5, f"asked for k=5 rows, got {len(got)}"
    assert got != [int(i) for i in np.argsort(cosines)[:5]], (
        "you returned the least similar rows; the best match comes first")
    if got != expected and sorted(got) == sorted(np.argsort(-(matrix @ query))[:5].tolist()):
        raise AssertionError("you ranked by dot product; normalise the rows (or divide by their lengths) first")
    assert got == expected, f"expected rows {expected} (best first), got {got}"
    assert [int(i) for i in top_k_by_cosine(query, matrix, 40)] == [int(i) for i in np.argsort(-cosines)], (
        "with k larger than the number of rows, return every row, best first")

    from aria_kit.demo_data import DEMO_FACTS
    from aria_kit.embeddings import default_embedder

    embedder = default_embedder()
    facts = embedder.embed([text for text, _ in DEMO_FACTS])
    top = [int(i) for i in top_k_by_cosine(embedder.embed(["which coding language does she like"])[0], facts, 1)]
    assert top == [0], f"on the demo facts, 'which coding language does she like' should find row 0 (Rust), got {top}"


def check_cosine(cosine: Callable[[np.ndarray, np.ndarray], float]) -> bool:
    """Check ``cosine(a, b)``: the cosine of the angle between two 1-d vectors of any length."""
    return check("Exercise 2.1 (cosine similarity)", lambda: _cosine_test(cosine), SOLUTION)


def check_top_k(top_k_by_cosine: Callable[[np.ndarray, np.ndarray, int], list[int]]) -> bool:
    """Check ``top_k_by_cosine(query, matrix, k)``: indices of the k rows most similar to ``query``, best first."""
    return check("Exercise 2.2 (top-k vector search)", lambda: _top_k_test(top_k_by_cosine), SOLUTION)
