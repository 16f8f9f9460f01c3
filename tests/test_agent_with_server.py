"""The real agent loop with the real OpenAI provider, against a real HTTP server on 127.0.0.1.

A failed turn (server error, timeout, refused key) must leave the conversation
exactly as it was, so the user can simply send the message again.
"""

import json

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.persona import ARIA
from aria_kit.openai_provider import OpenAIProvider, ProviderError
from aria_kit.tools import default_tools
from fake_openai_server import Reply, chat_reply, error_reply, tool_call
from toy_memory import ToyMemory

FAKE_KEY = "sk-test-SECRET1234567890abcdefAGENT"


def make_agent(server, **provider_options):
    memory = ToyMemory()
    memory.store("Alice's favourite language is Rust.", {"category": "user_pref"})
    llm = OpenAIProvider("test-model", api_key=FAKE_KEY, base_url=server.url, max_retries=0, **provider_options)
    return AutonomousAgent(ARIA, llm, memory, default_tools(memory)), memory


def test_a_tool_calling_turn_goes_over_the_wire_and_back(fake_openai):
    fake_openai.reply(chat_reply(tool_calls=[tool_call("calculator", {"expression": "22 * 6.5"}, call_id="call_a")]))
    fake_openai.reply(chat_reply("143 hours."))
    agent, _ = make_agent(fake_openai)

    assert agent.chat("22 days at 6.5 hours a day?") == "143 hours."

    first, second = (r.body for r in fake_openai.requests)
    assert [t["function"]["name"] for t in first["tools"]] == ["memory_store", "memory_search", "calculator", "web_search"]
    entry = '{"id": "mem_0001", "category": "user_pref", "text": "Alice\'s favourite language is Rust."}'
    assert entry in first["messages"][-2]["content"].splitlines()
    assert second["messages"][-2]["tool_calls"][0]["id"] == "call_a"
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_a", "content": "143"}
    assert fake_openai.requests[0].headers["authorization"] == f"Bearer {FAKE_KEY}"


@pytest.mark.parametrize(
    "fault, kind",
    [
        (error_reply(500, "upstream exploded"), "server"),
        (error_reply(401, "bad key"), "auth"),
        (Reply(body=b"<html>gateway</html>", status=200, content_type="text/html"), "bad_response"),
    ],
)
def test_a_failed_turn_leaves_history_unchanged_and_a_retry_works(fake_openai, fault, kind):
    fake_openai.reply(chat_reply("Hello."))
    fake_openai.reply(fault)
    fake_openai.reply(chat_reply("Rust."))
    agent, _ = make_agent(fake_openai)
    agent.chat("hi")
    before = json.dumps(agent.history)

    with pytest.raises(ProviderError) as caught:
        agent.chat("Which language?")
    assert caught.value.kind == kind
    assert json.dumps(agent.history) == before and len(agent.turns) == 1
    assert FAKE_KEY not in str(caught.value)

    assert agent.chat("Which language?") == "Rust."
    assert [m["content"] for m in agent.history] == ["hi", "Hello.", "Which language?", "Rust."]


def test_a_failure_after_a_tool_ran_keeps_what_the_tool_stored(fake_openai):
    """The memory a tool stored before the model failed stays stored: nothing is lost."""
    fake_openai.reply(chat_reply(tool_calls=[tool_call("memory_store", {"text": "Bob likes tea.", "category": "user_pref"})]))
    fake_openai.reply(Reply(body=chat_reply("late"), delay=1.5))
    agent, memory = make_agent(fake_openai, timeout=0.3)

    with pytest.raises(ProviderError) as caught:
        agent.chat("Remember that Bob likes tea")
    assert caught.value.kind == "timeout"
    assert [r.text for r in memory.list_all()][-1] == "Bob likes tea."
    assert agent.history == []
