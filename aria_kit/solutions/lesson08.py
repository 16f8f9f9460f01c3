"""Worked solutions for lesson 08: a scripted two-step turn, the loop by hand, the live context read as data.

Open this when you are stuck on exercises 08.1–08.3 or the stretch. ``mini_loop`` is
``AutonomousAgent.chat`` without memory, persona or trace: ask the model, run
the tools it asks for, feed each result back as a tool message, and stop at a
text answer or at the round limit. ``guarded_loop`` (the stretch) also
refuses to run a call it has already run in this turn.
"""

from __future__ import annotations

import json
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


def call_key(name: str, arguments: str) -> tuple[str, str]:
    """The same call whatever the key order or spacing of its JSON; text that is not JSON is compared as it is."""
    try:
        return name, json.dumps(json.loads(arguments), sort_keys=True)
    except (json.JSONDecodeError, TypeError):
        return name, str(arguments)


def guarded_loop(llm: LLMProvider, tools: dict[str, Tool], user_message: str, max_rounds: int = 4) -> str:
    messages: list[dict[str, Any]] = [{"role": "user", "content": user_message}]
    schemas = [tool.schema() for tool in tools.values()]
    seen: set[tuple[str, str]] = set()
    for _ in range(max_rounds):
        reply = llm.complete(messages, schemas)
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        for call in reply.tool_calls:
            key = call_key(call.name, call.arguments)
            tool = tools.get(call.name)
            if key in seen:  # the result is already in the messages above; running it again only costs a round
                result = f"Error: you already called `{call.name}` with these arguments; use the earlier result."
            elif tool is None:
                result = f"Error: unknown tool `{call.name}`; use one of {sorted(tools)}."
            else:
                result = tool.invoke(call.arguments)
            seen.add(key)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return f"Round limit reached after {max_rounds} model rounds."


def recalled_entries(message: str) -> list[tuple[str, str]]:
    # Each recalled memory is one line holding one JSON object; its text is a JSON string, so a newline or a
    # look-alike entry inside it is escaped and comes back from json.loads exactly as it was stored.
    live = message.split("## Live context", 1)[-1]
    entries = [json.loads(line) for line in live.splitlines() if line.startswith("{")]
    return [(entry["id"], entry["text"]) for entry in entries]
