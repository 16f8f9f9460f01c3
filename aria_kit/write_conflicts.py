"""The conflict check on write (lesson 10): which current memories a new fact may repeat or replace.

``find_conflicts(memory, text)`` searches the memory with the new fact itself
(the memory's own hybrid search, current memories only) and applies a cheap
rule to the best hits: a hit that says the same thing again (same words, case
and punctuation aside) is a ``duplicate``; a hit with the same *subject slot*
and a different *value slot* ("My favourite editor is | Vim." against "My
favourite editor is | Helix.") is a ``replaces`` candidate. The memory only
finds candidates: ``memory_store`` reports them with the exact ``memory_update``
call that would act on one (``update_call``), and the agent decides.

The rule splits a fact at its first "is / are / was / lives in / works at / works
for". A copula needs a subject of two words or more, so "Dave is tall" and
"Dave is a doctor" are compatible while "Dave's team is …" is one attribute;
"likes", "uses", "has", "plays" are many-valued and never split, so "Dave likes
tea" and "Dave likes chess" stay side by side. It does not know synonyms
("promoted to", "moved to" for a new address): a model sees those, the rule
does not. ``load_sequences`` reads the labelled write sequences it was tuned on
(dev) and measured on (held-out), in ``aria_kit/data/write_conflicts``, and
``flag_counts`` scores the rule on them (``benchmarks/bench_write_conflicts.py``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from aria_kit.bm25 import tokenize
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend
from aria_kit.thread_context import thread_of

CANDIDATES = 5  # hits of the memory's own search that the rule looks at
RELATION = re.compile(r"\b(?P<verb>is|are|was|(?:lives?|living) in|works? (?:at|for))\b", re.I)
COPULAS = {"is", "are", "was"}
FILLER = {"now", "currently", "these", "days", "still", "instead", "at", "the", "moment", "nowadays"}
DATA = Path(__file__).parent / "data" / "write_conflicts"


@dataclass(frozen=True)
class Conflict:
    """A current memory the new fact may repeat (``duplicate``) or make out of date (``replaces``)."""

    kind: str
    id: str
    text: str


def words(text: str) -> tuple[str, ...]:
    """The text as lowercase words: what "the same fact" is compared on (case and punctuation aside)."""
    return tuple(tokenize(text))


def split_fact(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(subject slot, value slot) as words, or None when the fact has no single-valued relation to split at."""
    found = RELATION.search(text)
    if found is None:
        return None
    verb = " ".join(found.group("verb").lower().split())
    subject = words(text[: found.start()])
    if not subject or (verb in COPULAS and len(subject) < 2):
        return None  # "Dave is tall": a bare name before "is" names no attribute
    value = tuple(w for w in words(text[found.end():]) if w not in FILLER)
    # "is" and "was" state one attribute; "lives in" and "living in" too: compare on one form of the verb
    return (*subject, "is" if verb in COPULAS else verb.split()[0].rstrip("s").replace("living", "live")), value


def find_conflicts(memory: MemoryBackend, text: str, candidates: int = CANDIDATES) -> list[Conflict]:
    """Duplicates first (then nothing else matters), else the replacement candidates, best-ranked first."""
    hits = _own_word_hits(memory, text, candidates)
    new_words, new_slots = words(text), split_fact(text)
    duplicates = [Conflict("duplicate", h.id, h.text) for h in hits if words(h.text) == new_words]
    if duplicates:
        return duplicates[:1]
    found = []
    for hit in hits:
        slots = split_fact(hit.text)
        if new_slots is None or slots is None or slots[0] != new_slots[0]:
            continue
        # the same subject and the same value, said with "now" or "these days": a repeat, not a change
        found.append(Conflict("duplicate" if slots[1] == new_slots[1] else "replaces", hit.id, hit.text))
    duplicates = [c for c in found if c.kind == "duplicate"]
    return duplicates[:1] or found


def _own_word_hits(memory: MemoryBackend, text: str, candidates: int) -> list:
    """The hits the rule reads: ``HybridMemory`` searched without thread context (a turn quoting the fact must not
    outrank it on its neighbours' words), widened until ``candidates`` of them are outside any thread."""
    if not isinstance(memory, HybridMemory):  # other backends have no thread context to switch off
        return memory.search(text, top_k=candidates)
    top_k = candidates
    while True:
        hits = memory.search(text, top_k=top_k, thread_context=False)
        if len(hits) < top_k or sum(thread_of(hit.metadata) is None for hit in hits) >= candidates:
            return hits
        top_k *= 4


def update_call(memory_id: str, new_text: str) -> str:
    """The ``memory_update`` call, written out with JSON-quoted arguments, so a model can make it as shown."""
    return f"memory_update(memory_id={json.dumps(memory_id)}, new_text={json.dumps(new_text, ensure_ascii=False)})"


CALL = re.compile(r'memory_update\(memory_id=("(?:[^"\\]|\\.)*"), new_text=("(?:[^"\\]|\\.)*")\)')


def read_update_call(text: str) -> tuple[str, str] | None:
    """The (memory_id, new_text) of the first ``update_call`` written in ``text``, or None."""
    found = CALL.search(text)
    return (json.loads(found.group(1)), json.loads(found.group(2))) if found else None


@dataclass(frozen=True)
class Write:
    """One fact told to memory, labelled "new", "replaces" (write ``of``) or "duplicate" (of write ``of``)."""

    text: str
    label: str
    of: int | None = None


@dataclass(frozen=True)
class WriteSequence:
    """Facts told to a memory in order, each with its label."""

    id: str
    writes: tuple[Write, ...]


def load_sequences(split: str) -> list[WriteSequence]:
    """The labelled write sequences of one split: "dev" (tune on it) or "heldout" (measure once)."""
    if split not in ("dev", "heldout"):
        raise ValueError(f"split must be 'dev' or 'heldout', not {split!r}")
    lines = (DATA / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [WriteSequence(row["id"], tuple(Write(w["text"], w["label"], w.get("of")) for w in row["writes"]))
            for row in map(json.loads, lines) if row]


@dataclass(frozen=True)
class Flag:
    """What ``find_conflicts`` said before one labelled write, next to the label (ids in the labelled memory)."""

    sequence: str
    text: str
    label: str
    target: str | None  # the memory the label names
    replaces: str | None  # the replacement candidate named first, if any
    duplicate: str | None


def labelled_state(sequence: WriteSequence, flags: list[Flag] | None = None) -> set[tuple[str, ...]]:
    """Tell ``sequence`` to a fresh memory as labelled; the current facts (as ``same`` words) at the end.

    With ``flags``, ``find_conflicts`` is asked before each write and its answer appended.
    """
    memory = HybridMemory()
    ids: list[str] = []
    for write in sequence.writes:
        if flags is not None and len(memory):
            found = find_conflicts(memory, write.text)
            flags.append(Flag(sequence.id, write.text, write.label, ids[write.of] if write.of is not None else None,
                              next((c.id for c in found if c.kind == "replaces"), None),
                              next((c.id for c in found if c.kind == "duplicate"), None)))
        if write.label == "new":
            ids.append(memory.store(write.text))
        elif write.label == "replaces":
            ids.append(memory.supersede(ids[write.of], write.text))
        else:
            ids.append(ids[write.of])
    return {same(r.text) for r in memory.list_all() if r.is_current}


def same(text: str) -> tuple[str, ...]:
    """Words that decide whether two texts state the same fact: case, punctuation, "now", "these days" aside."""
    return tuple(w for w in words(text) if w not in FILLER)


def flag_counts(sequences: list[WriteSequence], kind: str = "replaces") -> tuple[int, int, int]:
    """(right flags, all flags, labelled cases) of ``kind``: precision is right/flags, recall right/labelled.

    A flag is right when the memory it names first is the labelled one.
    """
    flags: list[Flag] = []
    for sequence in sequences:
        labelled_state(sequence, flags)
    named = [getattr(f, kind) for f in flags]
    right = sum(n is not None and f.label == kind and n == f.target for f, n in zip(flags, named))
    return right, sum(n is not None for n in named), sum(f.label == kind for f in flags)
