"""Worked solutions for lesson 08: a scripted two-step turn, and the agent loop written by hand.

Open this when you are stuck on exercises 8.1 and 7.2. ``mini_loop`` is
``AutonomousAgent.chat`` without memory, persona or trace: ask the model, run
the tools it asks for, feed each result back as a tool message, and stop at a
text answer or at the round limit.
"""

from __future__ import annotations

from typing import Any

from aria_kit.interfaces import LLMProvider, Tool
from aria_kit.scripted import call_tool, say


def two_step_script() -> list[Any]:
    return [
        call_tool("calculator", {"expression": "12 * 12"}),  # round 1: ask for the tool
        say("12 * 12 = 144."),  # round 2: answer from the tool result
    ]


def mini_loop(llm: LLMProvider, tools: dict[str, Tool], user_message: str, max_rounds: int = 4) -> str:
    messages: list[dict[str, Any]] = [{"role": "user", "content": user_message}]
    schemas = [tool.schema() for tool in tools.values()]
    for _ in range(max_rounds):
        reply = llm.complete(messages, schemas)
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        for call in reply.tool_calls:
            tool = tools.get(call.name)
            # invoke turns bad JSON and bad arguments into "Error: …" text; unknown tools we report ourselves.
            result = tool.invoke(call.arguments) if tool else f"Error: unknown tool `{call.name}`; use one of {sorted(tools)}."
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return f"Round limit reached after {max_rounds} model rounds."
