"""Exercise checks and quiz for lesson 10 (memory that changes its mind).

``check_follow_to_current`` builds chains of versions of several lengths and
checks that the learner's function reaches the current version from every one,
returns an id, and refuses an unknown id. ``check_replaces`` runs the learner's
rule for "does this new fact replace that one?" over cases of each kind a
memory meets (a new value, a repeat, a compatible fact, another subject or
attribute) and answers a wrong verdict with the case and the idea behind it.
``check_replaces`` is a specification: its eleven verdicts are fixed, and any
code that returns them passes. ``check_search_as_of`` grades the design
exercise 10.3 by properties, on memories whose facts change on random days:
one version of a fact per day, the right one on a day without a change, one
rule for every change day (old or new: the learner's), and the ranking the
memory's own. It prints which rule the design chose.
"""

from __future__ import annotations

import random
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
    Exercise("10.3", designs="search as of a past day: which memories count then, and which version a change day "
             "belongs to", kind="design", minutes=25, solution=("search_as_of", "search_as_of_by_walking"),
             check="check_search_as_of"),
    Exercise("Stretch 10", designs="an open task with no answer key: a rule for changes said with a pronoun, and its "
             "cost in wrong picks", kind="stretch", minutes=15),
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


# ---------------------------------------------------------------- 10.3 (design)

LANGUAGE = "Alice favourite programming language"
DEADLINE = "VelocityDB v1.0 project deadline"


def _dated_chains(rng: random.Random) -> tuple[HybridMemory, dict[str, list[tuple[str, str, str]]]]:
    """The demo facts with two of them changed on random days; per query, its versions as (id, start, end) days."""
    memory = HybridMemory()
    seed_memory(memory)
    day = [f"2026-{1 + d // 28:02d}-{1 + d % 28:02d}" for d in sorted(rng.sample(range(20, 300), 3))]
    go = memory.supersede("mem_0001", "Alice's favourite programming language is Go.", at=day[0])
    hour = f"T{rng.randint(0, 23):02d}:30:00+00:00"  # a change at an hour of the day, as supersede records by default
    zig = memory.supersede(go, "Alice's favourite programming language is Zig.", at=day[2] + hour)
    april = memory.supersede("mem_0005", "The project deadline for VelocityDB v1.0 is April 15.", at=day[1])
    return memory, {LANGUAGE: [("mem_0001", "", day[0]), (go, day[0], day[2]), (zig, day[2], "9999")],
                    DEADLINE: [("mem_0005", "", day[1]), (april, day[1], "9999")]}


def _shift(day: str, by: int) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(day) + timedelta(days=by)).isoformat()


def _reference(memory: MemoryBackend, query: str, day: str, change_day_is_new: bool, top_k: int = 3) -> list[str]:
    """The ids the check expects, once a design's choice for a change day is known."""
    kept = []
    for hit in memory.search(query, top_k=len(memory), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        start = before.superseded_at[:10] if before is not None else ""
        end = (memory.get(hit.id).superseded_at or "9999")[:10]
        if (start <= day < end) if change_day_is_new else (start < day <= end):
            kept.append(hit.id)
    return kept[:top_k]


def _as_of_test(search_as_of: Callable[..., list], report: list[str]) -> None:
    choices: dict[str, str] = {}  # change day → "old" or "new" version, over every memory the check builds
    for seed in (1, 2, 3):
        memory, chains = _dated_chains(random.Random(seed))
        before, asked = memory.list_all(), []
        for query, chain in chains.items():
            changes = [start for _, start, _ in chain if start]
            history = " → ".join(f"{v} (from {s or 'the start'})" for v, s, _ in chain)
            for day in sorted({_shift(changes[0], -30), _shift(changes[-1], 30)}
                              | {_shift(c, by) for c in changes for by in (-1, 0, 1)}):
                ids = [getattr(hit, "id", hit) for hit in search_as_of(memory, query, day, top_k=3)]
                asked.append((query, day, ids))
                versions = [i for i in ids if i in {v for v, _, _ in chain}]
                told = f"search_as_of(memory, {query!r}, {day!r}) returned {ids}"
                assert len(versions) <= 1, (f"{told}: {versions} are versions of one fact ({history}), but on any "
                                            "day exactly one version is current, never both")
                assert versions, (f"{told}, no version of the fact ({history}), but one was current that day, never "
                                  "neither. Hint: the first version counts as current from the start; search "
                                  "without include_history=True sees only today's versions")
                start = next(s for v, s, _ in chain if v == versions[0])
                if day in changes:
                    choices.setdefault(day, "new" if start == day else "old")
                    continue
                right = next(v for v, s, e in chain if s < day < e)
                assert versions[0] == right, (
                    f"{told}: on {day} ({history}) the current version was {right}, not {versions[0]}. Hint: "
                    + ("search without include_history=True sees only today's versions" if versions[0] == chain[-1][0]
                       else "compare days, the first 10 characters of superseded_at (a change at 09:30 happened on "
                            "its day)"))
        if len(set(choices.values())) > 1:
            by = {c: sorted(d for d, x in choices.items() if x == c) for c in ("old", "new")}
            raise AssertionError(
                f"on the change days {by['new']} you counted the new version, on {by['old']} the old one: pick one "
                "rule for a change day and keep it. Hint: superseded_at may carry an hour "
                "('2026-06-15T09:30:00+00:00'); compare its first 10 characters with the day")
        assert memory.list_all() == before, "search_as_of changed the memory: a search only reads"
        new = "new" in choices.values()
        for query, day, ids in asked:
            expected = _reference(memory, query, day, new)
            assert ids == expected, (
                f"search_as_of(memory, {query!r}, {day!r}) returned {ids}; the best 3 memories current that day, in "
                f"the order search(..., include_history=True) ranks them, are {expected}")
    report.append(f"  Your rule: a change day belongs to the {'new' if new else 'old'} version "
                  f"(asked on {len(choices)} change days, some of them changes made at an hour of the day).")


def check_search_as_of(search_as_of: Callable[..., list]) -> bool:
    """Check exercise 10.3 (design): the best memories among those current on a day, a change day your choice."""
    report: list[str] = []
    passed = check("Exercise 10.3 (search as of a day)", lambda: _as_of_test(search_as_of, report), SOLUTION)
    if passed:  # the grey case: what this design decided
        print("\n".join(report))
    return passed


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


def _key_delete_an_old_version() -> str:
    """10: delete the oldest of three versions of a fact."""
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.persistence import WouldRevive

    memory = HybridMemory()
    acme = memory.store("Tom works at Acme.")
    globex = memory.supersede(acme, "Tom works at Globex.")
    initech = memory.supersede(globex, "Tom works at Initech.")
    try:
        memory.delete(acme)
    except WouldRevive:
        return only_true({"a": True, "b": False, "c": False, "d": False})
    left = {record.id: record for record in memory.list_all()}
    return only_true({"a": False, "b": set(left) == {globex, initech} and left[initech].is_current
                      and not left[globex].is_current, "c": not left,
                      "d": globex in left and left[globex].is_current})


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
        {"a": "the stand-in picks hits by the question's words, not by when they were stored, and nothing links "
              "the later fact to the earlier one.",
         "b": "in section 1 the Go fact lost because it shared almost none of the question's words; here both share "
              "them, so both are quoted.",
         "d": "the stand-in has no notion of a conflict: it quotes the hits that mention what was asked."},
        kind="predict", case=("Bob has moved to the Search team.", "Which team is Bob on?"),
        compute=_key_append_only_team),
    Question(
        "Predict: \"Tom works at Acme.\" (mem_0001) was superseded by \"Tom works at Globex.\" (mem_0002), and that "
        "by \"Tom works at Initech.\" (mem_0003). You call memory.delete(\"mem_0001\"), the oldest version. What "
        "happens?",
        {"a": "Nothing is deleted: WouldRevive refuses any delete in a fact that has history",
         "b": "mem_0001 is gone; mem_0002 stays history and mem_0003 stays current",
         "c": "All three versions are gone: deleting one version deletes the fact",
         "d": "mem_0001 is gone and the versions shift: mem_0002 is current again"},
        "b", "delete refuses only when the memory removed is the current version of a fact with history, because "
             "its predecessor would come back; an older version is cut out of its chain, and the current one stays.",
        {"a": "the refusal protects against a revival; deleting the oldest version revives nothing, so it goes ahead.",
         "c": "that is forget, a different call; delete removes one memory.",
         "d": "which version is current is recorded on each memory (superseded_by); removing an old one changes "
              "nothing about the newest."},
        kind="predict", case=("Tom works at Acme.", "Tom works at Initech."), compute=_key_delete_an_old_version),
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
        "A new fact may replace a stored one. Design A stores it at once and tells the model; design B (this kit) "
        "holds it back and names the exact memory_update call. The model ignores the note. What is in memory?",
        {"a": "A: both versions, both current, nothing linking them; B: the old version only, the new one unsaved",
         "b": "A: the new version current and the old one history; B: the same, once the note is read",
         "c": "A: both versions current; B: both versions current too, since keep_both is the default",
         "d": "A: the new version only, the old one overwritten; B: the old version only"},
        "a",
        "A's write needs no decision, so ignoring the note leaves two current versions, the failure this lesson "
        "began with; B's write waits for one, so ignoring it leaves memory as it was, free of contradictions.",
        {"b": "only memory_update supersedes; a store, or a note the model ignores, marks nothing as history.",
         "c": "keep_both is false unless the model sets it: that flag is the model's way to say both facts hold.",
         "d": "a store never overwrites: it appends, and the check on write only reports what it found."},
        kind="choose"),
    Question(
        "A memory built like mem0 holds \"Priya's standup is at 9:00.\" The user says \"Priya's Tuesday standup "
        "is at 10:00.\" The model chooses UPDATE on the 9:00 memory. On Wednesday you ask when Priya's standup is. "
        "What can search still find, and where is 9:00?",
        {"a": "Both texts: UPDATE keeps the old value as a version search can rank, as supersede does",
         "b": "Only the 10:00 text; 9:00 is left only in mem0's change log (history), which search never reads",
         "c": "Only the 9:00 text: an UPDATE is refused when the new fact names a narrower case",
         "d": "The 10:00 text, and the 9:00 one comes back by itself once Tuesday has passed"},
        "b",
        "UPDATE rewrites the memory in place: the model judged a narrower fact (Tuesday) a replacement, so "
        "Wednesday's answer is 10:00; the 9:00 text, still true on other days, survives only as an entry of the "
        "change log, and nothing brings it back unless someone reads the log or the user says it again.",
        {"a": "mem0 logs the old text, but search ranks only the memory's new one; this kit's supersede keeps the "
              "old version as a memory of its own, which include_history=True ranks.",
         "c": "nothing checks the model's choice: the operation it picks is the operation that runs.",
         "d": "a memory holds texts, not schedules; nothing in it knows that Tuesday passes."},
        kind="explain", case=("Priya's standup is at 9:00.", "Priya's Tuesday standup is at 10:00.")),
])
