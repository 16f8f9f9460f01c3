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
