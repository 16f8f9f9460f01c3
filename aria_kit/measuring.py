"""Measuring memory search on labelled data: metrics, paired comparisons, intervals (lesson 05).

The metrics score one ranking (document ids, best first) against the ids labelled relevant:

- ``recall_at_k``: the share of the relevant documents found in the top ``k``;
- ``capped_recall_at_k``: the same count divided by ``min(k, number relevant)``, so a perfect top ``k``
  scores 1 even when more than ``k`` documents are relevant (BEIR's "R_cap@k");
- ``reciprocal_rank``: 1 / rank of the first relevant document (0 if none); its mean is MRR;
- ``ndcg_at_k``: discounted cumulative gain with binary relevance, ``Σ 1/log2(rank + 1)`` over
  the relevant documents in the top ``k``, divided by the best possible value.

``evaluate`` stores a ``LabelledSet``'s documents in a fresh memory (the document id goes into
each memory's metadata as ``doc_id``) and, for every query of a split, reads three orderings from
the memory's own hits, as lesson 04's ``evaluation.rankings`` does: by ``Hit.vector_rank``, by
``Hit.keyword_rank`` (documents that share no word with the query are left out) and the fused
order ``search`` returned. Extra ``fusions`` re-fuse the hits' own ``cosine`` and ``bm25`` scores,
so one search per query compares several fusion settings. ``paired`` counts per-query wins and
losses, and ``bootstrap_interval`` gives a seeded 95% interval for a mean or a paired difference;
given ``clusters`` (one label per query, e.g. the chat session it came from) it resamples whole
clusters, because questions from one session succeed or fail together. ``query_clusters`` finds
those labels in a data set.

This module draws nothing (``charts.py`` does) and holds no retrieval code of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from aria_kit.datasets import LabelledQuery, LabelledSet
from aria_kit.evaluation import orderings
from aria_kit.fusion import Fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend
from aria_kit.tables import Table

METRICS = ("capped recall@5", "recall@10", "nDCG@10", "MRR")


def recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """The fraction of the relevant ids found in the top ``k`` of ``ranking`` (0.0 … 1.0)."""
    if not relevant:
        raise ValueError("recall needs at least one relevant id")
    return len(set(ranking[:k]) & set(relevant)) / len(set(relevant))


def capped_recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Relevant ids found in the top ``k`` over ``min(k, number of distinct relevant ids)`` (0.0 … 1.0)."""
    if not relevant:
        raise ValueError("recall needs at least one relevant id")
    return len(set(ranking[:k]) & set(relevant)) / min(k, len(set(relevant)))


def reciprocal_rank(ranking: Sequence[str], relevant: Sequence[str]) -> float:
    """1 / rank of the first relevant id in ``ranking``, or 0.0 when it holds none."""
    wanted = set(relevant)
    return next((1.0 / rank for rank, item in enumerate(ranking, start=1) if item in wanted), 0.0)


def ndcg_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int = 10) -> float:
    """Normalised discounted cumulative gain of the top ``k``, every relevant id with gain 1."""
    wanted = set(relevant)
    if not wanted:
        raise ValueError("nDCG needs at least one relevant id")
    dcg = sum(1.0 / math.log2(rank + 1) for rank, item in enumerate(ranking[:k], start=1) if item in wanted)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


def score(metric: str, ranking: Sequence[str], relevant: Sequence[str]) -> float:
    """One of ``METRICS``, or any "recall@k", "capped recall@k", "nDCG@k", or "MRR"."""
    name, _, k = metric.partition("@")
    if name == "recall" and k.isdigit():
        return recall_at_k(ranking, relevant, int(k))
    if name == "capped recall" and k.isdigit():
        return capped_recall_at_k(ranking, relevant, int(k))
    if name == "nDCG" and k.isdigit():
        return ndcg_at_k(ranking, relevant, int(k))
    if metric == "MRR":
        return reciprocal_rank(ranking, relevant)
    raise ValueError(f"unknown metric {metric!r}; use recall@k, capped recall@k, nDCG@k or MRR")


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[int, int, int]:
    """Per-query comparison of two methods' scores: (wins of ``a``, losses of ``a``, ties)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired scores need one value per query on both sides, got {a.shape} and {b.shape}")
    return int((a > b).sum()), int((a < b).sum()), int((a == b).sum())


def bootstrap_interval(values: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000,
                       seed: int = 0, clusters: Sequence[Hashable] | None = None) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean of ``values`` (pass ``a − b`` for a paired difference).

    Queries are resampled with replacement ``resamples`` times by a generator seeded with ``seed``,
    so the same values always give the same interval. With ``clusters`` (one label per value) whole
    clusters are resampled instead, and each resample's mean is over the values it holds: the right
    interval when values within a cluster are not independent (questions of one conversation).
    """
    values = np.asarray(values, dtype=float)
    if not len(values):
        raise ValueError("a bootstrap interval needs at least one value")
    rng = np.random.default_rng(seed)
    if clusters is None:
        picks = rng.integers(0, len(values), size=(resamples, len(values)))
        means = values[picks].mean(axis=1)
    else:
        if len(clusters) != len(values):
            raise ValueError(f"give one cluster label per value: {len(clusters)} labels for {len(values)} values")
        labels = {label: i for i, label in enumerate(dict.fromkeys(clusters))}
        index = np.array([labels[label] for label in clusters])
        sums, sizes = np.bincount(index, values), np.bincount(index).astype(float)
        picks = rng.integers(0, len(labels), size=(resamples, len(labels)))
        means = sums[picks].sum(axis=1) / sizes[picks].sum(axis=1)
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def query_clusters(dataset: LabelledSet, queries: Sequence[LabelledQuery]) -> list[str]:
    """One cluster label per query: the ``thread`` or ``session`` of its first relevant document, else its own id.

    Questions asked in one conversation share its words and its answers, so they are resampled together.
    """
    where = {d.id: d.metadata.get("thread", d.metadata.get("session")) for d in dataset.documents}
    return [str(where.get(q.relevant[0]) or f"query:{q.id}") for q in queries]


@dataclass(frozen=True)
class Evaluation:
    """The rankings (document ids, best first, cut at ``depth``) of every method for every query of a split."""

    dataset: str
    split: str
    queries: tuple[LabelledQuery, ...]
    rankings: dict[str, list[list[str]]]
    clusters: tuple[str, ...] | None = None  # per query, for the bootstrap (``query_clusters``)

    @property
    def methods(self) -> list[str]:
        return list(self.rankings)

    def scores(self, method: str, metric: str) -> np.ndarray:
        """``metric`` of ``method`` per query, in query order."""
        return np.array([score(metric, ranking, q.relevant) for ranking, q in zip(self.rankings[method], self.queries)])

    def mean(self, method: str, metric: str) -> float:
        return float(self.scores(method, metric).mean())

    def table(self, metrics: Sequence[str] = METRICS, title: str | None = None) -> Table:
        """One row per method: each metric's mean and its 95% bootstrap interval."""
        rows = []
        for method in self.methods:
            row: list = [method]
            for metric in metrics:
                values = self.scores(method, metric)
                low, high = bootstrap_interval(values, clusters=self.clusters)
                row.append(f"{values.mean():.3f} [{low:.3f}, {high:.3f}]")
            rows.append(row)
        title = title or f"{self.dataset} / {self.split} ({len(self.queries)} queries), mean [95% interval]"
        return Table(rows, ["method", *metrics], title)

    def compare(self, a: str, b: str, metric: str = "capped recall@5") -> dict[str, float]:
        """Paired comparison of methods ``a`` and ``b``: wins, losses, ties, mean difference and its interval."""
        first, second = self.scores(a, metric), self.scores(b, metric)
        wins, losses, ties = paired(first, second)
        low, high = bootstrap_interval(first - second, clusters=self.clusters)
        return {"wins": wins, "losses": losses, "ties": ties, "difference": float((first - second).mean()),
                "low": low, "high": high}


def fill_memory(dataset: LabelledSet, memory: MemoryBackend) -> dict[str, str]:
    """Store every document of ``dataset`` in the empty ``memory``; return {memory id: document id}."""
    texts = [document.text for document in dataset.documents]
    metadatas = [{**document.metadata, "doc_id": document.id} for document in dataset.documents]
    ids = memory.store_many(texts, metadatas)
    return {memory_id: document.id for memory_id, document in zip(ids, dataset.documents)}


def evaluate(dataset: LabelledSet, split: str = "dev", memory: Callable[[], MemoryBackend] = HybridMemory,
             fusions: Mapping[str, Fusion] | None = None, depth: int = 100) -> Evaluation:
    """Rank every document for every query of ``split`` with vector, keyword and fused search.

    ``memory`` makes an empty memory (a class or any factory, e.g. ``lambda: HybridMemory(fusion=RRF(60))``);
    it must report ``vector_rank``/``keyword_rank`` on its hits. ``fusions`` adds a method per
    entry: the same hits' scores re-fused with that fusion (ties go to the better vector rank, as in
    ``HybridMemory.search``). Rankings are kept to ``depth`` (metrics here look at most that deep).
    """
    if split not in dataset.queries:
        raise ValueError(f"unknown split {split!r}; {dataset.name} has {', '.join(dataset.queries)}")
    store = memory()
    to_doc = fill_memory(dataset, store)
    slot = {memory_id: i for i, memory_id in enumerate(to_doc)}
    names = ["vector", "keyword", "fused", *(fusions or {})]
    rankings: dict[str, list[list[str]]] = {name: [] for name in names}
    for query in dataset.queries[split]:
        hits = store.search(query.text, top_k=len(to_doc))
        for name, ranking in orderings(hits, type(store).__name__).items():  # evaluation.py, lesson 04
            rankings[name].append([to_doc[memory_id] for memory_id in ranking[:depth]])
        if fusions:
            cosine, bm25, vector_rank = np.zeros(len(slot)), np.zeros(len(slot)), np.zeros(len(slot))
            for hit in hits:
                i = slot[hit.id]
                cosine[i], bm25[i], vector_rank[i] = hit.cosine, hit.bm25, hit.vector_rank
            ids = list(to_doc.values())
            for name, fusion in fusions.items():
                fused = fusion.fuse(cosine, bm25)
                order = np.lexsort((vector_rank, -fused))[:depth]
                rankings[name].append([ids[i] for i in order])
    queries = tuple(dataset.queries[split])
    return Evaluation(dataset.name, split, queries, rankings, tuple(query_clusters(dataset, queries)))
