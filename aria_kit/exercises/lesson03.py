"""Exercise checks for lesson 03 (BM25): the smoothed IDF, then one term's BM25 score.

``check_idf(idf)`` compares the learner's ``idf(n, N)`` with ``BM25Index.idf`` on
corpora built so that a term occurs in exactly ``n`` of ``N`` documents — so
rank_bm25's unsmoothed formula, negative for common terms, fails.
``check_bm25_term(bm25_term)`` compares ``bm25_term(tf, doc_len, avg_len, idf)``
with ``BM25Index.scores`` for every demo fact and every term in it, so a score
without saturation or without length normalisation fails. ``BM25Index`` is the
reference; tests/test_bm25.py checks it against rank_bm25 and bm25s.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.exercises import check

SOLUTION = "lesson03"


def _idf_test(idf: Callable[[int, int], float]) -> None:
    for n_docs in (2, 7, 10):
        for n in range(1, n_docs + 1):
            index = BM25Index()
            for slot in range(n_docs):
                index.add(["term"] if slot < n else ["other"])
            expected = index.idf("term")
            got = idf(n, n_docs)  # a stub raises NotImplementedError on the first call: "not done yet"
            unsmoothed = math.log((n_docs - n + 0.5) / (n + 0.5))
            assert abs(got - unsmoothed) > 1e-9 or abs(got - expected) < 1e-9, (
                f"idf({n}, {n_docs}) is {got:.4f}: that is rank_bm25's unsmoothed formula, 0 for a term in half "
                "the documents and negative above. Add 1 inside the logarithm so a common word never counts against "
                "a document")
            assert abs(got - expected) < 1e-9, f"idf({n}, {n_docs}) should be {expected:.4f}, got {got:.4f}"


def _bm25_term_test(bm25_term: Callable[..., float]) -> None:
    from aria_kit.demo_data import DEMO_FACTS

    docs = [tokenize(text) for text, _ in DEMO_FACTS]
    index = BM25Index()
    for doc in docs:
        index.add(doc)
    avg_len = sum(map(len, docs)) / len(docs)
    bm25_term(1, 8, avg_len, 1.0)  # a stub raises NotImplementedError here: "not done yet"
    saturated = bm25_term(100, 8, 8.0, 1.0)
    assert saturated < 1.5 + 1 + 1e-9, (f"a term repeated 100 times scored {saturated:.2f}; with k1 = 1.5 a term's "
                                        "score can never exceed idf·(k1 + 1): divide by tf + k1·(…)")
    for slot, doc in enumerate(docs):
        for term in sorted(set(doc)):
            expected = index.scores([term])[slot]
            got = bm25_term(doc.count(term), len(doc), avg_len, index.idf(term))
            assert abs(got - expected) < 1e-9, (
                f"for {term!r} in fact {slot + 1} (tf={doc.count(term)}, length {len(doc)}, average length "
                f"{avg_len:.3f}) BM25Index scores {expected:.4f}, you got {got:.4f}")
    short, long_ = bm25_term(1, 4, 8.0, 1.0), bm25_term(1, 16, 8.0, 1.0)
    assert short > long_, "one occurrence in a short document should score more than in a long one (b = 0.75)"


def check_idf(idf: Callable[[int, int], float]) -> bool:
    """Check ``idf(n, N)``: the smoothed (Lucene) IDF of a term in ``n`` of ``N`` documents."""
    return check("Exercise 3.1 (smoothed IDF)", lambda: _idf_test(idf), SOLUTION)


def check_bm25_term(bm25_term: Callable[..., float]) -> bool:
    """Check ``bm25_term(tf, doc_len, avg_len, idf, k1=1.5, b=0.75)``: one query term's BM25 contribution."""
    return check("Exercise 3.2 (one term's BM25 score)", lambda: _bm25_term_test(bm25_term), SOLUTION)
