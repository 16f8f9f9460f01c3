"""Benchmark: newer first for questions about what something is now, the older for the past (recency.py).

    python benchmarks/bench_newer_first.py --split dev      # choose on this one, as often as you like
    python benchmarks/bench_newer_first.py --split heldout  # report once

Each shipped set is stored in one ``HybridMemory()`` (as shipped, or ``--thread-window N``) and every
question of the split is searched once for ``recency.WINDOW`` hits. "Before" is the plain search's top 5,
"after" is ``newer_first`` over the same hits. A question with an ``update`` (``datasets.ValueUpdate``:
asks "current" or "past", the newer and the older turn) counts for newer first when it asks about now
and both turns are in the top 5 with the newer above the older (and, a second count, when the newer is
in the top 5 with the older not above it), and for the past when the older turn is in the top 5.
"Both turns in the top 20" is how many current questions any reordering could serve. Every question
counts for capped recall@5, so the table shows what the reordering costs the questions it should leave
alone; "reordered" is how many questions' top 5 changed at all, "ms per search" what ``newer_first``
adds to one. Lesson 10's rule-built set (``changing_facts``, stored append-only, every version a
memory) is scored too: its current evidence at rank 1, before and after.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aria_kit.changing_facts import build_changing_facts, evaluate, ingest  # noqa: E402
from aria_kit.datasets import list_datasets, load_dataset  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.measuring import bootstrap_interval, capped_recall_at_k, fill_memory, query_clusters  # noqa: E402
from aria_kit.recency import WINDOW, newer_first  # noqa: E402

K = 5


def share(values: list[bool]) -> str:
    return f"{sum(values)}/{len(values)}" if values else "—"


def interval(values: np.ndarray, clusters) -> str:
    low, high = bootstrap_interval(values, clusters=clusters)
    return f"{values.mean():.3f} [{low:+.3f}, {high:+.3f}]" if values.min() < 0 else \
        f"{values.mean():.3f} [{low:.3f}, {high:.3f}]"


def score_set(name: str, split: str, thread_window: int | None) -> str:
    """One markdown row: newer first and the past, before → after; recall@5 before, after and the difference."""
    dataset = load_dataset(name)
    memory = HybridMemory() if thread_window is None else HybridMemory(thread_window=thread_window)
    to_doc = fill_memory(dataset, memory)
    queries, spent = dataset.queries[split], 0.0
    current, found, past = ({"before": [], "after": []} for _ in range(3))
    recall, reordered, reachable = [[], []], 0, []
    for query in queries:
        hits = memory.search(query.text, top_k=WINDOW)
        start = time.perf_counter()
        reordered_hits = newer_first(query.text, hits, K, memory.embedder)
        spent += time.perf_counter() - start
        rankings = {"before": [to_doc[h.id] for h in hits[:K]], "after": [to_doc[h.id] for h in reordered_hits]}
        reordered += rankings["before"] != rankings["after"]
        window = {to_doc[h.id] for h in hits}
        if query.update and query.update.asks == "current":  # what any reordering of the window can reach
            reachable.append({query.update.newer, query.update.older} <= window)
        for side, (when, ranking) in enumerate(rankings.items()):
            recall[side].append(capped_recall_at_k(ranking, list(query.relevant), K))
            update = query.update
            if update and update.asks == "current":
                newer, older = update.newer, update.older
                current[when].append(newer in ranking and older in ranking and
                                     ranking.index(newer) < ranking.index(older))
                found[when].append(newer in ranking and (older not in ranking or
                                                         ranking.index(newer) < ranking.index(older)))
            elif update:
                past[when].append(update.older in ranking)
    clusters = query_clusters(dataset, queries)
    before, after = np.array(recall[0]), np.array(recall[1])
    return (f"| {name} | {split} ({len(queries)}) | {share(reachable)} | "
            f"{share(current['before'])} → {share(current['after'])} | "
            f"{share(found['before'])} → {share(found['after'])} | "
            f"{share(past['before'])} → {share(past['after'])} | {interval(before, clusters)} | "
            f"{interval(after, clusters)} | {interval(after - before, clusters)} | {reordered} | "
            f"{1000 * spent / len(queries):.1f} |")


def changing_facts_row() -> str:
    """Lesson 10's rule-built set stored append-only: current evidence at rank 1 and stale in the top 3."""
    versions, questions = build_changing_facts()
    memory = HybridMemory()
    ingest(memory, versions, "append_only")
    plain = evaluate(memory, questions)
    search = memory.search
    memory.search = lambda query, top_k=3, **kw: newer_first(query, lambda k: search(query, k, **kw), top_k,
                                                             memory.embedder)
    hooked = evaluate(memory, questions)
    updated = [i for i, q in enumerate(questions) if q.is_update]

    def counts(outcomes) -> str:
        picked = [outcomes[i] for i in updated]
        return (f"{sum(o.current_rank == 1 for o in picked)}/{len(picked)} at rank 1, "
                f"{sum(o.stale_recalled for o in picked)} stale in top 3")
    return f"| changing_facts (lesson 10, append-only, update questions) | {counts(plain)} | {counts(hooked)} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "heldout"], required=True, help="dev to choose, heldout once")
    parser.add_argument("--thread-window", type=int, help="HybridMemory(thread_window=N) instead of the default")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC · {platform.system()} {platform.machine()}, "
          f"Python {platform.python_version()} · HybridMemory("
          f"{'' if args.thread_window is None else f'thread_window={args.thread_window}'}), "
          f"window {WINDOW}, top {K}\n")
    print(f"| set | split (questions) | current: both turns in the top {WINDOW} | current: newer above older, both "
          "in top 5 | current: newer in top 5, no older above it | past: older in top 5 | capped recall@5 before | "
          "after | after − before | questions reordered | ms per search |\n"
          "|---|---|---|---|---|---|---:|---:|---:|---:|---:|")
    for name in list_datasets():
        print(score_set(name, args.split, args.thread_window), flush=True)
    print("\n| rule-built set | before | after |\n|---|---|---|")
    print(changing_facts_row())
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
