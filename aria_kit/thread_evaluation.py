"""Measuring thread context: the same memories searched with and without it, and intervals by thread (lesson 05).

``evaluate_thread_context`` stores a data set whose documents carry a ``"thread"`` (e.g.
``chitchat_turns``) twice, once with ``HybridMemory``'s thread context at ``window`` turns and once
without it (``thread_window=0``), and ranks every query of a split in both: everything else
(embedder, fusion, stems, stop words) is the default, so the difference is thread context alone.

Questions about one conversation are not independent: report them with
``measuring.bootstrap_interval(values, clusters=measuring.query_clusters(dataset, queries))``, which
resamples whole threads. This module ranks nothing itself (``measuring.evaluate`` does).
"""

from __future__ import annotations

from aria_kit.datasets import LabelledSet
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
