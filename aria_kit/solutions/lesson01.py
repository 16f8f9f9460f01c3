"""Worked solutions for lesson 01 (interfaces).

Open this when you are stuck on exercise 01.1 or the stretch task. ``MyMemory``
keeps the ``MemoryBackend`` contract with nothing but a list and a counter; the
details that matter are the ones an agent relies on later: an id is never
reused, ``list_all`` hands out a copy, ``delete`` answers instead of raising.
``BoundedMemory`` shows what a contract buys: a wrapper around *any* backend
that the agent cannot tell from the memory it wraps.
"""

from __future__ import annotations

import re

from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord


def words(text: str) -> set[str]:
    """The set of lowercase words (runs of letters and digits) in ``text``."""
    return set(re.findall(r"[^\W_]+", text.lower()))


class MyMemory(MemoryBackend):
    """Memories in a list; search ranks by shared words, the newest memory first on a tie, scored 1/(60 + rank)."""

    def __init__(self) -> None:
        self.records: list[MemoryRecord] = []
        self.next_number = 1  # a counter, not len(records): ids stay unique after a delete

    def store(self, text, metadata=None):
        record = MemoryRecord(f"mem_{self.next_number:04d}", text, {"category": "general", **(metadata or {})})
        self.next_number += 1
        self.records.append(record)
        return record.id

    def search(self, query, top_k=3):
        newest_first = reversed(self.records)
        scored = [(len(words(query) & words(r.text)), r) for r in newest_first]
        scored = sorted([pair for pair in scored if pair[0] > 0], key=lambda pair: -pair[0])  # stable: newest first
        return [Hit(r.id, r.text, r.metadata, score=1 / (60 + rank), cosine=0.0, bm25=0.0)  # one ranking's fused score
                for rank, (_, r) in enumerate(scored[:top_k], start=1)]

    def list_all(self):
        return list(self.records)  # a copy: the caller may change it freely

    def delete(self, memory_id):
        before = len(self.records)
        self.records = [r for r in self.records if r.id != memory_id]
        return len(self.records) < before


class BoundedMemory(MemoryBackend):
    """Any memory backend, limited to its ``capacity`` newest memories: storing one more forgets the oldest.

    The open half of the stretch task: nothing in the contract can say "I just
    forgot mem_0001", so an answer that quoted it now points at nothing and nobody
    was told. Ways to say it: a callback (``on_forget(record)``) the owner passes in;
    returning the forgotten ids from ``store`` (a change to the contract every
    backend would have to follow); or not deleting at all and marking a memory as
    replaced, which is what lesson 10 does for facts that change.
    """

    def __init__(self, inner: MemoryBackend, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.inner = inner
        self.capacity = capacity

    def store(self, text, metadata=None):
        new_id = self.inner.store(text, metadata)
        records = self.inner.list_all()  # oldest first, by the contract
        for record in records[: max(0, len(records) - self.capacity)]:
            self.inner.delete(record.id)
        return new_id

    def search(self, query, top_k=3):
        return self.inner.search(query, top_k)

    def list_all(self):
        return self.inner.list_all()

    def delete(self, memory_id):
        return self.inner.delete(memory_id)
