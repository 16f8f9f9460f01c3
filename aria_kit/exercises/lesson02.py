"""Exercise checks for lesson 02 (embeddings): unit length, cosine similarity, top-k search, and the stretch.

``check_unit_length(to_unit_length)`` compares the learner's row normalisation with
``aria_kit.embeddings.normalize``, including a row of zeros (which must stay zero,
not become NaN) and a matrix whose rows have very different lengths (so dividing
by the whole matrix's norm fails). ``check_cosine(cosine)`` compares with numpy's
``a·b / (|a| |b|)`` on vectors that are *not* unit length (so a bare dot product
fails), on the landmarks 1, 0, −1, and on a zero vector, whose cosine with
anything is 0 as in the kit. ``check_top_k(top_k_by_cosine)`` compares with a
stable ``argsort``: best first, equal scores in row order (so every run gives the
same answer), every row when ``k`` exceeds them. ``check_order_aware_embedder``
checks the stretch task. Checks never care how the code is written.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.embeddings import normalize
from aria_kit.exercises import check
from aria_kit.exercises.quiz import Question, Quiz
from aria_kit.interfaces import Embedder

SOLUTION = "lesson02"


def _unit_length_test(to_unit_length: Callable[[np.ndarray], np.ndarray]) -> None:
    raw = np.array([[3.0, 4.0], [0.5, 0.0], [0.0, 0.0], [-2.0, 2.0]])
    got = to_unit_length(raw.copy())  # a stub raises NotImplementedError here: "not done yet"
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == raw.shape, f"the result should have the shape of the input {raw.shape}, got {got.shape}"
    assert not np.isnan(got).any(), ("a row of zeros became NaN: it has no direction, so leave it as zeros "
                                     "(divide only where the length is above 0)")
    assert np.allclose(got[0], [0.6, 0.8]), (
        f"[3, 4] should become [0.6, 0.8], got {np.round(got[0], 4).tolist()}: divide each row by its own length, "
        "the square root of the sum of its squares")
    assert np.allclose(got, normalize(raw), atol=1e-6), (
        f"expected {np.round(normalize(raw), 4).tolist()}, got {np.round(got, 4).tolist()}")
    rng = np.random.default_rng(1)
    matrix = rng.normal(size=(50, 16)) * rng.uniform(0.01, 100, size=(50, 1))
    assert np.allclose(to_unit_length(matrix.copy()), normalize(matrix), atol=1e-6), (
        "on 50 random rows of very different lengths your rows differ from normalize()'s")


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
    with np.errstate(all="ignore"):  # a learner's 0/0 should fail this check, not print a warning
        zero = float(cosine(np.zeros(3), np.array([1.0, 2.0, 3.0])))
    assert zero == 0.0, (f"the cosine of a zero vector with anything should be 0 (no direction, no similarity, as "
                         f"normalize() treats it), got {zero}")


def _top_k_test(top_k_by_cosine: Callable[[np.ndarray, np.ndarray, int], list[int]]) -> None:
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(30, 16))  # rows of different lengths: only the direction may count
    query = rng.normal(size=16)
    got = top_k_by_cosine(query, matrix, 5)  # a stub raises NotImplementedError here: "not done yet"
    cosines = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    expected = [int(i) for i in np.argsort(-cosines, kind="stable")[:5]]
    got = [int(i) for i in got]
    assert len(got) == 5, f"asked for k=5 rows, got {len(got)}"
    assert got != [int(i) for i in np.argsort(cosines)[:5]], (
        "you returned the least similar rows; the best match comes first")
    if got != expected and got == [int(i) for i in np.argsort(-(matrix @ query))[:5]]:
        raise AssertionError("you ranked by dot product; normalise the rows (or divide by their lengths) first")
    assert got == expected, f"expected rows {expected} (best first), got {got}"
    everything = [int(i) for i in top_k_by_cosine(query, matrix, 40)]
    assert everything == [int(i) for i in np.argsort(-cosines, kind="stable")], (
        "with k larger than the number of rows, return every row, best first")
    # Many rows pointing the same ways: equal scores must come in row order, on every run.
    # Scaled by powers of 2, which leave a row's direction bit for bit the same.
    directions = np.repeat(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), 40, axis=0)
    ties = directions * 2.0 ** rng.integers(-2, 3, size=(120, 1))
    got = [int(i) for i in top_k_by_cosine(np.array([1.0, 0.2]), ties, 50)]
    expected = list(range(40)) + list(range(80, 90))
    assert got == expected, (f"for 120 rows with many equal cosines, equal scores should come in row order "
                             f"(the older memory first); got {got[:12]}… Sort with kind='stable'")

    from aria_kit.demo_data import DEMO_FACTS
    from aria_kit.embeddings import default_embedder

    embedder = default_embedder()
    facts = embedder.embed([text for text, _ in DEMO_FACTS])
    top = [int(i) for i in top_k_by_cosine(embedder.embed(["which coding language does she like"])[0], facts, 1)]
    assert top == [0], f"on the demo facts, 'which coding language does she like' should find row 0 (Rust), got {top}"


def _order_aware_test(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder), f"pass an instance of an Embedder subclass, got {type(embedder).__name__}"
    texts = ["Alice loves Rust", "Rust loves Alice", "order 4812", "order 4821", "Alice loves Rust"]
    vectors = np.asarray(embedder.embed(texts), dtype=np.float64)  # a stub raises NotImplementedError here
    assert vectors.ndim == 2 and vectors.shape[0] == len(texts), (
        f"embed should return one row per text, got shape {vectors.shape}")
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5), "every row should have length 1"
    assert np.allclose(vectors[0], vectors[4]), "the same text should always get the same vector"
    for i, j in ((0, 1), (2, 3)):
        similarity = float(vectors[i] @ vectors[j])
        assert similarity < 0.99, (f"{texts[i]!r} and {texts[j]!r} still have cosine {similarity:.4f}: "
                                   "the order of their tokens is not in the vector yet")
    from aria_kit.demo_data import DEMO_FACTS

    facts = embedder.embed([text for text, _ in DEMO_FACTS])
    for query, row in (("memory purchase", 6), ("When is the release due?", 4)):  # no word shared with the answer
        top = int(np.argmax(facts @ embedder.embed([query])[0]))
        assert top == row, (f"meaning got lost: {query!r} now finds fact {top + 1}, not fact {row + 1} "
                            f"({DEMO_FACTS[row][0]!r})")


def check_unit_length(to_unit_length: Callable[[np.ndarray], np.ndarray]) -> bool:
    """Check ``to_unit_length(vectors)``: every row of a 2-d array scaled to length 1, zero rows kept zero."""
    return check("Exercise 02.1 (unit length)", lambda: _unit_length_test(to_unit_length), SOLUTION)


def check_cosine(cosine: Callable[[np.ndarray, np.ndarray], float]) -> bool:
    """Check ``cosine(a, b)``: the cosine of the angle between two 1-d vectors of any length."""
    return check("Exercise 02.2 (cosine similarity)", lambda: _cosine_test(cosine), SOLUTION)


def check_top_k(top_k_by_cosine: Callable[[np.ndarray, np.ndarray, int], list[int]]) -> bool:
    """Check ``top_k_by_cosine(query, matrix, k)``: indices of the k rows most similar to ``query``, best first."""
    return check("Exercise 02.3 (top-k vector search)", lambda: _top_k_test(top_k_by_cosine), SOLUTION)


def check_order_aware_embedder(embedder: Embedder) -> bool:
    """Check the stretch task: an ``Embedder`` that tells apart texts whose tokens differ only in order."""
    return check("Stretch 02 (an embedder that hears word order)", lambda: _order_aware_test(embedder), SOLUTION)


QUIZ = Quiz("Lesson 02", [
    Question(
        "Why does the kit scale every embedding to length 1 when a text is stored?",
        {"a": "To save memory: unit vectors take fewer bytes.",
         "b": "So that a longer text does not look more similar, and the cosine becomes a plain dot product.",
         "c": "Because WordLlama cannot embed vectors longer than 1.",
         "d": "To make all the numbers positive."},
        "b", "only the direction carries meaning, and with unit rows searching is one matrix–vector product.",
        {"a": "a unit vector has just as many float32 numbers as any other.",
         "c": "the embedder returns whatever it computes; the length is set afterwards.",
         "d": "dividing by a positive length keeps every sign as it was."}),
    Question(
        "cosine(a, b) is 0. What does that say about the two texts?",
        {"a": "They are identical.",
         "b": "They have opposite meanings.",
         "c": "Their vectors are at right angles: the embedding sees nothing in common.",
         "d": "One of them is empty."},
        "c", "1 is the same direction, 0 unrelated, −1 opposite.",
        {"a": "identical texts have cosine 1.",
         "b": "opposite directions give −1, and real embeddings rarely point opposite even for opposite meanings.",
         "d": "an empty text gives a zero vector, whose cosine the kit defines as 0 too, but 0 does not imply it."}),
    Question(
        "WordLlama gives '4812' and '4821' the same vector. Why?",
        {"a": "The numbers are too close in value.",
         "b": "It averages the vectors of the tokens, single digits here, so their order is lost.",
         "c": "Numbers are removed before embedding.",
         "d": "The vectors were not normalised."},
        "b", "an average of the same tokens is the same whatever their order; 'Alice loves Rust' = 'Rust loves Alice'.",
        {"a": "an embedding knows nothing about numeric value; '4812' and '9999' are just tokens.",
         "c": "the digits are embedded; they just average to the same vector in any order.",
         "d": "both vectors are unit length, and normalising cannot make two directions equal."}),
    Question(
        "Two memories get exactly the same cosine for a query. What should top-k search do?",
        {"a": "Return them in whatever order the sort happens to produce.",
         "b": "Drop both: a tie means the search is unsure.",
         "c": "Break the tie by a fixed rule, such as the older memory first, so every run gives the same answer.",
         "d": "Pick one at random to be fair."},
        "c", "a stable sort on the negated scores does it, and identical output is what makes results testable.",
        {"a": "numpy's default sort is not stable: the order of equal scores may change with the array's size.",
         "b": "a tie says both are equally good matches, not that neither is.",
         "d": "then the same question could get different answers on two runs."}),
])
