"""Where ``HybridMemory`` keeps its memories: numbered rows of one matrix, a BM25 index, texts (lesson 04).

Row ``r`` holds the memory numbered ``seqs[r]``. Numbers only grow, and rows are
filled in that order, so an id finds its row by binary search (``row_of``). Each
row has its unit embedding in one contiguous float32 ``matrix`` (it doubles when
full, so storing one memory is not one copy of everything), its text and
metadata, and its tokens in ``bm25`` (slot = row). ``live`` marks rows that hold
a memory; ``current`` the rows default search sees: live and not superseded.
``links`` holds, for the memories in a chain of versions (lesson 10), their
``(superseded_by, superseded_at, supersedes)``.

``remove`` marks a row dead and splices its chain, as the SQLite file does (the
current version of a fact with history is refused), ``remove_chain`` takes out a
whole fact; ``compact`` drops the dead rows once they outnumber the live ones,
keeping the order (and so every rank). ``rebuilt`` is the repair after a change
was cut short: fresh rows and indexes from the rows' data alone. Thread memories (``thread_context.py``) are indexed
with their neighbours' words; when a neighbour comes, goes or is superseded, the
turns around it are indexed again under a new BM25 slot (``slots`` maps row to
slot; it is the identity until that first happens). Not here: embedding,
searching and files (``hybrid_memory.py``, ``persistence.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.interfaces import MemoryRecord, Metadata
from aria_kit.memory_rules import make_memory_id, seq_of
from aria_kit.persistence import revival_refusal
from aria_kit.thread_context import ThreadOrder, thread_of

Links = tuple[str | None, str | None, str | None]  # (superseded_by, superseded_at, supersedes)
NO_LINKS: Links = (None, None, None)


class MemoryRows:
    """The memories of one ``HybridMemory``, in rows; ``stemming`` says how ``bm25`` tokenises them, and
    ``thread_window`` how many turns on each side join a thread memory's keyword side (0: none)."""

    def __init__(self, dim: int, stemming: bool, thread_window: int = 0) -> None:
        self.stemming = stemming
        self.matrix = np.zeros((16, dim), dtype=np.float32)  # one unit vector per row; grows by doubling
        self.seqs = np.zeros(16, dtype=np.int64)  # row -> the memory's number, ascending
        self.live = np.zeros(16, dtype=bool)  # row -> holds a memory (False once deleted, until compacted)
        self.current = np.zeros(16, dtype=bool)  # row -> live and not superseded: what default search sees
        self.links: dict[int, Links] = {}  # memory number -> its links, only for memories in a chain of versions
        self.texts: list[str | None] = []  # row -> text (None once deleted)
        self.metadata: list[Metadata | None] = []
        self.used = 0  # rows in use, live or dead
        self.count = 0  # live rows
        self.last_seq = 0  # the highest memory number these rows have seen
        self.bm25 = BM25Index()  # slot = slots[row]
        self.slots = np.zeros(16, dtype=np.int64)  # row -> its BM25 slot
        self.moved = False  # whether some row's slot is not its row (a thread turn was indexed again)
        self.threads = ThreadOrder(thread_window) if thread_window > 0 else None

    def append(self, seqs: Sequence[int], texts: list[str], metadata: list[Metadata], vectors: np.ndarray,
               links: Sequence[Links] | None = None) -> None:
        """Put memories (numbered above every row held, ascending) into the next rows, with their ``links``."""
        start, stop = self.used, self.used + len(texts)
        if stop > len(self.matrix):
            capacity = max(2 * len(self.matrix), stop)
            self.matrix = _resized(self.matrix, capacity)
            self.seqs, self.live = _resized(self.seqs, capacity), _resized(self.live, capacity)
            self.current = _resized(self.current, capacity)
            self.slots = _resized(self.slots, capacity)
        self.matrix[start:stop] = vectors
        self.seqs[start:stop] = seqs
        self.live[start:stop] = True
        self.current[start:stop] = True
        for seq, row, item_links in zip(seqs, range(start, stop), links or ()):
            self.set_links(seq, item_links)
            self.current[row] = item_links[0] is None  # a superseded memory is history, not current
        self.texts.extend(texts)
        for item in metadata:  # equal neighbours share one dict: a million {"category": "general"} cost ~200 MB
            shared = self.metadata[-1] if self.metadata and self.metadata[-1] == item else item
            self.metadata.append(shared)  # safe to share: stored dicts are never changed, only copied out
        tokens = [tokenize(text, stem=self.stemming) for text in texts]
        self.used, self.count, self.last_seq = stop, self.count + len(texts), int(seqs[-1])
        placed = self._place(seqs, metadata, links) if self.threads is not None else []
        if placed:  # each new turn with its neighbours' words; those stored earlier are indexed again below
            own, index = dict(zip(seqs, tokens)), {seq: i for i, seq in enumerate(seqs)}
            for seq in placed:
                tokens[index[seq]] = self._context(seq, own)
        slots = self.bm25.add_many(tokens)
        self.slots[start:stop] = slots
        self.moved = self.moved or slots.start != start
        if placed:  # the turns stored before this batch that have new neighbours now
            firsts = {self.threads.place[seq][0]: seq for seq in reversed(placed)}  # each thread's first new turn
            moved = [seq for seq in placed if self.threads.place[seq][1] != seq]  # new versions of older turns
            fresh = set(seqs)
            self._reindex({seq for new in [*firsts.values(), *moved] for seq in self.threads.around(new)} - fresh)

    def remove(self, row: int) -> None:
        """Take the memory in ``row`` out, splicing its chain of versions as the file does.

        ``ValueError`` (nothing changed) for the current version of a fact with history: that would make an
        older version current again (``persistence.revival_refusal``). The steps run in the order ``rebuilt``
        relies on: the row dies first, then its neighbours are linked past it, then its own links go.
        """
        seq = int(self.seqs[row])
        superseded_by, _, supersedes = self.links.get(seq, NO_LINKS)
        if superseded_by is None and supersedes is not None:
            raise revival_refusal(make_memory_id(seq), supersedes)
        touched = self._around([seq])
        self.live[row] = self.current[row] = False
        before, after = (seq_of(link) if link else None for link in (supersedes, superseded_by))
        if before in self.links:  # the predecessor now points to the successor (there is one: see above)
            _, at, its_supersedes = self.links[before]
            self.set_links(before, (superseded_by, at, its_supersedes))
        if after in self.links:
            its_superseded_by, at, _ = self.links[after]
            self.set_links(after, (its_superseded_by, at, supersedes))
        self.links.pop(seq, None)
        self._take_out([row], touched)

    def remove_chain(self, rows: list[int]) -> None:
        """Take out every version of one fact (``forget``): all die in one step, so a cut never leaves part."""
        seqs = [int(self.seqs[row]) for row in rows]
        touched = self._around(seqs)
        self.live[rows] = False
        self.current[rows] = False
        for seq in seqs:
            self.links.pop(seq, None)
        self._take_out(rows, touched)

    def _around(self, seqs: list[int]) -> set[int]:
        """The thread turns whose keyword side holds one of ``seqs``' words (they are indexed again after)."""
        placed = [seq for seq in seqs if self.threads is not None and seq in self.threads.place]
        return {near for seq in placed for near in self.threads.around(seq)}

    def _take_out(self, rows: list[int], touched: set[int]) -> None:
        """The rest of a removal, once the rows are dead: texts, BM25 entries, thread places, then compaction."""
        for row in rows:
            seq = int(self.seqs[row])
            self.texts[row] = self.metadata[row] = None
            self.bm25.remove(int(self.slots[row]))
            self.count -= 1
            if self.threads is not None and seq in self.threads.place:
                self.threads.drop(seq)
        if touched:  # the neighbours close ranks over the gap
            self._reindex(touched - {int(self.seqs[row]) for row in rows})
        if self.used - self.count > self.count:  # more dead rows than live ones: reclaim them
            self.compact()

    def rebuilt(self, undo: tuple[int, int] | None = None) -> MemoryRows:
        """These memories in fresh rows with every index built again: the repair after a change was cut short.

        Only the rows' data is trusted (``matrix``, ``seqs``, ``live``, ``texts``, ``metadata``, ``links``,
        ``used``, ``last_seq``): each change makes it whole in one step (a store when ``used`` grows, a delete
        when ``live`` drops), and a link to a memory that is gone is followed past it or, if nothing is
        known of it, dropped (a supersede cut short). ``undo`` = ``(used, last_seq)`` from before a store keeps
        only the rows below ``used``: a store cut short is undone whole. O(memories), like a reload.
        """
        used, last_seq = (self.used, self.last_seq) if undo is None else (min(undo[0], self.used), undo[1])
        rows = [row for row in range(used) if self.live[row]]
        seqs = [int(self.seqs[row]) for row in rows]
        alive = {make_memory_id(seq) for seq in seqs}

        def past_the_gone(link: str | None, side: int) -> str | None:
            seen = set()
            while link is not None and link not in alive:
                if link in seen or seq_of(link) not in self.links:
                    return None
                seen.add(link)
                link = self.links[seq_of(link)][side]
            return link

        links = []
        for seq in seqs:
            superseded_by, at, supersedes = self.links.get(seq, NO_LINKS)
            superseded_by = past_the_gone(superseded_by, 0)
            links.append((superseded_by, at if superseded_by else None, past_the_gone(supersedes, 2)))
        fresh = MemoryRows(self.matrix.shape[1], self.stemming, self.threads.window if self.threads else 0)
        if rows:
            fresh.append(seqs, [self.texts[row] for row in rows], [self.metadata[row] for row in rows],
                         self.matrix[rows], links)
        fresh.last_seq = last_seq  # numbers of deleted memories stay used
        return fresh

    def compact(self) -> None:
        """Drop dead rows, keeping the order (and so every rank); the matrix shrinks to fit. O(rows), amortised
        over the deletes that made half the rows dead."""
        kept = np.flatnonzero(self.live[: self.used])
        capacity = max(16, 2 * len(kept))
        # The BM25 index keeps the order of the slots it keeps, so a row's new slot is its old slot's rank.
        slots = np.empty(len(kept), dtype=np.int64)
        slots[np.argsort(self.slots[kept], kind="stable")] = np.arange(len(kept))
        matrix, seqs, live = (_resized(array[kept], capacity) for array in (self.matrix, self.seqs, self.live))
        texts, metadata = [self.texts[row] for row in kept], [self.metadata[row] for row in kept]
        # The data changes in one statement (``rebuilt`` trusts it); the indexes after it.
        self.matrix, self.seqs, self.live, self.texts, self.metadata, self.used = (matrix, seqs, live, texts,
                                                                                   metadata, len(kept))
        self.current = _resized(self.current[kept], capacity)
        self.slots = _resized(slots, capacity)
        self.moved = bool((slots != np.arange(len(kept))).any())
        self.bm25.compact()

    def mark_superseded(self, seq: int, successor: str, at: str) -> None:
        """Memory number ``seq`` was replaced by ``successor`` at ``at``: keep it, as history."""
        self.set_links(seq, (successor, at, self.links.get(seq, NO_LINKS)[2]))
        self.current[self.row_of(seq)] = False
        if self.threads is not None and seq in self.threads.place:  # its successor (if any yet) speaks for it now
            self.threads.history.add(seq)
            self._reindex(set(self.threads.around(seq)))

    def bm25_scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every row in use for ``query_tokens`` (0 for dead rows)."""
        scores = self.bm25.scores(query_tokens)
        return scores[self.slots[: self.used]] if self.moved else scores

    def _place(self, seqs: Sequence[int], metadata: list[Metadata], links: Sequence[Links] | None) -> list[int]:
        """Put the new thread memories among ``seqs`` in their threads; return their numbers."""
        placed = []
        for seq, item, item_links in zip(seqs, metadata, links or [NO_LINKS] * len(metadata)):
            thread = thread_of(item)
            if thread is not None:
                self.threads.add(seq, thread, seq_of(item_links[2]) if item_links[2] else None)
                if item_links[0] is not None:  # stored already superseded (a reload): history
                    self.threads.history.add(seq)
                placed.append(seq)
        return placed

    def _context(self, seq: int, own: dict[int, list[str]]) -> list[str]:
        """Thread memory ``seq``'s keyword side: its tokens, then its neighbours' (``own`` caches tokens)."""
        tokens = list(self._tokens(seq, own))
        for neighbour in self.threads.neighbours(seq):
            tokens.extend(self._tokens(neighbour, own))
        return tokens

    def _tokens(self, seq: int, own: dict[int, list[str]]) -> list[str]:
        found = own.get(seq)
        return found if found is not None else tokenize(self.texts[self.row_of(seq)], stem=self.stemming)

    def _reindex(self, seqs: set[int]) -> None:
        """Index these thread memories again (their neighbours changed), each under a new BM25 slot."""
        rows = sorted(row for row in map(self.row_of, seqs) if row is not None)
        if not rows:
            return
        documents = [self._context(int(self.seqs[row]), {}) for row in rows]
        for row in rows:
            self.bm25.remove(int(self.slots[row]))
        self.slots[rows] = self.bm25.add_many(documents)
        self.moved = True
        if self.bm25.slots > 2 * len(self.bm25) + 16:  # stale slots outnumber the documents: reclaim them
            self.compact()

    def set_links(self, seq: int, links: Links) -> None:
        """Record memory number ``seq``'s links (forgetting them when all are ``None``)."""
        if any(link is not None for link in links):
            self.links[seq] = links
        else:
            self.links.pop(seq, None)

    def row_of(self, seq: int) -> int | None:
        """The row of live memory number ``seq``, by binary search over the ascending numbers; else None."""
        row = int(np.searchsorted(self.seqs[: self.used], seq))
        return row if row < self.used and self.seqs[row] == seq and self.live[row] else None

    def record(self, row: int) -> MemoryRecord:
        """A fresh record (metadata copied: callers may change it) of the memory in ``row``, with its links."""
        seq = int(self.seqs[row])
        return MemoryRecord(make_memory_id(seq), self.texts[row], dict(self.metadata[row]),
                            *self.links.get(seq, NO_LINKS))


def _resized(array: np.ndarray, rows: int) -> np.ndarray:
    """A copy of ``array`` with ``rows`` rows: its own first, zeros after."""
    bigger = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
