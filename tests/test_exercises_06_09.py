"""The exercise checks of lessons 08 and 09 pass the worked solutions and fail plausible wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from aria_kit.calculator import CalculatorTool
from aria_kit.demo import seed_memory
from aria_kit.exercises import lesson08, lesson09
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.persona import AgentPersona
from aria_kit.scripted import call_tool, say
from aria_kit.tools import WebSearchTool
from aria_kit.solutions.lesson08 import guarded_loop, mini_loop, recalled_entries, two_step_script
from aria_kit.solutions.lesson09 import (MemoryForgetTool, glossary_web_search, make_forget_tool, resume,
                                         save_conversation, seed_once)
from exercise_checks import check_tests, unwritten, verdict


# ---------------------------------------------------------------- every check: solution ✓, stub ○


CHECKS = [
    (lesson08.check_two_step_script, two_step_script),
    (lesson08.check_mini_loop, mini_loop),
    (lesson08.check_recalled_entries, recalled_entries),
    (lesson08.check_guarded_loop, guarded_loop),
    (lesson09.check_glossary_web_search, glossary_web_search),
    (lesson09.check_seed_once, seed_once),
    (lesson09.check_forget_tool, make_forget_tool),
]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


def test_resume_check_accepts_the_worked_solution(capsys):
    assert lesson09.check_resume(save_conversation, resume) is True
    assert verdict(capsys) == "✓"


def test_resume_check_reports_untouched_stubs_as_not_done_yet(capsys):
    assert lesson09.check_resume(unwritten, unwritten) is False
    assert capsys.readouterr().out.startswith("○")


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


# ---------------------------------------------------------------- lesson 09


def test_glossary_check_rejects_a_tool_that_forgets_the_old_topics(capsys):
    assert lesson09.check_glossary_web_search(lambda: WebSearchTool({"Raft": "Raft is a consensus algorithm."})) is False
    assert "extend" in capsys.readouterr().out


def test_glossary_check_rejects_a_tool_without_raft(capsys):
    assert lesson09.check_glossary_web_search(WebSearchTool) is False
    assert "Raft" in capsys.readouterr().out


def test_glossary_check_rejects_a_tool_under_another_name(capsys):
    renamed = type("Glossary", (WebSearchTool,), {"name": "glossary"})
    assert lesson09.check_glossary_web_search(lambda: renamed(glossary_web_search().knowledge)) is False
    assert "web_search" in capsys.readouterr().out


def _seed_every_time(path):
    memory = HybridMemory(path=path)
    seed_memory(memory)
    return memory


def _seed_in_process_only(path):
    memory = HybridMemory()
    seed_memory(memory)
    return memory


@pytest.mark.parametrize("wrong", [_seed_every_time, _seed_in_process_only])
def test_seed_once_check_rejects_duplicate_or_unsaved_seeding(wrong, capsys):
    assert lesson09.check_seed_once(wrong) is False
    assert verdict(capsys) == "✗"


def _resume_without_history(memory_path, history_path, llm):
    from aria_kit.demo import make_agent
    return make_agent(memory_path=memory_path, llm=llm, verbose=False)


def _resume_in_a_fresh_memory(memory_path, history_path, llm):
    agent = resume(memory_path, history_path, llm)
    agent.memory.close()
    from aria_kit.demo import make_agent
    fresh = make_agent(llm=llm, verbose=False)
    fresh.history = agent.history
    return fresh


def _save_only_the_answers(agent, path):
    save_conversation(type("A", (), {"history": [m for m in agent.history if m["role"] == "assistant"]})(), path)


@pytest.mark.parametrize(("save", "load"), [(save_conversation, _resume_without_history),
                                            (save_conversation, _resume_in_a_fresh_memory),
                                            (_save_only_the_answers, resume)])
def test_resume_check_rejects_a_conversation_or_memory_that_is_not_restored(save, load, capsys):
    assert lesson09.check_resume(save, load) is False
    assert verdict(capsys) == "✗"


# ---------------------------------------------------------------- exercise 09.3: a memory_forget tool



def test_forget_check_accepts_the_worked_solution(capsys):
    assert lesson09.check_forget_tool(make_forget_tool) is True
    assert verdict(capsys) == "✓"


def test_forget_check_reports_an_untouched_stub_as_not_done_yet(capsys):
    class Stub(MemoryForgetTool):
        def run(self, memory_id: str) -> str:
            raise NotImplementedError

    assert lesson09.check_forget_tool(Stub) is False
    assert capsys.readouterr().out.startswith("○")


class ClaimsSuccessAlways(MemoryForgetTool):
    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        self.memory.delete(memory_id)
        return f"Forgot {memory_id}."


class RaisesOnUnknownIds(MemoryForgetTool):
    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        if self.memory.get(memory_id) is None:
            raise KeyError(memory_id)
        self.memory.delete(memory_id)
        return f"Forgot {memory_id}."


class ForgetsNothing(MemoryForgetTool):
    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        return f"Forgot {memory_id}."


class UndocumentedId(MemoryForgetTool):
    def run(self, memory_id: str) -> str:
        """Forget."""
        return MemoryForgetTool.run(self, memory_id)


class ForgetsByPosition(MemoryForgetTool):
    def run(self, memory_id: int) -> str:
        """memory_id: The position of the memory, from 1."""
        return MemoryForgetTool.run(self, f"mem_{memory_id:04d}")


@pytest.mark.parametrize("wrong", [ClaimsSuccessAlways, RaisesOnUnknownIds, ForgetsNothing, UndocumentedId,
                                   ForgetsByPosition])
def test_forget_check_rejects_tools_that_lie_raise_or_misdescribe(wrong, capsys):
    assert lesson09.check_forget_tool(wrong) is False
    assert verdict(capsys) == "✗"
