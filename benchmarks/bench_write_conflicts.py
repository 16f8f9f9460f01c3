"""The conflict check on write, measured on the labelled write sequences (lesson 10, issues 22 and 29).

Per split (``aria_kit/data/write_conflicts``: dev and phrasings_dev to tune on, heldout and phrasings_heldout
to report once):

1. ``find_conflicts`` alone. Each sequence is told in order to a memory kept in its
   *labelled* state (a replacement supersedes its target, a duplicate is skipped),
   and before each write we ask which memory it may replace. A flag is right when it
   names the labelled target first (the memory ``memory_store``'s result names);
   precision and recall of "flagged as a replacement" follow, and the same for duplicates.
2. The offline agent end to end: a fresh agent is told "Remember that <fact>" for each
   write, and its memories at the end are compared with the labelled state (as ``same`` compares texts):
   the stale facts it still has current, the current facts it lost (a replacement it stored in its own
   words is not lost), and whether it holds exactly as many current facts as the labelled state.

A second table: duplicate precision on the writes of the phrasings sets marked ``differs_by`` sign, case,
decimal, symbol or emoji (the write is an earlier one with only that changed); the bar is 100%.
The sets are read here, not with ``load_sequences``, so this script also measures older code
(``PYTHONPATH`` pointing at another checkout, with this file and the data copied beside it).

    python benchmarks/bench_write_conflicts.py                      # every split
    python benchmarks/bench_write_conflicts.py --split phrasings_dev --misses
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aria_kit.demo import make_agent  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.offline import OfflineProvider  # noqa: E402
from aria_kit.write_conflicts import Flag, Write, WriteSequence, labelled_state, same  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "aria_kit" / "data" / "write_conflicts"
SPLITS = ("dev", "heldout", "phrasings_dev", "phrasings_heldout")
MARKS = ("sign", "case", "decimal", "symbol", "emoji")


def read(split: str) -> tuple[list[WriteSequence], list[list[dict]]]:
    """The sequences of one split, and each write's raw fields (``form``, ``differs_by``) beside them."""
    rows = [json.loads(line) for line in (DATA / f"{split}.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return ([WriteSequence(r["id"], tuple(Write(w["text"], w["label"], w.get("of")) for w in r["writes"]))
             for r in rows], [r["writes"] for r in rows])


def flags_by_write(sequences: list[WriteSequence]) -> list[list[Flag]]:
    """Per sequence, ``find_conflicts``'s flag before each write after the first (the first meets an empty memory)."""
    out = []
    for sequence in sequences:
        flags: list[Flag] = []
        labelled_state(sequence, flags)
        out.append(flags)
    return out


def counts(flags: list[Flag], kind: str) -> tuple[int, int, int]:
    """(right flags, all flags, labelled cases) of ``kind``, as ``write_conflicts.flag_counts`` counts them."""
    named = [getattr(f, kind) for f in flags]
    right = sum(n is not None and f.label == kind and n == f.target for f, n in zip(flags, named))
    return right, sum(n is not None for n in named), sum(f.label == kind for f in flags)


def end_to_end(sequence: WriteSequence) -> tuple[bool, int, int]:
    """(final state right, stale facts still current, labelled current facts missing) for the offline agent.

    A replacement the agent wrote in its own words ("Our web app uses Valkey as its cache." for "We switched
    the cache from Redis to Valkey.") is not missing when the fact it replaces was superseded.
    """
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    for write in sequence.writes:
        agent.chat(f"Remember that {write.text}")
    records = agent.memory.list_all()
    current = [same(r.text) for r in records if r.is_current]
    superseded = {same(r.text) for r in records if not r.is_current}
    want = labelled_state(sequence)
    stale = {same(sequence.writes[w.of].text) for w in sequence.writes if w.label == "replaces"} - want
    lost = sum(same(w.text) in want and same(w.text) not in current and not (
        w.label == "replaces" and same(sequence.writes[w.of].text) in superseded) for w in
        {same(w.text): w for w in sequence.writes if w.label != "duplicate"}.values())
    left = len(stale & set(current))
    return left == 0 and lost == 0 and len(current) == len(set(current)) == len(want), left, lost


def _rate(right: int, total: int) -> str:
    return f"{right}/{total} = {right / total:.2f}" if total else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--misses", action="store_true", help="list every wrong or missed flag (dev sets only, please)")
    args = parser.parse_args()
    splits = SPLITS if args.split == "all" else (args.split,)
    print("| split | writes | replacement precision | replacement recall | duplicate precision | duplicate recall |"
          " offline agent: sequences right | stale facts left current | facts lost |")
    print("|---|---|---|---|---|---|---|---|---|")
    marked: dict[str, list[tuple[Flag, str]]] = {}
    for split in splits:
        sequences, raw = read(split)
        per_sequence = flags_by_write(sequences)
        flags = [f for fs in per_sequence for f in fs]
        rp, rf, rl = counts(flags, "replaces")
        dp, df, dl = counts(flags, "duplicate")
        runs = [end_to_end(s) for s in sequences]
        print(f"| {split} | {sum(len(s.writes) for s in sequences)} | {_rate(rp, rf)} | {_rate(rp, rl)} | "
              f"{_rate(dp, df)} | {_rate(dp, dl)} | {_rate(sum(r[0] for r in runs), len(runs))} | "
              f"{sum(r[1] for r in runs)} | {sum(r[2] for r in runs)} |")
        marked[split] = [(f, w["differs_by"]) for fs, ws in zip(per_sequence, raw) for f, w in zip(fs, ws[1:])
                         if w.get("differs_by") in MARKS]
        if args.misses:
            for f, w in zip(flags, [w for ws in raw for w in ws[1:]]):
                kind = "replaces" if f.replaces else "duplicate" if f.duplicate else "new"
                if kind != f.label or (f.replaces or f.duplicate) != f.target:
                    print(f"  {f.sequence} [{w.get('form') or w.get('differs_by') or ''}]: {f.text!r} labelled "
                          f"{f.label} {f.target}, flagged {kind} {f.replaces or f.duplicate}")
    marked = {split: pairs for split, pairs in marked.items() if pairs}
    if marked:
        print("\nWrites that differ from an earlier one only in sign, case, decimal point, symbol or emoji:\n")
        print("| split | such writes | labelled repeats | duplicate precision |"
              " flagged as repeats though they differ |")
        print("|---|---|---|---|---|")
        for split, pairs in marked.items():
            dp, df, dl = counts([f for f, _ in pairs], "duplicate")
            wrong = [mark for f, mark in pairs if f.duplicate and f.label != "duplicate"]
            print(f"| {split} | {len(pairs)} | {dl} | {_rate(dp, df)} | {len(wrong)} {' '.join(sorted(wrong))} |")


if __name__ == "__main__":
    main()
