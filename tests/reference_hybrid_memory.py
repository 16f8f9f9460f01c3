"""REFERENCE ONLY — a frozen copy of HybridMemory's ranking as it was before the scale work (issue 14, main at c7e168b).

Not used by the kit. ``tests/test_ranking_equality.py`` checks that today's
``HybridMemory`` returns exactly the hits this simple version returns (same ids,
order, fused scores, cosines, BM25 scores and ranks) on random corpora with
deletes, for RRF and for the convex fusion. It ranks *every* memory by both
retrievers with full sorts and fuses every memory in one call, which is easy to
trust and slow at scale. In process only (no file), no input checks.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.embeddings import normalize
from aria_kit.fusion import Fusion
from aria_kit.interfaces import Embedder, Hit


class ReferenceBM25:
    """The dict-of-postings BM25 index as it was: term -> {slot: tf}; removed slots score 0."""

    def __init__(self, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, dict[int, int]] = {}
        self.doc_terms: list[tuple[str, ...] | None] = []
        self.lengths: list[int] = []
        self.total_length = 0
        self.live = 0

    def add(self, tokens: list[str]) -> None:
        slot = len(self.doc_terms)
        counts = Counter(tokens)
        for term, tf in counts.items():
            self.postings.setdefault(term, {})[slot] = tf
        self.doc_terms.append(tuple(counts))
        self.lengths.append(len(tokens))
        self.total_length += len(tokens)
        self.live += 1

    def remove(self, slot: int) -> None:
        for term in self.doc_terms[slot]:
            del self.postings[term][slot]
            if not self.postings[term]:
                del self.postings[term]
        self.doc_terms[slot] = None
        self.total_length -= self.lengths[slot]
        self.lengths[slot] = 0
        self.live -= 1

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        scores = np.zeros(len(self.doc_terms), dtype=np.float64)
        if self.live == 0:
            return scores
        avgdl = self.total_length / self.live
        lengths = np.asarray(self.lengths, dtype=np.float64)
        length_norm = self.k1 * (1 - self.b + self.b * lengths / (avgdl or 1.0))
        for term, repeats in Counter(query_tokens).items():
            postings = self.postings.get(term)
            if not postings:
                continue
            slots = np.fromiter(postings.keys(), dtype=np.int64, count=len(postings))
            tf = np.fromiter(postings.values(), dtype=np.float64, count=len(postings))
            n = len(postings)
            idf = math.log(1 + (self.live - n + 0.5) / (n + 0.5))
            scores[slots] += repeats * idf * tf * (self.k1 + 1) / (tf + length_norm[slots])
        return scores


def reference_ranks(scores: np.ndarray, candidates: np.ndarray | None = None) -> np.ndarray:
    """1-based rank by descending score, ties to the lower index; 0 outside ``candidates``."""
    candidates = np.arange(len(scores)) if candidates is None else candidates
    order = candidates[np.argsort(-scores[candidates], kind="stable")]
    result = np.zeros(len(scores), dtype=np.int64)
    result[order] = np.arange(1, len(order) + 1)
    return result


class ReferenceHybridMemory:
    """Memory ``i`` in row ``i - 1``; every search ranks every live row by cosine and by BM25, then RRF."""

    def __init__(self, embedder: Embedder, fusion: Fusion, stemming: bool = True) -> None:
        self.embedder, self.fusion, self.stemming = embedder, fusion, stemming
        self.rows: list[np.ndarray] = []
        self.texts: list[str | None] = []
        self.successor: list[int | None] = []  # row -> the row that superseded it (lesson 10), if any
        self.bm25 = ReferenceBM25()

    def store_many(self, texts: list[str]) -> None:
        for text, vector in zip(texts, normalize(np.asarray(self.embedder.embed(texts), dtype=np.float32))):
            self.rows.append(vector)
            self.texts.append(text)
            self.successor.append(None)
            self.bm25.add(tokenize(text, stem=self.stemming))

    def supersede(self, old_id: str, text: str) -> None:
        self.store_many([text])
        self.successor[int(old_id[4:]) - 1] = len(self.rows) - 1

    def delete(self, memory_id: str) -> None:
        row = int(memory_id[4:]) - 1
        for before, after in enumerate(self.successor):  # splice the chain: the predecessor points on
            if after == row:
                self.successor[before] = self.successor[row]
        self.rows[row] = np.zeros_like(self.rows[row])
        self.texts[row] = None
        self.bm25.remove(row)

    def search(self, query: str, top_k: int = 3, include_history: bool = False) -> list[Hit]:
        live = np.flatnonzero([text is not None and (include_history or after is None)
                               for text, after in zip(self.texts, self.successor)])
        if not len(live):
            return []
        matrix = np.stack(self.rows)
        query_vector = normalize(np.asarray(self.embedder.embed([query]), dtype=np.float32))[0]
        cosine = np.einsum("ij,j->i", matrix, query_vector)[live]
        bm25 = self.bm25.scores(tokenize(query, STOPWORDS, self.stemming))[live]
        vector_rank = reference_ranks(cosine)
        keyword_rank = reference_ranks(bm25, np.flatnonzero(bm25 > 0))
        fused = self.fusion.fuse(cosine, bm25)  # every live memory at once
        order = np.lexsort((vector_rank, -fused))[:top_k]  # fused score, then vector rank
        return [Hit(f"mem_{live[i] + 1:04d}", self.texts[live[i]], {"category": "general"}, float(fused[i]),
                    float(cosine[i]), float(bm25[i]), int(vector_rank[i]), int(keyword_rank[i]) or None)
                for i in order]
