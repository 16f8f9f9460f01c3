"""Resident memory of a process that searches 2,000 distinct 100 kB one-word queries (issue 24, finding 6).

A ``HybridMemory`` holding the demo's seven facts is searched with 2,000
different 100 kB "words"; the script prints the process's resident memory
(``VmRSS``, Linux) before and after, and the time taken. Before round three the
stem cache kept every such word and its stem: the process grew from 110 to
506 MB. ``tests/test_stem_cache.py`` checks the bound; this measures it.

    python benchmarks/bench_stem_cache.py [--queries 2000]
"""

from __future__ import annotations

import argparse
import time

from aria_kit.demo import seed_memory
from aria_kit.hybrid_memory import HybridMemory


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith("VmRSS")).split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    queries = parser.parse_args().queries
    memory = HybridMemory()
    seed_memory(memory)
    memory.search("warm up")
    before, start = rss_mb(), time.perf_counter()
    for i in range(queries):
        suffix = "".join(chr(97 + (i // 26 ** k) % 26) for k in range(3))
        memory.search("q" * 99_997 + suffix)
    print(f"{queries:,} distinct 100 kB one-word queries: RSS {before:.0f} MB -> {rss_mb():.0f} MB, "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
