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


def _key_rrf_of_one_ranking() -> str:
    """04: 1st in the vector ranking, absent from the keyword ranking, RRF with k = 60."""
    from aria_kit.fusion import reciprocal_rank_fusion

    vector, keyword = ["target", "m2", "m3", "m4"], ["m2", "m3"]
    score = dict(reciprocal_rank_fusion([vector, keyword], k=60))["target"]
    return only_true({"a": abs(score - 1 / 61) < 1e-12, "b": abs(score - (1 / 61 + 1 / 64)) < 1e-12,
                      "c": abs(score - 1 / 122) < 1e-12, "d": score == 1.0})


def _key_smaller_k() -> str:
    """04: k from 60 to 1, for a memory 1st by cosine that no keyword matches, while five others match 'the'."""
    from aria_kit.fusion import reciprocal_rank_fusion

    vector = ["target", "the1", "the2", "the3", "the4", "the5"]
    keyword = ["the1", "the2", "the3", "the4", "the5"]  # a filler word: every other memory has it

    def place(k: int) -> int | None:
        order = [memory for memory, _ in reciprocal_rank_fusion([vector, keyword], k=k)]
        return order.index("target") if "target" in order else None

    before, after = place(60), place(1)
    return only_true({"a": after is not None and after > before, "b": after is not None and after < before,
                      "c": after == before, "d": after is None})


QUIZ = Quiz("Lesson 04", [
    Question(
        "A memory is 1st in the vector ranking and absent from the keyword ranking (it shares no word with the "
        "query). With RRF and k = 60, what is its fused score?",
        {"a": "1/61, about 0.0164", "b": "1/61 + 1/(60 + number of memories)", "c": "1/122: the average of 1/61 and nothing",
         "d": "1.0: first place in a ranking earns full marks"},
        "a", "a ranking that lacks a memory adds nothing for it: 1/(60 + 1) from the vector ranking only.",
        {"b": "that would rank it last in the keyword list; HybridMemory gives no keyword credit at all.",
         "c": "RRF adds the rankings' contributions, it does not average them: absent adds 0, so the sum is 1/61.",
         "d": "scores are sums of 1/(k + rank); with k = 60 no single ranking gives more than 1/61."},
        kind="predict", case=("k = 60",), compute=_key_rrf_of_one_ranking),
    Question(
        "Why does RRF fuse ranks rather than adding the cosine and the BM25 score?",
        {"a": "ranks are faster to compute than scores",
         "b": "the two scores live on different scales: a cosine stays below 1, BM25 has no upper bound and "
              "shifts as memories are added",
         "c": "BM25 scores can be negative",
         "d": "a cosine and a BM25 score measure the same thing, so adding them would count it twice"},
        "b", "adding them would need a weight that changes with the data; ranks are on the same scale by definition.",
        {"a": "the ranks are computed from the scores, so they cost more, not less.",
         "c": "aria_kit uses Lucene's IDF, which is never negative (lesson 03).",
         "d": "they measure different things (meaning, shared rare words); that is why combining them helps."},
        kind="recall"),
    Question(
        "You lower k from 60 to 1. What happens to a memory that is 1st by cosine but matched by no keyword, "
        "while other memories match a filler word like \"the\"?",
        {"a": "it falls further", "b": "it climbs: with a small k, rank 1 earns far more than rank 5 or 10",
         "c": "nothing: k does not change the order", "d": "it disappears from the results"},
        "b", "1/(1 + 1) = 0.5 beats two weak votes like 1/(1 + 8) + 1/(1 + 9); the slider in section 4 shows it.",
        {"a": "a small k rewards the top of each list, which is where this memory is.",
         "c": "k changes how much a top rank outweighs a lower one, so it can change the order.",
         "d": "every memory stays in the vector ranking, so every memory gets a fused score."},
        kind="predict", case=("from 60 to 1", "rank 1 earns"), compute=_key_smaller_k),
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
