"""Exercise checks for lesson 13 (scaling memory): an exact top-k without a full sort, and an IVF search.

``check_top_k(top_k)`` compares the learner's ``top_k(scores, k)`` with a full
sort (``np.lexsort``) on random scores full of ties: the same indices, best
first, equal scores going to the lower index, for every k (and all of them when
k is larger than the array). ``check_ivf_search(ivf_search)`` compares
``ivf_search(index, query, k, nprobe)`` with ``approximate_search.IVFIndex.search``
on seeded clustered vectors, for several ``nprobe``, and with exact search when
every list is probed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aria_kit.approximate_search import IVFIndex, exact_search
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz

SOLUTION = "lesson13"


def _top_k_verdict(top_k: Callable[[np.ndarray, int], np.ndarray], scores: np.ndarray, k: int) -> str | None:
    """None when ``top_k(scores, k)`` is right; otherwise what is wrong, with a hint."""
    expected = np.lexsort((np.arange(len(scores)), -scores))[:k].tolist()
    got = np.asarray(top_k(scores, k)).tolist()  # a stub raises NotImplementedError here
    if got == expected:
        return None
    if len(got) != len(expected):
        hint = "return exactly min(k, len(scores)) indices"
    elif min(scores[got]) < min(scores[expected]):
        hint = "a row scores below the k-th best: the highest scores come first"
    elif sorted(got) != sorted(expected):
        hint = "of the rows tied with the k-th best score, keep the lowest indices"
    elif [scores[i] for i in got] != [scores[i] for i in expected]:
        hint = "best first: the k rows must come out sorted, not just be the right k"
    else:
        hint = "equal scores go to the lower index first"
    shown = scores.tolist() if len(scores) <= 12 else f"{scores[:12].tolist()}… ({len(scores)} scores)"
    return f"top_k(np.array({shown}), {k}) should be {expected[:8]}, got {got[:8]}: {hint}"


def _top_k_test(top_k: Callable[[np.ndarray, int], np.ndarray]) -> None:
    rng = np.random.default_rng(13)
    for size in (1, 5, 40, 1000):
        scores = rng.integers(0, 8, size).astype(float)  # few distinct values: many ties
        for k in sorted({1, 2, 3, size // 2 or 1, size, size + 5}):
            if _top_k_verdict(top_k, scores, k) is None:
                continue
            # Shrink to the shortest prefix of these scores that still fails: the smallest case to think about.
            smallest = next(problem for n in range(1, size + 1)
                            if (problem := _top_k_verdict(top_k, scores[:n], min(k, n + (k > size)))))
            raise AssertionError(smallest)


def _clustered(seed: int = 13) -> tuple[IVFIndex, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(12, 16))
    vectors = centres[rng.integers(0, 12, 600)] + 0.6 * rng.normal(size=(600, 16))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = rng.normal(size=(8, 16))
    return IVFIndex.build(vectors, n_lists=10, seed=seed), queries / np.linalg.norm(queries, axis=1, keepdims=True)


def _ivf_test(ivf_search: Callable[..., np.ndarray]) -> None:
    index, queries = _clustered()
    for query in queries:
        for nprobe in (1, 3, 10):
            expected, _ = index.search(query, 10, nprobe)
            got = np.asarray(ivf_search(index, query, 10, nprobe)).tolist()  # a stub raises here
            assert got == expected.tolist(), (
                f"with nprobe={nprobe} you returned rows {got}, expected {expected.tolist()}: score only the rows "
                "of the nprobe lists whose centroids are most similar to the query, then keep the 10 best")
        exact = exact_search(index.vectors, query, 10).tolist()
        assert np.asarray(ivf_search(index, query, 10, len(index.lists))).tolist() == exact, (
            "probing every list must give exactly the exact search's top 10")


def check_top_k(top_k: Callable[[np.ndarray, int], np.ndarray]) -> bool:
    """Check exercise 13.1: ``top_k(scores, k)``, the k best indices without sorting every score."""
    return check("Exercise 13.1 (top-k without a full sort)", lambda: _top_k_test(top_k), SOLUTION)


def check_ivf_search(ivf_search: Callable[..., np.ndarray]) -> bool:
    """Check exercise 13.2: ``ivf_search(index, query, k, nprobe)``, search in the nprobe nearest lists only."""
    return check("Exercise 13.2 (IVF search)", lambda: _ivf_test(ivf_search), SOLUTION)


def _hybrid_cases() -> tuple[IVFIndex, list[tuple[np.ndarray, np.ndarray]]]:
    """An IVF over clustered vectors, and queries each with keyword scores that favour rows far from the query."""
    index, queries = _clustered(seed=7)
    rng = np.random.default_rng(7)
    cases = []
    for query in queries[:12]:
        keyword = np.zeros(len(index.vectors))
        keyword[rng.choice(len(keyword), 6, replace=False)] = rng.integers(1, 4, 6)  # few rows share a query word
        cases.append((query, keyword))
    return index, cases


def _stretch_test(approximate_hybrid_top3: Callable[..., list[int]]) -> None:
    from aria_kit.fusion import reciprocal_rank_fusion

    index, cases = _hybrid_cases()
    everything = len(index.lists)
    for nprobe in (everything, 1, 2):  # all lists first: that must be exact hybrid search
        for number, (query, keyword) in enumerate(cases):
            ranked = [int(r) for r in np.lexsort((np.arange(len(keyword)), -keyword)) if keyword[r] > 0]
            rows, _ = index.search(query, len(index.vectors), nprobe)
            expected = [int(r) for r, _ in reciprocal_rank_fusion([rows.tolist(), ranked])[:3]]
            got = [int(r) for r in approximate_hybrid_top3(index, keyword, query, nprobe)]  # a stub raises here
            if got == expected:
                continue
            exact_rows = exact_search(index.vectors, query, len(index.vectors))
            vector_alone = [int(r) for r in index.search(query, 3, nprobe)[0]]
            as_exact = [int(r) for r, _ in reciprocal_rank_fusion([exact_rows.tolist(), ranked])[:3]]
            hint = ("the keyword ranking is missing: fuse BM25's ranking in with RRF" if got == vector_alone else
                    "unprobed rows still got a vector rank: only rows in the probed lists are ranked by vector"
                    if got == as_exact and nprobe < everything else
                    "fuse the IVF ranking (probed rows only, ties to the lower row) with the keyword ranking (rows "
                    "scoring above 0) by RRF, k = 60, and keep the first 3")
            raise AssertionError(f"with nprobe = {nprobe} of {everything}, query {number} should give top 3 "
                                 f"{expected}, got {got}: {hint}")


def check_stretch(approximate_hybrid_top3: Callable[..., list[int]]) -> bool:
    """Check stretch 13: ``approximate_hybrid_top3(index, keyword_scores, query, nprobe)``, IVF vectors + exact BM25."""
    return check("Stretch 13 (approximate vector side)", lambda: _stretch_test(approximate_hybrid_top3), SOLUTION)


EXERCISES = [
    Exercise("13.1", designs="an exact top-k that never sorts every score, ties to the lower index",
             kind="warm-up", minutes=15, solution=("top_k",)),
    Exercise("13.2", designs="the search of an inverted file: which lists to read and how to rank what they hold",
             kind="specification", minutes=20, solution=("ivf_search",)),
    Exercise("Stretch 13", designs="a hybrid search with an approximate vector side, and a measure of how often "
             "its top 3 matches exact search", kind="stretch", minutes=30, solution=("approximate_hybrid_top3", "stretch_top3_agreement")),
]

QUIZ = Quiz("Lesson 13", [
    Question(
        "HybridMemory's search at 100,000 memories: which step sets the floor of its time?",
        {"a": "Sorting all 100,000 fused scores", "b": "Reading the whole embedding matrix once (the cosine pass)",
         "c": "Tokenising the query", "d": "Looking up the hits' texts"},
        "b",
        "Every exact search multiplies the query by every stored vector: 100,000 × 256 floats read from memory. "
        "Everything else now touches only the few thousand rows near the top.",
        {"a": "It used to be a large share, but the search now sorts only the heads of both rankings.",
         "c": "The query is a handful of words: microseconds, whatever the size of the memory.",
         "d": "Only top_k hits are looked up, so this does not grow with the memory."}, kind="explain", case=("100,000",)),
    Question(
        "An IVF index probes 4 of 64 lists. What do you give up, compared with exact search?",
        {"a": "Nothing: it returns the same hits, only faster", "b": "The ability to add new memories",
         "c": "Some true neighbours, filed in lists it did not probe (recall@k below 1)",
         "d": "Cosine similarity: it needs Euclidean distance"},
        "c",
        "It reads about 4/64 of the rows, so a true neighbour whose list was not probed is never scored.",
        {"a": "That is exact search. Measure recall@k against exact search to see what was lost.",
         "b": "A new vector simply joins the list of its nearest centroid.",
         "d": "On unit vectors the nearest centroid by cosine is the nearest by Euclidean distance too."}, kind="explain", case=("4 of 64", "64 lists")),
    Question(
        "Your memory holds 5,000 facts and search takes 1 ms. What should you do about scale?",
        {"a": "Nothing yet: exact search is fast, simple and never misses",
         "b": "Switch to an approximate index now",
         "c": "Move memory to a vector database server now: a server is always faster",
         "d": "Store the vectors as float16 to halve the time"},
        "a",
        "Measure first: in the benchmark, exact search stayed under 10 ms up to 100,000 memories.",
        {"b": "You would trade recall for time you do not need to save.",
         "c": "a server adds a network round trip to every search; the 1 ms you have is already within budget, "
              "and exact search in your process never misses.",
         "d": "numpy has no fast half-precision arithmetic on most CPUs: measured here, float16 was slower."}, kind="choose", case=("5,000 facts", "1 ms")),
])
