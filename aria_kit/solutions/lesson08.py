"""Worked solutions for lesson 08: a scripted two-step turn, the loop by hand, a history within budget.

Open this when you are stuck on exercises 08.1–08.3 or the stretch. ``mini_loop`` is
``AutonomousAgent.chat`` without memory, persona or trace: ask the model, run
the tools it asks for, feed each result back as a tool message, and stop at a
text answer or at the round limit. Exercise 08.3 has two designs in ``SOLUTIONS["08.3"]``:
``newest_first`` keeps an unbroken recent past, ``tool_results_first`` gives up old tool
traffic before any dialogue. ``guarded_loop`` (the stretch) also refuses to run a call
it has already run in this turn.
"""

from __future__ import annotations

import json
from typing import Any

from aria_kit.agent import history_chars
from aria_kit.exercises.lesson08 import pieces
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


# Exercise 08.3: two policies for a history over budget. Both keep pieces whole (an assistant's tool calls with
# their results) and the newest user message; they differ in what they give up first.


def newest_first(messages: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """Keep the newest pieces that fit, back to the first that does not: the model sees an unbroken recent past.

    The newest user message is kept first, whatever its place; a budget too small for it alone is a ValueError.
    """
    newest = max(i for i, m in enumerate(messages) if m["role"] == "user")
    left = budget - history_chars([messages[newest]])
    if left < 0:
        raise ValueError(f"the newest user message alone is {budget - left} characters; the budget is {budget}")
    kept = {newest}
    for piece in reversed(pieces(messages)):
        if newest in piece:
            continue
        size = history_chars([messages[i] for i in piece])
        if size > left:
            break
        kept.update(piece)
        left -= size
    return [m for i, m in enumerate(messages) if i in kept]


def tool_results_first(messages: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """Give up old tool traffic before any conversation: drop tool pieces oldest first, then other messages oldest
    first, until the rest fits; then put back, newest first, whatever dropped piece still fits.

    The dialogue (what the user said and the answers) outlives the search results behind it, which the model can
    fetch again. A budget too small for the newest user message alone is a ValueError.
    """
    newest = max(i for i, m in enumerate(messages) if m["role"] == "user")
    if history_chars([messages[newest]]) > budget:
        raise ValueError(f"the newest user message alone is over the budget of {budget} characters")
    all_pieces = [piece for piece in pieces(messages) if newest not in piece]
    tool_pieces = [piece for piece in all_pieces if len(piece) > 1]
    order = tool_pieces + [piece for piece in all_pieces if len(piece) == 1]
    kept = {i for piece in all_pieces for i in piece} | {newest}
    dropped = []

    def size() -> int:
        return history_chars([messages[i] for i in kept])

    for piece in order:
        if size() <= budget:
            break
        kept -= set(piece)
        dropped.append(piece)
    for piece in sorted(dropped, reverse=True):  # newest first
        if size() + history_chars([messages[i] for i in piece]) <= budget:
            kept |= set(piece)
    return [m for i, m in enumerate(messages) if i in kept]


# Each design is the argument of one call of check_fit_history (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"08.3": [(newest_first,), (tool_results_first,)]}
