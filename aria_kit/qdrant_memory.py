"""Memory on a real vector database: ``QdrantMemory`` (the going-further lesson on Qdrant).

The same ``MemoryBackend`` as ``HybridMemory``, with Qdrant as the engine. Each
memory is one point of one collection: a dense vector ``dense`` from the same
embedder (cosine), a sparse vector ``bm25``, and a payload with our id, the text
and the metadata. Qdrant ids must be integers or UUIDs, so point id = the number
in ``mem_0042``; point 0, with no vectors, is a ledger of the settings and the
last number handed out (so numbers of deleted memories are never reused).

The sparse vector is BM25's term-frequency part with a fixed ``AVGDL`` (``bm25_vectors.py``); the
collection's IDF modifier makes the engine multiply in the IDF at query time.

Search is hybrid *inside the engine*: one request batch asks for the RRF fusion
of the best ``candidates`` points by each vector (k = 61 on positions from 0,
i.e. the kit's k = 60) and for each retriever's candidate list with scores. The
engine adds in float32 and orders ties its own way, so the ranking is settled
here, on the candidate lists: ties older memory first, as ``HybridMemory`` ranks
them, RRF in float64; the engine's fused answer (``top_k + MARGIN`` hits) brings
the payloads. The ``cosine``, ``bm25`` and ranks every hit shows come from the lists.

Embedded, with no server (``location=":memory:"``, or ``path=`` a folder that one
memory at a time may open), it is Qdrant's own engine in this process, Qdrant
Edge; against a server or cluster (``url=`` or ``ARIA_QDRANT_URL``) the same
engine over HTTP, through qdrant-client. See docs/qdrant.md.
Differences from ``HybridMemory``: it fuses by RRF (k = 60) only, not by ``HybridMemory()``'s default
convex fusion of scores. By default it keeps every query word as written, like
``HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)``; ``stopwords=`` and
``stemming=`` work as ``HybridMemory``'s do (stemming is recorded in the ledger, because the stored
vectors hold stems), so ``QdrantMemory(stopwords=STOPWORDS, stemming=True)`` searches like
``HybridMemory(fusion=RRF(60))``. Fusion sees each retriever's top
``candidates``, not full rankings (the same while the memory holds fewer); BM25 uses
``AVGDL``; the engine scores in float32, so scores that differ only past the 7th digit
may tie, and a tie at the edge of a candidate list is cut the engine's way. Where the
points live, and how each engine is driven: ``qdrant_engines.py``, ``qdrant_server.py``.

Superseding (lesson 10) lives in the payload: the old point gets
``superseded_by`` and ``superseded_at``, the new one ``supersedes``, and
default search filters on "``superseded_by`` is empty", so collections written
before superseding existed need no migration. Qdrant has no transactions: the
ledger notes the supersede as pending, the new point is written, the old one
is marked, and the note is cleared; a crash in between leaves the new point
pointing back, never a lost version, and the next open finishes the link. Deleting works as in
``HybridMemory`` (the current version of a fact with history is refused); ``forget`` deletes a whole
chain and has an Edge shard rewritten without it (``EdgeEngine.purge``), so its text is in no file.
Not here: sharding, snapshots, quantisation.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aria_kit.bm25 import tokenize
from aria_kit.bm25_vectors import AVGDL, SPARSE_SCHEME, document_vector, query_vector, term_index  # noqa: F401
from aria_kit.embeddings import default_embedder
from aria_kit.memory_rules import check_batch, check_metadata, check_moment, check_text, seq_of
from aria_kit.memory_rules import make_memory_id
from aria_kit.interfaces import Embedder, Hit, MemoryBackend, MemoryRecord, Metadata
from aria_kit.persistence import revival_refusal
from aria_kit.qdrant_engines import DENSE, RRF_K, SPARSE, Nearest, Point
from aria_kit.qdrant_server import open_engine

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

LEDGER = 0
BATCH = 256  # points per request: far below a server's 32 MB request limit
MARGIN = 10  # fused hits asked of the engine beyond top_k, so their payloads come with them (see search)
CURRENT_UNLESS = "superseded_by"
PENDING = "pending_supersede"  # in the ledger: [old id, new id, at] of a supersede until both its writes are done  # a memory is current while this payload field is empty


class QdrantMemory(MemoryBackend):
    """Hybrid memory on Qdrant: dense + sparse BM25 vectors, fused with RRF by the engine.

    ``location`` (":memory:"), ``path`` (a folder) or ``url`` (a server) says
    where the memory lives; with none of them, ``ARIA_QDRANT_URL`` if set, else
    ":memory:". Embedded (":memory:", ``path``) runs Qdrant's engine in this
    process (Qdrant Edge); a server is the same engine over HTTP. Or pass a ready
    qdrant-client ``client`` (your gRPC, TLS or timeout settings). ``candidates``
    is how many points each retriever hands to the fusion. ``engine`` is where
    the points are read and written (``memory.engine.retrieve([3], vectors=True)``).
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        location: str | None = None,
        url: str | None = None,
        path: str | Path | None = None,
        collection: str = "aria_memory",
        api_key: str | None = None,
        client: QdrantClient | None = None,
        candidates: int = 100,
        stopwords: Collection[str] = (),
        stemming: bool = False,
    ) -> None:
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a whole number >= 1, got {candidates!r}")
        self.embedder = embedder if embedder is not None else default_embedder()
        # an embedder that cannot know its width up front (an unknown server model) is asked once
        self.dim = self.embedder.dim or self.embedder.embed(["dimension probe"]).shape[1]
        self.collection, self.candidates = collection, candidates
        self.stopwords = frozenset(stopwords)  # dropped from queries only, as in HybridMemory
        self._stemming = bool(stemming)  # fixed for the collection: its sparse vectors hold stems or words
        self.engine = open_engine(location, url, path, client, api_key, collection, self.dim, indexed=CURRENT_UNLESS)
        self.where = self.engine.where
        try:
            self._next_number = self._open_collection() + 1
        except Exception:
            if client is None:  # ours to close: a refused folder must not stay locked by this process
                self.engine.close()
            raise

    def _open_collection(self) -> int:
        """Write the ledger into a new collection, refuse one written with other settings; return the last number."""
        sparse = SPARSE_SCHEME + (" stems=snowball-english" if self._stemming else "")  # words: as before stems
        settings = {"embedder": self.embedder.name, "dim": self.dim, "sparse": sparse}
        if self.engine.created:
            self.engine.insert([Point(LEDGER, {"aria_ledger": 1, **settings, "last_number": 0}, vectors={})])
        found = self.engine.retrieve([LEDGER])
        ledger = found[0].payload if found else {}
        if not ledger.get("aria_ledger"):
            raise ValueError(f"collection {self.collection!r} exists but was not made by QdrantMemory; "
                             "pass another collection= name or delete that collection.")
        if {key: ledger.get(key) for key in settings} != settings:
            raise ValueError(f"collection {self.collection!r} was written with other settings "
                             f"({ {key: ledger.get(key) for key in settings} }, not {settings}); open it with "
                             "the same embedder, or pass another collection= name.")
        if ledger.get(PENDING):  # a supersede that a crash cut between its two writes: finish it now
            old_id, new_id, at = ledger[PENDING]
            old, new = self.get(old_id), self.get(new_id)
            if old is not None and new is not None and old.superseded_by is None and new.supersedes == old_id:
                self.engine.set_payload([seq_of(old_id)], {"superseded_by": new_id, "superseded_at": at})
            self.engine.set_payload([LEDGER], {PENDING: None})
        return int(ledger["last_number"])

    @property
    def stemming(self) -> bool:
        """Whether BM25 matches word stems (fixed for the collection: its stored vectors hold them)."""
        return self._stemming

    def close(self) -> None:
        """Release the engine (for ``path=``, the folder's lock, so another process may open it)."""
        self.engine.close()

    # ------------------------------------------------------------ writing

    def store(self, text: str, metadata: Metadata | None = None) -> str:
        """Store one text with its metadata and return its new id."""
        return self.store_many([text], [metadata])[0]

    def store_many(self, texts: Sequence[str], metadatas: Sequence[Metadata | None] | None = None) -> list[str]:
        """Store a batch with one embedding call; every item is checked before anything is written."""
        texts, metadatas = check_batch(texts, metadatas)
        if not texts:
            return []
        payloads = [{"text": text, "metadata": metadata} for text, metadata in zip(texts, metadatas)]
        return [make_memory_id(number) for number in self._claim(self._vectors(texts), payloads)]

    def _vectors(self, texts: list[str]) -> list[dict[str, Any]]:
        """Each text's point vectors: its embedding (one call for all) and its BM25 sparse vector."""
        return [{DENSE: row.tolist(), SPARSE: document_vector(tokenize(text, stem=self._stemming))}
                for text, row in zip(texts, self.embedder.embed(texts))]

    def _claim(self, vectors: list[dict[str, Any]], payloads: list[dict[str, Any]],
               supersedes: tuple[str, str] | None = None) -> list[int]:
        """Insert each point at the next free number; return the numbers, in input order.

        Several processes may write to one server and Qdrant has no transactions,
        so numbers are claimed optimistically: skip numbers already taken, insert
        with ``insert_only`` (never overwriting) tagged with this call's ``writer``
        token, read the tokens back, and retry whatever another writer got first.
        Each batch's numbers are written to the ledger *before* its points (with ``supersedes``, the
        ``(old id, at)`` of a supersede, as pending), so a crash in between leaves a gap, never a number
        that a later store could hand out again once its point is deleted.
        """
        writer, numbers, pending = uuid.uuid4().hex, {}, list(range(len(vectors)))
        while pending:
            batch = dict(zip(range(self._next_number, self._next_number + BATCH), pending))  # number -> item
            taken = self.engine.retrieve(list(batch), payload=False)
            if taken:  # our counter is stale: another writer got there first
                self._next_number = max(p.id for p in taken) + 1
                continue
            intent = {PENDING: [supersedes[0], make_memory_id(min(batch)), supersedes[1]]} if supersedes else {}
            self.engine.set_payload([LEDGER], {"last_number": max(self._last_number(), max(batch)), **intent})
            self.engine.insert([Point(n, {"memory_id": make_memory_id(n), **payloads[i], "writer": writer},
                                      vectors=vectors[i]) for n, i in batch.items()])
            mine = self.engine.retrieve(list(batch), payload=["writer"])
            numbers.update((batch[p.id], p.id) for p in mine if p.payload.get("writer") == writer)
            pending = [i for i in pending if i not in numbers]
            self._next_number = max(batch) + 1
        return [numbers[i] for i in range(len(vectors))]

    def _last_number(self) -> int:
        found = self.engine.retrieve([LEDGER], payload=["last_number"])
        return int(found[0].payload.get("last_number", 0)) if found else 0

    def delete(self, memory_id: str) -> bool:
        """Delete one memory; return whether it existed. Its id is never handed out again.

        An older version of a fact is cut out of its chain; the current version of a fact with history is
        refused (``ValueError``: its predecessor would be current again), as in ``HybridMemory``: ``forget`` it.
        """
        gone = self.get(memory_id)
        if gone is None:
            return False
        if gone.superseded_by is None and gone.supersedes is not None and self.get(gone.supersedes) is not None:
            raise revival_refusal(memory_id, gone.supersedes)
        self.engine.delete([seq_of(memory_id)])
        if gone.supersedes is not None and self.get(gone.supersedes) is not None:  # a neighbour may be gone
            self.engine.set_payload([seq_of(gone.supersedes)], {"superseded_by": gone.superseded_by})
        if gone.superseded_by is not None and self.get(gone.superseded_by) is not None:
            self.engine.set_payload([seq_of(gone.superseded_by)], {"supersedes": gone.supersedes})
        return True

    def forget(self, memory_id: str) -> list[str]:
        """Remove the fact ``memory_id`` belongs to with its whole history; return the ids removed, oldest first.

        The points go in one delete; then an Edge shard is rewritten without them (``purge``: O(memories)),
        so their texts are in no file under its folder. On a server the points are gone at once, and the
        server's own files are its business (its optimizer and write-ahead log: docs/qdrant.md).
        """
        chain = [record.id for record in self.history(memory_id)]
        if chain:
            self.engine.delete([seq_of(i) for i in chain])
            self.engine.purge()
        return chain

    def supersede(self, old_id: str, text: str, metadata: Metadata | None = None, *, at: str | None = None) -> str:
        """Store ``text`` as the memory that replaces ``old_id`` and return its id; the old one stays as history."""
        old = self.get(old_id)
        if old is None:
            raise ValueError(f"there is no memory {old_id!r} to supersede; search memory for the current id")
        if old.superseded_by is not None:
            raise ValueError(f"{old_id} was already superseded by {old.superseded_by}; "
                             f"supersede {old.superseded_by}, the current version, instead")
        text, at = check_text(text), check_moment(at)
        metadata = check_metadata(dict(old.metadata) if metadata is None else metadata)
        (number,) = self._claim(self._vectors([text]), [{"text": text, "metadata": metadata, "supersedes": old_id}],
                                supersedes=(old_id, at))
        self.engine.set_payload([seq_of(old_id)], {"superseded_by": make_memory_id(number), "superseded_at": at})
        self.engine.set_payload([LEDGER], {PENDING: None})
        return make_memory_id(number)

    # ------------------------------------------------------------ reading

    def search(self, query: str, top_k: int = 3, *, include_history: bool = False) -> list[Hit]:
        """Return up to ``top_k`` hits, best fused score first, each with its cosine, BM25 and ranks.

        Only current memories unless ``include_history=True``, which ranks superseded ones too.
        """
        query = check_text(query, "query")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a whole number >= 1, got {top_k!r}")
        limit = max(self.candidates, top_k)
        sparse = query_vector(tokenize(query, self.stopwords, self._stemming))
        retrievers = [Nearest(DENSE, self.embedder.embed([query])[0].tolist())]
        retrievers += [Nearest(SPARSE, sparse)] if sparse.indices else []  # no words, no keyword ranking
        # The engine fuses in float32 and orders ties its own way, so the ranking is settled here, on the two
        # candidate lists; the engine's fused answer (top_k + MARGIN hits) supplies the payloads.
        best, candidate_lists = self.engine.hybrid(retrievers, limit, top_k + MARGIN,
                                                   None if include_history else CURRENT_UNLESS)
        scores, ranks, fused = [{}, {}], [{}, {}], {}  # per retriever: id -> score, id -> rank; id -> RRF score
        for listed, score, rank in zip(candidate_lists, scores, ranks):
            listed = sorted(listed, key=lambda p: (-p.score, p.id))  # equal scores: older memory first, as in
            score.update((p.id, p.score) for p in listed)  # HybridMemory (the engine's order changes between runs)
            rank.update((p.id, r) for r, p in enumerate(listed, start=1))
            for point_id, r in rank.items():  # the kit's RRF: k = 60 on ranks from 1, in float64, vector term first
                fused[point_id] = fused.get(point_id, 0.0) + 1.0 / (RRF_K - 1 + r)
        # equal fused scores as HybridMemory orders them: the higher cosine (vector rank) first, then the older memory
        chosen = sorted(fused, key=lambda i: (-fused[i], ranks[0].get(i, limit + 1), i))[:top_k]
        payloads = {p.id: p.payload for p in best}
        late = [i for i in chosen if i not in payloads]  # only when ties outnumber the margin
        payloads.update((p.id, p.payload) for p in (self.engine.retrieve(late) if late else []))
        for retriever, listed, score in zip(retrievers, candidate_lists, scores):
            beyond = [i for i in chosen if i not in score]
            if beyond and len(listed) == limit:  # ranked beyond the cut: fetch just their scores
                score.update((p.id, p.score) for p in self.engine.scores(retriever, beyond))
        return [Hit(payloads[i]["memory_id"], payloads[i]["text"], payloads[i]["metadata"], fused[i],
                    scores[0].get(i, 0.0), scores[1].get(i, 0.0), ranks[0].get(i), ranks[1].get(i),
                    payloads[i].get("superseded_by"), payloads[i].get("supersedes")) for i in chosen]

    def list_all(self) -> list[MemoryRecord]:
        """Every stored memory, oldest first (scrolled a page at a time)."""
        return [_record(p.payload) for p in sorted(self.engine.scroll(LEDGER, BATCH), key=lambda p: p.id)]

    def get(self, memory_id: str) -> MemoryRecord | None:
        """The memory with this id, or ``None`` (also for strings that are not memory ids)."""
        number = seq_of(memory_id)
        found = self.engine.retrieve([number]) if number is not None else []
        return _record(found[0].payload) if found else None

    def __len__(self) -> int:
        return self.engine.count(LEDGER)

    def __repr__(self) -> str:
        return f"<QdrantMemory {self.collection!r} at {self.where}, embedder={self.embedder.name!r}>"


def _record(payload: dict[str, Any]) -> MemoryRecord:
    return MemoryRecord(payload["memory_id"], payload["text"], dict(payload["metadata"]), payload.get("superseded_by"),
                        payload.get("superseded_at"), payload.get("supersedes"))
