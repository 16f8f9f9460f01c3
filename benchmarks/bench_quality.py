"""Benchmark: search quality on the shipped labelled data sets, per split, with 95% intervals.

    python benchmarks/bench_quality.py              # every set, dev and held-out (about 1-2 min here)
    python benchmarks/bench_quality.py --split dev  # one split only
    python benchmarks/bench_quality.py --sweep      # dev only: the fusion and normalisation settings tried

Every ranking is read from ``HybridMemory`` hits by ``aria_kit.measuring.evaluate``: vector, keyword
(query stop words dropped, stems) and fused (``HybridMemory()`` as shipped), and the seed's search
(RRF k = 60, every query word as written). Metrics: capped recall@5 (found ÷ min(5, relevant), so a
question with more than five answers can reach 1), recall@10, nDCG@10 and MRR. Intervals are seeded
percentile-bootstrap 95% intervals that resample whole chat sessions where questions come from one
session (``measuring.query_clusters``), single questions elsewhere. Then: the default against each of
its single rankings and the seed, per question; the seed-to-default path one change at a time; and
fanoutqa with the sub-question text cut from its documents (how much that text favours keywords), and
``HybridMemory.tune`` choosing the convex weight on each set's dev questions, read once on held-out.
The default was chosen on dev: dev intervals of the chosen setting are optimistic (selection bias).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.bm25 import STOPWORDS  # noqa: E402
from aria_kit.datasets import Document, LabelledSet, list_datasets, load_dataset  # noqa: E402
from aria_kit.embeddings import default_embedder, normalize  # noqa: E402
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion, ranks  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.measuring import (METRICS, Evaluation, bootstrap_interval, capped_recall_at_k, evaluate,  # noqa: E402
                                fill_memory, query_clusters)
from aria_kit.tuning import ScoredSplit, score_dataset  # noqa: E402

HEADLINE = "capped recall@5"
STEPS = {  # the seed, then one change at a time until HybridMemory() (tuning.one_factor_steps, through the memory)
    "seed (RRF 60, all words)": lambda: HybridMemory(fusion=RRF(60), stopwords=(), stemming=False, thread_window=0),
    "+ stems": lambda: HybridMemory(fusion=RRF(60), stopwords=(), stemming=True, thread_window=0),
    "− query stop words": lambda: HybridMemory(fusion=RRF(60), thread_window=0),
    "convex 0.5": lambda: HybridMemory(thread_window=0),
    "+ thread context (default)": HybridMemory,  # changes only sets whose memories carry a "thread"
}


def cell(values: np.ndarray, clusters) -> str:
    low, high = bootstrap_interval(values, clusters=clusters)
    return f"{values.mean():.3f} [{low:.3f}, {high:.3f}]"


def difference(a: np.ndarray, b: np.ndarray, clusters) -> str:
    low, high = bootstrap_interval(a - b, clusters=clusters)
    return f"{(a - b).mean():+.3f} [{low:+.3f}, {high:+.3f}]"


def runs(dataset: LabelledSet, split: str, steps: int = len(STEPS)) -> dict[str, Evaluation]:
    """One evaluation per step of ``STEPS`` (the first ``steps`` of them; the last is the default, the first the seed)."""
    return {label: evaluate(dataset, split, memory=make) for label, make in list(STEPS.items())[:steps]}


def report(dataset: LabelledSet, split: str) -> tuple[list[str], list[str], list[str], Evaluation]:
    """Markdown rows (the metrics table, the paired comparisons, the one-change-at-a-time path) and the default's run."""
    threaded = any("thread" in d.metadata for d in dataset.documents)
    steps = runs(dataset, split, len(STEPS) if threaded else len(STEPS) - 1)
    if not threaded:  # no memory has a thread: thread context would change nothing, so convex 0.5 is the default
        steps["convex 0.5 (default)"] = steps.pop("convex 0.5")
    default, seed = list(steps.values())[-1], steps["seed (RRF 60, all words)"]
    clusters = default.clusters
    methods = [("vector", default, "vector"), ("keyword", default, "keyword"),
               ("keyword (all words, no stems)", seed, "keyword"), ("fused (default)", default, "fused"),
               ("fused (seed RRF k=60)", seed, "fused")]
    where = f"{dataset.name} | {split} ({len(default.queries)}, {len(set(clusters))} clusters)"
    table = [f"| {where} | {label} | " + " | ".join(cell(run.scores(m, metric), clusters) for metric in METRICS) + " |"
             for label, run, m in methods]
    fused = default.scores("fused", HEADLINE)
    paired = []
    for label, other in (("vector", default.scores("vector", HEADLINE)), ("keyword", default.scores("keyword", HEADLINE)),
                         ("seed RRF k=60", seed.scores("fused", HEADLINE))):
        wins, losses, ties = int((fused > other).sum()), int((fused < other).sum()), int((fused == other).sum())
        paired.append(f"| {dataset.name} | {split} | {label} | {wins} | {losses} | {ties} | "
                      f"{difference(fused, other, clusters)} |")
    path, previous = [], None
    for label, run in steps.items():
        values = run.scores("fused", HEADLINE)
        change = "—" if previous is None else difference(values, previous, clusters)
        path.append(f"| {dataset.name} | {split} | {label} | {cell(values, clusters)} | {change} |")
        previous = values
    return table, paired, path, default


def tuned_row(dataset: LabelledSet) -> str:
    """``HybridMemory.tune`` on the dev questions, then its weight and the default's on held-out (searched once each)."""
    memory = HybridMemory()
    to_doc = fill_memory(dataset, memory)
    to_memory = {doc: memory_id for memory_id, doc in to_doc.items()}
    memory.tune([(q.text, [to_memory[d] for d in q.relevant]) for q in dataset.queries["dev"]])
    chosen, queries = memory.fusion, dataset.queries["heldout"]
    clusters = query_clusters(dataset, queries)

    def heldout(fusion) -> np.ndarray:
        memory.fusion = fusion
        return np.array([capped_recall_at_k([to_doc[h.id] for h in memory.search(q.text, 5)], list(q.relevant), 5)
                         for q in queries])

    tuned, default = heldout(chosen), heldout(DEFAULT_FUSION)
    return (f"| {dataset.name} | {chosen.weight:g} | {cell(tuned, clusters)} | {cell(default, clusters)} | "
            f"{difference(tuned, default, clusters)} |")


def answers_only(dataset: LabelledSet) -> LabelledSet:
    """fanoutqa with each document's sub-question cut out: "Right (Wikipedia: Pat Burrell)"."""
    # a document is "{sub-question} {answer} (Wikipedia: {title})"; the sub-question ends at its "?"
    documents = tuple(replace(d, text=d.text.split("? ", 1)[-1]) for d in dataset.documents)
    return LabelledSet(dataset.name + " (answers only)", documents, dataset.queries, dataset.description)


class ZScoreFusion:
    """``w · z(cosine) + (1 − w) · z(bm25)``, each side standardised over the candidates (a dev experiment)."""

    def __init__(self, weight: float) -> None:
        self.weight, self.name = weight, f"z-score(w={weight:g})"

    def fuse(self, cosine: np.ndarray, bm25: np.ndarray) -> np.ndarray:
        def z(x: np.ndarray) -> np.ndarray:
            x = np.asarray(x, dtype=np.float64)
            return (x - x.mean()) / (x.std() or 1.0)
        return self.weight * z(cosine) + (1 - self.weight) * z(bm25)


def centred(split: ScoredSplit, dataset: LabelledSet, components: int) -> ScoredSplit:
    """``split`` with cosine recomputed after removing the documents' mean vector and top ``components`` directions."""
    embedder = default_embedder()
    docs = normalize(np.asarray(embedder.embed([d.text for d in dataset.documents]), dtype=np.float32))
    queries = normalize(np.asarray(embedder.embed([q.text for q in split.queries]), dtype=np.float32))
    mean = docs.mean(axis=0)
    top = np.linalg.svd(docs - mean, full_matrices=False)[2][:components]

    def project(x: np.ndarray) -> np.ndarray:
        x = x - mean
        return normalize((x - (x @ top.T) @ top).astype(np.float32))

    cosine = project(queries) @ project(docs).T
    return replace(split, cosine=cosine, vector_rank=np.stack([ranks(row) for row in cosine]))


def sweep(name: str) -> list[str]:
    """Dev capped recall@5 / nDCG@10: every fusion setting tried, then the normalisation experiments."""
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
                            f"{run.mean(method, HEADLINE):.3f} | {run.mean(method, 'nDCG@10'):.3f} |")
    dev = score_dataset(dataset)["dev"]
    variants = {"as shipped": dev, **{f"centred, {c} directions removed": centred(dev, dataset, c) for c in (0, 2)}}
    for variant, split in variants.items():
        for method in ["vector", ConvexFusion(0.5), *(ZScoreFusion(w / 10) for w in (4, 5, 6))]:
            ranked = split.rankings(method, depth=10)
            label = method if isinstance(method, str) else method.name
            rows.append(f"| {name} | {variant} | | {label} | {split.scores(ranked, HEADLINE).mean():.3f} | "
                        f"{split.scores(ranked, 'nDCG@10').mean():.3f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "heldout"], help="only this split (default: both)")
    parser.add_argument("--sweep", action="store_true", help="print the dev sweep used to choose the default")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC · {platform.system()} {platform.machine()}, "
          f"Python {platform.python_version()}, numpy {np.__version__} · default fusion {DEFAULT_FUSION!r} "
          "with query stop words and stems\n")
    if args.sweep:
        print(f"| set | stemming / variant | query stop words | fusion | {HEADLINE} | nDCG@10 |\n"
              "|---|---|---|---|---:|---:|")
        for name in list_datasets():
            print("\n".join(sweep(name)))
        print(f"\n({time.perf_counter() - started:.0f} s)")
        return
    table, paired, path, cut, tuned = [], [], [], [], []
    for name in list_datasets():
        dataset = load_dataset(name)
        for split in [args.split] if args.split else ["dev", "heldout"]:
            rows, pairs, steps, shipped = report(dataset, split)
            table, paired, path = table + rows, paired + pairs, path + steps
            if split == "heldout":
                tuned.append(tuned_row(dataset))
            if name == "fanoutqa":
                cut_run = evaluate(answers_only(dataset), split)  # the shipped documents' run is the default's
                for method in ("vector", "keyword", "fused"):
                    cut.append(f"| {split} | {method} | {cell(shipped.scores(method, HEADLINE), None)} | "
                               f"{cell(cut_run.scores(method, HEADLINE), None)} |")
    print("| set | split (questions, clusters) | method | " + " | ".join(METRICS) + " |")
    print("|---|---|---|" + "---:|" * len(METRICS))
    print("\n".join(table))
    print(f"\nfused (default) against each single ranking and the seed, {HEADLINE} per question:\n")
    print("| set | split | against | wins | losses | ties | mean difference [95% interval] |\n"
          "|---|---|---|---:|---:|---:|---|")
    print("\n".join(paired))
    print(f"\nFrom the seed to the default, one change at a time (fused {HEADLINE}):\n")
    print("| set | split | step | mean [95% interval] | change from the step before |\n|---|---|---|---|---|")
    print("\n".join(path))
    if tuned:
        print(f"\n`memory.tune(dev questions)` (convex weights 0.0…1.0, recall@5), then held-out {HEADLINE} once:\n")
        print("| set | weight chosen on dev | held-out, that weight | held-out, default 0.5 | tuned − default |\n"
              "|---|---:|---|---|---|")
        print("\n".join(tuned))
    print(f"\nfanoutqa with the sub-question cut from each document ({HEADLINE}):\n")
    print("| split | method | documents as shipped | answers only |\n|---|---|---|---|")
    print("\n".join(cut))
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
