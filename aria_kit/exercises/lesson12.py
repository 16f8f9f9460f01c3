"""Exercise checks for lesson 12 (memory on Qdrant): point ids, and BM25 weights with a fixed AVGDL.

``check_to_point_id(to_point_id)`` compares the learner's ``to_point_id`` with
the kit's own id format, ``memory_rules.make_memory_id``: every id it writes must
come back as its number, and strings it never writes (``mem_42``,
``mem_00042``, ``mem_0000``, other spellings, non-strings) must give ``None``.
``check_bm25_weight(bm25_weight)`` compares ``bm25_weight(tf, doc_len, avgdl)``
with ``bm25.BM25Index``: on a small corpus built so that its average length is
exactly ``avgdl``, a one-word query scores ``idf · weight``, so the index's
score divided by its IDF is the weight. Neither check needs qdrant-client, so
both run on Binder too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aria_kit.bm25 import BM25Index
from aria_kit.exercises import check
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


def _bm25_weight_test(bm25_weight: Callable[..., float]) -> None:
    for tf, doc_len, total, documents in WEIGHT_CASES:
        avgdl = total / documents
        index = _corpus(tf, doc_len, total, documents)
        expected = float(index.scores(["x"])[0]) / index.idf("x")
        got = float(bm25_weight(tf, doc_len, avgdl))  # a stub raises NotImplementedError here
        assert abs(got - expected) < 1e-9, (
            f"bm25_weight(tf={tf}, doc_len={doc_len}, avgdl={avgdl:.4f}) should be {expected:.4f}, got {got:.4f} "
            "(weight = tf·(k1 + 1) / (tf + k1·(1 − b + b·doc_len/avgdl)) with k1 = 1.5, b = 0.75)")


def check_to_point_id(to_point_id: Callable[[Any], int | None]) -> bool:
    """Check exercise 12.1: ``to_point_id("mem_0042") == 42``, and ``None`` for anything that is not a memory id."""
    return check("Exercise 12.1 (memory id → point id)", lambda: _point_id_test(to_point_id), SOLUTION)


def check_bm25_weight(bm25_weight: Callable[..., float]) -> bool:
    """Check exercise 12.2: ``bm25_weight(tf, doc_len, avgdl)``, the BM25 weight one sparse-vector entry stores."""
    return check("Exercise 12.2 (BM25 weight with a fixed AVGDL)", lambda: _bm25_weight_test(bm25_weight), SOLUTION)
