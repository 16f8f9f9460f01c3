"""The offline stand-in follows ``memory_store``'s conflict report by rule (lesson 10).

When the latest ``memory_store`` result in a turn says "Not stored yet: this
may replace mem_0008 … call memory_update(memory_id=…, new_text=…)", the
stand-in makes exactly that call (``write_conflicts.read_update_call``), then
answers with the update's result. It always takes the replacement: it cannot
judge, as a model can, that both facts are true, so the quality of this path
is the precision of ``find_conflicts`` (measured in
``benchmarks/bench_write_conflicts.py``). A duplicate ("Not stored: mem_0002
already says this") is answered as such. Anything else is left to the other rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aria_kit.interfaces import AssistantMessage, ToolCall
from aria_kit.memory_rules import as_quoted_text
from aria_kit.tools import NOT_A_REPEAT
from aria_kit.write_conflicts import read_update_call


def conflict_reply(messages: list[dict[str, Any]], available: set[str],
                   make_call: Callable[[str, dict[str, Any]], ToolCall]) -> AssistantMessage | str | None:
    """The next step after a conflict report: the ``memory_update`` call, the answer, or None (not our case)."""
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if not users:
        return None
    turn = messages[users[-1]:]
    names = {c["id"]: c["function"]["name"] for m in turn for c in m.get("tool_calls") or ()}
    results = [(names.get(m.get("tool_call_id"), "tool"), str(m.get("content") or ""))
               for m in turn if m.get("role") == "tool"]
    if not results:
        return None
    name, result = results[-1]
    if name == "memory_store" and result.startswith("Not stored:"):
        # stored text is data (no forged citation); the keep_both hint is for a model, not for the person
        return "I already have that. " + as_quoted_text(result.partition(NOT_A_REPEAT)[0])
    if name == "memory_store" and "memory_update" in available and (call := read_update_call(result)) is not None:
        return AssistantMessage(tool_calls=(make_call("memory_update", {"memory_id": call[0], "new_text": call[1]}),))
    if name == "memory_update" and any(n == "memory_store" and read_update_call(r) for n, r in results[:-1]):
        if result.startswith("Error:"):
            return f"The memory_update tool reported a problem — {result[len('Error:'):].strip()}"
        return "Noted the change. " + as_quoted_text(result)
    return None
