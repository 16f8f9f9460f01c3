"""The conflict check on write (lesson 10): which current memories a new fact may repeat or replace.

``find_conflicts(memory, text)`` searches the memory with the new fact and judges the best hits, the fact
taken without a marker in front ("Quick update: …"). A ``duplicate`` says it again: the same ``words`` but
for spacing, surrounding punctuation and the case of plain words (signs, decimal points, symbols, emoji and
the case inside codes all count: "-18" is not "18", "Hunter2" not "hunter2"). A ``replaces`` candidate has the
same *subject slot* and another *value slot* ("My favourite editor is | Vim." → "… | Helix."), split at
"is / are / was / lives in / works at"; a preposition after "is" is part of the slot ("is in Paris" is not
"is a doctor"), a bare name before "is" is no subject ("Dave is tall", "Dave is a doctor"), and "likes",
"uses", "has", "plays" never split. Failing that, the same sentence with one code-like value changed
("costs $40" → "costs £40"), or a change announced in other words (``change_signals.py``: "we switched …",
"no longer", "has been pushed to") about the hit sharing the most content words. The memory only finds
candidates: ``memory_store`` reports them with the exact ``update_call``, and the agent decides. It knows no
synonyms ("moved to" for an address). ``load_sequences`` and ``flag_counts`` read and score the labelled
sets in ``data/write_conflicts`` (``benchmarks/bench_write_conflicts.py``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from aria_kit.bm25 import tokenize
from aria_kit.change_signals import (adds_to, announces_change, content_words, names_no_subject, old_value,
                                     without_marker)
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend
from aria_kit.thread_context import thread_of

CANDIDATES = 5  # hits of the memory's own search that the rule looks at
RELATION = re.compile(r"\b(?P<verb>is|are|was|were|(?:lives?|living) in|works? (?:at|for))\b", re.I)
COPULAS = {"is", "are", "was", "were"}
# A preposition right after "is" names the relation: "is in Paris" (where) and "is a doctor" (what) are two slots.
PREPOSITIONS = set("in at on from to with for of by near under inside outside behind between into".split())
EVENTS = set("moved pushed changed switched renamed replaced postponed rescheduled bumped cancelled canceled "
             "delayed updated".split())
# Words that say when, not what: "is Helix now" and "is Helix these days" state the value "Helix".
FILLER = (("at", "the", "moment"), ("these", "days"), ("right", "now"), ("for", "now"), ("now",), ("currently",),
          ("still",), ("instead",), ("nowadays",), ("today",))
OPENING, CLOSING = "\"'“‘«([{", "\"'”’»)]}"
SENTENCE_END = ".,;:!?…"
DATA = Path(__file__).parent / "data" / "write_conflicts"
SPLITS = ("dev", "heldout", "phrasings_dev", "phrasings_heldout")


@dataclass(frozen=True)
class Conflict:
    """A current memory the new fact may repeat (``duplicate``) or make out of date (``replaces``)."""

    kind: str
    id: str
    text: str


class Candidate(Protocol):
    """A memory found for the new fact: a search ``Hit``, or a ``Conflict`` built from a quoted search result."""

    id: str
    text: str


def plain(word: str) -> bool:
    """Whether ``word`` is letters only (an inner apostrophe or hyphen allowed: "Ana's", "Wi-Fi"), not a code."""
    return word.replace("'", "").replace("-", "").isalpha() and word[:1] not in "'-" and word[-1:] not in "'-"


def _word(raw: str) -> str:
    """One word as compared: quotes, brackets and sentence punctuation off its ends; letter case off plain words."""
    word = raw.lstrip(OPENING).rstrip(CLOSING + SENTENCE_END).lstrip(OPENING)
    # "Vim" and "vim" are one name; "Hunter2", "C#", "A-" and "A100" are codes, where every character counts
    return word.casefold() if plain(word) else word


def words(text: str) -> tuple[str, ...]:
    """The words "the same fact" is compared on: what is written, but for spacing, a word's surrounding
    punctuation and the letter case of plain words. Signs, decimal points, symbols and emoji all count:
    "-18" is not "18", "1.5" is not "15", "C#" is not "C++", "5%" is not "5$", "🔴" is not "🟢"."""
    text = unicodedata.normalize("NFC", text).replace("’", "'")  # NFC, not NFKC: "x²" must stay apart from "x2"
    return tuple(w for w in map(_word, text.split()) if w)


def without_filler(value: tuple[str, ...]) -> tuple[str, ...]:
    """``value`` without the words that only say when ("now", "these days", "at the moment")."""
    kept, i = [], 0
    while i < len(value):
        phrase = next((f for f in FILLER if value[i:i + len(f)] == f), None)
        if phrase is None:
            kept.append(value[i])
        i += len(phrase) if phrase else 1
    return tuple(kept)


def split_fact(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(subject slot, value slot) as words, or None when the fact has no single-valued relation to split at.

    The subject slot ends with the relation: "is", "is in", "is on", "live", "work". So "My sister is in Paris"
    and "My sister is a doctor" fill two slots, and "Dave lives in Leeds" and "Dave is in Leeds" two more.
    """
    found = RELATION.search(text)
    if found is None:
        return None
    verb = " ".join(found.group("verb").lower().split())
    subject = words(text[: found.start()])
    if not subject or (verb in COPULAS and len(subject) < 2):
        return None  # "Dave is tall": a bare name before "is" names no attribute
    value = without_filler(words(text[found.end():]))
    if verb in COPULAS and value[:1] and value[0] in EVENTS:
        return None  # "The offsite was moved to Seville": an event that changed the fact, not the fact itself
    if verb in COPULAS:  # "is", "are", "was": one attribute; a preposition after it names which
        relation = ("is", value[0]) if value[:1] and value[0] in PREPOSITIONS else ("is",)
        return (*subject, *relation), value[len(relation) - 1:]
    return (*subject, verb.split()[0].rstrip("s").replace("living", "live")), value


def _is_emoji(word: str) -> bool:
    return all(c in "\u200d\ufe0f" or (ord(c) >= 0x2190 and unicodedata.category(c) in ("So", "Sk")) for c in word)


def repeats(old: str, new: str) -> bool:
    """Whether ``new`` says ``old`` again: the same ``words``, or with emoji only added at the end ("booked 🎉")."""
    a, b = words(old), words(new)
    short, long = sorted((a, b), key=len)
    return a == b or (bool(short) and long[:len(short)] == short and all(map(_is_emoji, long[len(short):])))


def one_value_changed(old: str, new: str) -> bool:
    """The same sentence with one code-like word changed in its second half: "costs $40." → "costs £40.",
    "an A in maths" → "an A- in maths", "Build status: 🟢" → "… 🔴". A plain word changed ("plays the violin"
    → "plays the piano") is no such change: many relations hold many values."""
    a, b = words(old), words(new)
    changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y] if len(a) == len(b) else []
    return (len(changed) == 1 and 2 * changed[0] >= len(a) - 1
            and not (plain(a[changed[0]]) and plain(b[changed[0]])))


def find_conflicts(memory: MemoryBackend, text: str, candidates: int = CANDIDATES) -> list[Conflict]:
    """Duplicates first (then nothing else matters), else the replacement candidates, best-ranked first.

    The fact is compared without the marker in front of it ("Quick update: …"). Three rules find a
    replacement, tried in turn: the same subject slot with another value; the same sentence with one value
    changed; and, for a statement that announces a change ("now", "no longer", "switched", a marker) and
    adds nothing ("also", "too"), the hit sharing the most content words with it (``_announced``).
    """
    hits = _own_word_hits(memory, text, candidates)
    return conflicts_among(hits, text)


def conflicts_among(hits: Sequence[Candidate], text: str) -> list[Conflict]:
    """What ``find_conflicts`` says of ``text`` given the memories found for it (anything with ``id`` and ``text``)."""
    said, stored = without_marker(text), [without_marker(h.text) for h in hits]  # a stored text may have one too
    duplicates = [Conflict("duplicate", h.id, h.text) for h, old in zip(hits, stored) if repeats(old, said)]
    if duplicates:
        return duplicates[:1]
    found, new_slots = [], split_fact(said)
    for hit, old in zip(hits, stored):
        slots = split_fact(old)
        if new_slots is None or slots is None or slots[0] != new_slots[0]:
            continue
        # the same subject and the same value, said with "now" or "these days": a repeat, not a change
        found.append(Conflict("duplicate" if slots[1] == new_slots[1] else "replaces", hit.id, hit.text))
    duplicates = [c for c in found if c.kind == "duplicate"]
    found = duplicates[:1] or found or [Conflict("replaces", h.id, h.text) for h, old in zip(hits, stored)
                                         if one_value_changed(old, said)]
    return found or _announced(hits, text)


def _announced(hits: Sequence[Candidate], text: str) -> list[Conflict]:
    """The hit a change announcement is about: the one sharing the most content words with it. Hits that tie
    are told apart by all the words they share, "on" and "to" included ("the kickoff is on Tuesday": the kickoff
    *on Monday*, not the kickoff *in room 4*); a tie that stays is no answer."""
    if not announces_change(text) or adds_to(text) or names_no_subject(text):
        return []
    wanted, old = content_words(text), content_words(old_value(text))
    # "from Redis to Valkey": only a memory that says Redis can be the one replaced
    shared = [len(wanted & content_words(h.text)) if old <= content_words(h.text) else 0 for h in hits]
    best = max(shared, default=0)
    if best == 0:
        return []
    tied = [h for h, n in zip(hits, shared) if n == best]
    if len(tied) > 1:
        said = set(tokenize(without_marker(text)))
        overlap = [len(said & set(tokenize(h.text))) for h in tied]
        if overlap.count(max(overlap)) > 1:
            return []
        tied = [tied[overlap.index(max(overlap))]]
    return [Conflict("replaces", tied[0].id, tied[0].text)]


def _own_word_hits(memory: MemoryBackend, text: str, candidates: int) -> list:
    """The facts the rule reads: ``HybridMemory`` searched without thread context (a turn quoting the fact must not
    outrank it on its neighbours' words), widened until ``candidates`` hits outside any thread are found."""
    if not isinstance(memory, HybridMemory):  # other backends have no thread context to switch off
        return memory.search(text, top_k=candidates)
    top_k = candidates
    while True:
        hits = memory.search(text, top_k=top_k, thread_context=False)
        facts = [hit for hit in hits if thread_of(hit.metadata) is None]  # a turn of a conversation is no fact
        if len(hits) < top_k or len(facts) >= candidates:
            return facts[:candidates]
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


SPLITS = ("dev", "heldout", "phrasings_dev", "phrasings_heldout")


def load_sequences(split: str) -> list[WriteSequence]:
    """The labelled write sequences of one split: "dev" and "phrasings_dev" (tune on them), "heldout" and
    "phrasings_heldout" (measure once); see ``data/write_conflicts/README.md``. Extra fields are not read."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
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
    """Words that decide whether two texts state the same fact: ``words`` with "now", "these days" aside."""
    return without_filler(words(text))


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
