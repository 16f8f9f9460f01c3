"""Exercise checks for lesson 11 (the chat): render memories as HTML that a browser shows as text.

``check_render_memory(render_memory)`` renders records whose text or category
is an HTML payload (``<img src=x onerror=alert(1)>``) and reads the result the
way a browser's ``innerHTML`` would, with the standard library's HTML parser:
the output may hold the learner's own harmless tags, but no element that came
from the record, and the visible text must be the record's id, category and
text exactly as stored (escaped once, not twice, and not stripped).
``check_render_panel(render_panel)`` checks a newest-first list of such rows
with a limit and an "… and N older" line, like the chat widget's memory panel.
``check_render_history(render_history)`` checks the design exercise: a fact's
versions shown with the superseded ones struck through (``<s>`` or ``<del>``,
the learner's choice of everything else) and each naming its successor.
``check_highlight(highlight)`` checks the stretch task: query words marked with
``<mark>`` in a memory's text, without ever marking inside an escaped entity.
None judges the markup's looks: only what a browser would build and show.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape
from html.parser import HTMLParser

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.interfaces import MemoryRecord

SOLUTION = "lesson11"
EXERCISES = [
    Exercise("11.1", designs="one memory as HTML that a browser shows as text, whatever the memory holds",
             kind="specification", minutes=10, solution=("render_memory",)),
    Exercise("11.2", designs="a newest-first memory panel with a limit, that leaves the caller's list alone",
             kind="specification", minutes=10, solution=("render_panel",)),
    Exercise("11.3", designs="how the panel shows a fact that changed: its versions, struck through, linked",
             kind="design", minutes=20,
             solution=("render_history", "render_history_table"), check="check_render_history"),
    Exercise("Stretch 11", designs="query words highlighted without marking inside an escaped entity",
             kind="stretch", minutes=25, solution=("highlight",)),
]
PAYLOAD = "<img src=x onerror=alert(1)>"
# Tags a memory row might reasonably use for its own layout; anything else in the output came from the data.
SAFE_TAGS = {"div", "span", "p", "ul", "ol", "li", "b", "i", "em", "strong", "code", "small", "mark", "br",
             "table", "thead", "tbody", "tr", "td", "th", "s", "del", "a"}


class Rendered(HTMLParser):
    """What a browser builds from markup: the elements (tag, attributes) and the text it shows."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.chunks: list[str] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    @property
    def tags(self) -> set[str]:
        return {tag for tag, _ in self.elements}

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def _render_safely(markup: object, what: str) -> Rendered:
    """Parse ``markup`` and assert that a browser would build no element or handler from the data."""
    assert isinstance(markup, str), f"{what} returned a {type(markup).__name__}; return a str of HTML"
    rendered = Rendered(markup)
    for tag, attrs in rendered.elements:
        assert tag in SAFE_TAGS, (
            f"{what} produced the element <{tag}>, which a browser would build (and run): the data became markup. "
            "Pass every value through html.escape before you put it in the HTML")
        handlers = [name for name in attrs if name.startswith("on")]
        assert not handlers, f"{what} produced an element with the event handler {handlers[0]!r}; escape the values"
    return rendered


def _shown_exactly(rendered: Rendered, value: str, field: str, what: str) -> None:
    if value in rendered.text:
        return
    assert escape(value) not in rendered.text, (
        f"{what} shows {escape(value)!r} instead of {value!r}: you escaped twice (html.escape once is enough)")
    raise AssertionError(f"a browser would show {rendered.text!r}, which lacks the {field} {value!r}: show the id, "
                         "the category and the text, each exactly as stored")


def _render_memory_test(render_memory: Callable[[MemoryRecord], str]) -> None:
    records = [
        MemoryRecord("mem_0001", "Alice's favourite programming language is Rust.", {"category": "user_pref"}),
        MemoryRecord("mem_0008", PAYLOAD, {"category": "note"}),  # e.g. copied from a web page
        MemoryRecord("mem_0009", "Ask Bob about the VelocityDB demo.", {"category": "<script>alert(2)</script>"}),
        MemoryRecord("mem_0010", 'Tom & Jerry\'s "Q&A" uses <b>, not bold.', {"category": "fact"}),
    ]
    for record in records:
        what = f"render_memory on a memory whose text is {record.text!r} (category {record.category!r})"
        rendered = _render_safely(render_memory(record), what)
        for field, value in (("id", record.id), ("category", record.category), ("text", record.text)):
            _shown_exactly(rendered, value, field, what)


def _ids_shown(rendered: Rendered) -> list[str]:
    return re.findall(r"mem_\d{4}", rendered.text)


def _render_panel_test(render_panel: Callable[..., str]) -> None:
    records = [MemoryRecord(f"mem_{n:04d}", f"Fact number {n}.", {"category": "fact"}) for n in range(1, 8)]
    records.append(MemoryRecord("mem_0008", PAYLOAD, {"category": "note"}))
    given = list(records)

    rendered = _render_safely(render_panel(given, limit=5), "render_panel(records, limit=5)")
    assert given == records, (
        "render_panel changed the list it was given (list.reverse() reverses in place); "
        "use records[::-1] or reversed(records)")
    shown = _ids_shown(rendered)
    newest = [f"mem_{n:04d}" for n in range(8, 3, -1)]
    assert len(shown) < 2 or shown[0] > shown[-1], (
        f"the panel lists {shown}: oldest first. List the newest memory first, as the chat's panel does")
    assert shown == newest, (
        f"with 8 memories and limit=5 the panel should list {newest}, newest first; it lists {shown}")
    _shown_exactly(rendered, PAYLOAD, "text", "render_panel")
    assert re.search(r"\b3\b", rendered.text) and "older" in rendered.text.lower(), (
        f"5 of 8 memories are listed, but the panel does not say so ({rendered.text[-60:]!r}); "
        "end it with a line such as '… and 3 older memories.'")

    two = _render_safely(render_panel(given, limit=2), "render_panel(records, limit=2)")
    assert _ids_shown(two) == ["mem_0008", "mem_0007"], (
        f"with limit=2 the panel should list ['mem_0008', 'mem_0007']; it lists {_ids_shown(two)}: "
        "use the limit argument")
    assert re.search(r"\b6\b", two.text), (
        f"with limit=2, 6 memories are not shown; say so (the panel ends {two.text[-60:]!r})")

    few = _render_safely(render_panel(given[:2], limit=5), "render_panel on two memories")
    assert _ids_shown(few) == ["mem_0002", "mem_0001"], (
        f"two memories should be listed newest first; the panel lists {_ids_shown(few)}")
    assert "older" not in few.text.lower(), "every memory is listed, so there are no older ones to mention"

    empty = _render_safely(render_panel([], limit=5), "render_panel([])").text.lower()
    assert any(word in empty for word in ("nothing", "no memor", "empty")), (
        f"an empty memory should say so, e.g. 'Nothing stored yet.'; the panel shows {empty!r}")


def check_render_memory(render_memory: Callable[[MemoryRecord], str]) -> bool:
    """Check exercise 11.1: one memory as HTML whose id, category and text a browser shows as text."""
    return check("Exercise 11.1 (render a memory safely)", lambda: _render_memory_test(render_memory), SOLUTION)


def check_render_panel(render_panel: Callable[[Sequence[MemoryRecord], int], str]) -> bool:
    """Check exercise 11.2: the newest ``limit`` memories, newest first, safely, with an "… and N older" line."""
    return check("Exercise 11.2 (a memory panel)", lambda: _render_panel_test(render_panel), SOLUTION)


class Marked(Rendered):
    """Rendered, plus the text inside each <mark> element."""

    def __init__(self, markup: str) -> None:
        self.marks: list[str] = []
        self._depth = 0
        super().__init__(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        if tag == "mark":
            self._depth += 1
            self.marks.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "mark":
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        super().handle_data(data)
        if self._depth > 0:
            self.marks[-1] += data


def _expected_marks(text: str, words: Sequence[str]) -> list[str]:
    pattern = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return [m.group(0) for m in re.finditer(rf"(?<!\w)(?:{pattern})(?!\w)", text, flags=re.I)] if words else []


HIGHLIGHT_CASES = [
    ("Alice's favourite editor is Helix.", ["editor"]),
    ("The EDITOR and the Editor: same word.", ["editor"]),
    ("Tom & Jerry's \"Q&A\" uses <b>, not bold.", ["amp", "quot", "lt", "bold"]),  # entity names are not words here
    ("<img src=x onerror=alert(1)> is a payload", ["img", "payload"]),
    ("VelocityDB v1.0 ships, v1x0 does not.", ["v1.0"]),  # a word with a regex character in it
    ("Raft and raftsman.", ["raft"]),  # whole words only
    ("Nothing to see.", []),
]


def _highlight_test(highlight: Callable[[str, Sequence[str]], str]) -> None:
    for text, words in HIGHLIGHT_CASES:
        what = f"highlight({text!r}, {words})"
        markup = highlight(text, list(words))
        rendered = _render_safely(markup, what)
        other = sorted(rendered.tags - {"mark"})
        assert not other, f"{what} produced {other}; use only <mark> around the matches"
        shown = Marked(markup)
        assert shown.text == text, (
            f"{what}: a browser would show {shown.text!r}, not the text itself. Escape the text once, and mark whole "
            "matches of the original text, never inside an escaped entity such as &amp;")
        expected = _expected_marks(text, words)
        assert shown.marks == expected, f"{what} marks {shown.marks}; expected {expected} (whole words, any case)"


class Struck(Rendered):
    """Also records which text a browser shows struck through (inside <s> or <del>)."""

    def __init__(self, markup: str) -> None:
        self.depth, self.struck = 0, []
        super().__init__(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        self.depth += tag in ("s", "del")

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in ("s", "del") and self.depth > 0

    def handle_data(self, data: str) -> None:
        super().handle_data(data)
        if self.depth:
            self.struck.append(data)


def _versions() -> list[MemoryRecord]:
    return [MemoryRecord("mem_0008", "My favourite editor is Vim.", {"category": "user_pref"}, "mem_0009",
                         "2026-12-01T10:00:00+00:00"),
            MemoryRecord("mem_0009", PAYLOAD, {"category": "user_pref"}, "mem_0010", "2026-12-01T11:00:00+00:00",
                         "mem_0008"),
            MemoryRecord("mem_0010", "My favourite editor is Helix.", {"category": "user_pref"}, supersedes="mem_0009")]


def _render_history_test(render_history: Callable[[Sequence[MemoryRecord]], str]) -> None:
    versions = _versions()
    what = "render_history on Vim → a payload → Helix"
    markup = render_history(list(versions))
    rendered = _render_safely(markup, what)
    struck = Struck(markup)
    for record in versions:
        _shown_exactly(rendered, record.text, "text", what)
        assert rendered.text.count(record.text) == 1, f"{what} shows {record.text!r} more than once; show each version once"
        is_struck = record.text in "".join(struck.struck)
        if record.superseded_by is None:
            assert not is_struck, (f"{what} strikes through the current version {record.text!r}: only a version "
                                   "that was replaced is history")
        else:
            assert is_struck, (f"{what} does not strike through {record.text!r}, which {record.superseded_by} replaced. "
                               "Hint: put a superseded version's text inside <s>…</s> or <del>…</del>")
    for record in versions[:-1]:  # alone in the list, so its successor's id can only come from the link
        alone = Rendered(render_history([record])).text
        assert record.superseded_by in alone, (
            f"render_history([{record.id}]) does not say that {record.superseded_by} replaced it: name the "
            "successor, so a reader can follow the fact to its current version")
    single = render_history(versions[-1:])
    assert not Struck(single).struck, "a fact that never changed is shown with nothing struck through"


def check_render_history(render_history: Callable[[Sequence[MemoryRecord]], str]) -> bool:
    """Check exercise 11.3: a fact's versions, superseded ones struck through and naming their successor."""
    return check("Exercise 11.3 (show a fact that changed)", lambda: _render_history_test(render_history), SOLUTION)


def check_highlight(highlight: Callable[[str, Sequence[str]], str]) -> bool:
    """Check stretch 11: ``highlight(text, words)`` shows ``text`` exactly, with each whole-word match in <mark>."""
    return check("Stretch 11 (highlight query words safely)", lambda: _highlight_test(highlight), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_agent(memory=None):
    """The kit's agent on the offline stand-in, as lesson 09 assembles it (memory_update included)."""
    from aria_kit.demo import make_agent
    from aria_kit.offline import OfflineProvider

    return make_agent(memory=memory, llm=OfflineProvider(), verbose=False)


def _shown_text(markup: str) -> str:
    """What a browser shows of ``markup``: the text between the tags, character references read."""
    parts: list[str] = []
    parser = HTMLParser(convert_charrefs=True)
    parser.handle_data = parts.append
    parser.feed(markup)
    parser.close()
    return "".join(parts)


def _key_fish_and_chips() -> str:
    """11: a memory "Fish & chips <3" in the chat's memory panel."""
    from aria_kit.chat_widget import ChatWidget

    agent = _key_agent()
    agent.memory.store("Fish & chips <3", {"category": "note"})
    panel = ChatWidget(agent).memory_panel.value
    shown = _shown_text(panel)
    return only_true({"a": "Fish &amp; chips &lt;3" in shown,
                      "b": "Fish &amp; chips &lt;3" in panel and "Fish & chips <3" in shown,
                      "c": "Fish & chips" in shown and "<3" not in shown,
                      "d": "Fish & chips <3" in panel})


def _key_escaped_twice() -> str:
    """11: "R&D budget" escaped twice before it reaches the page."""
    shown = _shown_text(escape(escape("R&D budget")))
    return only_true({"a": shown == "R&D budget", "b": shown == "R&amp;D budget", "c": shown == "R&ampD budget",
                      "d": shown == "RD budget"})


def _key_forget_porto() -> str:
    """11: "I live in Lyon." replaced by "I live in Porto."; the current version forgotten through the box."""
    from aria_kit.chat_widget import ChatWidget

    agent = _key_agent()
    chat = ChatWidget(agent)
    chat.send("Remember that I live in Lyon")
    chat.send("Remember that I live in Porto")
    current = next(r.id for r in agent.memory.list_all() if r.superseded_by is None)
    chat.forget_box.value = current
    chat.forget_button.click()
    chat.confirm_button.click()
    left = agent.memory.list_all()
    texts = [r.text for r in left]
    return only_true({"a": not left,
                      "b": texts == ["I live in Lyon."] and left[0].superseded_by is None,
                      "c": len(left) == 2,
                      "d": len(left) == 2 and "Porto" not in chat.memory_panel.value})


def _key_clear_keeps_miso() -> str:
    """11: "my cat is called Miso", Clear chat, then the question in a new conversation."""
    from aria_kit.chat_widget import ChatWidget

    agent = _key_agent()
    chat = ChatWidget(agent)
    chat.send("Remember that my cat is called Miso")
    chat.clear()
    history_after_clear = len(agent.history)
    answer = chat.send("What is my cat called?")
    in_memory = any("Miso" in r.text for r in agent.memory.list_all())
    return only_true({"a": "Miso" not in answer and len(agent.memory) == 0,
                      "b": "Miso" in answer and in_memory and history_after_clear == 0,
                      "c": "Miso" in answer and history_after_clear > 0,
                      "d": "Miso" not in answer and not in_memory})


def _key_likes_coffee_too() -> str:
    """11: memory holds "I like green tea."; the learner types "Remember that I like black coffee"."""
    from aria_kit.chat_widget import ChatWidget

    agent = _key_agent()
    tea = agent.memory.store("I like green tea.", {"category": "user_pref"})
    ChatWidget(agent).send("Remember that I like black coffee")
    records = agent.memory.list_all()
    current = [r for r in records if r.superseded_by is None]
    old = agent.memory.get(tea)
    return only_true({"a": len(current) == 2 and any("coffee" in r.text for r in current),
                      "b": old is not None and old.superseded_by is not None,
                      "c": old is None,
                      "d": len(records) == 1})


QUIZ = Quiz("Lesson 11", [
    Question(
        "Predict: a memory's text is \"Fish & chips <3\". What does the chat's memory panel hold for it, and what "
        "does the browser show?",
        {"a": "It holds Fish &amp; chips &lt;3, and the reader sees those codes: the price of safety",
         "b": "It holds Fish &amp; chips &lt;3, and the reader sees Fish & chips <3, as stored",
         "c": "It holds the text as it is, and the browser shows Fish & chips: \"<3\" starts a tag it drops",
         "d": "It holds the text as it is: there is no tag in it, so there is nothing to escape"},
        "b",
        "every text goes through html.escape once on its way into markup; the browser reads &amp; and &lt; back "
        "as the characters, so the reader sees exactly what was stored.",
        {"a": "a browser turns each character reference back into its character: escaped once, the reader never "
              "sees the codes.",
         "c": "that is what the raw text risks in a browser; the panel escapes it, so nothing is dropped.",
         "d": "a renderer cannot know which texts are harmless: \"&\" and \"<\" mean markup to a browser, so every "
              "text is escaped, not only the ones that look like tags."},
        kind="predict", case=("Fish & chips <3",), compute=_key_fish_and_chips),
    Question(
        "Predict: a careless renderer escapes the tool result \"R&D budget\" twice before the chat shows it. "
        "What does the user read?",
        {"a": "R&D budget: the second escape changes nothing the browser shows",
         "b": "R&amp;D budget: the browser undoes one escape, and the other is left on screen",
         "c": "R&ampD budget: the second escape eats the semicolon",
         "d": "RD budget: the browser drops the doubled entity"},
        "b",
        "escape exactly once, where text enters markup: the browser reads back one layer, so a second one is shown "
        "to the user as if it were the text.",
        {"a": "escaping is not idempotent: the first escape makes \"&amp;\", and the second escapes its \"&\" again.",
         "c": "html.escape replaces \"&\" with \"&amp;\" and touches nothing else: the semicolon stays.",
         "d": "the browser drops nothing: it turns \"&amp;amp;\" into \"&amp;\" and shows that as text."},
        kind="predict", case=("R&D budget",), compute=_key_escaped_twice),
    Question(
        "Predict: the chat stored \"I live in Lyon.\", then replaced it with \"I live in Porto.\" (Lyon struck "
        "through). You type Porto's id in the Forget… box, click Forget…, then Yes, forget it. What is left of the fact?",
        {"a": "Nothing: both versions go, Lyon with Porto",
         "b": "Lyon, current again: forgetting the newest version brings back the one it replaced",
         "c": "Both, unchanged: the current version of a fact with history cannot be removed",
         "d": "Both, in memory: the box takes the fact off the panel, not out of the memory store"},
        "a",
        "Forget… calls memory.forget, which removes the fact with every version of it: the old text is gone too.",
        {"b": "that is what deleting the current version alone would do, which is why memory.delete refuses it; "
              "forget takes the older versions with it.",
         "c": "memory.delete refuses that; Forget… uses memory.forget, which removes every version.",
         "d": "the panel is drawn from the memory store: Forget… removes the rows from the store, then redraws."},
        kind="predict", case=("Lyon", "Porto"), compute=_key_forget_porto),
    Question(
        "Predict: you type \"Remember that my cat is called Miso\", click Clear chat, then ask \"What is my cat "
        "called?\". What does Aria answer?",
        {"a": "It cannot say: Clear chat wiped everything it was told",
         "b": "Miso, from long-term memory: Clear chat forgets only the conversation",
         "c": "Miso, because the model still sees the cleared messages",
         "d": "It cannot say: the fact stays in the conversation and reaches memory only when the chat ends"},
        "b",
        "history and memory are separate: memory_store wrote the fact to long-term memory at once, and a new "
        "conversation recalls it.",
        {"a": "clear empties the transcript and the history; the memory store keeps the fact until you forget it "
              "(Forget…, memory.forget).",
         "c": "clear empties the agent's history too, so the next request carries no earlier message: the answer "
              "comes from recall.",
         "d": "memory_store writes to long-term memory in the turn that calls it; the conversation holds only "
              "the messages."},
        kind="predict", case=("Miso",), compute=_key_clear_keeps_miso),
    Question(
        "Predict: memory holds \"I like green tea.\". You type \"Remember that I like black coffee\" in the chat. "
        "What does the memory panel show afterwards?",
        {"a": "Both facts as current rows",
         "b": "The coffee fact as the newest row, and the tea fact struck through, replaced by it",
         "c": "Only the coffee fact: the tea fact was deleted",
         "d": "Only the tea fact: the coffee fact is held back until the model calls memory_update"},
        "a",
        "\"like\" holds many values at once, so the check on write flags nothing: the fact is stored, and both "
        "stay current.",
        {"b": "a fact is superseded only when the check finds another value of a single-valued slot (is, lives "
              "in), as the shell was; liking coffee does not stop anyone liking tea.",
         "c": "nothing in the chat deletes a memory because of a new one; superseding keeps the old version too.",
         "d": "a write is held back only when it may replace a memory; nothing here may be replaced."},
        kind="predict", case=("I like green tea.", "black coffee"), compute=_key_likes_coffee_too),
])
