"""A malformed tool is refused when it is registered, and schemas are built once, not on every turn."""

from __future__ import annotations

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.interfaces import Tool
from aria_kit.persona import ARIA
from aria_kit.scripted import ScriptedProvider, say
from toy_memory import ToyMemory


class NoHints(Tool):
    name = "no_hints"
    description = "A run without type hints."

    def run(self, text):  # noqa: ANN001 — the defect under test
        return text


class Echo(Tool):
    name = "echo"
    description = "Say the text back."

    def run(self, text: str) -> str:
        """text: what to say back."""
        return text


def agent(tools=()):
    return AutonomousAgent(ARIA, ScriptedProvider([say("ok")]), ToyMemory(), tools)


def test_a_tool_whose_run_has_no_type_hints_is_refused_at_registration_with_what_to_do():
    with pytest.raises(ValueError, match=r"tool `no_hints`: its schema cannot be built .* type hint"):
        agent([NoHints()])


@pytest.mark.parametrize("bad_name", ["", "has space", "x" * 65, 42, None])
def test_a_tool_without_a_callable_name_is_refused(bad_name):
    tool = Echo()
    tool.name = bad_name
    with pytest.raises(ValueError, match="needs a `name`"):
        agent().register_tool(tool)


def test_something_that_is_not_a_tool_is_refused():
    with pytest.raises(TypeError, match="is not a Tool"):
        agent().register_tool(lambda text: text)


def test_a_refused_tool_leaves_the_registered_ones_as_they_were():
    a = agent([Echo()])
    with pytest.raises(ValueError):
        a.register_tool(NoHints())
    assert a.list_tools() == ["echo"]


def test_the_schema_is_built_once_at_registration_not_on_every_turn(monkeypatch):
    built = []
    original = Echo.schema
    monkeypatch.setattr(Echo, "schema", lambda self: built.append(1) or original(self))
    llm = ScriptedProvider([say("one"), say("two"), say("three")])
    a = AutonomousAgent(ARIA, llm, ToyMemory(), [Echo()])
    for message in ("a", "b", "c"):
        a.chat(message)
    assert len(built) == 1
    assert [t["function"]["name"] for t in llm.requests[-1]["tools"]] == ["echo"]


def test_hot_swapping_a_tool_replaces_its_schema():
    class Echo2(Echo):
        description = "Say the text back, louder."

    llm = ScriptedProvider([say("ok")])
    a = AutonomousAgent(ARIA, llm, ToyMemory(), [Echo()])
    a.register_tool(Echo2())
    a.chat("hi")
    assert [t["function"]["description"] for t in llm.requests[-1]["tools"]] == ["Say the text back, louder."]
