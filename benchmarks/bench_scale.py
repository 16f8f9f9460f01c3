"""Benchmark: memory at scale — ingest, search latency and peak memory against the number of memories.

    python benchmarks/bench_scale.py            # 1k, 10k, 100k memories (about a minute on 2 cores)
    python benchmarks/bench_scale.py --full     # adds 1,000,000 (several minutes, ~2.5 GB per engine)
    python benchmarks/bench_scale.py --quick    # 1k and 3k, a smoke test
    python benchmarks/bench_scale.py --chart    # only redraw docs/scale.png from benchmarks/scale.json
    python benchmarks/bench_scale.py --precision 100000   # float16 / int8 matrix: speed and recall@10
    python benchmarks/bench_scale.py --full-sort 1000 10000 100000   # head against a full sort, interleaved
    python benchmarks/bench_scale.py --compare 100000 --baseline ../main   # before/after, interleaved

Engines, each run in its own process so its peak memory (``ru_maxrss``) is its own:

- ``hybrid``: ``HybridMemory`` (exact: every memory ranked by cosine and BM25, fused by RRF),
  bulk-loaded with ``store_many`` in steps of 10,000; then 200 single ``store`` calls are timed.
- ``hybrid-main``: the same with ``--baseline PATH``, a checkout of an older aria_kit (before/after).
- ``bm25-ours`` and ``bm25s``: the keyword side alone — our incremental ``BM25Index`` (scores of every
  memory, then top 3) next to ``bm25s`` (static index, ``method="lucene"``), on the same tokens.
- ``edge``: Qdrant Edge (``qdrant-edge-py``, Qdrant's Rust engine in-process): dense vectors
  (cosine) + its ``Bm25`` sparse vectors with the IDF modifier, two prefetches of 50 fused by
  RRF (k = 60); ingest includes ``optimize()`` (which builds the HNSW index). Approximate.
  ``edge-no-hnsw`` skips ``optimize()``: plain segments, searched by brute force.
- ``qdrant-memory-edge``: ``QdrantMemory()`` end to end, embedded, which runs on Qdrant Edge: our own
  BM25 sparse vectors, exact search (no HNSW), fusion by RRF in the engine plus each retriever's
  candidate list of 100 (the cosine, BM25 and ranks on every hit).
- ``qdrant-local``: the same ``QdrantMemory`` through qdrant-client's local mode (pure Python), up to
  10,000 only.

All engines embed with WordLlama (256-d); ingest times include embedding. Memories are the
seeded synthetic texts of ``bench_memory.py``. Search: ``top_k=3`` over its 12 queries, cycled;
p50 and p99 of wall time. Writes ``benchmarks/scale.json`` and the chart ``docs/scale.png``.
"""

from __future__ import annotations

import argparse
import os
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_memory import QUERIES, synthetic_memories  # noqa: E402

STEP = 10_000  # memories per bulk call


def percentiles(call: Callable[[str], Any], count: int) -> tuple[float, float]:
    """p50 and p99 in ms of ``count`` calls cycling through the queries (after one warm-up round)."""
    for query in QUERIES:
        call(query)
    times = []
    for i in range(count):
        started = time.perf_counter()
        call(QUERIES[i % len(QUERIES)])
        times.append(time.perf_counter() - started)
    return 1000 * float(np.percentile(times, 50)), 1000 * float(np.percentile(times, 99))


def in_steps(texts: list[str], load: Callable[[list[str]], Any], what: str) -> float:
    """Feed ``texts`` to ``load`` in steps of ``STEP`` with a progress bar (a terminal only); return seconds."""
    from tqdm import tqdm

    started = time.perf_counter()
    for start in tqdm(range(0, len(texts), STEP), desc=what, disable=None, leave=False):
        load(texts[start : start + STEP])
    return time.perf_counter() - started


def run_hybrid(texts: list[str], searches: int) -> dict[str, float]:
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    ingest = in_steps(texts, memory.store_many, "hybrid")
    p50, p99 = percentiles(memory.search, searches)
    stores = []
    for i in range(200):
        started = time.perf_counter()
        memory.store(f"A fresh note number {i} about VelocityDB and Rust.")
        stores.append(time.perf_counter() - started)
    return {"ingest_s": ingest, "p50_ms": p50, "p99_ms": p99, "store_ms": 1000 * float(np.median(stores))}


def run_hybrid_baseline(texts: list[str], searches: int) -> dict[str, float]:
    """``run_hybrid`` on the older checkout named by ``BENCH_BASELINE`` (bench_memory, imported above, put this
    checkout first on sys.path, so the older one is put before it and aria_kit imported afresh)."""
    sys.path.insert(0, os.environ["BENCH_BASELINE"])
    for module in [m for m in sys.modules if m == "aria_kit" or m.startswith("aria_kit.")]:
        del sys.modules[module]
    import aria_kit

    assert aria_kit.__file__.startswith(os.environ["BENCH_BASELINE"]), aria_kit.__file__
    return run_hybrid(texts, searches)


def run_bm25_ours(texts: list[str], searches: int) -> dict[str, float]:
    from aria_kit.bm25 import BM25Index, tokenize

    index = BM25Index()
    ingest = in_steps(texts, lambda batch: index.add_many([tokenize(t) for t in batch]), "bm25-ours")

    def search(query: str) -> np.ndarray:
        scores = index.scores(tokenize(query))
        best = np.argpartition(-scores, 3)[:3] if len(scores) > 3 else np.arange(len(scores))
        return best[np.argsort(-scores[best], kind="stable")]

    return {"ingest_s": ingest, **dict(zip(("p50_ms", "p99_ms"), percentiles(search, searches)))}


def run_bm25s(texts: list[str], searches: int) -> dict[str, float]:
    import bm25s

    from aria_kit.bm25 import tokenize

    started = time.perf_counter()
    index = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    index.index([tokenize(t) for t in texts], show_progress=False)
    ingest = time.perf_counter() - started
    p50, p99 = percentiles(lambda q: index.retrieve([tokenize(q)], k=3, show_progress=False), searches)
    return {"ingest_s": ingest, "p50_ms": p50, "p99_ms": p99}


def run_edge(texts: list[str], searches: int, build_hnsw: bool = True) -> dict[str, float]:
    import qdrant_edge as qe

    from aria_kit.embeddings import default_embedder

    embedder, bm25 = default_embedder(), qe.Bm25(qe.Bm25Config())
    shard = qe.EdgeShard.create(tempfile.mkdtemp(prefix="edge-"), qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=256, distance=qe.Distance.Cosine)},
        sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)}))
    first = [1]

    def load(batch: list[str]) -> None:
        vectors = embedder.embed(batch)
        shard.update(qe.UpdateOperation.upsert_points([
            qe.Point(id=first[0] + i, vector={"dense": vectors[i].tolist(), "bm25": bm25.embed_document(text)},
                     payload={"text": text}) for i, text in enumerate(batch)]))
        first[0] += len(batch)

    upsert = in_steps(texts, load, "edge")
    started = time.perf_counter()
    if build_hnsw:
        shard.optimize()
    optimize = time.perf_counter() - started

    def search(query: str) -> Any:
        vector = embedder.embed([query])[0].tolist()
        return shard.query(qe.QueryRequest(limit=3, query=qe.Fusion.Rrf(k=60), with_payload=True, prefetches=[
            qe.Prefetch(limit=50, query=qe.Query.Nearest(vector, using="dense")),
            qe.Prefetch(limit=50, query=qe.Query.Nearest(bm25.embed_query(query), using="bm25"))]))

    p50, p99 = percentiles(search, searches)
    return {"ingest_s": upsert + optimize, "optimize_s": optimize, "p50_ms": p50, "p99_ms": p99}


def run_qdrant_memory(texts: list[str], searches: int, engine: str) -> dict[str, float]:
    """``QdrantMemory`` end to end (``store_many``, ``search``): on Qdrant Edge, or on qdrant-client's local mode."""
    from aria_kit.qdrant_memory import QdrantMemory

    if engine == "edge":
        memory = QdrantMemory()  # embedded: Qdrant Edge
    else:
        from qdrant_client import QdrantClient

        memory = QdrantMemory(client=QdrantClient(":memory:"))  # qdrant-client's pure-Python local mode
    ingest = in_steps(texts, memory.store_many, f"qdrant-memory-{engine}")
    p50, p99 = percentiles(memory.search, searches if engine == "edge" else min(searches, 24))
    memory.close()
    return {"ingest_s": ingest, "p50_ms": p50, "p99_ms": p99}


def compare(baseline: str, size: int, rounds: int = 5) -> None:
    """Before/after in one process: this checkout's HybridMemory and the one at ``baseline``, same memories,
    searches interleaved query by query, so a busy machine slows both alike. Also checks the hits are identical."""
    import importlib

    texts, memories = synthetic_memories(size), {}
    for name, repo in (("before", baseline), ("after", str(HERE.parent))):
        for module in [m for m in sys.modules if m == "aria_kit" or m.startswith("aria_kit.")]:
            del sys.modules[module]  # import the other checkout's aria_kit afresh
        sys.path.insert(0, repo)
        memories[name] = importlib.import_module("aria_kit.hybrid_memory").HybridMemory()
        sys.path.remove(repo)
        in_steps(texts, memories[name].store_many, name)
    wall: dict[str, list[float]] = {name: [] for name in memories}
    cpu: dict[str, list[float]] = {name: [] for name in memories}
    for query in QUERIES * rounds:
        for name, memory in memories.items():
            started, started_cpu = time.perf_counter(), time.process_time()
            memory.search(query)
            wall[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - started_cpu)
    def hits(memory: Any, query: str) -> list[tuple]:  # as tuples: the two checkouts' Hit classes differ
        return [(h.id, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank) for h in memory.search(query, 10)]

    same = all(hits(memories["before"], q) == hits(memories["after"], q) for q in QUERIES)
    for name in memories:
        print(f"{name:>6} at {size:,}: search p50 {1000 * np.median(wall[name]):7.2f} ms (p99 "
              f"{1000 * np.percentile(wall[name], 99):7.2f}), CPU time p50 {1000 * np.median(cpu[name]):7.2f} ms")
    print(f"identical top-10 hits on all {len(QUERIES)} queries: {same}")


def compare_full_sort(sizes: list[int], rounds: int = 5) -> None:
    """One ``HybridMemory`` searched with its head (``HEAD_DEPTH`` 1,024) and with every score sorted, the two
    interleaved query by query so a busy machine slows both alike; checks the hits are identical. Writes
    ``benchmarks/full_sort.json``."""
    from aria_kit import exact_top_k
    from aria_kit.hybrid_memory import HybridMemory

    head, results = exact_top_k.HEAD_DEPTH, []
    for size in sizes:
        memory = HybridMemory()
        in_steps(synthetic_memories(size), memory.store_many, f"full sort {size:,}")
        wall: dict[int, list[float]] = {head: [], sys.maxsize: []}
        hits: dict[int, list] = {head: [], sys.maxsize: []}
        for query in QUERIES * rounds:
            for depth in wall:
                exact_top_k.HEAD_DEPTH = depth
                started = time.perf_counter()
                found = memory.search(query)
                wall[depth].append(time.perf_counter() - started)
                hits[depth].append([(h.id, h.score, h.vector_rank, h.keyword_rank) for h in found])
        exact_top_k.HEAD_DEPTH = head
        results.append({"size": size, "head_p50_ms": 1000 * float(np.median(wall[head])),
                        "full_sort_p50_ms": 1000 * float(np.median(wall[sys.maxsize])),
                        "same_hits": hits[head] == hits[sys.maxsize], "load_average": os.getloadavg()[0]})
        print(json.dumps(results[-1]), flush=True)
    (HERE / "full_sort.json").write_text(json.dumps(results, indent=1) + "\n")


def precision_lever(size: int) -> None:
    """float32 against float16 and int8 copies of the matrix: time of one cosine pass, and recall@10."""
    from aria_kit.embeddings import default_embedder

    embedder = default_embedder()
    matrix, queries = embedder.embed(synthetic_memories(size)), embedder.embed(QUERIES)
    scale = 127 / np.abs(matrix).max()
    copies = {"float32": matrix, "float16": matrix.astype(np.float16), "int8": np.round(matrix * scale).astype(np.int8)}
    exact = [np.einsum("ij,j->i", matrix, q) for q in queries]
    # A hit counts if its float32 score reaches the float32 10th best (the synthetic texts repeat, so ties abound).
    tenth = [np.partition(scores, len(scores) - 10)[len(scores) - 10] for scores in exact]
    for name, copy in copies.items():
        q_cast = [q.astype(copy.dtype) if name != "int8" else np.round(q * scale).astype(np.int8) for q in queries]
        times, recall = [], []
        for q, scores32, bar in zip(q_cast, exact, tenth):
            started = time.perf_counter()
            scores = np.einsum("ij,j->i", copy, q, dtype=np.int32 if name == "int8" else None)
            times.append(time.perf_counter() - started)
            recall.append(np.count_nonzero(scores32[np.argsort(-scores, kind="stable")[:10]] >= bar) / 10)
        print(f"{name:>8} at {size:,}: {copy.nbytes / 2**20:6.0f} MiB, cosine pass p50 {1000 * np.median(times):6.2f} ms,"
              f" recall@10 vs float32 {np.mean(recall):.3f}")


ENGINES = {"hybrid": run_hybrid, "hybrid-main": run_hybrid_baseline, "bm25-ours": run_bm25_ours, "bm25s": run_bm25s,
           "edge": run_edge, "edge-no-hnsw": lambda texts, searches: run_edge(texts, searches, build_hnsw=False),
           "qdrant-memory-edge": lambda texts, searches: run_qdrant_memory(texts, searches, "edge"),
           "qdrant-local": lambda texts, searches: run_qdrant_memory(texts, searches, "local")}
LIMITS = {"qdrant-local": 10_000, "edge": 100_000, "edge-no-hnsw": 100_000, "qdrant-memory-edge": 100_000}  # minutes per size beyond


def one(engine: str, size: int, searches: int) -> dict[str, Any]:
    """Run one engine at one size in this process; peak RSS is read at the end."""
    result = ENGINES[engine](synthetic_memories(size), searches)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB
    return {"engine": engine, "size": size, "peak_mb": peak_mb, **result}


# What each series is, in the chart's legend (the engine names above are the ones the JSON and the README use).
LABELS = {"hybrid": "HybridMemory (this kit)", "hybrid-main": "HybridMemory before (older checkout, --baseline)",
          "bm25-ours": "BM25Index alone", "bm25s": "bm25s alone", "edge": "Qdrant Edge, HNSW (approximate)",
          "edge-no-hnsw": "Qdrant Edge, no HNSW (exact)", "qdrant-memory-edge": "QdrantMemory on Edge",
          "qdrant-local": "QdrantMemory on qdrant-client local mode"}


def chart(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.2))
    # Not drawn: hybrid-main, an older checkout, differs from this one in more than its sort (full_sort.json
    # measures the sort alone, interleaved).
    for engine in dict.fromkeys(r["engine"] for r in results if r["engine"] != "hybrid-main"):
        rows = [r for r in results if r["engine"] == engine]
        sizes = [r["size"] for r in rows]
        left.plot(sizes, [r["p50_ms"] for r in rows], marker="o", label=LABELS.get(engine, engine))
        right.plot(sizes, [r["size"] / r["ingest_s"] for r in rows], marker="o")
    for axis, title, label in ((left, "Search latency (p50, top 3)", "ms per search"),
                               (right, "Ingest rate (bulk, embedding included)", "memories per second")):
        axis.set(xscale="log", yscale="log", title=title, xlabel="memories stored", ylabel=label)
        axis.grid(True, which="both", alpha=0.3)
    # One legend for both panels, below them, so it covers no line of either.
    fig.legend(*left.get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle("Memory at scale on 2 shared CPU cores (benchmarks/bench_scale.py)")
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 3k memories only")
    parser.add_argument("--full", action="store_true", help="add 1,000,000 memories")
    parser.add_argument("--engines",
                        default="hybrid,bm25-ours,bm25s,edge,edge-no-hnsw,qdrant-memory-edge,qdrant-local")
    parser.add_argument("--baseline", help="path of an older checkout to run as hybrid-main")
    parser.add_argument("--compare", type=int, metavar="N", help="only compare with --baseline in one process at N")
    parser.add_argument("--full-sort", type=int, nargs="+", metavar="N",
                        help="only compare the head with a full sort at each N, interleaved (full_sort.json)")
    parser.add_argument("--precision", type=int, metavar="N", help="only measure float16/int8 copies at N memories")
    parser.add_argument("--chart", action="store_true", help="only redraw docs/scale.png from scale.json")
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "SIZE", "SEARCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.compare:
        compare(args.baseline or parser.error("--compare needs --baseline PATH"), args.compare)
        return []
    if args.full_sort:
        compare_full_sort(args.full_sort)
        return []
    if args.precision:
        precision_lever(args.precision)
        return []
    if args.chart:
        chart(json.loads((HERE / "scale.json").read_text()), HERE.parent / "docs" / "scale.png")
        return []
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), int(args.one[2]))))
        return []
    sizes = [1_000, 3_000] if args.quick else [1_000, 10_000, 100_000] + ([1_000_000] if args.full else [])
    engines = args.engines.split(",") + (["hybrid-main"] if args.baseline else [])
    results = []
    for size in sizes:
        for engine in engines:
            if size > LIMITS.get(engine, size):
                continue
            searches = 60 if size >= 1_000_000 else 200
            command = [sys.executable, str(Path(__file__).resolve()), "--one", engine, str(size), str(searches)]
            done = subprocess.run(command, capture_output=True, text=True, cwd=HERE.parent,
                                  env={**os.environ, "BENCH_BASELINE": str(Path(args.baseline or ".").resolve())})
            if done.returncode:
                print(f"{engine} at {size:,}: failed\n{done.stderr[-2000:]}", file=sys.stderr)
                continue
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
            r = results[-1]
            print(f"{engine:>13} {size:>9,}  ingest {r['ingest_s']:7.2f} s ({size / r['ingest_s']:8,.0f}/s)"
                  f"  search p50 {r['p50_ms']:8.2f} ms  p99 {r['p99_ms']:8.2f} ms"
                  f"  peak {r['peak_mb']:6,.0f} MB" + (f"  store {r['store_ms']:.3f} ms" if "store_ms" in r else ""),
                  flush=True)
    if not args.quick:
        (HERE / "scale.json").write_text(json.dumps(results, indent=1) + "\n")
        chart(results, HERE.parent / "docs" / "scale.png")
    return results


if __name__ == "__main__":
    main()
