"""Worked solutions for lesson 05 (measuring memory).

Open this when you are stuck on exercises 05.1–05.4 or the stretch task.
``aria_kit.measuring`` holds the same metrics and interval (with input checks),
and the lesson's checks compare your functions with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """The share of the relevant ids that appear in the first ``k`` of ``ranking``."""
    return len(set(ranking[:k]) & set(relevant)) / len(set(relevant))


def reciprocal_rank(ranking: Sequence[str], relevant: Sequence[str]) -> float:
    """1 / (rank of the first relevant id), or 0.0 when no relevant id is in the ranking."""
    for rank, item in enumerate(ranking, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int = 10) -> float:
    """DCG of the top ``k`` (gain 1 per relevant id, discounted by log2(rank + 1)) over the best possible DCG."""
    wanted = set(relevant)
    dcg = sum(1 / math.log2(rank + 1) for rank, item in enumerate(ranking[:k], start=1) if item in wanted)
    # The best ranking puts every relevant id first; only k of them fit in the top k.
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return dcg / ideal


def bootstrap_interval(values: Sequence[float], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile bootstrap interval for the mean of ``values``: resample queries with replacement."""
    values = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
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
