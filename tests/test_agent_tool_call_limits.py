"""Issue 22, point 4: limits on tool calls per reply and per turn.

A reply of 3,000 ``memory_store`` calls must not store 3,000 memories. Calls over a limit are not run; each is
answered with an ``Error:`` tool message (so every ``tool_call_id`` gets its reply, as the chat-completions API
requires), and the turn still ends with the user's message and an answer in the history.
"""

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.interfaces import AssistantMessage, ToolCall
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import default_tools
from fake_openai_server import chat_reply, provider_for, tool_call
from test_agent_fuzz import assert_valid_chat_transcript
from toy_memory import ToyMemory

FLOOD = 3_000


def flood_reply(n: int = FLOOD, first: int = 0) -> AssistantMessage:
    # Distinct facts: memory_store answers an exact repeat with the id it already has and stores nothing.
    return AssistantMessage(tool_calls=tuple(
        ToolCall(f"call_{i}", "memory_store", f'{{"text": "fact number {i}"}}') for i in range(first, first + n)))


def tool_messages(request):
    return [m for m in request["messages"] if m["role"] == "tool"]


def test_a_reply_of_3000_calls_runs_only_the_per_reply_limit_and_answers_every_call():
    memory = ToyMemory()
    llm = ScriptedProvider([flood_reply(), say("Stored what I could.")])
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory), max_tool_calls_per_reply=5)
    assert agent.chat("Remember these facts.") == "Stored what I could."
    assert len(memory) == 5
    replies = tool_messages(llm.requests[1])
    assert [m["tool_call_id"] for m in replies] == [f"call_{i}" for i in range(FLOOD)]
    assert all(not m["content"].startswith("Error:") for m in replies[:5])
    refused = replies[5:]
    assert all(m["content"].startswith("Error:") and "5 per reply" in m["content"] for m in refused)
    assert_valid_chat_transcript(llm.requests[1]["messages"])
    assert agent.history == [{"role": "user", "content": "Remember these facts."},
                             {"role": "assistant", "content": "Stored what I could."}]
    assert [s.kind for s in agent.last_turn.steps].count("tool") == 5
    assert [s.summary for s in agent.last_turn.steps if s.kind == "limit"] == [
        "2995 calls over the limit answered with an error, not run"], "the trace says it once, not 2,995 times"


def test_the_per_turn_limit_spans_rounds():
    memory = ToyMemory()
    script = [flood_reply(4, first=0), flood_reply(4, first=4), flood_reply(4, first=8), say("done")]
    llm = ScriptedProvider(script)
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory), max_tool_calls_per_reply=4,
                            max_tool_calls_per_turn=6)
    assert agent.chat("go") == "done"
    assert len(memory) == 6  # 4 in round 1, 2 in round 2, none in round 3
    last = tool_messages(llm.requests[-1])
    assert len(last) == 12 and sum(m["content"].startswith("Error:") for m in last) == 6
    assert "6 per turn" in last[-1]["content"]


def test_by_default_a_flood_is_cut_too():
    memory = ToyMemory()
    llm = ScriptedProvider([flood_reply(), say("ok")])
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory))
    agent.chat("Remember these facts.")
    assert 0 < len(memory) <= agent.max_tool_calls_per_reply < 100


def test_a_flood_over_the_wire_is_cut_and_every_call_answered(fake_openai):
    fake_openai.reply(chat_reply(tool_calls=[tool_call("memory_store", {"text": f"fact {i}"}, call_id=f"c{i}")
                                             for i in range(FLOOD)]))
    fake_openai.reply(chat_reply("Stored some."))
    memory = ToyMemory()
    agent = AutonomousAgent(ARIA, provider_for(fake_openai), memory, default_tools(memory),
                            max_tool_calls_per_reply=3)
    assert agent.chat("Remember these.") == "Stored some."
    assert len(memory) == 3
    sent = fake_openai.requests[1].body["messages"]
    replies = [m for m in sent if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in replies] == [f"c{i}" for i in range(FLOOD)]
    assert sum(m["content"].startswith("Error:") for m in replies) == FLOOD - 3


@pytest.mark.parametrize("option", ["max_tool_calls_per_reply", "max_tool_calls_per_turn"])
@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_limits_must_be_positive_whole_numbers(option, bad):
    with pytest.raises(ValueError, match=option):
        AutonomousAgent(ARIA, ScriptedProvider([]), ToyMemory(), [], **{option: bad})


def test_a_single_call_within_the_limits_is_untouched():
    memory = ToyMemory()
    llm = ScriptedProvider([call_tool("memory_store", {"text": "Bob likes tea."}), say("Noted.")])
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory), max_tool_calls_per_reply=1,
                            max_tool_calls_per_turn=1)
    assert agent.chat("Bob likes tea.") == "Noted." and len(memory) == 1
