"""The agent over a long life and a hostile model: whole exchanges, one message limit, bounded turns,
capped unknown tool names (issue 30, findings 2, 3 and 6)."""

from __future__ import annotations

import gc
import json
import tracemalloc
from typing import Any

import pytest

from aria_kit import agent as agent_module
from aria_kit.agent import MAX_TOOL_RESULT, AutonomousAgent
from aria_kit.conversation_log import ConversationLog
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import AssistantMessage, LLMProvider, Tool, ToolCall
from aria_kit.memory_rules import MAX_TEXT_BYTES
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from toy_memory import ToyMemory


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


# ---------------------------------------------------------------- an exchange is recorded whole or not at all


def test_an_answer_past_a_memorys_size_is_logged_shortened_with_the_rest_of_its_exchange(embedder) -> None:
    long_answer = "Cats purr. " * 15_000  # 165,000 characters: more than one memory may hold
    log = ConversationLog(HybridMemory(embedder), session="s1")
    agent = AutonomousAgent(ARIA, ScriptedProvider([say(long_answer)]), ToyMemory(), conversation_log=log)
    assert agent.chat("Tell me about cats at length.") == long_answer
    assert agent.history[-1] == {"role": "assistant", "content": long_answer} and agent.last_turn.answer == long_answer
    user, answer = log.memory.list_all()
    assert user.text == "Tell me about cats at length."
    assert len(answer.text.encode("utf-8")) <= MAX_TEXT_BYTES and answer.text.startswith("Cats purr. Cats purr.")
    assert answer.text.endswith("(shortened for the log: 165,000 characters in all)")


class RefusingMemory(ToyMemory):
    """A log memory that fails on write, as a full disk would."""

    def store_many(self, texts, metadatas=None):
        raise OSError("disk full")


def test_when_the_log_cannot_keep_an_exchange_neither_history_nor_turns_keep_it() -> None:
    log = ConversationLog(RefusingMemory(), session="s1")
    agent = AutonomousAgent(ARIA, ScriptedProvider([say("Hello!")]), ToyMemory(), conversation_log=log)
    with pytest.raises(OSError, match="disk full"):
        agent.chat("Hi")
    assert agent.history == [] and agent.turns == []


@pytest.mark.parametrize("facts", [0, 1], ids=["empty memory", "one fact"])
def test_a_message_past_the_limit_is_refused_before_anything_runs_whether_memory_is_empty_or_not(embedder,
                                                                                              facts: int) -> None:
    memory = HybridMemory(embedder)
    if facts:
        memory.store("Alice's favourite language is Rust.")
    llm = ScriptedProvider([say("unused")])
    agent = AutonomousAgent(ARIA, llm, memory)
    with pytest.raises(ValueError) as refused:
        agent.chat("word " * 25_000)  # 125,000 bytes
    assert str(refused.value) == ("The message is 125,000 bytes of UTF-8, over the 100,000-byte limit for one message: "
                                  "send a shorter one, or store a long document in memory in parts "
                                  "(memory.store_many) and ask about it")
    assert llm.requests == [] and agent.history == [] and agent.turns == []
    assert agent.chat("word " * 19_999).startswith("unused")  # 99,995 bytes: under the limit, answered


# ---------------------------------------------------------------- agent.turns stays bounded


class Note(Tool):
    name = "note"
    description = "Take a note."

    def run(self, text: str) -> str:
        """text: The note."""
        return "noted"


class FloodingModel(LLMProvider):
    """Asks for 8 notes of 250 kB (new strings each turn), then answers; keeps nothing it was sent."""

    name = "flooding test double"

    def __init__(self) -> None:
        self.turn = 0

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> AssistantMessage:
        if messages[-1]["role"] == "tool":
            return AssistantMessage(content=f"Done with turn {self.turn}.")
        self.turn += 1
        return AssistantMessage(tool_calls=tuple(
            ToolCall(f"call_{i}", "note", json.dumps({"text": f"{self.turn}.{i} " + "x" * 250_000}))
            for i in range(8)))


def test_agent_turns_keep_the_newest_50_and_memory_stops_growing_over_100_long_turns() -> None:
    agent = AutonomousAgent(ARIA, FloodingModel(), ToyMemory(), [Note()], recall_k=0)
    gc.collect()
    tracemalloc.start()
    try:
        for number in range(1, 101):
            agent.chat(f"Take eight long notes, turn {number}.")
            if number == 50:
                gc.collect()
                at_50 = tracemalloc.get_traced_memory()[0]
        gc.collect()
        at_100 = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert at_50 > 50 * 8 * 250_000  # the 50 turns kept do hold their arguments: the test measures something
    assert at_100 < at_50 + 5_000_000, f"{at_50:,} bytes after 50 turns, {at_100:,} after 100"
    assert agent_module.MAX_TURNS_KEPT == 50 and len(agent.turns) == 50
    assert [turn.user for turn in (agent.turns[0], agent.last_turn)] == [
        "Take eight long notes, turn 51.", "Take eight long notes, turn 100."]
    tools = [step for step in agent.last_turn.steps if step.kind == "tool"]
    assert len(tools) == 8 and all(len(step.detail["call"].arguments) > 250_000 for step in tools)
    assert agent.last_turn.answer == "Done with turn 100." and len(agent.history) == 200


def test_the_turns_kept_follow_the_module_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_module, "MAX_TURNS_KEPT", 2, raising=False)
    agent = AutonomousAgent(ARIA, ScriptedProvider([say("a"), say("b"), say("c")]), ToyMemory())
    for message in ("1", "2", "3"):
        agent.chat(message)
    assert [turn.user for turn in agent.turns] == ["2", "3"] and len(agent.history) == 6


# ---------------------------------------------------------------- an unknown tool name is cut


def test_a_one_megabyte_unknown_tool_name_is_quoted_in_at_most_100_characters() -> None:
    name = "n" * 1_000_000
    llm = ScriptedProvider([call_tool(name, {}), say("ok")])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [Note()])
    agent.chat("go")
    reply = next(m for m in llm.requests[1]["messages"] if m["role"] == "tool")["content"]
    assert len(reply) < 200 and reply.startswith("Error: unknown tool `" + "n" * 99 + "…`. Available tools: note.")
    assert len(reply) <= MAX_TOOL_RESULT and all(len(step.summary) < 400 for step in agent.last_turn.steps)
