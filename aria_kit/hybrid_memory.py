"""HybridMemory: long-term memory searched by meaning and by keywords at once (lessons 04 and 09).

Each memory gets an id (``mem_0001``, …, ``mem_9999``, ``mem_10000``, …; never
reused), its text, metadata (``category`` defaults to "general") and a unit
embedding. ``search`` ranks every memory by cosine similarity (one
matrix–vector product over a contiguous float32 matrix) and by BM25 (an
incremental ``BM25Index``, with ``bm25.STOPWORDS`` dropped from the query), then
fuses the two with ``fusion`` (``fusion.DEFAULT_FUSION``: a convex combination of
normalised scores, weight 0.6 on cosine, chosen on the dev splits of the shipped
data sets; ``rrf_k=60`` or ``fusion=RRF(60)`` gives the seed's Reciprocal Rank
Fusion, and ``tune`` picks the weight on your own labelled queries). A memory with
BM25 score 0 shares no word with the query and is left out of the keyword ranking
rather than ranked last: no keyword evidence, no keyword credit (``keyword_rank``
is ``None``). Equal fused scores go to the better vector rank, equal cosines to
the older memory. ``QdrantMemory`` fuses as ``fusion=RRF(60), stopwords=()`` does;
``fusion`` and ``stopwords`` are settings of this object, not saved in the file.

Input rules (``ValueError`` otherwise): texts and queries are non-blank ``str``
of at most ``memory_rules.MAX_TEXT_BYTES`` of UTF-8, so a 1 MB text is rejected; emoji,
right-to-left scripts, combining marks and NUL are stored as given. Metadata
is a dict of str keys to JSON scalars.

Memory ``i`` lives in row ``i − 1`` of the matrix and slot ``i − 1`` of the BM25
index, and a deleted memory leaves an empty row, so an id finds its row
without a lookup table and a reopened file rebuilds the very same layout
(and bit-identical scores). With ``path=`` every change is
committed to SQLite (``persistence.py``) before the call returns, and what
other processes commit is picked up before each read. Not thread-safe: use one
instance per thread (they may share a file).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize
from aria_kit.embeddings import default_embedder, normalize
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion, Fusion, ranks
from aria_kit.interfaces import Embedder, Hit, MemoryBackend, MemoryRecord, Metadata
from aria_kit.memory_rules import check_batch, check_text, make_memory_id, seq_of
from aria_kit.persistence import MemoryFile

class HybridMemory(MemoryBackend):
    """Vector + BM25 memory, fused (``fusion=``), in process or backed by an SQLite file at ``path``."""

    def __init__(self, embedder: Embedder | None = None, path: str | Path | None = None, *, rrf_k: int | None = None,
                 fusion: Fusion | None = None, stopwords: Collection[str] = STOPWORDS) -> None:
        if rrf_k is not None and fusion is not None:
            raise ValueError("give either rrf_k (RRF with that constant) or fusion, not both")
        self.embedder = embedder if embedder is not None else default_embedder()
        self.fusion = RRF(rrf_k) if rrf_k is not None else fusion if fusion is not None else DEFAULT_FUSION
        self.stopwords = frozenset(stopwords)  # dropped from queries only, so the index never depends on them
        # An embedder that cannot know its width up front (an unknown server model) is asked once.
        self.dim = self.embedder.dim or self.embedder.embed(["dimension probe"]).shape[1]
        self._file = MemoryFile(path, self.embedder.name, self.dim) if path is not None else None
        self._reset()
        self._sync()

    def _reset(self) -> None:
        self._matrix = np.zeros((16, self.dim), dtype=np.float32)  # row = seq - 1; grows by doubling
        self._live = np.zeros(16, dtype=bool)
        self._records: list[MemoryRecord | None] = []  # row -> record; None for deleted memories
        self._bm25 = BM25Index()  # slot = row
        self._count = 0
        self._deletes_seen: int | None = None  # the file's delete counter when we last loaded

    # ------------------------------------------------------------ writing

    def store(self, text: str, metadata: Metadata | None = None) -> str:
        """Store one text with its metadata and return its new id."""
        return self.store_many([text], [metadata])[0]

    def store_many(self, texts: Sequence[str], metadatas: Sequence[Metadata | None] | None = None) -> list[str]:
        """Store a batch with one embedding call (and one transaction); return the new ids in order."""
        texts, checked = check_batch(texts, metadatas)
        if not texts:
            return []
        vectors = self._embed(texts)
        if self._file is None:
            first = len(self._records) + 1
            for offset, (text, metadata, vector) in enumerate(zip(texts, checked, vectors)):
                self._append(first + offset, text, metadata, vector)
            return [make_memory_id(first + offset) for offset in range(len(texts))]
        seqs = self._file.insert(list(zip(texts, checked, vectors)))
        self._sync(force=True)
        return [make_memory_id(seq) for seq in seqs]

    def delete(self, memory_id: str) -> bool:
        """Forget one memory; return whether it existed. Its id is never handed out again."""
        seq = seq_of(memory_id)
        if seq is None:
            return False
        self._sync()
        loaded = seq <= len(self._records) and self._records[seq - 1] is not None
        if self._file is None:
            if loaded:
                self._remove(seq - 1)
            return loaded
        existed, deletes_before = self._file.delete(seq)
        if existed and loaded and deletes_before == self._deletes_seen:
            self._remove(seq - 1)
            self._deletes_seen = deletes_before + 1
        else:  # someone else changed the file meanwhile: reload rather than guess
            self._sync(force=True)
        return existed

    def _embed(self, texts: list[str]) -> np.ndarray:
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        if vectors.shape != (len(texts), self.dim):
            raise ValueError(f"embedder {self.embedder.name!r} returned shape {vectors.shape} for {len(texts)} "
                             f"texts; this memory holds {self.dim}-d vectors")
        if not np.isfinite(vectors).all():
            raise ValueError(f"embedder {self.embedder.name!r} returned NaN or infinite values")
        return normalize(vectors)  # embedders promise unit rows; a custom one that forgets still works

    def _append(self, seq: int, text: str, metadata: Metadata, vector: np.ndarray) -> None:
        row = seq - 1
        while len(self._records) < row:  # a memory deleted before this copy saw it: its row stays empty
            self._records.append(None)
            self._bm25.remove(self._bm25.add(()))
        if row >= len(self._matrix):
            capacity = max(2 * len(self._matrix), row + 1)
            self._matrix = np.concatenate([self._matrix, np.zeros((capacity - len(self._matrix), self.dim), np.float32)])
            self._live = np.concatenate([self._live, np.zeros(capacity - len(self._live), dtype=bool)])
        self._matrix[row] = vector
        self._live[row] = True
        self._records.append(MemoryRecord(make_memory_id(seq), text, metadata))
        self._bm25.add(tokenize(text))
        self._count += 1

    def _remove(self, row: int) -> None:
        self._records[row] = None
        self._matrix[row] = 0.0
        self._live[row] = False
        self._bm25.remove(row)
        self._count -= 1

    def _sync(self, force: bool = False) -> None:
        """Load what other processes committed to the file (everything, if anything was deleted)."""
        if self._file is None or not (self._file.changed() or force):
            return
        reload, rows, deletes = self._file.read_changes(len(self._records), self._deletes_seen)
        if reload:
            self._reset()
        for row in rows:
            self._append(row.seq, row.text, row.metadata, row.vector)
        self._deletes_seen = deletes

    # ------------------------------------------------------------ reading

    def search(self, query: str, top_k: int = 3) -> list[Hit]:
        """Return up to ``top_k`` memories, best fused score first, with every score that placed them."""
        query = check_text(query, "query")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a whole number >= 1, got {top_k!r}")
        self._sync()
        if not self._count:
            return []
        rows = np.flatnonzero(self._live[: len(self._records)])
        # The matrix-vector product via einsum, not `@`: BLAS hands a product this size to worker threads,
        # and on a busy shared machine (Binder) waking them takes milliseconds, far longer than the sum.
        cosine = np.einsum("ij,j->i", self._matrix[: len(self._records)], self._embed([query])[0])[rows]
        bm25 = self._bm25.scores(tokenize(query, self.stopwords))[rows]
        vector_rank, keyword_rank = ranks(cosine), ranks(bm25, np.flatnonzero(bm25 > 0))
        fused = self.fusion.fuse(cosine, bm25)
        # Sort only the contenders: scores at or above the top_k-th best (ties at the cut included).
        cut = np.partition(fused, len(fused) - top_k)[len(fused) - top_k] if top_k < len(fused) else -np.inf
        best = np.flatnonzero(fused >= cut)
        order = best[np.lexsort((vector_rank[best], -fused[best]))][:top_k]  # by fused score, then vector rank
        records = [self._records[rows[i]] for i in order]
        return [Hit(r.id, r.text, dict(r.metadata), float(fused[i]), float(cosine[i]), float(bm25[i]),
                    int(vector_rank[i]), int(keyword_rank[i]) or None) for r, i in zip(records, order)]

    def tune(self, labelled: Sequence[tuple[str, Sequence[str]]], k: int = 5,
             weights: Sequence[float] = tuple(w / 10 for w in range(11))) -> dict[float, float]:
        """Pick the convex fusion weight that finds the most labelled answers in the top ``k``; return every score.

        ``labelled`` is ``[(query, [ids of the memories that answer it]), …]`` from your own use. Each
        query is searched once; every weight re-fuses the same cosine and BM25 scores, and the one
        with the highest mean recall@k becomes ``self.fusion`` (ties go to the weight nearer 0.5,
        then the smaller). Returns ``{weight: mean recall@k}``. Tune on examples you will not judge
        the result on. The choice lives in this object only; a reopened file starts from the default.
        """
        if not labelled or any(not relevant for _, relevant in labelled):
            raise ValueError("tune needs at least one (query, [relevant memory ids]) pair, each with an id")
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

    @property
    def rrf_k(self) -> int | None:
        """The RRF constant when this memory fuses by RRF, else ``None``."""
        return self.fusion.k if isinstance(self.fusion, RRF) else None

    def list_all(self) -> list[MemoryRecord]:
        """Every stored memory, oldest first."""
        self._sync()
        return [MemoryRecord(r.id, r.text, dict(r.metadata)) for r in self._records if r is not None]

    def get(self, memory_id: str) -> MemoryRecord | None:
        """The memory with this id, or ``None``."""
        seq = seq_of(memory_id)
        self._sync()
        record = self._records[seq - 1] if seq is not None and seq <= len(self._records) else None
        return MemoryRecord(record.id, record.text, dict(record.metadata)) if record is not None else None

    def __len__(self) -> int:
        self._sync()
        return self._count

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
        return f"<HybridMemory {self._count} memories, embedder={self.embedder.name!r}{where}>"
