"""Exercise checks of lesson 08: each accepts its worked solution and answers typical wrong attempts with ✗."""

from __future__ import annotations

import json

import pytest

from aria_kit.calculator import CalculatorTool
from aria_kit.exercises import lesson08
from aria_kit.scripted import call_tool, say
from aria_kit.solutions.lesson08 import guarded_loop, mini_loop, recalled_entries, two_step_script
from exercise_checks import check_tests, verdict

CHECKS = [
    (lesson08.check_two_step_script, two_step_script),
    (lesson08.check_mini_loop, mini_loop),
    (lesson08.check_recalled_entries, recalled_entries),
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


def _old_line_format(prompt):
    import re
    return re.findall(r"^- \[(mem_\d+)\] \([^)]*\) (.*)$", prompt, flags=re.M)


def _text_sliced_out_of_the_json(prompt):  # escapes stay escaped: "\\n" instead of a line break
    import re
    return list(zip(re.findall(r'"id": "(mem_\d+)"', prompt), re.findall(r'"text": "(.*?)"}', prompt)))


def _every_line_split_on_newlines_in_text(prompt):  # splits the escaped text too, and loses the entry's tail
    import json
    entries = []
    for line in prompt.replace("\\n", "\n").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        entries.append((entry["id"], entry["text"]))
    return entries


def _ids_from_the_text_too(prompt):  # trusts any mem_ id it sees, including one inside a memory's text
    import re
    return [(i, t) for i, t in recalled_entries(prompt)] + [
        (i, "") for i in re.findall(r"mem_099\d", prompt)]


@pytest.mark.parametrize("wrong", [_old_line_format, _text_sliced_out_of_the_json,
                                   _every_line_split_on_newlines_in_text, _ids_from_the_text_too])
def test_recalled_entries_check_rejects_parsers_that_do_not_read_entries_as_json(wrong, capsys):
    assert lesson08.check_recalled_entries(wrong) is False
    assert verdict(capsys) == "✗"


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
