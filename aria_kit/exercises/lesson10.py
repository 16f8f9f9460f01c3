"""Exercise checks and quiz for lesson 10 (memory that changes its mind).

``check_follow_to_current`` builds chains of versions of several lengths and
checks that the learner's function reaches the current version from every one,
returns an id, and refuses an unknown id. ``check_replaces`` runs the learner's
rule for "does this new fact replace that one?" over cases of each kind a
memory meets (a new value, a repeat, a compatible fact, another subject or
attribute) and answers a wrong verdict with the case and the idea behind it.
``check_replaces`` is a specification: its eleven verdicts are fixed, and any
code that returns them passes. ``check_search_as_of`` (the stretch) asks for the
best memories on three days of a fact's history; on the change day it accepts
the old version or the new one (the learner's choice), never both.
"""

from __future__ import annotations

from collections.abc import Callable

from aria_kit.demo_data import seed_memory
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend

SOLUTION = "lesson10"
EXERCISES = [
    Exercise("10.1", designs="a walk from any version of a fact to its current one, that refuses an unknown id",
             kind="specification", minutes=10, solution=("follow_to_current",)),
    Exercise("10.2", designs="the rule that decides whether a new fact replaces a stored one",
             kind="specification", minutes=25, solution=("replaces",)),
    Exercise("Stretch 10", designs="search as of a past day, with a choice of which version a change day belongs to",
             kind="stretch", minutes=30, solution=("search_as_of",)),
]

# ---------------------------------------------------------------- 10.1


def _chain(length: int) -> tuple[HybridMemory, list[str]]:
    memory = HybridMemory()
    seed_memory(memory)
    ids = ["mem_0001"]
    for version in range(1, length):
        ids.append(memory.supersede(ids[-1], f"Alice's favourite programming language is Lang{version}."))
    return memory, ids


def _follow_test(follow_to_current: Callable[[MemoryBackend, str], str]) -> None:
    for length in (1, 2, 4):
        memory, ids = _chain(length)
        for start in ids:
            got = follow_to_current(memory, start)
            assert isinstance(got, str), (f"follow_to_current returned a {type(got).__name__}; return the current "
                                          "version's id, a str such as 'mem_0008'")
            chain = " → ".join(ids)
            assert got == ids[-1], (f"from {start} (versions {chain}) you returned {got!r}, but the current version "
                                    f"is {ids[-1]}. Hint: a version is current when its superseded_by is None; "
                                    "keep following the links until you reach it, however many there are")
    memory, _ = _chain(2)
    assert follow_to_current(memory, "mem_0003") == "mem_0003", "a memory nobody replaced is its own current version"
    try:
        got = follow_to_current(memory, "mem_9999")
    except ValueError:
        return
    raise AssertionError(f"follow_to_current(memory, 'mem_9999') returned {got!r}; there is no such memory, so "
                         "raise ValueError naming it (memory.get returns None for an unknown id)")


def check_follow_to_current(follow_to_current: Callable[[MemoryBackend, str], str]) -> bool:
    """Check exercise 10.1: from any version of a fact, reach its current version."""
    return check("Exercise 10.1 (follow a fact to its current version)", lambda: _follow_test(follow_to_current),
                 SOLUTION)


# ---------------------------------------------------------------- 10.2

VIM, HELIX = "My favourite editor is Vim.", "My favourite editor is Helix."
# (old, new, replaces?, the idea a wrong verdict misses)
CASES = [
    (VIM, HELIX, True, "the same subject and attribute with another value: the new fact makes the old one out of date"),
    ("The deadline for VelocityDB v1.0 is March 31.", "The deadline for VelocityDB v1.0 is April 15.", True,
     "the same subject and attribute with another value, even when most words are shared"),
    ("Dave lives in Leeds.", "Dave lives in York.", True, "a person lives in one place at a time"),
    ("Alice's team is the storage team.", "Alice's team is the search team now.", True,
     "'now' and 'these days' are not part of the value; the team changed"),
    ("Dave likes tea.", "Dave likes chess.", False,
     "'likes' holds many values at once: liking chess does not stop Dave liking tea"),
    ("Lena plays the violin.", "Lena plays tennis.", False, "'plays' holds many values at once"),
    (VIM, VIM, False, "a repeat says the same thing: store nothing, replace nothing"),
    (VIM, "My favourite editor is Vim these days.", False, "the same value said with 'these days' is a repeat"),
    ("Alice's favourite editor is Vim.", "Bob's favourite editor is Helix.", False,
     "another subject: Bob's editor says nothing about Alice's"),
    ("Alice's favourite editor is Vim.", "Alice's favourite language is Go.", False,
     "another attribute of the same person: her editor and her language are both true"),
    ("Dave is tall.", "Dave is a doctor.", False, "'Dave is …' names no attribute: both can be true"),
]


def _replaces_test(replaces: Callable[[str, str], bool]) -> None:
    for old, new, expected, idea in CASES:
        got = replaces(old, new)
        assert isinstance(got, bool), f"replaces({old!r}, {new!r}) returned {got!r}; return True or False"
        if got != expected:
            verdict = "replaces" if got else "does not replace"
            raise AssertionError(f"your rule says {new!r} {verdict} {old!r}. Hint: {idea}")


def check_replaces(replaces: Callable[[str, str], bool]) -> bool:
    """Check exercise 10.2: decide whether a new fact replaces a stored one."""
    return check("Exercise 10.2 (does the new fact replace the old one?)", lambda: _replaces_test(replaces), SOLUTION)


# ---------------------------------------------------------------- stretch 10

LANGUAGE = "Alice favourite programming language"


def _as_of_test(search_as_of: Callable[..., list]) -> None:
    memory = HybridMemory()
    seed_memory(memory)
    go = memory.supersede("mem_0001", "Alice's favourite programming language is Go.", at="2026-03-02")
    zig = memory.supersede(go, "Alice's favourite programming language is Zig.", at="2026-06-15")
    # (day, the versions either of which may be the one current that day, the idea a wrong answer misses)
    for day, allowed, note in (
            ("2026-02-01", ("mem_0001",), "before any change the first version counts as current"),
            ("2026-03-02", ("mem_0001", go), "on the day of a change exactly one version is current, the old one "
                                             "or the new one as you decide, never both and never neither"),
            ("2026-07-01", (zig,), "after the last change only the newest version is current")):
        hits = search_as_of(memory, LANGUAGE, day, top_k=3)
        ids = [h.id for h in hits]
        versions = [i for i in ids if i in ("mem_0001", go, zig)]
        expected = " or ".join(f"[{i!r}]" for i in allowed)
        assert len(versions) == 1 and versions[0] in allowed, (
            f"search_as_of(memory, {LANGUAGE!r}, {day!r}) returned the versions {versions}; expected {expected}: "
            f"{note}")
        assert len(ids) == 3, f"on {day} you returned {len(ids)} memories; top_k=3 asks for the best 3 current then"


def check_search_as_of(search_as_of: Callable[..., list]) -> bool:
    """Check stretch 10: the best memories among those current on a given day."""
    return check("Stretch 10 (search as of a day)", lambda: _as_of_test(search_as_of), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_agent(memory=None):
    """The kit's agent on the offline stand-in, as lesson 09 assembles it (memory_update included)."""
    from aria_kit.demo import make_agent
    from aria_kit.offline import OfflineProvider

    return make_agent(memory=memory, llm=OfflineProvider(), verbose=False)


def _key_append_only_language() -> str:
    """10: append-only memory with the Rust fact and "Alice has switched to Go."; the stand-in is asked."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Alice's favourite programming language is Rust.", {"category": "user_pref"})
    memory.store("Alice has switched to Go.", {"category": "user_pref"})
    answer = _key_agent(memory).chat("What is Alice's favourite programming language?")
    return only_true({"a": "Go" in answer and "Rust" not in answer, "b": "Rust" in answer and "Go" not in answer,
                      "c": "Rust" in answer and "Go" in answer})


def _key_dave_likes_chess() -> str:
    """10: memory holds "Dave likes tea."; the agent stores "Dave likes chess."."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Dave likes tea.", {"category": "user_pref"})
    answer = _key_agent(memory).tools["memory_store"].invoke({"text": "Dave likes chess."})
    return only_true({"a": answer.startswith("Not stored yet"), "b": answer.startswith("Stored as"),
                      "c": answer.startswith("Not stored:")})


QUIZ = Quiz("Lesson 10", [
    Question(
        "Append-only memory holds \"Alice's favourite programming language is Rust.\" and \"Alice has switched to "
        "Go.\", and nothing else about her languages. The offline stand-in is asked \"What is Alice's favourite "
        "programming language?\". What does it answer?",
        {"a": "Go: the newer memory wins", "b": "Rust: it quotes the hits that share the question's words",
         "c": "Both, marked as a conflict"},
        "b",
        "Section 1 showed it: the Rust fact shares the question's words; \"Alice has switched to Go.\" shares almost "
        "none, so it is not quoted.",
        {"a": "Nothing in an append-only memory says which fact is newer; search ranks by words and meaning.",
         "c": "The stand-in has no notion of a conflict: it quotes the hits that mention what was asked."},
        kind="predict", case=("Alice has switched to Go.",), compute=_key_append_only_language),
    Question(
        "After `supersede(\"mem_0001\", \"… is Go.\")`, a default search for Alice's language no longer returns the "
        "Rust fact. Why, when the Rust fact is still stored?",
        {"a": "Default search skips superseded memories, as it skips deleted ones; include_history=True brings them back",
         "b": "Its embedding was removed, so it can no longer match", "c": "Its score is lowered by a penalty for age"},
        "a",
        "Superseding marks the row (superseded_by, superseded_at); search leaves marked rows out unless asked.",
        {"b": "Its vector and text are kept: include_history=True ranks it with its original scores.",
         "c": "No score changes: the row is left out of default search, not ranked lower."},
        kind="explain", case=('supersede("mem_0001"',)),
    Question(
        "Memory holds \"Dave likes tea.\". The agent stores \"Dave likes chess.\". What does memory_store answer?",
        {"a": "Not stored yet: it may replace the tea fact", "b": "Stored as a new memory",
         "c": "Not stored: memory already says this"},
        "b",
        "\"likes\" holds many values at once, so the check on write never flags it: both facts stay current.",
        {"a": "Same subject is not enough: the rule compares a single-valued slot (is, lives in), and \"likes\" is none.",
         "c": "A duplicate says the same thing; chess is not tea."},
        kind="predict", case=("Dave likes tea.", "Dave likes chess."), compute=_key_dave_likes_chess),
    Question(
        "A new fact may replace a stored one. Design A stores it and tells the model; design B (this kit) holds it "
        "back and names the exact memory_update call. The model ignores the note. What is left?",
        {"a": "A: the old and new versions, both current; B: the old version only, and the model was told it was not stored",
         "b": "A and B both leave exactly one current version", "c": "B loses the old fact"},
        "a",
        "Holding the write back keeps memory free of contradictions; the price is a second call when the model agrees.",
        {"b": "Under A nothing marks the old version: two current versions is the failure this lesson started with.",
         "c": "B never touches the old fact until memory_update is called; nothing is lost."},
        kind="choose"),
    Question(
        "A model chooses ADD / UPDATE / DELETE for each new fact (as in mem0). What is its typical failure?",
        {"a": "It cannot store new facts", "b": "It updates or deletes the wrong memory, and the old value is gone",
         "c": "It is slower than keyword search"},
        "b",
        "A wrong choice overwrites or deletes a fact that was still true; without history you cannot undo it.",
        {"a": "ADD stores new facts fine; the risk is in UPDATE and DELETE.",
         "c": "Speed is not the issue; the choice the model makes is."}, case=("mem0",)),
])
