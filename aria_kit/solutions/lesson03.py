"""Worked solutions for lesson 03 (BM25).

Open this when you are stuck on exercise 03.1 or the stretch task. Exercise 03.1
has two answers of different design in ``SOLUTIONS["03.1"]``: ``DictIndex`` keeps
postings in dicts and deletes a removed document's entries at once; ``TombstoneIndex``
appends postings to lists, marks a removed slot dead and skips it at query time
(``aria_kit.bm25.BM25Index`` does that too, with numpy arrays). Both make adding or
removing a document cost its own length and a query touch only its terms' postings.
``stem_tokenize`` is one answer to the stretch task, a crude suffix stripper.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from aria_kit.bm25 import tokenize


class DictIndex:
    """Design A: postings as dicts (term → {slot: tf}), updated eagerly; each slot remembers its own terms.

    ``remove`` visits only the removed document's terms, and a term whose last document goes leaves the
    vocabulary at once, so ``postings`` always describes the live documents exactly.
    """

    def __init__(self, k1=1.5, b=0.75):
        self.k1, self.b = k1, b
        self.postings = {}  # term -> {slot: how often the term occurs in that document}
        self.lengths = {}  # slot -> number of tokens, for documents still in the index
        self.terms = []  # slot -> the document's distinct terms (None once removed); its length is the next slot

    def add(self, tokens):
        slot = len(self.terms)
        counts = Counter(tokens)
        for term, tf in counts.items():
            self.postings.setdefault(term, {})[slot] = tf
        self.lengths[slot] = len(tokens)
        self.terms.append(tuple(counts))
        return slot

    def remove(self, slot):
        if slot not in self.lengths:
            raise KeyError(f"slot {slot} holds no document")
        for term in self.terms[slot]:
            del self.postings[term][slot]
            if not self.postings[term]:
                del self.postings[term]  # no document left: the term leaves the vocabulary
        del self.lengths[slot]
        self.terms[slot] = None

    def scores(self, query_tokens):
        scores = [0.0] * len(self.terms)
        n_docs = len(self.lengths)  # live documents only
        if n_docs == 0:
            return scores
        avgdl = sum(self.lengths.values()) / n_docs
        for term in query_tokens:  # a repeated query term counts once per repetition
            postings = self.postings.get(term, {})
            idf = math.log(1 + (n_docs - len(postings) + 0.5) / (len(postings) + 0.5))
            for slot, tf in postings.items():
                length_norm = 1 - self.b + self.b * self.lengths[slot] / avgdl
                scores[slot] += idf * tf * (self.k1 + 1) / (tf + self.k1 * length_norm)
        return scores


class TombstoneIndex:
    """Design B: append-only postings lists and a tombstone per removed slot, scored with numpy.

    Removing a document writes nothing into the postings: it marks the slot dead and lowers the document
    frequency of its terms. A query skips dead slots, so ``remove`` is cheap and ``add`` only appends; the
    lists keep growing until a rebuild (``BM25Index.compact`` does that in the kit).
    """

    def __init__(self, k1=1.5, b=0.75):
        self.k1, self.b = k1, b
        self.slot_lists, self.tf_lists = {}, {}  # term -> slots that ever held it, and the term's tf in each
        self.df = Counter()  # term -> live documents holding it
        self.length = np.zeros(0)  # slot -> number of tokens
        self.dead = np.zeros(0, dtype=bool)  # slot -> removed
        self.doc_terms = []  # slot -> its distinct terms

    def add(self, tokens):
        slot = len(self.doc_terms)
        counts = Counter(tokens)
        for term, tf in counts.items():
            self.slot_lists.setdefault(term, []).append(slot)
            self.tf_lists.setdefault(term, []).append(tf)
        self.df.update(counts.keys())
        self.length = np.append(self.length, len(tokens))
        self.dead = np.append(self.dead, False)
        self.doc_terms.append(tuple(counts))
        return slot

    def remove(self, slot):
        if not 0 <= slot < len(self.dead) or self.dead[slot]:
            raise KeyError(f"slot {slot} holds no document")
        self.dead[slot] = True
        self.df.subtract(self.doc_terms[slot])

    def scores(self, query_tokens):
        scores = np.zeros(len(self.dead))
        live = ~self.dead
        n_docs = int(live.sum())
        if n_docs == 0:
            return scores.tolist()
        avgdl = self.length[live].mean()
        for term, repeats in Counter(query_tokens).items():
            n = self.df[term]
            if n <= 0:
                continue
            slots = np.array(self.slot_lists[term])
            tf = np.array(self.tf_lists[term], dtype=float)
            keep = live[slots]
            slots, tf = slots[keep], tf[keep]
            idf = math.log(1 + (n_docs - n + 0.5) / (n + 0.5))
            norm = self.k1 * (1 - self.b + self.b * self.length[slots] / avgdl)
            scores[slots] += repeats * idf * tf * (self.k1 + 1) / (tf + norm)
        return scores.tolist()


# Each design is the arguments of one call of check_bm25_index (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"03.1": [(DictIndex,), (TombstoneIndex,)]}


SUFFIXES = ("ation", "ing", "age", "es", "ed", "s", "e")  # longest first: strip at most one


def stem_tokenize(text):
    """``tokenize``, then strip one common English suffix and a final "e" from words without digits.

    "stored", "storage", "stores" and "store" all become ``stor``; "use", "uses",
    "used" and "using" become ``us``. Words of three letters or fewer, numbers and
    ids are left alone. A real stemmer (Porter, Snowball) has many more rules and
    exceptions, and also merges some words it should not.
    """
    stems = []
    for token in tokenize(text):
        if len(token) >= 3 and not re.search(r"\d", token):
            for suffix in SUFFIXES:
                if token.endswith(suffix) and len(token) - len(suffix) >= 2:
                    token = token[: -len(suffix)]
                    break
            if token.endswith("e") and len(token) > 3:
                token = token[:-1]
        stems.append(token)
    return stems
