"""CPU time of the offline stand-in's change detection on hostile messages of growing length (issue 24).

For each hostile message (the repros of issue 24: a phrase repeated, long runs of
spaces or tabs between words, …) it times ``parse_change`` (and reading back an
answer's citations) at 1, 10 and 100 kB. Linear rules grow about tenfold per row;
the rules before round three took 48 s at 16 kB. Nothing is asserted here:
``tests/test_offline_linear.py`` checks the bound.

    python benchmarks/bench_offline_patterns.py
"""

from __future__ import annotations

import time

from aria_kit.offline_updates import _quoted_in_last_answer, parse_change

HOSTILE = {
    "switched from, repeated": lambda n: ("Alice switched from " * n)[:n],
    "spaces between two words": lambda n: "Alice" + " " * (n - 8) + "Bob",
    "tabs before is now": lambda n: "\t" * (n - 6) + "is now",
    "not, repeated": lambda n: ("not " * n)[:n],
    "comma-space runs": lambda n: "x" + " ," * (n // 2 - 1) + "y",
    "from A, spaces, to": lambda n: "Alice switched from A" + " " * (n - 40) + "to",
    "remember, repeated": lambda n: ("remember " * n)[:n],
}


def main() -> None:
    sizes = (1_000, 10_000, 100_000)
    print("| message | " + " | ".join(f"{n // 1000} kB ms" for n in sizes) + " |")
    for name, make in HOSTILE.items():
        times = []
        for n in sizes:
            text = make(n)
            start = time.process_time()
            parse_change(text)
            _quoted_in_last_answer([{"role": "assistant", "content": text + " [mem_0001]"}])
            times.append(1000 * (time.process_time() - start))
        print(f"| {name} | " + " | ".join(f"{t:.2f}" for t in times) + " |")


if __name__ == "__main__":
    main()
