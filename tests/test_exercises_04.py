"""Lesson 04's checks pass both shipped fusion designs and the worked memory, and answer typical wrong ones.

The fusion check is a design check: RRF, a vote count and other reasonable designs pass, and each
typical slip (the vector ranking alone, the best rank alone, ties sorted by id, a dropped id) fails
on the smallest case that shows it, with the property it breaks. The memory and stretch checks are
specification checks: each wrong answer below is a mistake a learner could make.
"""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests, unwritten

from aria_kit.exercises import lesson04
from aria_kit.fusion import ConvexFusion, reciprocal_rank_fusion
from aria_kit.solutions.lesson04 import MyHybridMemory, convex_mix, rrf_fuse, votes_fuse

# ---------------------------------------------------------------- 04.1: a fusion of your design


def _vector_only(vector, keyword):
    return list(vector)


def _best_rank_only(vector, keyword):
    rank = {item: min(vector.index(item), keyword.index(item) if item in keyword else len(vector)) for item in vector}
    return sorted(vector, key=rank.get)  # a first place in either list; the other list never adds anything


def _ties_by_name(vector, keyword):
    return [item for item, _ in sorted(reciprocal_rank_fusion([vector, keyword]), key=lambda p: (-p[1], p[0]))]


def _keyword_ids_only(vector, keyword):
    return list(keyword)


def _interleaved(vector, keyword):
    merged = []  # vector 1st, keyword 1st, vector 2nd, … skipping ids already taken
    for pair in zip(vector, keyword + [None] * len(vector)):
        for item in pair:
            if item is not None and item not in merged:
                merged.append(item)
    return merged


def _keyword_vote_subtracts(vector, keyword):
    scores = {item: 1 / (60 + rank) for rank, item in enumerate(vector, 1)}
    for rank, item in enumerate(keyword, 1):
        scores[item] -= 1 / (60 + rank)  # a sign slip: a keyword match now pushes a memory down
    return sorted(scores, key=lambda item: -scores[item])


def _weighted_rrf(vector, keyword):
    """Another design that passes: RRF trusting the vector ranking twice as much, k = 10."""
    scores = {item: 2 / (10 + rank) for rank, item in enumerate(vector, 1)}
    for rank, item in enumerate(keyword, 1):
        scores[item] += 1 / (10 + rank)
    return sorted(scores, key=lambda item: -scores[item])


def _keyword_hits_first(vector, keyword):
    """Not a fusion: the keyword hits in keyword order, then the rest in vector order (the vector order is lost)."""
    return list(keyword) + [item for item in vector if item not in keyword]


def _keyword_filter_by_cosine(vector, keyword):
    """Not a fusion: the keyword hits in vector order, then the rest (the keyword order is lost)."""
    return [item for item in vector if item in keyword] + [item for item in vector if item not in keyword]


def _borda(vector, keyword):
    """Another design that passes: Borda points, n − rank from each ranking, a missing id scores 0."""
    n = len(vector)
    points = {item: n - rank for rank, item in enumerate(vector)}
    for rank, item in enumerate(keyword):
        points[item] += n - rank
    return sorted(vector, key=lambda item: -points[item])


@pytest.mark.parametrize("wrong", [_keyword_hits_first, _keyword_filter_by_cosine])
def test_check_fusion_refuses_a_rule_that_ignores_one_rankings_order(wrong, capsys):
    assert_refused(lesson04.check_fusion(wrong), capsys, "each ranking's order counts")


@pytest.mark.parametrize("wrong, message", [
    (_vector_only, "the keyword ranking counts"),
    (_best_rank_only, "the keyword ranking counts"),
    (_ties_by_name, "neutral"),
    (_keyword_ids_only, "every id once"),
    (_interleaved, "the keyword ranking counts"),
    (_keyword_vote_subtracts, "agreement wins"),
])
def test_check_fusion_refuses_a_fusion_that_breaks_a_property_and_names_it(wrong, message, capsys):
    assert_refused(lesson04.check_fusion(wrong), capsys, message)


def test_the_failing_case_reported_is_the_smallest(capsys):
    lesson04.check_fusion(_vector_only)
    assert "fuse(['m1', 'm2'], ['m2'])" in capsys.readouterr().out


@pytest.mark.parametrize("design", [rrf_fuse, votes_fuse, _weighted_rrf, _borda])
def test_any_reasonable_design_passes(design, capsys):
    assert lesson04.check_fusion(design) is True, capsys.readouterr().out


def test_id_score_pairs_are_accepted_as_well_as_ids(capsys):
    assert lesson04.check_fusion(lambda v, k: reciprocal_rank_fusion([v, k])) is True, capsys.readouterr().out


def test_a_check_reports_a_crash_in_the_learners_code_instead_of_raising(capsys):
    assert lesson04.check_fusion(lambda vector, keyword: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out


# ---------------------------------------------------------------- 04.2 and the stretch


class _KeywordVotesForEveryone(MyHybridMemory):
    def keyword_ranking(self, query):
        scores = self.bm25.scores(lesson04_tokenize(query))
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")]


def lesson04_tokenize(text):
    from aria_kit.bm25 import tokenize

    return tokenize(text)


class _IdsFromZero(MyHybridMemory):
    def store(self, text):
        memory_id = super().store(text)
        self.ids[-1] = f"mem_{len(self.ids) - 1:04d}"
        return self.ids[-1] if memory_id else memory_id


class _WorstCosineFirst(MyHybridMemory):
    def vector_ranking(self, query):
        return list(reversed(super().vector_ranking(query)))


class _KeywordRankingFirst(MyHybridMemory):
    def search(self, query, top_k=3):
        return reciprocal_rank_fusion([self.keyword_ranking(query), self.vector_ranking(query)], self.k)[:top_k]


class _RrfWithKZero(MyHybridMemory):
    def search(self, query, top_k=3):
        return reciprocal_rank_fusion([self.vector_ranking(query), self.keyword_ranking(query)], 0)[:top_k]


class _SplitOnSpaces(MyHybridMemory):
    def keyword_ranking(self, query):
        scores = self.bm25.scores(query.lower().split())  # "database?" keeps its question mark
        return [self.ids[i] for i in np.argsort(-scores, kind="stable") if scores[i] > 0]


class _KeywordTiesNewerFirst(MyHybridMemory):
    def keyword_ranking(self, query):
        scores = self.bm25.scores(lesson04_tokenize(query))
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], -i))  # equal scores: the newer memory first
        return [self.ids[i] for i in order if scores[i] > 0]


class _EmptyMemoryCrashes(MyHybridMemory):
    def search(self, query, top_k=3):
        return super().search(query, top_k) if self.ids else None


def _unnormalised_mix(cosine, bm25, weight=0.5):
    return weight * np.asarray(cosine) + (1 - weight) * np.asarray(bm25)


def _weights_swapped(cosine, bm25, weight=0.5):
    return convex_mix(cosine, bm25, 1 - weight)


def _min_max(cosine, bm25, weight=0.5):
    def scaled(x):
        x = np.asarray(x, dtype=float)
        return (x - x.min()) / (x.max() - x.min()) if x.max() > x.min() else np.zeros_like(x)

    return weight * scaled(cosine) + (1 - weight) * scaled(bm25)


class _StubMemory:
    """Lesson 04's stub class: it can be built, and every method still raises NotImplementedError."""

    def __init__(self, *args, **kwargs):
        pass

    store = vector_ranking = keyword_ranking = search = unwritten


LESSON04 = [(lesson04.check_fusion, rrf_fuse), (lesson04.check_fusion, votes_fuse),
            (lesson04.check_my_hybrid_memory, MyHybridMemory, _StubMemory), (lesson04.check_convex_mix, convex_mix)]
test_lesson04_checks_pass_the_worked_solutions, test_lesson04_checks_say_not_done_yet_for_a_stub = check_tests(LESSON04)


@pytest.mark.parametrize("wrong, message", [
    (_KeywordVotesForEveryone, "a memory scoring 0 shares no word"),
    (_IdsFromZero, "store should return 'mem_0001'"),
    (_WorstCosineFirst, "highest first"),
    (_KeywordRankingFirst, "fuse the vector ranking first"),
    (_RrfWithKZero, "fuse the vector ranking first"),
    (_SplitOnSpaces, "aria_kit.bm25.tokenize"),
    (_EmptyMemoryCrashes, "an empty memory should return no hits"),
    (_KeywordTiesNewerFirst, "equal scores keep the older memory first"),
])
def test_check_my_hybrid_memory_names_the_part_that_differs(wrong, message, capsys):
    assert_refused(lesson04.check_my_hybrid_memory(wrong), capsys, message)


def test_a_tie_broken_the_other_way_is_shown_where_the_rankings_part(capsys):
    assert_refused(lesson04.check_my_hybrid_memory(_KeywordTiesNewerFirst), capsys,
                   "parts from HybridMemory's at position 4: yours has ['mem_0016', 'mem_0003'")


@pytest.mark.parametrize("wrong", [_unnormalised_mix, _weights_swapped, _min_max])
def test_check_convex_mix_fails_unscaled_min_max_and_swapped_weights(wrong, capsys):
    assert_refused(lesson04.check_convex_mix(wrong), capsys, "cosine' = (cosine + 1)/(max cosine + 1)")


def test_the_worked_convex_mix_is_the_kits():
    rng = np.random.default_rng(0)
    cosine, bm25 = rng.uniform(-1, 1, 9), rng.uniform(0, 4, 9)
    assert np.allclose(convex_mix(cosine, bm25, 0.3), ConvexFusion(0.3).fuse(cosine, bm25), atol=1e-15)


def test_with_the_solutions_in_place_every_check_passes_and_the_table_shows_the_learners_memory():
    import re

    from solved_lessons import run_solved

    text = run_solved("04_hybrid_search", {
        "fuse": "from aria_kit.solutions.lesson04 import votes_fuse as fuse\n"
                "from aria_kit.exercises.lesson04 import check_fusion",
        "MyHybridMemory": "from aria_kit.solutions.lesson04 import MyHybridMemory",
        "convex_mix": "from aria_kit.exercises.lesson04 import check_convex_mix\n"
                      "from aria_kit.solutions.lesson04 import convex_mix\n"
                      "stretch_done = check_convex_mix(convex_mix)",
    })
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts == ["✓", "✓", "✓"], verdicts
    assert "(finish 04.2)" not in text and "mem_0031      " in text
