"""HybridMemory: long-term memory searched by meaning and by keywords at once (lessons 04 and 09).

``store`` gives each memory an id (``mem_0001``, …; never reused) and a unit embedding; ``search`` ranks every
current memory by cosine (one matrix–vector product) and by BM25 over its own stemmed words, adds to a
conversation turn's keyword score a share of its neighbours' on the query words it lacks
(``thread_context.py``), and fuses the two (``fusion.DEFAULT_FUSION``: convex, weight 0.5; chosen on dev,
``tune`` re-chooses it), exactly but sorting only the heads (``exact_top_k.py``). ``supersede`` keeps the old
version as history (lesson 10); deleting the current version of a fact with history is refused, and ``forget``
removes every version, from the file's bytes too. Writes are all or nothing: what can fail runs first, the
change holds off timeouts and Ctrl-C (``write_guard.py``), and a change cut short anyway is repaired from the
file or the rows before the next call. With ``path=`` every change is committed to SQLite (``persistence.py``)
before the call returns and other processes' commits are read before each read. Input rules are
``memory_rules.py``'s; the rows live in ``memory_rows.py``. Not here: files, tokens, fusion arithmetic.
Not thread-safe: one instance per thread.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.embeddings import default_embedder, normalize
from aria_kit.exact_top_k import complete_ranks, rrf_contenders, score_contenders
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion, Fusion, fused_scores, ranks
from aria_kit.interfaces import Embedder, Hit, MemoryBackend, MemoryRecord, Metadata
from aria_kit.memory_rules import check_batch, check_metadata, check_moment, check_text, make_memory_id, seq_of
from aria_kit.memory_rows import MemoryRows
from aria_kit.persistence import MemoryFile, revival_refusal
from aria_kit.thread_context import THREAD_WEIGHT, THREAD_WINDOW
from aria_kit.write_guard import deferred_signals

BATCH = 10_000  # memories embedded and indexed per step of a bulk store or load
PROGRESS_FROM = 20_000  # bulk work at least this big shows a progress bar (when someone can see it)


class HybridMemory(MemoryBackend):
    """Vector + BM25 memory, fused (``fusion=``), in process or backed by an SQLite file at ``path``.

    ``thread_window`` (turns on each side, 0: off) and ``thread_weight`` (a short turn's share of each
    neighbour's keyword score on the query words the turn lacks) set thread context;
    like ``fusion`` they are search settings, not stored in the file.
    """

    def __init__(self, embedder: Embedder | None = None, path: str | Path | None = None, *, rrf_k: int | None = None,
                 fusion: Fusion | None = None, stopwords: Collection[str] = STOPWORDS, stemming: bool = True,
                 thread_window: int = THREAD_WINDOW, thread_weight: float = THREAD_WEIGHT) -> None:
        if rrf_k is not None and fusion is not None:
            raise ValueError("give either rrf_k (RRF with that constant) or fusion, not both")
        self.embedder = embedder if embedder is not None else default_embedder()
        self.fusion = RRF(rrf_k) if rrf_k is not None else fusion if fusion is not None else DEFAULT_FUSION
        self.stopwords = frozenset(stopwords)  # dropped from queries only, so the index never depends on them
        self._stemming = bool(stemming)  # the BM25 index holds stems; rebuilt from the texts on every load
        if isinstance(thread_window, bool) or not isinstance(thread_window, int) or thread_window < 0:
            raise ValueError(f"thread_window must be a whole number >= 0 (0: no thread context), "
                             f"got {thread_window!r}")
        if isinstance(thread_weight, bool) or not isinstance(thread_weight, (int, float)) \
                or not 0 <= thread_weight <= 1:
            raise ValueError(f"thread_weight must be a number in [0, 1] (the share of a neighbour's keyword "
                             f"score; 0: no thread context), got {thread_weight!r}")
        self.thread_window, self.thread_weight = thread_window, float(thread_weight)  # search settings, like fusion
        # An embedder that cannot know its width up front (an unknown server model) is asked once.
        self.dim = self.embedder.dim or self.embedder.embed(["dimension probe"]).shape[1]
        self._file = MemoryFile(path, self.embedder.name, self.dim) if path is not None else None
        self._stale = False  # a write or load was cut short: repair before the next use (see _applying)
        self._undo: tuple[int, int] | None = None  # in process: how to undo the write that was cut short
        self._reset()
        self._sync()

    def _reset(self) -> None:
        # every memory this copy holds (memory_rows.py)
        self._memories = MemoryRows(self.dim, self._stemming)
        self._deletes_seen: int | None = None  # the file's delete counter when we last loaded

    # ------------------------------------------------------------ writing

    def store(self, text: str, metadata: Metadata | None = None) -> str:
        """Store one text with its metadata and return its new id."""
        return self.store_many([text], [metadata])[0]

    def store_many(self, texts: Sequence[str], metadatas: Sequence[Metadata | None] | None = None) -> list[str]:
        """Store a batch with one transaction; return the new ids in order. Nothing is stored if any text fails.

        Texts are embedded in steps of ``BATCH`` (a progress bar shows from ``PROGRESS_FROM`` texts), all of
        them before the first is stored, so an embedder that fails halfway leaves the memory as it was.
        """
        texts, checked = check_batch(texts, metadatas)
        if not texts:
            return []
        vectors = np.concatenate([self._embed(texts[start:stop]) for start, stop in _steps(len(texts), "embedding")])
        self._sync()
        with self._applying(undo=(self._memories.used, self._memories.last_seq), small=len(texts) <= BATCH):
            if self._file is None:
                first = self._memories.last_seq + 1
                for start, stop in _steps(len(texts), "indexing"):
                    self._memories.append(range(first + start, first + stop), texts[start:stop],
                                          checked[start:stop], vectors[start:stop])
                return [make_memory_id(seq) for seq in range(first, first + len(texts))]
            seqs = self._file.insert(list(zip(texts, checked, vectors)))
            self._load()
        return [make_memory_id(seq) for seq in seqs]

    def store_if_absent(self, text: str, metadata: Metadata | None = None) -> tuple[str, bool]:
        """Store ``text`` unless a current memory holds exactly this text; return ``(id, stored)``.

        ``stored`` is False, and ``id`` the existing memory's, when one does. On a file the look and the
        insert share one write transaction, so two processes storing the same fact at once store it once.
        The look is exact string equality (``write_conflicts.py`` judges near-duplicates before this).
        """
        (text,), (metadata,) = check_batch([text], [metadata])
        vector = self._embed([text])
        self._sync()
        with self._applying(undo=(self._memories.used, self._memories.last_seq)):
            if self._file is None:
                found = self._current_with_text(text)
                if found is not None:
                    return found, False
                seq = self._memories.last_seq + 1
                self._memories.append([seq], [text], [metadata], vector)
                return make_memory_id(seq), True
            found = self._current_with_text(text)
            seq, stored = self._file.insert_unless_present(
                (text, metadata, vector[0]), (self._memories.last_seq, self._deletes_seen, found and seq_of(found)))
            self._load()
        return make_memory_id(seq), stored

    def _current_with_text(self, text: str) -> str | None:
        memories = self._memories
        if text not in memories.texts:  # a scan in C; the row loop only when there is a match
            return None
        rows = [row for row in range(memories.used) if memories.texts[row] == text and memories.current[row]]
        return self._memories.record(rows[0]).id if rows else None

    def delete(self, memory_id: str) -> bool:
        """Delete one memory; return whether it existed. Its id is never handed out again.

        An older version of a fact is cut out of its chain. The current version of a fact with history
        is refused (``ValueError``, nothing changed), since its predecessor would become current again:
        ``forget`` removes the fact with every version, ``supersede`` corrects it.
        """
        seq = seq_of(memory_id)
        if seq is None:
            return False
        self._sync()
        row = self._memories.row_of(seq)
        record = self._memories.record(row) if row is not None else None
        if record is not None and record.superseded_by is None and record.supersedes is not None:
            raise revival_refusal(memory_id, record.supersedes)
        with self._applying():
            if self._file is None:
                if row is not None:
                    self._memories.remove(row)
                return row is not None
            existed, deletes_before = self._file.delete(seq)
            if existed and row is not None and deletes_before == self._deletes_seen:
                self._memories.remove(row)
                self._deletes_seen = deletes_before + 1
            else:  # someone else changed the file meanwhile: reload rather than guess
                self._load()
        return existed

    def forget(self, memory_id: str) -> list[str]:
        """Remove the fact ``memory_id`` belongs to with its whole history; return the ids removed, oldest first.

        Every version of the chain goes (``[]`` for an id that is not stored). On a file the rows' bytes are
        overwritten with zeros (``secure_delete``) and the write-ahead log is folded in and truncated, so the
        texts are in no file of the memory afterwards (``ForgetIncomplete`` if another open copy's read
        kept part of the log: the memory is forgotten, the log is folded when that copy closes). Copies of
        the text elsewhere are not touched: the conversation log (``ConversationLog.forget_turns_with``),
        backups, the model's context.
        """
        seq = seq_of(memory_id)
        if seq is None:
            return []
        chain = [seq_of(record.id) for record in self.history(memory_id)]  # syncs; read again on a file, below
        with self._applying():
            if self._file is None:
                self._memories.remove_chain([self._memories.row_of(s) for s in chain])
            else:
                chain, deletes_before = self._file.forget(seq)
                rows = [self._memories.row_of(s) for s in chain]
                if chain and None not in rows and deletes_before == self._deletes_seen:
                    self._memories.remove_chain(rows)
                    self._deletes_seen = deletes_before + 1
                else:
                    self._load()
        if chain and self._file is not None:
            self._file.fold_log()
        return [make_memory_id(s) for s in chain]

    def supersede(self, old_id: str, text: str, metadata: Metadata | None = None, *, at: str | None = None) -> str:
        """Store ``text`` as the memory that replaces ``old_id`` and return its id; the old one stays as history.

        ``metadata`` defaults to the old memory's; ``at`` (ISO 8601, default now)
        is when the old one stopped being current. ``ValueError``, with nothing
        changed, if ``old_id`` is unknown or already superseded.
        """
        self._sync()
        seq = seq_of(old_id)
        row = self._memories.row_of(seq) if seq is not None else None
        if row is None:
            raise ValueError(f"there is no memory {old_id!r} to supersede; search memory for the current id")
        old = self._memories.record(row)
        if old.superseded_by is not None:
            raise ValueError(f"{old_id} was already superseded by {old.superseded_by}; "
                             f"supersede {old.superseded_by}, the current version, instead")
        text, at = check_text(text), check_moment(at)
        metadata = check_metadata(dict(old.metadata) if metadata is None else metadata)
        vector = self._embed([text])
        with self._applying(undo=(self._memories.used, self._memories.last_seq)):
            if self._file is None:
                new_seq = self._memories.last_seq + 1
                # The old row's link first: a supersede cut short then leaves a link to nothing, which
                # MemoryRows.rebuilt drops (the write undone), never two current versions.
                self._memories.set_links(seq, (make_memory_id(new_seq), at, old.supersedes))
                self._memories.append([new_seq], [text], [metadata], vector, [(None, None, old_id)])
                self._memories.mark_superseded(seq, make_memory_id(new_seq), at)
                return make_memory_id(new_seq)
            new_seq, changes_before = self._file.supersede(seq, (text, metadata, vector[0]), at)
            if changes_before == self._deletes_seen:  # nobody else rewrote a row meanwhile: update our copy
                self._deletes_seen = changes_before + 1
                self._memories.mark_superseded(seq, make_memory_id(new_seq), at)
            self._load()  # loads the new row (or everything, if someone else changed old rows)
        return make_memory_id(new_seq)

    @contextmanager
    def _applying(self, undo: tuple[int, int] | None = None, small: bool = True) -> Iterator[None]:
        """The apply phase of a write: timeouts and Ctrl-C held back (``small`` writes only: a bulk store
        stays interruptible), and the copy marked stale until it is whole again. A write cut short by any
        exception is repaired on the next call: reloaded from the file, or, in process, rebuilt from the
        rows' data with a cut store or supersede undone (``undo``: rows and last number before it)."""
        with deferred_signals(small):
            self._undo, self._stale = undo if self._file is None else None, True
            yield
            self._stale = False

    def _embed(self, texts: list[str]) -> np.ndarray:
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        if vectors.shape != (len(texts), self.dim):
            raise ValueError(f"embedder {self.embedder.name!r} returned shape {vectors.shape} for {len(texts)} "
                             f"texts; this memory holds {self.dim}-d vectors")
        if not np.isfinite(vectors).all():
            raise ValueError(f"embedder {self.embedder.name!r} returned NaN or infinite values")
        return normalize(vectors)  # embedders promise unit rows; a custom one that forgets still works

    def _sync(self, force: bool = False) -> None:
        """Repair a copy a cut write left stale; load what other processes committed to the file."""
        if self._file is None:
            if self._stale:  # one statement: a repair cut short is simply done again
                self._memories, self._stale, self._undo = self._memories.rebuilt(self._undo), False, None
        elif self._stale:
            self._reset()
            self._load()
        elif force or self._file.changed():
            self._load()

    def _load(self) -> None:
        """Read the rows the copy lacks (all of them, if anything was deleted or rewritten); the copy is stale
        until they are all in."""
        self._stale = True
        reload, rows, deletes = self._file.read_changes(self._memories.last_seq, self._deletes_seen)
        if reload:
            self._reset()
        for start, stop in _steps(len(rows), "loading memories"):
            batch = rows[start:stop]
            links = [(make_memory_id(row.superseded_by) if row.superseded_by else None, row.superseded_at,
                      make_memory_id(row.supersedes) if row.supersedes else None) for row in batch]
            self._memories.append([row.seq for row in batch], [row.text for row in batch],
                                  [row.metadata for row in batch], np.stack([row.vector for row in batch]), links)
        self._deletes_seen, self._stale = deletes, False

    # ------------------------------------------------------------ reading

    def search(self, query: str, top_k: int = 3, *, include_history: bool = False,
               thread_context: bool = True) -> list[Hit]:
        """Return up to ``top_k`` memories, best fused score first, with every score that placed them.

        Only current memories unless ``include_history=True``, which ranks superseded ones too. A thread
        memory's ``bm25`` includes its neighbours' share unless ``thread_context=False``, which ranks
        every memory by its own words alone (as the write-time conflict check needs).
        """
        query = check_text(query, "query")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a whole number >= 1, got {top_k!r}")
        self._sync()
        memories = self._memories
        if not memories.count:
            return []
        # The one place that says which rows a search must skip: deleted ones, and superseded ones unless asked.
        excluded = ~(memories.live if include_history else memories.current)[: memories.used]
        # Cosine of every row: one matrix-vector product (rows are unit vectors). Via einsum, not `@`: BLAS hands
        # a product this size to worker threads, and on a busy machine waking them takes longer than the sum.
        cosine = np.einsum("ij,j->i", memories.matrix[: memories.used], self._embed([query])[0])
        tokens = tokenize(query, self.stopwords, self._stemming)
        bm25 = memories.bm25_scores(tokens)  # per row; 0 = no word in it
        if thread_context:  # before rows are skipped: only current turns lend their scores (thread_context.py)
            bm25 = memories.with_thread_context(bm25, tokens, self.thread_window, self.thread_weight)
        cosine[excluded], bm25[excluded] = -np.inf, 0.0  # skipped rows: ranked last, no keyword evidence
        # Only rows that can still reach the top_k (exact_top_k.py), and ranks where they are already known.
        if isinstance(self.fusion, RRF):  # the fast path: RRF needs the ranks, and gets them exact
            rows, vector_rank, keyword_rank = rrf_contenders(cosine, bm25, top_k, self.fusion.k)
            fused = fused_scores([vector_rank, keyword_rank], self.fusion.k)
        elif isinstance(self.fusion, ConvexFusion):
            rows, fused, vector_rank, keyword_rank = score_contenders(cosine, bm25, top_k, self.fusion.fuse)
        else:  # a fusion we know nothing about: fuse every row, as one call on the whole arrays
            rows = np.flatnonzero(~excluded)
            fused = self.fusion.fuse(cosine[rows], bm25[rows])
            vector_rank, keyword_rank = ranks(cosine[rows]), ranks(bm25[rows], np.flatnonzero(bm25[rows] > 0))
        # Best fused score first; equal scores by vector rank, i.e. higher cosine, then the older memory.
        best = np.lexsort((rows, -cosine[rows], -fused))[:top_k]
        rows, fused = rows[best], fused[best]
        vector_rank = complete_ranks(cosine, rows, vector_rank[best], -np.inf)
        keyword_rank = complete_ranks(bm25, rows, keyword_rank[best], 0.0)
        records = [self._memories.record(row) for row in rows]
        return [Hit(r.id, r.text, r.metadata, float(score), float(cosine[row]), float(bm25[row]), vector, keyword,
                    r.superseded_by, r.supersedes)
                for r, row, score, vector, keyword in zip(records, rows, fused, vector_rank, keyword_rank)]

    def tune(self, labelled: Sequence[tuple[str, Sequence[str]]], k: int = 5,
             weights: Sequence[float] = tuple(w / 10 for w in range(11))) -> dict[float, float]:
        """Pick the convex fusion weight that finds the most labelled answers in the top ``k``; return every score.

        ``labelled`` is ``[(query, [ids of the memories that answer it]), …]`` from your own use. Each
        query is searched once; every weight re-fuses the same cosine and BM25 scores, and the one
        with the highest mean recall@k becomes ``self.fusion`` (ties go to the weight nearer 0.5,
        then the smaller). Returns ``{weight: mean recall@k}``. Tune on examples you will not judge
        the result on. The choice lives in this object only; a reopened file starts from the default.
        """
        labelled, weights = self._checked_labels(labelled), _checked_weights(weights)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a whole number >= 1 (how many top hits count), got {k!r}")
        scores = {float(w): 0.0 for w in weights}
        for query, relevant in labelled:
            hits = self.search(query, top_k=max(len(self), 1))
            cosine, bm25 = np.array([h.cosine for h in hits]), np.array([h.bm25 for h in hits])
            vector_rank, wanted = np.array([h.vector_rank for h in hits]), set(relevant)
            for weight in scores:
                fused = ConvexFusion(weight).fuse(cosine, bm25)
                top = np.lexsort((vector_rank, -fused))[:k]  # the order search() would return
                scores[weight] += len(wanted & {hits[i].id for i in top}) / len(wanted) / len(labelled)
        best = max(scores, key=lambda w: (round(scores[w], 12), -abs(w - 0.5), -w))
        self.fusion = ConvexFusion(best)
        return scores

    def _checked_labels(self, labelled: object) -> list[tuple[str, list[str]]]:
        """``labelled`` as a list of (query, [ids of current memories]), or ``ValueError`` saying which pair is wrong."""
        if isinstance(labelled, (str, bytes)) or not isinstance(labelled, Sequence) or not labelled:
            raise ValueError("tune needs a non-empty list of (query, [relevant memory ids]) pairs")
        for n, pair in enumerate(labelled):
            if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise ValueError(f"labelled[{n}] must be a (query, [relevant memory ids]) pair, got {pair!r}")
            query, relevant = pair
            check_text(query, f"query of labelled[{n}]")
            if isinstance(relevant, (str, bytes)) or not isinstance(relevant, Sequence) or not relevant:
                raise ValueError(f"tune needs a non-empty list of memory ids such as ['mem_0001'] in labelled[{n}], "
                                 f"got {relevant!r}")
            for memory_id in relevant:
                record = self.get(memory_id) if isinstance(memory_id, str) else None
                if record is None or record.superseded_by is not None:
                    why = "is not in this memory" if record is None else f"was superseded by {record.superseded_by}"
                    raise ValueError(f"labelled[{n}] names {memory_id!r}, which {why}; label current memories only")
        return [(query, list(relevant)) for query, relevant in labelled]

    @property
    def stemming(self) -> bool:
        """Whether BM25 matches word stems (fixed when the memory is made: its index is built that way)."""
        return self._stemming

    @property
    def rrf_k(self) -> int | None:
        """The RRF constant when this memory fuses by RRF, else ``None``."""
        return self.fusion.k if isinstance(self.fusion, RRF) else None

    def list_all(self) -> list[MemoryRecord]:
        """Every stored memory, oldest first."""
        self._sync()
        return [self._memories.record(row) for row in np.flatnonzero(self._memories.live[: self._memories.used])]

    def get(self, memory_id: str) -> MemoryRecord | None:
        """The memory with this id, or ``None``."""
        seq = seq_of(memory_id)
        self._sync()
        row = self._memories.row_of(seq) if seq is not None else None
        return self._memories.record(row) if row is not None else None

    def __len__(self) -> int:
        self._sync()
        return self._memories.count

    def close(self) -> None:
        """Close the SQLite file, if any; everything stored is already on disk."""
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> HybridMemory:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = f", path={str(self._file.path)!r}" if self._file is not None else ""
        return f"<HybridMemory {self._memories.count} memories, embedder={self.embedder.name!r}{where}>"


def _checked_weights(weights: object) -> list[float]:
    """``weights`` for ``tune``: a non-empty sequence of numbers in [0, 1], else ``ValueError``."""
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence) or not weights:
        raise ValueError(f"weights must be a non-empty list of numbers in [0, 1], such as [0.3, 0.5, 0.7]; "
                         f"got {weights!r}")
    for weight in weights:
        if isinstance(weight, bool) or not isinstance(weight, (int, float, np.floating)) or not 0 <= weight <= 1:
            raise ValueError(f"each weight must be a number in [0, 1] (the share of cosine), got {weight!r}")
    return [float(w) for w in weights]


def _steps(count: int, what: str) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` steps of ``BATCH`` over ``count`` items, with a progress bar for big jobs.

    tqdm's auto mode draws a widget in a notebook and text in a terminal. In a notebook the bar is on (someone
    is watching the cell); elsewhere ``disable=None`` turns it off unless stderr is a terminal (CI, pipes, logs).
    """
    steps = [(start, min(start + BATCH, count)) for start in range(0, count, BATCH)]
    if count < PROGRESS_FROM:
        yield from steps
        return
    from tqdm.auto import tqdm  # only now: importing it loads ipywidgets in a notebook

    ipython = sys.modules.get("IPython")
    in_notebook = ipython is not None and type(ipython.get_ipython()).__name__ == "ZMQInteractiveShell"
    with tqdm(total=count, desc=what, unit=" memories", disable=False if in_notebook else None) as bar:
        for start, stop in steps:
            yield start, stop
            bar.update(stop - start)
