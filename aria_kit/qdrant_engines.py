"""Where ``QdrantMemory``'s points live: Qdrant's engine in this process, or a Qdrant server.

``QdrantMemory`` needs few calls of a vector database: write points without
overwriting, read them by id, set payload fields, delete, count, scroll, and a
hybrid query (two nearest-neighbour prefetches fused by RRF, plus each
retriever's own candidate list). They are answered twice, on one engine:

- ``EdgeEngine``: Qdrant Edge (``qdrant_edge``), Qdrant's Rust engine running
  inside Python, no server. One shard per collection, in the folder
  ``path/<collection>``; without a path, a temporary folder removed on close.
  Edge locks the folder while a shard has it open (its write-ahead log), so a
  second open fails; we say which folder and what to do.
- ``ClientEngine`` (``qdrant_server.py``): qdrant-client against a Qdrant server
  or cluster (``url=``), or any ready ``QdrantClient`` (``client=``; its
  pure-Python local mode too).

``open_engine`` (in ``qdrant_server.py``, so that module imports this one and
never the reverse) picks one from ``QdrantMemory``'s arguments. Both take and
return the plain types below, so ``qdrant_memory.py`` names no engine type. Not here: ids, the ledger, superseding and BM25 weights (those are
the memory's rules, in ``qdrant_memory.py``); HNSW, quantisation, snapshots:
Edge segments are left unoptimised, so every search is exact.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import qdrant_edge as qe
except ImportError as exc:  # an optional extra: the core lessons never import this module
    raise ImportError("QdrantMemory needs qdrant-edge-py (Qdrant's engine, embedded): "
                      "pip install 'aria_kit[qdrant]'") from exc

from aria_kit.bm25_vectors import SparseVector

DENSE, SPARSE = "dense", "bm25"
# Qdrant (server, local mode and Edge alike) scores 1/(k + position) with positions from 0, so k = 61 is the
# kit's k = 60 on ranks from 1; tests/test_qdrant_memory.py checks it against reciprocal_rank_fusion
RRF_K = 61
MAX_COLLECTION_BYTES = 255  # a collection is a folder, and file systems cap a name at 255 bytes
NEVER_INDEX_KB = 10**9  # Edge builds an HNSW index for segments above this size; 1 TB: never


@dataclass
class Point:
    """One stored point as either engine returns it: id, payload, score (for query hits) and vectors (if asked)."""

    id: int
    payload: dict[str, Any] = field(default_factory=dict)
    score: float = 0.0
    vectors: dict[str, Any] | None = None


@dataclass(frozen=True)
class Nearest:
    """One retriever of a hybrid query: the named vector to search and the query vector."""

    using: str
    vector: list[float] | SparseVector


class EdgeEngine:
    """A collection as a Qdrant Edge shard in ``folder/<collection>`` (``folder=None``: a temporary folder).

    ``indexed``: a payload field that searches filter on, given a keyword index when the shard is created.
    """

    def __init__(self, folder: str | Path | None, collection: str, dim: int, indexed: str | None = None) -> None:
        if folder is None:
            temporary = tempfile.mkdtemp(prefix="aria-qdrant-")
            self._cleanup = weakref.finalize(self, shutil.rmtree, temporary, ignore_errors=True)
            folder, self.where = temporary, ":memory: (Qdrant Edge, a temporary folder)"
        else:
            self._cleanup, self.where = None, f"{folder} (Qdrant Edge)"
            if (Path(folder) / "meta.json").is_file() and (Path(folder) / "collection").is_dir():
                raise ValueError(f"{folder} was written by qdrant-client's local mode, not by Qdrant Edge; open it "
                                 "with QdrantMemory(client=QdrantClient(path=...)) (see docs/qdrant.md).")
        if not collection or collection in (".", "..") or any(c in collection for c in "/\\\0"):
            raise ValueError(f"collection={collection!r} names a folder inside path=; use a plain name such as "
                             "'aria_memory'")
        if len(collection.encode("utf-8")) > MAX_COLLECTION_BYTES:
            raise ValueError(f"collection= is {len(collection.encode('utf-8'))} bytes long; a folder name holds at "
                             f"most {MAX_COLLECTION_BYTES}: use a shorter name such as 'aria_memory'")
        if Path(folder).exists() and not Path(folder).is_dir():
            raise ValueError(f"path={str(folder)!r} is a file; QdrantMemory keeps its points in a folder: pass a "
                             "folder's path (it is created if missing), such as 'memory_qdrant'")
        self.folder = Path(folder) / collection
        _finish_purge(self.folder)
        self.created = not (self.folder / "edge_config.json").exists()
        _refuse_if_not_ours(self.folder, self.created)
        # never build an HNSW index (not even if someone calls optimize()), so search stays exact
        self._config, self._indexed = qe.EdgeConfig(vectors={DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
                               sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
                               optimizers=qe.EdgeOptimizersConfig(indexing_threshold=NEVER_INDEX_KB)), indexed
        try:
            self.shard = qe.EdgeShard.create(str(self.folder), self._config) if self.created else qe.EdgeShard.load(
                str(self.folder))
        except Exception as exc:  # Edge raises a bare Exception; say which folder and what to do
            if "WouldBlock" in str(exc):  # Edge's message for a write-ahead log another shard holds
                raise RuntimeError(f"{self.folder} is open in another QdrantMemory (in this process or "
                                   "another): close that one first (memory.close()), or pass another path=.") from exc
            raise ValueError(f"Qdrant Edge could not {'create' if self.created else 'open'} the collection folder "
                             f"{self.folder} ({exc}). Check that the folder is writable, or restore it from a backup, "
                             "or pass another path= or collection=.") from exc
        if self.created and indexed:  # a filter on an unindexed field reads every payload: 8x slower at 10,000
            self.shard.update(qe.UpdateOperation.create_field_index(indexed, qe.PayloadSchemaType.Keyword))

    def insert(self, points: list[Point]) -> None:
        """Write new points; a point whose id exists already is left as it was (insert-only)."""
        self.shard.update(qe.UpdateOperation.upsert_points(
            [qe.Point(p.id, {name: _edge_vector(v) for name, v in (p.vectors or {}).items()}, p.payload)
             for p in points], update_mode=qe.UpdateMode.InsertOnly))

    def retrieve(self, ids: list[int], payload: bool | list[str] = True, vectors: bool = False) -> list[Point]:
        """The points with these ids that exist, with their payload (or only the fields named) and vectors."""
        return [Point(r.id, r.payload or {}, vectors=plain_vectors(r.vector) if vectors else None)
                for r in self.shard.retrieve(ids, payload, vectors)]

    def set_payload(self, ids: list[int], payload: dict[str, Any]) -> None:
        """Set these payload fields on these points (``None`` removes a field: both read back as absent)."""
        self.shard.update(qe.UpdateOperation.set_payload(ids, payload))

    def delete(self, ids: list[int]) -> None:
        """Delete points, and their words from the IDF at once.

        A deleted point's sparse vector would go on counting in the IDF until its segment is vacuumed (one pass over
        the whole memory). Emptying the vector first makes the segment's inverted index drop its postings now.
        """
        empty = qe.SparseVector(indices=[], values=[])
        self.shard.update(qe.UpdateOperation.update_vectors([qe.PointVectors(i, {SPARSE: empty}) for i in ids]))
        self.shard.update(qe.UpdateOperation.delete_points(ids))

    def purge(self) -> None:
        """Rewrite the shard without the bytes of deleted points (``forget``); O(points), about 1 s per 10,000.

        Edge keeps a deleted point's payload in its segment until a vacuum, and in its write-ahead log, whose
        preallocated files keep old entries until they are reused; removing the log is no way out (updates
        after it are ignored as already applied: we tried). So every point goes into a fresh shard in
        ``<collection>.rewrite``, which then takes the collection folder's place; a crash in between is
        finished (or the half-written copy removed) by the next open.
        """
        points, offset = [], None
        while True:
            records, offset = self.shard.scroll(qe.ScrollRequest(offset=offset, limit=1024, with_payload=True,
                                                                 with_vector=True))
            points += [qe.Point(r.id, {name: _edge_vector(v) for name, v in plain_vectors(r.vector).items()},
                                r.payload or {}) for r in records]
            if offset is None:
                break
        fresh_folder = _rewrite_of(self.folder)
        shutil.rmtree(fresh_folder, ignore_errors=True)
        fresh = qe.EdgeShard.create(str(fresh_folder), self._config)
        if self._indexed:
            fresh.update(qe.UpdateOperation.create_field_index(self._indexed, qe.PayloadSchemaType.Keyword))
        for start in range(0, len(points), 1024):
            fresh.update(qe.UpdateOperation.upsert_points(points[start:start + 1024]))
        fresh.flush()
        fresh.close()
        self.shard.close()
        self.shard = _Closed(self.where)
        os.replace(self.folder, _old_of(self.folder))
        os.replace(fresh_folder, self.folder)
        _finish_purge(self.folder)
        self.shard = qe.EdgeShard.load(str(self.folder))

    def hybrid(self, retrievers: list[Nearest], candidates: int, top_k: int,
               unless_set: str | None, lists: bool = True) -> tuple[list[Point], list[list[Point]]]:
        """RRF over each retriever's top ``candidates`` (points whose ``unless_set`` field is empty), and each list
        (unless ``lists=False``: a benchmark times the fused query alone)."""
        only = qe.Filter(must=[qe.IsEmptyCondition(key=unless_set)]) if unless_set else None
        queries = [qe.Query.Nearest(_edge_vector(r.vector), using=r.using) for r in retrievers]
        fused = qe.QueryRequest(limit=top_k, query=qe.Fusion.Rrf(k=RRF_K), with_payload=True, prefetches=[
            qe.Prefetch(limit=candidates, query=q, filter=only) for q in queries])
        listing = [qe.QueryRequest(limit=candidates, query=q, filter=only, with_payload=False) for q in queries]
        best, *listed = self.shard.query_batch(qe.QueryBatchRequest([fused, *listing[:len(queries) * lists]]))
        return [Point(p.id, p.payload or {}, p.score) for p in best], [[Point(p.id, score=p.score) for p in one]
                                                                       for one in listed]

    def scores(self, retriever: Nearest, ids: list[int]) -> list[Point]:
        """The scores of just these points for one retriever (for hits ranked beyond the candidates)."""
        only = qe.Filter(must=[qe.HasIdCondition(point_ids=set(ids))])
        found = self.shard.query(qe.QueryRequest(limit=len(ids), filter=only, with_payload=False,
                                                 query=qe.Query.Nearest(_edge_vector(retriever.vector),
                                                                        using=retriever.using)))
        return [Point(p.id, score=p.score) for p in found]

    def scroll(self, skip: int, page: int) -> list[Point]:
        """Every point but ``skip`` (the ledger), with payloads, a page of ``page`` at a time."""
        points, offset, only = [], None, qe.Filter(must_not=[qe.HasIdCondition(point_ids={skip})])
        while True:
            records, offset = self.shard.scroll(qe.ScrollRequest(offset=offset, limit=page, filter=only,
                                                                 with_payload=True, with_vector=False))
            points += [Point(r.id, r.payload or {}) for r in records]
            if offset is None:
                return points

    def count(self, skip: int) -> int:
        """How many points there are besides ``skip`` (the ledger), counted exactly."""
        return self.shard.count(qe.CountRequest(exact=True, filter=qe.Filter(
            must_not=[qe.HasIdCondition(point_ids={skip})])))

    def close(self) -> None:
        """Flush and release the shard (and its folder's lock); a temporary folder is removed. Twice is fine."""
        if not isinstance(self.shard, _Closed):
            self.shard.close()
            self.shard = _Closed(self.where)
        if self._cleanup is not None:
            self._cleanup()


class _Closed:
    """Stands in for a closed shard, so that using the memory after ``close()`` says so (Edge: "not initialized")."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"this QdrantMemory ({self.where}) was closed; open it again to use it")


def _edge_vector(vector: list[float] | SparseVector) -> Any:
    return qe.SparseVector(indices=vector.indices, values=vector.values) if isinstance(vector, SparseVector) else vector


def plain_vectors(vectors: Any) -> dict[str, Any]:
    """An engine's named vectors as plain lists, and sparse ones as ``SparseVector`` (either engine's type)."""
    return {name: SparseVector(list(v.indices), [float(x) for x in v.values]) if hasattr(v, "indices") else list(v)
            for name, v in (vectors or {}).items()}


def _rewrite_of(folder: Path) -> Path:
    return folder.with_name(folder.name + ".rewrite")


def _old_of(folder: Path) -> Path:
    return folder.with_name(folder.name + ".forgotten")


def _finish_purge(folder: Path) -> None:
    """Complete a ``purge`` that a crash interrupted: the copy in place if it was all written, the rest removed."""
    if not folder.exists() and (_rewrite_of(folder) / "edge_config.json").exists() and _old_of(folder).exists():
        os.replace(_rewrite_of(folder), folder)  # the copy was closed before the old folder moved aside
    shutil.rmtree(_old_of(folder), ignore_errors=True)
    shutil.rmtree(_rewrite_of(folder), ignore_errors=True)


def _refuse_if_not_ours(folder: Path, created: bool) -> None:
    """``ValueError`` for a collection folder that holds files but no shard, or a shard config that is not JSON."""
    if created:
        if folder.is_dir() and any(folder.iterdir()):
            found = ", ".join(sorted(p.name for p in folder.iterdir())[:5])
            raise ValueError(f"{folder} is not empty ({found}) but holds no Qdrant Edge collection; it was left "
                             "untouched: pass another path= or collection=, or empty that folder")
        return
    try:
        json.loads((folder / "edge_config.json").read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise ValueError(f"{folder / 'edge_config.json'} is damaged ({type(exc).__name__}); it was left untouched: "
                         "restore the folder from a backup, or pass another path= or collection=") from exc
