"""The agent's conversation log: exchanges kept as thread memories apart from facts, searched by tool and stand-in."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.conversation_log import CATEGORY, ConversationLog
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.offline import OfflineProvider
from aria_kit.offline_conversation import parse_question
from aria_kit.persona import ARIA
from aria_kit.tools import default_tools

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=timezone.utc)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def agent_with_log(embedder, clock: Clock) -> tuple[AutonomousAgent, ConversationLog, HybridMemory]:
    facts = HybridMemory(embedder)
    facts.store("Alice's favourite programming language is Rust.", {"category": "user_pref"})
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=clock)
    return AutonomousAgent(ARIA, OfflineProvider(), facts, default_tools(facts), conversation_log=log), log, facts


def test_each_exchange_becomes_two_thread_memories_in_the_log_not_among_the_facts(embedder) -> None:
    agent, log, facts = agent_with_log(embedder, Clock(NOW))
    answer = agent.chat("Which language does Alice like?")
    records = log.memory.list_all()
    assert [r.text for r in records] == ["Which language does Alice like?", answer]
    assert [r.metadata for r in records] == [
        {"category": CATEGORY, "thread": "s1", "role": role, "at": "2026-12-01T15:00:00+00:00"}
        for role in ("user", "assistant")]
    assert len(facts) == 1 and "conversation_search" in agent.list_tools()
    agent.chat("Which language does Alice like?")  # fact recall never sees the log
    assert [s.summary for s in agent.last_turn.steps if s.kind == "recall"] == ["mem_0001"]


def test_the_log_is_off_unless_given(embedder) -> None:
    facts = HybridMemory(embedder)
    agent = AutonomousAgent(ARIA, OfflineProvider(), facts, default_tools(facts))
    agent.chat("Remember that the cache runs on Redis.")
    assert agent.conversation_log is None and "conversation_search" not in agent.list_tools()
    assert [r.text for r in facts.list_all()] == ["The cache runs on Redis."]  # the fact only


def test_what_did_i_say_last_week_quotes_my_own_message_with_its_date(embedder) -> None:
    clock = Clock(NOW - timedelta(days=30))
    agent, log, _ = agent_with_log(embedder, clock)
    agent.chat("The cache keeps timing out; maybe the old disks.")  # a month ago: outside "last week"
    clock.at = NOW - timedelta(days=8)
    agent.chat("I think the cache should move to Redis before the launch.")
    clock.at = NOW
    answer = agent.chat("What did I say about the cache last week?")
    tool = next(s for s in agent.last_turn.steps if s.kind == "tool")
    assert tool.detail["call"].name == "conversation_search"
    assert json.loads(tool.detail["call"].arguments) == {"query": "cache", "top_k": 5, "speaker": "user", "days": 14}
    assert "on 2026-11-23 you said: \"I think the cache should move to Redis before the launch.\"" in answer
    assert "old disks" not in answer


def test_a_reply_is_found_by_the_question_it_answered(embedder) -> None:
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=Clock(NOW))
    log.record("Hi!", "Hello. When did you deploy the new billing service?")
    log.record("Last Friday, right after lunch.", "Noted.")
    reply = next(h for h in log.search("billing service deploy", top_k=2, role="user") if h.text.startswith("Last"))
    assert reply.bm25 > 0 and reply.text == "Last Friday, right after lunch."  # its text is its own
    plain = ConversationLog(HybridMemory(embedder, thread_window=0), session="s1", clock=Clock(NOW))
    plain.record("Hi!", "Hello. When did you deploy the new billing service?")
    plain.record("Last Friday, right after lunch.", "Noted.")
    hits = plain.search("billing service deploy", top_k=2, role="user")
    assert [h.bm25 for h in hits if h.text.startswith("Last")] == [0.0]


def test_the_tool_filters_by_speaker_and_days_and_reports_bad_arguments(embedder) -> None:
    clock = Clock(NOW - timedelta(days=3))
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=clock)
    log.record("Redis for the cache, please.", "Redis it is for the cache.")
    clock.at = NOW
    tool = log.search_tool()
    assert '"speaker": "assistant"' in tool.run("cache Redis", speaker="assistant")
    assert '"speaker": "user"' not in tool.run("cache Redis", speaker="assistant")
    assert tool.run("cache Redis", days=2).startswith("No messages of the last 2 days found")
    assert tool.run("cache Redis", days=4).startswith("Found 2 messages of the last 4 days")
    assert tool.run("cache", top_k=11).startswith("Error:")
    assert "must be one of" in tool.invoke({"query": "cache", "speaker": "me"})


@pytest.mark.parametrize("message, expected", [
    ("What did I say about the cache last week?", {"query": "cache", "speaker": "user", "days": 14}),
    ("what did you tell me about Redis?", {"query": "redis", "speaker": "assistant", "days": 0}),
    ("Did we talk about the deadline yesterday?", {"query": "deadline", "speaker": "any", "days": 2}),
    ("What is the deadline?", None),
    ("What did Alice say about Rust?", None),  # about someone else: an ordinary memory question
])
def test_the_stand_in_reads_topic_speaker_and_time_from_the_question(message, expected) -> None:
    parsed = parse_question(message)
    assert (parsed and {k: parsed[k] for k in ("query", "speaker", "days")}) == expected
