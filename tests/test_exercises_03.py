"""Lesson 03's checks pass both designs of the worked index and answer wrong ones with the smallest failing case.

Each wrong answer is a mistake a learner could really make (a slot handed out again, a silent remove of a
slot that holds nothing, removed documents still counted in N or in the average length, rank_bm25's idf,
a repeated query term counted once, …), so a check that stopped checking one of them turns its test red.
The last test runs the lesson with the solutions in place of the stubs.
"""

from __future__ import annotations

import math
import re

import pytest
from exercise_checks import assert_refused, check_tests, unwritten
from solved_lessons import run_solved

from aria_kit.bm25 import tokenize
from aria_kit.exercises import lesson03
from aria_kit.solutions import lesson03 as s03


class _UnwrittenIndex:
    """The lesson-03 stub: ``__init__`` given, the methods still to write."""

    def __init__(self, k1=1.5, b=0.75):
        self.k1, self.b = k1, b

    def add(self, tokens):
        raise NotImplementedError

    def remove(self, slot):
        raise NotImplementedError

    def scores(self, query_tokens):
        raise NotImplementedError


CHECKS = [
    (lesson03.check_bm25_index, s03.DictIndex, _UnwrittenIndex),
    (lesson03.check_bm25_index, s03.TombstoneIndex, _UnwrittenIndex),
    (lesson03.check_stemmer, s03.stem_tokenize, unwritten),
]
test_every_check_accepts_the_worked_solution, test_an_untouched_stub_reads_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- typical wrong answers


class _ReusesSlots(s03.DictIndex):
    def add(self, tokens):
        slot = len(self.lengths)  # a removed slot comes back
        while len(self.terms) <= slot:
            self.terms.append(None)
        self.terms = self.terms[:slot]
        return super().add(tokens)


class _RemoveTwiceIsSilent(s03.DictIndex):
    def remove(self, slot):
        if slot in self.lengths:
            super().remove(slot)


class _NCountsRemoved(s03.DictIndex):
    def scores(self, query_tokens):
        scores = [0.0] * len(self.terms)
        if not self.lengths:
            return scores
        avgdl = sum(self.lengths.values()) / len(self.lengths)
        for term in query_tokens:
            postings = self.postings.get(term, {})
            idf = math.log(1 + (len(self.terms) - len(postings) + 0.5) / (len(postings) + 0.5))  # N = every slot
            for slot, tf in postings.items():
                norm = self.k1 * (1 - self.b + self.b * self.lengths[slot] / avgdl)
                scores[slot] += idf * tf * (self.k1 + 1) / (tf + norm)
        return scores


class _TombstonesStillCountInDf(s03.TombstoneIndex):
    def remove(self, slot):
        if not 0 <= slot < len(self.dead) or self.dead[slot]:
            raise KeyError(slot)
        self.dead[slot] = True  # df is not lowered


class _OkapiIdf(s03.DictIndex):
    def scores(self, query_tokens):
        scores = [0.0] * len(self.terms)
        n_docs = len(self.lengths)
        if not n_docs:
            return scores
        avgdl = sum(self.lengths.values()) / n_docs
        for term in query_tokens:
            postings = self.postings.get(term, {})
            idf = math.log((n_docs - len(postings) + 0.5) / (len(postings) + 0.5))  # rank_bm25's, negative when common
            for slot, tf in postings.items():
                norm = self.k1 * (1 - self.b + self.b * self.lengths[slot] / avgdl)
                scores[slot] += idf * tf * (self.k1 + 1) / (tf + norm)
        return scores


class _LiveSlotsOnly(s03.DictIndex):
    def scores(self, query_tokens):
        return [score for slot, score in enumerate(super().scores(query_tokens)) if slot in self.lengths]


class _QueryTermsOnce(s03.DictIndex):
    def scores(self, query_tokens):
        return super().scores(list(dict.fromkeys(query_tokens)))


class _FixedK1(s03.DictIndex):
    def __init__(self, k1=1.5, b=0.75):
        super().__init__()


def _suffix_s_only(text):
    return [t[:-1] if t.endswith("s") and len(t) > 3 else t for t in s03.tokenize(text)]


def _greedy_prefix(text):
    return [t[:2] for t in s03.tokenize(text)]


def _drops_short_words(text):
    return [t for t in s03.stem_tokenize(text) if len(t) > 2]


WRONG = [
    (lesson03.check_bm25_index, _ReusesSlots, "never handed out again"),
    (lesson03.check_bm25_index, _RemoveTwiceIsSilent, "raise KeyError"),
    (lesson03.check_bm25_index, _NCountsRemoved, "still in the index"),
    (lesson03.check_bm25_index, _TombstonesStillCountInDf, "no longer count in df"),
    (lesson03.check_bm25_index, _OkapiIdf, "Lucene's idf"),
    (lesson03.check_bm25_index, _LiveSlotsOnly, "one score per slot ever handed out"),
    (lesson03.check_bm25_index, _QueryTermsOnce, "once per repetition"),
    (lesson03.check_bm25_index, _FixedK1, "the k1 and b given to the constructor"),
    (lesson03.check_stemmer, _suffix_s_only, "should all become the same token"),
    (lesson03.check_stemmer, _greedy_prefix, "should stay"),
    (lesson03.check_stemmer, _drops_short_words, "should stay"),
]


def test_the_kits_snowball_stemmer_passes_the_stretch_check(capsys):
    # Snowball turns "storage" into "storag", not "store": the check must not demand that family.
    assert lesson03.check_stemmer(lambda text: tokenize(text, stem=True)), capsys.readouterr().out


@pytest.mark.parametrize(("check", "wrong", "hint"), WRONG, ids=[w.__name__ for _, w, _ in WRONG])
def test_a_typical_wrong_answer_fails_with_a_hint(check, wrong, hint, capsys):
    assert_refused(check(wrong), capsys, hint)


def test_the_failing_case_reported_is_shrunk_to_the_smallest():
    script = lesson03._random_script(__import__("random").Random(0)) + [("add", ["a", "b", "c"]), ("add", ["a"]),
                                                                        ("query", ["a", "a"])]
    smallest = lesson03._shrunk(_QueryTermsOnce, script, 1.5, 0.75)
    assert smallest == [("add", ["a"]), ("query", ["a", "a"])] or (
        len(smallest) == 2 and smallest[0][0] == "add" and len(smallest[0][1]) == 1), smallest


def test_the_two_designs_agree_with_counting_by_hand():
    for design in (s03.DictIndex, s03.TombstoneIndex):
        index = design()
        for text in ("a a b", "b c", "c c c d"):
            index.add(s03.tokenize(text))
        index.remove(1)
        with pytest.raises(KeyError):
            index.remove(1)
        avgdl, idf = 3.5, math.log(1 + 1.5 / 1.5)  # two live documents of 3 and 4 tokens; "a" is in one of them
        expected = idf * 2 * 2.5 / (2 + 1.5 * (0.25 + 0.75 * 3 / avgdl))
        assert [round(x, 12) for x in index.scores(["a"])] == [round(expected, 12), 0.0, 0.0]


def test_with_the_solutions_in_place_every_check_passes_and_every_comparison_shows_the_learners_result():
    text = run_solved("03_bm25", {"MyBM25Index": "from aria_kit.solutions.lesson03 import DictIndex as MyBM25Index",
                                  "stem_tokenize": "from aria_kit.solutions.lesson03 import stem_tokenize"})
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts and set(verdicts) == {"✓"}, f"check verdicts with the solutions in place: {verdicts}"
    assert "not done yet" not in text
