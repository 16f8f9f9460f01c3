"""The exercise checks of lessons 01–03 pass the worked solutions and fail plausible wrong answers.

Each wrong answer is a mistake a learner could really make (a reused id, a bare dot
product, an unstable sort, a term left with an empty postings list, removed
documents still counted in N, …), so a check that stopped checking something
would turn one of these tests red. The last test runs lessons 01–03 with the worked
solutions in place of the stubs, so the cells that compare a learner's code with
the kit's (which the committed outputs show unfinished) are exercised too.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import os
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

from aria_kit.exercises import lesson01, lesson02, lesson03
from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord
from aria_kit.solutions import lesson01 as s01
from aria_kit.solutions import lesson02 as s02
from aria_kit.solutions import lesson03 as s03
from exercise_checks import check_tests, unwritten


class _Unwritten(MemoryBackend):
    """The lesson-01 stub as the notebook gives it: every method still raises NotImplementedError."""

    def store(self, text, metadata=None):
        raise NotImplementedError

    def search(self, query, top_k=3):
        raise NotImplementedError

    def list_all(self):
        raise NotImplementedError

    def delete(self, memory_id):
        raise NotImplementedError


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


class _UnwrittenEmbedder(s02.OrderAwareEmbedder):
    def __init__(self):
        pass

    def embed(self, texts):
        raise NotImplementedError


CHECKS = [
    (lesson01.check_memory_backend, s01.MyMemory, _Unwritten),
    (lesson01.check_bounded_memory, s01.BoundedMemory, unwritten),
    (lesson02.check_unit_length, s02.to_unit_length, unwritten),
    (lesson02.check_cosine, s02.cosine, unwritten),
    (lesson02.check_top_k, s02.top_k_by_cosine, unwritten),
    (lesson02.check_order_aware_embedder, s02.OrderAwareEmbedder(), _UnwrittenEmbedder()),
    (lesson03.check_inverted_index, s03.InvertedIndex, _UnwrittenIndex),
    (lesson03.check_bm25_scores, s03.bm25_scores, unwritten),
    (lesson03.check_stemmer, s03.stem_tokenize, unwritten),
]


test_every_check_accepts_the_worked_solution, test_an_untouched_stub_reads_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- lesson 01: plausible wrong memories


class _ReusesIds(s01.MyMemory):
    def store(self, text, metadata=None):
        self.next_number = len(self.records) + 1  # the lesson's toy did this: an id comes back after a delete
        return super().store(text, metadata)


class _OldestFirstOnTies(s01.MyMemory):
    def search(self, query, top_k=3):
        scored = [(len(s01.words(query) & s01.words(r.text)), r) for r in self.records]
        scored = sorted([p for p in scored if p[0] > 0], key=lambda p: -p[0])
        return [Hit(r.id, r.text, r.metadata, 1 / (60 + rank), 0.0, 0.0)
                for rank, (_, r) in enumerate(scored[:top_k], start=1)]


class _SharedWordsAsScore(s01.MyMemory):
    def search(self, query, top_k=3):
        return [dataclasses.replace(h, score=float(len(s01.words(query) & s01.words(h.text))))
                for h in super().search(query, top_k)]


class _ListAllAliases(s01.MyMemory):
    def list_all(self):
        return self.records


class _DeleteRaises(s01.MyMemory):
    def delete(self, memory_id):
        index = [r.id for r in self.records].index(memory_id)  # ValueError for an unknown id
        del self.records[index]
        return True


class _NoDefaultCategory(s01.MyMemory):
    def store(self, text, metadata=None):
        record = MemoryRecord(f"mem_{self.next_number:04d}", text, metadata or {})
        self.next_number += 1
        self.records.append(record)
        return record.id


class _IgnoresTopK(s01.MyMemory):
    def search(self, query, top_k=3):
        return super().search(query, top_k=100)


class _Abstract(MemoryBackend):
    def store(self, text, metadata=None):
        return "mem_0001"


class _KeepsNoCapacity(s01.BoundedMemory):
    def store(self, text, metadata=None):
        return self.inner.store(text, metadata)  # forgot to forget


class _ForgetsNewest(s01.BoundedMemory):
    def store(self, text, metadata=None):
        new_id = self.inner.store(text, metadata)
        records = self.inner.list_all()
        for record in records[self.capacity:]:
            self.inner.delete(record.id)
        return new_id


class _NoCapacityCheck(s01.BoundedMemory):
    def __init__(self, inner, capacity):
        self.inner, self.capacity = inner, capacity


# ---------------------------------------------------------------- lesson 02: plausible wrong answers


def _divides_by_matrix_norm(vectors):
    return np.asarray(vectors, dtype=float) / np.linalg.norm(vectors)


def _nan_for_zero_rows(vectors):
    vectors = np.asarray(vectors, dtype=float)
    with np.errstate(all="ignore"):
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _divides_by_sum(vectors):
    vectors = np.asarray(vectors, dtype=float)
    sums = np.abs(vectors).sum(axis=1, keepdims=True)
    return np.divide(vectors, sums, out=np.zeros_like(vectors), where=sums > 0)


def _dot_product(a, b):
    return float(np.dot(a, b))  # forgot to divide by the lengths


def _textbook_cosine(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))  # NaN for a zero vector


def _worst_first(query, matrix, k):
    scores = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return list(np.argsort(scores)[:k])


def _by_dot_product(query, matrix, k):
    return list(np.argsort(-(matrix @ query))[:k])


def _unstable_sort(query, matrix, k):
    scores = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
    return list(np.argsort(-scores)[:k])  # numpy's default sort may reorder equal scores


class _BagOfWords(s02.OrderAwareEmbedder):
    def __init__(self):
        super().__init__(order_weight=0.0)  # WordLlama alone: word order is still lost


class _TrigramsOnly(s02.OrderAwareEmbedder):
    def __init__(self):
        super().__init__(order_weight=1.0)  # hears the order, has lost the meaning


# ---------------------------------------------------------------- lesson 03: plausible wrong answers


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
    (lesson01.check_memory_backend, _ReusesIds, "never be reused"),
    (lesson01.check_memory_backend, _OldestFirstOnTies, "newest first on a tie"),
    (lesson01.check_memory_backend, _SharedWordsAsScore, "1/(60 + r)"),
    (lesson01.check_memory_backend, _ListAllAliases, "return a copy"),
    (lesson01.check_memory_backend, _DeleteRaises, "your code raised ValueError"),
    (lesson01.check_memory_backend, _NoDefaultCategory, "'category': 'general'"),
    (lesson01.check_memory_backend, _IgnoresTopK, "at most top_k"),
    (lesson01.check_memory_backend, _Abstract, "lacks delete, list_all, search"),
    (lesson01.check_bounded_memory, _KeepsNoCapacity, "three newest should remain"),
    (lesson01.check_bounded_memory, _ForgetsNewest, "three newest should remain"),
    (lesson01.check_bounded_memory, _NoCapacityCheck, "should raise ValueError"),
    (lesson02.check_unit_length, _divides_by_matrix_norm, "divide each row by its own length"),
    (lesson02.check_unit_length, _nan_for_zero_rows, "became NaN"),
    (lesson02.check_unit_length, _divides_by_sum, "square root of the sum of its squares"),
    (lesson02.check_cosine, _dot_product, "divide the dot product by both lengths"),
    (lesson02.check_cosine, _textbook_cosine, "zero vector"),
    (lesson02.check_top_k, _worst_first, "least similar"),
    (lesson02.check_top_k, _by_dot_product, "ranked by dot product"),
    (lesson02.check_top_k, _unstable_sort, "kind='stable'"),
    (lesson02.check_order_aware_embedder, _BagOfWords(), "order of their tokens"),
    (lesson02.check_order_aware_embedder, _TrigramsOnly(), "meaning got lost"),
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


def _name(wrong) -> str:
    return getattr(wrong, "__name__", type(wrong).__name__)


@pytest.mark.parametrize(("check", "wrong", "hint"), WRONG, ids=[_name(w) for _, w, _ in WRONG])
def test_a_plausible_wrong_answer_fails_with_a_hint(check, wrong, hint, capsys):
    assert check(wrong) is False
    out = capsys.readouterr().out
    assert out.startswith("✗") and hint in out, out


def test_a_crashing_answer_is_reported_not_raised(capsys):
    assert lesson02.check_cosine(lambda a, b: 1 / 0) is False
    assert "ZeroDivisionError" in capsys.readouterr().out


def test_the_stretch_checks_inner_memory_never_reuses_ids_and_ranks_by_shared_words():
    inner = lesson01._ListMemory()
    ids = [inner.store(t) for t in ("a b", "b c")]
    assert inner.delete(ids[0]) and inner.store("c d") == "mem_0003"
    assert [h.id for h in inner.search("c")] == ["mem_0002", "mem_0003"]


def test_the_inverted_index_solution_agrees_with_counting_by_hand():
    index = s03.InvertedIndex()
    for text in ("a a b", "b c", "c c c d"):
        index.add(s03.tokenize(text))
    index.remove(1)
    assert index.postings == {"a": {0: 2}, "b": {0: 1}, "c": {2: 3}, "d": {2: 1}}
    assert index.lengths == {0: 3, 2: 4} and index.slots == 3
    assert [index.df(t) for t in "abcdz"] == [1, 1, 1, 1, 0]


# ---------------------------------------------------------------- the lessons, with the exercises done

SOLVED = {  # notebook -> {name the stub cell defines: the import that replaces it}
    "01_interfaces": {"MyMemory": "from aria_kit.solutions.lesson01 import MyMemory",
                      "BoundedMemory": "from aria_kit.solutions.lesson01 import BoundedMemory"},
    "02_embeddings": {name: f"from aria_kit.solutions.lesson02 import {name}"
                      for name in ("to_unit_length", "cosine", "top_k_by_cosine")}
                     | {"MyOrderAwareEmbedder": "from aria_kit.interfaces import Embedder\n"
                        "from aria_kit.solutions.lesson02 import OrderAwareEmbedder as MyOrderAwareEmbedder"},
    "03_bm25": {name: f"from aria_kit.solutions.lesson03 import {name}"
                for name in ("InvertedIndex", "bm25_scores", "stem_tokenize")},
}


@pytest.mark.parametrize("stem", sorted(SOLVED))
def test_with_the_solutions_in_place_every_check_passes_and_every_comparison_shows_the_learners_result(stem):
    folder = Path(__file__).resolve().parent.parent / "notebooks"
    notebook = nbformat.read(folder / f"{stem}.ipynb", as_version=4)
    replaced = set()
    for cell in notebook.cells:
        if cell.cell_type == "code" and "raise NotImplementedError" in cell.source:
            defined = [node.name for node in ast.parse(cell.source).body if hasattr(node, "name")]
            name = next(n for n in defined if n in SOLVED[stem])
            cell.source = SOLVED[stem][name]
            replaced.add(name)
    assert replaced == set(SOLVED[stem]), f"stub cells not found for {set(SOLVED[stem]) - replaced}"
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPENAI_")}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    with client.setup_kernel(env=env):
        for number, cell in enumerate(notebook.cells):
            client.execute_cell(cell, number)
    text = "\n".join(output.get("text", "") + output.get("data", {}).get("text/plain", "")
                     for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs)
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts and set(verdicts) == {"✓"}, f"check verdicts with the solutions in place: {verdicts}"
    assert "not done yet" not in text and "Finish Exercise" not in text
