"""The stem cache stays small whatever is searched (issue 24, finding 6): 2,000 distinct 100 kB one-word queries."""

from __future__ import annotations

import subprocess
import sys

from aria_kit import bm25

QUERIES = 2_000
GROWTH_LIMIT_MB = 40  # old cache: ~400 MB for these queries (each word cached as key and stem)

CHILD = f"""
import sys
from aria_kit.bm25 import tokenize, _STEMS

def rss_mb():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS")).split()[1]) / 1024

tokenize("warm up the stemmer", stem=True)
before = rss_mb()
for i in range({QUERIES}):
    suffix = "".join(chr(97 + (i // 26 ** k) % 26) for k in range(3))
    tokenize("a" * 99_997 + suffix, stem=True)
print(rss_mb() - before, sum(len(k) + len(v) for k, v in _STEMS.items()))
"""


def test_2000_distinct_100_kb_one_word_queries_leave_the_process_small() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300, check=True)
    growth_mb, cached_chars = (float(x) for x in done.stdout.split())
    assert cached_chars < 1_000, f"the stem cache holds {cached_chars:,.0f} characters of 100 kB words"
    assert growth_mb < GROWTH_LIMIT_MB, f"the process grew by {growth_mb:.0f} MB"


def test_a_token_longer_than_any_english_word_is_returned_as_it_is() -> None:
    long_word = "stemming" * 20
    assert bm25.stem(long_word) == long_word and bm25.stem("memories") == "memori"
    assert bm25.tokenize(f"Storing {long_word}", stem=True) == ["store", long_word]
