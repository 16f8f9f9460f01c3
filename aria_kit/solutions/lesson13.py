"""Worked solutions for lesson 13 (scaling memory): top-k without a full sort, IVF search, and the stretch.

Open this when you are stuck. ``top_k`` is the idea at the heart of
``exact_top_k.ranked_head``: ``np.argpartition`` moves the k best scores to the
front in O(N) without ordering the rest, and only those k are sorted. Ties
need care: the k-th best score may be shared by rows both inside and outside
the first k, so we take every row scoring at least that much, sort those, and
keep k. Exercise 13.2 has two designs in ``SOLUTIONS["13.2"]``: k-means lists
with a fixed number probed (``kmeans_index``, ``nearest_lists``: an IVF), and
lists around randomly chosen stored vectors, probed nearest first until a
budget of rows is spent (``pivot_index``, ``lists_within_budget``: no training,
a read cost fixed per query). The stretch measures how often an approximate vector side changes the hybrid
memory's top 3, against the exact one.
"""

from __future__ import annotations

import numpy as np

from aria_kit.approximate_search import IVFIndex


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest ``scores``, best first; equal scores go to the lower index."""
    scores = np.asarray(scores)
    if k >= len(scores):
        return np.lexsort((np.arange(len(scores)), -scores))
    kth_best = scores[np.argpartition(-scores, k - 1)[k - 1]]  # O(N): the k-th best score, no full sort
    rows = np.flatnonzero(scores >= kth_best)  # every row that ties with it too
    return rows[np.lexsort((rows, -scores[rows]))][:k]


def kmeans_index(vectors: np.ndarray) -> IVFIndex:
    """13.2, design 1: 32 k-means lists (an inverted file); build costs a few passes over every vector."""
    return IVFIndex.build(vectors, n_lists=32, seed=13)


def nearest_lists(index: IVFIndex, query: np.ndarray) -> np.ndarray:
    """The rows of the 6 lists whose centroids are most similar to ``query`` (about 6/32 of the rows)."""
    probed = np.argsort(-(index.centroids @ query), kind="stable")[:6]
    return np.concatenate([index.lists[cluster] for cluster in probed])


def pivot_index(vectors: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """13.2, design 2: 128 stored vectors drawn at random as pivots, every row filed with its most similar pivot.

    One pass over the vectors and no training; a new memory joins its nearest pivot's list.
    """
    pivots = vectors[np.random.default_rng(13).choice(len(vectors), 128, replace=False)]
    owner = np.argmax(vectors @ pivots.T, axis=1)
    return pivots, [np.flatnonzero(owner == pivot) for pivot in range(len(pivots))]


def lists_within_budget(index: tuple[np.ndarray, list[np.ndarray]], query: np.ndarray,
                        budget: float = 0.23) -> np.ndarray:
    """Lists nearest pivot first, until ``budget`` of all rows is read: the same cost for every query."""
    pivots, lists = index
    total, taken, read = sum(len(rows) for rows in lists), [], 0
    for pivot in np.argsort(-(pivots @ query), kind="stable"):
        taken.append(lists[pivot])
        read += len(lists[pivot])
        if read >= budget * total:
            break
    return np.concatenate(taken)


SOLUTIONS = {"13.2": [(kmeans_index, nearest_lists), (pivot_index, lists_within_budget)]}


def approximate_hybrid_top3(index: IVFIndex, keyword_scores: np.ndarray, query: np.ndarray, nprobe: int) -> list[int]:
    """Stretch 13: the hybrid top 3 (RRF, k = 60) of an IVF vector ranking and an exact keyword ranking.

    Rows in unprobed lists get no vector rank; rows with a keyword score of 0 get no keyword rank.
    """
    from aria_kit.fusion import reciprocal_rank_fusion

    vector = index.search(query, len(index.vectors), nprobe)[0].tolist()
    keyword = [int(row) for row in top_k(keyword_scores, len(keyword_scores)) if keyword_scores[row] > 0]
    return [int(row) for row, _ in reciprocal_rank_fusion([vector, keyword])[:3]]


def stretch_top3_agreement(texts: list[str], queries: list[str], n_lists: int = 32, nprobe: int = 4) -> float:
    """Stretch 13: the share of queries whose hybrid top 3 stays the same when the vector ranking comes from an
    IVF (unprobed rows get no vector rank) instead of exact search. Both use RRF with k = 60 and BM25Index."""
    from aria_kit.bm25 import BM25Index, tokenize
    from aria_kit.embeddings import default_embedder
    from aria_kit.fusion import reciprocal_rank_fusion

    embedder = default_embedder()
    vectors = embedder.embed(texts)
    index, bm25 = IVFIndex.build(vectors, n_lists), BM25Index()
    bm25.add_many([tokenize(text) for text in texts])
    same = 0
    for query in queries:
        vector = embedder.embed([query])[0]
        scores = bm25.scores(tokenize(query))
        keyword = [int(row) for row in np.lexsort((np.arange(len(texts)), -scores)) if scores[row] > 0]
        exact = reciprocal_rank_fusion([top_k(vectors @ vector, len(texts)).tolist(), keyword])[:3]
        approximate = reciprocal_rank_fusion([index.search(vector, len(texts), nprobe)[0].tolist(), keyword])[:3]
        same += [row for row, _ in exact] == [row for row, _ in approximate]
    return same / len(queries)
