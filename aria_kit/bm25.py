"""BM25 keyword scoring with an index that grows and shrinks one document at a time (lesson 03).

BM25 scores a document for a query by summing, over the query's terms,

    idf(term) · tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl))

where ``tf`` is how often the term occurs in the document, ``dl`` the
document's length in tokens and ``avgdl`` the average length. ``k1`` makes
repeated occurrences count less and less (saturation); ``b`` decides how much
long documents are penalised. We use Lucene's IDF,
``ln(1 + (N − n + 0.5)/(n + 0.5))`` for a term in ``n`` of ``N`` documents,
which is never negative. (Lucene since version 8 and ``bm25s`` also drop the
constant factor ``k1 + 1`` from the numerator; it scales every score alike
and changes no ranking. We keep it, as in the textbook formula and rank_bm25.)

Why not ``rank_bm25``? Its ``BM25Okapi`` is built from the whole corpus, so a
memory that grows one fact at a time would rebuild it on every store (cost
grows with the square of the number of memories), and its IDF
``ln((N − n + 0.5)/(n + 0.5))`` is 0 for a term in half the documents and
negative above that, so on a small memory a matching word can lower a score.
``bm25s`` uses the same IDF as here but has no incremental add.

``BM25Index`` keeps postings (term → {slot: tf}), document frequencies,
document lengths and their running total, so ``add`` and ``remove`` cost
O(length of the document) and a query touches only its own terms' postings.
``STOPWORDS`` is a short list of English function words ("what", "the", "you", …). Dropping
them from a *query* (``tokenize(query, STOPWORDS)``) stops a question's grammar from matching every
chat turn that uses the same little words; documents keep all their tokens, so the index (and a
saved memory) does not depend on the list. This module does no stemming and no phrase matching.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np

K1, B = 1.5, 0.75  # the usual defaults: saturation and length normalisation
_POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b")
_TOKEN = re.compile(r"[^\W_]+")
STOPWORDS = frozenset("""a about after again all am an and any are as at be because been before being but by
can could did do does doing don during each for from further had has have having he her here hers him his
how i if in into is it its just me more most my no nor not now of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your yours""".split())


def tokenize(text: str, stopwords: Collection[str] = ()) -> list[str]:
    """Split ``text`` into lowercase word tokens for BM25.

    Steps: Unicode NFKC normalisation (so "café" typed either way, full-width
    digits and ligatures compare equal), ``casefold`` (lowercase, also "ß" →
    "ss"), drop a possessive ``'s``/``’s`` ("Alice's" → "alice"), then keep runs
    of letters and digits. Everything else separates tokens: punctuation,
    hyphens, apostrophes, underscores, emoji ("LSM-tree" → ["lsm", "tree"],
    "Order #4821" → ["order", "4821"]). Tokens in ``stopwords`` (lowercase, e.g.
    ``STOPWORDS``) are dropped; meant for queries, see the module docstring.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    tokens = _TOKEN.findall(_POSSESSIVE.sub("", text))
    return [token for token in tokens if token not in stopwords] if stopwords else tokens


class BM25Index:
    """An incremental BM25 index over token lists; documents live in integer slots.

    ``add`` returns the next slot (0, 1, 2, …); slots are never reused, and a
    removed slot simply scores 0. ``scores`` returns one float per slot ever
    added, so callers can line the scores up with their own arrays.
    """

    def __init__(self, k1: float = K1, b: float = B) -> None:
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.k1 = k1
        self.b = b
        self._postings: dict[str, dict[int, int]] = {}  # term -> {slot: term frequency}
        self._doc_terms: list[tuple[str, ...] | None] = []  # slot -> its distinct terms; None once removed
        self._lengths = np.zeros(16, dtype=np.float64)  # slot -> length in tokens (0 when removed)
        self._total_length = 0
        self._live = 0

    def __len__(self) -> int:
        """Number of documents currently in the index (removed ones not counted)."""
        return self._live

    @property
    def slots(self) -> int:
        """Number of slots ever handed out, i.e. the length of ``scores()``."""
        return len(self._doc_terms)

    def add(self, tokens: Sequence[str]) -> int:
        """Index one document's tokens and return its slot."""
        slot = len(self._doc_terms)
        counts = Counter(tokens)
        for term, tf in counts.items():
            self._postings.setdefault(term, {})[slot] = tf
        self._doc_terms.append(tuple(counts))
        if slot == len(self._lengths):  # grow by doubling: amortised O(1) per add
            self._lengths = np.concatenate([self._lengths, np.zeros_like(self._lengths)])
        self._lengths[slot] = len(tokens)
        self._total_length += len(tokens)
        self._live += 1
        return slot

    def remove(self, slot: int) -> None:
        """Take the document in ``slot`` out of the index; ``KeyError`` if it is not there."""
        terms = self._doc_terms[slot] if 0 <= slot < len(self._doc_terms) else None
        if terms is None:
            raise KeyError(f"BM25 slot {slot} holds no document")
        for term in terms:
            postings = self._postings[term]
            del postings[slot]
            if not postings:  # keep the vocabulary to terms that still occur
                del self._postings[term]
        self._doc_terms[slot] = None
        self._total_length -= int(self._lengths[slot])
        self._lengths[slot] = 0
        self._live -= 1

    def idf(self, term: str) -> float:
        """Lucene's inverse document frequency of ``term`` over the live documents."""
        n = len(self._postings.get(term, ()))
        return math.log(1 + (self._live - n + 0.5) / (n + 0.5))

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every slot for ``query_tokens`` (float64; 0 for removed or non-matching slots).

        A term repeated in the query counts once per repetition, as in
        Lucene, rank_bm25 and bm25s.
        """
        scores = np.zeros(len(self._doc_terms), dtype=np.float64)
        if self._live == 0:
            return scores
        avgdl = self._total_length / self._live
        # Every live document has length 0 only if all are empty; then nothing matches anyway.
        length_norm = self.k1 * (1 - self.b + self.b * self._lengths[: len(scores)] / (avgdl or 1.0))
        for term, repeats in Counter(query_tokens).items():
            postings = self._postings.get(term)
            if not postings:
                continue
            slots = np.fromiter(postings.keys(), dtype=np.int64, count=len(postings))
            tf = np.fromiter(postings.values(), dtype=np.float64, count=len(postings))
            scores[slots] += repeats * self.idf(term) * tf * (self.k1 + 1) / (tf + length_norm[slots])
        return scores
