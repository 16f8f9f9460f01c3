"""Exercise checks of lesson 08: each accepts its worked solution and answers typical wrong attempts with ✗."""

from __future__ import annotations

import json

import pytest

from aria_kit.calculator import CalculatorTool
from aria_kit.exercises import lesson08
from aria_kit.scripted import call_tool, say
from aria_kit.agent import history_chars
from aria_kit.solutions.lesson08 import (guarded_loop, mini_loop, newest_first, tool_results_first,
                                         two_step_script)
from exercise_checks import assert_refused, check_tests, verdict

CHECKS = [
    (lesson08.check_two_step_script, two_step_script),
    (lesson08.check_mini_loop, mini_loop),
    (lesson08.check_fit_history, newest_first),
    (lesson08.check_guarded_loop, guarded_loop),
]

test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- lesson 08


@pytest.mark.parametrize("script", [
    lambda: [say("144")],  # answers without the tool
    lambda: [call_tool("calculator", {"expression": "12 * 12"})],  # never answers: the script runs out
    lambda: [call_tool("calculator", {"expression": "12 + 12"}), say("24")],  # wrong sum
    lambda: [call_tool("calculator", {"expression": "12 * 12"}), say("144"), say("again")],  # unused reply
])
def test_two_step_check_rejects_scripts_that_are_not_a_two_step_turn(script, capsys):
    assert lesson08.check_two_step_script(script) is False
    assert verdict(capsys) == "✗"


def _loop_without_tool_results(llm, tools, user_message, max_rounds=4):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_rounds):
        reply = llm.complete(messages, [t.schema() for t in tools.values()])
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
    return "Round limit reached."


def _loop_without_round_limit(llm, tools, user_message, max_rounds=4):
    return mini_loop(llm, tools, user_message, max_rounds=100)


def _loop_that_crashes_on_unknown_tools(llm, tools, user_message, max_rounds=4):
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_rounds):
        reply = llm.complete(messages, [t.schema() for t in tools.values()])
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": tools[call.name].invoke(call.arguments)})
    return "Round limit reached."


def _loop_that_runs_tools_without_validation(llm, tools, user_message, max_rounds=4):
    def run_raw(call):
        return tools[call.name].run(**json.loads(call.arguments)) if call.name in tools else "Error: unknown tool"

    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_rounds):
        reply = llm.complete(messages, [t.schema() for t in tools.values()])
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        messages += [{"role": "tool", "tool_call_id": c.id, "content": run_raw(c)} for c in reply.tool_calls]
    return "Round limit reached."


@pytest.mark.parametrize("wrong", [
    _loop_without_tool_results,
    _loop_without_round_limit,
    _loop_that_crashes_on_unknown_tools,
    _loop_that_runs_tools_without_validation,
])
def test_mini_loop_check_rejects_loops_that_miss_a_part_of_the_protocol(wrong, capsys):
    assert lesson08.check_mini_loop(wrong) is False
    assert verdict(capsys) == "✗"


def test_worked_mini_loop_matches_the_agent_on_a_bad_call_then_a_fix():
    from aria_kit.scripted import ScriptedProvider

    llm = ScriptedProvider([call_tool("calculator", {"expr": "2 + 2"}), call_tool("calculator", {"expression": "2 + 2"}),
                       say("4")])
    assert mini_loop(llm, {"calculator": CalculatorTool()}, "2 + 2?") == "4"
    first_result = llm.requests[1]["messages"][-1]["content"]
    assert first_result.startswith("Error: invalid arguments for `calculator`")
    llm.assert_all_used()


def _exchanges(messages, budget):
    """The kit's own policy: whole exchanges, so the newest user message goes when its exchange is too big."""
    from aria_kit.agent import newest_exchanges
    return newest_exchanges(messages, budget)


def _oldest_messages_first(messages, budget):
    """Keeps the newest user message, drops other single messages oldest first: a tool result can outlive its call."""
    newest = max(i for i, m in enumerate(messages) if m["role"] == "user")
    kept = list(range(len(messages)))
    while history_chars([messages[i] for i in kept]) > budget:
        kept.remove(next(i for i in kept if i != newest))
    return [messages[i] for i in kept]


def _everything(messages, budget):
    return list(messages)


def _shortened(messages, budget):
    """Cuts every text to fit instead of dropping messages: the model reads half-sentences."""
    share = budget // max(1, len(messages))
    return [{**m, "content": m["content"][:share]} if m.get("content") else m for m in messages]


def _newest_user_only(messages, budget):
    """Keeps the newest user message and nothing else: within budget, but it throws away what would fit."""
    return [max((m for m in messages if m["role"] == "user"), key=messages.index)]


def _no_refusal(messages, budget):
    """Never raises: with a budget too small for the newest user message it returns it over budget."""
    try:
        return newest_first(messages, budget)
    except ValueError:
        return [m for m in messages if m["role"] == "user"][-1:]


@pytest.mark.parametrize(("wrong", "hint"), [
    (_exchanges, "the newest user message is gone"),
    (_oldest_messages_first, "split a tool call from its results"),
    (_everything, "over the budget"),
    (_shortened, "unchanged"),
    (_newest_user_only, "would still fit"),
    (_no_refusal, "raise ValueError"),
], ids=["kit-exchanges", "oldest-messages-first", "everything", "shortened", "newest-user-only", "no-refusal"])
def test_fit_history_check_refuses_a_policy_that_breaks_a_property(wrong, hint, capsys):
    out = assert_refused(lesson08.check_fit_history(wrong), capsys, hint)
    assert "the smallest case that fails" in out or "raise ValueError" in out


def test_fit_history_check_reports_the_smallest_failing_case_first(capsys):
    lesson08.check_fit_history(_exchanges)
    assert "budget 80, history [user (52), assistant (71)]; you kept []" in capsys.readouterr().out


def test_the_two_designs_differ_on_a_turn_full_of_tool_results():
    rng = __import__("random").Random(3)
    differ = 0
    for _ in range(40):
        messages = lesson08._conversation(rng, 4)
        budget = history_chars(messages) // 2
        if history_chars([m for m in messages if m["role"] == "user"][-1:]) <= budget:
            differ += newest_first(messages, budget) != tool_results_first(messages, budget)
    assert differ > 0


def _guard_by_raw_text(llm, tools, user_message, max_rounds=4):
    """Compares the raw JSON text, so the same call with its keys in another order runs again."""
    messages, seen = [{"role": "user", "content": user_message}], set()
    for _ in range(max_rounds):
        reply = llm.complete(messages, [t.schema() for t in tools.values()])
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        for call in reply.tool_calls:
            key = (call.name, call.arguments)
            if key in seen:
                result = "Error: already called."
            elif call.name in tools:
                result = tools[call.name].invoke(call.arguments)
            else:
                result = f"Error: unknown tool `{call.name}`"
            seen.add(key)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return "Round limit reached."


@pytest.mark.parametrize("wrong", [mini_loop, _guard_by_raw_text])
def test_guarded_loop_check_rejects_loops_that_rerun_a_repeated_call(wrong, capsys):
    assert lesson08.check_guarded_loop(wrong) is False
    assert verdict(capsys) == "✗"


def _whole_exchanges(messages, budget):
    """Never orphans an answer: the turn under way keeps its newest pieces that fit, older exchanges go whole."""
    starts = [i for i, m in enumerate(messages) if m["role"] == "user"]
    newest = starts[-1]
    left = budget - history_chars([messages[newest]])
    if left < 0:
        raise ValueError("the newest user message alone is over the budget")
    kept = {newest}
    for piece in reversed([p for p in lesson08.pieces(messages) if p[0] > newest]):
        size = history_chars([messages[i] for i in piece])
        if size > left:
            break
        kept.update(piece)
        left -= size
    else:
        for start, end in reversed(list(zip(starts, starts[1:]))):
            size = history_chars(messages[start:end])
            if size > left:
                break
            kept.update(range(start, end))
            left -= size
    return [m for i, m in enumerate(messages) if i in kept]


def _whole_exchanges_one_too_many(messages, budget):
    """Drops whole exchanges, but always one more than it must: an exchange that would fit is lost."""
    kept = _whole_exchanges(messages, budget)
    starts = [i for i, m in enumerate(kept) if m["role"] == "user"]
    return kept[starts[1]:] if len(starts) > 1 else kept


def test_fit_history_check_accepts_a_policy_that_drops_whole_exchanges(capsys):
    assert lesson08.check_fit_history(_whole_exchanges) is True
    assert verdict(capsys) == "✓"


def test_fit_history_check_refuses_whole_exchanges_dropped_when_one_would_fit(capsys):
    out = assert_refused(lesson08.check_fit_history(_whole_exchanges_one_too_many), capsys, "with its question")
    assert "would still fit" in out


def _loop_that_unpacks_arguments_into_run(llm, tools, user_message, max_rounds=4):
    """Catches bad JSON and unknown tools, but calls run(**arguments): a wrong argument name raises TypeError."""
    messages = [{"role": "user", "content": user_message}]
    for _ in range(max_rounds):
        reply = llm.complete(messages, [t.schema() for t in tools.values()])
        messages.append(reply.to_dict())
        if not reply.tool_calls:
            return reply.content or ""
        for call in reply.tool_calls:
            if call.name not in tools:
                result = f"Error: unknown tool `{call.name}`"
            else:
                try:
                    arguments = json.loads(call.arguments)
                except json.JSONDecodeError as error:
                    result = f"Error: arguments are not JSON ({error})"
                else:
                    result = str(tools[call.name].run(**arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return "Round limit reached."


def test_mini_loop_check_refuses_a_loop_that_raises_on_arguments_that_break_the_schema(capsys):
    assert_refused(lesson08.check_mini_loop(_loop_that_unpacks_arguments_into_run), capsys, "TypeError")
