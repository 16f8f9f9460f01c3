"""Benchmark: what corrections and deletes of conversation turns cost, against the size of the thread.

    python benchmarks/bench_thread_writes.py            # sizes 100 … 3,000 turns (about 30 s here)

For each thread size, an in-process ``HybridMemory()`` (default embedder and thread context) holds one
thread of that many short turns, and times 1,000 calls of each kind: ``supersede`` of a random current
turn (same thread), ``supersede`` of one turn's current version again and again (a chain 1,000 long),
and ``delete`` of a random turn (a new turn is stored after each delete, outside the timer, so the
thread keeps its size). Then the first search after the writes, which works out the turns' neighbours
again (``thread_context.neighbour_pairs``), and a second one that reuses them. The bar (issue 28): each
1,000 writes in under 1 s at every size. File-backed memories add an SQLite commit per write: not here.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.embeddings import default_embedder  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402

SIZES, WRITES = (100, 200, 400, 800, 3_000), 1_000
WORDS = "cache redis pods restart billing invoice gateway friday monday deadline project alice rust tea".split()


def turn(rng: random.Random, n: int) -> str:
    return f"turn {n}: " + " ".join(rng.choices(WORDS, k=8))


def thread(embedder, size: int, rng: random.Random) -> tuple[HybridMemory, list[str]]:
    memory = HybridMemory(embedder)
    ids = memory.store_many([turn(rng, n) for n in range(size)], [{"thread": "chat"}] * size)
    memory.search("warm up", top_k=5)
    return memory, ids


def timed(calls) -> float:
    started = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - started


def row(embedder, size: int) -> str:
    rng = random.Random(size)
    memory, current = thread(embedder, size, rng)

    def correct_random() -> None:
        i = rng.randrange(len(current))
        current[i] = memory.supersede(current[i], turn(rng, i), at="2026-12-01")

    supersedes = timed([correct_random] * WRITES)
    memory, current = thread(embedder, size, rng)
    chain = [current[size // 2]]

    def correct_one() -> None:
        chain.append(memory.supersede(chain[-1], turn(rng, size // 2), at="2026-12-01"))

    one_turn = timed([correct_one] * WRITES)
    memory, current = thread(embedder, size, rng)
    deletes = 0.0
    for n in range(WRITES):
        deletes += timed([lambda: memory.delete(current.pop(rng.randrange(len(current))))])
        current.append(memory.store(turn(rng, size + n), {"thread": "chat"}))
    first = timed([lambda: memory.search("redis deadline friday", top_k=5)])
    again = timed([lambda: memory.search("redis deadline monday", top_k=5)])
    ok = max(supersedes, one_turn, deletes) < 1.0
    return (f"| {size:,} | {supersedes:.3f} | {one_turn:.3f} | {deletes:.3f} | {1000 * first:.1f} | "
            f"{1000 * again:.1f} | {'yes' if ok else 'NO'} |")


def main() -> None:
    embedder = default_embedder()
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC · {platform.system()} {platform.machine()}, "
          f"Python {platform.python_version()}, numpy {np.__version__}, embedder {embedder.name}\n")
    print(f"| turns in the thread | {WRITES:,} supersedes, random turns (s) | {WRITES:,} supersedes, one turn (s) | "
          f"{WRITES:,} deletes (s) | first search after (ms) | next search (ms) | all under 1 s |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for size in SIZES:
        print(row(embedder, size), flush=True)


if __name__ == "__main__":
    main()
