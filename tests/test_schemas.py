from typing import Literal, Optional

import pytest

from aria_kit.schemas import schema_from_function, validate_arguments


def lookup(query: str, top_k: int = 3, exact: bool = False, tags: Optional[list[str]] = None) -> str:
    """Look something up.

    query: What to look for.
    top_k: How many results.
    """
    return ""


def test_schema_is_derived_from_type_hints_defaults_and_docstring():
    schema = schema_from_function(lookup)
    assert schema["required"] == ["query"]
    assert schema["properties"]["query"] == {"type": "string", "description": "What to look for."}
    assert schema["properties"]["top_k"] == {"type": "integer", "description": "How many results.", "default": 3}
    assert schema["properties"]["exact"]["type"] == "boolean"
    assert schema["properties"]["tags"] == {"type": "array", "items": {"type": "string"}, "default": None}
    assert schema["additionalProperties"] is False


def test_literal_becomes_enum():
    def pick(mode: Literal["fast", "exact"]) -> str:
        return mode

    assert schema_from_function(pick)["properties"]["mode"] == {"type": "string", "enum": ["fast", "exact"]}


def test_parameter_without_type_hint_is_refused_with_a_clear_error():
    def untyped(x) -> str:
        return ""

    with pytest.raises(TypeError, match="needs a type hint"):
        schema_from_function(untyped)


@pytest.mark.parametrize(
    "arguments, problem",
    [
        ({}, "argument `query` is required"),
        ({"query": "x", "colour": "red"}, "unknown argument `colour`"),
        ({"query": 3}, "argument `query` must be of type string, got int"),
        ({"query": "x", "top_k": True}, "argument `top_k` must be of type integer, got bool"),
        ({"query": "x", "top_k": 2.5}, "argument `top_k` must be of type integer, got float"),
    ],
)
def test_validation_names_each_problem(arguments, problem):
    problems = validate_arguments(schema_from_function(lookup), arguments)
    assert any(problem in p for p in problems), problems


def test_valid_arguments_have_no_problems():
    assert validate_arguments(schema_from_function(lookup), {"query": "x", "top_k": 5, "tags": ["a"]}) == []


def test_numbers_accept_ints_but_not_bools_and_limits_are_checked():
    schema = {"type": "object", "properties": {"x": {"type": "number", "minimum": 0, "maximum": 10},
                                               "s": {"type": "string", "maxLength": 3}}}
    assert validate_arguments(schema, {"x": 4}) == []
    assert validate_arguments(schema, {"x": False}) != []
    assert "at most 10" in validate_arguments(schema, {"x": 11})[0]
    assert "at least 0" in validate_arguments(schema, {"x": -1})[0]
    assert "limit is 3" in validate_arguments(schema, {"s": "abcd"})[0]


# ---------------------------------------------------------------- issue 22, point 5: schemas declare what the code checks

from aria_kit.interfaces import Tool  # noqa: E402
from aria_kit.tools import MemoryStoreTool, default_tools  # noqa: E402
from toy_memory import ToyMemory  # noqa: E402


def every_tool() -> list[Tool]:
    """make_agent's tools (the checked memory_store and memory_update among them) and lesson 06's plain store."""
    memory = ToyMemory()
    memory.store("Alice's favourite language is Rust.", {"category": "user_pref"})
    return default_tools(memory, updates=True) + [MemoryStoreTool(memory)]


def valid_arguments(tool: Tool) -> dict:
    """Arguments the tool accepts; each probe below changes one of them."""
    return {"memory_store": {"text": "Bob likes tea."}, "memory_search": {"query": "Rust"},
            "calculator": {"expression": "1 + 1"}, "web_search": {"query": "BM25"},
            "memory_update": {"memory_id": "mem_0001", "new_text": "Alice's favourite language is Go."}}[tool.name]


def probes(spec: dict, base):
    """(value, should_pass, bound) at each declared bound and one step past it."""
    if "maxLength" in spec:
        limit = spec["maxLength"]
        yield base.ljust(limit), True, limit  # padded with spaces, so it stays a valid value of its kind
        yield base + "x" * (limit + 1 - len(base)), False, limit
    for key, step in (("minimum", -1), ("maximum", 1)):
        if key in spec:
            yield spec[key], True, spec[key]
            yield spec[key] + step, False, spec[key]


@pytest.mark.parametrize("tool", every_tool(), ids=lambda t: type(t).__name__)
def test_every_string_and_integer_parameter_declares_the_bounds_its_tool_enforces(tool):
    for name, spec in tool.parameters_schema()["properties"].items():
        if spec["type"] == "string" and "enum" not in spec:
            assert "maxLength" in spec, f"{tool.name}.{name}: a string the tool limits must declare maxLength"
        if spec["type"] == "integer":
            assert "minimum" in spec and "maximum" in spec, f"{tool.name}.{name}: declare minimum and maximum"


@pytest.mark.parametrize("tool", every_tool(), ids=lambda t: type(t).__name__)
def test_a_value_at_a_declared_bound_runs_and_one_past_it_is_refused_by_schema_and_by_run(tool):
    """The schema and the tool's own checks agree: one source for both."""
    for name, spec in tool.parameters_schema()["properties"].items():
        base = valid_arguments(tool).get(name, spec.get("default", ""))
        for value, should_pass, bound in probes(spec, base if isinstance(base, str) else spec.get("default", 0)):
            fresh = next(t for t in every_tool() if type(t) is type(tool))
            arguments = {**valid_arguments(fresh), name: value}
            problems = validate_arguments(fresh.parameters_schema(), arguments)
            ran = fresh.run(**arguments)
            shown = f"{tool.name}({name}={str(value)[:20]!r}{'…' if len(str(value)) > 20 else ''})"
            if should_pass:
                assert not problems, f"{shown}: the schema refuses a value at its own bound: {problems}"
                assert not (ran.startswith("Error") and str(bound) in ran), \
                    f"{shown}: the schema allows it but the tool refuses it: {ran}"
            else:
                assert problems, f"{shown}: past the bound, yet the schema accepts it"
                assert ran.startswith("Error"), f"{shown}: past the bound, yet the tool runs it: {ran[:80]}"


def test_memory_search_declares_top_k_from_1_to_10():
    spec = next(t for t in every_tool() if t.name == "memory_search").parameters_schema()["properties"]["top_k"]
    assert (spec["minimum"], spec["maximum"]) == (1, 10)
