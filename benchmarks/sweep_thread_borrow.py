"""What a thread turn borrows from its neighbours, chosen on the dev splits of the conversational sets (issue 28).

    python benchmarks/sweep_thread_borrow.py          # dev only (about 1-2 min here)

Two rules for what a neighbour lends a turn's keyword score, each at every window, weight and length:
"all words", the neighbour's whole BM25 score (the first search-time design), and "missing words", only its
scores for the query words the turn itself lacks (``thread_context.with_context`` with ``term_scores``), so a
long turn that holds the query's words is not outbid by neighbours paid for the same words again.

Dev only, as ``sweep_thread_window.py``: the held-out questions are dropped before anything is scored
(``conversational_sets``). Printed: capped recall@5 of the keyword and fused rankings per set and setting, then
the chosen setting against no context and against the shipped one, with 95% intervals that resample whole
conversations. The rule, fixed before the sweep ran: among settings whose fused ranking loses on no set to no
context, to keyword search or to vector search (each at that setting), the best mean of the sets' fused recall@5;
ties to "all words", then the smaller window, the smaller weight, the larger length. The held-out split is read
once, afterwards, by ``benchmarks/bench_quality.py`` (or ``tests/test_thread_quality_bars.py``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize  # noqa: E402
from aria_kit.datasets import LabelledSet  # noqa: E402
from aria_kit.fusion import DEFAULT_FUSION  # noqa: E402
from aria_kit.thread_context import (THREAD_BORROW, THREAD_LENGTH, THREAD_WEIGHT, THREAD_WINDOW,  # noqa: E402
                                     with_context)
from aria_kit.tuning import ScoredSplit, score_dataset, thread_pairs  # noqa: E402

from sweep_thread_window import cell, conversational_sets, recall  # noqa: E402  (same dev-only loading)

BORROWS, WINDOWS = ("all words", "missing words"), (1, 2, 3)
WEIGHTS, LENGTHS = (0.3, 0.5, 0.7, 1.0), (10, 20, 40, 80, float("inf"))


def dev_term_scores(dataset: LabelledSet) -> list[np.ndarray]:
    """Per dev question: each distinct query word's BM25 scores, stems, query stop words dropped (the default)."""
    index = BM25Index()
    index.add_many([tokenize(d.text, stem=True) for d in dataset.documents])
    return [index.term_scores(tokenize(q.text, STOPWORDS, True)) for q in dataset.queries["dev"]]


def with_setting(dataset: LabelledSet, plain: ScoredSplit, terms: list[np.ndarray], borrow: str, window: int,
                 weight: float, length: float) -> ScoredSplit:
    context = thread_pairs(dataset, window, weight, length)
    bm25 = np.stack([with_context(row, *context, term_scores=term if borrow == "missing words" else None)
                     for row, term in zip(plain.bm25[True, True], terms)])
    return replace(plain, bm25={**plain.bm25, (True, True): bm25})


def main() -> None:
    started = time.perf_counter()
    sets = conversational_sets()
    plain = {name: score_dataset(dataset, thread_window=0)["dev"] for name, dataset in sets.items()}
    terms = {name: dev_term_scores(dataset) for name, dataset in sets.items()}
    vector = {name: recall(split, "vector") for name, split in plain.items()}
    none = {name: recall(split, DEFAULT_FUSION) for name, split in plain.items()}
    print("Dev capped recall@5 (keyword / fused) per setting; vector: "
          + ", ".join(f"{n} {v.mean():.3f}" for n, v in vector.items()) + "; no context fused: "
          + ", ".join(f"{n} {v.mean():.3f}" for n, v in none.items()) + "\n")
    print("| borrow | window | weight | length | " + " | ".join(f"{n} keyword | {n} fused" for n in sets)
          + " | mean fused | allowed |")
    print("|---|---:|---:|---:|" + "---:|---:|" * len(sets) + "---:|---|")
    results = {}
    for setting in product(BORROWS, WINDOWS, WEIGHTS, LENGTHS):
        runs = {n: with_setting(sets[n], plain[n], terms[n], *setting) for n in sets}
        scores = {n: (recall(run, "keyword"), recall(run, DEFAULT_FUSION)) for n, run in runs.items()}
        mean = float(np.mean([f.mean() for _, f in scores.values()]))
        allowed = all(f.mean() >= max(k.mean(), vector[n].mean(), none[n].mean()) for n, (k, f) in scores.items())
        results[setting] = scores, mean, allowed
        print(f"| {setting[0]} | {setting[1]} | {setting[2]:g} | {setting[3]:g} | "
              + " | ".join(f"{k.mean():.3f} | {f.mean():.3f}" for k, f in scores.values())
              + f" | {mean:.3f} | {'yes' if allowed else 'no'} |")
    chosen = max((s for s, r in results.items() if r[2]),
                 key=lambda s: (round(results[s][1], 9), -BORROWS.index(s[0]), -s[1], -s[2], s[3]))
    shipped = (THREAD_BORROW, THREAD_WINDOW, THREAD_WEIGHT, float(THREAD_LENGTH))
    print(f"\nChosen on dev: {chosen[0]}, window {chosen[1]}, weight {chosen[2]:g}, length {chosen[3]:g} (shipped: "
          f"{shipped[0]}, window {shipped[1]}, weight {shipped[2]:g}, length {shipped[3]:g}"
          f"{'' if chosen == shipped else ' — DIFFERENT'})\n")
    before = ("all words", 1, 0.7, 40.0)  # the first search-time setting (sweep_thread_window.py)
    print("| set | dev capped recall@5: no context | all words 1/0.7/40 | chosen | chosen − no context "
          "| chosen − all words 1/0.7/40 | chosen − its keyword |\n|---|---|---|---|---|---|---|")
    for name in sets:
        clusters = plain[name].clusters
        keyword, fused = results[chosen][0][name]
        first = results[before][0][name][1]
        print(f"| {name} | {cell(none[name], clusters)} | {cell(first, clusters)} | {cell(fused, clusters)} "
              f"| {cell(fused - none[name], clusters, '+')} | {cell(fused - first, clusters, '+')} "
              f"| {cell(fused - keyword, clusters, '+')} |")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
