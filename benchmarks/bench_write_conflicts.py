"""The conflict check on write, measured on the labelled write sequences (lesson 10, issue 22).

Two measurements per split (``aria_kit/data/write_conflicts``: dev to tune on, held-out to report):

1. ``find_conflicts`` alone. Each sequence is told in order to a memory kept in its
   *labelled* state (a replacement supersedes its target, a duplicate is skipped),
   and before each write we ask which memory it may replace. A flag is right when it
   names the labelled target first (the memory ``memory_store``'s result names);
   precision and recall of "flagged as a replacement" follow, and the same for duplicates.
2. The offline agent end to end: a fresh agent is told "Remember that <fact>" for each
   write, and its current memories at the end are compared with the labelled state
   (word for word, case, punctuation and "now"/"these days" aside).

    python benchmarks/bench_write_conflicts.py            # both splits
    python benchmarks/bench_write_conflicts.py --split dev
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aria_kit.demo import make_agent  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.offline import OfflineProvider  # noqa: E402
from aria_kit.write_conflicts import Flag, WriteSequence, flag_counts, labelled_state, load_sequences, same  # noqa: E402


def end_to_end(sequence: WriteSequence) -> tuple[bool, int, int]:
    """(final state right, stale facts still current, labelled current facts missing) for the offline agent."""
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    for write in sequence.writes:
        agent.chat(f"Remember that {write.text}")
    got = [same(r.text) for r in agent.memory.list_all() if r.is_current]
    want = labelled_state(sequence)
    return set(got) == want and len(got) == len(set(got)), len(set(got) - want), len(want - set(got))


def _rate(right: int, total: int) -> str:
    return f"{right}/{total} = {right / total:.2f}" if total else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout", "both"), default="both")
    parser.add_argument("--misses", action="store_true", help="list every wrong or missed flag (dev only, please)")
    args = parser.parse_args()
    print("| split | writes | replacement precision | replacement recall | duplicate precision | duplicate recall |"
          " offline agent: sequences right | stale facts left current | facts lost |")
    print("|---|---|---|---|---|---|---|---|---|")
    for split in ("dev", "heldout") if args.split == "both" else (args.split,):
        sequences = load_sequences(split)
        rp, rf, rl = flag_counts(sequences, "replaces")
        dp, df, dl = flag_counts(sequences, "duplicate")
        runs = [end_to_end(s) for s in sequences]
        print(f"| {split} | {sum(len(s.writes) for s in sequences)} | {_rate(rp, rf)} | {_rate(rp, rl)} | "
              f"{_rate(dp, df)} | {_rate(dp, dl)} | {_rate(sum(r[0] for r in runs), len(runs))} | "
              f"{sum(r[1] for r in runs)} | {sum(r[2] for r in runs)} |")
        if args.misses:
            flags: list[Flag] = []
            for sequence in sequences:
                labelled_state(sequence, flags)
            for f in flags:
                kind = "replaces" if f.replaces else "duplicate" if f.duplicate else "new"
                if kind != f.label or (f.replaces or f.duplicate) != f.target:
                    print(f"  {f.sequence}: {f.text!r} labelled {f.label} {f.target}, flagged {kind} "
                          f"{f.replaces or f.duplicate}")

if __name__ == "__main__":
    main()
