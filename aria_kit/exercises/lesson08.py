"""Exercise checks for lesson 08 (the agent loop): script a turn, and write the loop yourself.

``check_two_step_script(two_step_script)`` plays the learner's script through
the real ``AutonomousAgent`` (with an empty memory, so nothing is recalled) and
checks the trace. ``check_mini_loop(mini_loop)`` drives the learner's own loop
with strict ``ScriptedProvider`` scripts and checks what the model was sent each
round: the tool results, the error messages for bad calls, and the round limit.
Neither needs a network or a language model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aria_kit.agent import AutonomousAgent
from aria_kit.calculator import CalculatorTool
from aria_kit.exercises import check
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Tool
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, call_tool, say
from aria_kit.tools import default_tools

SOLUTION = "lesson08"
QUESTION = "What is 12 * 12?"

MiniLoop = Callable[..., str]


def _two_step_test(two_step_script: Callable[[], list[Any]]) -> None:
    script = two_step_script()
    llm = ScriptedProvider(script)
    memory = HybridMemory()
    agent = AutonomousAgent(ARIA, llm, memory, default_tools(memory))
    answer = agent.chat(QUESTION)  # a script that runs out raises AssertionError saying so
    kinds = [step.kind for step in agent.turns[-1].steps]
    expected = ["recall", "model", "tool", "model", "answer"]
    assert kinds == expected, f"the turn's steps were {kinds}; a two-step turn is {expected}"
    tool_step = agent.turns[-1].steps[2]
    call, result = tool_step.detail["call"], tool_step.detail["result"]
    assert call.name == "calculator", f"the first reply should call the calculator, not {call.name!r}"
    assert result == "144", f"the calculator returned {result!r}; ask it for 12 * 12"
    assert "144" in answer, f"the final answer {answer!r} should state the result, 144"
    llm.assert_all_used()


def _mini_loop_test(mini_loop: MiniLoop) -> None:
    tools: dict[str, Tool] = {"calculator": CalculatorTool()}

    direct = ScriptedProvider([say("Hello!")])
    answer = mini_loop(direct, tools, "Hi")
    assert answer == "Hello!", f"when the model answers in text, return that text; got {answer!r}"
    first = direct.requests[0]
    assert first["messages"] == [{"role": "user", "content": "Hi"}], (
        f"the first request should hold just the user message, got {first['messages']!r}")
    assert [t["function"]["name"] for t in first["tools"] or []] == ["calculator"], (
        "send every tool's schema with each request: tools=[tool.schema() for tool in tools.values()]")

    two_step = ScriptedProvider([call_tool("calculator", {"expression": "12 * 12"}), say("12 * 12 = 144")])
    answer = mini_loop(two_step, tools, QUESTION)
    assert answer == "12 * 12 = 144", f"the answer should be the model's final text, got {answer!r}"
    second = _messages(two_step, 2)
    roles = [m["role"] for m in second]
    assert roles == ["user", "assistant", "tool"], (
        f"round 2 should see user, assistant (with its tool call), tool; it saw {roles}")
    assert second[1].get("tool_calls"), "append the assistant's reply with reply.to_dict(), tool calls included"
    assert second[2].get("tool_call_id") == "call_1", "a tool message needs the tool_call_id of the call it answers"
    assert second[2].get("content") == "144", f"the tool message should carry the result '144', got {second[2].get('content')!r}"

    _expect_error(mini_loop, tools, call_tool("teleport", {"to": "Mars"}), "an unknown tool")
    _expect_error(mini_loop, tools, call_tool("calculator", '{"expression": 12 * 12}'), "arguments that are not JSON")

    stuck = ScriptedProvider([call_tool("calculator", {"expression": "1 + 1"})] * 5)
    answer = mini_loop(stuck, tools, "Loop forever", max_rounds=3)
    assert len(stuck.requests) == 3, f"with max_rounds=3 the model should be called 3 times, not {len(stuck.requests)}"
    assert "round limit" in answer.lower(), f"after the last round, say the round limit was reached; got {answer!r}"


def _messages(llm: ScriptedProvider, request: int) -> list[dict[str, Any]]:
    assert len(llm.requests) >= request, f"the model was called {len(llm.requests)} times; expected at least {request}"
    return llm.requests[request - 1]["messages"]


def _expect_error(mini_loop: MiniLoop, tools: dict[str, Tool], bad_reply: Any, what: str) -> None:
    llm = ScriptedProvider([bad_reply, say("Sorry, let me fix that.")])
    mini_loop(llm, tools, "Try something odd")
    last = _messages(llm, 2)[-1]
    assert last.get("role") == "tool" and str(last.get("content", "")).startswith("Error"), (
        f"a call with {what} should come back to the model as a tool message starting 'Error', got {last!r}")


def check_two_step_script(two_step_script: Callable[[], list[Any]]) -> bool:
    """Check exercise 8.1: a script that calls the calculator for 12 * 12, then answers with 144."""
    return check("Exercise 8.1 (script a two-step turn)", lambda: _two_step_test(two_step_script), SOLUTION)


def check_mini_loop(mini_loop: MiniLoop) -> bool:
    """Check exercise 8.2: ``mini_loop(llm, tools, user_message, max_rounds=4)``, the agent loop without memory."""
    return check("Exercise 8.2 (write the loop)", lambda: _mini_loop_test(mini_loop), SOLUTION)

