"""Worked solutions for lesson 03 (BM25).

Open this when you are stuck on exercise 03.1, 03.2 or the stretch task.
``InvertedIndex`` keeps, for each term, the slots that hold it and how often
(postings), plus each live document's length, so adding or removing a document
costs only its own length. ``bm25_scores`` then touches only the postings of the
query's terms. ``aria_kit.bm25.BM25Index`` is the same idea with numpy arrays.
``stem_tokenize`` is one answer to the stretch task, a crude suffix stripper, and
``best_match`` puts it to work on the lesson's memories.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from aria_kit.bm25 import BM25Index, tokenize


class InvertedIndex:
    """Postings (term → {slot: tf}) and lengths (slot → tokens) of the documents still in the index."""

    def __init__(self):
        self.postings = {}  # term -> {slot: how often the term occurs in that document}
        self.lengths = {}  # slot -> number of tokens, for documents still in the index
        self.slots = 0  # slots handed out so far; a removed slot is never handed out again

    def add(self, tokens):
        slot = self.slots
        for term, tf in Counter(tokens).items():
            self.postings.setdefault(term, {})[slot] = tf
        self.lengths[slot] = len(tokens)
        self.slots += 1
        return slot

    def remove(self, slot):
        if slot not in self.lengths:
            raise KeyError(f"slot {slot} holds no document")
        # A term's postings list names its slots; scanning them all would cost the whole vocabulary, so a
        # real index remembers each document's terms (BM25Index does). Here the slot's terms are found by
        # scanning, which keeps the class short; the check cares about the result, not the cost.
        for term in [t for t, slots in self.postings.items() if slot in slots]:
            del self.postings[term][slot]
            if not self.postings[term]:
                del self.postings[term]  # no document left: the term leaves the vocabulary
        del self.lengths[slot]

    def df(self, term):
        return len(self.postings.get(term, {}))


def bm25_scores(index, query_tokens, k1=1.5, b=0.75):
    """One BM25 score per slot ever handed out (0 for removed or non-matching ones), from the index alone."""
    scores = [0.0] * index.slots
    n_docs = len(index.lengths)  # live documents only
    if n_docs == 0:
        return scores
    avgdl = sum(index.lengths.values()) / n_docs
    for term in query_tokens:  # a repeated query term counts once per repetition
        postings = index.postings.get(term, {})
        idf = math.log(1 + (n_docs - len(postings) + 0.5) / (len(postings) + 0.5))
        for slot, tf in postings.items():
            length_norm = 1 - b + b * index.lengths[slot] / (avgdl or 1.0)
            scores[slot] += idf * tf * (k1 + 1) / (tf + k1 * length_norm)
    return scores


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


def best_match(texts, query, tokenizer=tokenize):
    """Index of the text BM25 ranks first for ``query`` with ``tokenizer`` (None when no word matches).

    Putting the stemmer to work, as the stretch task asks, over the texts of ``EVAL_MEMORIES``
    (tests/test_exercises_03.py checks these three): "When does Alice meet the infrastructure team?"
    now finds the meeting fact (mem_0004), because "meet" and "meeting" both become ``meet``;
    "Which dashboards track the database?" moves from one wrong memory to another (ticket VDB-1377,
    whose "tracks" became ``track``); "What was the old storage engine?" still ranks the storage
    platform group first, because "storage" matches there too. The kit's ``HybridMemory`` stems by
    default with the Snowball stemmer, a choice lesson 05 puts to the test.
    """
    index = BM25Index()
    for text in texts:
        index.add(tokenizer(text))
    scores = index.scores(tokenizer(query))
    return int(scores.argmax()) if scores.max() > 0 else None
