"""Issue 22, point 2: the system message is the same bytes on every request of a conversation.

A provider's prompt cache matches the longest identical prefix of a request. Recalled memories change with
every message, so they travel in a message of their own, just before the user's message, quoted as data
(one JSON object per memory); the system message holds only the persona and its rules.
"""

import json

from aria_kit.agent import AutonomousAgent
from aria_kit.memory_rules import read_quoted_entries
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import default_tools
from fake_openai_server import chat_reply, provider_for, tool_call
from toy_memory import ToyMemory

FACTS = ["Alice's favourite language is Rust.", "Alice is building VelocityDB.", "VelocityDB uses Raft."]
QUESTIONS = ["Which language does Alice like?", "What is Alice building?", "What does VelocityDB use?"]


def seeded() -> ToyMemory:
    memory = ToyMemory()
    for fact in FACTS:
        memory.store(fact, {"category": "fact"})
    return memory


def scripted_conversation() -> tuple[AutonomousAgent, ScriptedProvider]:
    script = []
    for question in QUESTIONS:  # each turn: one tool round, then an answer
        script += [call_tool("memory_search", {"query": question}), say("An answer.")]
    memory = seeded()
    llm = ScriptedProvider(script)
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory))
    for question in QUESTIONS:
        agent.chat(question)
    llm.assert_all_used()
    return agent, llm


def test_the_system_message_is_byte_identical_on_every_request_of_a_conversation():
    _, llm = scripted_conversation()
    systems = [json.dumps(r["messages"][0], ensure_ascii=False).encode("utf-8") for r in llm.requests]
    assert len(systems) == 6
    assert len(set(systems)) == 1, "the system message changed between requests: the prompt cache would miss"
    assert llm.requests[0]["messages"][0] == {"role": "system", "content": ARIA.instructions()}


def test_recalled_memories_travel_in_their_own_message_just_before_the_user_message_as_quoted_data():
    agent, llm = scripted_conversation()
    for turn, question in zip(agent.turns, QUESTIONS):
        first = next(r for r in llm.requests if r["messages"][-1] == {"role": "user", "content": question})
        context = first["messages"][-2]
        recalled = [hit.id for hit in turn.steps[0].detail["hits"]]
        assert recalled, "the seeded memory should recall something for every question"
        assert context["role"] == "user" and context["content"] == ARIA.live_context(turn.steps[0].detail["hits"])
        assert [entry["id"] for entry in read_quoted_entries(context["content"])] == recalled
        assert not read_quoted_entries(first["messages"][0]["content"]), "no memory may sit in the system message"


def test_the_requests_of_a_conversation_share_everything_before_the_newest_exchange():
    """Turn 3's request starts with turn 2's request up to its recalled memories: system + history is a prefix."""
    _, llm = scripted_conversation()
    second_turn, third_turn = llm.requests[2]["messages"], llm.requests[4]["messages"]
    shared = second_turn[:-2]  # system + the first exchange, before turn 2's recalled memories and question
    assert third_turn[: len(shared)] == shared and len(shared) == 3


def test_over_the_wire_the_system_message_bytes_do_not_change(fake_openai):
    for question in QUESTIONS:
        fake_openai.reply(chat_reply(tool_calls=[tool_call("memory_search", {"query": question}, call_id="c1")]))
        fake_openai.reply(chat_reply("An answer."))
    memory = seeded()
    agent = AutonomousAgent(ARIA, provider_for(fake_openai), memory, default_tools(memory))
    for question in QUESTIONS:
        agent.chat(question)
    systems = {json.dumps(r.body["messages"][0], ensure_ascii=False) for r in fake_openai.requests}
    assert len(fake_openai.requests) == 6 and len(systems) == 1
    first = fake_openai.requests[0].body["messages"]
    assert first[-2]["role"] == "user" and first[-2]["content"].startswith("## Live context")
