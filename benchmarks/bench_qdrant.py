"""Benchmark: search latency of HybridMemory and of QdrantMemory embedded (local mode), same memories.

    python benchmarks/bench_qdrant.py            # 1,000 memories: the default, well under a minute
    python benchmarks/bench_qdrant.py --full     # 1,000 and 10,000 memories (about two minutes)
    python benchmarks/bench_qdrant.py --quick    # 200 memories, a smoke test for the test suite

Both memories get the same synthetic texts as ``bench_memory.py`` (seeded
templates, nothing downloaded) and the same embedder, built with one
``store_many`` call each. At each size it times ``searches`` calls of
``search(query, top_k=3)``, cycling through ``bench_memory.QUERIES``, and reports
the mean and 95th percentile. Three Qdrant rows:

- ``QdrantMemory``: what the class does — one batch of three requests (the
  fused RRF query, plus each retriever's candidate list for the cosine, BM25
  and ranks shown on every hit), 100 candidates per retriever;
- ``fused request only``: that batch without the two candidate lists, i.e.
  what the explanations cost;
- ``candidates = all``: every memory in both prefetches, the setting under
  which fusion sees full rankings as HybridMemory does (fewer searches: slow).

It then checks, per query, how far the two agree: top-3 ids shared, and
whether Qdrant's dense and keyword orders ever contradict HybridMemory's cosine
and BM25 scores (inversions), next to the largest group of memories tied on one
BM25 score — the templated memories tie by the hundred, and each engine orders
a tie its own way, which RRF turns into different fused scores.
Local mode is qdrant-client's pure-Python engine (numpy for dense vectors, a
Python loop over every sparse vector); a Qdrant server uses HNSW and an
inverted index, so these figures say nothing about a server's latency.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_memory import QUERIES, machine, synthetic_memories  # noqa: E402

from aria_kit.bm25 import tokenize  # noqa: E402
from aria_kit.embeddings import default_embedder  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.qdrant_engines import Nearest  # noqa: E402
from aria_kit.qdrant_memory import DENSE, SPARSE, QdrantMemory, query_vector  # noqa: E402


@dataclass
class Row:
    backend: str
    size: int
    build_s: float
    searches: int
    search_ms: float
    p95_ms: float


def time_calls(call: Callable[[str], Any], count: int) -> tuple[float, float]:
    """Mean and 95th-percentile milliseconds of ``count`` calls, cycling through the queries."""
    durations = []
    for i in range(count):
        start = time.perf_counter()
        call(QUERIES[i % len(QUERIES)])
        durations.append(1000 * (time.perf_counter() - start))
    p95 = statistics.quantiles(durations, n=20)[-1] if len(durations) > 1 else durations[0]
    return statistics.fmean(durations), p95


def fused_only(memory: QdrantMemory) -> Callable[[str], Any]:
    """The engine's hybrid query alone, as ``QdrantMemory.search`` builds it, without the candidate lists."""

    def call(query: str) -> Any:
        retrievers = [Nearest(DENSE, memory.embedder.embed([query])[0].tolist()),
                      Nearest(SPARSE, query_vector(tokenize(query)))]
        return memory.engine.hybrid(retrievers, memory.candidates, 3, "superseded_by", lists=False)

    return call


def build(memory: Any, texts: list[str]) -> float:
    start = time.perf_counter()
    memory.store_many(texts)
    return time.perf_counter() - start


def agreement(hybrid: HybridMemory, qdrant: QdrantMemory, size: int) -> list[tuple[str, int, int, int, int]]:
    """Per query: top-3 ids shared, and whether Qdrant orders memories as HybridMemory's scores do.

    Returns (query, shared top-3 ids, order inversions against HybridMemory's
    cosines, inversions against its BM25 scores, largest group of memories
    with one equal BM25 score). Zero inversions means the two backends rank
    alike except where scores tie, and ties are ordered by each engine its own way.
    """
    rows = []
    for query in QUERIES:
        reference = {h.id: h for h in hybrid.search(query, top_k=size)}
        hits = qdrant.search(query, top_k=size)
        by_vector = [reference[h.id].cosine for h in sorted(hits, key=lambda h: h.vector_rank or size + 1)]
        by_keyword = [reference[h.id].bm25 for h in sorted(hits, key=lambda h: h.keyword_rank or size + 1)
                      if h.keyword_rank]
        ties = Counter(round(h.bm25, 9) for h in reference.values() if h.bm25 > 0)
        rows.append((query, len({h.id for h in hits[:3]} & {h.id for h in hybrid.search(query)}),
                     sum(a < b - 1e-6 for a, b in zip(by_vector, by_vector[1:])),
                     sum(a < b - 1e-9 for a, b in zip(by_keyword, by_keyword[1:])), max(ties.values(), default=0)))
    return rows


def run(sizes: list[int], searches: int, slow_searches: int) -> tuple[list[Row], dict[int, list[tuple]]]:
    embedder = default_embedder()
    texts = synthetic_memories(max(sizes))
    embedder.embed(texts[:10])  # warm up before timing anything
    rows, agreements = [], {}
    for size in sizes:
        hybrid, qdrant = HybridMemory(embedder), QdrantMemory(embedder, location=":memory:")
        hybrid_s, qdrant_s = build(hybrid, texts[:size]), build(qdrant, texts[:size])
        rows.append(Row("HybridMemory", size, hybrid_s, searches, *time_calls(hybrid.search, searches)))
        rows.append(Row("QdrantMemory (embedded)", size, qdrant_s, searches, *time_calls(qdrant.search, searches)))
        rows.append(Row("  fused request only", size, qdrant_s, searches, *time_calls(fused_only(qdrant), searches)))
        qdrant.candidates = size
        rows.append(Row("  candidates = all", size, qdrant_s, slow_searches,
                        *time_calls(qdrant.search, slow_searches)))
        agreements[size] = agreement(hybrid, qdrant, size)
        qdrant.close()
    return rows, agreements


def table(rows: list[Row]) -> str:
    lines = ["| backend | memories | build s (store_many) | searches | search ms (mean) | p95 ms |",
             "|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r.backend} | {r.size:,} | {r.build_s:.2f} | {r.searches} | {r.search_ms:.2f} | {r.p95_ms:.2f} |"
              for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[Row]:
    """Parse arguments, run the benchmark, print the table and the top-3 agreement, and return the rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="200 memories, few searches: a smoke test")
    mode.add_argument("--full", action="store_true", help="1,000 and 10,000 memories (about two minutes)")
    args = parser.parse_args(argv)
    if args.quick:
        sizes, searches, slow_searches = [200], 12, 4
    elif args.full:
        sizes, searches, slow_searches = [1_000, 10_000], 200, 20
    else:
        sizes, searches, slow_searches = [1_000], 100, 10
    print(machine())
    started = time.perf_counter()
    rows, agreements = run(sizes, searches, slow_searches)
    print(table(rows))
    for size, per_query in agreements.items():
        print(f"\nAt {size:,} memories (Qdrant with candidates = all): top-3 ids shared with HybridMemory, "
              "order inversions against HybridMemory's cosines / BM25 scores, largest BM25 tie")
        for query, shared, dense_inversions, keyword_inversions, tie in per_query:
            print(f"  {query!r:50} {shared} of 3   inversions {dense_inversions} / {keyword_inversions}   tie {tie:,}")
    print(f"\nsearch(query, top_k=3) over {len(QUERIES)} queries, cycled. Total {time.perf_counter() - started:.0f} s.")
    return rows


if __name__ == "__main__":
    main()
