"""A Qdrant server or cluster as ``QdrantMemory``'s engine, through qdrant-client (lesson 12).

``ClientEngine`` answers the calls ``EdgeEngine`` answers (``qdrant_engines.py``)
with qdrant-client's API: a server or cluster (``url=``), or any ready
``QdrantClient`` (``client=``, its pure-Python local mode too). The same
engine as embedded mode, over HTTP; one request batch per search (one round
trip). Connection and API-key failures become errors that say what to do.
``open_engine`` picks Edge or a server from ``QdrantMemory``'s arguments. Not
here: the memory's rules (``qdrant_memory.py``); a payload index on
``superseded_by`` (a server's operator may add one; see docs/qdrant.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aria_kit.bm25_vectors import SparseVector
from aria_kit.qdrant_engines import DENSE, RRF_K, SPARSE, EdgeEngine, Nearest, Point, plain_vectors

if TYPE_CHECKING:
    from qdrant_client import QdrantClient


class ClientEngine:
    """A collection on a Qdrant server or cluster through qdrant-client (or in any ready ``QdrantClient``)."""

    def __init__(self, client: QdrantClient, collection: str, dim: int, where: str, owned: bool) -> None:
        from qdrant_client import models
        from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

        self.client, self.collection, self.where, self._models = client, collection, where, models
        try:
            self.created = not client.collection_exists(collection)
            if self.created:
                client.create_collection(
                    collection, vectors_config={DENSE: models.VectorParams(size=dim, distance=models.Distance.COSINE)},
                    sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)})
        except Exception as exc:
            if owned:  # ours to close: a refused folder must not stay locked by this process
                client.close()
            if isinstance(exc, ResponseHandlingException):
                raise ConnectionError(f"could not reach Qdrant at {where} ({exc}). Start a server (see "
                                      "docs/qdrant.md), or unset ARIA_QDRANT_URL to keep memory embedded.") from exc
            if isinstance(exc, UnexpectedResponse) and exc.status_code in (401, 403):
                raise PermissionError(f"Qdrant at {where} refused the API key (HTTP {exc.status_code}); "
                                      "pass api_key= or set ARIA_QDRANT_API_KEY.") from exc
            raise

    def insert(self, points: list[Point]) -> None:
        """Write new points; a point whose id exists already is left as it was (insert-only)."""
        m = self._models
        self.client.upsert(self.collection, [
            m.PointStruct(id=p.id, vector={name: self._vector(v) for name, v in (p.vectors or {}).items()},
                          payload=p.payload) for p in points], update_mode=m.UpdateMode.INSERT_ONLY)

    def retrieve(self, ids: list[int], payload: bool | list[str] = True, vectors: bool = False) -> list[Point]:
        """The points with these ids that exist, with their payload (or only the fields named) and vectors."""
        found = self.client.retrieve(self.collection, ids, with_payload=payload, with_vectors=vectors)
        return [Point(r.id, r.payload or {}, vectors=plain_vectors(r.vector) if vectors else None) for r in found]

    def set_payload(self, ids: list[int], payload: dict[str, Any]) -> None:
        """Set these payload fields on these points (``None`` stores null: it reads back as absent)."""
        self.client.set_payload(self.collection, payload, points=ids)

    def delete(self, ids: list[int]) -> None:
        """Delete points (a server's IDF forgets them when it vacuums, in the background)."""
        self.client.delete(self.collection, self._models.PointIdsList(points=ids))

    def purge(self) -> None:
        """Nothing to do from here: a server's files are its own (its optimizer vacuums deleted points, in the
        background, and its write-ahead log keeps them until it rolls over: see docs/qdrant.md)."""

    def hybrid(self, retrievers: list[Nearest], candidates: int, top_k: int,
               unless_set: str | None, lists: bool = True) -> tuple[list[Point], list[list[Point]]]:
        """As ``EdgeEngine.hybrid``, in one batch of three requests (one round trip)."""
        m = self._models
        only = m.Filter(must=[m.IsEmptyCondition(is_empty=m.PayloadField(key=unless_set))]) if unless_set else None
        queries = [(r.using, self._vector(r.vector)) for r in retrievers]
        fused = m.QueryRequest(prefetch=[m.Prefetch(query=q, using=name, limit=candidates, filter=only)
                                         for name, q in queries],
                               query=m.RrfQuery(rrf=m.Rrf(k=RRF_K)), limit=top_k, with_payload=True)
        listing = [m.QueryRequest(query=q, using=name, limit=candidates, filter=only, with_payload=False)
                   for name, q in queries]
        best, *listed = self.client.query_batch_points(self.collection, [fused, *listing[:len(queries) * lists]])
        return [Point(p.id, p.payload or {}, p.score) for p in best.points], [
            [Point(p.id, score=p.score) for p in one.points] for one in listed]

    def scores(self, retriever: Nearest, ids: list[int]) -> list[Point]:
        """The scores of just these points for one retriever (for hits ranked beyond the candidates)."""
        m = self._models
        found = self.client.query_points(self.collection, self._vector(retriever.vector), using=retriever.using,
                                         query_filter=m.Filter(must=[m.HasIdCondition(has_id=ids)]), limit=len(ids))
        return [Point(p.id, score=p.score) for p in found.points]

    def scroll(self, skip: int, page: int) -> list[Point]:
        """Every point but ``skip`` (the ledger), with payloads, a page of ``page`` at a time."""
        m = self._models
        points, offset, only = [], None, m.Filter(must_not=[m.HasIdCondition(has_id=[skip])])
        while True:
            records, offset = self.client.scroll(self.collection, only, limit=page, offset=offset)
            points += [Point(r.id, r.payload or {}) for r in records]
            if offset is None:
                return points

    def count(self, skip: int) -> int:
        """How many points there are besides ``skip`` (the ledger), counted exactly."""
        m = self._models
        return self.client.count(self.collection, m.Filter(must_not=[m.HasIdCondition(has_id=[skip])]),
                                 exact=True).count

    def close(self) -> None:
        """Close the client (for a local-mode folder, its lock)."""
        self.client.close()

    def _vector(self, vector: list[float] | SparseVector) -> Any:
        if isinstance(vector, SparseVector):
            return self._models.SparseVector(indices=vector.indices, values=vector.values)
        return vector


def open_engine(location: str | None, url: str | None, path: str | Path | None, client: QdrantClient | None,
                api_key: str | None, collection: str, dim: int, indexed: str | None = None) -> EdgeEngine | ClientEngine:
    """The engine for the one place given; with none, ``ARIA_QDRANT_URL`` if set, else embedded in memory.

    Embedded (``":memory:"`` or ``path=``) is Qdrant Edge; a server (``url=``) or a
    ready ``client=`` goes through qdrant-client.
    """
    places = (("location", location), ("url", url), ("path", path), ("client", client))
    given = {kind: value for kind, value in places if value not in (None, "")}
    if len(given) > 1:
        raise ValueError("give at most one of location=, url=, path= and client= (where the memory lives)")
    env_url = os.environ.get("ARIA_QDRANT_URL")
    ((kind, where),) = given.items() or ({"url": env_url} if env_url else {"location": ":memory:"}).items()
    if kind == "path" or (kind == "location" and where == ":memory:"):
        return EdgeEngine(where if kind == "path" else None, collection, dim, indexed=indexed)
    if kind == "client":
        return ClientEngine(where, collection, dim, repr(where), owned=False)
    try:
        from qdrant_client import QdrantClient
    except ImportError as exc:
        raise ImportError(f"QdrantMemory({kind}={where!r}) talks to a Qdrant server through qdrant-client: "
                          "pip install 'aria_kit[qdrant]'") from exc
    if kind == "url":
        key = api_key or os.environ.get("ARIA_QDRANT_API_KEY")
        return ClientEngine(QdrantClient(url=where, api_key=key), collection, dim, where, owned=True)
    return ClientEngine(QdrantClient(location=str(where)), collection, dim, str(where), owned=True)
