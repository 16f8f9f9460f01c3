"""Exercise checks for lesson 02 (embeddings): unit length, cosine similarity, top-k search, and the stretch.

Each check holds the learner's function to the specification the lesson states, on
cases ordered from the smallest up, so the first failure reported is the smallest one,
with a hint about the idea it misses. ``check_unit_length`` wants a numpy array back
(a list is refused), rows of length 1 pointing the way they did, zero rows left at
zero, the input untouched, and idempotence. ``check_cosine`` wants one float, the
landmarks 1, 0 and −1, symmetry, indifference to a vector's length (a bare dot product
fails) and 0 for a zero vector. ``check_top_k`` compares with a stable ``argsort``.
``check_order_aware_embedder`` checks the stretch task. No check cares how the code is written.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.embeddings import normalize
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.interfaces import Embedder

SOLUTION = "lesson02"

EXERCISES = [
    Exercise("02.1", designs="row normalisation that keeps each direction, leaves zero rows at zero and never "
             "changes its input", kind="warm-up", minutes=10, solution=("to_unit_length",)),
    Exercise("02.2", designs="a cosine that is symmetric, ignores length, and gives a zero vector 0",
             kind="warm-up", minutes=10, solution=("cosine",)),
    Exercise("02.3", designs="top-k vector search with a tie rule that gives the same answer on every run",
             kind="specification", minutes=15, solution=("top_k_by_cosine",)),
    Exercise("Stretch 02", designs="an embedder that hears word order without losing the meaning",
             kind="stretch", minutes=30, solution=("OrderAwareEmbedder",)),
]


def _unit_cases() -> list[np.ndarray]:
    """Matrices from the smallest up: the first one a learner's code gets wrong is the one reported."""
    rng = np.random.default_rng(1)
    return [np.array([[3.0, 4.0]]), np.array([[3.0, 4.0], [0.5, 0.0]]), np.array([[0.0, 0.0], [3.0, 4.0]]),
            np.array([[3.0, 4.0], [0.5, 0.0], [0.0, 0.0], [-2.0, 2.0]]),
            rng.normal(size=(50, 16)) * rng.uniform(0.01, 100, size=(50, 1))]  # rows of very different lengths


def _unit_length_test(to_unit_length: Callable[[np.ndarray], np.ndarray]) -> None:
    for raw in _unit_cases():
        given = raw.copy()
        with np.errstate(all="ignore"):  # a learner's 0/0 should fail below with a hint, not print a warning
            got = to_unit_length(given)  # a stub raises NotImplementedError here: "not done yet"
        shown = np.round(raw, 3).tolist() if len(raw) <= 4 else f"{len(raw)} random rows"
        assert isinstance(got, np.ndarray), (
            f"to_unit_length({shown}) returned a {type(got).__name__}; the task asks for a numpy array "
            "(the next step multiplies it with @, which a list does not support)")
        assert got.shape == raw.shape, f"for {shown} the result should have shape {raw.shape}, got {got.shape}"
        assert np.array_equal(given, raw), (
            f"to_unit_length({shown}) changed the array it was given (to {np.round(given, 3).tolist()}): the "
            "caller still needs its vectors; compute a new array instead of dividing in place")
        got = got.astype(np.float64)
        assert not np.isnan(got).any(), (
            f"for {shown} a row of zeros became NaN: it has no direction, so leave it as zeros "
            "(divide only where the length is above 0)")
        lengths = np.linalg.norm(got, axis=1)
        zero = np.linalg.norm(raw, axis=1) == 0
        if not np.allclose(lengths[~zero], 1, atol=1e-6):
            row = int(np.argmax(np.abs(np.where(zero, 1, lengths) - 1)))
            raise AssertionError(
                f"for {shown} row {row} has length {lengths[row]:.4f}, not 1: divide each row by its own length, "
                "the square root of the sum of its squares (not by the whole matrix's, nor by a sum)")
        assert np.allclose(got[zero], 0), f"for {shown} a row of zeros should stay zeros"
        assert np.allclose(got, normalize(raw), atol=1e-6), (
            f"for {shown} a row no longer points the way it did: expected "
            f"{np.round(normalize(raw), 4).tolist() if len(raw) <= 4 else 'normalize()'}, got "
            f"{np.round(got, 4).tolist() if len(raw) <= 4 else 'other rows'}")
        again = np.asarray(to_unit_length(got.copy()), dtype=np.float64)
        assert np.allclose(again, got, atol=1e-6), "a row already of length 1 should come back unchanged"


def _cosine_cases() -> list[tuple[np.ndarray, np.ndarray, str]]:
    rng = np.random.default_rng(2)
    cases = [([3.0, 4.0], [6.0, 8.0], "same direction, different lengths"), ([1.0, 0.0], [0.0, 2.0], "at right angles"),
             ([1.0, 2.0], [-2.0, -4.0], "opposite"), ([3.0, 4.0], [4.0, 3.0], "close, not equal")]
    cases = [(np.array(a), np.array(b), what) for a, b, what in cases]
    for _ in range(20):  # random pairs of very different lengths
        cases.append((rng.normal(size=8) * rng.uniform(0.1, 10), rng.normal(size=8) * rng.uniform(0.1, 10),
                      "two random 8-d vectors"))
    return cases


def _cosine_test(cosine: Callable[[np.ndarray, np.ndarray], float]) -> None:
    for a, b, what in _cosine_cases():
        got = cosine(a.copy(), b.copy())  # a stub raises NotImplementedError here: "not done yet"
        pair = f"cosine({np.round(a, 2).tolist()}, {np.round(b, 2).tolist()}) ({what})"
        assert isinstance(got, float | np.floating) and np.ndim(got) == 0, (
            f"{pair} returned {type(got).__name__} {got!r}; return one float")
        expected = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
        if abs(got - expected) > 1e-6:
            hint = "divide the dot product by both lengths"
            if abs(got - float(a @ b)) < 1e-9:
                hint = "that is the bare dot product: " + hint
            elif abs(got - float(a @ b) / np.linalg.norm(a) * np.linalg.norm(b)) < 1e-9:
                hint = "a / b * c divides by b and then multiplies by c: put both lengths in parentheses"
            raise AssertionError(f"{pair} should be {expected:.4f}, got {float(got):.4f}: {hint}")
        assert abs(float(cosine(b.copy(), a.copy())) - float(got)) < 1e-9, (
            f"{pair} is {float(got):.4f}, but with the vectors swapped it is {float(cosine(b, a)):.4f}: "
            "a cosine is symmetric")
        assert abs(float(cosine(a * 7.5, b)) - float(got)) < 1e-6, (
            f"{pair}: stretching a by 7.5 changed the cosine; only the direction may count")
    with np.errstate(all="ignore"):  # a learner's 0/0 should fail this check, not print a warning
        zero = float(cosine(np.zeros(3), np.array([1.0, 2.0, 3.0])))
    assert zero == 0.0, (f"cosine([0, 0, 0], [1, 2, 3]) should be 0, got {zero}: a zero vector has no direction, "
                         "so no similarity (normalize() leaves it at zero too); test for it before dividing")


def _top_k_test(top_k_by_cosine: Callable[[np.ndarray, np.ndarray, int], list[int]]) -> None:
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(30, 16))  # rows of different lengths: only the direction may count
    query = rng.normal(size=16)
    got = top_k_by_cosine(query, matrix, 5)  # a stub raises NotImplementedError here: "not done yet"
    cosines = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    expected = [int(i) for i in np.argsort(-cosines, kind="stable")[:5]]
    assert isinstance(got, list) and all(isinstance(i, int | np.integer) for i in got), (
        f"top_k_by_cosine returned {type(got).__name__} {got!r}; the task asks for a list of row indices "
        "(a numpy slice converts with .tolist())")
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


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_cosine_of_opposites() -> str:
    """02: cosine([3, 4], [-6, -8]) with the kit's normalize."""
    import numpy as np

    from aria_kit.embeddings import normalize

    a, b = normalize(np.array([[3.0, 4.0], [-6.0, -8.0]]))
    value = float(a @ b)
    return only_true({"a": abs(value - 1) < 1e-9, "b": abs(value + 1) < 1e-9, "c": abs(value) < 1e-9,
                      "d": abs(value + 50) < 1e-9})


def _key_swapped_words() -> str:
    """02: WordLlama's cosine of two sentences with the same words in another order."""
    from aria_kit.embeddings import default_embedder

    a, b = default_embedder().embed(["the cat chased the dog", "the dog chased the cat"])
    value = float(a @ b)
    return only_true({"a": abs(value - 1) < 1e-6, "b": 0.3 < value < 0.7, "c": value < 0,
                      "d": 0.8 < value < 1 - 1e-6})


def _key_tie_in_top_k() -> str:
    """02: top-k with k = 2 over rows [1, 0], [2, 0], [0, 1] for the query [1, 0] (the worked solution)."""
    import numpy as np

    from aria_kit.solutions.lesson02 import top_k_by_cosine

    found = top_k_by_cosine(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]]), 2)
    return only_true({"a": list(found) == [0, 1], "b": list(found) == [1, 0], "c": list(found) == [0, 2]})


QUIZ = Quiz("Lesson 02", [
    Question(
        "Why does the kit scale every embedding to length 1 when a text is stored?",
        {"a": "To save memory: unit vectors take fewer bytes.",
         "b": "So that a longer text does not look more similar, and the cosine becomes a plain dot product.",
         "c": "So that texts of different lengths get vectors with the same number of dimensions.",
         "d": "So that the cosine of two different texts can never be negative."},
        "b", "only the direction carries meaning, and with unit rows searching is one matrix–vector product.",
        {"a": "a unit vector has just as many float32 numbers as any other.",
         "c": "every text already gets 256 numbers whatever its length; 'length' here is the vector's norm.",
         "d": "scaling keeps every direction, and two opposite directions still have cosine −1."},
        kind="recall"),
    Question(
        "Predict: what is cosine([3, 4], [-6, -8])?",
        {"a": "1.0: the two vectors lie on the same line, and the cosine ignores length.",
         "b": "−1.0: they point in opposite directions.",
         "c": "0.0: they share no positive component.",
         "d": "−50.0: the dot product 3·(−6) + 4·(−8)."},
        "b", "[-6, -8] is −2 × [3, 4]: same line, opposite way, so the cosine is −1 whatever the lengths.",
        {"a": "the cosine ignores length but not direction: a negative multiple points the other way.",
         "c": "0 means at right angles; these two are as far from right angles as vectors can be.",
         "d": "that is the bare dot product; the cosine divides it by both lengths (5 × 10), which gives −1."},
        kind="predict", case=("[-6, -8]",), compute=_key_cosine_of_opposites),
    Question(
        "Predict: the cosine WordLlama gives 'the cat chased the dog' and 'the dog chased the cat'.",
        {"a": "1.0: the two texts hold the same tokens, and the average of the same vectors is the same vector.",
         "b": "About 0.5: the words are the same, but half of them are in other places.",
         "c": "Below 0: the two sentences mean opposite things.",
         "d": "Just under 1, such as 0.95: close, but the model hears that the order changed."},
        "a", "WordLlama averages its token vectors, and an average forgets order: who chased whom is lost.",
        {"b": "an average has no notion of a word's place, so moving words around cannot lower the cosine.",
         "c": "a vector captures what a text is about (a cat, a dog, chasing); both texts are about exactly that.",
         "d": "bigger models that read word order would do that; a plain average gives exactly 1."},
        kind="predict", case=("the dog chased the cat",), compute=_key_swapped_words),
    Question(
        "top_k_by_cosine(query=[1, 0], matrix=[[1, 0], [2, 0], [0, 1]], k=2) to the specification of Exercise 02.3. "
        "What does it return?",
        {"a": "[0, 1]: rows 0 and 1 both have cosine 1, and the tie goes to the row that comes first.",
         "b": "[1, 0]: row 1 is longer, so it is more similar to the query.",
         "c": "[0, 2]: row 1 points the same way as row 0, so it adds nothing and is skipped.",
         "d": "[0, 1] on some runs and [1, 0] on others: a tie has no right order."},
        "a", "the cosine ignores length, so [2, 0] ties with [1, 0]; a stable sort keeps the earlier row first.",
        {"b": "that is the dot product talking (2 against 1); the cosine divides by the lengths, and both give 1.",
         "c": "top-k returns the k best rows by cosine; it does not drop rows that point the same way.",
         "d": "the specification fixes the tie rule (the earlier row first, on every run), so the result is testable."},
        kind="predict", case=("[[1, 0], [2, 0], [0, 1]]",), compute=_key_tie_in_top_k),
])
