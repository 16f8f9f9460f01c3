"""A small labelled evaluation of memory search: vector vs keyword vs fused (lesson 04).

``EVAL_MEMORIES`` is the seven demo facts plus 24 more about the same people
and projects (stored in this order they get ids ``mem_0001`` … ``mem_0031``).
``EVAL_QUERIES`` are 25 questions, each labelled with the memory id(s) that
answer it and a kind: *paraphrase* (few or no words shared with the answer),
*exact* (an order number, ticket or invoice id), *rare name*, or *mixed*
(ordinary words plus a specific term). The labels were written from the texts,
before looking at any ranking, and were not tuned afterwards: on some queries
fusion beats both single rankings, on others it ranks the answer lower than
vector search alone.

``rankings`` reads the three orderings from the memory's own hits
(``Hit.vector_rank``, ``Hit.keyword_rank`` and the fused order), so what is
evaluated is exactly what ``HybridMemory.search`` does. With ``rrf_k=`` it
re-fuses those two rankings with ``fusion.reciprocal_rank_fusion`` to show
another RRF constant without rebuilding the memory. Metrics: ``recall_at_k``
and ``reciprocal_rank`` (averaged into MRR by ``summarize``). This module does
no plotting (see ``charts.py``) and holds no retrieval code of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aria_kit.demo_data import DEMO_FACTS
from aria_kit.fusion import reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder, MemoryBackend
from aria_kit.tables import Table

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


@dataclass(frozen=True)
class EvalQuery:
    """One labelled query: its text, the ids of the memories that answer it, and its kind."""

    text: str
    relevant: tuple[str, ...]
    kind: str


def _q(text: str, kind: str, *relevant: int) -> EvalQuery:
    return EvalQuery(text, tuple(f"mem_{n:04d}" for n in relevant), kind)


EVAL_QUERIES: list[EvalQuery] = [
    _q("Which coding language does Alice like best?", "paraphrase", 1),
    _q("How does the database keep its copies in sync?", "paraphrase", 3),
    _q("When is the v1.0 release due?", "paraphrase", 5),
    _q("Who is Alice's boss?", "paraphrase", 10),
    _q("What memory did Alice buy?", "paraphrase", 7),
    _q("What does she drink in the morning?", "paraphrase", 15),
    _q("Which dashboards track the database?", "paraphrase", 31),
    _q("What was the old storage engine?", "paraphrase", 19),
    _q("How much money can we spend on servers?", "paraphrase", 29),
    _q("What food should we avoid when the team eats with Alice?", "paraphrase", 22),
    _q("order 4821", "exact", 7),
    _q("order 4812", "exact", 14),
    _q("5190", "exact", 13),
    _q("Is there any news on VDB-1377?", "exact", 11),
    _q("INV-20931", "exact", 26),
    _q("Tomasz Wiśniewski", "rare name", 27),
    _q("Jepsen", "rare name", 25),
    _q("Marcus Lindqvist", "rare name", 16),
    _q("Priya", "rare name", 10, 18),
    _q("What consensus algorithm does VelocityDB use?", "mixed", 3),
    _q("Alice's language preference", "mixed", 1),
    _q("When does Alice meet the infrastructure team?", "mixed", 4),
    _q("Who reviews the Raft replication PRs?", "mixed", 8),
    _q("Which languages can clients use to talk to VelocityDB?", "mixed", 28),
    _q("How much RAM does her computer have?", "mixed", 23),
]


def build_eval_memory(embedder: Embedder | None = None, rrf_k: int = 60) -> HybridMemory:
    """A fresh in-process ``HybridMemory`` holding ``EVAL_MEMORIES`` as ``mem_0001`` … ``mem_0031``."""
    memory = HybridMemory(embedder, rrf_k=rrf_k)
    memory.store_many([text for text, _ in EVAL_MEMORIES], [{"category": cat} for _, cat in EVAL_MEMORIES])
    return memory


def rankings(memory: MemoryBackend, query: str, rrf_k: int | None = None) -> dict[str, list[str]]:
    """The vector, keyword and fused orderings of every memory for ``query`` (ids, best first).

    All three come from one ``memory.search`` over every memory: the vector
    ranking orders hits by ``vector_rank``, the keyword ranking by
    ``keyword_rank`` and leaves out memories that share no word with the query
    (their rank is ``None``), and the fused ranking is the order ``search``
    returned. With ``rrf_k`` the two rankings are fused again with that constant.
    """
    hits = memory.search(query, top_k=max(len(memory), 1))
    if any(hit.vector_rank is None for hit in hits):
        raise ValueError(f"{type(memory).__name__} does not report each hit's vector and keyword ranks, "
                         "so its rankings cannot be compared; use a HybridMemory")
    vector = [hit.id for hit in sorted(hits, key=lambda hit: hit.vector_rank)]
    keyword = [hit.id for hit in sorted((h for h in hits if h.keyword_rank), key=lambda hit: hit.keyword_rank)]
    if rrf_k is None:
        fused = [hit.id for hit in hits]
    else:
        # The vector ranking goes first, so equal fused scores go to the better vector rank, as in search().
        fused = [item for item, _ in reciprocal_rank_fusion([vector, keyword], k=rrf_k)]
    return {"vector": vector, "keyword": keyword, "fused": fused}


def first_relevant_rank(ranking: Sequence[str], relevant: Sequence[str]) -> int | None:
    """The rank (from 1) of the first relevant id in ``ranking``, or ``None`` if none is in it."""
    return next((rank for rank, item in enumerate(ranking, start=1) if item in relevant), None)


def recall_at_k(ranking: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """The fraction of the relevant ids found in the top ``k`` of ``ranking`` (0.0 … 1.0)."""
    if not relevant:
        raise ValueError("recall needs at least one relevant id")
    return len(set(ranking[:k]) & set(relevant)) / len(set(relevant))


def reciprocal_rank(ranking: Sequence[str], relevant: Sequence[str]) -> float:
    """1 / rank of the first relevant id, or 0.0 when the ranking holds none; MRR is its mean."""
    rank = first_relevant_rank(ranking, relevant)
    return 1.0 / rank if rank else 0.0


@dataclass(frozen=True)
class QueryResult:
    """One labelled query with the three rankings the memory produced for it."""

    query: EvalQuery
    rankings: dict[str, list[str]]

    def rank(self, name: str) -> int | None:
        """Where ranking ``name`` (vector, keyword or fused) put the first relevant memory."""
        return first_relevant_rank(self.rankings[name], self.query.relevant)

    def verdict(self) -> str:
        """Fusion compared with the better single ranking: "helps", "same" or "hurts"."""
        big = len(self.rankings["vector"]) + 1  # "not found" ranks below everything
        single = min(self.rank("vector") or big, self.rank("keyword") or big)
        fused = self.rank("fused") or big
        return "helps" if fused < single else "same" if fused == single else "hurts"


def evaluate(
    memory: MemoryBackend, queries: Sequence[EvalQuery] = EVAL_QUERIES, rrf_k: int | None = None
) -> list[QueryResult]:
    """Rank every memory for every query under the three rankings (see ``rankings``)."""
    return [QueryResult(query, rankings(memory, query.text, rrf_k)) for query in queries]


def summarize(results: Sequence[QueryResult], k: int = 3) -> dict[str, dict[str, float]]:
    """Mean recall@k and MRR per ranking: ``{"vector": {"recall@3": …, "MRR": …}, …}``."""
    summary = {}
    for name in RANKINGS:
        recalls = [recall_at_k(r.rankings[name], r.query.relevant, k) for r in results]
        rrs = [reciprocal_rank(r.rankings[name], r.query.relevant) for r in results]
        summary[name] = {f"recall@{k}": sum(recalls) / len(results), "MRR": sum(rrs) / len(results)}
    return summary


def results_table(results: Sequence[QueryResult], title: str | None = None) -> Table:
    """Per query: its kind, the rank of the first relevant memory under each ranking, and fusion's verdict."""
    rows = [(r.query.text, r.query.kind, ", ".join(r.query.relevant), r.rank("vector"), r.rank("keyword"),
             r.rank("fused"), r.verdict()) for r in results]
    return Table(rows, ["query", "kind", "relevant", "vector", "keyword", "fused", "fusion"], title)


def summary_table(results: Sequence[QueryResult], k: int = 3, title: str | None = None) -> Table:
    """One row per ranking with its recall@k and MRR over ``results``."""
    summary = summarize(results, k)
    return Table([(name, *summary[name].values()) for name in RANKINGS], ["ranking", f"recall@{k}", "MRR"], title,
                 digits=3)


def kind_table(results: Sequence[QueryResult], k: int = 3, title: str | None = None) -> Table:
    """recall@k and MRR of each ranking, per kind of query (paraphrase, exact, rare name, mixed)."""
    rows = []
    for kind in dict.fromkeys(r.query.kind for r in results):  # kinds in the order they first appear
        subset = [r for r in results if r.query.kind == kind]
        summary = summarize(subset, k)
        rows.append((kind, len(subset), *(summary[name][f"recall@{k}"] for name in RANKINGS),
                     *(summary[name]["MRR"] for name in RANKINGS)))
    headers = ["kind", "queries", *(f"{name} recall@{k}" for name in RANKINGS), *(f"{name} MRR" for name in RANKINGS)]
    return Table(rows, headers, title, digits=3)

