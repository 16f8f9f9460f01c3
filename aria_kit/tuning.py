"""Tuning memory search on dev and reporting held-out once (lessons 05 and 14): fast scoring, ablations, comparisons.

``score_dataset`` embeds a labelled data set's documents and indexes them once,
then scores every query of each split by cosine and by BM25 (with and without
query stop words, with and without stemming): the very arithmetic of ``HybridMemory.search``, whose
rankings a test compares with these. ``ScoredSplit.ranking`` then ranks the
documents for "vector", "keyword" or any fusion in milliseconds per query, so
``ablation`` can compute a whole table of settings once and the lesson's
widget only reads it. A *setting* is a triple (method, drop query stop words?, stem?).
``summary_table``, ``compare`` (paired wins, losses and a bootstrap interval that
resamples whole conversations where questions cluster), ``one_factor_table`` (the seed,
then one change at a time to the default) and ``failure_table`` read the results. The metrics and the interval are
``measuring.py``'s; this module draws nothing (see ``charts.py``) and adds no
retrieval idea of its own.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize
from aria_kit.datasets import LabelledQuery, LabelledSet
from aria_kit.embeddings import default_embedder, normalize
from aria_kit.fusion import DEFAULT_FUSION, RRF, Fusion, ranks
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder
from aria_kit.measuring import METRICS, bootstrap_interval, paired, query_clusters, score
from aria_kit.tables import Table
from aria_kit.thread_context import (THREAD_LENGTH, THREAD_WEIGHT, THREAD_WINDOW, lent_term_scores, neighbour_pairs,
                                     shares, thread_of, with_context)


# ------------------------------------------------------------------ a labelled split, scored once


@dataclass(frozen=True)
class ScoredSplit:
    """Every query of one split scored against every document, by cosine and by BM25.

    ``cosine[q, d]`` is float32 as ``HybridMemory`` computes it; ``bm25[stop, stem][q, d]``
    is BM25 with the query's stop words dropped (``stop=True``, the kit's default)
    or kept (``stop=False``, the seed's behaviour), over stemmed tokens (``stem=True``)
    or the words as written (``stem=False``, the seed's).
    """

    dataset: str
    split: str
    queries: tuple[LabelledQuery, ...]
    doc_ids: tuple[str, ...]
    cosine: np.ndarray
    bm25: dict[tuple[bool, bool], np.ndarray]
    vector_rank: np.ndarray  # ranks(cosine) per query, kept because every method breaks ties with it
    clusters: tuple[str, ...] | None = None  # per query: its conversation, for the bootstrap (query_clusters)

    def ranking(self, q: int, method: str | Fusion, stopwords: bool = True, stemming: bool = True,
                depth: int = 100) -> list[str]:
        """Document ids for query number ``q``, best first: ``method`` is "vector", "keyword" or a fusion."""
        cosine, bm25 = self.cosine[q], self.bm25[stopwords, stemming][q]
        if method == "vector":
            key, candidates = self.vector_rank[q], np.arange(len(cosine))
        elif method == "keyword":
            candidates = np.flatnonzero(bm25 > 0)  # documents sharing no word with the query are left out
            key = ranks(bm25, candidates)
        elif hasattr(method, "fuse"):
            # fused score first, then the vector rank; as a single key: the score, nudged by rank
            fused = method.fuse(cosine, bm25)
            candidates = np.arange(len(cosine))
            if depth < len(fused):  # only what can reach the top `depth` needs sorting (ties at the cut kept)
                candidates = np.flatnonzero(fused >= np.partition(fused, len(fused) - depth)[len(fused) - depth])
            order = candidates[np.lexsort((self.vector_rank[q][candidates], -fused[candidates]))]
            return [self.doc_ids[i] for i in order[:depth]]
        else:
            raise ValueError(f"unknown method {method!r}; use 'vector', 'keyword' or a fusion such as RRF(60)")
        order = candidates[np.argsort(key[candidates], kind="stable")]
        return [self.doc_ids[i] for i in order[:depth]]

    def rankings(self, method: str | Fusion, stopwords: bool = True, stemming: bool = True,
                 depth: int = 100) -> list[list[str]]:
        """``ranking`` for every query of the split, in query order."""
        return [self.ranking(q, method, stopwords, stemming, depth) for q in range(len(self.queries))]

    def scores(self, rankings_: Sequence[Sequence[str]], metric: str) -> np.ndarray:
        """``metric`` (e.g. "capped recall@5", "nDCG@10", "MRR") of each ranking against its query's labels."""
        return np.array([score(metric, ranking, query.relevant) for ranking, query in zip(rankings_, self.queries)])


def score_dataset(dataset: LabelledSet, embedder: Embedder | None = None, thread_window: int = THREAD_WINDOW,
                  thread_weight: float = THREAD_WEIGHT, thread_length: float = THREAD_LENGTH) -> dict[str, ScoredSplit]:
    """Score every query of every split against every document of ``dataset``: ``{"dev": …, "heldout": …}``.

    The steps are ``HybridMemory``'s: the documents embedded in one batch and
    normalised, then the queries, cosine by the same ``einsum``, BM25 from two
    ``BM25Index``es over ``tokenize`` (one of stems, one of words). A document with a ``"thread"``
    gains its share of the BM25 scores of the ``thread_window`` turns on each side of it in its thread
    (on the query words it lacks; document order), as ``HybridMemory(thread_window=…, thread_weight=…)`` searches it (0: no thread
    context). No memory object is built, so no hit is
    materialised for each of thousands of documents per query, and the documents
    are embedded once for both splits. Reading the held-out scores is still up to
    you: a lesson looks at them once, at the end.
    """
    for document in dataset.documents:  # as a memory's: a thread is named by a string, or there is none
        thread = document.metadata.get("thread")  # as written: thread_of would read an old file's 1 as "1"
        if thread is not None and not isinstance(thread, str):
            raise ValueError(f"document {document.id!r} has the thread {repr(thread)[:80]}, a "
                             f"{type(thread).__name__}; a thread is named by a string such as \"session 3\" "
                             "(or leave 'thread' out for a document that belongs to none)")
    unit_vectors = _default_unit_vectors if embedder is None else (
        lambda texts: normalize(np.asarray(embedder.embed(list(texts)), dtype=np.float32)))
    matrix = unit_vectors(tuple(d.text for d in dataset.documents))
    indexes = {stem: BM25Index() for stem in (True, False)}
    for stem, index in indexes.items():
        index.add_many([tokenize(document.text, stem=stem) for document in dataset.documents])
    context = thread_pairs(dataset, thread_window, thread_weight, thread_length)
    doc_ids = tuple(d.id for d in dataset.documents)
    scored = {}
    for split, queries in dataset.queries.items():
        if not queries:
            continue
        # One batch is bit-identical to embedding each query alone (as search does), and far faster.
        query_vectors = unit_vectors(tuple(q.text for q in queries))
        cosine = np.stack([np.einsum("ij,j->i", matrix, vector) for vector in query_vectors])
        bm25 = {(stop, stem): np.stack([_with_context(index, tokenize(q.text, STOPWORDS if stop else (), stem), context)
                                        for q in queries])
                for stop in (True, False) for stem, index in indexes.items()}
        vector_rank = np.stack([ranks(row) for row in cosine])
        scored[split] = ScoredSplit(dataset.name, split, tuple(queries), doc_ids, cosine, bm25, vector_rank,
                                    tuple(query_clusters(dataset, queries)))
    return scored


@functools.lru_cache(maxsize=16)
def _default_unit_vectors(texts: tuple[str, ...]) -> np.ndarray:
    """The default embedder's unit vectors for ``texts``, read-only, kept for the next scoring of the same texts.

    Lessons 05 and 14 score each thread set twice, with thread context and without (it changes BM25 only), and
    the test suite scores the shipped sets in several files: the same texts need not be embedded again. Only the
    kit's default embedder is kept (a fixed model, ``default_embedder`` is a cached singleton); a caller's own
    embedder may change between calls, so its texts are embedded every time.
    """
    matrix = normalize(np.asarray(default_embedder().embed(list(texts)), dtype=np.float32))
    matrix.setflags(write=False)
    return matrix


def _with_context(index: BM25Index, tokens: list[str],
                  context: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """One query's BM25 scores with thread context, as ``MemoryRows.with_thread_context`` adds it."""
    scores = index.scores(tokens)
    if not len(context[0]):
        return scores
    return with_context(scores, *context, lent_term_scores(index, tokens))


def thread_pairs(dataset: LabelledSet, window: int, weight: float,
                 length: float = THREAD_LENGTH) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(targets, sources, shares)`` for ``thread_context.with_context``: the documents' neighbours in file order,
    as ``HybridMemory`` finds them for the same documents stored in that order (no document superseded)."""
    numbers: dict[str, int] = {}
    threads = np.array([-1 if thread_of(d.metadata) is None else numbers.setdefault(thread_of(d.metadata), len(numbers))
                        for d in dataset.documents], dtype=np.int64)
    count = len(dataset.documents)
    targets, sources = neighbour_pairs(threads, np.arange(count), np.ones(count, dtype=bool), window if weight else 0)
    lengths = np.array([len(tokenize(d.text, stem=True)) for d in dataset.documents], dtype=np.int64)
    return targets, sources, shares(lengths, weight, length)


# ------------------------------------------------------------------ tuning on dev


@dataclass(frozen=True)
class AblationRow:
    """One setting's mean scores on a split: capped recall@1 … @len(recall), nDCG@10 and MRR."""

    stopwords: bool
    stemming: bool
    method: str  # "vector", "keyword", or a fusion's name such as "rrf(k=60)" or "convex(w=0.5)"
    recall: tuple[float, ...]
    ndcg: float
    mrr: float


def kit_default() -> tuple[Fusion, bool, bool]:
    """What ``HybridMemory()`` does when told nothing: its fusion, whether it drops query stop words, and stems."""
    defaults = inspect.signature(HybridMemory.__init__).parameters
    return DEFAULT_FUSION, bool(defaults["stopwords"].default), bool(defaults["stemming"].default)


def method_name(method: str | Fusion) -> str:
    """The name a table shows for a method: itself for "vector"/"keyword", else the fusion's ``name``."""
    return method if isinstance(method, str) else method.name


def ablation(scored: ScoredSplit, methods: Sequence[str | Fusion], max_k: int = 10) -> list[AblationRow]:
    """Mean capped recall@1…``max_k``, nDCG@10 and MRR of every method, stop words dropped or kept, stems or not.

    Computed once, this is the whole table a tuning widget reads from; nothing is
    searched again when the learner moves a slider.
    """
    rows = []
    for stopwords in (True, False):
        for stemming in (True, False):
            for method in methods:
                ranked = scored.rankings(method, stopwords, stemming)
                recall = tuple(float(scored.scores(ranked, f"capped recall@{k}").mean()) for k in range(1, max_k + 1))
                rows.append(AblationRow(stopwords, stemming, method_name(method), recall,
                                        float(scored.scores(ranked, "nDCG@10").mean()),
                                        float(scored.scores(ranked, "MRR").mean())))
    return rows


# ------------------------------------------------------------------ reading the results

Setting = tuple  # (method, drop query stop words?, stem?): ("vector", True, True), (RRF(60), False, False), …


def setting_label(setting: Setting) -> str:
    """A short name: the method's, plus " −stop" when query stop words are dropped and " +stem" when stemmed.

    Vector search reads neither, so its label is just "vector".
    """
    method, stopwords, stemming = setting
    if method == "vector":
        return "vector"
    return method_name(method) + (" −stop" if stopwords else "") + (" +stem" if stemming else "")


def recall_curve(split: ScoredSplit, setting: Setting, max_k: int = 10) -> list[float]:
    """Mean capped recall@1, @2, … @``max_k`` of ``setting`` over the split's queries."""
    ranked = split.rankings(*setting)
    return [float(split.scores(ranked, f"capped recall@{k}").mean()) for k in range(1, max_k + 1)]


def summary_table(scored: Mapping[str, ScoredSplit], settings: Mapping[str, Setting],
                  metrics: Sequence[str] = METRICS, title: str | None = None) -> Table:
    """Per data set and setting: each metric's mean over the split's queries, with its 95% bootstrap interval."""
    rows = []
    for dataset, split in scored.items():
        for label, setting in settings.items():
            ranked = split.rankings(*setting)
            row = [dataset, label]
            for metric in metrics:
                values = split.scores(ranked, metric)
                low, high = bootstrap_interval(values, clusters=split.clusters)
                row.append(f"{values.mean():.3f} [{low:.3f}, {high:.3f}]")
            rows.append(row)
    return Table(rows, ["data set", "setting", *metrics], title)


def compare(split: ScoredSplit, a: Setting, b: Setting, metric: str = "capped recall@5",
            other: ScoredSplit | None = None) -> dict[str, float]:
    """Setting ``a`` against ``b`` query by query: wins, losses, ties, mean difference and its 95% interval.

    ``b`` is ranked on ``other`` when given: the same questions scored another way (say, without thread
    context). The interval resamples whole conversations where the split's questions cluster (``split.clusters``).
    """
    other = other if other is not None else split
    if [q.id for q in other.queries] != [q.id for q in split.queries]:
        raise ValueError("a paired comparison needs the same questions on both sides")
    first = split.scores(split.rankings(*a), metric)
    second = other.scores(other.rankings(*b), metric)
    wins, losses, ties = paired(first, second)
    low, high = bootstrap_interval(first - second, clusters=split.clusters)
    return {"wins": wins, "losses": losses, "ties": ties, "difference": float((first - second).mean()),
            "low": low, "high": high}


def one_factor_steps() -> dict[str, Setting]:
    """The seed's search, then one change at a time until the kit's default: each step differs from the last in one way."""
    fusion, stopwords, stemming = kit_default()
    return {"seed (RRF 60, all words)": (RRF(60), False, False), "+ stems": (RRF(60), False, stemming),
            "− query stop words": (RRF(60), stopwords, stemming), f"{method_name(fusion)}": kit_default()}


def one_factor_table(splits: Mapping[str, ScoredSplit], metric: str = "capped recall@5",
                     with_threads: Mapping[str, ScoredSplit] | None = None) -> Table:
    """Per data set and step: the mean ``metric`` with its interval, and the paired change from the step before.

    ``splits`` are scored without thread context (``score_dataset(…, thread_window=0)``); for a set in
    ``with_threads`` (the same split scored with it) a last step, "+ thread context", follows the default.
    """
    rows = []
    for dataset, split in splits.items():
        steps = [(label, split, setting) for label, setting in one_factor_steps().items()]
        if with_threads and dataset in with_threads:
            steps.append(("+ thread context", with_threads[dataset], kit_default()))
        previous = None
        for label, scored, setting in steps:
            values = scored.scores(scored.rankings(*setting), metric)
            low, high = bootstrap_interval(values, clusters=split.clusters)
            change = "—"
            if previous is not None:
                d_low, d_high = bootstrap_interval(values - previous, clusters=split.clusters)
                change = f"{(values - previous).mean():+.3f} [{d_low:+.3f}, {d_high:+.3f}]"
            rows.append([dataset, label, f"{values.mean():.3f} [{low:.3f}, {high:.3f}]", change])
            previous = values
    return Table(rows, ["data set", "step", metric, "change from the step before"],
                 f"one change at a time, {next(iter(splits.values())).split}: mean [95% interval]")


def failure_table(dataset: LabelledSet, split: ScoredSplit, setting: Setting, n: int = 5, words: int = 9) -> Table:
    """The ``n`` queries whose first relevant document ``setting`` ranks lowest, with what it ranked first.

    Ranks are exact (every document is ranked, not only the top 100), and the
    same query's rank under vector and keyword search is shown beside, so you
    can tell a fusion failure from a failure of both rankings. "shared words" lists
    the words (as written, stop words included) the question and its answer have in common.
    """
    texts = {document.id: document.text for document in dataset.documents}
    everything = len(split.doc_ids)

    def first_rank(ranking: list[str], relevant: Sequence[str]) -> int | None:
        return next((rank for rank, item in enumerate(ranking, 1) if item in relevant), None)

    def words_of(text: str) -> str:
        head = text.split()
        return " ".join(head[:words]) + (" …" if len(head) > words else "")

    rows = []
    for q, query in enumerate(split.queries):
        ranking = split.ranking(q, *setting, depth=everything)
        rank = first_rank(ranking, query.relevant)
        others = [first_rank(split.ranking(q, m, *setting[1:], depth=everything), query.relevant)
                  for m in ("vector", "keyword")]
        answer = texts[query.relevant[0]]
        shared = " ".join(sorted(set(tokenize(query.text, (), False)) & set(tokenize(answer, (), False)))) or "—"
        rows.append((rank or everything + 1, q, [query.text, words_of(answer), shared, rank, *others,
                                                   words_of(texts[ranking[0]])]))
    worst = sorted(rows, key=lambda row: (-row[0], row[1]))[:n]  # lowest rank first; ties in query order
    return Table([row for _, _, row in worst], ["question", "labelled answer (first words)", "shared words", "rank",
                                                "vector", "keyword", "ranked first instead"],
                 f"{split.dataset} / {split.split}: the {n} worst queries for {setting_label(setting)} "
                 "(— = not ranked at all)")
