"""Exercise checks for lesson 09 (the capstone): hot-swap a web tool, and seed a memory file only once.

``check_glossary_web_search(glossary_web_search)`` swaps the learner's tool into
an offline agent and asks it about Raft. ``check_seed_once(seed_once)`` calls the
learner's function twice on the same file in a temporary folder (deleted
afterwards) and checks that the file holds the seven demo facts exactly once,
as a notebook re-run or a kernel restart would need. ``check_forget_request`` checks
a pair the learner designs: a ``memory_forget_request`` tool that only proposes a forget (on its own and
inside a scripted turn) and the person's confirm, which forgets the fact with every version. ``check_move_memory`` moves a running agent onto a memory
file in the middle of a scripted conversation and checks that history, memories
and tools all carry on with the file. ``check_resume`` checks the
stretch task: a conversation saved to a file and resumed by a new agent, which
must send the model exactly the history the first agent had.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aria_kit.agent import AutonomousAgent
from aria_kit.demo import DEMO_FACTS, make_agent, seed_memory
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.tools import WebSearchTool, default_tools
from aria_kit.interfaces import MemoryBackend, Tool
from aria_kit.offline import OfflineProvider
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say

SOLUTION = "lesson09"
EXERCISES = [
    Exercise("09.1", designs="a web_search tool that knows one topic more and replaces the running one, from its "
             "specification", kind="specification", minutes=10, solution=("glossary_web_search",)),
    Exercise("09.2", designs="seeding a memory file so that running the cell again, or in a new process, adds "
             "nothing", kind="specification", minutes=10, solution=("seed_once",)),
    Exercise("09.3", designs="forgetting with the person's consent: a tool that only proposes, and the person's "
             "confirm that forgets", kind="design", minutes=20,
             solution=("ForgetRequestTool", "make_forget_request", "make_stateless_forget_request"),
             check="check_forget_request"),
    Exercise("09.4", designs="moving a running agent onto a memory file mid-conversation without losing its "
             "history, memories or tools", kind="design", minutes=20,
             solution=("move_memory", "move_memory_by_new_tools"), check="check_move_memory"),
    Exercise("Stretch 09", designs="saving a conversation and resuming it in a new agent on the same memory file",
             kind="stretch", minutes=20, solution=("save_conversation", "resume")),
]


def _glossary_test(glossary_web_search: Callable[[], Tool]) -> None:
    tool = glossary_web_search()
    assert isinstance(tool, Tool), f"glossary_web_search returned a {type(tool).__name__}; return a Tool"
    assert tool.name == "web_search", (
        f"the tool is called {tool.name!r}; keep the name 'web_search' so it replaces the old tool")
    raft = tool.invoke('{"query": "Raft"}')
    assert not raft.startswith(("No results", "Error")) and "Raft" in raft, (
        f"searching for 'Raft' gave {raft[:120]!r}; add a knowledge entry with the topic 'Raft'")
    built_in = WebSearchTool()
    for topic in WebSearchTool.KNOWLEDGE:
        ours = tool.invoke(json.dumps({"query": topic}))
        assert not ours.startswith("No results"), (
            f"the old topic {topic!r} is gone: extend WebSearchTool.KNOWLEDGE, don't replace it")
        assert ours == built_in.invoke(json.dumps({"query": topic})), (
            f"asked about {topic!r}, your tool answers {ours[:80]!r}, not what the built-in tool answers")
    unknown = tool.invoke('{"query": "quokka husbandry"}')
    assert unknown.startswith("No results"), (
        f"asked about a topic it does not know, the tool should say 'No results…', got {unknown[:80]!r}")

    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.register_tool(tool)
    assert agent.tools["web_search"] is tool, "register_tool should have swapped in your tool"
    answer = agent.chat("Explain Raft")
    assert raft.split("] ", 1)[-1][:40] in answer, f"the agent's answer did not use your Raft entry: {answer!r}"


def _seed_once_test(seed_once: Callable[[Path], MemoryBackend]) -> None:
    expected = list(DEMO_FACTS)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        path = Path(folder) / "memory.sqlite"
        for run in ("first", "second"):
            memory = seed_once(path)
            try:
                stored = [(r.text, r.category) for r in memory.list_all()]
            finally:
                getattr(memory, "close", lambda: None)()
            assert len(stored) == len(expected), (
                f"after the {run} call the memory holds {len(stored)} facts; it should hold the {len(expected)} demo "
                "facts once (seed only when the memory is empty)")
            assert stored == expected, f"after the {run} call the memory holds {stored[:2]}…, not the demo facts"
        with HybridMemory(path=path) as reopened:
            assert len(reopened) == len(expected), (
                f"a fresh HybridMemory(path=path) finds {len(reopened)} memories in the file; "
                "open your memory with path=path so it is saved")


def _calls(what: str, function: Callable[..., Any], *arguments: Any) -> Any:
    """Call the learner's ``function``; an exception becomes a failed check that names the call and the cure."""
    try:
        return function(*arguments)
    except Exception as exc:  # noqa: BLE001 - never raise is the specification
        cure = (" delete refuses the current version of a fact with history (WouldRevive); memory.forget(id) "
                "removes every version" if "older versions" in str(exc) or type(exc).__name__ == "WouldRevive" else "")
        raise AssertionError(f"{what} raised {type(exc).__name__}: {str(exc)[:160]}; never raise: answer with "
                             f"text{':' + cure if cure else ''}") from None


def _forget_request_test(make_forget_request: Callable[[MemoryBackend], Any]) -> None:
    memory = HybridMemory()
    seed_memory(memory)
    newer = memory.supersede("mem_0001", "Alice's favourite programming language is Zig.")  # mem_0008, with history
    made = make_forget_request(memory)
    assert isinstance(made, tuple) and len(made) == 2, (
        f"make_forget_request returned {type(made).__name__}; return two things: (the tool, the confirm function)")
    tool, confirm = made
    assert isinstance(tool, Tool), f"the first thing returned is a {type(tool).__name__}; return a Tool"
    assert tool.name == "memory_forget_request", f"the tool is called {tool.name!r}; name it 'memory_forget_request'"
    assert tool.description.strip(), "the description is empty: tell the model that it only asks the person"
    parameters = tool.schema()["function"]["parameters"]
    assert list(parameters["properties"]) == ["memory_id"] and parameters["required"] == ["memory_id"], (
        f"run should take exactly one required parameter, memory_id; the schema says {parameters}")
    assert parameters["properties"]["memory_id"].get("type") == "string", "annotate it `memory_id: str`"
    assert parameters["properties"]["memory_id"].get("description"), "describe memory_id in run's docstring"

    before = [(r.id, r.text) for r in memory.list_all()]
    for memory_id in ("mem_0007", newer):
        reply = _calls(f"the tool, asked to forget {memory_id},", tool.invoke, json.dumps({"memory_id": memory_id}))
        assert isinstance(reply, str) and not reply.startswith("Error") and memory_id in reply, (
            f"proposing to forget {memory_id} should succeed and name it, got {reply!r}")
        assert re.search(r"\b(ask|asked|confirm)", reply, re.I), (
            f"the tool's answer {reply!r} should tell the model that it asked the person to confirm")
        assert [(r.id, r.text) for r in memory.list_all()] == before, (
            f"proposing to forget {memory_id} changed the memory: the tool only asks; the person's confirm forgets")
    for raw, what in (('{"memory_id": "mem_0999"}', "an id that was never stored"),
                      ('{"memory_id": "order 4821"}', "text that is not an id")):
        reply = _calls(f"the tool, given {what},", tool.invoke, raw)
        assert isinstance(reply, str) and reply.startswith("Error"), (
            f"proposing {what} ({raw}) should answer with text starting 'Error', got {reply!r}")
        assert "mem_0999" in reply or "order 4821" in reply, f"say which id was not found: {reply!r}"

    answer = _calls(f"confirm({newer!r})", confirm, newer)
    assert isinstance(answer, str), f"confirm should answer the person with a sentence, got {answer!r}"
    left = {r.id for r in memory.list_all()}
    assert newer not in left and "mem_0001" not in left, (
        f"after the person confirmed, {sorted({newer, 'mem_0001'} & left)} is still stored: forget the fact with "
        "every version (memory.forget), or an older version becomes current again")
    assert len(left) == len(before) - 2, "confirm removed more than the fact the person confirmed"
    _calls(f"confirm({newer!r}) a second time", confirm, newer)
    _calls("confirm('order 4821')", confirm, "order 4821")
    assert len(memory) == len(before) - 2, "a confirm of an id that is gone, or of no id, must remove nothing"
    reply = _calls("the tool, asked for a forgotten id,", tool.invoke, json.dumps({"memory_id": newer}))
    assert reply.startswith("Error"), f"proposing {newer}, already forgotten, should answer 'Error…', got {reply!r}"

    llm = ScriptedProvider([call_tool("memory_forget_request", {"memory_id": "mem_0007"}),
                            say("I asked you to confirm.")])
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory))
    tool, confirm = make_forget_request(memory)
    agent.register_tool(tool)
    agent.chat("Forget my order 4821.")
    llm.assert_all_used()
    result = next(s.detail["result"] for s in agent.last_turn.steps if s.kind == "tool")
    assert not result.startswith("Error") and memory.get("mem_0007") is not None, (
        f"inside a turn, the model's request must change nothing; the tool answered {result!r}")
    _calls("confirm('mem_0007') after the turn", confirm, "mem_0007")
    assert memory.get("mem_0007") is None, "the person confirmed mem_0007 after the turn, but it is still stored"


def check_forget_request(make_forget_request: Callable[[MemoryBackend], Any]) -> bool:
    """Check exercise 09.3: a tool that only proposes a forget, and the person's confirm that forgets."""
    return check("Exercise 09.3 (forget, with the person's consent)",
                 lambda: _forget_request_test(make_forget_request), SOLUTION)


def check_glossary_web_search(glossary_web_search: Callable[[], Tool]) -> bool:
    """Check exercise 09.1: a ``web_search`` tool whose knowledge also covers Raft, hot-swapped into an agent."""
    return check("Exercise 09.1 (hot-swap a web tool)", lambda: _glossary_test(glossary_web_search), SOLUTION)


def check_seed_once(seed_once: Callable[[Path], MemoryBackend]) -> bool:
    """Check exercise 09.2: ``seed_once(path)`` opens the memory file and seeds the demo facts only if it is empty."""
    return check("Exercise 09.2 (seed a memory file once)", lambda: _seed_once_test(seed_once), SOLUTION)


def _resume_test(save_conversation: Callable[..., None], resume: Callable[..., Any]) -> None:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        memory_path, history_path = Path(folder) / "memory.sqlite", Path(folder) / "history.json"
        first = make_agent(memory_path=memory_path, llm=OfflineProvider(), verbose=False)
        seed_memory(first.memory)
        first.chat("Remember that Alice's favourite editor is Helix — not Vim.")
        first.chat("What is Alice's favourite editor?")
        save_conversation(first, history_path)
        first.memory.close()
        assert history_path.exists(), f"save_conversation wrote nothing to {history_path.name}"

        llm = ScriptedProvider([say("ok")])
        second = resume(memory_path, history_path, llm)
        try:
            assert len(second.memory) == len(DEMO_FACTS) + 1, (
                f"the resumed agent's memory holds {len(second.memory)} memories; open the memory file at memory_path")
            assert second.history == first.history, (
                "the resumed agent's history differs from the saved one; load every message, in order, unchanged")
            second.chat("And what is the deadline?")
            sent = llm.requests[0]["messages"]
            assert sent[1:1 + len(first.history)] == first.history, (
                "the model was not sent the saved conversation right after the system message")
            llm.assert_all_used()
        finally:
            second.memory.close()


MOVE_SCRIPT = [
    say("Noted."),                                                                       # turn 1, before the move
    call_tool("memory_store", {"text": "Alice's favourite editor is Helix.", "category": "user_pref"}),
    say("Stored."),                                                                      # turn 2, after the move
]


def _move_memory_test(move_memory: Callable[[AutonomousAgent, Path], Any]) -> None:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        path = Path(folder) / "moved.sqlite"
        llm = ScriptedProvider(MOVE_SCRIPT)
        agent = make_agent(llm=llm, verbose=False)
        seed_memory(agent.memory)
        agent.memory.store("Alice is learning Zig in the evenings.", {"category": "user_pref"})  # not a demo fact
        old = agent.memory
        agent.chat("Hello, Aria.")
        history, turns, tools = list(agent.history), list(agent.turns), list(agent.tools)
        before = [(r.text, r.category) for r in old.list_all()]
        move_memory(agent, path)
        try:
            assert agent.history == history and agent.turns == turns, (
                "the conversation was lost in the move: keep the agent (its history and turns), change its memory")
            assert list(agent.tools) == tools, f"the tools changed from {tools} to {list(agent.tools)}"
            assert agent.memory is not old, "agent.memory is still the old memory: point it at the file"
            moved = [(r.text, r.category) for r in agent.memory.list_all()]
            assert moved == before, (f"the file-backed memory holds {len(moved)} memories, expected the "
                                     f"{len(before)} of the old one with the same texts and categories, in order")
            agent.chat("Remember that Alice's favourite editor is Helix.")
            stored = agent.turns[-1].steps[2].detail["result"]
            assert stored.startswith("Stored"), f"memory_store answered {stored!r} after the move"
            assert len(old) == len(before), (
                "memory_store wrote to the OLD memory after the move: every tool built with the old memory still holds "
                "it (tool.memory); point those tools at the new one too")
            with HybridMemory(path=path) as reopened:
                texts = [r.text for r in reopened.list_all()]
            assert "Alice's favourite editor is Helix." in texts, (
                "the fact stored after the move is not in the file: open the new memory with HybridMemory(path=path)")
            recalled = agent.turns[-1].steps[0].detail["hits"]
            assert recalled and all(agent.memory.get(hit.id) is not None for hit in recalled), (
                "recall after the move did not come from the new memory")
            llm.assert_all_used()
        finally:
            agent.memory.close()


def check_move_memory(move_memory: Callable[[AutonomousAgent, Path], Any]) -> bool:
    """Check exercise 09.4: ``move_memory(agent, path)`` moves a running agent onto a memory file."""
    return check("Exercise 09.4 (move a running agent onto a memory file)", lambda: _move_memory_test(move_memory),
                 SOLUTION)


def check_resume(save_conversation: Callable[..., None], resume: Callable[..., Any]) -> bool:
    """Check stretch 09: ``save_conversation(agent, path)`` and ``resume(memory_path, history_path, llm)``."""
    return check("Stretch 09 (resume a conversation)", lambda: _resume_test(save_conversation, resume), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_agent(memory=None):
    """The kit's agent on the offline stand-in, as lesson 09 assembles it (memory_update included)."""
    from aria_kit.demo import make_agent
    from aria_kit.offline import OfflineProvider

    return make_agent(memory=memory, llm=OfflineProvider(), verbose=False)


def _key_register_a_new_tool() -> str:
    """09: a tool under a new name, registered between two turns."""
    from dataclasses import dataclass

    from aria_kit.interfaces import Tool
    from aria_kit.scripted import ScriptedProvider, say

    @dataclass(frozen=True)
    class WeatherTool(Tool):
        name: str = "weather"
        description: str = "Today's weather in a city."

        def run(self, city: str) -> str:
            """city: the city's name."""
            return f"Sunny in {city}."

    agent = _key_agent()
    agent.llm = llm = ScriptedProvider([say("First."), say("Second."), say("Third.")])
    agent.chat("Hello, Aria.")
    agent.chat("How are you?")
    before, tools_before = list(agent.history), [s["function"]["name"] for s in llm.requests[-1]["tools"]]
    agent.register_tool(WeatherTool())
    agent.chat("Is it sunny in Oslo?")
    request = llm.requests[-1]
    names = [s["function"]["name"] for s in request["tools"]]
    sent_history = [m for m in request["messages"][1:] if m in before]
    return only_true({"a": sent_history == before and names == tools_before + ["weather"],
                      "b": not sent_history,
                      "c": len(names) == len(tools_before) and "weather" in names,
                      "d": "weather" not in names})


def _key_store_in_a_file_three_times() -> str:
    """09: a cell that opens a memory file, stores one sentence and closes it, run three times."""
    import tempfile
    from pathlib import Path

    from aria_kit.hybrid_memory import HybridMemory

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        path = Path(folder) / "notes.sqlite"
        for _ in range(3):
            with HybridMemory(path=path) as memory:
                memory.store("Bob likes tea.")
        with HybridMemory(path=path) as memory:
            count = len(memory)
    return only_true({"a": count == 1, "b": count == 3, "c": count == 0, "d": False})


def _key_most_shared_words() -> str:
    """09: which of three search hits the stand-in quotes for "What is Bob's project?"."""
    from aria_kit.offline import relevant

    texts = {"a": "Bob is working on a weather app.", "b": "The project budget is 40,000 euros."}
    hits = [{"id": f"mem_{n:04d}", "text": text} for n, text in enumerate(
        [texts["b"], texts["a"], "Bob likes OCaml."], start=1)]
    quoted = [hit["text"] for hit in relevant(hits, "What is Bob's project?")[0]]
    return only_true({"a": quoted == [texts["a"]], "b": quoted == [texts["b"]],
                      "c": quoted == [texts["b"], texts["a"]], "d": len(quoted) == 3})


QUIZ = Quiz("Lesson 09", [
    Question(
        "Predict: between turns 2 and 3, a running agent with the kit's tools gets register_tool(WeatherTool()), "
        "a tool named `weather`. What will the model's next request hold?",
        {"a": "The same history as before, and the old tools' schemas with weather's added after them",
         "b": "An empty history: the agent starts over with its new set of tools",
         "c": "As many schemas as before: the new tool takes the place of the last one registered",
         "d": "The old tools only: a tool registered mid-conversation is used from the next conversation on"},
        "a",
        "tools are looked up by name: a new name adds a tool, the same name replaces one in place, and the history "
        "and the memory are untouched.",
        {"b": "nothing else is touched; that is what makes it a hot swap.",
         "c": "a tool replaces only the tool of the same name; `weather` is a new name, so it is added.",
         "d": "every request sends the schemas of the tools registered at that moment, so the very next request "
              "already offers it."},
        kind="predict", case=("WeatherTool",), compute=_key_register_a_new_tool),
    Question(
        "Predict: a cell opens HybridMemory(path='notes.sqlite'), stores \"Bob likes tea.\" and closes it. You run "
        "the cell three times. How many memories does the file hold?",
        {"a": "One: the second and third runs find the same text and store nothing",
         "b": "Three: the file outlives each run, and each store adds a memory",
         "c": "None: a memory file is emptied when its handle is closed",
         "d": "One: each run opens the file afresh, so only the last run's sentence is left"},
        "b",
        "a file remembers across runs; seed only when the memory is empty (exercise 09.2).",
        {"a": "store does not look for duplicates; each call adds a memory with a new id (the memory_store tool "
              "checks for an identical fact; the memory's own store does not).",
         "c": "closing only releases the file; each store was committed before it returned.",
         "d": "opening a memory file never deletes anything: that is the point of persistence."},
        kind="predict", case=("notes.sqlite", "Bob likes tea."), compute=_key_store_in_a_file_three_times),
    Question(
        "Why does the lesson start a new Python process to test persistence, not just a new HybridMemory object?",
        {"a": "A new process shares nothing with this kernel, as after a restart; a new object could reuse state in "
              "memory",
         "b": "HybridMemory cannot be opened twice in one process",
         "c": "A new process reads the file faster than a second object in the same kernel",
         "d": "The file is written only when the kernel exits, so the test needs another process to see it"},
        "a",
        "only a fresh process proves that everything came from the file.",
        {"b": "it can (the lesson does it); the point is what a new object might still share with the old one.",
         "c": "a new process is slower to start; it is used because it is a stronger test, not a quicker one.",
         "d": "each store is committed before it returns; the file is complete while the kernel still runs."},
        kind="explain"),
    Question(
        "Predict: a memory_search for \"What is Bob's project?\" returns, best first: \"The project budget is 40,000 "
        "euros.\", \"Bob is working on a weather app.\" and \"Bob likes OCaml.\". Which does the offline stand-in "
        "quote?",
        {"a": "Only the weather app: counting 'working' for 'project', it alone holds both 'Bob' and 'project'",
         "b": "Only the budget: it is ranked first and contains 'project' itself",
         "c": "The budget and the weather app, best first: both mention the project",
         "d": "All three: each shares a word with the question"},
        "a",
        "the stand-in counts the question's words in each hit, synonyms included, and quotes the hits with the most; "
        "the search's order does not decide. A language model would read the hits instead.",
        {"b": "the rank decides what the search returns, not what the stand-in quotes: it counts shared words, and "
              "the budget holds one, the weather app two.",
         "c": "only the hits tied for the most shared words are quoted; one shared word loses to two.",
         "d": "a hit that shares only a name counts only when no hit mentions what is asked; here two mention the "
              "project, so 'Bob likes OCaml.' is left out."},
        kind="predict", case=("40,000 euros", "Bob is working on a weather app."), compute=_key_most_shared_words),
    Question(
        "Your `calendar_cancel` tool is asked to cancel the event evt_42, which does not exist. Which design "
        "should it follow?",
        {"a": "Raise KeyError so the bug is visible",
         "b": "Answer 'Error: …' text naming evt_42, so the model can check the id and try again",
         "c": "Answer 'Done' anyway; the event is not on the calendar either way",
         "d": "Cancel the event whose id is closest to evt_42, since the model probably mistyped it"},
        "b",
        "a model's wrong id is the model's mistake: it goes back as text the model can act on, like any bad call.",
        {"a": "exceptions are for bugs in our code; a tool the model called wrongly answers with text (lesson 06).",
         "c": "a tool must not claim success it did not have: the model would tell the user something false.",
         "d": "a tool that changes things must never guess: cancelling the wrong event cannot be undone, and the "
              "model never learns its id was wrong."},
        kind="choose", case=("calendar_cancel", "evt_42")),
])
