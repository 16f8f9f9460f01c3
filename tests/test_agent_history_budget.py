"""Issue 22, point 3: the history sent to the model has a budget, in characters.

Oldest exchanges go first; an exchange (a user message and everything up to the next one) is kept or dropped
whole, so an assistant message's tool calls never reach the model without their tool results.
"""

import pytest

from aria_kit.agent import DEFAULT_HISTORY_CHARS, AutonomousAgent, history_chars
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, say
from test_agent_fuzz import assert_valid_chat_transcript
from toy_memory import ToyMemory

TURNS = 300


def test_a_300_turn_conversation_sends_at_most_the_budget_newest_exchanges_first():
    budget = 5_000
    llm = ScriptedProvider([say(f"Answer {n}: " + "a" * 80) for n in range(TURNS)])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [], history_chars=budget, recall_k=0)
    for n in range(TURNS):
        agent.chat(f"Message {n}: " + "m" * 80)
    llm.assert_all_used()
    assert len(agent.history) == 2 * TURNS, "the agent keeps the whole conversation; only what it sends is cut"
    last = llm.requests[-1]["messages"]
    sent_history = last[1:-1]
    assert history_chars(sent_history) <= budget
    assert history_chars(last[1:-1] + [agent.history[-2], agent.history[-1]]) > budget, "it sent less than fits"
    assert sent_history == agent.history[-2 - len(sent_history):-2], "the newest exchanges, in order, oldest gone"
    assert sent_history[0]["role"] == "user"
    sizes = [history_chars(r["messages"][1:-1]) for r in llm.requests]
    assert max(sizes) <= budget and sizes[-1] > budget - 200


def test_by_default_the_history_is_bounded_too():
    llm = ScriptedProvider([say("ok " + "a" * 500) for _ in range(TURNS)])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [], recall_k=0)
    for n in range(TURNS):
        agent.chat(f"Message {n}: " + "m" * 500)
    assert history_chars(llm.requests[-1]["messages"][1:-1]) <= DEFAULT_HISTORY_CHARS
    assert len(llm.requests[-1]["messages"]) < 2 * TURNS


def test_an_exchange_with_tool_calls_is_kept_or_dropped_whole():
    exchange = [
        {"role": "user", "content": "u" * 50},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "calculator", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "t1", "content": "r" * 50},
        {"role": "assistant", "content": "a" * 50},
    ]
    for budget in range(0, 1_000, 7):
        llm = ScriptedProvider([say("ok")])
        agent = AutonomousAgent(ARIA, llm, ToyMemory(), [], history_chars=budget, recall_k=0)
        agent.history = [dict(m) for _ in range(5) for m in exchange]
        agent.chat("next")
        sent = llm.requests[0]["messages"]
        assert_valid_chat_transcript(sent)
        assert len(sent[1:-1]) % len(exchange) == 0
        assert history_chars(sent[1:-1]) <= budget


@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"])
def test_the_budget_must_be_a_whole_number_of_characters(bad):
    with pytest.raises(ValueError, match="history_chars"):
        AutonomousAgent(ARIA, ScriptedProvider([]), ToyMemory(), [], history_chars=bad)
