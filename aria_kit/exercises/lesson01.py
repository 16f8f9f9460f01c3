"""Exercise checks for lesson 01 (interfaces): a memory backend of your own, then a memory that forgets.

``check_memory_backend(MyMemory)`` creates the learner's class and holds it to the
``MemoryBackend`` contract as the agent relies on it: ids ``mem_0001`` upwards and
never reused after a delete, a ``"general"`` category when none is given, stored
metadata that the caller cannot change afterwards, ``list_all`` oldest first as a
fresh list, ``delete`` answering True/False instead of raising, and ``search``
ranking by shared words with ties going to the *newest* memory (the opposite of the
lesson's toy, so copying the toy fails), each hit scored 1/(60 + rank) like the toy; then,
as a property, seeded random store/delete histories (shortest first) against a plain list.
``check_bounded_memory(BoundedMemory)`` checks the stretch task: a wrapper that keeps at
most ``capacity`` memories of any backend by forgetting the oldest. Both print a
verdict and never raise.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord

SOLUTION = "lesson01"

EXERCISES = [
    Exercise("01.1", designs="a memory backend that keeps the contract the agent relies on: ids never reused, "
             "copies handed out, ties broken newest first", kind="specification", minutes=25, solution=("MyMemory",)),
    Exercise("Stretch 01", designs="a wrapper that bounds any memory by forgetting the oldest, and what the "
             "contract should say when it forgets", kind="stretch", minutes=20, solution=("BoundedMemory",)),
]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


def _create(cls: type) -> MemoryBackend:
    assert isinstance(cls, type) and issubclass(cls, MemoryBackend), (
        f"pass the class itself, a subclass of MemoryBackend (got {cls!r})")
    try:
        return cls()
    except TypeError as exc:
        missing = sorted(getattr(cls, "__abstractmethods__", ()))
        if missing:
            raise AssertionError(f"{cls.__name__} cannot be created yet: it lacks {', '.join(missing)}") from exc
        raise


def _memory_backend_test(cls: type) -> None:
    memory = _create(cls)
    ids = [memory.store(text) for text in ("Alice likes Rust.", "Bob likes Go.", "Alice drinks tea.")]
    assert ids == ["mem_0001", "mem_0002", "mem_0003"], f"three stores should return mem_0001 … mem_0003, got {ids}"
    assert memory.delete("mem_0003") is True, "delete of a stored id should return True"
    assert memory.delete("mem_0003") is False, "deleting the same id twice should return False the second time"
    assert memory.delete("mem_9999") is False, "delete of an id that never existed should return False, not raise"
    new = memory.store("Carol likes Zig.")
    assert new == "mem_0004", (f"after deleting mem_0003 the next store returned {new!r}: ids must never be reused "
                               "(an old reference to mem_0003 would find a different memory). Keep a counter")
    records = memory.list_all()
    assert all(isinstance(r, MemoryRecord) for r in records), "list_all should return MemoryRecord objects"
    assert [r.id for r in records] == ["mem_0001", "mem_0002", "mem_0004"], (
        f"list_all should give the live memories oldest first, got {[r.id for r in records]}")
    assert records[0].metadata == {"category": "general"}, (
        f"a memory stored without metadata should have {{'category': 'general'}}, got {records[0].metadata}")
    records.clear()
    assert len(memory.list_all()) == 3, "clearing the list that list_all returned emptied the memory: return a copy"

    tags = {"source": "chat"}
    tagged = memory.store("Dave likes Rust too.", tags)
    tags["source"] = "changed later"
    stored = next(r for r in memory.list_all() if r.id == tagged)
    assert stored.metadata == {"source": "chat", "category": "general"}, (
        f"store(text, {{'source': 'chat'}}) should keep a copy with a category added, "
        f"{{'source': 'chat', 'category': 'general'}}; got {stored.metadata}")

    hits = memory.search("Who likes Rust?", top_k=5)
    assert all(isinstance(h, Hit) for h in hits), "search should return Hit objects"
    got = [h.id for h in hits]
    # "likes" is shared by four memories, "rust" by two: mem_0005 and mem_0001 share two words, the newer first.
    assert got == ["mem_0005", "mem_0001", "mem_0004", "mem_0002"], (
        f"search('Who likes Rust?') should rank by shared words, the newest first on a tie: "
        f"['mem_0005', 'mem_0001', 'mem_0004', 'mem_0002'], got {got}")
    scores = [float(h.score) for h in hits]
    expected = [1 / (60 + rank) for rank in range(1, len(hits) + 1)]
    assert all(abs(got - want) < 1e-12 for got, want in zip(scores, expected)), (
        f"the hit at rank r should score 1/(60 + r), the fused score of one ranking: expected "
        f"{[round(x, 4) for x in expected]}, got {[round(x, 4) for x in scores]}")
    assert all(h.cosine == 0 and h.bm25 == 0 for h in hits), "a memory that computes no cosine or BM25 reports 0"
    assert len(memory.search("Who likes Rust?", top_k=2)) == 2, "search should return at most top_k hits"
    assert memory.search("quantum chromodynamics") == [], "a query sharing no word with any memory should find nothing"
    memory.delete("mem_0005")
    assert "mem_0005" not in [h.id for h in memory.search("Dave likes Rust")], "a deleted memory was still found"
    _random_histories(cls)


def _random_histories(cls: type) -> None:
    """The contract as a property: over seeded random store/delete histories, shortest first, the memory
    agrees with a plain list of (id, text) that never reuses a number. The first history that breaks it is
    reported, so the learner sees the smallest one."""
    rng = random.Random(1)
    for length in range(1, 25):
        memory, model, issued, steps = _create(cls), [], 0, []
        for _ in range(length):
            if model and rng.random() < 0.4:
                victim = rng.choice(model + [("mem_9999", "")])[0]
                steps.append(f"delete({victim!r})")
                existed = any(memory_id == victim for memory_id, _ in model)
                answer = memory.delete(victim)
                assert answer is existed, f"after {'; '.join(steps)}: delete returned {answer!r}, expected {existed}"
                model = [(i, t) for i, t in model if i != victim]
            else:
                text = f"note {issued + 1} about {rng.choice(['Rust', 'Go', 'Zig'])}"
                steps.append(f"store({text!r})")
                issued += 1
                got = memory.store(text)
                assert got == f"mem_{issued:04d}", (f"after {'; '.join(steps)}: store returned {got!r}, expected "
                                                    f"'mem_{issued:04d}' (one more than any id ever handed out)")
                model.append((got, text))
            live = [(r.id, r.text) for r in memory.list_all()]
            assert live == model, (f"after {'; '.join(steps)}: list_all gives {live}, expected {model} "
                                   "(the live memories, oldest first)")


class _ListMemory(MemoryBackend):
    """The checker's own inner backend for the stretch task: insertion order, shared-word search."""

    def __init__(self) -> None:
        self._records: list[MemoryRecord] = []
        self._next = 1

    def store(self, text, metadata=None):
        record = MemoryRecord(f"mem_{self._next:04d}", text, {"category": "general", **(metadata or {})})
        self._next += 1
        self._records.append(record)
        return record.id

    def search(self, query, top_k=3):
        scored = [(len(_words(query) & _words(r.text)), r) for r in self._records]
        scored = sorted([pair for pair in scored if pair[0]], key=lambda pair: -pair[0])
        return [Hit(r.id, r.text, r.metadata, float(n), 0.0, 0.0) for n, r in scored[:top_k]]

    def list_all(self):
        return list(self._records)

    def delete(self, memory_id):
        before = len(self._records)
        self._records = [r for r in self._records if r.id != memory_id]
        return len(self._records) < before


def _bounded_memory_test(cls: Callable[..., MemoryBackend]) -> None:
    inner = _ListMemory()
    bounded = cls(inner, capacity=3)  # a stub raises NotImplementedError here: "not done yet"
    assert isinstance(bounded, MemoryBackend), "BoundedMemory should itself be a MemoryBackend, so the agent accepts it"
    ids = [bounded.store(f"fact number {n} about Rust", {"category": "fact"}) for n in range(1, 6)]
    assert ids == [f"mem_{n:04d}" for n in range(1, 6)], f"store should return the inner memory's ids, got {ids}"
    kept = [r.id for r in bounded.list_all()]
    assert kept == ["mem_0003", "mem_0004", "mem_0005"], (
        f"with capacity 3, after five stores the three newest should remain, oldest first; got {kept}")
    assert [r.id for r in inner.list_all()] == kept, "the oldest memories must be deleted from the inner memory too"
    found = [h.id for h in bounded.search("Rust", top_k=10)]
    assert sorted(found) == kept, f"search should see only the memories kept, got {found}"
    assert bounded.delete("mem_0004") is True and bounded.delete("mem_0001") is False, (
        "delete should pass through to the inner memory and report whether the memory existed")
    bounded.store("one more about Rust")
    bounded.store("and another about Rust")
    kept = [r.id for r in bounded.list_all()]
    assert kept == ["mem_0005", "mem_0006", "mem_0007"], (
        f"after a delete, the memory may fill up to capacity again before forgetting; got {kept}")
    for capacity in (0, -1):
        try:
            cls(_ListMemory(), capacity=capacity)
        except ValueError:
            continue
        raise AssertionError(f"capacity={capacity} should raise ValueError: such a memory could hold nothing")


def check_memory_backend(cls: type) -> bool:
    """Check the class ``cls``: a ``MemoryBackend`` that keeps the contract (see the module docstring)."""
    return check("Exercise 01.1 (a memory backend of your own)", lambda: _memory_backend_test(cls), SOLUTION)


def check_bounded_memory(cls: Callable[..., MemoryBackend]) -> bool:
    """Check ``cls(inner, capacity)``: any memory, limited to its ``capacity`` newest memories."""
    return check("Stretch 01 (a memory that forgets)", lambda: _bounded_memory_test(cls), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_embedder_without_embed() -> str:
    """01: an Embedder subclass that sets name and dim but writes no embed."""
    from aria_kit.interfaces import Embedder

    try:
        quiet = type("QuietEmbedder", (Embedder,), {"name": "quiet", "dim": 8})
    except TypeError:
        return "a"
    try:
        embedder = quiet()
    except TypeError:
        return "b"
    try:
        return "d" if embedder.embed(["hello"]) is None else "c"
    except NotImplementedError:
        return "c"


def _key_id_after_a_delete() -> str:
    """01: the worked MyMemory stores three facts, deletes mem_0002, stores a fourth."""
    from aria_kit.solutions.lesson01 import MyMemory

    memory = MyMemory()
    for text in ("Ann owns a cat.", "Ann owns a dog.", "Ann owns a fish."):
        memory.store(text)
    memory.delete("mem_0002")
    new_id = memory.store("Ann owns a frog.")
    return only_true({"a": new_id == "mem_0002", "b": new_id == "mem_0003", "c": new_id == "mem_0004",
                      "d": not new_id.startswith("mem_")})


def _key_tie_newest_first() -> str:
    """01: the worked MyMemory, two facts that share only 'tom' with the query."""
    from aria_kit.solutions.lesson01 import MyMemory

    memory = MyMemory()
    memory.store("Tom plays chess.")
    memory.store("Tom plays golf.")
    hits = memory.search("What does Tom play?", top_k=1)
    if not hits:
        return "c"
    return only_true({"a": hits[0].id == "mem_0002", "b": hits[0].id == "mem_0001"})


QUIZ = Quiz("Lesson 01", [
    Question(
        "Why does the agent loop talk to a MemoryBackend rather than to HybridMemory directly?",
        {"a": "So every memory plugged in is sure to return the same hits for the same query.",
         "b": "So any memory that keeps the contract can be plugged in without editing the loop.",
         "c": "So the loop can check with isinstance which memory it was given and call that class's extra methods.",
         "d": "So the model can call the memory's methods itself, without going through a tool."},
        "b", "the loop depends on four methods, not on one implementation; swapping is a one-line change.",
        {"a": "a contract fixes the calls and the kind of answer, not the ranking: the toy and HybridMemory "
              "recall different facts for the same questions (section 4).",
         "c": "the loop never asks which class it has and calls only the four contract methods: that is what lets any "
              "memory in.",
         "d": "the model never calls the memory: the agent's recall and the memory tools do, through the same "
              "four methods."},
        kind="recall"),
    Question(
        "`class QuietEmbedder(Embedder)` sets `name = \"quiet\"` and `dim = 8` but writes no `embed`. Which line "
        "fails first?",
        {"a": "The class statement itself: Python checks the abstract methods when the class is defined.",
         "b": "`QuietEmbedder()`: Python refuses to create an instance while `embed` is still abstract.",
         "c": "The first `embed([\"hello\"])`, which raises NotImplementedError from the contract.",
         "d": "None: the inherited `embed` quietly returns None, and HybridMemory fails later on it."},
        "b", "an ABC refuses to instantiate a class with abstract methods left, so the mistake shows before any "
             "text is embedded.",
        {"a": "defining a class that misses a method is allowed (a subclass may fill it in); only creating an "
              "instance is refused.",
         "c": "that is what a plain base class with a raising stub does; with an ABC the instance never exists, so "
              "there is no embed call to fail.",
         "d": "an abstract method is not an inherited default: while one is left, the class cannot be instantiated."},
        kind="predict", case=("QuietEmbedder",), compute=_key_embedder_without_embed),
    Question(
        "Exercise 01.1's MyMemory stores 'Ann owns a cat.', 'Ann owns a dog.' and 'Ann owns a fish.', deletes "
        "mem_0002, then stores 'Ann owns a frog.'. Which id does the frog get?",
        {"a": "mem_0002: the freed id is handed out again, so the ids stay contiguous.",
         "b": "mem_0003: one more than the number of memories it now holds.",
         "c": "mem_0004: the counter goes on, whatever was deleted.",
         "d": "A random id such as a UUID, so that no two ids can ever collide."},
        "c", "an id is never reused: an answer that quoted [mem_0002] must never come to mean the frog.",
        {"a": "then an old answer quoting mem_0002 would point at a different memory, and nobody would notice.",
         "b": "counting the live memories is the bug the toy avoids: after a delete it hands out mem_0003, which the "
              "fish already has.",
         "d": "a counter already guarantees unique ids, and the contract's ids are mem_0001, mem_0002, …, which a "
              "reader can follow."},
        kind="predict", case=("Ann owns a frog.",), compute=_key_id_after_a_delete),
    Question(
        "MyMemory holds 'Tom plays chess.' (mem_0001) and then 'Tom plays golf.' (mem_0002). What does "
        "`search(\"What does Tom play?\", top_k=1)` return?",
        {"a": "mem_0002: both share one word with the query, and on a tie the newest memory comes first.",
         "b": "mem_0001: both share one word, and on a tie the older memory comes first.",
         "c": "Nothing: 'play' is not 'plays', so no memory shares a word with the query.",
         "d": "mem_0001: chess is a game one plays, so it is closer in meaning to the question."},
        "a", "'tom' is the only shared word in both, so it is a tie, and Exercise 01.1's rule breaks it: newest first.",
        {"b": "that is the toy's rule (its stable sort keeps insertion order); Exercise 01.1 asks for the opposite.",
         "c": "'tom' is a shared word: it is enough for a score of one.",
         "d": "counting shared words compares no meanings at all; that takes embeddings (lesson 02)."},
        kind="predict", case=("Tom plays golf.",), compute=_key_tie_newest_first),
])
