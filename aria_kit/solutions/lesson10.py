"""Worked solutions for lesson 10: follow a fact to its current version, decide a replacement, search as of a day.

``follow_to_current`` walks ``superseded_by`` links until it reaches a memory
nobody replaced. ``replaces`` is the kit's own rule (``write_conflicts.py``):
split each fact into a subject slot and a value slot at a single-valued
relation ("is", "lives in", "works at"), and call it a replacement when the
subjects match and the values differ. Exercise 10.3 has two designs in ``SOLUTIONS["10.3"]``:
``search_as_of`` filters a ranking that includes history, keeping each version
from the day its predecessor was superseded until the day before its own
``superseded_at`` (a change day belongs to the new version);
``search_as_of_by_walking`` walks every fact from its first version to the one
current on the day, then keeps those in the same ranking (a change day still
belongs to the old version). Both count the first version, whose start is not
recorded, as current from the start.

Stretch 10 is open and has no key. A good answer resolves "she"/"he" to the
person the conversation named last, counts on ``build_changing_facts()``'s
pronoun versions how many it attaches to the right person and to a wrong one,
and says when it would rather leave a change unsuperseded (section 6: a wrong
pick damages a fact that never changed).
"""

from __future__ import annotations

from aria_kit.interfaces import Hit, MemoryBackend
from aria_kit.write_conflicts import split_fact


def follow_to_current(memory: MemoryBackend, memory_id: str) -> str:
    record = memory.get(memory_id)
    if record is None:
        raise ValueError(f"there is no memory {memory_id!r}")
    while record.superseded_by is not None:
        record = memory.get(record.superseded_by)
    return record.id


def replaces(old: str, new: str) -> bool:
    old_slots, new_slots = split_fact(old), split_fact(new)
    if old_slots is None or new_slots is None:  # no single-valued relation: the facts can both be true
        return False
    return old_slots[0] == new_slots[0] and old_slots[1] != new_slots[1]


def search_as_of(memory: MemoryBackend, query: str, day: str, top_k: int = 3) -> list[Hit]:
    """The best ``top_k`` memories among those that were current on ``day`` (ISO dates compare as text)."""
    kept = []
    for hit in memory.search(query, top_k=max(top_k, len(memory)), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        started = before.superseded_at if before is not None else ""
        ended = memory.get(hit.id).superseded_at
        if started[:10] <= day and (ended is None or day < ended[:10]):
            kept.append(hit)
    return kept[:top_k]


def search_as_of_by_walking(memory: MemoryBackend, query: str, day: str, top_k: int = 3) -> list[Hit]:
    """Walk each fact from its first version to the one current on ``day``; a change day keeps the old version."""
    as_of = set()
    for record in memory.list_all():
        if record.supersedes is None:  # a first version: follow its chain while each version ended before ``day``
            while record.superseded_by is not None and record.superseded_at[:10] < day:
                record = memory.get(record.superseded_by)
            as_of.add(record.id)
    ranked = memory.search(query, top_k=len(memory), include_history=True)
    return [hit for hit in ranked if hit.id in as_of][:top_k]


SOLUTIONS = {"10.3": [(search_as_of,), (search_as_of_by_walking,)]}
