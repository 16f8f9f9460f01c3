"""Exercise checks and quiz for lesson 10 (memory that changes its mind).

``check_follow_to_current(follow_to_current)`` builds a memory with a chain of
versions (Rust → Go → Zig) and checks that the learner's function reaches the
current version from any of them, and leaves a fact that never changed alone.
``check_is_update(is_update)`` runs the learner's recogniser over stated changes
in several phrasings, and over questions and plain facts that must not count.
"""

from __future__ import annotations

from collections.abc import Callable

from aria_kit.demo_data import seed_memory
from aria_kit.exercises import check
from aria_kit.exercises.quiz import Question, Quiz
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend

SOLUTION = "lesson10"
UPDATES = ["Alice has switched to Go.", "We moved from Raft to Paxos.", "The deadline is now April 15.",
           "Alice no longer works on VelocityDB.", "Bob changed his editor from Vim to Helix."]
NOT_UPDATES = ["Has Alice switched to Go?", "What is Alice's favourite language now?", "Alice likes Rust.",
               "Remember that the meeting is on Friday.", "How many hours are left until March 31?"]


def _follow_test(follow_to_current: Callable[[MemoryBackend, str], str]) -> None:
    memory = HybridMemory()
    seed_memory(memory)
    go = memory.supersede("mem_0001", "Alice's favourite programming language is Go.")
    zig = memory.supersede(go, "Alice's favourite programming language is Zig.")
    for start in ("mem_0001", go, zig):
        got = follow_to_current(memory, start)
        assert got == zig, f"follow_to_current(memory, {start!r}) returned {got!r}; the current version is {zig}"
    assert follow_to_current(memory, "mem_0003") == "mem_0003", "a memory nobody replaced is its own current version"


def _is_update_test(is_update: Callable[[str], bool]) -> None:
    missed = [m for m in UPDATES if not is_update(m)]
    assert not missed, f"these state a change but your function says no: {missed}"
    wrong = [m for m in NOT_UPDATES if is_update(m)]
    assert not wrong, f"these are not changes (a question, or a plain new fact) but your function says yes: {wrong}"


def check_follow_to_current(follow_to_current: Callable[[MemoryBackend, str], str]) -> bool:
    """Check exercise 10.1: from any version of a fact, reach its current version."""
    return check("Exercise 10.1 (follow a fact to its current version)", lambda: _follow_test(follow_to_current),
                 SOLUTION)


def check_is_update(is_update: Callable[[str], bool]) -> bool:
    """Check exercise 10.2: recognise messages that state a change."""
    return check("Exercise 10.2 (recognise a stated change)", lambda: _is_update_test(is_update), SOLUTION)


QUIZ = Quiz("Lesson 10", [
    Question(
        "Alice's favourite language was Rust; she switched to Go. With append-only memory, what does a search for "
        "her favourite language return?",
        {"a": "Only the Go fact: newer memories replace older ones", "b": "Both facts, and nothing says which is current",
         "c": "Only the Rust fact: the newer one is ignored"},
        "b",
        "Append-only memory keeps every fact as an equal; ranking decides, and near-identical texts tie.",
        {"a": "Nothing replaces anything in an append-only memory: both facts are stored as equals.",
         "c": "The Go fact is stored and searchable; it just competes with the Rust one on equal terms."}),
    Question(
        "What does `supersede(old_id, new_text)` do to the old memory?",
        {"a": "Deletes it", "b": "Overwrites its text in place",
         "c": "Keeps it, marked with its successor's id and when it stopped being current"},
        "c",
        "Nothing is lost: default search skips it, include_history=True and history() bring it back.",
        {"a": "Deleting would lose what was true before; superseding keeps it as history.",
         "b": "Overwriting in place (mem0's UPDATE) loses the old value and when it changed."}),
    Question(
        "In the lesson's measurement, why does append-only memory put the stale fact first so often?",
        {"a": "The old and new facts differ in one word, so their scores nearly tie, and ties go to the older memory",
         "b": "BM25 prefers older documents", "c": "The embedder is trained on old data"},
        "a",
        "Two versions of one fact share almost every word; nothing in the scores says which is newer.",
        {"b": "BM25 knows nothing about age; the tie-breaking rule of the memory does.",
         "c": "Both versions get embedded the same way; the embedder cannot know which one is current."}),
    Question(
        "A model chooses ADD / UPDATE / DELETE for each new fact (as in mem0). What is its typical failure?",
        {"a": "It cannot store new facts", "b": "It updates or deletes the wrong memory, and the old value is gone",
         "c": "It is always slower than keyword search"},
        "b",
        "A wrong choice overwrites or deletes a fact that was still true; without history you cannot undo it.",
        {"a": "ADD stores new facts fine; the risk is in UPDATE and DELETE.",
         "c": "Speed is not the issue; the choice the model makes is."}),
])
