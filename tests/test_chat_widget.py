"""ChatWidget driven from Python, without a browser: transcript, escaping, memory panel, buttons, errors.

Escaping is checked against a reference: the standard library's HTML parser
reads each rendered value the way a browser's innerHTML would, and the tests
assert which elements it finds and what text it reads.
"""

from __future__ import annotations

import warnings

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.chat_widget import MEMORY_ROWS, ChatWidget, describe_model
from aria_kit.exercises.lesson11 import Rendered  # reads markup the way a browser does
from aria_kit.offline import OfflineProvider
from aria_kit.persona import ARIA
from aria_kit.openai_provider import OpenAIProvider, ProviderError
from aria_kit.scripted import ScriptedProvider, call_tool, call_tools, say
from aria_kit.tools import MemorySearchTool, MemoryStoreTool
from toy_memory import ToyMemory

PAYLOADS = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>")
OUR_TAGS = {"div", "b", "i", "p", "code", "pre", "details", "summary", "table", "tr", "th", "td"}


def make_chat(script, memory=None):
    memory = memory if memory is not None else ToyMemory()
    llm = ScriptedProvider(script)
    agent = AutonomousAgent(ARIA, llm, memory, [MemoryStoreTool(memory), MemorySearchTool(memory)])
    return ChatWidget(agent), llm, memory


def entries(chat, role):
    """The HTML widgets of one role (user, assistant, tools, error, notice), in transcript order."""
    return [w for w in chat.messages.children if f"aria-{role}" in w._dom_classes]


def roles(chat):
    return [role for role, _ in chat.entries]


def test_send_shows_the_message_the_tool_calls_and_the_answer_in_order():
    chat, llm, _ = make_chat([call_tool("memory_search", {"query": "editor"}), say("Vim, I believe.")])
    answer = chat.send("Which editor do I use?")
    assert answer == "Vim, I believe."
    assert roles(chat) == ["notice", "user", "tools", "assistant"]
    assert chat.entries[1] == ("user", "Which editor do I use?")
    assert chat.entries[3] == ("assistant", "Vim, I believe.")
    assert "Which editor do I use?" in Rendered(entries(chat, "user")[0].value).text
    assert "Vim, I believe." in Rendered(entries(chat, "assistant")[0].value).text
    llm.assert_all_used()


def test_a_turn_without_tools_adds_no_tool_view():
    chat, _, _ = make_chat([say("Hello!")])
    chat.send("Hi")
    assert roles(chat) == ["notice", "user", "assistant"]


def test_markup_from_user_model_memory_and_tools_is_shown_as_text_and_never_as_elements():
    script = [call_tool("memory_store", {"text": PAYLOADS[1], "category": "<b>x</b>"}), say(PAYLOADS[1] + PAYLOADS[0])]
    chat, _, _ = make_chat(script)
    chat.send(PAYLOADS[0])
    values = [w.value for w in chat.messages.children] + [chat.memory_panel.value, chat.status.value]
    for value in values:
        assert Rendered(value).tags <= OUR_TAGS, value
        assert not any(name.startswith("on") for _, attrs in Rendered(value).elements for name in attrs), value
    shown = {role: Rendered(w.value).text for role in ("user", "assistant", "tools") for w in entries(chat, role)}
    assert PAYLOADS[0] in shown["user"]
    assert PAYLOADS[1] + PAYLOADS[0] in shown["assistant"]
    assert PAYLOADS[1] in shown["tools"]  # the arguments of the store call
    panel = Rendered(chat.memory_panel.value).text
    assert PAYLOADS[1] in panel and "<b>x</b>" in panel


def test_memory_panel_lists_the_seeded_memories_newest_first_at_start():
    memory = ToyMemory()
    memory.store("Alice's favourite programming language is Rust.", {"category": "user_pref"})
    memory.store("Order #4821 was placed by Alice.", {"category": "order"})
    chat, _, _ = make_chat([], memory)
    rows = Rendered(chat.memory_panel.value).text.split("mem_")[1:]
    assert rows[0].startswith("0002") and "order" in rows[0] and "Order #4821" in rows[0]
    assert rows[1].startswith("0001") and "user_pref" in rows[1]
    assert "aria-memory-new" not in chat.memory_panel.value


def test_memory_panel_lists_and_marks_a_memory_as_soon_as_the_agent_stores_it():
    chat, _, memory = make_chat([call_tool("memory_store", {"text": "My editor is Vim.", "category": "user_pref"}),
                                 say("Noted."), say("Hello.")])
    assert "Vim" not in chat.memory_panel.value
    chat.send("Remember that my editor is Vim")
    new_rows = [attrs for tag, attrs in Rendered(chat.memory_panel.value).elements
                if tag == "tr" and "aria-memory-new" in (attrs.get("class") or "")]
    assert len(new_rows) == 1
    assert "mem_0001" in chat.memory_panel.value and "My editor is Vim." in chat.memory_panel.value
    assert "Long-term memory (1)" in Rendered(chat.memory_panel.value).text
    assert "mem_0001" in chat.status.value
    chat.send("Hi")  # the next turn stores nothing: nothing is marked new any more
    assert "aria-memory-new" not in chat.memory_panel.value


def test_memory_panel_shows_the_newest_rows_and_counts_the_older_ones():
    memory = ToyMemory()
    memory.store_many([f"fact {i}" for i in range(MEMORY_ROWS + 5)])
    chat, _, _ = make_chat([], memory)
    rows = [tag for tag, attrs in Rendered(chat.memory_panel.value).elements if attrs.get("class") == "aria-memory-row"]
    assert len(rows) == MEMORY_ROWS
    assert f"fact {MEMORY_ROWS + 4}" in chat.memory_panel.value and "fact 4<" not in chat.memory_panel.value
    assert "and 5 older memories" in chat.memory_panel.value


def test_tool_view_is_collapsed_and_shows_each_call_with_its_arguments_and_result():
    chat, _, _ = make_chat([call_tools(("memory_store", {"text": "Raft is used.", "category": "fact"}),
                                       ("no_such_tool", {"x": 1})), say("Done.")])
    chat.send("Store it")
    (view,) = entries(chat, "tools")
    rendered = Rendered(view.value)
    details = [attrs for tag, attrs in rendered.elements if tag == "details"]
    assert details == [{"style": details[0]["style"]}], "the tool view must start collapsed (no `open`)"
    assert "memory_store, no_such_tool (2 calls)" in rendered.text
    assert '{"text": "Raft is used.", "category": "fact"}' in rendered.text
    assert "Stored as mem_0001 (category: fact)." in rendered.text
    assert "Error: unknown tool `no_such_tool`" in rendered.text


def test_enter_in_the_box_sends_once_and_empties_the_box():
    chat, llm, _ = make_chat([say("Hello!")])  # strict: a second send (e.g. of the emptied box) would fail
    chat.input.value = "Hi there"  # what the page sends on Enter with continuous_update=False
    assert chat.input.value == ""
    assert chat.entries[1:] == [("user", "Hi there"), ("assistant", "Hello!")]
    llm.assert_all_used()


def test_whitespace_in_the_box_and_an_empty_send_button_click_send_nothing():
    chat, _, _ = make_chat([])  # any model call would fail: nothing is scripted
    chat.input.value = "   "
    chat.input.value = ""
    chat.send_button.click()
    assert roles(chat) == ["notice"]


def test_empty_message_sent_from_python_raises_and_changes_nothing():
    chat, _, _ = make_chat([])
    with pytest.raises(ValueError, match="empty"):
        chat.send("  ")
    assert roles(chat) == ["notice"]


def test_controls_are_disabled_and_status_says_working_while_a_turn_runs():
    chat, _, _ = make_chat([])
    seen = {}

    def reply(messages, tools):
        seen.update(input=chat.input.disabled, send=chat.send_button.disabled, clear=chat.clear_button.disabled,
                    status=Rendered(chat.status.value).text, busy="aria-busy" in chat.view._dom_classes)
        return say("Done.")

    chat.agent.llm = ScriptedProvider([reply])
    chat.send("Work")
    assert seen == {"input": True, "send": True, "clear": True, "status": "Aria is working…", "busy": True}
    assert not (chat.input.disabled or chat.send_button.disabled or chat.clear_button.disabled)
    assert "aria-busy" not in chat.view._dom_classes
    assert Rendered(chat.status.value).text.startswith("Answered in")


def test_clear_button_empties_transcript_and_history_but_keeps_memory():
    chat, _, memory = make_chat([call_tool("memory_store", {"text": "Keep me."}), say("Kept.")])
    chat.send("Remember: keep me")
    assert chat.agent.history
    chat.clear_button.click()
    assert roles(chat) == ["notice"] and len(chat.messages.children) == 1
    assert chat.agent.history == [] and chat.agent.turns == []
    assert [r.text for r in memory.list_all()] == ["Keep me."]
    assert "Keep me." in chat.memory_panel.value
    assert "cleared" in chat.status.value


def test_provider_error_is_shown_as_a_message_and_the_next_message_works():
    failure = ProviderError("Could not connect to http://127.0.0.1:9/v1 — is the server running? Check "
                            "OPENAI_BASE_URL.", kind="connection")
    chat, llm, _ = make_chat([failure, say("Back again.")])
    shown = chat.send("Hello?")
    assert shown == str(failure)
    assert roles(chat)[-2:] == ["user", "error"]
    assert "is the server running?" in Rendered(entries(chat, "error")[0].value).text
    assert "connection" in chat.status.value and "send it again" in chat.status.value
    assert not chat.input.disabled and not chat.send_button.disabled
    assert chat.agent.history == []  # the failed turn left no trace in the conversation
    assert chat.send("Hello?") == "Back again."
    llm.assert_all_used()


def test_a_bug_is_shown_then_raised_and_the_widget_stays_usable():
    chat, _, _ = make_chat([RuntimeError("tool registry on fire"), say("Fine now.")])
    with pytest.raises(RuntimeError, match="on fire"):
        chat.send("Hi")
    assert chat.entries[-1] == ("error", "RuntimeError: tool registry on fire")
    assert not chat.input.disabled
    assert chat.send("Hi") == "Fine now."


def test_model_line_says_offline_and_how_to_switch_to_a_real_model():
    chat = ChatWidget(AutonomousAgent(ARIA, OfflineProvider(), ToyMemory()))
    line = Rendered(chat.model_line.value).text
    assert line.startswith("Model: offline rule-based stand-in")
    assert "OPENAI_API_KEY" in line and "OPENAI_BASE_URL" in line


def test_model_line_names_the_model_and_the_server_and_escapes_the_name(monkeypatch):
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    llm = OpenAIProvider("<b>llama3.2</b>", base_url="http://127.0.0.1:9/v1", max_retries=0)
    assert describe_model(llm) == "<b>llama3.2</b> via http://127.0.0.1:9/v1 (an OpenAI-compatible server)"
    chat = ChatWidget(AutonomousAgent(ARIA, llm, ToyMemory()))
    assert Rendered(chat.model_line.value).text == "Model: " + describe_model(llm)
    openai = OpenAIProvider(api_key="sk-test-not-a-real-key", max_retries=0)
    assert describe_model(openai) == "gpt-4o-mini via api.openai.com (OpenAI)"


def test_displaying_the_chat_shows_its_widget_with_a_short_text_form():
    chat, _, _ = make_chat([])
    bundle = chat._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == chat.view.model_id
    assert bundle["text/plain"] == "ChatWidget(Aria, model: scripted test double (replays prepared replies))"


def test_the_widget_prints_no_deprecation_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chat, _, _ = make_chat([call_tool("memory_store", {"text": "x"}), say("ok")])
        chat.input.value = "remember x"
        chat.send_button.click()
        chat.clear_button.click()
        chat._repr_mimebundle_()


def test_offline_agent_remembers_vim_and_answers_from_memory_through_the_widget(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    from aria_kit.demo import make_agent, seed_memory

    agent = make_agent(verbose=False)
    seed_memory(agent.memory)
    chat = ChatWidget(agent)
    chat.input.value = "Please remember that my favourite editor is Vim"
    assert "My favourite editor is Vim." in chat.memory_panel.value and "aria-memory-new" in chat.memory_panel.value
    assert "Vim" in chat.send("What is my favourite editor?")


def test_a_failure_after_a_successful_turn_is_shown_and_the_controls_come_back(monkeypatch):
    chat, _, _ = make_chat([say("Answered."), say("Fine now.")])

    def broken_redraw(mark_new=True):
        raise RuntimeError("panel redraw on fire")

    monkeypatch.setattr(chat, "refresh_memory", broken_redraw)
    with pytest.raises(RuntimeError, match="panel redraw on fire"):
        chat.send("Hi")
    assert chat.entries[-1] == ("error", "RuntimeError: panel redraw on fire")
    assert not (chat.input.disabled or chat.send_button.disabled or chat.clear_button.disabled)
    assert "aria-busy" not in chat.view._dom_classes
    assert "went wrong" in Rendered(chat.status.value).text
    monkeypatch.undo()
    assert chat.send("Hi") == "Fine now."


def test_a_failure_while_the_box_sends_is_shown_and_the_box_works_again(monkeypatch):
    chat, _, _ = make_chat([say("Answered."), say("Fine now.")])
    monkeypatch.setattr(chat, "refresh_memory", lambda mark_new=True: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        chat.input.value = "Hi"  # what Enter does in the browser
    assert chat.entries[-1][0] == "error" and not chat.input.disabled


def test_web_app_model_line_says_what_a_web_user_can_do_and_who_sets_the_key():
    chat = ChatWidget(AutonomousAgent(ARIA, OfflineProvider(), ToyMemory()), web_app=True)
    line = Rendered(chat.model_line.value).text
    assert line.startswith("Model: offline rule-based stand-in")
    assert "rebuild" not in line  # a web user has no agent to rebuild and no terminal to set a variable in
    assert "You can still chat" in line and "whoever runs this app" in line
    assert "OPENAI_API_KEY" in line and "make app" in line


def _lisbon_then_porto(chat):
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    chat.agent.memory = memory
    lisbon = memory.store("Carol lives at 12 Rua Augusta, Lisbon.")
    porto = memory.supersede(lisbon, "Carol lives at 3 Rua das Flores, Porto.")
    keep = memory.store("Carol likes green tea.")
    chat.refresh_memory(mark_new=False)
    return memory, lisbon, porto, keep


def test_forget_asks_first_then_removes_the_fact_with_its_whole_history():
    chat, _, _ = make_chat([])
    memory, lisbon, porto, keep = _lisbon_then_porto(chat)
    assert chat.ask_forget(porto)
    assert chat.confirm_button.layout.display is None  # shown
    assert "other version" in chat.status.value and "cannot be undone" in chat.status.value
    assert memory.get(porto) is not None  # asking removes nothing
    assert chat.forget(porto) == [lisbon, porto]
    assert [r.id for r in memory.list_all()] == [keep]
    assert memory.search("Where does Carol live?", include_history=True)[0].id == keep
    assert porto not in chat.memory_panel.value and chat.confirm_button.layout.display == "none"


def test_forget_without_asking_or_of_an_unknown_id_removes_nothing_and_says_why():
    chat, _, _ = make_chat([])
    memory, lisbon, porto, keep = _lisbon_then_porto(chat)
    assert chat.forget(porto) == [] and len(memory.list_all()) == 3
    assert "Forget…" in chat.status.value
    assert not chat.ask_forget("mem_0999") and "no memory" in chat.status.value
    assert chat.ask_forget(keep) and not chat.forget(porto)  # confirming asks about the id that was named
    assert len(memory.list_all()) == 3


def test_a_turn_cancels_a_pending_forget():
    chat, _, _ = make_chat([say("Hello.")])
    memory, lisbon, porto, keep = _lisbon_then_porto(chat)
    chat.ask_forget(keep)
    chat.send("hi")
    assert chat.forget(keep) == [] and memory.get(keep) is not None
