"""Claims in 11_chat, each tied to the output that makes it true."""

from functools import partial

from lesson_claims import Claim, Lesson, quiz_key_holds

LESSON = Lesson("11_chat")


def _is(actual: object, expected: object, what: str) -> bool:
    assert actual == expected, f"{what}: the output shows {actual!r}, the prose says {expected!r}"
    return True


def _payload_row(part: str) -> list[str]:
    line = next(line for line in LESSON.output("Where the payload went").splitlines() if line.startswith(part))
    return line[len(part):].split()


def _tools() -> list[str]:
    from aria_kit.demo import make_agent
    return list(make_agent(verbose=False).tools)


CLAIMS = [
    Claim("opens to show the memories recalled for that\nmessage", lambda: _tools_line_names_the_recalled()),
    Claim("its five tools and the offline stand-in", lambda: _is(len(_tools()), 5, "make_agent's tools")),
    Claim("Then we seed the seven demo facts", lambda: _is(
        LESSON.output("seeded = seed_memory").split(" (")[0], "Seeded 7 memories", "the seeding cell")),
    Claim("the escaped payload is in two of the widgets", lambda: _is(
        _payload_row("transcript")[1:], ["0", "2"], "transcript widgets holding the payload raw, escaped")),
    Claim("BM25 matches \"editor\", and the embeddings rank it first too", lambda: _is(
        LESSON.output("tidy.send(\"Which editor").strip().splitlines()[-1],
        "From memory: My favourite editor is Vim. [mem_0010]", "the answer after clear()") and _editor_ranks()),
    Claim("The answer is fish alone", lambda: _is(
        [line.split()[:3] for line in LESSON.output("panel_row(memory_id)").splitlines()[3:5]],
        [["mem_0008", "struck", "through"], ["mem_0009", "current", "(nothing)"]], "the shell rows of the panel")
        and _is("From memory: My favourite shell is fish. [mem_0009]\n" in LESSON.outputs_of_all(), True,
                "the answer after the change")),

    Claim("the panel lists two shell rows, the old one struck through", lambda: _is(
        [line.split()[0] + (" superseded" if line.rstrip().endswith("mem_0009") else "")
         for line in LESSON.output("agent.memory_dump()").splitlines() if "shell" in line],
        ["mem_0008 superseded", "mem_0009"], "the shell rows of the first chat's memory")),
    Claim("Both versions went, zsh with fish", lambda: _is(
        [line for line in LESSON.output("tidy.confirm_button.click()").splitlines() if line.startswith("Forgot")]
        + [str("mem_0008" in LESSON.output("tidy.confirm_button.click()").splitlines()[-1])],
        ["Forgot mem_0008, mem_0009 (every version of that fact).", "False"], "the forget cell")),
    Claim("would have refused, since zsh would become current again", lambda: _delete_refuses()),
    Claim("run twice, it finds nothing left to forget", lambda: _second_forget_finds_nothing()),
    Claim("here are its last two exchanges", lambda: _is(
        (LESSON.output("chat.entries[-6:]").splitlines()[0],
         [line.split()[0] for line in LESSON.output("chat.entries[-6:]").splitlines()[3:]]),
        ("The transcript: its last 6 of 13 lines", ["user", "tools", "assistant"] * 2), "the transcript table")),
    Claim("`HTML` widgets draw the model line, each message", lambda: _widget_kinds()),
    Claim("Voilà prints the address, `http://127.0.0.1:8866/` (this machine only)", lambda: _web_app_address()),
    Claim("Five questions, all predictions", lambda: _all_predictions()),
]


def _editor_ranks() -> bool:
    """After the forget cell, "Which editor do I like?": only mem_0010 has a BM25 score, and it leads by cosine too."""
    agent, _ = _shell_chat()
    agent.chat("Please remember that my favourite editor is Vim")
    agent.memory.forget("mem_0009")
    hits = agent.memory.search("Which editor do I like?", top_k=len(agent.memory))
    return _is(([h.id for h in hits if h.bm25 > 0], max(hits, key=lambda h: h.cosine).id, hits[0].id),
               (["mem_0010"], "mem_0010", "mem_0010"), "BM25 matches, the best cosine, the fused first")


def _web_app_address() -> bool:
    """`make app` serves on 127.0.0.1 (app/voila.json) at Voilà's default port 8866, the README's address."""
    import importlib.util
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = json.loads((root / "app" / "voila.json").read_text())
    voila_app = (Path(importlib.util.find_spec("voila").origin).parent / "app.py").read_text()  # importing it takes s
    port = int(voila_app.split("port = Integer(", 1)[1].split(",", 1)[0])
    return _is((config["Voila"]["ip"], port, "`http://127.0.0.1:8866/`" in (root / "README.md")
                .read_text(), "JUPYTER_CONFIG_PATH=\"$(CURDIR)/app\"" in (root / "Makefile").read_text()),
               ("127.0.0.1", 8866, True, True), "the web app's address")


def _all_predictions() -> bool:
    import importlib
    kinds = [q.kind for q in importlib.import_module("aria_kit.exercises.lesson11").QUIZ.questions]
    return _is(kinds, ["predict"] * 5, "the quiz questions' kinds")


def _widget_kinds() -> bool:
    """The parts table's widget kinds, and each transcript message an HTML widget."""
    from aria_kit.chat_widget import ChatWidget
    from aria_kit.demo import make_agent
    rows = {line.split()[0]: line.split()[1] for line in LESSON.output("The parts of the chat").splitlines()[3:]}
    chat = ChatWidget(make_agent(verbose=False))
    chat.send("Hello")
    kinds = {type(entry).__name__ for entry in chat.messages.children}
    return _is(({k: rows[k] for k in ("model_line", "memory_panel", "status", "input", "forget_box")},
                {rows[k] for k in ("send_button", "clear_button", "forget_button", "confirm_button")}, kinds),
               ({"model_line": "HTML", "memory_panel": "HTML", "status": "HTML", "input": "Text",
                 "forget_box": "Text"}, {"Button"}, {"HTML"}), "the chat's widget kinds")


def _tools_line_names_the_recalled() -> bool:
    """The ▸ Tools line lists the turn's recalled memories; the request sent them as a message of their own."""
    from aria_kit.chat_widget import _tools_html
    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.persona import LIVE_CONTEXT_HEADING

    agent = make_agent(verbose=False)
    seed_memory(agent.memory)
    agent.chat("What is Alice working on?")
    recalled = [hit.id for hit in agent.last_turn.steps[0].detail["hits"]]
    system = agent.persona.instructions()
    shown = f"Recalled for this message: {', '.join(recalled)}" in _tools_html(agent.last_turn)
    return bool(recalled) and shown and LIVE_CONTEXT_HEADING not in system


def _shell_chat():
    from aria_kit.chat_widget import ChatWidget
    from aria_kit.demo import make_agent, seed_memory

    agent = make_agent(verbose=False)
    seed_memory(agent.memory)
    chat = ChatWidget(agent)
    for text in ("Please remember that my favourite shell is zsh", "Remember that my favourite shell is fish"):
        chat.send(text)
    return agent, chat


def _delete_refuses() -> bool:
    agent, _ = _shell_chat()
    try:
        agent.memory.delete("mem_0009")
    except ValueError:
        return _is(agent.memory.get("mem_0008").superseded_by, "mem_0009", "zsh after the refused delete")
    raise AssertionError("memory.delete('mem_0009') deleted the current shell fact; the prose says it refuses")


def _second_forget_finds_nothing() -> bool:
    agent, chat = _shell_chat()
    for _ in range(2):  # the forget cell, run twice
        chat.forget_box.value = "mem_0009"
        chat.forget_button.click()
        chat.confirm_button.click()
    return _is(chat.status.value.startswith("Nothing was forgotten") and len(agent.memory) == 7, True,
               "the second run of the forget cell")

_NAMES = "names the lessons or sections to read, not an output"
EXEMPT = {
    "lessons 08 (the agent loop), 09 (the capstone) and 10": _NAMES,
    "section 7 says what changes with a real one": _NAMES,
    "Jupyter keeps the two in sync": "'two' names the Python object and its browser twin, a definition",
    "section 5 sends this payload through the chat": _NAMES,
    "(section 3 lists them)": _NAMES,
    "any later turn can recall the current one": "the shell cells above show it (claimed by the fish-alone sentence)",
    "The payload from section 1 now goes": _NAMES,
    "the top line names the\nmodel": "'top' is a place on screen",
    "is a one-cell notebook": "app/chat.ipynb's shape, checked by tests/test_browser_chat.py",
    "with the seven demo facts and nothing else": "app/chat.ipynb seeds DEMO_FACTS; tests/test_browser_chat.py opens it",
    "The test suite opens this app": "describes tests/test_browser_chat.py",
    "… and 3 older memories.": "an example line of the exercise's specification",
    "(\"v1.0\")": "an example word of the stretch task",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "11")  # Q{number}'s computed key is its answer


CLAIMS += [
    Claim('Predict: a memory\'s text is "Fish & chips <3".', lambda: _key_holds(1)),
    Claim('It holds Fish &amp; chips &lt;3, and the reader sees Fish & chips <3', lambda: _key_holds(1)),
    Claim('Predict: a careless renderer escapes the tool result "R&D budget"', lambda: _key_holds(2)),
    Claim('escape exactly once, where text enters markup: the browser reads back', lambda: _key_holds(2)),
    Claim('R&amp;D budget: the browser undoes one escape, and the other is left', lambda: _key_holds(2)),
]
EXEMPT.update({
    'It holds Fish &amp; chips &lt;3, and the reader sees those codes: the':
        'a wrong option; the computed key rules it out',
    '"<3" starts a tag it drops': 'a wrong option; the computed key rules it out',
    'nothing in the chat deletes a memory because of a new one': 'why a wrong option fails',
    "how many rows about the shell will the memory panel list": "the predict-then-run question; the panel claim "
                                                                 "below it checks the answer",
    "before you run the one after it": "'one' is a pronoun: the next cell",
    "Lyon, current again: forgetting the newest version brings back the one": "a wrong option; the computed key "
                                                                               "rules it out",
})
