"""A strict scripted model: the agent loop's test double (lesson 08).

``ScriptedProvider`` replays a queue of replies you write in advance — text answers,
tool calls, or exceptions to raise — and records every request it was sent.
It is strict on purpose, like pydantic-ai's ``FunctionModel`` or openai-agents'
``ScriptedModel``: one call more than scripted fails loudly, and
``assert_all_used`` fails if the agent stopped early. That makes the loop
testable, and lets a lesson walk through one turn step by step.

It does not understand anything: it never looks at the messages it is sent,
except to record them.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Union

from aria_kit.interfaces import AssistantMessage, LLMProvider, ToolCall

ScriptStep = Union[AssistantMessage, str, BaseException, Callable[[list[dict[str, Any]], list[dict[str, Any]] | None], AssistantMessage]]


def say(text: str) -> AssistantMessage:
    """A reply that answers in plain text."""
    return AssistantMessage(content=text)


def call_tool(name: str, arguments: dict[str, Any] | str | None = None, *, call_id: str = "call_1") -> AssistantMessage:
    """A reply that asks for one tool call. ``arguments`` may be a dict or raw (even broken) JSON text."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return AssistantMessage(tool_calls=(ToolCall(call_id, name, raw),))


def call_tools(*calls: tuple[str, dict[str, Any] | str]) -> AssistantMessage:
    """A reply that asks for several tool calls at once, given as (name, arguments) pairs."""
    return AssistantMessage(
        tool_calls=tuple(
            ToolCall(f"call_{i}", name, args if isinstance(args, str) else json.dumps(args))
            for i, (name, args) in enumerate(calls, start=1)
        )
    )


class ScriptedProvider(LLMProvider):
    """Replies from a fixed script; fails loudly when the script and the agent disagree."""

    name = "scripted test double (replays prepared replies)"

    def __init__(self, script: Iterable[ScriptStep]) -> None:
        self._script: deque[ScriptStep] = deque(script)
        self.scripted = len(self._script)
        self.requests: list[dict[str, Any]] = []

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> AssistantMessage:
        """Record the request and return (or raise) the next scripted step."""
        self.requests.append({"messages": copy.deepcopy(messages), "tools": copy.deepcopy(tools)})
        if not self._script:
            raise AssertionError(
                f"ScriptedProvider ran out of replies: the agent made model call #{len(self.requests)}, "
                f"but only {self.scripted} {'was' if self.scripted == 1 else 'were'} scripted."
            )
        step = self._script.popleft()
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, str):
            return say(step)
        if callable(step):
            return step(messages, tools)
        return step

    @property
    def remaining(self) -> int:
        return len(self._script)

    def assert_all_used(self) -> None:
        """Fail if the agent stopped before consuming every scripted reply."""
        if self._script:
            raise AssertionError(
                f"ScriptedProvider has {len(self._script)} unused replies of {self.scripted}: "
                "the agent stopped earlier than the script expected."
            )


ScriptedLLM = ScriptedProvider  # the name lessons used before 0.2; kept so old notebooks still run
