"""Exercise checks for lesson 12 (memory on Qdrant): point ids, and a migration between two backends.

``check_to_point_id(to_point_id)`` compares the learner's ``to_point_id`` with
the kit's own id format, ``memory_rules.make_memory_id``: every id it writes must
come back as its number, and strings it never writes (``mem_42``,
``mem_00042``, ``mem_0000``, other spellings, non-strings) must give ``None``.
``check_migrate(migrate)`` grades a design by its properties on random memories
(metadata, superseded versions with their moments, gaps left by deletes): every
memory moved once under an id mapping, texts, metadata and history links kept,
the source untouched; a target that is not empty may be refused or merged into.
Neither check needs qdrant-client, so both run on Binder too. ``check_top3_agreement(top3_agreement)`` checks the
stretch task's counter of places where two memories' top 3 name the same memory,
on two ``HybridMemory`` set-ups (no Qdrant needed either). ``QUIZ`` is the
lesson's quiz.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from aria_kit.demo_data import CONVERSATION, SHOWDOWN_QUERIES, seed_memory
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.embeddings import default_embedder
from aria_kit.fusion import RRF, reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend, MemoryRecord
from aria_kit.memory_rules import make_memory_id

SOLUTION = "lesson12"

NUMBERS = [1, 7, 42, 999, 1000, 9999, 10000, 123456]
# "mem_\u0660\u0660\u0664\u0662" is mem_0042 in Arabic-Indic digits, which \d matches and int() reads.
NOT_MEMORY_IDS: list[Any] = ["mem_42", "mem_00042", "mem_0000", "MEM_0042", "mem-0042", "mem_0042 ", " mem_0042",
                             "mem_", "0042", "mem_4a21", "mem_\u0660\u0660\u0664\u0662", 42, None]

def _point_id_test(to_point_id: Callable[[Any], int | None]) -> None:
    for number in NUMBERS:
        text = make_memory_id(number)
        got = to_point_id(text)  # a stub raises NotImplementedError here: "not done yet"
        assert type(got) is int, (
            f"to_point_id({text!r}) returned {got!r} ({type(got).__name__}); return the number as an int, "
            "because Qdrant point ids are integers (or UUIDs)")
        assert got == number, f"to_point_id({text!r}) returned {got}; expected {number}"
    for text in NOT_MEMORY_IDS:
        try:
            got = to_point_id(text)
        except Exception as exc:
            raise AssertionError(f"to_point_id({text!r}) raised {type(exc).__name__}; return None for anything "
                                 "that is not a memory id") from exc
        assert got is None, (
            f"to_point_id({text!r}) returned {got!r}; expected None: the kit never writes this id "
            "(it writes mem_ + at least 4 ASCII digits, exactly as make_memory_id(n) does, and numbers start at 1)")


# ---------------------------------------------------------------- exercise 12.2: move a memory (design)

_WORDS = "raft order ddr5 deadline alice velocitydb helix rust march budget cache editor kafka".split()


@functools.cache
def _embedder():
    """One embedder for every memory the migration check builds (loading it is the slow part)."""
    return default_embedder()


def _source(rng: random.Random, size: int) -> HybridMemory:
    """A memory of ``size`` facts with random metadata, some superseded (with the moment), some deleted (gaps)."""
    memory = HybridMemory(embedder=_embedder())
    for n in range(size):
        metadata = {"category": rng.choice(["fact", "task", "user_pref"])}
        if rng.random() < 0.5:
            metadata |= {"priority": rng.randint(1, 3), "source": rng.choice(["chat", "import", None])}
        text = f"Fact {n + 1}: " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 8)))
        memory.store(text, metadata)
    for step in range(size // 2):
        current = [r for r in memory.list_all() if r.is_current]
        old = rng.choice(current)
        metadata = None if rng.random() < 0.5 else {**old.metadata, "edited": True}
        memory.supersede(old.id, old.text + " (changed)", metadata, at=f"2026-0{1 + step % 9}-1{step % 10}T09:00:00Z")
    for _ in range(size // 3):  # a lone fact deleted: its number is a gap the target will not have
        lone = [r for r in memory.list_all() if r.is_current and r.supersedes is None]
        if lone:
            memory.delete(rng.choice(lone).id)
    return memory


def _fields(record: MemoryRecord, mapping: dict[str, str] | None = None) -> tuple:
    """A record's text, metadata and history links, the links translated through ``mapping`` when given."""
    link = (lambda i: i if mapping is None or i is None else mapping.get(i, f"unmapped {i}"))
    return (record.text, record.metadata, link(record.superseded_by), record.superseded_at, link(record.supersedes))


def _show(memory: MemoryBackend) -> str:
    rows = [f"{r.id}" + (f"→{r.superseded_by}" if r.superseded_by else "") for r in memory.list_all()]
    return "[" + ", ".join(rows) + "]"


def _moved_problem(source: MemoryBackend, target: MemoryBackend, before: list[MemoryRecord],
                   mapping: Any) -> str | None:
    """Why a migration into ``target`` (which held ``before``) broke a property, or None."""
    records = source.list_all()
    if not isinstance(mapping, dict):
        return f"return a dict from each source id to its id in the target, not a {type(mapping).__name__}"
    missing, extra = sorted({r.id for r in records} - set(mapping)), sorted(set(mapping) - {r.id for r in records})
    if missing:
        return f"the mapping should have every source id as a key, superseded versions too; {missing} is missing"
    if extra:
        return f"the mapping's keys {extra} are not ids of the source"
    old_ids = {r.id for r in before}
    moved = {r.id: r for r in target.list_all() if r.id not in old_ids}
    if sorted(mapping.values()) != sorted(moved):
        return (f"the target gained {sorted(moved)}, but the mapping points to {sorted(mapping.values())}: every "
                "memory once, nothing else")
    for record in records:
        copy = moved[mapping[record.id]]
        if _fields(copy) != _fields(record, mapping):
            names = ("text", "metadata", "superseded_by", "superseded_at", "supersedes")
            field = next(n for n, x, y in zip(names, _fields(copy), _fields(record, mapping)) if x != y)
            return (f"{record.id} → {copy.id}: its {field} is {getattr(copy, field)!r}, expected "
                    f"{_fields(record, mapping)[names.index(field)]!r}" + (
                        " (a history link must point to the moved version of the memory it named)"
                        if field in ("superseded_by", "supersedes") else ""))
    return None


def _migrate_test(migrate: Callable[[MemoryBackend, MemoryBackend], dict[str, str]], report: list[str]) -> None:
    rng = random.Random(12)
    for size in (0, 1, 2, 3, 4, 6, 8, 12):  # smallest first: the first failure is the smallest
        source = _source(rng, size)
        records = source.list_all()
        target = HybridMemory(embedder=_embedder(), fusion=RRF(60), stopwords=(), stemming=False)
        mapping = migrate(source, target)  # a stub raises NotImplementedError here
        assert source.list_all() == records, f"the source {_show(source)} changed: a migration only reads it"
        why = _moved_problem(source, target, [], mapping)
        assert why is None, f"the smallest case that fails: source {_show(source)}, target after {_show(target)}: {why}"
    source = _source(random.Random(3), 4)
    target = HybridMemory(embedder=_embedder())
    target.store("Already here before the migration.", {"category": "fact"})
    before = target.list_all()
    try:
        mapping = migrate(source, target)
    except ValueError as exc:
        assert target.list_all() == before, "you refused a target that is not empty, but it changed: refuse first"
        report.append(f"A target that is not empty: refused ({exc}).")
        return
    assert all(target.get(r.id) == r for r in before), "the target's own memories changed: merge, never overwrite"
    why = _moved_problem(source, target, before, mapping)
    assert why is None, f"merging into a target that is not empty: {why}"
    report.append("A target that is not empty: merged, its own memories untouched.")


def check_migrate(migrate: Callable[[MemoryBackend, MemoryBackend], dict[str, str]]) -> bool:
    """Check exercise 12.2 (design): every memory moved once, texts, metadata and history kept, ids mapped."""
    report: list[str] = []
    passed = check("Exercise 12.2 (move a memory)", lambda: _migrate_test(migrate, report), SOLUTION)
    if passed:  # the grey case: what this design decided
        print("\n".join(report))
    return passed


def check_to_point_id(to_point_id: Callable[[Any], int | None]) -> bool:
    """Check exercise 12.1: ``to_point_id("mem_0042") == 42``, and ``None`` for anything that is not a memory id."""
    return check("Exercise 12.1 (memory id → point id)", lambda: _point_id_test(to_point_id), SOLUTION)


def _agreement_test(top3_agreement: Callable[..., int]) -> None:
    # The kit's default and the set-up QdrantMemory matches rank the demo facts differently: on these queries
    # some places differ while the same memories still make both top 3s, so a set overlap gives another count.
    default, like_qdrant = HybridMemory(), HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)
    for memory in (default, like_qdrant):
        seed_memory(memory)
    queries = [*SHOWDOWN_QUERIES, *CONVERSATION]
    for a, b, what in [(default, default, "a memory with itself"), (default, like_qdrant, "two set-ups"),
                       (like_qdrant, default, "the same two, swapped")]:
        expected = sum(x.id == y.id for query in queries
                       for x, y in zip(a.search(query, top_k=3), b.search(query, top_k=3)))
        got = top3_agreement(a, b, queries)  # a stub raises NotImplementedError here
        assert got == expected, (
            f"for {what} on {len(queries)} queries, {expected} of {3 * len(queries)} top-3 places name the same "
            f"memory; your function returned {got!r} (count a place when both rank-r hits have the same id)")


def check_top3_agreement(top3_agreement: Callable[..., int]) -> bool:
    """Check stretch 12: ``top3_agreement(a, b, queries)``, the top-3 places where both memories agree."""
    return check("Stretch 12 (top-3 agreement)", lambda: _agreement_test(top3_agreement), SOLUTION)


EXERCISES = [
    Exercise("12.1", designs="a memory-id → point-id conversion that is one-to-one and refuses every id the kit "
             "never writes", kind="specification", minutes=10, solution=("to_point_id",)),
    Exercise("12.2", designs="a migration from one memory backend to another that keeps every text, metadata and "
             "history link under an id mapping, and a policy for a target that is not empty", kind="design",
             minutes=25, solution=("replay", "facts_in_one_batch"), check="check_migrate"),
    Exercise("Stretch 12", designs="a top-3 agreement measure, and which of the default's three settings moves "
             "the top 3 away from Qdrant", kind="stretch", minutes=30,
             solution=("top3_agreement", "stretch_agreement_table")),
]

# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


_SHORT = "A quorum needs three."
_LONG = "The team agreed that a quorum of the cluster needs three of the five nodes to answer before a write."


def _key_weight_and_length() -> str:
    """12: the stored BM25 weight of "quorum" in a 4-word and in a 20-word memory."""
    from aria_kit.bm25 import tokenize
    from aria_kit.bm25_vectors import document_vector, term_index

    def weight(text: str) -> float:
        vector = document_vector(tokenize(text))
        return vector.values[vector.indices.index(term_index("quorum"))]

    short, long = tokenize(_SHORT), tokenize(_LONG)
    assert (len(short), len(long), short.count("quorum"), long.count("quorum")) == (4, 20, 1, 1)
    return only_true({"a": weight(_SHORT) == weight(_LONG), "b": weight(_SHORT) > weight(_LONG),
                      "c": weight(_SHORT) < weight(_LONG), "d": False})


def _key_positions_from_zero() -> str:
    """12: a memory at position 4 of Qdrant's keyword list and position 0 of its vector list, with the k that
    QdrantMemory sends Qdrant (RRF_K), in Qdrant's formula 1/(k + position); the kit's RRF(60) must agree."""
    from aria_kit.qdrant_engines import RRF_K

    fused = 1 / (RRF_K + 4) + 1 / (RRF_K + 0)  # Qdrant's RRF, positions from 0
    ranking = ["m1", "m2", "m3", "m4", "memory"]  # position 4, counted from 0: the kit's rank 5
    if abs(dict(reciprocal_rank_fusion([ranking, ["memory", *ranking[:4]]], k=60))["memory"] - fused) > 1e-15:
        raise AssertionError(f"Qdrant's RRF with k = {RRF_K} and the kit's RRF(60) disagree")
    return only_true({"a": abs(fused - (1 / 65 + 1 / 61)) < 1e-15, "b": abs(fused - (1 / 64 + 1 / 60)) < 1e-15,
                      "c": abs(fused - (1 / 66 + 1 / 62)) < 1e-15, "d": abs(fused - (1 / 5 + 1 / 1)) < 1e-15})


def _key_bm25_tie() -> str:
    """12: two memories tie exactly on BM25 for a query, on HybridMemory and on QdrantMemory."""
    from aria_kit.fusion import RRF
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.qdrant_memory import QdrantMemory

    texts = ["Alice plays the cello.", "Alice plays the oboe."]  # same length, one shared query word each
    older = {}
    for name, memory in (("hybrid", HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)),
                         ("qdrant", QdrantMemory())):
        ids = [memory.store(text) for text in texts]
        hits = {hit.id: hit for hit in memory.search("Who plays?", top_k=2)}
        if hits[ids[0]].bm25 != hits[ids[1]].bm25:
            raise AssertionError(f"{name}: the two memories do not tie on BM25")
        older[name] = hits[ids[0]].keyword_rank < hits[ids[1]].keyword_rank
        memory.close() if hasattr(memory, "close") else None
    return only_true({"a": older["hybrid"] and older["qdrant"], "b": older["hybrid"] and not older["qdrant"],
                      "c": False, "d": not older["hybrid"] and not older["qdrant"]})


QUIZ = Quiz("Lesson 12", [
    Question(
        "A colleague searches \"Who deploys the staging cluster?\" on QdrantMemory() and on HybridMemory() with the "
        "same memories, and the two top 3s differ. What can they conclude about Qdrant's engine?",
        {"a": "That it ranks differently from the kit: the memories and the query were the same",
         "b": "Nothing yet: HybridMemory() fuses by the convex mix, drops query stop words and matches stems, so "
              "compare with HybridMemory(fusion=RRF(60), stopwords=(), stemming=False) first",
         "c": "That its approximate index (HNSW) missed a memory",
         "d": "That the two backends embed the query with different models"},
        "b",
        "three settings of HybridMemory() differ from QdrantMemory's; only a like-for-like set-up leaves the engine "
        "as the one difference, and on the demo data that set-up agrees with Qdrant on every rank.",
        {"a": "the same memories and query still meet three different settings: the kit's default is the convex mix "
              "(weight 0.5 on cosine), not RRF, and it drops stop words and matches stems.",
         "c": "QdrantMemory scores every memory exactly; it never searches through HNSW.",
         "d": "every set-up embeds with the same 256-d wordllama model; fusion, stop words and stems are what "
              "differ between HybridMemory() and QdrantMemory."}, kind="explain",
        case=("Who deploys the staging cluster?",)),
    Question(
        "Predict: \"quorum\" occurs once in \"A quorum needs three.\" (4 words) and once in a 20-word memory. "
        "Which stored weight of \"quorum\" is larger in the two points' bm25 sparse vectors?",
        {"a": "Neither: the stored weight counts how often the word occurs, and it occurs once in both",
         "b": "The 4-word memory's: the same count in a shorter memory weighs more",
         "c": "The 20-word memory's: a longer memory gives the word more context",
         "d": "Neither is stored yet: a weight needs the word's IDF, which only the query brings"},
        "b",
        "the stored weight is BM25's term-frequency part, with the length norm against the fixed AVGDL = 10: a "
        "word in a short memory is more of what the memory is about.",
        {"a": "every word of mem_0003 has the same weight because each occurs once in one memory; across memories "
              "the weight also depends on the memory's length.",
         "c": "BM25's length norm works the other way: a long memory matches many words a little, so each of "
              "its words counts for less.",
         "d": "the IDF is applied at query time, but the term-frequency part is stored with the point; only that "
              "part is in the sparse vector."},
        kind="predict", case=("quorum",), compute=_key_weight_and_length),
    Question(
        "Predict: in Qdrant's two lists a memory is at position 4 of the keyword list and position 0 of the vector "
        "list (positions counted from 0), and QdrantMemory asks for RRF with k = 61. What fused score does it get?",
        {"a": "1/65 + 1/61, what the kit's RRF(60) gives ranks 5 and 1",
         "b": "1/64 + 1/60: k = 61 is only a name, the engine still adds 60",
         "c": "1/66 + 1/62: k = 61 on top of ranks counted from 1",
         "d": "1/5 + 1/1: the engine uses the positions alone"},
        "a", "Qdrant scores 1/(k + position) from 0 and the kit 1/(k + rank) from 1, so k = 61 there is k = 60 "
             "here: equal ranks give equal fused scores.",
        {"b": "the engine uses the k it is given; with positions from 0 and k = 60 the first place would earn "
              "1/60, more than the kit's 1/61.",
         "c": "the +1 is counted once: either in the rank (the kit) or in k (the engine), not in both.",
         "d": "without k, one first place would outweigh everything else; k = 61 is in the formula on both "
              "backends."},
        kind="predict", case=("position 4",), compute=_key_positions_from_zero),
    Question(
        "Predict: \"Alice plays the cello.\" is stored, then \"Alice plays the oboe.\", and both are searched with "
        "\"Who plays?\". They tie exactly on BM25. Which one gets the better keyword rank on each backend?",
        {"a": "The older one, on both backends",
         "b": "On QdrantMemory, whichever the engine lists first, the same on every run",
         "c": "A different one on every search, even within one run",
         "d": "The oboe memory, on both backends: the newer memory is the more current one"},
        "a",
        "HybridMemory breaks ties by age. Qdrant Edge lists equal scores in no promised order (it can change from one "
        "process to the next), so QdrantMemory re-ranks each candidate list: equal scores, older memory first.",
        {"b": "Kept as is, the engine's order of a tie changed between runs; QdrantMemory does not keep it.",
         "c": "Within one process the engine's order stayed the same; it changed between processes.",
         "d": "neither backend prefers the newer memory: equal scores go older first, so the cello memory wins."},
        kind="predict", case=("Alice plays the cello.", "Who plays?"), compute=_key_bm25_tie),
])
