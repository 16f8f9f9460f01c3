"""Exercise checks for lesson 04 (hybrid search): a fusion of the learner's design, a hybrid memory, the stretch.

``check_fusion(fuse)`` grades exercise 04.1 by properties, not by one answer, so
RRF, a vote count or any other reasonable design passes: ``fuse(vector, keyword)``
(each a list of ids, best first; the vector ranking holds every id, the keyword
ranking those that share a word) returns every id once (complete); never puts an id
above one that is at least as high in both rankings and higher in one (agreement
wins); lets a keyword vote decide between vector neighbours (the keyword ranking
counts); lets each ranking's order count, so between neighbours of one ranking the
other's 1st beats its last once it holds 4 ids (each order counts); and ranks the
same whatever the ids are called (neutral). Cases go from
the smallest up (every case of 2, 3 and 4 ids, then random ones), so the first
failure reported is the smallest, with a hint.

``check_my_hybrid_memory(MyHybridMemory)`` stores the lesson's 31 memories in the
learner's class and in ``HybridMemory`` (in its RRF mode, k = 60) and compares, query
by query, the vector ranking, the keyword ranking and the fused top hits with their
scores. ``check_convex_mix`` checks the stretch task against ``ConvexFusion``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np

from aria_kit.evaluation import EVAL_MEMORIES, build_eval_memory, rankings
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.fusion import ConvexFusion

SOLUTION = "lesson04"

EXERCISES = [
    Exercise("04.1", designs="a fusion of two rankings with stated properties (complete, agreement wins, the "
             "keyword ranking counts, each order counts, neutral); RRF is one answer", kind="design", minutes=25,
             solution=("rrf_fuse", "votes_fuse"), check="check_fusion"),
    Exercise("04.2", designs="optional: a hybrid memory of your own (unit-vector matrix, BM25Index, RRF) that ranks "
             "exactly like HybridMemory's RRF mode", kind="specification", minutes=30, solution=("MyHybridMemory",)),
    Exercise("Stretch 04", designs="the convex mix of normalised scores, and the weight that rescues the coffee answer",
             kind="stretch", minutes=15, solution=("convex_mix",)),
]

# Paraphrases, an order number, a rare name, a query sharing no word with anything, one with only filler words.
MEMORY_QUERIES = ["What does she drink in the morning?", "5190", "Which dashboards track the database?",
                  "Jepsen", "Who is Alice's boss?", "zzz qqq", "the the is"]


def _cases() -> list[tuple[list[str], list[str]]]:
    """(vector, keyword) pairs from the smallest up: every keyword ranking of 2, 3 and 4 ids, then random ones."""
    cases = []
    for size in (2, 3, 4):
        vector = [f"m{i}" for i in range(1, size + 1)]
        for length in range(size + 1):
            cases += [(vector, list(keyword)) for keyword in itertools.permutations(vector, length)]
    rng = random.Random(4)
    for _ in range(200):
        vector = rng.sample([f"m{i}" for i in range(1, 13)], rng.randint(5, 12))
        cases.append((vector, rng.sample(vector, rng.randint(0, len(vector)))))
    return cases


def _order(fuse: Callable, vector: list[str], keyword: list[str]) -> list[str]:
    got = fuse(list(vector), list(keyword))  # a stub raises NotImplementedError here
    call = f"fuse({vector}, {keyword})"
    assert isinstance(got, (list, tuple)), f"{call} returned {type(got).__name__}; return a list of ids, best first"
    ids = [item[0] if isinstance(item, tuple) else item for item in got]  # (id, score) pairs are fine too
    assert sorted(ids) == sorted(vector), (
        f"{call} returned {ids}; it should hold every id once and no other (complete)")
    return ids


def _problem(fuse: Callable, vector: list[str], keyword: list[str]) -> str | None:
    """The first property ``fuse`` breaks on this case, with its hint, or None."""
    ids = _order(fuse, vector, keyword)
    call = f"fuse({vector}, {keyword}) returned {ids}"
    at = {item: i for i, item in enumerate(ids)}
    v_rank = {item: r for r, item in enumerate(vector)}
    k_rank = {item: r for r, item in enumerate(keyword)}
    worst = len(vector)  # an id missing from the keyword ranking is below every id in it
    for a, b in itertools.permutations(vector, 2):
        if v_rank[a] < v_rank[b] and k_rank.get(a, worst) <= k_rank.get(b, worst) and at[b] < at[a]:
            return (f"{call}: {b!r} is above {a!r}, though {a!r} is higher in the vector ranking and no lower in the "
                    f"keyword ranking. Hint: agreement wins, an id at least as high in both rankings and higher in "
                    f"one must come first (whatever your scores, they must grow as a rank improves)")
        if k_rank.get(a, worst) < k_rank.get(b, worst) and v_rank[a] <= v_rank[b] and at[b] < at[a]:
            return (f"{call}: {b!r} is above {a!r}, though {a!r} is higher in the keyword ranking and no lower in the "
                    f"vector ranking. Hint: agreement wins in both directions")
    for upper, lower in zip(vector, vector[1:]):
        if lower in k_rank and upper not in k_rank and at[upper] < at[lower]:
            return (f"{call}: {lower!r} is right below {upper!r} in the vector ranking and the keyword ranking found "
                    f"it, not {upper!r}; yet {upper!r} comes first. Hint: the keyword ranking counts, one vote from "
                    f"it must outweigh a single step of the vector ranking (a fusion that only breaks ties with it "
                    f"ignores it almost always)")
    problem = _each_order_counts(ids, vector, keyword, call)
    if problem:
        return problem
    renamed = {item: f"z{99 - int(item[1:])}" for item in vector}  # reverses the ids' alphabetical order
    again = _order(fuse, [renamed[i] for i in vector], [renamed[i] for i in keyword])
    if again != [renamed[i] for i in ids]:
        return (f"{call}, but with the ids renamed {dict(itertools.islice(renamed.items(), 3))} … it ranks them "
                f"differently. Hint: neutral, the order must come from the rankings, not from the ids' names "
                f"(break ties by a rank, not by sorting ids)")
    return None


def _each_order_counts(ids: list[str], vector: list[str], keyword: list[str], call: str) -> str | None:
    """Between neighbours of one ranking, the other ranking's 1st beats its last once that ranking holds 4 ids.

    Refuses the rules that read one ranking as a filter and ignore the other's order (keyword hits first in
    keyword order, or in vector order, then the rest): RRF, a vote count and weighted RRF all pass it.
    """
    at = {item: i for i, item in enumerate(ids)}
    for name, this, other in (("vector", vector, keyword), ("keyword", keyword, vector)):
        if len(other) < 4:
            continue
        first, last = other[0], other[-1]
        for upper, lower in zip(this, this[1:]):
            if upper == last and lower == first and at[upper] < at[lower]:
                return (f"{call}: {lower!r} is right below {upper!r} in the {name} ranking, and the other ranking "
                        f"puts {lower!r} 1st and {upper!r} last; yet {upper!r} comes first. Hint: each ranking's "
                        f"order counts, one step in one ranking must not outweigh the whole length of the other "
                        f"(a rule that takes one ranking's hits first and ignores the other's order fails here)")
    return None


def _fusion_test(fuse: Callable) -> None:
    for vector, keyword in _cases():
        problem = _problem(fuse, vector, keyword)
        assert problem is None, problem


def check_fusion(fuse: Callable[[list[str], list[str]], list]) -> bool:
    """Check exercise 04.1: ``fuse(vector, keyword)`` returns every id once, best first, with the five properties."""
    return check("Exercise 04.1 (your fusion)", lambda: _fusion_test(fuse), SOLUTION)


def _ids(pairs) -> list[str]:
    return [item for item, _ in pairs]


def _first_difference(got: list[str], expected: list[str]) -> str:
    """Where two rankings first part, as a phrase: a shared first five would hide a tie broken the other way."""
    at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
    return (f"parts from HybridMemory's at position {at + 1}: yours has {got[at:at + 3]}, HybridMemory's "
            f"{expected[at:at + 3]} ({len(got)} and {len(expected)} ids in all)")


def _memory_test(memory_class: type) -> None:
    reference = build_eval_memory()  # HybridMemory, RRF with k = 60: the lesson's 31 memories
    mine = memory_class(reference.embedder)
    assert mine.search("anything", top_k=3) == [], "an empty memory should return no hits ([])"
    ids = [mine.store(text) for text, _ in EVAL_MEMORIES]
    expected_ids = [record.id for record in reference.list_all()]
    assert ids == expected_ids, f"store should return 'mem_0001', 'mem_0002', …; yours returned {ids[:3]} …"
    for query in MEMORY_QUERIES:
        ranked = rankings(reference, query)
        vector = list(mine.vector_ranking(query))
        assert vector == ranked["vector"], (
            f"vector_ranking({query!r}) {_first_difference(vector, ranked['vector'])} "
            "(every memory, by cosine of unit vectors, highest first; equal cosines keep the older memory first)")
        keyword = list(mine.keyword_ranking(query))
        assert keyword == ranked["keyword"], (
            f"keyword_ranking({query!r}) {_first_difference(keyword, ranked['keyword'])} (BM25 with Lucene's idf, "
            "k1 = 1.5, b = 0.75 over aria_kit.bm25.tokenize; equal scores keep the older memory first; a memory "
            "scoring 0 shares no word: leave it out)")
        for top_k in (3, len(ids) + 5):
            got = list(mine.search(query, top_k=top_k))
            hits = reference.search(query, top_k=top_k)
            assert _ids(got) == [hit.id for hit in hits], (
                f"search({query!r}, top_k={top_k}) gave {_ids(got)[:5]}, HybridMemory gives "
                f"{[hit.id for hit in hits][:5]} (fuse the vector ranking first, then the keyword ranking, "
                "with reciprocal_rank_fusion and k = 60, and keep the first top_k)")
            for (item, score), hit in zip(got, hits):
                assert abs(float(score) - hit.score) < 1e-12, (
                    f"search({query!r}): {item} scores {float(score):.6f}, HybridMemory says {hit.score:.6f}")


def _convex_test(convex_mix: Callable) -> None:
    rng = np.random.default_rng(5)
    cases = [(np.array([0.5]), np.array([0.0])), (np.array([0.2, -0.3, 0.9]), np.array([0.0, 1.2, 0.4])),
             (np.array([-1.0, -1.0]), np.array([0.0, 0.0]))]
    cases += [(rng.uniform(-1, 1, 8), np.where(rng.random(8) < 0.5, 0.0, rng.uniform(0, 6, 8))) for _ in range(20)]
    for cosine, bm25 in cases:
        for weight in (0.0, 0.5, 0.8, 1.0):
            expected = ConvexFusion(weight).fuse(cosine, bm25)
            got = np.asarray(convex_mix(cosine.copy(), bm25.copy(), weight), dtype=np.float64)  # a stub raises here
            call = f"convex_mix({np.round(cosine, 3).tolist()}, {np.round(bm25, 3).tolist()}, weight={weight})"
            assert got.shape == expected.shape, f"{call}: expected one fused score per memory, got shape {got.shape}"
            assert np.allclose(got, expected, atol=1e-12), (
                f"{call} returned {np.round(got, 4).tolist()}, expected {np.round(expected, 4).tolist()} "
                "(cosine' = (cosine + 1)/(max cosine + 1), bm25' = bm25/max bm25, or 0 when no memory matches)")


def check_my_hybrid_memory(memory_class: type) -> bool:
    """Check the learner's ``MyHybridMemory(embedder)`` against ``HybridMemory`` in its RRF mode."""
    return check("Exercise 04.2 (your hybrid memory)", lambda: _memory_test(memory_class), SOLUTION)


def check_convex_mix(convex_mix: Callable) -> bool:
    """Check the stretch task's ``convex_mix(cosine, bm25, weight)`` against ``ConvexFusion(weight).fuse``."""
    return check("Stretch 04 (the convex mix)", lambda: _convex_test(convex_mix), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_both_lists_by_a_hair() -> str:
    """04: RRF with k = 60 of [x, y, z] and [z, y]: who is first?"""
    from aria_kit.fusion import reciprocal_rank_fusion

    fused = reciprocal_rank_fusion([["x", "y", "z"], ["z", "y"]], k=60)
    scores = dict(fused)
    return only_true({"a": fused[0][0] == "y", "b": fused[0][0] == "z" and scores["z"] > scores["y"],
                      "c": fused[0][0] == "x", "d": scores["y"] == scores["z"]})


def _key_sum_against_rrf() -> str:
    """04: P (0.58, 0.9), Q (0.21, 3.2), R (0.47, no match): first by the plain sum, first by RRF (k = 60)."""
    from aria_kit.fusion import reciprocal_rank_fusion

    cosine, bm25 = {"P": 0.58, "Q": 0.21, "R": 0.47}, {"P": 0.9, "Q": 3.2, "R": 0.0}
    by_sum = max(cosine, key=lambda m: cosine[m] + bm25[m])
    vector = sorted(cosine, key=lambda m: -cosine[m])
    keyword = [m for m in sorted(bm25, key=lambda m: -bm25[m]) if bm25[m] > 0]
    by_rrf = reciprocal_rank_fusion([vector, keyword], k=60)[0][0]
    return only_true({"a": by_sum == by_rrf == "Q", "b": (by_sum, by_rrf) == ("Q", "P"),
                      "c": by_sum == by_rrf == "P", "d": (by_sum, by_rrf) == ("P", "Q")})


def _key_small_k_flips() -> str:
    """04: RRF of [w, x, y, z] and [z, x], k = 60 and then k = 1."""
    from aria_kit.fusion import reciprocal_rank_fusion

    rankings = [["w", "x", "y", "z"], ["z", "x"]]
    at_60, at_1 = (dict(reciprocal_rank_fusion(rankings, k=k)) for k in (60, 1))
    assert max(at_60, key=at_60.get) == "x", "the question's premise: x leads at k = 60"
    first = max(at_1, key=at_1.get)
    return only_true({"a": first == "x", "b": first == "w", "c": at_1["x"] == at_1["z"],
                      "d": first == "z" and at_1["z"] > at_1["x"]})


QUIZ = Quiz("Lesson 04", [
    Question(
        "Predict: `reciprocal_rank_fusion([[\"x\", \"y\", \"z\"], [\"z\", \"y\"]], k=60)`. Which id comes first?",
        {"a": "y: 2nd in both rankings, the steadiest of the three",
         "b": "z: 1/63 + 1/61 is a hair more than 1/62 + 1/62",
         "c": "x: first place in a ranking beats everything else",
         "d": "y and z tie exactly: their ranks add up to 4 either way"},
        "b", "both are in both lists; what counts is the sum of 1/(60 + rank), and 1/x falls fastest near the top, "
             "so a 1st place gains more than a 3rd place loses.",
        {"a": "being in both lists is what lifts y and z above x; between the two, the 1st place in one list wins.",
         "c": "x is in one list only; with k = 60 one list's 1st place (1/61) is far below two good places.",
         "d": "RRF adds reciprocals, not ranks: 1/61 + 1/63 and 2/62 differ in the fifth decimal."},
        kind="predict", case=('[["x", "y", "z"], ["z", "y"]]',), compute=_key_both_lists_by_a_hair),
    Question(
        "Three memories for one query: P has cosine 0.58 and BM25 0.9, Q has cosine 0.21 and BM25 3.2, R has "
        "cosine 0.47 and BM25 0 (no shared word). Which memory comes first under the plain sum of the two scores, "
        "and which under RRF (k = 60)?",
        {"a": "Q under both: RRF follows Q's big BM25 lead too",
         "b": "Q under the sum, P under RRF",
         "c": "P under both: a cosine of 0.58 is the strongest evidence either way",
         "d": "P under the sum, Q under RRF: RRF rewards a first place most"},
        "b", "the sum is mostly BM25 (Q: 0.21 + 3.2), whose scale has no upper bound; RRF sees only positions: P is "
             "1st by cosine and 2nd by BM25, Q 3rd and 1st, and 1/61 + 1/62 is a hair more than 1/63 + 1/61.",
        {"a": "RRF sees ranks, not the size of a lead: Q's 3.2 counts as a 1st place, no more.",
         "c": "the sum gives Q 3.41 and P 1.48: BM25's scale decides, which is what goes wrong with adding.",
         "d": "at k = 60 a 1st place earns 1/61 and a 2nd 1/62, nearly the same; it is the sum that Q's BM25 sways."},
        kind="predict", case=("cosine 0.58", "BM25 3.2"), compute=_key_sum_against_rrf),
    Question(
        "With k = 60, RRF of the rankings [\"w\", \"x\", \"y\", \"z\"] and [\"z\", \"x\"] puts x first. "
        "Lower k to 1. Which id comes first now?",
        {"a": "x still: k changes every score, but not the order",
         "b": "w: with a small k, the first place of the longer ranking counts most",
         "c": "x and z tie: at k = 1 each gets 1/2 from somewhere",
         "d": "z: with a small k, one first place outweighs two second places"},
        "d", "at k = 1, z earns 1/2 + 1/5 = 0.7 and x 1/3 + 1/3 ≈ 0.67; at k = 60 the top places earn nearly the "
             "same, and being high in both lists wins.",
        {"a": "k sets how much better rank 1 is than rank 2, so it can change the order, as here.",
         "b": "w is 1st in one list but absent from the other: 1/2, below z's 1/2 + 1/5.",
         "c": "z gets 1/2 from its 1st place; x has no 1st place: 1/3 + 1/3."},
        kind="predict", case=('["w", "x", "y", "z"]',), compute=_key_small_k_flips),
    Question(
        "Your MyHybridMemory and HybridMemory agree on every score but list two memories with equal fused "
        "scores in a different order. Which rule does HybridMemory follow?",
        {"a": "the newer memory first", "b": "none: equal scores come out in whatever order the sort leaves them",
         "c": "the better vector rank first", "d": "the better keyword rank first"},
        "c", "fusing the vector ranking first, with a stable sort, puts the better vector rank ahead on a tie.",
        {"a": "ties in cosine go to the older memory, and fused ties to the better vector rank.",
         "b": "HybridMemory fixes a rule so every run lists ties the same way; an order left to chance is untestable.",
         "d": "the keyword ranking lacks some memories, so it cannot order every tie; the vector ranking can."},
        kind="explain"),
])
