"""Worked solutions for lesson 05 (measuring memory).

Open this when you are stuck on exercise 05.1 (a score for one ranking, of your design), 05.2 (a bootstrap by
session) or the stretch task; ``show_solution("05.2")`` prints one of them. Exercise 05.1 has answers of
different design in ``SOLUTIONS["05.1"]``: ``capped_recall_at_k`` counts the answers in the top k, whatever
their order there; ``reciprocal_rank_at_k`` looks only at how soon the first answer comes; ``ndcg_at_k``
rewards finding every answer, and finding it high. ``aria_kit.measuring`` holds the metrics and the clustered
interval with input checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np


def capped_recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Design A, capped recall@k: distinct relevant ids in the first ``k``, over the most a top ``k`` can hold."""
    wanted = set(relevant)
    if not wanted:
        raise ValueError("a score needs at least one relevant id")
    return len(set(ranking[:k]) & wanted) / min(k, len(wanted))


def reciprocal_rank_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Design B, reciprocal rank cut at ``k``: 1/rank of the first relevant id in the top ``k``, else 0.

    Blind to every answer after the first: for a memory that recalls one fact per question, that is the point.
    """
    wanted = set(relevant)
    if not wanted:
        raise ValueError("a score needs at least one relevant id")
    for rank, item in enumerate(ranking[:k], start=1):
        if item in wanted:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int = 10) -> float:
    """Design C, nDCG@k: each relevant id's first place in the top ``k`` earns 1/log2(rank + 1); over the best DCG."""
    wanted, seen = set(relevant), set()
    if not wanted:
        raise ValueError("a score needs at least one relevant id")
    dcg = 0.0
    for rank, item in enumerate(ranking[:k], start=1):
        if item in wanted and item not in seen:  # a repeat earns nothing
            seen.add(item)
            dcg += 1 / math.log2(rank + 1)
    # The best ranking puts every relevant id first; only k of them fit in the top k.
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


# Each design is the arguments of one call of check_ranking_score (tests/test_exercise_kinds.py runs them).
SOLUTIONS = {"05.1": [(capped_recall_at_k,), (reciprocal_rank_at_k,), (ndcg_at_k,)]}


def cluster_bootstrap_interval(values: Sequence[float], clusters: Sequence[Hashable], resamples: int = 2000,
                               seed: int = 0) -> tuple[float, float]:
    """95% bootstrap interval for the mean of ``values``, resampling whole clusters (sessions) with replacement.

    Each resample draws as many clusters as there are, and its mean is over the values those clusters
    hold, so every question weighs the same and a big session counts as much as its questions.
    """
    values = np.asarray(values, dtype=float)
    labels = {label: i for i, label in enumerate(dict.fromkeys(clusters))}
    index = np.array([labels[label] for label in clusters])
    sums, sizes = np.bincount(index, values), np.bincount(index).astype(float)
    picks = np.random.default_rng(seed).integers(0, len(labels), size=(resamples, len(labels)))
    means = sums[picks].sum(axis=1) / sizes[picks].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def sign_flip_p_value(a: Sequence[float], b: Sequence[float], resamples: int = 10000, seed: int = 0) -> float:
    """Stretch 05: a paired permutation (sign-flip) test of "a and b score the same on average".

    Under that hypothesis each query's difference ``a − b`` is as likely to have
    either sign, so flip each sign at random and count how often the mean
    difference is at least as far from 0 as the one observed. The +1s count the
    observed arrangement itself, so p is never exactly 0.
    """
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    observed = abs(diff.mean())
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(resamples, len(diff)))
    extreme = np.abs((signs * diff).mean(axis=1)) >= observed - 1e-12
    return float((extreme.sum() + 1) / (resamples + 1))
