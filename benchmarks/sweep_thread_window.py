"""Choose the thread context window on chitchat_turns' dev split; report the chosen one on held-out once.

    python benchmarks/sweep_thread_window.py            # dev: windows 0-3 (about 2-4 min here)
    python benchmarks/sweep_thread_window.py --heldout  # held-out, the shipped THREAD_WINDOW against 0

Every run stores the set's 6,998 turns (one memory per turn, ``thread`` = session) in a default
``HybridMemory`` whose only change is ``thread_window``, and ranks every query of the split
(``aria_kit.thread_evaluation``). Per window it prints recall@5 of the vector, keyword and fused
rankings, and the fused ranking's paired difference from window 0. Intervals are 95% bootstraps
that resample whole sessions, not single questions (questions cluster by session). The window was
chosen as the best fused recall@5 on dev, the smaller window on a tie; the held-out split is read
only with ``--heldout``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.datasets import load_dataset  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.measuring import bootstrap_interval, evaluate, query_clusters  # noqa: E402
from aria_kit.thread_context import THREAD_WINDOW  # noqa: E402

NAME, METRIC = "chitchat_turns", "recall@5"


def cell(values, threads, sign: str = "") -> str:
    low, high = bootstrap_interval(values, clusters=threads)
    return f"{values.mean():{sign}.3f} [{low:{sign}.3f}, {high:{sign}.3f}]"


def table(split: str, windows: list[int]) -> None:
    """One Markdown row per window: vector, keyword and fused recall@5, and fused minus window 0."""
    dataset = load_dataset(NAME)
    runs = {w: evaluate(dataset, split, lambda w=w: HybridMemory(thread_window=w), depth=20) for w in windows}
    threads = query_clusters(dataset, dataset.queries[split])
    base = runs[0].scores("fused", METRIC)
    print(f"{NAME} / {split}: {len(threads)} questions from {len(set(threads))} sessions; {METRIC}, mean "
          "[95% interval, sessions resampled]\n")
    print("| thread_window | vector | keyword | fused | fused − window 0 |\n| --- | --- | --- | --- | --- |")
    for window, run in runs.items():
        fused = run.scores("fused", METRIC)
        print(f"| {window} | {cell(run.scores('vector', METRIC), threads)} | "
              f"{cell(run.scores('keyword', METRIC), threads)} | {cell(fused, threads)} | "
              f"{cell(fused - base, threads, '+') if window else '—'} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout", action="store_true", help="report the shipped window on held-out (once)")
    arguments = parser.parse_args()
    table("heldout", [0, THREAD_WINDOW]) if arguments.heldout else table("dev", [0, 1, 2, 3])
