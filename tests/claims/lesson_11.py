"""Claims in 11_chat, each tied to the output that makes it true."""

from functools import cache

from lesson_claims import Claim, Lesson

LESSON = Lesson("11_chat")


def _is(actual: object, expected: object, what: str) -> bool:
    assert actual == expected, f"{what}: the output shows {actual!r}, the prose says {expected!r}"
    return True


def _payload_row(part: str) -> list[str]:
    line = next(line for line in LESSON.output("Where the payload went").splitlines() if line.startswith(part))
    return line[len(part):].split()


@cache
def _quiz_scenario() -> tuple[str, list[str]]:
    """The quiz's case, run with the kit: the Vim fact as mem_0008, then "… is Helix"; the answer and the panel rows."""
    from aria_kit.chat_widget import ChatWidget
    from aria_kit.demo import make_agent, seed_memory

    agent = make_agent(verbose=False)
    seed_memory(agent.memory)
    chat = ChatWidget(agent)
    assert chat.send("Please remember that my favourite editor is Vim").endswith("mem_0008 (category: user_pref).")
    answer = chat.send("Remember that my favourite editor is Helix")
    rows = chat.memory_panel.value.split("<tr id='aria-memory-")[1:]
    return answer, [row.split("'", 1)[0] + (" struck" if "<s " in row else "") for row in rows]


def _tools() -> list[str]:
    from aria_kit.demo import make_agent
    return list(make_agent(verbose=False).tools)


CLAIMS = [
    Claim("its five tools and the offline stand-in", lambda: _is(len(_tools()), 5, "make_agent's tools")),
    Claim("Then we seed the seven demo facts", lambda: _is(
        LESSON.output("seeded = seed_memory").split(" (")[0], "Seeded 7 memories", "the seeding cell")),
    Claim("the escaped payload is in two of the widgets", lambda: _is(
        _payload_row("transcript")[1:], ["0", "2"], "transcript widgets holding the payload raw, escaped")),
    Claim("BM25 matches \"editor\", and the embeddings rank it first too", lambda: _is(
        LESSON.output("tidy.send(\"Which editor").strip().splitlines()[-1],
        "From memory: My favourite editor is Vim. [mem_0008]", "the answer after clear()")),
    Claim("Memory holds \"My favourite editor is Vim.\" (mem_0008)", lambda: _is(
        _quiz_scenario()[1][1:3], ["mem_0008 struck", "mem_0007"], "the quiz's case run with the kit")),
    Claim("The Helix fact as the newest row, and mem_0008 struck through", lambda: _is(
        _quiz_scenario()[1][:2], ["mem_0009", "mem_0008 struck"], "the quiz's case: the panel, newest first")),
    Claim("the stand-in made the memory_update call the result named", lambda: _is(
        _quiz_scenario()[0].split(". Now:")[0], "Noted the change. Updated mem_0008 → mem_0009",
        "the quiz's case: the Helix turn's answer")),
    Claim("The answer is fish alone", lambda: _is(
        [line.split()[:3] for line in LESSON.output("panel_row(memory_id)").splitlines()[3:5]],
        [["mem_0008", "struck", "through"], ["mem_0009", "current", "(nothing)"]], "the shell rows of the panel")
        and _is("From memory: My favourite shell is fish. [mem_0009]\n" in LESSON.outputs_of_all(), True,
                "the answer after the change")),
    Claim("superseding never deletes", lambda: _is(
        "mem_0008  user_pref  My favourite shell is zsh." in LESSON.output("Long-term memory after the chat"), True,
        "the zsh row still in the memory dump")),
    Claim("the clean-up demo runs in a chat of its own", lambda: _is(
        LESSON.output("tidy.clear()").splitlines()[1].startswith("After clear:  1 transcript line"), True,
        "the second chat cleared") and _payload_row("transcript")[-1] == "2"),
]

_NAMES = "names the lessons or sections to read, not an output"
EXEMPT = {
    "lessons 08 (the agent loop), 09 (the capstone) and 10": _NAMES,
    "section 7 below says what changes in the chat": _NAMES,
    "Jupyter keeps the two in sync": "'two' names the Python object and its browser twin, a definition",
    "Section 5 sends this payload": _NAMES,
    "The same one-liner as in lesson 09": _NAMES,
    "skips its \"which model\" line, because the chat shows the model in its top line": "'top' is a place on screen",
    "The chat is one object": "'one' is ordinary wording: a single object",
    "any later turn can recall the current one": "the shell cells above show it (claimed by the fish-alone sentence)",
    "Now the payload from section 1 goes": _NAMES,
    "the chat's top line names it": "'top' is a place on screen",
    "is a one-cell notebook": "app/chat.ipynb's shape, checked by tests/test_browser_chat.py",
    "`http://localhost:8866` by default": "Voilà's own default port, not an output of this lesson",
    "with the seven demo facts and nothing else": "app/chat.ipynb seeds DEMO_FACTS; tests/test_browser_chat.py opens it",
    "The test suite opens this app": "describes tests/test_browser_chat.py",
    "… and 3 older memories.": "an example line of the exercise's specification",
    "The model is one line to change": "'one' is ordinary wording",
    "(\"v1.0\")": "an example word of the stretch task",
    "would lose a word": "explains a distractor by example",
    "Why is escaping twice a bug": "a quiz question about a design, no output",
    "Only the Helix fact: mem_0008 was deleted": "a quiz distractor",
}
