"""Worked solutions for lesson 05 (measuring memory).

Open this when you are stuck on exercises 05.1–05.4 or the stretch task; ``show_solution("05.3")``
prints one of them. ``aria_kit.measuring`` holds the metrics and the clustered interval (with input
checks), and the lesson's checks compare your functions with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np


def capped_recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Distinct relevant ids in the first ``k`` of ``ranking``, over the most a top ``k`` can hold."""
    wanted = set(relevant)
    if not wanted:
        raise ValueError("recall needs at least one relevant id")
    return len(set(ranking[:k]) & wanted) / min(k, len(wanted))


def ndcg_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int = 10) -> float:
    """DCG of the top ``k`` (gain 1 per relevant id, discounted by log2(rank + 1)) over the best possible DCG."""
    wanted = set(relevant)
    dcg = sum(1 / math.log2(rank + 1) for rank, item in enumerate(ranking[:k], start=1) if item in wanted)
    # The best ranking puts every relevant id first; only k of them fit in the top k.
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


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


def tune_then_report(candidates: Mapping[str, Any], dev_score: Callable[[Any], float],
                     heldout_score: Callable[[Any], float]) -> tuple[str, float]:
    """Choose the candidate with the best dev score (the first on ties), then read held-out once, for it only."""
    if not candidates:
        raise ValueError("no candidates to choose from")
    scores = {label: dev_score(setting) for label, setting in candidates.items()}
    best = max(scores, key=scores.get)  # max keeps the first of equal scores
    return best, heldout_score(candidates[best])


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
