"""What a request to the model holds, checked on requests the agent really sends: the claims' reference.

The lessons from 07 on say where each part of a request goes. This module records the requests an agent
sends (``ScriptedProvider`` keeps them) and checks the request model those sentences describe:

- the first message is the system message, exactly ``persona.instructions()``, the same bytes on every request;
- the memories recalled for the message are one ``user`` message of their own (the live context), after the
  history and directly before the user's message, and nothing of them is in the system message;
- each request starts with everything the previous one held before its live context (system + history).

It checks; it does not describe: each lesson's claims file ties a sentence to these checks.
"""

from __future__ import annotations

from typing import Any

from aria_kit.demo import make_agent
from aria_kit.demo_data import seed_memory
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.memory_rules import read_quoted_entries
from aria_kit.persona import ARIA, LIVE_CONTEXT_HEADING, AgentPersona
from aria_kit.scripted import ScriptedProvider, say

QUESTIONS = ("When is Alice's meeting with the infrastructure team?", "Which programming language does Alice like?",
             "What did Alice order?")


def recorded_requests(persona: AgentPersona = ARIA, questions=QUESTIONS) -> list[list[dict[str, Any]]]:
    """The messages of every request a demo agent sends for ``questions`` (one plain answer each)."""
    memory = HybridMemory()
    seed_memory(memory)
    llm = ScriptedProvider([say(f"Answer {n}.") for n in range(1, len(questions) + 1)])
    agent = make_agent(memory=memory, llm=llm, persona=persona)
    for question in questions:
        agent.chat(question)
    return [request["messages"] for request in llm.requests]


def live_context_at(messages: list[dict[str, Any]]) -> int:
    positions = [i for i, m in enumerate(messages) if str(m.get("content") or "").startswith(LIVE_CONTEXT_HEADING)]
    assert len(positions) == 1, f"{len(positions)} live-context messages in one request (one expected)"
    return positions[0]


def check_request_model(persona: AgentPersona = ARIA, questions=QUESTIONS) -> bool:
    """The request model the lessons teach holds for the agent as built (see the module docstring)."""
    return check_requests(recorded_requests(persona, questions), persona, questions)


def check_requests(requests: list[list[dict[str, Any]]], persona: AgentPersona, questions) -> bool:
    assert len(requests) == len(questions), f"{len(requests)} requests for {len(questions)} questions"
    for number, (messages, question) in enumerate(zip(requests, questions), start=1):
        assert messages[0] == {"role": "system", "content": persona.instructions()}, (
            f"request {number}'s first message is not the system message persona.instructions()")
        assert sum(m["role"] == "system" for m in messages) == 1, f"request {number} has more than one system message"
        at = live_context_at(messages)
        assert messages[at]["role"] == "user" and at == len(messages) - 2, (
            f"request {number}: the live context is message {at + 1} of {len(messages)}, not the one before the question")
        assert messages[-1] == {"role": "user", "content": question}, f"request {number} does not end with its question"
        recalled = read_quoted_entries(messages[at]["content"])
        assert recalled, f"request {number}'s live context holds no memory"
        assert not any(entry["id"] in messages[0]["content"] or entry["text"] in messages[0]["content"]
                       for entry in recalled), f"request {number}'s system message holds a recalled memory"
        if number > 1:
            before = requests[number - 2][:live_context_at(requests[number - 2])]
            assert messages[:len(before)] == before, (f"request {number} does not start with what request "
                                                      f"{number - 1} held before its live context")
    return True


def recalled_ids(messages: list[dict[str, Any]]) -> list[str]:
    return [entry["id"] for entry in read_quoted_entries(messages[live_context_at(messages)]["content"])]
