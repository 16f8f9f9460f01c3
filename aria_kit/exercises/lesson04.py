"""Exercise checks for lesson 04 (your own hybrid memory), and the lesson's quiz.

``check_rrf(rrf)`` holds the learner's ``rrf(rankings, k=60)`` to the lesson's
specification, on cases ordered from the smallest up so the first failure is the
smallest: a list of ``(id, score)`` pairs (not a dict), scores within 1e-12 of
``fusion.reciprocal_rank_fusion``, best first, ties in first-met order, ``[]`` for no
rankings, ``ValueError`` for an id listed twice in one ranking; then two properties on
random rankings (the order of the rankings changes no score; moving an id up never
lowers its score). Counting ranks from 0 or giving absent ids a score fails.

``check_my_hybrid_memory(MyHybridMemory)`` stores the lesson's 31 memories in
the learner's class and in ``HybridMemory`` (in its RRF mode, k = 60) and
compares, query by query, the vector ranking, the keyword ranking and the
fused top hits with their scores, so the message says which of the three
parts differs first. ``check_score_fusion`` checks the stretch task at
weights 1 (vector order), 0 (keyword order) and 0.5, against the same min-max
formula computed from ``HybridMemory``'s own cosine and BM25 scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from aria_kit.embeddings import default_embedder
from aria_kit.evaluation import EVAL_MEMORIES, build_eval_memory, rankings
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.fusion import reciprocal_rank_fusion

SOLUTION = "lesson04"

# Minutes are estimates; matching HybridMemory's rankings and scores to 1e-12 takes a first-timer an hour.
EXERCISES = [
    Exercise("04.1", designs="rank fusion that returns every id once, best first, with a tie rule, refusing "
             "an id listed twice", kind="specification", minutes=25, solution=("rrf",)),
    Exercise("04.2", designs="a hybrid memory of your own (unit-vector matrix, token counts, BM25, fusion) that "
             "ranks exactly like HybridMemory's RRF mode", kind="specification", minutes=60, solution=("MyHybridMemory",)),
    Exercise("Stretch 04", designs="score fusion instead of rank fusion, and how you would choose its weight",
             kind="stretch", minutes=30, solution=("ScoreFusionMemory",)),
]

RRF_CASES: list[tuple[list[list[str]], int]] = [  # from the smallest up
    ([["x"]], 60),
    ([["a", "b", "c"], ["c"]], 60),  # a and b are missing from the second ranking
    ([["a", "b"], ["b", "a"]], 60),  # a and b tie: the first ranking's order breaks it
    ([["x"]], 0),
    ([["a", "b", "c"], ["b", "c", "a"]], 60),
    ([["mem_3", "mem_5", "mem_2"], ["mem_3", "mem_1"]], 60),
    ([["x", "y"], ["y", "z"], ["z", "x", "y"]], 10),
    ([["a", "b", "c", "d"], ["d", "c"]], 0),
    ([["p", "q", "r"], [], ["q", "p"]], 60),  # an empty ranking adds nothing
]


# Paraphrases, an order number, a rare name, a query sharing no word with anything, one with only filler words.
MEMORY_QUERIES = ["What does she drink in the morning?", "5190", "Which dashboards track the database?",
                  "Jepsen", "Who is Alice's boss?", "zzz qqq", "the the is"]


def _random_rankings(rng: random.Random) -> list[list[str]]:
    pool = [f"m{i}" for i in range(12)]
    return [rng.sample(pool, rng.randint(0, 8)) for _ in range(rng.randint(1, 4))]


def _scores(pairs) -> dict[str, float]:
    return {item: float(score) for item, score in pairs}


def _rrf_test(rrf: Callable[..., list[tuple[str, float]]]) -> None:
    for rankings_, k in RRF_CASES:
        expected = reciprocal_rank_fusion(rankings_, k=k)
        got = rrf([list(r) for r in rankings_], k=k)  # a stub raises NotImplementedError here: "not done yet"
        call = f"rrf({rankings_}, k={k})"
        assert isinstance(got, list) and all(isinstance(pair, tuple) and len(pair) == 2 for pair in got), (
            f"{call} returned {type(got).__name__} {got!r}; return a list of (id, score) pairs, best first "
            "(a dict cannot say which comes first when two scores tie)")
        got_scores = _scores(got)
        assert len(got) == len(got_scores) and set(got_scores) == {item for item, _ in expected}, (
            f"{call} returned ids {[item for item, _ in got]}; expected each id that appears anywhere, once: "
            f"{[item for item, _ in expected]}")
        for item, score in expected:
            assert abs(got_scores[item] - score) < 1e-12, (
                f"{call}: {item!r} should score {score:.6f}, got {got_scores[item]:.6f} "
                "(ranks start at 1, and a ranking that lacks an id adds nothing for it)")
        scores = [float(score) for _, score in got]
        assert scores == sorted(scores, reverse=True), f"{call} is not sorted best first: {got}"
        assert [item for item, _ in got] == [item for item, _ in expected], (
            f"{call} breaks a tie differently: {[i for i, _ in got]}, expected {[i for i, _ in expected]} "
            "(equal scores keep the order in which ids are first met, first ranking first — a stable sort does that)")
    assert rrf([], k=60) == [], "rrf([]) should be []: no rankings, nothing to fuse"
    try:
        duplicated = rrf([["a", "b", "a"]], k=60)
    except ValueError:
        pass
    else:
        raise AssertionError(f"rrf([['a', 'b', 'a']]) returned {duplicated}: a ranking that lists an id twice is a "
                             "caller's bug (which rank is it?); raise ValueError instead of adding both")
    rng = random.Random(4)
    for _ in range(200):
        rankings_ = _random_rankings(rng)
        forward, backward = _scores(rrf(rankings_, k=60)), _scores(rrf(rankings_[::-1], k=60))
        assert all(abs(forward[i] - backward[i]) < 1e-12 for i in forward), (
            f"rrf({rankings_}) and the same rankings in reverse order give different scores: the order of the "
            "rankings may break ties, never change a score")
        ranking = next((r for r in rankings_ if len(r) > 1), None)
        if ranking is not None:
            moved = ranking[-1]
            lifted = [[moved] + [i for i in r if i != moved] if r is ranking else r for r in rankings_]
            assert _scores(rrf(lifted, k=60))[moved] >= forward[moved] - 1e-12, (
                f"moving {moved!r} to the top of {ranking} lowered its fused score: a better rank must never "
                "earn less")


def _ids(pairs) -> list[str]:
    return [item for item, _ in pairs]


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
            f"vector_ranking({query!r}) starts {vector[:4]}, HybridMemory's starts {ranked['vector'][:4]} "
            "(every memory, by cosine of unit vectors, highest first; equal cosines keep the older memory first)")
        keyword = list(mine.keyword_ranking(query))
        assert keyword == ranked["keyword"], (
            f"keyword_ranking({query!r}) is {keyword[:5]}{' …' if len(keyword) > 5 else ''}, HybridMemory's is "
            f"{ranked['keyword'][:5]}{' …' if len(ranked['keyword']) > 5 else ''} (BM25 with Lucene's idf, "
            "k1 = 1.5, b = 0.75 over aria_kit.bm25.tokenize; a memory scoring 0 shares no word: leave it out)")
        for top_k in (3, len(ids) + 5):
            got = list(mine.search(query, top_k=top_k))
            hits = reference.search(query, top_k=top_k)
            assert _ids(got) == [hit.id for hit in hits], (
                f"search({query!r}, top_k={top_k}) gave {_ids(got)[:5]}, HybridMemory gives "
                f"{[hit.id for hit in hits][:5]} (fuse the vector ranking first, then the keyword ranking, "
                "with your rrf and k = 60, and keep the first top_k)")
            for (item, score), hit in zip(got, hits):
                assert abs(float(score) - hit.score) < 1e-12, (
                    f"search({query!r}): {item} scores {float(score):.6f}, HybridMemory says {hit.score:.6f}")


def _min_max_fused(reference, query: str, weight: float) -> list[str]:
    """The stretch's ranking, from the package's own cosine and BM25 scores of every memory."""
    hits = sorted(reference.search(query, top_k=len(reference)), key=lambda hit: hit.id)
    cosine = np.array([hit.cosine for hit in hits])
    bm25 = np.array([hit.bm25 for hit in hits])

    def min_max(x: np.ndarray) -> np.ndarray:
        span = x.max() - x.min()
        return (x - x.min()) / span if span > 0 else np.zeros_like(x)

    fused = weight * min_max(cosine) + (1 - weight) * min_max(bm25)
    return [hits[i].id for i in np.lexsort((-cosine, -fused))]


def _score_fusion_test(memory_class: type) -> None:
    embedder = default_embedder()
    reference = build_eval_memory(embedder)
    for weight in (1.0, 0.0, 0.5):
        mine = memory_class(embedder, weight=weight)
        for text, _ in EVAL_MEMORIES:
            mine.store(text)
        for query in MEMORY_QUERIES[:5]:
            expected = _min_max_fused(reference, query, weight)[:3]
            top = _ids(mine.search(query, top_k=3))
            what = {1.0: "the vector ranking's", 0.0: "the keyword ranking's (then by cosine)"}.get(
                weight, "weight · cosine' + (1 − weight) · bm25', each min-max scaled to [0, 1], gives as")
            assert top == expected, (
                f"with weight = {weight:g} your search({query!r}) starts {top}; {what} top 3 is {expected}")


def check_rrf(rrf: Callable[..., list[tuple[str, float]]]) -> bool:
    """Check ``rrf(rankings, k=60)``: fuse lists of ids into ``[(id, score), …]``, best first."""
    return check("Exercise 04.1 (Reciprocal Rank Fusion)", lambda: _rrf_test(rrf), SOLUTION)


def check_my_hybrid_memory(memory_class: type) -> bool:
    """Check the learner's ``MyHybridMemory(embedder)`` against ``HybridMemory`` in its RRF mode."""
    return check("Exercise 04.2 (your hybrid memory)", lambda: _memory_test(memory_class), SOLUTION)


def check_score_fusion(memory_class: type) -> bool:
    """Check the stretch task's ``ScoreFusionMemory(embedder, weight)`` at weights 1, 0 and 0.5."""
    return check("Stretch 04 (score fusion)", lambda: _score_fusion_test(memory_class), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_both_lists_by_a_hair() -> str:
    """04: RRF with k = 60 of [a, b, c] and [c, b]: who is first?"""
    from aria_kit.fusion import reciprocal_rank_fusion

    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "b"]], k=60)
    scores = dict(fused)
    return only_true({"a": fused[0][0] == "b", "b": fused[0][0] == "c" and scores["c"] > scores["b"],
                      "c": fused[0][0] == "a", "d": scores["b"] == scores["c"]})


def _key_small_k_flips() -> str:
    """04: RRF of [a, b, c, d] and [d, b], k = 60 and then k = 1."""
    from aria_kit.fusion import reciprocal_rank_fusion

    rankings = [["a", "b", "c", "d"], ["d", "b"]]
    at_60, at_1 = (dict(reciprocal_rank_fusion(rankings, k=k)) for k in (60, 1))
    assert max(at_60, key=at_60.get) == "b", "the question's premise: b leads at k = 60"
    first = max(at_1, key=at_1.get)
    return only_true({"a": first == "b", "b": first == "a", "c": at_1["b"] == at_1["d"],
                      "d": first == "d" and at_1["d"] > at_1["b"]})


QUIZ = Quiz("Lesson 04", [
    Question(
        "Predict: `reciprocal_rank_fusion([[\"a\", \"b\", \"c\"], [\"c\", \"b\"]], k=60)`. Which id comes first?",
        {"a": "b: 2nd in both rankings, the steadiest of the three",
         "b": "c: 1/63 + 1/61 is a hair more than 1/62 + 1/62",
         "c": "a: first place in a ranking beats everything else",
         "d": "b and c tie exactly: their ranks add up to 4 either way"},
        "b", "both are in both lists; what counts is the sum of 1/(60 + rank), and 1/x falls fastest near the top, "
             "so a 1st place gains more than a 3rd place loses.",
        {"a": "being in both lists is what lifts b and c above a; between the two, the 1st place in one list wins.",
         "c": "a is in one list only; with k = 60 one list's 1st place (1/61) is far below two good places.",
         "d": "RRF adds reciprocals, not ranks: 1/61 + 1/63 and 2/62 differ in the fifth decimal."},
        kind="predict", case=('[["a", "b", "c"], ["c", "b"]]',), compute=_key_both_lists_by_a_hair),
    Question(
        "Memory P has cosine 0.62 and BM25 0; memory Q has cosine 0.20 and BM25 1.1. You rank by the plain sum of "
        "the two scores. What goes wrong?",
        {"a": "Nothing: both are similarity scores for the same query, so adding them is fair.",
         "b": "Only the size: the sum must be halved, the mean of the two, to stay a similarity.",
         "c": "Q wins, 1.30 to 0.62, because BM25 runs on a larger scale; the sum is mostly BM25.",
         "d": "Nothing: Q shares a word with the query, and an exact word is stronger evidence than any cosine."},
        "c", "a cosine stays below 1 while BM25 has no upper bound and shifts as memories are added; RRF uses "
             "only the positions, so neither scale drowns the other.",
        {"a": "they are on different scales: 0.62 + 0 is less than 0.20 + 1.1, so BM25 alone decided.",
         "b": "halving every sum changes no order: Q still wins, 0.65 to 0.31; the trouble is the scales, not the size.",
         "d": "the sum would put Q first for any BM25 score near 1, however common the shared word: the scale "
              "decides, not the evidence."},
        kind="explain", case=("cosine 0.62", "BM25 1.1")),
    Question(
        "With k = 60, RRF of the rankings [\"a\", \"b\", \"c\", \"d\"] and [\"d\", \"b\"] puts b first. "
        "Lower k to 1. Which id comes first now?",
        {"a": "b still: k changes every score, but not the order",
         "b": "a: with a small k, the first place of the longer ranking counts most",
         "c": "b and d tie: at k = 1 each gets 1/2 from somewhere",
         "d": "d: with a small k, one first place outweighs two second places"},
        "d", "at k = 1, d earns 1/2 + 1/5 = 0.7 and b 1/3 + 1/3 ≈ 0.67; at k = 60 the top places earn nearly the "
             "same, and being high in both lists wins.",
        {"a": "k sets how much better rank 1 is than rank 2, so it can change the order, as here.",
         "b": "a is 1st in one list but absent from the other: 1/2, below d's 1/2 + 1/5.",
         "c": "d gets 1/2 from its 1st place; b has no 1st place: 1/3 + 1/3."},
        kind="predict", case=('["a", "b", "c", "d"]',), compute=_key_small_k_flips),
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
