"""Claims in 10_memory_that_changes_its_mind, each tied to the output that makes it true."""

from functools import partial
from pathlib import Path

from lesson_claims import Claim, Lesson, quiz_key_holds

ROOT = Path(__file__).resolve().parents[2]

LESSON = Lesson("10_memory_that_changes_its_mind")
RECALL_TABLE = "ingest(searched"
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


def _heldout_flags():
    from aria_kit.write_conflicts import labelled_state, load_sequences
    flags = []
    for sequence in load_sequences("heldout"):
        labelled_state(sequence, flags)
    return flags


def _heldout_errors() -> tuple[list[tuple[str, str]], list[str]]:
    """(wrong replacement flags as (new text, text of the memory named), missed replacements) on held-out."""
    from aria_kit.write_conflicts import load_sequences
    flags, wrong = _heldout_flags(), []
    for flag in flags:
        if flag.replaces is not None and flag.replaces != flag.target:
            sequence = next(s for s in load_sequences("heldout") if s.id == flag.sequence)
            # the memory named is the n-th write stored (repeats store nothing): read its text back
            stored = [w.text for w in sequence.writes if w.label != "duplicate"]
            wrong.append((flag.text, stored[int(flag.replaces.split("_")[1]) - 1]))
    return wrong, [f.text for f in flags if f.label == "replaces" and f.replaces is None]


def _check_on_write(stored: list[str], text: str):
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.write_conflicts import find_conflicts
    memory = HybridMemory()
    for fact in stored:
        memory.store(fact)
    return [(c.kind, c.text) for c in find_conflicts(memory, text)]


def _duplicate_rule() -> bool:
    differ = [("The freezer is at 18 degrees.", "The freezer is at -18 degrees."),
              ("The dose is 15 mg.", "The dose is 1.5 mg."), ("The C++ team lead is Ann.", "The C# team lead is Ann."),
              ("The router password is hunter2.", "The router password is Hunter2."),
              ("Build status: 🟢", "Build status: 🔴")]
    for old, new in differ:
        _is([k for k, _ in _check_on_write([old], new)].count("duplicate"), 0, f"{new!r} after {old!r} as a repeat")
    for old, new in [("My favourite editor is Vim.", "my favourite editor is vim"),
                     ("My favourite editor is Vim.", "My  favourite editor is \"Vim\" now.")]:
        _is(_check_on_write([old], new)[:1], [("duplicate", old)], f"{new!r} after {old!r}")
    return _is("duplicate  mem_0001" in LESSON.output("find_conflicts(memory, text)").split("is rust.")[1].split(
        "\n")[0], True, "the lower-case 'rust' row of the table")


def _replace_rule() -> bool:
    _is(_check_on_write(["My favourite editor is Vim."], "My favourite editor is Helix."),
        [("replaces", "My favourite editor is Vim.")], "a new value for the same slot")
    _is(_check_on_write(["My sister is a doctor."], "My sister is in Paris."), [], "a preposition after 'is'")
    _is(_check_on_write(["The course costs $40."], "The course costs £40."),
        [("replaces", "The course costs $40.")], "one code-like value changed")
    _is(_check_on_write(["The cache is Redis.", "The office is in Leeds."], "We switched the cache from Redis to Valkey."),
        [("replaces", "The cache is Redis.")], "a change announced in other words")
    return _is(_check_on_write(["Dave likes tea."], "Dave likes chess.") + _check_on_write(["Dave is tall."],
               "Dave is a doctor."), [], "many-valued relations and a bare name before 'is'")


def _stand_in_follows_the_wrong_flag() -> bool:
    from aria_kit.demo import make_agent
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.offline import OfflineProvider
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.memory.store("The SDK supports Python 3.9.")
    agent.chat("Remember that the SDK supports Python 3.12.")
    return _is([h.text for h in agent.memory.search("Which Python versions does the SDK support?", top_k=3)],
               ["The SDK supports Python 3.12."], "what search finds after the stand-in followed the flag")


def _report_order() -> bool:
    report = LESSON.output("CheckedMemoryStoreTool(checked)").splitlines()[0]
    return _is(report.index("memory_update(") < report.index("Candidates:") and report.startswith("Not stored yet"),
               True, "the call before the candidates' texts")


def _keep_both_stores() -> bool:
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import CheckedMemoryStoreTool
    memory = HybridMemory()
    memory.store("My favourite editor is Vim.")
    store = CheckedMemoryStoreTool(memory)
    said = [store.run("My favourite editor is Helix.", keep_both=True), store.run("My favourite editor is Vim.",
                                                                                   keep_both=True)]
    return _is([s.split(" (")[0] for s in said], ["Stored as mem_0002", "Stored as mem_0003"], "keep_both=true")


def _check_looks_past_quoting_turns() -> bool:
    """With 20 thread turns quoting a fact above it, the check still names the fact, and judges 5 memories without a thread."""
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.write_conflicts import CANDIDATES, find_conflicts
    fact = "The deadline of project 7 is Friday."
    memory = HybridMemory()
    quotes = [f"Deadline, project 7 deadline: {fact} Project 7, deadline Friday (round {i})." for i in range(20)]
    memory.store_many(quotes, [{"thread": "chat-1"}] * len(quotes))
    fact_id = memory.store(fact)
    ranked = [hit.id for hit in memory.search("The deadline of project 7 is Monday.", top_k=len(memory))]
    found = [(c.kind, c.id) for c in find_conflicts(memory, "The deadline of project 7 is Monday.")]
    return _is((CANDIDATES, ranked.index(fact_id) >= 5, found), (5, True, [("replaces", fact_id)]),
               "the candidates judged, the fact below the quoting turns, what the check names")


def _recall_and_tool_search_newer_first(memory, queries) -> bool:
    """The agent's recall and the memory_search tool rank as newer_first over memory.search, for every query."""
    from aria_kit.agent import AutonomousAgent
    from aria_kit.offline import OfflineProvider
    from aria_kit.persona import ARIA
    from aria_kit.recency import newer_first
    from aria_kit.tools import MemorySearchTool, default_tools
    agent = AutonomousAgent(ARIA, OfflineProvider(), memory, default_tools(memory))
    search, differs = MemorySearchTool(memory), 0
    for query in queries:
        expected = [h.id for h in newer_first(query, lambda k: memory.search(query, top_k=k), agent.recall_k,
                                              memory.embedder)]
        differs += expected != [h.id for h in memory.search(query, top_k=agent.recall_k)]
        agent.chat(query)
        recalled = [h.id for h in agent.last_turn.steps[0].detail["hits"]]
        listed = [line.split('"id": "')[1].split('"')[0] for line in search.run(query, top_k=agent.recall_k)
                  .splitlines()[1:] if '"id": "' in line]
        assert recalled == expected == listed, f"{query!r}: recall {recalled}, memory_search {listed}, newer_first {expected}"
    return differs > 0


def _newer_first_one_place_below() -> bool:
    """Lesson 10's newer_first row: current at rank 1 for all 20 update questions, the stale version right below it."""
    from aria_kit.changing_facts import _mentions, build_changing_facts, ingest
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.recency import newer_first
    versions, questions = build_changing_facts()
    memory = HybridMemory()
    ingest(memory, versions, "append_only")
    places = []
    for q in (q for q in questions if q.is_update):
        hits = newer_first(q.text, lambda k: memory.search(q.text, top_k=k), 3, memory.embedder)
        stale = [i for i, h in enumerate(hits) if any(_mentions(h.text, q.person, old) for old in q.stale)
                 and not _mentions(h.text, q.person, q.current)]
        current = [i for i, h in enumerate(hits) if _mentions(h.text, q.person, q.current)]
        places.append((current[:1], stale[:1]))
    _is(_recall_and_tool_search_newer_first(memory, [q.text for q in questions if q.is_update]), True,
        "the agent's recall and memory_search order hits as newer_first does")
    _is(_row(RECALL_TABLE, "newer_first", "update")[2:], ["20/20", "20/20", "20/20"], "the newer_first update row")
    return _is(places, [([0], [1])] * 20, "current and stale places under newer_first")


def _newer_first_held_out_reach() -> bool:
    """The held-out long_turns figure quoted beside the rule-built row: benchmarks/README.md's run on the shipped code."""
    from aria_kit.datasets import load_dataset
    readme = " ".join((ROOT / "benchmarks" / "README.md").read_text().split())
    shipped = readme.split("On the merged code (search-time thread context, as shipped now;", 1)[1].split(". ", 1)[0]
    current = sum(1 for q in load_dataset("long_turns").queries["heldout"] if q.update and q.update.asks == "current")
    return _is(("both turns in the top 20 for 6/36 (dev) and 10/36 (held-out) current questions" in shipped, current),
               (True, 36), "benchmarks/README.md's held-out long_turns reach of newer_first, and the current questions")


def _forget_output() -> list[str]:
    return LESSON.output("carol.forget(porto)").splitlines()


def _put_right() -> bool:
    """The last line of the wrong-picks cell restores a wrong pick's old text, with old and wrong kept as history."""
    import re
    lines = LESSON.output("offline.supersede(made.id").strip().splitlines()
    picks = [re.match(r"  (mem_\d+) (.+) → (mem_\d+) ", line).groups() for line in lines if " → " in line]
    restored = re.match(r"put right: (mem_\d+) (.+) is current; history \[(.+)\]$", lines[-1]).groups()
    history = [i.strip("' ") for i in restored[2].split(",")]
    return _is(any(restored[1] == text and history == [old, wrong, restored[0]] for old, text, wrong in picks), True,
               "a wrong pick's old text current again, the old and the wrong version in its history")


def _design_accepts_either_change_day() -> bool:
    """Exercise 10.3's check passes both shipped designs, one counting a change day as the new version's, one the old's."""
    import contextlib
    import io

    from aria_kit.exercises.lesson10 import check_search_as_of
    from aria_kit.solutions.lesson10 import SOLUTIONS
    said = []
    for (design,) in SOLUTIONS["10.3"]:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            passed = check_search_as_of(design)
        said.append((passed, "belongs to the new" in out.getvalue(), "belongs to the old" in out.getvalue()))
    return _is(said, [(True, True, False), (True, False, True)], "the 10.3 check on the two designs")


def _lesson_day_pinned() -> bool:
    from aria_kit.clock import LESSON_DAY, TODAY_VARIABLE
    recall = LESSON.output("persona.live_context(")
    return _is((LESSON_DAY, TODAY_VARIABLE, '"date": "2026-03-02"' in recall,
                '{"id": "mem_0006", "category": "user_pref", "text"' in recall),
               ("2026-03-02", "ARIA_KIT_TODAY", True, True), "the pinned day, its variable, the date the recall shows "
               "for the stored memory and none for a seeded one")


def _changes_at_an_hour() -> bool:
    """supersede without at= records a time of day, and the 10.3 check makes some changes at an hour."""
    import random

    from aria_kit.exercises.lesson10 import _dated_chains
    from aria_kit.memory_rules import check_moment
    memory, _ = _dated_chains(random.Random(1))
    return _is(("T" in check_moment(None), any("T" in (r.superseded_at or "") for r in memory.list_all()),
                any(r.superseded_at and "T" not in r.superseded_at for r in memory.list_all())), (True, True, True),
               "a default moment's hour, and changes with and without one in the check's memory")


def _design_b_holds_back() -> bool:
    """Quiz Q4: the kit (design B) leaves the old version only when the model ignores the note; keep_both is off."""
    import inspect

    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import CheckedMemoryStoreTool
    memory = HybridMemory()
    memory.store("My favourite editor is Vim.")
    said = CheckedMemoryStoreTool(memory).run("My favourite editor is Helix.")
    default = inspect.signature(CheckedMemoryStoreTool.run).parameters["keep_both"].default
    return _is((said.startswith("Not stored yet"), [r.text for r in memory.list_all()], default),
               (True, ["My favourite editor is Vim."], False), "what B leaves when the note is ignored; keep_both")


def _forget_surfaces() -> bool:
    from aria_kit.chat_widget import ChatWidget
    readme = (ROOT / "README.md").read_text()
    return _is((hasattr(ChatWidget, "ask_forget"), hasattr(ChatWidget, "forget"),
                "Yes, forget it" in (ROOT / "aria_kit" / "chat_widget.py").read_text(),
                "`/forget mem_0003`" in readme and "`make chat`" in readme), (True, True, True, True),
               "the widget's two steps, its confirm button, the terminal chat's /forget")


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
    Claim("Rust stays as history, one link away", lambda: _is(
        LESSON.output("agent.memory.history(\"mem_0001\")").strip().splitlines()[-1],
        "[('mem_0001', \"Alice's favourite programming language is Rust.\", 'mem_0008'), ('mem_0008', \"Alice's "
        "favourite programming language is Go.\", None)]", "the history of mem_0001")),
    Claim("but at rank 1 in only 5 of 20 update", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[2], "5/20", "append-only: current fact at rank 1")),
    Claim("stale evidence is in the top 3 of all 20", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[4], "20/20", "append-only: stale evidence in the top 3")),
    Claim("finds the current fact in its top 3 every time", lambda: _is(
        _row(RECALL_TABLE, "append_only", "update")[3], "20/20", "append-only: current fact in the top 3")),
    Claim("Superseding takes the stale version out", lambda: _is(
        (_row(RECALL_TABLE, "superseding", "update")[2], _row(RECALL_TABLE, "superseding", "update")[4]),
        ("20/20", "0/20"), "superseding: current at rank 1, stale in top 3")),
    Claim("Newer first puts the current fact at rank 1 in all 20", _newer_first_one_place_below),
    Claim("both versions reach the top 20 for only 10 of 36", _newer_first_held_out_reach),
    Claim("the newer goes just above the older", _newer_first_one_place_below),
    Claim("that quote a fact until it has 5 other", _check_looks_past_quoting_turns),
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
    Claim("On the first held-out set", lambda: _is(
        (_heldout_errors()[0], len(_heldout_errors()[1]), "Ravi is vegan now." in _heldout_errors()[1]),
        ([("The SDK supports Python 3.12.", "The SDK supports Python 3.9.")], 4, True),
        "held-out: the wrong flag, the number of misses, the miss quoted")),
    Claim("a wrong flag, which the stand-in follows, takes a fact", _stand_in_follows_the_wrong_flag),
    Claim("the check asks about 11 pairs", lambda: _is(
        len(__import__("aria_kit.exercises.lesson10", fromlist=["CASES"]).CASES), 11, "pairs in check_replaces")),
    Claim("- **duplicate**: the same words", _duplicate_rule),
    Claim("- **replaces**: the same *subject slot*", _replace_rule),
    Claim("the result gives the exact call first", _report_order),
    Claim("`keep_both=true`, which always stores", _keep_both_stores),
    Claim("marking one that replaced another", lambda: _is(
        '"replaces": "mem_0001"' in LESSON.output("persona.live_context("), True, "a replaces field in the recall")),
    Claim("A wrong pick is recoverable, its old text one link away", _put_right),
    Claim("- **delete** removes one memory, but refuses the current version", lambda: _is(
        (_forget_output()[0].startswith("delete: mem_0002 is the current version"),
         "would make mem_0001 current again, so nothing was deleted" in _forget_output()[0]),
        (True, True), "the refusal")),
    Claim("- **forget** removes the fact with every version", lambda: _is(
        _forget_output()[1], "forget: ['mem_0001', 'mem_0002'] | memories left: 0", "what forget returned")),
    Claim("the text is in no file of the memory afterwards", lambda: _is(
        [line.endswith("Lisbon or Porto: False") for line in _forget_output()[2:]] + [
            "carol.sqlite3-wal: 0 bytes" in LESSON.output("carol.forget(porto)"),
            "PRAGMA secure_delete = ON" in (ROOT / "aria_kit" / "persistence.py").read_text()],
        [True] * (len(_forget_output()) - 2) + [True, True], "the files after forget, the WAL, secure_delete")),
    Claim("The model gets no forgetting tool", lambda: _is(
        [n for n in __import__("aria_kit.demo", fromlist=["make_agent"]).make_agent(verbose=False).tools
         if "forget" in n or "delete" in n], [], "forgetting tools make_agent gives the model")),
    Claim("which version counts is your decision", _design_accepts_either_change_day),
    Claim("pin it to 2026-03-02", _lesson_day_pinned),
    Claim("Forget… asks first", _forget_surfaces),
    Claim("some at an hour, as `supersede` records by default", _changes_at_an_hour),
    Claim("is caught by neither rule (section 6)", lambda: _is(_row(VERDICT_TABLE, "pronoun")[1:], ["neither", "0", "0",
                                                                "5"], "pronoun row")),
    Claim("A: both versions, both current, nothing linking them; B: the old", _design_b_holds_back),
    Claim("A's write needs no decision, so ignoring the note leaves two", _design_b_holds_back),
    Claim("since keep_both is the default", _design_b_holds_back),
]

_DEFINITION = "describes the design or the data set's construction, not an output"
_WORDING = "'one'/'first'/'best' here is ordinary wording (a single thing, an order of events), not a measured figure"
_RUBRIC = "exercise 10.3's rubric; check_search_as_of enforces it (tests/test_exercises_10.py refuses a design breaking each)"
_MEM0 = "quiz Q5's case: mem0's UPDATE, described (no kit code runs it)"
EXEMPT = {
    "the best `top_k` memories among those current on `day`": _RUBRIC,
    "- on any day exactly one version of each fact": _RUBRIC,
    "- one rule for every change day, old or new": _RUBRIC,
    "- the `top_k` best of those, in the order": _RUBRIC,
    "so its quality is the check's": "what the check's two errors do to the stand-in, by definition; "
    "section 4's table measures both",
    "Four memories of one conversation": "counts the four memories of the next cell's loop",
    "A model may only *propose* one": _WORDING,
    "Resolve \"she\" or \"he\" to the person named last": "the open stretch task (no answer key)",
    "All three versions are gone: deleting one version": "a wrong option; the computed key rules it out",
    "which version is current is recorded on each memory": "why a wrong option fails; the computed key rules it out",
    "A: the new version current and the old one history": "a wrong option (a misconception); its explanation says why",
    "A: the new version only, the old one overwritten": "a wrong option (a misconception); its explanation says why",
    "A memory built like mem0 holds": _MEM0,
    "and where is 9:00": _MEM0,
    "the model judged a narrower fact (Tuesday) a replacement, so": _MEM0,
    "mem0 logs the old text, but search ranks only the memory's new one": _MEM0,
    "ranks by words, not date (section 6 counts the cost)": "names the section that counts the cost; the tie by "
    "words is claimed on its own fragment (nearly tie on every score)",
    "UPDATE keeps the old value as a version search can rank": _MEM0,
    "Only the 10:00 text; 9:00 is left only in mem0's change log": _MEM0,
    "Only the 9:00 text: an UPDATE is refused": _MEM0,
    "The 10:00 text, and the 9:00 one comes back": _MEM0,
    "keeps the old fact beside the new one": _WORDING,
    "Three operations take a value away": "counts the three bullets that follow",
    "- Near-identical versions nearly tie": "recap of section 6 (claimed above)",
    "default search sees current facts only": "recap of section 2 (claimed above: Default search leaves superseded ...)",
    "A miss leaves two current versions": "what a miss means by definition; the wrong flag's "
    "effect is claimed on its own fragment",
    "both facts recalled and the stale one quoted": "an objective; section 1's claims check it",
    "linked both ways to the new one": "an objective; section 2's cells show it",
    "the old one's `superseded_by` names it": _DEFINITION,
    "in three columns of the memory file": "the schema of the memory file (persistence.py), not an output",
    "the current one included": "the exercise's specification",
    "this fact replaces that one": _WORDING,
    "a new fact that contradicts an old one": _WORDING,
    "leaves two current versions whenever the model ignores": "a consequence of the design, argued in the quiz",
    "A flag is right when the memory it names": _DEFINITION,
    "here, January 5": "the first_day argument of the next cell",
    "while search sees only the green one": "the chart's colours, set in charts.plot_fact_timeline",
    "One question per person and attribute": _DEFINITION,
    "what was true on March 1": "an example question for Graphiti",
    "A new fact may replace a stored one": _WORDING,
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "10")  # Q{number}'s computed key is its answer


def _bob_facts_unlinked() -> bool:
    """Quiz Q1's case: the stand-in's answer quotes both facts, and neither memory links to the other."""
    from aria_kit.hybrid_memory import HybridMemory
    memory = HybridMemory()
    for text in ("Bob's team is Payments.", "Bob has moved to the Search team."):
        memory.store(text, {"category": "work"})
    links = [(r.supersedes, r.superseded_by) for r in memory.list_all()]
    return _key_holds(1) and _is(links, [(None, None)] * 2, "links between the two Bob facts")


CLAIMS += [
    Claim("the stand-in quotes every hit that shares enough of the question's", lambda: _key_holds(1)),
    Claim("nothing links the later fact to the earlier one", _bob_facts_unlinked),
    Claim('Both facts, one after the other, with nothing to say which one is', lambda: _key_holds(1)),
    Claim('delete refuses only when the memory removed is the current version', lambda: _key_holds(2)),
    Claim("that is forget, a different call; delete removes one memory.", lambda: _key_holds(2)),
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
})
