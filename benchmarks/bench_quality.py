"""Benchmark: search quality on the shipped labelled data sets, per split, with 95% intervals.

    python benchmarks/bench_quality.py              # both sets, dev and held-out (about 30-60 s here)
    python benchmarks/bench_quality.py --split dev  # one split only
    python benchmarks/bench_quality.py --sweep      # dev only: every fusion setting tried when choosing the default

Methods, all read from ``HybridMemory`` hits by ``aria_kit.measuring.evaluate``:

- vector: the cosine ranking; keyword: the BM25 ranking as ``HybridMemory()`` does it (query stop
  words dropped, stems), and "keyword (all words, no stems)" as the seed did it;
- fused (default): ``HybridMemory()`` as shipped (``fusion.DEFAULT_FUSION``, query stop words, stems);
- fused (seed RRF): the seed's default, RRF k = 60 with every query word counted as written.

Each cell is the mean over the split's queries and a seeded percentile-bootstrap 95% interval.
The last table compares fused (default) with fused (seed RRF) per query on recall@5: wins,
losses, ties and the paired difference with its interval. The held-out split is for reporting:
the default was chosen on dev (``--sweep`` prints that evidence). Markdown output, for the README.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.bm25 import STOPWORDS  # noqa: E402
from aria_kit.datasets import list_datasets, load_dataset  # noqa: E402
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.measuring import METRICS, bootstrap_interval, evaluate  # noqa: E402


def cell(values) -> str:
    low, high = bootstrap_interval(values)
    return f"{values.mean():.3f} [{low:.3f}, {high:.3f}]"


def report(name: str, split: str) -> tuple[list[str], list[str]]:
    """Markdown rows for one data set and split: the metrics table rows and the paired comparison row."""
    dataset = load_dataset(name)
    default = evaluate(dataset, split)
    seed = evaluate(dataset, split, memory=lambda: HybridMemory(fusion=RRF(60), stopwords=(), stemming=False))
    methods = [("vector", default, "vector"), ("keyword", default, "keyword"),
               ("keyword (all words, no stems)", seed, "keyword"), ("fused (default)", default, "fused"),
               ("fused (seed RRF k=60)", seed, "fused")]
    rows = [f"| {name} | {split} ({len(default.queries)}) | {label} | "
            + " | ".join(cell(run.scores(method, metric)) for metric in METRICS) + " |"
            for label, run, method in methods]
    new, old = default.scores("fused", "recall@5"), seed.scores("fused", "recall@5")
    wins, losses, ties = (int((new > old).sum()), int((new < old).sum()), int((new == old).sum()))
    low, high = bootstrap_interval(new - old)
    paired = f"| {name} | {split} | {wins} | {losses} | {ties} | {(new - old).mean():+.3f} [{low:+.3f}, {high:+.3f}] |"
    return rows, [paired]


def sweep(name: str) -> list[str]:
    """Dev-split recall@5 / nDCG@10 of every fusion setting tried, with and without query stop words and stemming."""
    dataset = load_dataset(name)
    fusions = {**{f"rrf k={k}": RRF(k) for k in (10, 30, 60, 100)},
               **{f"convex w={w / 10:g}": ConvexFusion(w / 10) for w in range(1, 10)}}
    rows = []
    for stemming in (True, False):
        for stopwords, label in ((STOPWORDS, "yes"), ((), "no")):
            run = evaluate(dataset, "dev", memory=lambda: HybridMemory(stopwords=stopwords, stemming=stemming),
                           fusions=fusions)
            for method in ["vector", "keyword", *fusions]:
                rows.append(f"| {name} | {'yes' if stemming else 'no'} | {label} | {method} | "
                            f"{run.mean(method, 'recall@5'):.3f} | {run.mean(method, 'nDCG@10'):.3f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "heldout"], help="only this split (default: both)")
    parser.add_argument("--sweep", action="store_true", help="print the dev sweep used to choose the default")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{date.today().isoformat()} · Python {platform.python_version()} · default fusion {DEFAULT_FUSION!r} "
          "with query stop words\n")
    if args.sweep:
        print("| set | stemming | query stop words | fusion | recall@5 | nDCG@10 |\n|---|---|---|---|---:|---:|")
        for name in list_datasets():
            print("\n".join(sweep(name)))
    else:
        table, comparison = [], []
        for name in list_datasets():
            for split in [args.split] if args.split else ["dev", "heldout"]:
                rows, paired = report(name, split)
                table += rows
                comparison += paired
        print("| set | split (queries) | method | " + " | ".join(METRICS) + " |")
        print("|---|---|---|" + "---:|" * len(METRICS))
        print("\n".join(table))
        print("\nfused (default) vs fused (seed RRF k=60), recall@5 per query:\n")
        print("| set | split | wins | losses | ties | mean difference [95% interval] |\n|---|---|---:|---:|---:|---|")
        print("\n".join(comparison))
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
