"""Choose thread context's window, weight and length on the dev splits of the conversational sets.

    python benchmarks/sweep_thread_window.py          # dev only, every setting (about 1-2 min here)

The sets are every shipped set whose documents carry a ``"thread"`` (chitchat_turns, long_turns). Each is
scored once without context (``tuning.score_dataset``, the arithmetic of ``HybridMemory.search``; only the
dev queries are scored: the held-out ones are never loaded here), then each setting re-ranks the same
scores with ``thread_context.with_context`` and the default fusion. Printed: capped recall@5 of the
keyword and fused rankings per set for every setting, then the chosen setting against no context with
95% intervals that resample whole conversations. The rule: the best mean of the sets' fused recall@5,
among settings that lose to no context on no set's fused recall@5; ties to the smaller window, then
the smaller weight, then the larger length (less length-aware). The held-out split is reported once,
by ``benchmarks/bench_quality.py``. Every neighbour here lends its whole score ("all words"); what a neighbour
lends was chosen afterwards, on the same dev splits, by ``sweep_thread_borrow.py``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.datasets import LabelledSet, list_datasets, load_dataset  # noqa: E402
from aria_kit.fusion import DEFAULT_FUSION  # noqa: E402
from aria_kit.measuring import bootstrap_interval  # noqa: E402
from aria_kit.thread_context import with_context  # noqa: E402
from aria_kit.tuning import ScoredSplit, score_dataset, thread_pairs  # noqa: E402

METRIC = "capped recall@5"
WINDOWS, WEIGHTS, LENGTHS = (1, 2, 3, 5, 8), (0.1, 0.2, 0.3, 0.5, 0.7, 1.0), (10, 20, 40, 80, float("inf"))


def conversational_sets() -> dict[str, LabelledSet]:
    """The shipped sets with thread memories, their held-out questions dropped before anything is scored."""
    found = {}
    for name in list_datasets():
        dataset = load_dataset(name)
        if any("thread" in d.metadata for d in dataset.documents):
            found[name] = replace(dataset, queries={"dev": dataset.queries["dev"], "heldout": ()})
    return found


def with_setting(dataset: LabelledSet, plain: ScoredSplit, window: int, weight: float, length: float) -> ScoredSplit:
    """``plain`` (scored without context) with thread context at this setting on its stemmed, stop-word-free BM25."""
    context = thread_pairs(dataset, window, weight, length)
    bm25 = np.stack([with_context(row, *context) for row in plain.bm25[True, True]])
    return replace(plain, bm25={**plain.bm25, (True, True): bm25})


def recall(split: ScoredSplit, method) -> np.ndarray:
    return split.scores(split.rankings(method, depth=5), METRIC)


def cell(values: np.ndarray, clusters, sign: str = "") -> str:
    low, high = bootstrap_interval(values, clusters=clusters)
    return f"{values.mean():{sign}.3f} [{low:{sign}.3f}, {high:{sign}.3f}]"


def main() -> None:
    started = time.perf_counter()
    sets = conversational_sets()
    plain = {name: score_dataset(dataset, thread_window=0)["dev"] for name, dataset in sets.items()}
    base = {name: (recall(split, "keyword"), recall(split, DEFAULT_FUSION)) for name, split in plain.items()}
    print(f"Dev {METRIC} (keyword / fused) per setting; "
          + "; ".join(f"{n}: {len(s.queries)} questions" for n, s in plain.items()) + "\n")
    print("| window | weight | length | " + " | ".join(f"{n} keyword | {n} fused" for n in sets) + " | mean fused |")
    print("|---:|---:|---:|" + "---:|---:|" * len(sets) + "---:|")
    print("| 0 | — | — | " + " | ".join(f"{k.mean():.3f} | {f.mean():.3f}" for k, f in base.values())
          + f" | {np.mean([f.mean() for _, f in base.values()]):.3f} |")
    results = {}
    for window, weight, length in product(WINDOWS, WEIGHTS, LENGTHS):
        runs = {n: with_setting(sets[n], plain[n], window, weight, length) for n in sets}
        scores = {n: (recall(run, "keyword"), recall(run, DEFAULT_FUSION)) for n, run in runs.items()}
        mean = float(np.mean([f.mean() for _, f in scores.values()]))
        results[window, weight, length] = scores, mean
        print(f"| {window} | {weight:g} | {length:g} | "
              + " | ".join(f"{k.mean():.3f} | {f.mean():.3f}" for k, f in scores.values()) + f" | {mean:.3f} |")
    allowed = [s for s, (scores, _) in results.items()
               if all(scores[n][1].mean() >= base[n][1].mean() for n in sets)]
    chosen = max(allowed, key=lambda s: (round(results[s][1], 9), -s[0], -s[1], s[2]))
    print(f"\nChosen on dev: window {chosen[0]}, weight {chosen[1]:g}, length {chosen[2]:g} (all words; the "
          f"shipped setting is sweep_thread_borrow.py's choice)\n")
    print(f"| set | dev {METRIC}: no context | chosen setting | chosen − no context |\n|---|---|---|---|")
    for name in sets:
        clusters, none, fused = plain[name].clusters, base[name][1], results[chosen][0][name][1]
        print(f"| {name} | {cell(none, clusters)} | {cell(fused, clusters)} | {cell(fused - none, clusters, '+')} |")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
