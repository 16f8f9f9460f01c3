"""Where ``HybridMemory`` keeps its memories: numbered rows of one matrix, a BM25 index, texts (lesson 04).

Row ``r`` holds the memory numbered ``seqs[r]``; numbers only grow and rows fill in that order, so an
id finds its row by binary search (``row_of``). Each row has its unit embedding in one contiguous
float32 ``matrix`` (it doubles when full), its text, metadata, and its own tokens in ``bm25`` (slot =
row). ``live`` marks rows that hold a memory; ``current`` the rows default search sees: live and not
superseded. ``links`` holds the ``(superseded_by, superseded_at, supersedes)`` of memories in a chain
of versions (lesson 10). ``remove`` marks a row dead and splices its chain, as the SQLite file does
(the current version of a fact with history is refused); ``remove_chain`` takes out a whole fact;
``compact`` drops dead rows once they outnumber live ones, keeping the order (and so every rank);
``rebuilt`` is the repair after a change was cut short. ``thread_context`` adds neighbouring turns'
keyword scores to thread memories' at search time, from neighbours worked out afresh from the rows
and links after any change. Not here: embedding, searching and files (``hybrid_memory.py``,
``persistence.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.interfaces import MemoryRecord, Metadata
from aria_kit.memory_rules import make_memory_id, seq_of
from aria_kit.persistence import revival_refusal
from aria_kit.thread_context import (THREAD_LENGTH, lent_term_scores, neighbour_pairs, shares, thread_of,
                                     with_context)

Links = tuple[str | None, str | None, str | None]  # (superseded_by, superseded_at, supersedes)
NO_LINKS: Links = (None, None, None)


class MemoryRows:
    """The memories of one ``HybridMemory``, in rows; ``stemming`` says how ``bm25`` tokenises them."""

    def __init__(self, dim: int, stemming: bool) -> None:
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
        self.bm25 = BM25Index()  # slot = row
        self.threads = np.full(16, -1, dtype=np.int64)  # row -> its thread's number (-1: none, or deleted)
        self.lengths = np.zeros(16, dtype=np.int64)  # row -> its own tokens (the share of context it takes)
        self.thread_numbers: dict[str, int] = {}  # thread -> its number here (groups rows; orders nothing)
        self._pairs: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # window -> neighbour_pairs; emptied on change

    def append(self, seqs: Sequence[int], texts: list[str], metadata: list[Metadata], vectors: np.ndarray,
               links: Sequence[Links] | None = None) -> None:
        """Put memories (numbered above every row held, ascending) into the next rows, with their ``links``."""
        start, stop = self.used, self.used + len(texts)
        if stop > len(self.matrix):
            capacity = max(2 * len(self.matrix), stop)
            self.matrix = _resized(self.matrix, capacity)
            self.seqs, self.live = _resized(self.seqs, capacity), _resized(self.live, capacity)
            self.current = _resized(self.current, capacity)
            self.threads, self.lengths = _resized(self.threads, capacity, -1), _resized(self.lengths, capacity)
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
        self.bm25.add_many(tokens)
        self.lengths[start:stop] = [len(t) for t in tokens]
        for row, item in zip(range(start, stop), metadata):
            thread = thread_of(item)
            if thread is not None:
                self.threads[row] = self.thread_numbers.setdefault(thread, len(self.thread_numbers))
        self._pairs.clear()

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
        self.live[row] = self.current[row] = False
        before, after = (seq_of(link) if link else None for link in (supersedes, superseded_by))
        if before in self.links:  # the predecessor now points to the successor (there is one: see above)
            _, at, its_supersedes = self.links[before]
            self.set_links(before, (superseded_by, at, its_supersedes))
        if after in self.links:
            its_superseded_by, at, _ = self.links[after]
            self.set_links(after, (its_superseded_by, at, supersedes))
        self.links.pop(seq, None)
        self._take_out([row])

    def remove_chain(self, rows: list[int]) -> None:
        """Take out every version of one fact (``forget``): all die in one step, so a cut never leaves part."""
        self.live[rows] = False
        self.current[rows] = False
        for row in rows:
            self.links.pop(int(self.seqs[row]), None)
        self._take_out(rows)

    def _take_out(self, rows: list[int]) -> None:
        """The rest of a removal, once the rows are dead: texts, BM25 entries, thread numbers, then compaction."""
        for row in rows:
            self.texts[row] = self.metadata[row] = None
            self.bm25.remove(row)
            self.threads[row] = -1
            self.count -= 1
        self._pairs.clear()
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
        fresh = MemoryRows(self.matrix.shape[1], self.stemming)
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
        matrix, seqs, live = (_resized(array[kept], capacity) for array in (self.matrix, self.seqs, self.live))
        texts, metadata = [self.texts[row] for row in kept], [self.metadata[row] for row in kept]
        # The data changes in one statement (``rebuilt`` trusts it); the indexes after it.
        self.matrix, self.seqs, self.live, self.texts, self.metadata, self.used = (matrix, seqs, live, texts,
                                                                                   metadata, len(kept))
        self.current = _resized(self.current[kept], capacity)
        self.threads, self.lengths = _resized(self.threads[kept], capacity, -1), _resized(self.lengths[kept], capacity)
        self._pairs.clear()
        self.bm25.compact()  # it keeps the order of the slots it keeps: slot = row still

    def mark_superseded(self, seq: int, successor: str, at: str) -> None:
        """Memory number ``seq`` was replaced by ``successor`` at ``at``: keep it, as history."""
        self.set_links(seq, (successor, at, self.links.get(seq, NO_LINKS)[2]))
        self.current[self.row_of(seq)] = False
        self._pairs.clear()

    def bm25_scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every row in use for ``query_tokens``, each row's own words only (0 for dead rows)."""
        return self.bm25.scores(query_tokens)

    def with_thread_context(self, scores: np.ndarray, query_tokens: Sequence[str], window: int, weight: float,
                            length: float = THREAD_LENGTH) -> np.ndarray:
        """``scores`` (per row, for ``query_tokens``) with thread memories' shares of what their neighbours lend
        added: their scores for the query words a turn lacks (thread_context.py)."""
        if window < 1 or weight == 0 or not self.thread_numbers:
            return scores
        if window not in self._pairs:
            self._pairs[window] = neighbour_pairs(self.threads[: self.used], self._places(),
                                                  self.current[: self.used], window)
        targets, sources = self._pairs[window]
        return with_context(scores, targets, sources, shares(self.lengths[: self.used], weight, length),
                            lent_term_scores(self.bm25, query_tokens))

    def _places(self) -> np.ndarray:
        """Each row's place in its thread: the number of its chain's oldest version in the same thread.

        Worked out from the rows and links alone (a predecessor always has the lower number, so one
        ascending pass follows every chain), so a reopened file finds the very places the live rows have.
        """
        keys = self.seqs[: self.used].copy()
        for seq in sorted(s for s, links in self.links.items() if links[2] is not None):
            row, before = self.row_of(seq), self.row_of(seq_of(self.links[seq][2]))
            if row is not None and before is not None and self.threads[row] >= 0 \
                    and self.threads[before] == self.threads[row]:
                keys[row] = keys[before]
        return keys

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


def _resized(array: np.ndarray, rows: int, fill: int = 0) -> np.ndarray:
    """A copy of ``array`` with ``rows`` rows: its own first, ``fill`` after."""
    bigger = np.full((rows, *array.shape[1:]), fill, dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
