"""Facts that change (lesson 10): the memory_update tool, the agent's recall, and the offline stand-in's update rules.

The offline cases use the demo's seven facts in a real ``HybridMemory`` and
several phrasings of each kind of change; each checks which memory was
superseded, what the new version says, and that the old one is kept.
"""

from __future__ import annotations

import json

import pytest
from toy_memory import ToyMemory

from aria_kit.agent import AutonomousAgent
from aria_kit.demo import make_agent, seed_memory
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.offline import OfflineProvider
from aria_kit.offline_updates import parse_change
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import MemoryUpdateTool, default_tools

RUST, GO = "Alice's favourite programming language is Rust.", "Alice's favourite programming language is Go."


@pytest.fixture
def agent() -> AutonomousAgent:
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    seed_memory(agent.memory)
    return agent


def tool_calls(agent: AutonomousAgent) -> list[tuple[str, dict]]:
    return [(s.detail["call"].name, json.loads(s.detail["call"].arguments)) for s in agent.last_turn.steps if s.kind == "tool"]


# ---------------------------------------------------------------- the tool


def test_memory_update_publishes_a_schema_derived_from_its_signature() -> None:
    schema = MemoryUpdateTool(ToyMemory()).schema()["function"]
    assert schema["name"] == "memory_update"
    assert schema["parameters"]["required"] == ["memory_id", "new_text"]
    assert all(spec["type"] == "string" and spec["description"] for spec in schema["parameters"]["properties"].values())


def test_memory_update_supersedes_and_reports_both_ids_and_texts() -> None:
    memory = HybridMemory()
    seed_memory(memory)
    result = MemoryUpdateTool(memory).invoke({"memory_id": "mem_0001", "new_text": GO})
    assert result == f"Updated mem_0001 → mem_0008. Now: {GO!r}; before: {RUST!r} (kept as history)."
    assert memory.get("mem_0001").superseded_by == "mem_0008"


@pytest.mark.parametrize(("memory_id", "problem"), [("mem_0099", "no memory 'mem_0099'"), ("mem_0001", "already superseded")])
def test_memory_update_mistakes_go_back_to_the_model_as_errors(memory_id: str, problem: str) -> None:
    memory = HybridMemory()
    seed_memory(memory)
    memory.supersede("mem_0001", GO)
    result = MemoryUpdateTool(memory).invoke({"memory_id": memory_id, "new_text": "Alice likes Zig."})
    assert result.startswith("Error:") and problem in result and len(memory) == 8


def test_memory_update_on_a_backend_without_history_says_so() -> None:
    result = MemoryUpdateTool(ToyMemory()).invoke({"memory_id": "mem_0001", "new_text": GO})
    assert result.startswith("Error:") and "keeps no history" in result


# ---------------------------------------------------------------- the agent's recall


def test_recall_shows_only_the_current_fact_marked_as_updated() -> None:
    memory = HybridMemory()
    seed_memory(memory)
    memory.supersede("mem_0001", GO)
    llm = ScriptedProvider([say("Go.")])
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory))
    agent.chat("What is Alice's favourite programming language?")
    prompt = llm.requests[0]["messages"][-2]["content"]  # the recalled memories, in their own message (lesson 08)
    from aria_kit.memory_rules import read_quoted_entries

    recalled = {entry["id"]: entry for entry in read_quoted_entries(prompt)}
    assert recalled["mem_0008"]["text"] == GO and recalled["mem_0008"]["replaces"] == "mem_0001"
    assert RUST not in prompt


def test_a_scripted_model_updates_through_the_tool_and_history_is_kept() -> None:
    memory = HybridMemory()
    seed_memory(memory)
    llm = ScriptedProvider([call_tool("memory_update", {"memory_id": "mem_0001", "new_text": GO}), say("Updated.")])
    agent = AutonomousAgent(ARIA, llm, memory, [*default_tools(memory), MemoryUpdateTool(memory)])
    agent.chat("Alice has switched to Go.")
    llm.assert_all_used()
    assert [r.text for r in memory.history("mem_0001")] == [RUST, GO]


# ---------------------------------------------------------------- the offline stand-in


def test_switched_to_go_then_the_favourite_language_is_go_with_rust_kept_as_history(agent: AutonomousAgent) -> None:
    answer = agent.chat("Alice has switched to Go")
    assert "mem_0001" in answer and "mem_0008" in answer and "Go" in answer and "Rust" in answer
    answer = agent.chat("What is Alice's favourite language?")
    assert "Go" in answer and "Rust" not in answer and "[mem_0008]" in answer
    assert agent.memory.get("mem_0001").text == RUST and agent.memory.get("mem_0001").superseded_by == "mem_0008"
    assert [h.id for h in agent.memory.search("Alice's favourite language", top_k=2, include_history=True)] == [
        "mem_0008", "mem_0001"]


@pytest.mark.parametrize(
    ("message", "old_id", "new_text"),
    [
        ("Alice has switched to Go", "mem_0001", GO),
        ("Alice switched to Go.", "mem_0001", GO),
        ("Remember that Alice has switched from Rust to Go", "mem_0001", GO),
        ("Alice's favourite language changed from Rust to Go", "mem_0001", GO),
        ("We moved from Raft to Paxos", "mem_0003", "VelocityDB uses the Paxos consensus algorithm for replication."),
        ("VelocityDB has migrated from Raft to Paxos.", "mem_0003",
         "VelocityDB uses the Paxos consensus algorithm for replication."),
        ("Alice's meeting moved from Friday to Monday", "mem_0004",
         "Alice has a meeting with the infrastructure team on Monday at 2 PM."),
        ("The deadline is now April 15", "mem_0005", "The project deadline for VelocityDB v1.0 is April 15."),
        ("The project deadline for VelocityDB v1.0 is now April 15!", "mem_0005",
         "The project deadline for VelocityDB v1.0 is April 15."),
        ("Alice now prefers detailed answers", "mem_0006", "Alice prefers detailed answers."),
        ("Alice no longer works on VelocityDB", "mem_0002", "Alice no longer works on VelocityDB."),
        ("Alice is not working on VelocityDB anymore.", "mem_0002", "Alice is not working on VelocityDB anymore."),
    ],
)
def test_stated_changes_supersede_the_current_fact_on_the_same_subject(agent: AutonomousAgent, message: str,
                                                                       old_id: str, new_text: str) -> None:
    answer = agent.chat(message)
    assert ("memory_update", {"memory_id": old_id, "new_text": new_text}) in tool_calls(agent)
    assert old_id in answer and "mem_0008" in answer
    assert agent.memory.get(old_id).superseded_by == "mem_0008" and agent.memory.get("mem_0008").text == new_text


@pytest.mark.parametrize("phrasing", ["Actually, it's Go now.", "actually it is Go now", "Correction: it's Go"])
def test_actually_updates_the_one_memory_the_last_answer_quoted(agent: AutonomousAgent, phrasing: str) -> None:
    assert "[mem_0001]" in agent.chat("What is Alice's favourite programming language?")
    answer = agent.chat(phrasing)
    assert tool_calls(agent) == [("memory_update", {"memory_id": "mem_0001", "new_text": GO})]
    assert "mem_0001" in answer and "mem_0008" in answer


def test_actually_after_an_answer_quoting_several_memories_asks_which(agent: AutonomousAgent) -> None:
    agent.chat("What is Alice's project, and what is its deadline?")
    answer = agent.chat("Actually, it's April 15 now.")
    assert answer.startswith("Which memory should change?") and tool_calls(agent) == []
    assert len(agent.memory) == 7


def test_a_change_with_no_current_fact_to_replace_is_stored_and_says_so(agent: AutonomousAgent) -> None:
    answer = agent.chat("Alice switched VelocityDB's storage engine from LSM-tree to B-tree — remember this.")
    assert tool_calls(agent)[-1] == ("memory_store", {
        "text": "Alice switched VelocityDB's storage engine from LSM-tree to B-tree.", "category": "decision"})
    assert "Stored as mem_0008" in answer and "nothing was superseded" in answer
    assert all(r.is_current for r in agent.memory.list_all())


@pytest.mark.parametrize("message", ["Has Alice switched to Go?", "Remember that Alice likes tea.",
                                     "What is Alice's favourite language?", "Alice is now? Go"])
def test_questions_and_plain_facts_are_not_updates(agent: AutonomousAgent, message: str) -> None:
    assert parse_change(message) is None or message.endswith("?")
    agent.chat(message)
    assert "memory_update" not in [name for name, _ in tool_calls(agent)]
    assert all(r.is_current for r in agent.memory.list_all())


def test_without_the_memory_update_tool_the_rules_stay_silent() -> None:
    memory = HybridMemory()
    seed_memory(memory)
    agent = AutonomousAgent(ARIA, OfflineProvider(), memory, default_tools(memory))
    agent.chat("Alice has switched to Go")
    assert [name for name, _ in tool_calls(agent)] == ["memory_search"] and len(memory) == 7
