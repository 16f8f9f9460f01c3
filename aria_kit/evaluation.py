"""A small memory to look at search closely (lesson 04): the demo facts and more, and three rankings per query.

``EVAL_MEMORIES`` is the seven demo facts plus 24 more about the same
people and projects (stored in order they get ids ``mem_0001`` … ``mem_0031``).
``build_eval_memory`` stores them in a ``HybridMemory`` in the seed's mode (RRF
with k = 60, no query stop words), the mode the learner's ``MyHybridMemory``
reproduces. ``rankings`` reads a query's vector, keyword and fused orderings
from that memory's own hits.

Lesson 05 measures on real labelled data instead (``measuring.py``, ``tuning.py``);
this module draws nothing (see ``charts.py``) and adds no retrieval idea of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from aria_kit.demo_data import DEMO_FACTS
from aria_kit.fusion import RRF, reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder, Hit, MemoryBackend

RANKINGS = ("vector", "keyword", "fused")

EVAL_MEMORIES: list[tuple[str, str]] = DEMO_FACTS + [
    ("Bob Okafor reviews every pull request that touches VelocityDB's replication code.", "fact"),  # mem_0008
    ("The VelocityDB benchmark cluster runs on three nodes in the Frankfurt data centre.", "fact"),
    ("Alice's manager is Priya Raman, who leads the storage platform group.", "fact"),  # mem_0010
    ("Ticket VDB-1377 tracks a leader-election bug that appears when a node's clock drifts.", "task"),
    ("Alice wants VelocityDB's write path to reach 50,000 operations per second.", "task"),
    ("Order #5190 was placed by Alice for two 2 TB NVMe SSDs.", "order"),
    ("Order #4812 for a USB-C docking station was cancelled.", "order"),
    ("Alice drinks her coffee black and dislikes meetings before 10 AM.", "user_pref"),  # mem_0015
    ("The infrastructure team is led by Marcus Lindqvist.", "fact"),
    ("Alice is giving a talk about VelocityDB at the Berlin Systems Meetup on April 12.", "calendar"),
    ("Alice's one-on-one with Priya is every Tuesday at 11 AM.", "calendar"),
    ("VelocityDB v0.9 stored its data in an LSM-tree with a 64 MB memtable.", "fact"),
    ("VelocityDB takes a snapshot every 10,000 log entries to keep the Raft log short.", "fact"),  # mem_0020
    ("Alice wants code examples in Rust, and in Python only when no Rust version exists.", "user_pref"),
    ("Alice is allergic to peanuts, so team lunches should avoid satay.", "user_pref"),
    ("Alice's laptop is a ThinkPad X1 Carbon with 32 GB of RAM.", "fact"),
    ("The VelocityDB on-call rotation changes every Monday at 9 AM.", "calendar"),
    ("Alice read the Jepsen analysis of etcd before writing VelocityDB's consistency tests.", "task"),  # mem_0025
    ("Invoice INV-20931 for the DDR5 RAM modules was paid on February 14.", "order"),
    ("Alice mentors a summer intern, Tomasz Wiśniewski, who works on Raft log compaction.", "task"),
    ("VelocityDB's client library speaks gRPC and has bindings for Go and Python.", "fact"),
    ("The hardware budget for VelocityDB this quarter is 12,000 euros.", "fact"),
    ("Alice's favourite text editor is Helix.", "user_pref"),  # mem_0030
    ("The team chose Prometheus and Grafana to monitor VelocityDB.", "decision"),
]


def build_eval_memory(embedder: Embedder | None = None, rrf_k: int = 60) -> HybridMemory:
    """A fresh ``HybridMemory`` in the seed's mode (RRF, no query stop words) holding ``EVAL_MEMORIES``."""
    memory = HybridMemory(embedder, fusion=RRF(rrf_k), stopwords=(), stemming=False)
    memory.store_many([text for text, _ in EVAL_MEMORIES], [{"category": cat} for _, cat in EVAL_MEMORIES])
    return memory


def rankings(memory: MemoryBackend, query: str, rrf_k: int | None = None) -> dict[str, list[str]]:
    """The vector, keyword and fused orderings of every memory for ``query`` (ids, best first).

    All three come from one ``memory.search`` over every memory (``orderings``).
    With ``rrf_k`` the two rankings are fused again by RRF with that constant.
    """
    hits = memory.search(query, top_k=max(len(memory), 1))
    ordered = orderings(hits, type(memory).__name__)
    if rrf_k is not None:
        # The vector ranking goes first, so equal fused scores go to the better vector rank, as in search().
        fused = reciprocal_rank_fusion([ordered["vector"], ordered["keyword"]], k=rrf_k)
        ordered["fused"] = [item for item, _ in fused]
    return ordered


def orderings(hits: Sequence[Hit], backend: str = "this memory") -> dict[str, list[str]]:
    """Read the vector, keyword and fused orderings (ids, best first) from one search's ``hits``.

    The vector ranking orders hits by ``vector_rank``, the keyword ranking by
    ``keyword_rank`` and leaves out memories that share no word with the query
    (their rank is ``None``), and the fused ranking is the order the search returned.
    """
    if any(hit.vector_rank is None for hit in hits):
        raise ValueError(f"{backend} does not report each hit's vector and keyword ranks, "
                         "so its rankings cannot be compared; use a HybridMemory")
    vector = [hit.id for hit in sorted(hits, key=lambda hit: hit.vector_rank)]
    keyword = [hit.id for hit in sorted((h for h in hits if h.keyword_rank), key=lambda hit: hit.keyword_rank)]
    return {"vector": vector, "keyword": keyword, "fused": [hit.id for hit in hits]}
