"""Claims in 10_memory_that_changes_its_mind, each tied to the output that makes it true."""

from lesson_claims import Claim, Lesson

LESSON = Lesson("10_memory_that_changes_its_mind")
RECALL_TABLE = "ingest(memories[how]"
VERDICT_TABLE = "caught_by(p)"


def _row(fragment: str, first: str, second: str = "") -> list[str]:
    """The cells of the table row of ``fragment``'s output that starts with ``first`` (and ``second``)."""
    for line in LESSON.output(fragment).splitlines():
        cells = line.split()
        if cells[:1] == [first] and (not second or cells[1:2] == [second]):
            return cells
    raise AssertionError(f"no row {first} {second} in the output of the cell with {fragment!r}")


def _is(actual: object, expected: object, what: str) -> bool:
    assert actual == expected, f"{what}: the output shows {actual!r}, the prose says {expected!r}"
    return True


def _hit_ids(fragment: str, section: str) -> list[str]:
    after = LESSON.output(fragment).split(section, 1)[1].split(":\n", 1)[0]
    return [line.split("]")[0].strip(" [") for line in after.splitlines() if line.strip().startswith("[")]


def _heldout_misses() -> list[str]:
    from aria_kit.write_conflicts import labelled_state, load_sequences
    flags = []
    for sequence in load_sequences("heldout"):
        labelled_state(sequence, flags)
    return [f.text for f in flags if f.label == "replaces" and f.replaces != f.target]


CLAIMS = [
    Claim("the answer is **Rust**: stale", lambda: _is(
        LESSON.output("before.chat(").splitlines()[1], "From memory: Alice's favourite programming language is Rust. "
        "[mem_0001]", "the answer after the switch") and "recall mem_0001, mem_0008" in LESSON.output("before.chat(")),
    Claim("trusts the best-ranked, self-contained one", lambda: _is(
        LESSON.output("scripted = AutonomousAgent").splitlines()[0], "Alice's favourite programming language is Rust "
        "[mem_0001].", "the scripted answer")),
    Claim("nearly tie on every score", lambda: _is(
        _hit_ids("include_history=True", "with history:")[:2], ["mem_0008", "mem_0001"], "the two versions, ranked")
        and "bm25 4.951)" in LESSON.output("include_history=True").split("with history:")[1]),
    Claim("Default search leaves superseded memories out", lambda: _is(
        "mem_0001" in _hit_ids("include_history=True", "current only:"), False, "mem_0001 in the current-only ranking")),
    Claim("offers it alongside the other four tools", lambda: _is(
        [t.name for t in __import__("aria_kit.demo", fromlist=["make_agent"]).make_agent(verbose=False).tools.values()],
        ["memory_store", "memory_search", "calculator", "web_search", "memory_update"], "make_agent's tools")),
    Claim("Rust is still in memory as history, one link away", lambda: _is(
        LESSON.output("agent.memory.history(\"mem_0001\")").strip().splitlines()[-1],
        "[('mem_0001', \"Alice's favourite programming language is Rust.\", 'mem_0008'), ('mem_0008', \"Alice's "
        "favourite programming language is Go.\", None)]", "the history of mem_0001")),
    Claim("but at rank 1 in only 5 of 20 update", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[2], "5/20", "append-only: current fact at rank 1")),
    Claim("stale evidence is in the top 3 of all 20", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[4], "20/20", "append-only: stale evidence in the top 3")),
    Claim("finds the current fact in its top 3 every time", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[3], "20/20", "append-only: current fact in the top 3")),
    Claim("the current one comes first every time", lambda: _is(
        (_row(RECALL_TABLE, "superseding", "update")[2], _row(RECALL_TABLE, "superseding", "update")[4]),
        ("20/20", "0/20"), "superseding: current at rank 1, stale in top 3")),
    Claim("append-only memory had it there in 5 of 20", lambda: _is(
        (_row(RECALL_TABLE, "superseding", "update")[2], _row(RECALL_TABLE, "append_only", "update")[2]),
        ("20/20", "5/20"), "current fact at rank 1, superseding and append-only")),
    Claim("What did it do with each of the 30 stated changes", lambda: _is(
        sum(int(c) for p in ("from-to", "is-now", "plain", "pronoun", "switched", "these-days")
            for c in _row(VERDICT_TABLE, p)[-3:]), 30, "stated changes in the verdict table")),
    Claim("the change rule supersedes the best-ranked one, right or wrong", lambda: _is(
        _row(VERDICT_TABLE, "switched")[-3:-1], ["2", "3"], "switched: right and wrong picks")),
    Claim("two only the check on write catches", lambda: _is(
        [_row(VERDICT_TABLE, p)[1:4] for p in ("plain", "these-days")],
        [["check", "on", "write"], ["check", "on", "write"]], "what caught plain and these-days")
        and _row(VERDICT_TABLE, "plain")[4] == _row(VERDICT_TABLE, "these-days")[4] == "5"),
    Claim("one neither does", lambda: _is(_row(VERDICT_TABLE, "pronoun")[1:], ["neither", "0", "0", "5"],
                                          "pronoun row")),
    Claim("six people, five attributes", lambda: _is(
        LESSON.output("build_changing_facts()").splitlines()[0], "60 versions told; 20 update questions, 10 stable ones",
        "the set's size") and len(__import__("aria_kit.changing_facts", fromlist=["PEOPLE"]).PEOPLE) == 6),
    Claim("which is why a stable question fails above too", lambda: _is(
        _row(RECALL_TABLE, "offline_agent", "stable")[2], "9/10", "offline agent, stable questions at rank 1")),
    Claim("The misses on held-out", lambda: _is(_heldout_misses(), [
        "Atlas is built in Kotlin and Swift.", "I have moved to 4 Oak Avenue.", "Ravi is vegan now.",
        "The training cluster has 16 H100 GPUs."], "the held-out replacements the rule missed")),
]

_DEFINITION = "describes the design or the data set's construction, not an output"
_WORDING = "'one'/'first'/'best' here is ordinary wording (a single thing, an order of events), not a measured figure"
EXEMPT = {
    "keeps the old fact next to the new one": _WORDING,
    "both facts recalled and the stale one quoted": "an objective; section 1's claims check it",
    "linked both ways to the new one": "an objective; section 2's cells show it",
    "when a new fact replaces an old one": _WORDING,
    "send it the same two messages": "an instruction to the learner",
    "Section 6 counts how often": "a reference to a section",
    "stores the new version and marks the old one": _DEFINITION,
    "three columns of the memories table": "the schema of the memory file (persistence.py), not an output",
    "upgraded in place the first time it is opened": "persistence.py's upgrade rule, tested in tests/test_persistence.py",
    "the current one included": "the exercise's specification",
    "this fact replaces that one": _WORDING,
    "marks one that replaced another": "the recall printed in the next cell shows the \"replaces\" field",
    "only when it is *said* as one": _WORDING,
    "a new fact that contradicts an old one": _WORDING,
    "add, update, delete or do nothing": "mem0's design, described",
    "leaves two current versions whenever the model ignores": "a consequence of the design, argued in the quiz",
    "a duplicate of one": _DEFINITION,
    "A flag counts as right": _DEFINITION,
    "makes one way; make it your way": _WORDING,
    "compatible facts about one subject": "the exercise's specification",
    "Give a fact three versions": "describes what the next cell builds (three supersede calls, visible in its code)",
    "here, January 5": "the first_day argument of the next cell",
    "while search sees only the green one": "the chart's colours, set in charts.plot_fact_timeline",
    "One question per person and attribute": _DEFINITION,
    "Three memories, filled from the same conversation": "the three ingest modes of the next cell's loop",
    "and how often stale evidence came back in the top 3": "names the table's columns",
    "Each of those is still recoverable": _WORDING,
    "On twenty questions one question is five points": "arithmetic on the table's size, a reading guide",
    "mem0's original design": "mem0's design, described",
    "what was true on March 1": "an example question for Graphiti",
    "like mem0, a decision on every write": _WORDING,
    "Its failure is the same choice problem": "refers to section 6's verdict table (claimed above)",
    "near-identical versions nearly tie": "recap of section 6 (claimed above)",
    "**Stretch 10.**": "the stretch task's specification",
    "The check gives a fact three versions": "the stretch check, described",
    "A new fact may replace a stored one": _WORDING,
    "A and B both leave exactly one current version": "a quiz distractor",
    "B loses the old fact": "a quiz distractor",
    "Under A nothing marks the old version": "explains a distractor",
    "A model chooses ADD / UPDATE / DELETE": "mem0's design, described",
    "It is slower than keyword search": "a quiz distractor",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
def _key_holds(number: int) -> bool:
    """Quiz question ``number``'s computed key is its answer (the kit run on the question's case)."""
    import importlib

    question = importlib.import_module("aria_kit.exercises.lesson10").QUIZ.questions[number - 1]
    assert question.compute() == question.answer, f"Q{number}: the kit makes {question.compute()!r} true"
    return True


CLAIMS += [
    Claim("the stand-in quotes every hit that shares enough of the question's", lambda: _key_holds(1)),
    Claim('Both facts, one after the other, with nothing to say which one is', lambda: _key_holds(1)),
    Claim('that is forget, a different call; delete removes one memory and', lambda: _key_holds(2)),
    Claim('"lives in" holds one value at a time, so the check on write flags the', lambda: _key_holds(3)),
]
EXEMPT.update({
    'Search: the memory stored later is the one quoted': 'a wrong option; the computed key rules it out',
    'Payments: the shorter, self-contained fact wins, as Rust did in': 'a wrong option; the computed key rules it out',
    'It says the two memories conflict and asks which one is right': 'a wrong option; the computed key rules it out',
    'in section 1 the Go fact lost because it shared almost none of the': 'why a wrong option fails',
    'Stored as a new memory: the two sentences are different facts': 'a wrong option; the computed key rules it out',
    'Stored, and mem_0001 superseded on the spot, since one person lives':
        'a wrong option; the computed key rules it out',
    'B loses the new fact for good: nothing can bring it back':
        'a wrong option (a misconception); its explanation says why',
})
