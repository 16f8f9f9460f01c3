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


def _key_append_only_team() -> str:
    """10: append-only memory with two facts about Bob's team; the stand-in is asked which team he is on."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Bob's team is Payments.", {"category": "work"})
    memory.store("Bob has moved to the Search team.", {"category": "work"})
    answer = _key_agent(memory).chat("Which team is Bob on?")
    payments, search = "Payments" in answer, "Search team" in answer
    return only_true({"a": search and not payments, "b": payments and not search,
                      "c": payments and search and "conflict" not in answer.lower(),
                      "d": "conflict" in answer.lower()})


def _key_delete_the_current_version() -> str:
    """10: delete the current version of a fact that has an older version."""
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.persistence import WouldRevive

    memory = HybridMemory()
    lyon = memory.store("Carol lives in Lyon.")
    nantes = memory.supersede(lyon, "Carol lives in Nantes.")
    try:
        memory.delete(nantes)
    except WouldRevive:
        refused = True
    else:
        refused = False
    ids = [hit.id for hit in memory.search("Where does Carol live?")]
    return only_true({"a": not refused and ids == [lyon], "b": refused and ids == [nantes] and len(memory) == 2,
                      "c": not refused and len(memory) == 0, "d": not refused and not ids and len(memory) == 1})


def _key_erin_moves() -> str:
    """10: memory holds "Erin lives in Porto."; the agent stores "Erin lives in Braga."."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Erin lives in Porto.", {"category": "user_pref"})
    answer = _key_agent(memory).tools["memory_store"].invoke({"text": "Erin lives in Braga."})
    return only_true({"a": answer.startswith("Not stored yet") and 'memory_update(memory_id="mem_0001"' in answer
                      and len(memory) == 1,
                      "b": answer.startswith("Stored as") and len(memory) == 2,
                      "c": answer.startswith("Not stored:"),
                      "d": answer.startswith("Stored as") and len(memory.search("Erin Porto")) == 1})


QUIZ = Quiz("Lesson 10", [
    Question(
        "Predict: append-only memory holds \"Bob's team is Payments.\" and then \"Bob has moved to the Search "
        "team.\", nothing else. The offline stand-in is asked \"Which team is Bob on?\". What does it answer?",
        {"a": "Search: the memory stored later is the one quoted",
         "b": "Payments: the shorter, self-contained fact wins, as Rust did in section 1",
         "c": "Both facts, one after the other, with nothing to say which one is current",
         "d": "It says the two memories conflict and asks which one is right"},
        "c",
        "the stand-in quotes every hit that shares enough of the question's words, and both share \"Bob\" and "
        "\"team\"; nothing in an append-only memory says that one replaced the other.",
        {"a": "nothing in an append-only memory says which fact is newer; search ranks by words and meaning, not "
              "by the order of storing.",
         "b": "in section 1 the Go fact lost because it shared almost none of the question's words; here both share "
              "them, so both are quoted.",
         "d": "the stand-in has no notion of a conflict: it quotes the hits that mention what was asked."},
        kind="predict", case=("Bob has moved to the Search team.", "Which team is Bob on?"),
        compute=_key_append_only_team),
    Question(
        "Predict: \"Carol lives in Lyon.\" (mem_0001) was superseded by \"Carol lives in Nantes.\" (mem_0002). "
        "You call memory.delete(\"mem_0002\"). What happens?",
        {"a": "mem_0002 is deleted and mem_0001 is current again: Lyon is back as Carol's city",
         "b": "Nothing is deleted: WouldRevive says Lyon would become current again, and names forget and supersede",
         "c": "Both versions are deleted: deleting a fact deletes its history with it",
         "d": "mem_0002 is deleted and mem_0001 stays history, so a search finds nothing about Carol"},
        "b", "deleting the current version alone would silently make its predecessor current; the kit refuses, "
             "with nothing changed. forget removes the fact with every version; supersede corrects it.",
        {"a": "that revival is exactly what the refusal prevents: a fact the user corrected would come back as if "
              "it were true today.",
         "c": "that is forget, a different call; delete removes one memory and refuses when that would revive another.",
         "d": "a chain whose current version is gone would leave a fact with no current version; the kit refuses "
              "rather than leave the memory in that state."},
        kind="predict", case=("Carol lives in Nantes.",), compute=_key_delete_the_current_version),
    Question(
        "Predict: memory holds \"Erin lives in Porto.\" (mem_0001). The agent stores \"Erin lives in Braga.\". "
        "What does memory_store answer?",
        {"a": "Not stored yet: it may replace mem_0001, with the exact memory_update call that would replace it",
         "b": "Stored as a new memory: the two sentences are different facts",
         "c": "Not stored: memory already says this",
         "d": "Stored, and mem_0001 superseded on the spot, since one person lives in one city"},
        "a",
        "\"lives in\" holds one value at a time, so the check on write flags the old city and holds the new fact "
        "back; the model decides, with memory_update or keep_both=true.",
        {"b": "same subject and a single-valued slot (lives in) with a new value is what the check looks for; "
              "\"likes\" would be stored, \"lives in\" is not.",
         "c": "a duplicate says the same thing; Braga is not Porto.",
         "d": "the memory finds candidates and the agent decides: a write never supersedes anything by itself, "
              "because the rule can be wrong."},
        kind="predict", case=("Erin lives in Braga.",), compute=_key_erin_moves),
    Question(
        "A new fact may replace a stored one. Design A stores it and tells the model; design B (this kit) holds it "
        "back and names the exact memory_update call. The model ignores the note. What is left?",
        {"a": "A: the old and new versions, both current; B: the old version only, and the model was told it was not stored",
         "b": "A and B both leave exactly one current version", "c": "B loses the old fact",
         "d": "B loses the new fact for good: nothing can bring it back"},
        "a",
        "Holding the write back keeps memory free of contradictions; the price is a second call when the model agrees.",
        {"b": "Under A nothing marks the old version: two current versions is the failure this lesson started with.",
         "c": "B never touches the old fact until memory_update is called; nothing is lost.",
         "d": "the result names the exact call, ready to be made as written: the model, or the user, can still "
              "make it."},
        kind="choose"),
    Question(
        "A model chooses ADD / UPDATE / DELETE for each new fact (as in mem0). What is its typical failure?",
        {"a": "It cannot store new facts", "b": "It updates or deletes the wrong memory, and the old value is gone",
         "c": "It is slower than keyword search",
         "d": "It keeps every version, so memory fills with stale facts"},
        "b",
        "A wrong choice overwrites or deletes a fact that was still true; without history you cannot undo it.",
        {"a": "ADD stores new facts fine; the risk is in UPDATE and DELETE.",
         "c": "Speed is not the issue; the choice the model makes is.",
         "d": "UPDATE rewrites in place and DELETE removes: that design keeps no history at all, which is its risk."},
        case=("mem0",)),
])
