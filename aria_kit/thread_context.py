"""Turn order inside conversation threads, for keyword search with context (lessons 04 and 09).

A memory whose metadata has a ``"thread"`` (a conversation or session id) is one turn of that
thread, and store order is turn order. A reply such as "Yes, last Friday!" carries its topic in
the turns around it, so ``HybridMemory`` indexes each turn's keyword (BM25) side with the words of
the ``window`` turns before and after it in the same thread (``MemoryRows`` does the indexing; this
module only says who the neighbours are). A memory that supersedes a turn of the same thread takes
that turn's place, so correcting a turn does not move it to the end of the conversation; a place
whose every version is history is skipped. Memories without a thread are never touched: applied by
store order to unrelated passages, neighbours' words ruin keyword search.

Not here: tokens, BM25, files. ``THREAD_WINDOW`` was chosen on chitchat_turns' dev split by
``benchmarks/sweep_thread_window.py``.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Hashable, Mapping
from typing import Any

THREAD_WINDOW = 3  # turns on each side whose words join a turn's keyword side (0 turns the context off)


def thread_of(metadata: Mapping[str, Any]) -> Hashable | None:
    """The thread a memory belongs to (its metadata's ``"thread"``), or ``None`` when it has none."""
    return metadata.get("thread")


class ThreadOrder:
    """Where each thread memory stands in its thread: ``place[seq] = (thread, key)``, keys in turn order.

    A key is the number of the memory that first took the place; later versions of that turn
    (supersedes in the same thread) share it. ``history`` holds the placed memories that are
    superseded (kept up to date by ``MemoryRows``, a set lookup where a row search would cost more).
    """

    def __init__(self, window: int) -> None:
        self.window = window
        self.history: set[int] = set()  # placed memories that are not current
        self.place: dict[int, tuple[Hashable, int]] = {}  # seq -> (thread, key)
        self._keys: dict[Hashable, list[int]] = {}  # thread -> its keys, ascending
        self._versions: dict[tuple[Hashable, int], list[int]] = {}  # (thread, key) -> live seqs there, ascending

    def add(self, seq: int, thread: Hashable, supersedes: int | None) -> None:
        """Place memory ``seq`` (numbers arrive ascending) at the end of ``thread``, or where it supersedes."""
        before = self.place.get(supersedes) if supersedes is not None else None
        key = before[1] if before is not None and before[0] == thread else seq
        self.place[seq] = (thread, key)
        versions = self._versions.setdefault((thread, key), [])
        if not versions:
            insort(self._keys.setdefault(thread, []), key)
        versions.append(seq)

    def drop(self, seq: int) -> None:
        """Forget memory ``seq`` (deleted)."""
        thread, key = self.place.pop(seq)
        self.history.discard(seq)
        versions = self._versions[thread, key]
        versions.remove(seq)
        if not versions:
            del self._versions[thread, key]
            keys = self._keys[thread]
            keys.pop(bisect_left(keys, key))
            if not keys:
                del self._keys[thread]

    def _voice(self, thread: Hashable, key: int) -> int | None:
        """The version that speaks for a place: its newest current memory (``None`` if all are history)."""
        versions = self._versions[thread, key]
        if versions[-1] not in self.history:  # the usual case: the newest version is current
            return versions[-1]
        return next((seq for seq in reversed(versions) if seq not in self.history), None)

    def _sides(self, seq: int) -> tuple[Hashable, list[int], int]:
        thread, key = self.place[seq]
        keys = self._keys[thread]
        return thread, keys, bisect_left(keys, key)

    def neighbours(self, seq: int) -> list[int]:
        """The current memories whose words join ``seq``'s keyword side: ``window`` places on each side."""
        thread, keys, at = self._sides(seq)
        found = []
        for side in (range(at - 1, -1, -1), range(at + 1, len(keys))):
            taken = 0
            for index in side:
                if taken == self.window:
                    break
                voice = self._voice(thread, keys[index])
                if voice is not None:
                    found.append(voice)
                    taken += 1
        return found

    def around(self, seq: int) -> list[int]:
        """Every memory whose neighbours may change when ``seq``'s place changes, its own place's included."""
        thread, keys, at = self._sides(seq)
        touched = list(self._versions[thread, keys[at]])
        for side in (range(at - 1, -1, -1), range(at + 1, len(keys))):
            current = 0
            for index in side:
                if current == self.window:
                    break
                touched.extend(self._versions[thread, keys[index]])
                current += self._voice(thread, keys[index]) is not None
        return touched
