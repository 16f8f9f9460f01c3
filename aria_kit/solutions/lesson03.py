"""Worked solutions for lesson 03 (BM25).

Open this when you are stuck on exercise 3.1 or 3.2. A document's BM25 score for
a query is the sum of ``bm25_term`` over the query's terms; ``aria_kit.bm25``
computes exactly this, for every document at once, from an inverted index.
"""

from __future__ import annotations

import math


def idf(n: int, n_docs: int) -> float:
    """Smoothed inverse document frequency of a term found in ``n`` of ``n_docs`` documents (never negative)."""
    return math.log(1 + (n_docs - n + 0.5) / (n + 0.5))


def bm25_term(tf: int, doc_len: int, avg_len: float, idf: float, k1: float = 1.5, b: float = 0.75) -> float:
    """One query term's contribution to a document's BM25 score.

    ``tf`` counts the term in the document; ``k1`` makes each extra occurrence
    count less (saturation) and ``b`` scales how much a longer-than-average
    document is penalised (length normalisation).
    """
    length_norm = 1 - b + b * doc_len / avg_len
    return idf * tf * (k1 + 1) / (tf + k1 * length_norm)
