"""Lesson 03's checks pass the worked solutions and answer typical wrong indexes and scorers with a hint.

Each wrong answer is a mistake a learner could really make (a slot handed out again, a term
left with an empty postings list, removed documents still counted in N or in the average
length, rank_bm25's idf, …), so a check that stopped checking one of them turns its test red.
The last test runs the lesson with the solutions in place of the stubs.
"""

from __future__ import annotations

import math
import re

import pytest
from exercise_checks import assert_refused, check_tests, unwritten
from solved_lessons import run_solved

from aria_kit.exercises import lesson03
from aria_kit.solutions import lesson03 as s03


class _UnwrittenIndex:
    """The lesson-03 stub: ``__init__`` given, the methods still to write."""

    def __init__(self):
        self.postings, self.lengths, self.slots = {}, {}, 0

    def add(self, tokens):
        raise NotImplementedError

    def remove(self, slot):
        raise NotImplementedError

    def df(self, term):
        raise NotImplementedError


CHECKS = [
    (lesson03.check_inverted_index, s03.InvertedIndex, _UnwrittenIndex),
    (lesson03.check_bm25_scores, s03.bm25_scores, unwritten),
    (lesson03.check_stemmer, s03.stem_tokenize, unwritten),
]
test_every_check_accepts_the_worked_solution, test_an_untouched_stub_reads_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- typical wrong answers


class _ReusesSlots(s03.InvertedIndex):
    def add(self, tokens):
        self.slots = len(self.lengths)  # a removed slot comes back
        return super().add(tokens)


class _KeepsEmptyPostings(s03.InvertedIndex):
    def remove(self, slot):
        if slot not in self.lengths:
            raise KeyError(slot)
        for slots in self.postings.values():
            slots.pop(slot, None)
        del self.lengths[slot]


class _SetNotCounts(s03.InvertedIndex):
    def add(self, tokens):
        return super().add(sorted(set(tokens)))


class _RemoveTwiceIsSilent(s03.InvertedIndex):
    def remove(self, slot):
        if slot in self.lengths:
            super().remove(slot)


class _DfCountsOccurrences(s03.InvertedIndex):
    def df(self, term):
        return sum(self.postings.get(term, {}).values())


def _n_counts_removed(index, query_tokens, k1=1.5, b=0.75):
    scores = [0.0] * index.slots
    avgdl = sum(index.lengths.values()) / len(index.lengths)
    for term in query_tokens:
        postings = index.postings.get(term, {})
        idf = math.log(1 + (index.slots - len(postings) + 0.5) / (len(postings) + 0.5))
        for slot, tf in postings.items():
            scores[slot] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * index.lengths[slot] / avgdl))
    return scores


def _avgdl_over_all_slots(index, query_tokens, k1=1.5, b=0.75):
    n_docs = len(index.lengths)
    avgdl = sum(index.lengths.values()) / index.slots
    scores = [0.0] * index.slots
    for term in query_tokens:
        postings = index.postings.get(term, {})
        idf = math.log(1 + (n_docs - len(postings) + 0.5) / (len(postings) + 0.5))
        for slot, tf in postings.items():
            scores[slot] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * index.lengths[slot] / avgdl))
    return scores


def _okapi_idf_scores(index, query_tokens, k1=1.5, b=0.75):
    n_docs = len(index.lengths)
    avgdl = sum(index.lengths.values()) / n_docs
    scores = [0.0] * index.slots
    for term in query_tokens:
        postings = index.postings.get(term, {})
        idf = math.log((n_docs - len(postings) + 0.5) / (len(postings) + 0.5))  # rank_bm25's, negative when common
        for slot, tf in postings.items():
            scores[slot] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * index.lengths[slot] / avgdl))
    return scores


def _live_slots_only(index, query_tokens, k1=1.5, b=0.75):
    scores = s03.bm25_scores(index, query_tokens, k1, b)
    return [score for slot, score in enumerate(scores) if slot in index.lengths]


def _query_terms_once(index, query_tokens, k1=1.5, b=0.75):
    return s03.bm25_scores(index, list(dict.fromkeys(query_tokens)), k1, b)


def _fixed_k1(index, query_tokens, k1=1.5, b=0.75):
    return s03.bm25_scores(index, query_tokens)


def _suffix_s_only(text):
    return [t[:-1] if t.endswith("s") and len(t) > 3 else t for t in s03.tokenize(text)]


def _greedy_prefix(text):
    return [t[:2] for t in s03.tokenize(text)]


def _drops_short_words(text):
    return [t for t in s03.stem_tokenize(text) if len(t) > 2]


WRONG = [
    (lesson03.check_inverted_index, _ReusesSlots, "never handed out again"),
    (lesson03.check_inverted_index, _KeepsEmptyPostings, "with no document"),
    (lesson03.check_inverted_index, _SetNotCounts, "how often the term occurs"),
    (lesson03.check_inverted_index, _RemoveTwiceIsSilent, "should raise KeyError"),
    (lesson03.check_inverted_index, _DfCountsOccurrences, "documents, got"),
    (lesson03.check_bm25_scores, _n_counts_removed, "still in the index"),
    (lesson03.check_bm25_scores, _avgdl_over_all_slots, "still in the index"),
    (lesson03.check_bm25_scores, _okapi_idf_scores, "should score"),
    (lesson03.check_bm25_scores, _live_slots_only, "one score per slot ever handed out"),
    (lesson03.check_bm25_scores, _query_terms_once, "should score"),
    (lesson03.check_bm25_scores, _fixed_k1, "use the k1 and b you are given"),
    (lesson03.check_stemmer, _suffix_s_only, "should all become the same token"),
    (lesson03.check_stemmer, _greedy_prefix, "should stay"),
    (lesson03.check_stemmer, _drops_short_words, "should stay"),
]


@pytest.mark.parametrize(("check", "wrong", "hint"), WRONG, ids=[w.__name__ for _, w, _ in WRONG])
def test_a_typical_wrong_answer_fails_with_a_hint(check, wrong, hint, capsys):
    assert_refused(check(wrong), capsys, hint)


def test_the_inverted_index_solution_agrees_with_counting_by_hand():
    index = s03.InvertedIndex()
    for text in ("a a b", "b c", "c c c d"):
        index.add(s03.tokenize(text))
    index.remove(1)
    assert index.postings == {"a": {0: 2}, "b": {0: 1}, "c": {2: 3}, "d": {2: 1}}
    assert index.lengths == {0: 3, 2: 4} and index.slots == 3
    assert [index.df(t) for t in "abcdz"] == [1, 1, 1, 1, 0]


def test_with_the_solutions_in_place_every_check_passes_and_every_comparison_shows_the_learners_result():
    text = run_solved("03_bm25", {name: f"from aria_kit.solutions.lesson03 import {name}"
                                  for name in ("InvertedIndex", "bm25_scores", "stem_tokenize")})
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts and set(verdicts) == {"✓"}, f"check verdicts with the solutions in place: {verdicts}"
    assert "not done yet" not in text


def _scores_as_array(index, query_tokens, k1=1.5, b=0.75):
    import numpy as np

    return np.array(s03.bm25_scores(index, query_tokens, k1, b))  # right numbers, not the list the task asks for


def test_bm25_scores_refuses_an_array_where_the_task_asks_for_a_list(capsys):
    assert_refused(lesson03.check_bm25_scores(_scores_as_array), capsys, "asks for a list")


def test_the_stretch_answers_account_of_what_stemming_fixes_holds():
    from aria_kit.evaluation import EVAL_MEMORIES

    texts = [text for text, _ in EVAL_MEMORIES]
    meet = "When does Alice meet the infrastructure team?"
    assert s03.best_match(texts, meet) != 3 and s03.best_match(texts, meet, s03.stem_tokenize) == 3  # mem_0004
    dashboards = "Which dashboards track the database?"
    stemmed = s03.best_match(texts, dashboards, s03.stem_tokenize)
    assert texts[stemmed].startswith("Ticket VDB-1377") and s03.best_match(texts, dashboards) != stemmed
    storage = "What was the old storage engine?"
    assert s03.best_match(texts, storage) == s03.best_match(texts, storage, s03.stem_tokenize) == 9
    assert "storage platform group" in texts[9]
