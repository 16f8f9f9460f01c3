"""Measuring thread context: the same memories searched with and without it, and intervals by thread (lesson 05).

``evaluate_thread_context`` stores a data set whose documents carry a ``"thread"`` (e.g.
``chitchat_turns``) twice, once with ``HybridMemory``'s thread context at ``window`` turns and once
without it (``thread_window=0``), and ranks every query of a split in both: everything else
(embedder, fusion, stems, stop words) is the default, so the difference is thread context alone.

Questions about one conversation are not independent: resampling them one by one gives an interval
that is too narrow. ``bootstrap_by_thread`` resamples whole threads (a query belongs to the thread
of its first relevant document) and ``thread_of_queries`` says which thread each query is in.
This module ranks nothing itself (``measuring.evaluate`` does).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from aria_kit.datasets import LabelledQuery, LabelledSet
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import Evaluation, evaluate
from aria_kit.thread_context import THREAD_WINDOW


def evaluate_thread_context(dataset: LabelledSet, split: str = "dev", window: int = THREAD_WINDOW,
                            depth: int = 100) -> dict[str, Evaluation]:
    """``{"with thread context": …, "without thread context": …}``: the default memory at ``window`` and at 0."""
    if window < 1:
        raise ValueError(f"window must be at least 1 turn (0 is the comparison), got {window!r}")
    return {"with thread context": evaluate(dataset, split, lambda: HybridMemory(thread_window=window), depth=depth),
            "without thread context": evaluate(dataset, split, lambda: HybridMemory(thread_window=0), depth=depth)}


def thread_of_queries(dataset: LabelledSet, queries: Sequence[LabelledQuery]) -> list[str]:
    """The thread of each query's first relevant document (its id when the document has no thread)."""
    thread = {d.id: str(d.metadata.get("thread", d.id)) for d in dataset.documents}
    return [thread[query.relevant[0]] for query in queries]


def bootstrap_by_thread(values: Sequence[float], threads: Sequence[str], *, confidence: float = 0.95,
                        resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean of ``values``, resampling whole threads with replacement.

    ``threads[i]`` is the thread of ``values[i]`` (``thread_of_queries``). Each resample draws as
    many threads as there are, and its mean is over every query of the threads drawn. Seeded.
    """
    values = np.asarray(values, dtype=float)
    if not len(values) or len(threads) != len(values):
        raise ValueError(f"need one thread per value, got {len(values)} values and {len(threads)} threads")
    names, group = np.unique(np.asarray(threads, dtype=str), return_inverse=True)
    sums, counts = np.bincount(group, weights=values), np.bincount(group).astype(float)
    picks = np.random.default_rng(seed).integers(0, len(names), size=(resamples, len(names)))
    means = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)
