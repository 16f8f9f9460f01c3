"""The agent's limits: tool time, broken tool results, recall_k, and argument limits at the boundary (issue 13)."""

from __future__ import annotations

import signal
import time
from collections.abc import Sequence

import numpy as np
import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder, Tool
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import MemorySearchTool, MemoryStoreTool, WebSearchTool
from toy_memory import ToyMemory


class TinyEmbedder(Embedder):
    name, dim = "tiny-hash-16", 16

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.ones((len(texts), 16), dtype=np.float32) / 4


class Sleeper(Tool):
    name = "sleeper"
    description = "Waits far too long."

    def run(self) -> str:
        time.sleep(30)
        return "woke up"


class Spinner(Tool):
    name = "spinner"
    description = "Loops forever and swallows every ordinary exception."

    def run(self) -> str:
        while True:
            try:
                sum(range(1000))
            except Exception:  # noqa: BLE001 - the point: a careless tool must still be stoppable
                pass


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class ReturnsUnprintable(Tool):
    name = "unprintable"
    description = "Returns an object whose str() raises."

    def run(self) -> str:
        return Unprintable()  # type: ignore[return-value]


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message either")


class RaisesUnprintable(Tool):
    name = "raises_unprintable"
    description = "Raises an exception whose str() raises."

    def run(self) -> str:
        raise UnprintableError


def tool_message(llm: ScriptedProvider) -> str:
    return [m for m in llm.requests[-1]["messages"] if m["role"] == "tool"][-1]["content"]


@pytest.mark.parametrize("tool", [Sleeper(), Spinner()], ids=["sleeps", "spins and swallows exceptions"])
def test_a_tool_past_its_time_limit_is_stopped_and_the_model_is_told(tool: Tool) -> None:
    handler_before = signal.getsignal(signal.SIGALRM)
    llm = ScriptedProvider([call_tool(tool.name), say("It took too long, so here is my best answer.")])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [tool], tool_timeout=0.5)
    started = time.monotonic()
    assert agent.chat("go") == "It took too long, so here is my best answer."
    assert time.monotonic() - started < 5
    assert tool_message(llm) == (f"Error: tool `{tool.name}` did not finish within 0.5 s and was stopped. "
                                 "Try a smaller request, or answer without it.")
    assert signal.getsignal(signal.SIGALRM) is handler_before and signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_quick_tool_is_untouched_by_the_time_limit_and_leaves_no_timer() -> None:
    llm = ScriptedProvider([call_tool("web_search", {"query": "BM25"}), say("done")])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [WebSearchTool()], tool_timeout=5)
    assert agent.chat("what is BM25?") == "done"
    assert tool_message(llm).startswith("[BM25] BM25 is a keyword ranking function")
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


@pytest.mark.parametrize(("tool", "expected"), [
    (ReturnsUnprintable(), "Error: tool `unprintable` failed with RuntimeError: no text for you"),
    (RaisesUnprintable(), "Error: tool `raises_unprintable` failed with UnprintableError: (its message could not be shown)"),
])
def test_a_result_or_error_that_cannot_become_text_is_reported_not_raised(tool: Tool, expected: str) -> None:
    llm = ScriptedProvider([call_tool(tool.name), say("ok")])
    agent = AutonomousAgent(ARIA, llm, ToyMemory(), [tool])
    assert agent.chat("go") == "ok"
    assert tool_message(llm) == expected


def test_recall_k_zero_means_no_recall_and_every_chat_still_works() -> None:
    memory = HybridMemory(TinyEmbedder())
    memory.store("Alice likes tea.")
    llm = ScriptedProvider([say("first"), say("second")])
    agent = AutonomousAgent(ARIA, llm, memory, recall_k=0)
    assert [agent.chat("tea?"), agent.chat("tea again?")] == ["first", "second"]
    assert [m["role"] for m in llm.requests[1]["messages"]] == ["system", "user", "assistant", "user"]
    assert "memories recalled" not in str(llm.requests[1]["messages"]), "recall off: no live-context message at all"


@pytest.mark.parametrize(("option", "value"), [("recall_k", -1), ("recall_k", 1.5), ("recall_k", True),
                                               ("max_rounds", 0), ("tool_timeout", 0), ("tool_timeout", "5")])
def test_impossible_settings_are_refused_when_the_agent_is_built(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        AutonomousAgent(ARIA, ScriptedProvider([]), ToyMemory(), **{option: value})


# ---------------------------------------------------------------- Tool.invoke called directly


@pytest.mark.parametrize("arguments", [
    '{"query": "tea", "top_k": ' + "9" * 5000 + "}",
    '{"query": ' + "[" * 100_000 + "]" * 100_000 + "}",
    {"query": "tea", "top_k": 10**5000},
    {"query": "tea", "top_k": -(2**64)},
], ids=["5,000-digit integer in JSON", "JSON nested 100,000 deep", "5,000-digit integer", "beyond 64 bits"])
def test_invoke_answers_unreadable_arguments_with_an_error_message(arguments) -> None:
    result = MemorySearchTool(ToyMemory()).invoke(arguments)
    assert result.startswith("Error: ") and len(result) < 300


def test_a_huge_string_in_an_enum_error_is_cut_short() -> None:
    class Pick(Tool):
        name = "pick"
        description = "Pick a colour."
        parameters = {"type": "object", "properties": {"colour": {"type": "string", "enum": ["red", "blue"]}}}

        def run(self, colour: str) -> str:
            return colour

    result = Pick().invoke({"colour": "x" * 1_000_000})
    assert result.startswith("Error: invalid arguments for `pick`: argument `colour` must be one of") and len(result) < 300


# ---------------------------------------------------------------- argument and metadata limits


def test_memory_store_refuses_a_category_that_is_not_a_short_label() -> None:
    memory = ToyMemory()
    result = MemoryStoreTool(memory).invoke({"text": "Alice likes tea.", "category": "x" * 99_000})
    assert result.endswith("argument `category` is 99000 characters long; the limit is 64")
    assert memory.list_all() == []
    assert MemoryStoreTool(memory).invoke({"text": "Alice likes tea.", "category": "x" * 64}).startswith("Stored as")


def test_every_backend_refuses_an_overlong_category_at_store() -> None:
    memory = HybridMemory(TinyEmbedder())
    with pytest.raises(ValueError, match="category is 99,000 characters"):
        memory.store("Alice likes tea.", {"category": "x" * 99_000})
    assert len(memory) == 0


def test_web_search_refuses_an_overlong_query() -> None:
    assert WebSearchTool().invoke({"query": "BM25 " * 1000}).endswith("`query` is 5000 characters long; the limit is 1000")
    assert WebSearchTool().run("BM25 " * 1000) == "Error: the query is 5000 characters; use at most 1000."
