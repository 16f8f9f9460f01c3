"""Lesson 04's checks pass the worked solutions and answer typical wrong fusions and memories with a hint.

The RRF check is a specification check: a correct answer written another way passes, and each
typical slip (ranks from 0, a score for an absent id, a dict, an unsorted or id-sorted list, a
duplicated id added twice) fails on the smallest case that shows it, with the idea it misses.
"""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests, unwritten, verdict

from aria_kit.exercises import lesson04
from aria_kit.solutions.lesson04 import MyHybridMemory, ScoreFusionMemory, rrf

# ---------------------------------------------------------------- lesson 04: rrf


def _ranks_from_zero(rankings, k=60):
    scores = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + 1 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def _absent_counts_as_last(rankings, k=60):
    everyone = list(dict.fromkeys(item for ranking in rankings for item in ranking))
    scores = {item: 0.0 for item in everyone}
    for ranking in rankings:
        for item in everyone:
            rank = ranking.index(item) + 1 if item in ranking else len(ranking) + 1
            scores[item] += 1 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def _unsorted_rrf(rankings, k=60):
    return list(reversed(rrf(rankings, k)))


def _ties_by_id(rankings, k=60):
    return sorted(rrf(rankings, k), key=lambda pair: (-pair[1], pair[0][::-1]))


def _returns_a_dict(rankings, k=60):
    return dict(rrf(rankings, k))


def _sums_duplicates(rankings, k=60):
    scores = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def _rrf_by_id_order(rankings, k=60):
    return sorted(rrf(rankings, k), key=lambda pair: pair[0])  # sorted by id, not by score


def _rrf_another_way(rankings, k=60):
    """A correct answer written differently: collections.Counter and a first-met index."""
    from collections import Counter

    scores, first_met = Counter(), {}
    for ranking in rankings:
        if len(set(ranking)) < len(ranking):
            raise ValueError("duplicate id")
        for rank, item in enumerate(ranking, start=1):
            scores[item] += 1 / (k + rank)
            first_met.setdefault(item, len(first_met))
    return [(item, scores[item]) for item in sorted(scores, key=lambda i: (-scores[i], first_met[i]))]


# ---------------------------------------------------------------- lesson 04: MyHybridMemory


class _KeywordVotesForEveryone(MyHybridMemory):
    def keyword_ranking(self, query):
        scores = self.bm25_scores(query)
        return [self.ids[i] for i in sorted(range(len(scores)), key=lambda i: -scores[i])]


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
        return rrf([self.keyword_ranking(query), self.vector_ranking(query)], self.k)[:top_k]


class _RrfWithKZero(MyHybridMemory):
    def search(self, query, top_k=3):
        return rrf([self.vector_ranking(query), self.keyword_ranking(query)], 0)[:top_k]


class _NoIdfBm25(MyHybridMemory):
    def bm25_scores(self, query):
        lengths = [sum(c.values()) for c in self.term_counts]
        avg = sum(lengths) / len(lengths)
        scores = [0.0] * len(self.term_counts)
        for term in query.lower().split():  # split on spaces, and no idf
            for i, counts in enumerate(self.term_counts):
                tf = counts[term]
                scores[i] += tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * lengths[i] / avg)) if tf else 0.0
        return scores


class _EmptyMemoryCrashes(MyHybridMemory):
    def search(self, query, top_k=3):
        return rrf([self.vector_ranking(query), self.keyword_ranking(query)], self.k)[:top_k] if self.ids else None


class _ScoreFusionWithoutNormalising(ScoreFusionMemory):
    def search(self, query, top_k=3):
        cosine = self.vectors @ self.embedder.embed([query])[0]
        fused = self.weight * cosine + (1 - self.weight) * np.array(self.bm25_scores(query))
        return [(self.ids[i], float(fused[i])) for i in np.argsort(-fused, kind="stable")[:top_k]]


class _ScoreFusionWeightsSwapped(ScoreFusionMemory):
    def __init__(self, embedder, weight=0.5):
        super().__init__(embedder, 1 - weight)


class _StubMemory:
    """Lesson 04's stub class: it can be built, and every method still raises NotImplementedError."""

    def __init__(self, *args, **kwargs):
        pass

    store = vector_ranking = keyword_ranking = search = unwritten


LESSON04 = [(lesson04.check_rrf, rrf), (lesson04.check_my_hybrid_memory, MyHybridMemory, _StubMemory),
            (lesson04.check_score_fusion, ScoreFusionMemory, _StubMemory)]
test_lesson04_checks_pass_the_worked_solutions, test_lesson04_checks_say_not_done_yet_for_a_stub = check_tests(LESSON04)


@pytest.mark.parametrize("wrong, message", [
    (_ranks_from_zero, "ranks start at 1"),
    (_absent_counts_as_last, "should score"),
    (_unsorted_rrf, "not sorted best first"),
    (_ties_by_id, "breaks a tie differently"),
    (_returns_a_dict, "return a list of (id, score) pairs"),
    (_sums_duplicates, "raise ValueError"),
    (_rrf_by_id_order, "not sorted best first"),
])
def test_check_rrf_fails_typical_mistakes_with_a_reason(wrong, message, capsys):
    assert_refused(lesson04.check_rrf(wrong), capsys, message)


@pytest.mark.parametrize("wrong, message", [
    (_KeywordVotesForEveryone, "a memory scoring 0 shares no word"),
    (_IdsFromZero, "store should return 'mem_0001'"),
    (_WorstCosineFirst, "highest first"),
    (_KeywordRankingFirst, "fuse the vector ranking first"),
    (_RrfWithKZero, "fuse the vector ranking first"),
    (_NoIdfBm25, "Lucene's idf"),
    (_EmptyMemoryCrashes, "an empty memory should return no hits"),
])
def test_check_my_hybrid_memory_names_the_part_that_differs(wrong, message, capsys):
    assert_refused(lesson04.check_my_hybrid_memory(wrong), capsys, message)


@pytest.mark.parametrize("wrong", [_ScoreFusionWithoutNormalising, _ScoreFusionWeightsSwapped])
def test_check_score_fusion_fails_unscaled_scores_and_swapped_weights(wrong, capsys):
    assert lesson04.check_score_fusion(wrong) is False
    assert verdict(capsys) == "✗"


def test_a_correct_rrf_written_another_way_passes(capsys):
    assert lesson04.check_rrf(_rrf_another_way) is True, capsys.readouterr().out


def test_the_smallest_failing_case_is_the_one_reported(capsys):
    lesson04.check_rrf(_ranks_from_zero)
    assert "rrf([['x']], k=60)" in capsys.readouterr().out


def test_a_check_reports_a_crash_in_the_learners_code_instead_of_raising(capsys):
    assert lesson04.check_rrf(lambda rankings, k=60: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out




# ---------------------------------------------------------------- the specification's properties, on any rankings

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from aria_kit.fusion import reciprocal_rank_fusion  # noqa: E402

_rankings = st.lists(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=6), min_size=1, max_size=4)


@settings(max_examples=100, deadline=None)
@given(_rankings, st.integers(0, 100))
def test_the_worked_rrf_agrees_with_the_kit_and_ignores_the_order_of_the_rankings(rankings, k):
    if k == 0 and any(rankings):
        k = 1  # k = 0 is allowed; it only makes rank 1 score 1.0
    ours, kit = rrf(rankings, k), reciprocal_rank_fusion(rankings, k)
    assert [i for i, _ in ours] == [i for i, _ in kit]
    assert all(abs(a - b) < 1e-12 for (_, a), (_, b) in zip(ours, kit))
    backwards = dict(rrf(rankings[::-1], k))
    assert all(abs(backwards[i] - s) < 1e-12 for i, s in ours)


@settings(max_examples=100, deadline=None)
@given(_rankings, st.data())
def test_moving_an_id_up_a_ranking_never_lowers_its_score(rankings, data):
    ranking = data.draw(st.sampled_from(rankings))
    if len(ranking) < 2:
        return
    item = data.draw(st.sampled_from(ranking))
    lifted = [[item] + [i for i in r if i != item] if r is ranking else r for r in rankings]
    assert dict(rrf(lifted))[item] >= dict(rrf(rankings))[item] - 1e-12


def test_with_the_solutions_in_place_every_check_passes_and_the_table_shows_the_learners_memory():
    import re

    from solved_lessons import run_solved

    text = run_solved("04_hybrid_search", {
        "rrf": "from aria_kit.solutions.lesson04 import rrf",
        "MyHybridMemory": "from aria_kit.solutions.lesson04 import MyHybridMemory",
        "ScoreFusionMemory": "from aria_kit.exercises.lesson04 import check_score_fusion\n"
                             "from aria_kit.solutions.lesson04 import ScoreFusionMemory\n"
                             "stretch_done = check_score_fusion(ScoreFusionMemory)",
    })
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts == ["✓", "✓", "✓"], verdicts
    assert "(finish 04.2)" not in text and "mem_0031      " in text
