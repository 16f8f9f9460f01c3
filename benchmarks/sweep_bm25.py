"""Dev-only sweep of BM25's own settings: stemming × k1 × b, under the kit's fusion, on both shipped sets.

    python benchmarks/sweep_bm25.py     # about 8 s here

For each data set the documents are embedded once; then, for every (stemming, k1, b), a
``BM25Index`` is built over ``tokenize(text, stem=...)`` and every dev query is scored with
its stop words dropped, fused with cosine by ``ConvexFusion(0.5)`` and ``ConvexFusion(0.6)``,
and ranked by lesson 05's ``tuning.ScoredSplit`` (ties by vector rank, as ``HybridMemory``
does). Prints mean recall@5 per cell and, per data set, what stemming adds at each (k1, b).
Dev only: this is how stemming was chosen (benchmarks/README.md); the held-out split is never
read here.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize  # noqa: E402
from aria_kit.datasets import list_datasets, load_dataset  # noqa: E402
from aria_kit.embeddings import default_embedder, normalize  # noqa: E402
from aria_kit.fusion import ConvexFusion, ranks  # noqa: E402
from aria_kit.tuning import ScoredSplit  # noqa: E402

K1S, BS, WEIGHTS = (0.9, 1.2, 1.5, 2.0), (0.3, 0.5, 0.75, 1.0), (0.5, 0.6)


def sweep(name: str) -> dict[tuple[bool, float, float, float], float]:
    """Mean dev recall@5 of ``name`` for every (stemming, k1, b, weight)."""
    dataset, embedder = load_dataset(name), default_embedder()
    queries, ids = dataset.queries["dev"], tuple(d.id for d in dataset.documents)
    matrix = normalize(np.asarray(embedder.embed([d.text for d in dataset.documents]), dtype=np.float32))
    cosine = normalize(np.asarray(embedder.embed([q.text for q in queries]), dtype=np.float32)) @ matrix.T
    vector_rank = np.stack([ranks(row) for row in cosine])
    results = {}
    for k1, b in itertools.product(K1S, BS):
        bm25 = {}
        for stemming in (True, False):
            index = BM25Index(k1, b)
            index.add_many([tokenize(d.text, stem=stemming) for d in dataset.documents])
            bm25[True, stemming] = np.stack([index.scores(tokenize(q.text, STOPWORDS, stemming)) for q in queries])
        # the lesson-05 scorer ranks them: fused score first, ties by vector rank, as HybridMemory does
        split = ScoredSplit(name, "dev", tuple(queries), ids, cosine, bm25, vector_rank)
        for stemming, weight in itertools.product((True, False), WEIGHTS):
            ranked = split.rankings(ConvexFusion(weight), True, stemming, depth=5)
            results[stemming, k1, b, weight] = float(split.scores(ranked, "recall@5").mean())
    return results


def main() -> None:
    for name in list_datasets():
        results = sweep(name)
        print(f"\n{name}, dev recall@5, query stop words dropped\n")
        print("| k1 | b | " + " | ".join(f"w={w} stems | w={w} words | stems add" for w in WEIGHTS) + " |")
        print("|---:|---:|" + "---:|---:|---:|" * len(WEIGHTS))
        for k1, b in itertools.product(K1S, BS):
            cells = [f"{results[True, k1, b, w]:.3f} | {results[False, k1, b, w]:.3f} | "
                     f"{results[True, k1, b, w] - results[False, k1, b, w]:+.3f}" for w in WEIGHTS]
            print(f"| {k1} | {b} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
