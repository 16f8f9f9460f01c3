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

``BM25Index`` keeps, for each term, its postings (the slots that contain it
and how often) in two numpy arrays with spare room at the end, so adding a
document appends a few numbers and a query reads each of its terms' postings
in one vectorised pass (lesson 13 measures why). It also keeps document
frequencies, document lengths and their running total. ``remove`` only marks
a slot empty and lowers the counts, so it costs O(length of the document);
the removed slot's postings are skipped at query time until ``compact``
drops them and renumbers the slots that remain (their order is kept).
``STOPWORDS`` is a short list of English function words ("what", "the", "you", …). Dropping
them from a *query* (``tokenize(query, STOPWORDS)``) stops a question's grammar from matching every
chat turn that uses the same little words; documents keep all their tokens, so the index (and a
saved memory) does not depend on the list.

``tokenize(text, stem=True)`` also reduces each token to its stem with Snowball's English stemmer
(Porter 2, from the ``snowballstemmer`` package): "stored", "stores" and "storing" all become
``store``, so a question and a memory that use different forms of a word still match. Stop words
are dropped before stemming; tokens with a digit (numbers, ids) pass through unchanged. No phrase
matching.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np
import snowballstemmer

K1, B = 1.5, 0.75  # the usual defaults: saturation and length normalisation
_POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b")
_TOKEN = re.compile(r"[^\W_]+")
STOPWORDS = frozenset("""a about after again all am an and any are as at be because been before being but by
can could did do does doing don during each for from further had has have having he her here hers him his
how i if in into is it its just me more most my no nor not now of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your yours""".split())


_ENGLISH = snowballstemmer.stemmer("english")
# Stems already computed: a stem costs ~20 µs in pure Python and a vocabulary repeats itself. A plain
# dict (cleared when full, ~260,000 words) because a lookup in it is several times cheaper than a call
# through functools.lru_cache, and ingest looks up every token of every memory.
# Only tokens of at most MAX_STEMMED characters are stemmed (and so cached): English words are shorter than
# 50 letters, and a 100 kB "word" would cost 0.1 s to stem and 200 kB to cache, so the cache holds at most
# _STEMS_MAX * 2 * MAX_STEMMED characters whatever is searched.
_STEMS: dict[str, str] = {}
_STEMS_MAX = 1 << 18
MAX_STEMMED = 64


def stem(token: str) -> str:
    """Snowball's English stem of one lowercase token: "storing" → "store", "memories" → "memori".

    A token with a digit in it ("4821", "ddr5", "v1") is a number or a name, not an English
    word, and is returned as it is; so is a token longer than ``MAX_STEMMED`` characters.
    """
    if len(token) > MAX_STEMMED:
        return token
    found = _STEMS.get(token)
    if found is None:
        if len(_STEMS) >= _STEMS_MAX:
            _STEMS.clear()
        found = _STEMS[token] = _ENGLISH.stemWord(token) if token.isalpha() else token
    return found


def _stems(tokens: list[str]) -> list[str]:
    try:  # the common case: every token seen before, one C-level pass
        return list(map(_STEMS.__getitem__, tokens))
    except KeyError:
        return [stem(token) for token in tokens]


def tokenize(text: str, stopwords: Collection[str] = (), stem: bool = False) -> list[str]:
    """Split ``text`` into lowercase word tokens for BM25.

    Steps: Unicode NFKC normalisation (so "café" typed either way, full-width
    digits and ligatures compare equal), ``casefold`` (lowercase, also "ß" →
    "ss"), drop a possessive ``'s``/``’s`` ("Alice's" → "alice"), then keep runs
    of letters and digits. Everything else separates tokens: punctuation,
    hyphens, apostrophes, underscores, emoji ("LSM-tree" → ["lsm", "tree"],
    "Order #4821" → ["order", "4821"]). Tokens in ``stopwords`` (lowercase, e.g.
    ``STOPWORDS``) are dropped; meant for queries, see the module docstring.
    With ``stem=True`` each remaining token is replaced by its stem (``stem``).
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    if "'" in text or "’" in text:  # the possessive pattern is slow (a look-behind at every position): skip it
        text = _POSSESSIVE.sub("", text)
    tokens = _TOKEN.findall(text)
    if stopwords:
        tokens = [token for token in tokens if token not in stopwords]
    return _stems(tokens) if stem else tokens


def _grown(array: np.ndarray, needed: int) -> np.ndarray:
    """``array`` with room for at least ``needed`` entries: doubling, so appends cost O(1) amortised."""
    if needed <= len(array):
        return array
    bigger = np.zeros(max(needed, 2 * len(array)), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger


class _Postings:
    """One term's postings: ``slots[:size]`` (ascending) and their term frequencies ``tfs[:size]``."""

    __slots__ = ("slots", "tfs", "size", "df")

    def __init__(self) -> None:
        self.slots = np.zeros(2, dtype=np.int64)
        self.tfs = np.zeros(2, dtype=np.int32)
        self.size = 0  # postings stored, including those of removed documents until ``compact``
        self.df = 0  # live documents that contain the term: the n of the IDF

    def extend(self, slots: np.ndarray, tfs: np.ndarray) -> None:
        end = self.size + len(slots)
        self.slots, self.tfs = _grown(self.slots, end), _grown(self.tfs, end)
        self.slots[self.size : end], self.tfs[self.size : end] = slots, tfs
        self.size, self.df = end, self.df + len(slots)


class BM25Index:
    """An incremental BM25 index over token lists; documents live in integer slots.

    ``add`` returns the next slot (0, 1, 2, …) and a removed slot simply scores 0,
    until ``compact`` renumbers the remaining slots 0, 1, 2, … in their order.
    ``scores`` returns one float per slot, so callers can line the scores up
    with their own arrays.
    """

    def __init__(self, k1: float = K1, b: float = B) -> None:
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.k1 = k1
        self.b = b
        self._postings: dict[str, _Postings] = {}  # term -> its postings; terms no live document has are dropped
        self._doc_terms: list[tuple[str, ...] | None] = []  # slot -> its distinct terms; None once removed
        self._lengths = np.zeros(16, dtype=np.float64)  # slot -> length in tokens (0 when removed)
        self._removed = np.zeros(16, dtype=bool)  # slot -> removed but not yet compacted away
        self._total_length = 0
        self._live = 0

    def __len__(self) -> int:
        """Number of documents currently in the index (removed ones not counted)."""
        return self._live

    @property
    def slots(self) -> int:
        """Number of slots, i.e. the length of ``scores()``: every add since the last ``compact``, and before."""
        return len(self._doc_terms)

    def add(self, tokens: Sequence[str]) -> int:
        """Index one document's tokens and return its slot."""
        return self.add_many([tokens]).start

    def add_many(self, documents: Sequence[Sequence[str]]) -> range:
        """Index several documents at once (one numpy append per distinct term); return their slots."""
        first = len(self._doc_terms)
        counts = [Counter(tokens) for tokens in documents]
        # One (term, slot, tf) triple per distinct term of each document, then grouped by term.
        terms = [term for count in counts for term in count]
        slots = np.repeat(np.arange(first, first + len(counts)), [len(count) for count in counts])
        tfs = np.fromiter((tf for count in counts for tf in count.values()), dtype=np.int32, count=len(terms))
        by_term: dict[str, list[int]] = {}
        for position, term in enumerate(terms):  # positions come in slot order, so each list stays ascending
            by_term.setdefault(term, []).append(position)
        for term, positions in by_term.items():
            self._postings.setdefault(term, _Postings()).extend(slots[positions], tfs[positions])
        lengths = [len(tokens) for tokens in documents]
        end = first + len(documents)
        self._lengths, self._removed = _grown(self._lengths, end), _grown(self._removed, end)
        self._lengths[first:end] = lengths
        self._doc_terms.extend(tuple(count) for count in counts)
        self._total_length += sum(lengths)
        self._live += len(documents)
        return range(first, end)

    def remove(self, slot: int) -> None:
        """Take the document in ``slot`` out of the index; ``KeyError`` if it is not there."""
        terms = self._doc_terms[slot] if 0 <= slot < len(self._doc_terms) else None
        if terms is None:
            raise KeyError(f"BM25 slot {slot} holds no document")
        for term in terms:
            postings = self._postings[term]
            postings.df -= 1
            if not postings.df:  # keep the vocabulary to terms that still occur
                del self._postings[term]
        self._doc_terms[slot] = None
        self._removed[slot] = True
        self._total_length -= int(self._lengths[slot])
        self._lengths[slot] = 0
        self._live -= 1

    def compact(self) -> None:
        """Drop removed slots for good and renumber the others 0, 1, 2, … in the same order."""
        count = len(self._doc_terms)
        kept = ~self._removed[:count]
        new_slot = np.cumsum(kept) - 1  # old slot -> new slot, for the slots that stay
        for postings in self._postings.values():
            slots, tfs = postings.slots[: postings.size], postings.tfs[: postings.size]
            keep = kept[slots]
            postings.slots, postings.tfs, postings.size = new_slot[slots[keep]], tfs[keep], postings.df
        self._doc_terms = [terms for terms in self._doc_terms if terms is not None]
        self._lengths = self._lengths[:count][kept].copy()
        self._removed = np.zeros(len(self._lengths), dtype=bool)

    def idf(self, term: str) -> float:
        """Lucene's inverse document frequency of ``term`` over the live documents."""
        postings = self._postings.get(term)
        n = postings.df if postings is not None else 0
        return math.log(1 + (self._live - n + 0.5) / (n + 0.5))

    def term_scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """One row per distinct term of ``query_tokens`` (first-met order): ``scores`` of that term alone, repeats kept.

        Thread context (``thread_context.with_context``) reads which query words a turn lacks from these.
        """
        counts = Counter(query_tokens)
        if not counts:
            return np.zeros((0, len(self._doc_terms)))
        return np.stack([self.scores([term] * repeats) for term, repeats in counts.items()])

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every slot for ``query_tokens`` (float64; 0 for removed or non-matching slots).

        A term repeated in the query counts once per repetition, as in
        Lucene, rank_bm25 and bm25s.
        """
        scores = np.zeros(len(self._doc_terms), dtype=np.float64)
        if self._live == 0:
            return scores
        avgdl = self._total_length / self._live
        for term, repeats in Counter(query_tokens).items():
            postings = self._postings.get(term)
            if postings is None:
                continue
            # The term's postings: which slots contain it, and how often (a view, nothing copied).
            slots, tf = postings.slots[: postings.size], postings.tfs[: postings.size]
            if postings.size > postings.df:  # some of these documents were removed: skip their postings
                alive = ~self._removed[slots]
                slots, tf = slots[alive], tf[alive]
            tf = tf.astype(np.float64)
            # Length normalisation for just these documents: k1·(1 − b + b·dl/avgdl). (avgdl is never 0 here:
            # a document that holds the term has at least one token.)
            length_norm = self.k1 * (1 - self.b + self.b * self._lengths[slots] / avgdl)
            # BM25's term weight, added to each of these slots' scores: idf · tf·(k1 + 1) / (tf + length norm).
            scores[slots] += repeats * self.idf(term) * tf * (self.k1 + 1) / (tf + length_norm)
        return scores
