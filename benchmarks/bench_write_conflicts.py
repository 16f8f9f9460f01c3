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
from aria_kit.write_conflicts import FILLER, Sequence, find_conflicts, load_sequences, words  # noqa: E402


def _same(text: str) -> tuple[str, ...]:
    return tuple(w for w in words(text) if w not in FILLER)


def labelled_state(sequence: Sequence, memory: HybridMemory | None = None, flags: list | None = None) -> set:
    """Apply the labels; with ``flags``, record (label, labelled target, flagged replacement, flagged duplicate)."""
    memory = memory if memory is not None else HybridMemory()
    ids: list[str | None] = []
    for write in sequence.writes:
        if flags is not None and len(memory):
            found = find_conflicts(memory, write.text)
            replaces = next((c.id for c in found if c.kind == "replaces"), None)
            duplicate = next((c.id for c in found if c.kind == "duplicate"), None)
            target = ids[write.of] if write.of is not None else None
            flags.append((sequence.id, write.text, write.label, target, replaces, duplicate))
        if write.label == "new":
            ids.append(memory.store(write.text))
        elif write.label == "replaces":
            ids.append(memory.supersede(ids[write.of], write.text))
        else:
            ids.append(ids[write.of])
    return {_same(r.text) for r in memory.list_all() if r.is_current}


def precision_recall(flags: list, kind: str) -> tuple[int, int, int]:
    """(right flags, all flags, labelled cases) for "replaces" or "duplicate"."""
    column = 4 if kind == "replaces" else 5
    flagged = [f for f in flags if f[column] is not None]
    right = [f for f in flagged if f[2] == kind and f[column] == f[3]]
    return len(right), len(flagged), sum(f[2] == kind for f in flags)


def end_to_end(sequence: Sequence) -> tuple[bool, int, int]:
    """(final state right, stale facts still current, labelled current facts missing) for the offline agent."""
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    for write in sequence.writes:
        agent.chat(f"Remember that {write.text}")
    got = [_same(r.text) for r in agent.memory.list_all() if r.is_current]
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
        flags: list = []
        for sequence in sequences:
            labelled_state(sequence, flags=flags)
        rp, rf, rl = precision_recall(flags, "replaces")
        dp, df, dl = precision_recall(flags, "duplicate")
        runs = [end_to_end(s) for s in sequences]
        print(f"| {split} | {sum(len(s.writes) for s in sequences)} | {_rate(rp, rf)} | {_rate(rp, rl)} | "
              f"{_rate(dp, df)} | {_rate(dp, dl)} | {_rate(sum(r[0] for r in runs), len(runs))} | "
              f"{sum(r[1] for r in runs)} | {sum(r[2] for r in runs)} |")
        if args.misses:
            for sid, text, label, target, replaces, duplicate in flags:
                kind = "replaces" if replaces else "duplicate" if duplicate else "new"
                if kind != label or (replaces or duplicate) != target:
                    print(f"  {sid}: {text!r} labelled {label} {target}, flagged {kind} {replaces or duplicate}")


if __name__ == "__main__":
    main()
