"""Worked solutions for lesson 13 (scaling memory): top-k without a full sort, IVF search, and the stretch.

Open this when you are stuck. ``top_k`` is the idea at the heart of
``exact_top_k.ranked_head``: ``np.argpartition`` moves the k best scores to the
front in O(N) without ordering the rest, and only those k are sorted. Ties
need care: the k-th best score may be shared by rows both inside and outside
the first k, so we take every row scoring at least that much, sort those, and
keep k. ``ivf_search`` is ``approximate_search.IVFIndex.search`` written out.
The stretch measures how often an approximate vector side changes the hybrid
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


def ivf_search(index: IVFIndex, query: np.ndarray, k: int, nprobe: int) -> np.ndarray:
    """The ``k`` best rows among the ``nprobe`` lists whose centroids are most similar to ``query``."""
    probed = np.argsort(-(index.centroids @ query), kind="stable")[:nprobe]
    rows = np.sort(np.concatenate([index.lists[cluster] for cluster in probed]))
    scores = index.vectors[rows] @ query
    return rows[np.lexsort((rows, -scores))][:k]


def approximate_hybrid_top3(index: IVFIndex, keyword_scores: np.ndarray, query: np.ndarray, nprobe: int) -> list[int]:
    """Stretch 13: the hybrid top 3 (RRF, k = 60) of an IVF vector ranking and an exact keyword ranking.

    Rows in unprobed lists get no vector rank; rows with a keyword score of 0 get no keyword rank.
    """
    from aria_kit.fusion import reciprocal_rank_fusion

    vector = ivf_search(index, query, len(index.vectors), nprobe).tolist()
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
        approximate = reciprocal_rank_fusion([ivf_search(index, vector, len(texts), nprobe).tolist(), keyword])[:3]
        same += [row for row, _ in exact] == [row for row, _ in approximate]
    return same / len(queries)
