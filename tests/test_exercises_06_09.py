"""The exercise checks of lessons 06–09 pass the worked solutions and fail plausible wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from aria_kit.calculator import CalculatorTool
from aria_kit.demo import seed_memory
from aria_kit.exercises import lesson06, lesson07, lesson08, lesson09
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.persona import AgentPersona
from aria_kit.scripted import call_tool, say
from aria_kit.tools import WebSearchTool
from aria_kit.solutions.lesson06 import WordCountTool
from aria_kit.solutions.lesson07 import make_persona, violations
from aria_kit.solutions.lesson08 import mini_loop, two_step_script
from exercise_checks import unwritten, verdict
from aria_kit.solutions.lesson09 import glossary_web_search, seed_once


# ---------------------------------------------------------------- every check: solution ✓, stub ○

CHECKS = [
    (lesson06.check_word_count_tool, WordCountTool),
    (lesson07.check_persona, make_persona),
    (lesson07.check_violations, violations),
    (lesson08.check_two_step_script, two_step_script),
    (lesson08.check_mini_loop, mini_loop),
    (lesson09.check_glossary_web_search, glossary_web_search),
    (lesson09.check_seed_once, seed_once),
]


@pytest.mark.parametrize(("check", "solution"), CHECKS, ids=[c.__name__ for c, _ in CHECKS])
def test_check_accepts_the_worked_solution(check, solution, capsys):
    assert check(solution) is True
    assert verdict(capsys) == "✓"


@pytest.mark.parametrize("check", [c for c, _ in CHECKS], ids=[c.__name__ for c, _ in CHECKS])
def test_check_reports_an_untouched_stub_as_not_done_yet(check, capsys):
    stub = unwritten
    if check is lesson06.check_word_count_tool:  # the notebook's stub is a class whose run is not written yet
        class StubTool(WordCountTool):
            def run(self, **kwargs):
                raise NotImplementedError
        stub = StubTool
    assert check(stub) is False
    out = capsys.readouterr().out
    assert out.startswith("○") and "not done yet" in out


# ---------------------------------------------------------------- lesson 06


class CaseSensitiveWordCount(WordCountTool):
    def run(self, text: str, unique: bool = False) -> str:
        """Count words.

        text: The text.
        unique: Count distinct words.
        """
        return str(len(set(text.split()) if unique else text.split()))


class UndocumentedWordCount(WordCountTool):
    def run(self, text: str, unique: bool = False) -> str:
        """Count words."""
        return WordCountTool.run(self, text, unique)


class UntypedWordCount(WordCountTool):
    def run(self, text, unique=False) -> str:  # no hints: the schema cannot be derived
        """text: The text.
        unique: Count distinct words.
        """
        return WordCountTool.run(self, text, unique)


class RequiredUniqueWordCount(WordCountTool):
    def run(self, text: str, unique: bool) -> str:
        """text: The text.
        unique: Count distinct words.
        """
        return WordCountTool.run(self, text, unique)


@pytest.mark.parametrize("wrong", [CaseSensitiveWordCount, UndocumentedWordCount, UntypedWordCount, RequiredUniqueWordCount])
def test_word_count_check_rejects_tools_with_a_wrong_schema_or_count(wrong, capsys):
    assert lesson06.check_word_count_tool(wrong) is False
    assert verdict(capsys) == "✗"


def test_word_count_check_rejects_a_tool_with_another_name(capsys):
    renamed = type("Renamed", (WordCountTool,), {"name": "count_words"})
    assert lesson06.check_word_count_tool(renamed) is False
    assert "word_count" in capsys.readouterr().out


# ---------------------------------------------------------------- lesson 07


def test_persona_check_rejects_a_persona_without_the_forbidden_phrase(capsys):
    assert lesson07.check_persona(lambda: dataclasses.replace(make_persona(), forbidden_phrases=())) is False
    assert "Great question" in capsys.readouterr().out


def test_persona_check_rejects_another_role(capsys):
    assert lesson07.check_persona(lambda: dataclasses.replace(make_persona(), role="a code reviewer")) is False
    assert verdict(capsys) == "✗"


def test_violations_check_rejects_case_sensitive_matching(capsys):
    def case_sensitive(persona: AgentPersona, text: str) -> list[str]:
        return [p for p in persona.forbidden_phrases if p in text]

    assert lesson07.check_violations(case_sensitive) is False
    assert "ignore case" in capsys.readouterr().out


def test_violations_check_rejects_phrases_out_of_persona_order(capsys):
    def by_position(persona: AgentPersona, text: str) -> list[str]:
        found = [p for p in persona.forbidden_phrases if p.lower() in text.lower()]
        return sorted(found, key=lambda p: text.lower().index(p.lower()))

    assert lesson07.check_violations(by_position) is False
    assert verdict(capsys) == "✗"


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
