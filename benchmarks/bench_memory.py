"""Benchmark: HybridMemory against the reference design's memory, storing one memory at a time.

    python benchmarks/bench_memory.py            # sizes 1,000 / 5,000: the default, well under a minute
    python benchmarks/bench_memory.py --full     # sizes 1,000 / 5,000 / 10,000: the figures the README quotes
    python benchmarks/bench_memory.py --quick    # sizes 100 / 300, a smoke test for the test suite

Both memories use the same embedder (WordLlama), so the comparison is about
the data structures. The reference design (``ReferenceMemory`` below, written
to mirror it) keeps chunks in a Python list, rebuilds a ``rank_bm25.BM25Okapi``
over the whole corpus on every store and scans the list in Python for cosine
similarity at search time.

What is measured, at each size N:

- ours (in process, and with ``path=`` on SQLite): memories are stored one at
  a time from empty up to the largest size; "store ms" is the median time of
  the last ``window`` stores before the memory reaches N. Searches are then
  timed at size N (median over three rounds of the query list).
- reference: building it one store at a time to 10,000 is quadratic (tens of
  minutes), so the first N − ``repeats`` memories are loaded in bulk (not
  timed), then ``repeats`` single stores are timed, each rebuilding BM25 as the
  design does; "store ms" is their median. Its searches are timed at size N
  (median over one round of the query list: each takes tens of ms).

The memories are synthetic but realistic, generated from seeded templates,
so every run stores the same texts. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clone without installing

from aria_kit.embeddings import default_embedder  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.interfaces import Embedder  # noqa: E402

PEOPLE = "Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor".split()
PROJECTS = "VelocityDB Nimbus Quasar Helix Ember Orbit Tundra Falcon Mosaic Prism Cobalt Juniper".split()
LANGUAGES = "Rust Go Python Zig Kotlin TypeScript Haskell Elixir C++ Java".split()
TEAMS = "infrastructure security data platform mobile design research billing".split()
DAYS = "Monday Tuesday Wednesday Thursday Friday".split()
MONTHS = "January February March April May June July August September October November December".split()
ITEMS = ["GB of DDR5 RAM modules", "TB NVMe drives", "rack servers", "USB-C docks", "27-inch monitors"]
TOPICS = ["Raft consensus", "B-tree storage", "LSM-tree compaction", "vector search", "BM25 ranking", "gRPC"]
TEMPLATES = [
    "{person}'s favourite programming language is {language}.",
    "{person} is working on {project}, written in {language}.",
    "{project} uses {topic} for its core {team} features.",
    "{person} has a meeting with the {team} team on {day} at {hour} PM.",
    "The project deadline for {project} v{major}.{minor} is {month} {date}.",
    "Order #{number} was placed by {person} for {qty} {item}.",
    "{person} switched {project}'s storage engine after a review of {topic}.",
    "{person} prefers concise answers about {topic} without unnecessary preamble.",
    "Bug #{number} in {project}: the {team} dashboard times out on {day}s.",
]
QUERIES = [
    "order 4821", "What consensus algorithm does VelocityDB use?", "Alice's language preference",
    "meeting with the security team", "deadline for Nimbus", "who prefers Rust", "storage engine decision",
    "DDR5 RAM order", "bug in the billing dashboard", "LSM-tree compaction", "Grace Friday meeting",
    "which project uses gRPC",
]


def synthetic_memories(count: int, seed: int = 4821) -> list[str]:
    """``count`` realistic memory texts from seeded templates (the same list on every run)."""
    rng = random.Random(seed)
    return [
        rng.choice(TEMPLATES).format(
            person=rng.choice(PEOPLE), project=rng.choice(PROJECTS), language=rng.choice(LANGUAGES),
            team=rng.choice(TEAMS), day=rng.choice(DAYS), month=rng.choice(MONTHS), item=rng.choice(ITEMS),
            topic=rng.choice(TOPICS), hour=rng.randint(1, 5), major=rng.randint(0, 3), minor=rng.randint(0, 9),
            date=rng.randint(1, 28), number=rng.randint(1000, 9999), qty=rng.choice([2, 4, 8, 16, 32, 64]),
        )
        for _ in range(count)
    ]


class ReferenceMemory:
    """The reference design's memory, faithfully small: list of chunks, BM25 rebuilt per store, Python cosine scan."""

    def __init__(self, embedder: Embedder, rrf_k: int = 60) -> None:
        self.embedder = embedder
        self.rrf_k = rrf_k
        self.chunks: list[dict[str, Any]] = []
        self.bm25: BM25Okapi | None = None

    @staticmethod
    def tokenize(text: str) -> list[str]:
        return re.sub(r"[^\w\s]", "", text.lower()).split()  # lowercased, punctuation stripped

    def load(self, texts: list[str]) -> None:
        """Benchmark set-up only (not part of the design): append many chunks and build BM25 once."""
        for text, embedding in zip(texts, self.embedder.embed(texts)):
            self.chunks.append({"id": f"mem_{len(self.chunks) + 1:04d}", "text": text, "embedding": embedding})
        self.bm25 = BM25Okapi([self.tokenize(c["text"]) for c in self.chunks])

    def store(self, text: str) -> str:
        chunk = {"id": f"mem_{len(self.chunks) + 1:04d}", "text": text, "embedding": self.embedder.embed([text])[0]}
        self.chunks.append(chunk)
        self.bm25 = BM25Okapi([self.tokenize(c["text"]) for c in self.chunks])  # the whole corpus, every store
        return chunk["id"]

    def search(self, query: str, top_k: int = 3) -> list[dict[str, Any]]:
        q = self.embedder.embed([query])[0]
        cosines = [float(np.dot(q, c["embedding"]) / (np.linalg.norm(q) * np.linalg.norm(c["embedding"])))
                   for c in self.chunks]
        bm25 = self.bm25.get_scores(self.tokenize(query))
        fused: dict[int, float] = {}
        for scores in (cosines, bm25):
            ranked = sorted(range(len(self.chunks)), key=lambda i: scores[i], reverse=True)
            for rank, i in enumerate(ranked, start=1):
                fused[i] = fused.get(i, 0.0) + 1.0 / (self.rrf_k + rank)
        best = sorted(fused, key=fused.get, reverse=True)[:top_k]
        return [{**self.chunks[i], "score": fused[i], "cosine": cosines[i], "bm25": bm25[i]} for i in best]


@dataclass
class Row:
    size: int
    ours_store_ms: float
    sqlite_store_ms: float
    baseline_store_ms: float
    ours_search_ms: float
    sqlite_search_ms: float
    baseline_search_ms: float


def median_ms(seconds: list[float]) -> float:
    # The median, not the mean: on a shared machine a few stalled calls should not decide the result.
    return 1000 * statistics.median(seconds)


def time_searches(memory: Any, queries: list[str], rounds: int = 3) -> float:
    durations = []
    for query in queries * rounds:
        start = time.perf_counter()
        memory.search(query, top_k=3)
        durations.append(time.perf_counter() - start)
    return median_ms(durations)


def measure_ours(memory: HybridMemory, texts: list[str], sizes: list[int], window: int) -> dict[int, tuple[float, float]]:
    """Store ``texts`` one at a time; at each size, the median of the last ``window`` stores and of the searches."""
    durations: list[float] = []
    results = {}
    for text in texts:
        start = time.perf_counter()
        memory.store(text)
        durations.append(time.perf_counter() - start)
        if len(durations) in sizes:
            results[len(durations)] = (median_ms(durations[-window:]), time_searches(memory, QUERIES))
    return results


def measure_reference(embedder: Embedder, texts: list[str], size: int, repeats: int, queries: list[str]) -> tuple[float, float]:
    reference = ReferenceMemory(embedder)
    reference.load(texts[: size - repeats])
    durations = []
    for text in texts[size - repeats : size]:
        start = time.perf_counter()
        reference.store(text)
        durations.append(time.perf_counter() - start)
    return median_ms(durations), time_searches(reference, queries, rounds=1)


def run(sizes: list[int], window: int, repeats: int, reference_queries: int) -> list[Row]:
    embedder = default_embedder()
    texts = synthetic_memories(max(sizes))
    embedder.embed(texts[:10])  # warm up before timing anything
    ours = measure_ours(HybridMemory(embedder), texts, sizes, window)
    with tempfile.TemporaryDirectory() as folder:
        with HybridMemory(embedder, path=Path(folder) / "bench.sqlite3") as on_disk:
            sqlite = measure_ours(on_disk, texts, sizes, window)
    rows = []
    for size in sizes:
        baseline = measure_reference(embedder, texts, size, repeats, QUERIES[:reference_queries])
        rows.append(Row(size, ours[size][0], sqlite[size][0], baseline[0], ours[size][1], sqlite[size][1], baseline[1]))
    return rows


def table(rows: list[Row]) -> str:
    lines = [
        "| memories | store ms: ours | ours + SQLite | reference | store speed-up (ours / SQLite) "
        "| search ms: ours | ours + SQLite | reference | search speed-up (ours / SQLite) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.size:,} | {r.ours_store_ms:.3f} | {r.sqlite_store_ms:.3f} | {r.baseline_store_ms:.1f} "
            f"| {r.baseline_store_ms / r.ours_store_ms:,.0f}× / {r.baseline_store_ms / r.sqlite_store_ms:,.0f}× "
            f"| {r.ours_search_ms:.3f} | {r.sqlite_search_ms:.3f} | {r.baseline_search_ms:.1f} "
            f"| {r.baseline_search_ms / r.ours_search_ms:,.0f}× / {r.baseline_search_ms / r.sqlite_search_ms:,.0f}× |"
        )
    return "\n".join(lines)


def machine() -> str:
    """One line saying when and where the figures were taken, to paste with them."""
    return (f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {platform.system()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}, numpy {np.__version__}, "
            f"SQLite {sqlite3.sqlite_version}, load average {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> list[Row]:
    """Parse arguments, run the benchmark, print the results table and return its rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="sizes 100 and 300 only: a smoke test in seconds")
    mode.add_argument("--full", action="store_true", help="sizes 1,000, 5,000 and 10,000 (a minute or more)")
    args = parser.parse_args(argv)
    if args.quick:
        sizes, window, repeats, reference_queries = [100, 300], 50, 3, 4
    elif args.full:
        sizes, window, repeats, reference_queries = [1_000, 5_000, 10_000], 200, 10, len(QUERIES)
    else:
        sizes, window, repeats, reference_queries = [1_000, 5_000], 200, 10, len(QUERIES)
    print(machine())
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    rows = run(sizes, window, repeats, reference_queries)
    print(table(rows))
    print(f"\nstore ms: median of the last {window} one-at-a-time stores before reaching the size (ours), "
          f"median of {repeats} stores at that size (reference). search ms: median of {3 * len(QUERIES)} "
          f"searches (ours) / {reference_queries} (reference), top_k=3. speed-up = reference / ours. "
          f"Total {time.perf_counter() - started:.0f} s; load average before/after: "
          f"{load_before:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs.")
    return rows


if __name__ == "__main__":
    main()
