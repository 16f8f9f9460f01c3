"""HybridMemory ranks exactly as the full-sort implementation it replaced (tests/reference_hybrid_memory.py).

Random small corpora with repeated words (BM25 ties), duplicated texts (cosine ties), superseded
memories (searched with and without their history) and deletes (some enough to trigger
compaction); every hit must agree in id, order, fused score, cosine, BM25 and both ranks, bit for
bit, for RRF (any k) and the convex fusion (any weight, and the default). Queries keep their stop
words out of BM25, as the memory does; about half the corpora match stems (the default), the rest
words as written. ``HEAD_DEPTH`` is lowered so that the pruning and rank-counting paths of
``exact_top_k`` run on corpora this small.
"""

from __future__ import annotations

import random

import pytest
from reference_hybrid_memory import ReferenceHybridMemory

from aria_kit import exact_top_k
from aria_kit.embeddings import default_embedder
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion
from aria_kit.hybrid_memory import HybridMemory

VOCABULARY = ("the what is raft paxos alice bob rust go order ddr5 deadline march meeting friday storage engine tree "
              "lsm compaction velocitydb nimbus team security billing bug dashboard stored storing stores meetings "
              "teams billed").split()  # the last few share stems with earlier words, so stemming changes scores


def random_text(rng: random.Random) -> str:
    return " ".join(rng.choices(VOCABULARY, k=rng.randint(1, 10)))


def assert_same_hits(memory: HybridMemory, reference: ReferenceHybridMemory, query: str, top_k: int,
                     include_history: bool = False) -> None:
    ours = [(h.id, h.text, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank)
            for h in memory.search(query, top_k=top_k, include_history=include_history)]
    expected = [(h.id, h.text, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank)
                for h in reference.search(query, top_k=top_k, include_history=include_history)]
    assert ours == expected, (query, top_k)


@pytest.mark.parametrize("depth", [1, 3, 1024])
@pytest.mark.parametrize("seed", range(10))
def test_search_returns_exactly_what_ranking_every_memory_returned(seed: int, depth: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_top_k, "HEAD_DEPTH", depth)
    rng = random.Random(seed)
    fusion = rng.choice([RRF(0), RRF(1), RRF(10), RRF(60), ConvexFusion(0.0), ConvexFusion(rng.random()),
                         ConvexFusion(1.0), DEFAULT_FUSION])
    stemming = rng.random() < 0.5
    memory = HybridMemory(fusion=fusion, stemming=stemming)
    reference = ReferenceHybridMemory(default_embedder(), fusion, stemming)
    for _ in range(rng.randint(1, 4)):  # a few batches, each stored the same way in both
        batch = [random_text(rng) for _ in range(rng.randint(1, 80))]
        batch += rng.sample(batch, min(len(batch), 5))  # duplicated texts tie on every score
        memory.store_many(batch)
        reference.store_many(batch)
        current = [record.id for record in memory.list_all() if record.superseded_by is None]
        for memory_id in rng.sample(current, min(len(current), rng.randint(0, 6))):  # new versions of some facts
            text = random_text(rng)
            memory.supersede(memory_id, text)
            reference.supersede(memory_id, text)
        # Any memory but the current version of a fact with history (deleting it alone is refused).
        ids = [record.id for record in memory.list_all() if record.superseded_by or not record.supersedes]
        for memory_id in rng.sample(ids, rng.randint(0, len(ids) * 2 // 3)):  # sometimes enough to compact
            memory.delete(memory_id)
            reference.delete(memory_id)
        for _ in range(6):
            query = random_text(rng) if rng.random() < 0.8 else "nothing matches this"
            for top_k in (1, 3, 10, 1000):
                assert_same_hits(memory, reference, query, top_k, include_history=rng.random() < 0.3)
