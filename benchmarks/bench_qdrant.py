"""Benchmark: QdrantMemory embedded (Qdrant Edge) against its like-for-like HybridMemory: latency and agreement.

    python benchmarks/bench_qdrant.py            # 1,000 memories: the default, well under a minute
    python benchmarks/bench_qdrant.py --full     # 1,000 and 10,000 memories
    python benchmarks/bench_qdrant.py --local    # also QdrantMemory on qdrant-client's local mode (slow)
    python benchmarks/bench_qdrant.py --quick    # 200 memories, a smoke test for the test suite
    python benchmarks/bench_qdrant.py --parts 100000   # where a search's time goes, on Qdrant Edge

Every memory gets the same synthetic texts as ``bench_memory.py`` (seeded
templates, nothing downloaded) and the same embedder, built with one
``store_many`` call each. At each size it times ``searches`` calls of
``search(query, top_k=3)``, cycling through ``bench_memory.QUERIES``, and reports
the mean and 95th percentile. The rows:

- ``HybridMemory, RRF(60)``: ``HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)``, the
  set-up ``QdrantMemory`` reproduces (exact, numpy);
- ``QdrantMemory (Edge)``: what the class does embedded — one batch of three
  requests to Qdrant Edge (the fused RRF query, plus each retriever's candidate
  list for the cosine, BM25 and ranks shown on every hit), 100 candidates each;
- ``fused request only``: that batch without the two candidate lists, i.e.
  what the explanations cost;
- ``candidates = all``: every memory in both prefetches, the setting under
  which fusion sees full rankings as HybridMemory does;
- ``QdrantMemory (local mode)`` with ``--local``: the same class through
  qdrant-client's pure-Python local mode, what embedded mode was before Edge.

It then checks, per query, how far QdrantMemory (candidates = all) and the
like-for-like HybridMemory agree: top-3 ids shared, whether the two top 3s are
identical (ids and order), next to the largest group of memories tied on one
BM25 score — the templated memories tie by the hundred. Ingest rate and peak
memory at 10,000 and 100,000 are ``bench_scale.py``'s (one process per engine).
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
from aria_kit.fusion import RRF  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.qdrant_engines import Nearest  # noqa: E402
from aria_kit.qdrant_memory import CURRENT_UNLESS, DENSE, SPARSE, QdrantMemory, query_vector  # noqa: E402


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
        return memory.engine.hybrid(retrievers, memory.candidates, 3, CURRENT_UNLESS, lists=False)

    return call


def build(memory: Any, texts: list[str]) -> float:
    start = time.perf_counter()
    memory.store_many(texts)
    return time.perf_counter() - start


def agreement(hybrid: HybridMemory, qdrant: QdrantMemory) -> list[tuple[str, int, bool, int]]:
    """Per query: top-3 ids shared, whether the top 3s are identical, and the largest BM25 tie."""
    rows = []
    for query in QUERIES:
        theirs, ours = hybrid.search(query), qdrant.search(query)
        ties = Counter(round(h.bm25, 9) for h in hybrid.search(query, top_k=len(hybrid)) if h.bm25 > 0)
        rows.append((query, len({h.id for h in ours} & {h.id for h in theirs}),
                     [h.id for h in ours] == [h.id for h in theirs], max(ties.values(), default=0)))
    return rows


def run(sizes: list[int], searches: int, slow_searches: int, local: bool) -> tuple[list[Row], dict[int, list]]:
    embedder = default_embedder()
    texts = synthetic_memories(max(sizes))
    embedder.embed(texts[:10])  # warm up before timing anything
    rows, agreements = [], {}
    for size in sizes:
        hybrid, qdrant = HybridMemory(embedder, fusion=RRF(60), stopwords=(), stemming=False), QdrantMemory(embedder)
        hybrid_s, qdrant_s = build(hybrid, texts[:size]), build(qdrant, texts[:size])
        rows.append(Row("HybridMemory, RRF(60)", size, hybrid_s, searches, *time_calls(hybrid.search, searches)))
        rows.append(Row("QdrantMemory (Edge)", size, qdrant_s, searches, *time_calls(qdrant.search, searches)))
        rows.append(Row("  fused request only", size, qdrant_s, searches, *time_calls(fused_only(qdrant), searches)))
        default = agreement(hybrid, qdrant)
        qdrant.candidates = size
        rows.append(Row("  candidates = all", size, qdrant_s, slow_searches, *time_calls(qdrant.search, slow_searches)))
        agreements[size] = [(*row, *first[1:3]) for row, first in zip(agreement(hybrid, qdrant), default)]
        qdrant.close()
        if local:
            from qdrant_client import QdrantClient

            old = QdrantMemory(embedder, client=QdrantClient(":memory:"))
            rows.append(Row("QdrantMemory (local mode)", size, build(old, texts[:size]), slow_searches,
                            *time_calls(old.search, slow_searches)))
            old.close()
    return rows, agreements


def parts(size: int, searches: int = 60) -> None:
    """Mean ms of a search and of its parts on Qdrant Edge at ``size`` memories: the batch, its fused query alone,
    and one candidate list of each retriever alone (current memories only, as search asks)."""
    import qdrant_edge as qe

    memory = QdrantMemory()
    memory.store_many(synthetic_memories(size))
    only = qe.Filter(must=[qe.IsEmptyCondition(key=CURRENT_UNLESS)])

    def retrievers(query: str) -> list[Nearest]:
        return [Nearest(DENSE, memory.embedder.embed([query])[0].tolist()), Nearest(SPARSE, query_vector(tokenize(query)))]

    def one_list(which: int) -> Callable[[str], Any]:
        def call(query: str) -> Any:
            r = retrievers(query)[which]
            vector = r.vector if which == 0 else qe.SparseVector(indices=r.vector.indices, values=r.vector.values)
            return memory.engine.shard.query(qe.QueryRequest(limit=memory.candidates, filter=only,
                                                             query=qe.Query.Nearest(vector, using=r.using)))
        return call

    calls = {"search": memory.search,
             "the batch (fused query + two lists)": lambda q: memory.engine.hybrid(retrievers(q), 100, 13, CURRENT_UNLESS),
             "fused query alone": fused_only(memory), "dense list alone": one_list(0), "sparse list alone": one_list(1),
             "embedding the query": lambda q: memory.embedder.embed([q])}
    ids = iter([record.id for record in memory.list_all()])

    def after_a_delete(query: str) -> Any:
        memory.delete(next(ids))
        return memory.search(query)

    calls["delete, then search"] = after_a_delete
    for name, call in calls.items():
        print(f"{name:>38} at {size:,}: {time_calls(call, searches)[0]:7.2f} ms (mean of {searches})")
    memory.close()


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
    mode.add_argument("--full", action="store_true", help="1,000 and 10,000 memories")
    parser.add_argument("--local", action="store_true", help="also qdrant-client's local mode (slow)")
    parser.add_argument("--parts", type=int, metavar="N", help="only time a search's parts on Edge at N memories")
    args = parser.parse_args(argv)
    if args.parts:
        print(machine())
        parts(args.parts)
        return []
    if args.quick:
        sizes, searches, slow_searches = [200], 12, 4
    elif args.full:
        sizes, searches, slow_searches = [1_000, 10_000], 200, 24
    else:
        sizes, searches, slow_searches = [1_000], 100, 12
    print(machine())
    started = time.perf_counter()
    rows, agreements = run(sizes, searches, slow_searches, args.local)
    print(table(rows))
    for size, per_query in agreements.items():
        print(f"\nAt {size:,} memories: top-3 ids shared with HybridMemory(fusion=RRF(60), stopwords=(), stemming=False) and "
              "whether the top 3s are identical, for QdrantMemory with candidates = all / = 100; largest BM25 tie")
        for query, shared, identical, tie, shared_100, identical_100 in per_query:
            print(f"  {query!r:50} {shared} of 3 {'identical' if identical else 'differs  '} / "
                  f"{shared_100} of 3 {'identical' if identical_100 else 'differs  '}   tie {tie:,}")
        for name, column in (("all", 1), ("100", 4)):
            print(f"  candidates = {name}: mean {statistics.fmean(row[column] for row in per_query):.2f} of 3 shared, "
                  f"{sum(row[column + 1] for row in per_query)} of {len(per_query)} top 3s identical")
    print(f"\nsearch(query, top_k=3) over {len(QUERIES)} queries, cycled. Total {time.perf_counter() - started:.0f} s.")
    return rows


if __name__ == "__main__":
    main()
