"""Exercise checks for lesson 12 (memory on Qdrant): point ids, and BM25 weights with a fixed AVGDL.

``check_to_point_id(to_point_id)`` compares the learner's ``to_point_id`` with
the kit's own id format, ``memory_rules.make_memory_id``: every id it writes must
come back as its number, and strings it never writes (``mem_42``,
``mem_00042``, ``mem_0000``, other spellings, non-strings) must give ``None``.
``check_bm25_weight(bm25_weight)`` compares ``bm25_weight(tf, doc_len, avgdl)``
with ``bm25.BM25Index``: on a small corpus built so that its average length is
exactly ``avgdl``, a one-word query scores ``idf · weight``, so the index's
score divided by its IDF is the weight. Neither check needs qdrant-client, so
both run on Binder too. ``check_top3_agreement(top3_agreement)`` checks the
stretch task's counter of places where two memories' top 3 name the same memory,
on two ``HybridMemory`` set-ups (no Qdrant needed either). ``QUIZ`` is the
lesson's quiz.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aria_kit.bm25 import BM25Index
from aria_kit.demo_data import CONVERSATION, SHOWDOWN_QUERIES, seed_memory
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.fusion import RRF, reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.memory_rules import make_memory_id

SOLUTION = "lesson12"

NUMBERS = [1, 7, 42, 999, 1000, 9999, 10000, 123456]
NOT_MEMORY_IDS: list[Any] = ["mem_42", "mem_00042", "mem_0000", "MEM_0042", "mem-0042", "mem_0042 ", " mem_0042",
                             "mem_", "0042", "mem_4a21", 42, None]

# (tf, doc_len, total length of the corpus, documents in it): avgdl = total / documents, exactly as BM25Index
# computes it. 68 / 7 is the real average length of the seven demo facts; 10 is QdrantMemory's AVGDL.
WEIGHT_CASES = [(1, 10, 70, 7), (1, 6, 70, 7), (2, 13, 70, 7), (1, 13, 68, 7), (3, 20, 32, 4), (1, 3, 70, 7)]


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
            "(it writes mem_ + at least 4 digits, exactly as make_memory_id(n) does, and numbers start at 1)")


def _corpus(tf: int, doc_len: int, total: int, documents: int) -> BM25Index:
    """Document 0 holds the word "x" ``tf`` times in ``doc_len`` tokens; the rest only fill the average."""
    index = BM25Index()  # the kit's k1 = 1.5 and b = 0.75, the same as QdrantMemory's
    index.add(["x"] * tf + ["y"] * (doc_len - tf))
    rest, others = total - doc_len, documents - 1
    for i in range(others):  # spread the remaining length over the other documents, none of them with "x"
        index.add(["z"] * (rest // others + (i < rest % others)))
    return index


K1, B = 1.5, 0.75  # the kit's BM25 constants

# Typical wrong answers, each with the idea it misses: a weight that matches one of these gets its hint.
_MISTAKES = [
    (lambda tf, n, avg: tf / (tf + K1 * (1 - B + B * n / avg)),
     "the numerator lacks (k1 + 1): the weight of one occurrence in an average-length memory should be 1"),
    (lambda tf, n, avg: tf * (K1 + 1) / (tf + K1 * (1 - B + B * avg / n)),
     "the length ratio is upside down: a longer memory should weigh less, so divide doc_len by avgdl"),
    (lambda tf, n, avg: tf * (K1 + 1) / (1 + K1 * (1 - B + B * n / avg)),
     "tf is missing from the denominator, so nothing saturates: a word's 10th occurrence counts like its 1st"),
    (lambda tf, n, avg: tf * (K1 + 1) / (tf + K1 * (1 - B + B * n / 10.0)),
     "it ignores the avgdl you pass and always uses 10"),
]


def _bm25_weight_test(bm25_weight: Callable[..., float]) -> None:
    for tf, doc_len, total, documents in WEIGHT_CASES:  # the simplest case first: an average-length memory
        avgdl = total / documents
        index = _corpus(tf, doc_len, total, documents)
        expected = float(index.scores(["x"])[0]) / index.idf("x")
        got = float(bm25_weight(tf, doc_len, avgdl))  # a stub raises NotImplementedError here
        if abs(got - expected) < 1e-9:
            continue
        hint = next((why for mistake, why in _MISTAKES if abs(mistake(tf, doc_len, avgdl) - got) < 1e-9),
                    "BM25's score for one query word, divided by that word's IDF, is the weight")
        raise AssertionError(f"bm25_weight(tf={tf}, doc_len={doc_len}, avgdl={avgdl:.4f}) should be {expected:.4f} "
                             f"(BM25Index's score ÷ IDF), got {got:.4f}: {hint}")
    heavy = float(bm25_weight(1000, 10, 10.0))
    assert heavy < K1 + 1, f"bm25_weight(1000, 10, 10.0) is {heavy:.4f}: a weight saturates below k1 + 1 = 2.5"
    assert float(bm25_weight(1, 20, 10.0)) < float(bm25_weight(1, 5, 10.0)), (
        "bm25_weight(1, 20, 10.0) should be less than bm25_weight(1, 5, 10.0): a longer memory weighs less")


def check_to_point_id(to_point_id: Callable[[Any], int | None]) -> bool:
    """Check exercise 12.1: ``to_point_id("mem_0042") == 42``, and ``None`` for anything that is not a memory id."""
    return check("Exercise 12.1 (memory id → point id)", lambda: _point_id_test(to_point_id), SOLUTION)


def check_bm25_weight(bm25_weight: Callable[..., float]) -> bool:
    """Check exercise 12.2: ``bm25_weight(tf, doc_len, avgdl)``, the BM25 weight one sparse-vector entry stores."""
    return check("Exercise 12.2 (BM25 weight with a fixed AVGDL)", lambda: _bm25_weight_test(bm25_weight), SOLUTION)


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
    Exercise("12.2", designs="the collection-independent part of BM25 that a sparse vector can store, from its "
             "properties (weight 1 at average length, saturation, length penalty)", kind="warm-up",
             minutes=15, solution=("bm25_weight",)),
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
    """12: a memory at position 4 of Qdrant's keyword list and position 0 of its vector list, k = 61."""
    ranking = ["m1", "m2", "m3", "m4", "memory"]  # position 4, counted from 0: the kit's rank 5
    fused = dict(reciprocal_rank_fusion([ranking, ["memory", *ranking[:4]]], k=60))["memory"]
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
        "QdrantMemory is compared with HybridMemory(fusion=RRF(60), stopwords=(), stemming=False). Why not HybridMemory()?",
        {"a": "Because RRF with k = 60 is the kit's default fusion",
         "b": "So both fuse by RRF and count every query word as written: what differs comes from the engine",
         "c": "Because QdrantMemory cannot store memories that contain stop words",
         "d": "So that both sides use the same embedding model"},
        "b",
        "QdrantMemory fuses by RRF (k = 60) in the engine and keeps every query word as written; HybridMemory() "
        "uses convex fusion, drops query stop words and matches stems, which would mix three differences into one "
        "comparison.",
        {"a": "the kit's default is the convex mix (weight 0.5 on cosine); RRF is its other mode.",
         "c": "Stop words are stored like any word; HybridMemory() only drops them from queries.",
         "d": "every set-up embeds with the same 256-d wordllama model; fusion, stop words and stems are what "
              "differ between HybridMemory() and QdrantMemory."}, kind="explain", case=("HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)",)),
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
         "d": "The cello memory, because \"cello\" sorts before \"oboe\""},
        "a",
        "HybridMemory breaks ties by age. Qdrant Edge lists equal scores in no promised order (it can change from one "
        "process to the next), so QdrantMemory re-ranks each candidate list: equal scores, older memory first.",
        {"b": "Kept as is, the engine's order of a tie changed between runs; QdrantMemory does not keep it.",
         "c": "Within one process the engine's order stayed the same; it changed between processes.",
         "d": "no backend orders ties by their text: the cello memory comes first because it was stored first."},
        kind="predict", case=("Alice plays the cello.", "Who plays?"), compute=_key_bm25_tie),
])
