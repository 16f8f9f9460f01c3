"""The exercise checks of lesson 06 pass the worked solutions and answer typical wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import json

import pytest

from aria_kit.exercises import lesson06
from aria_kit.solutions import lesson06 as sol06
from aria_kit.solutions.lesson06 import WordCountTool, check_arguments, derive_schema, derive_schema_plus
from exercise_checks import assert_refused, check_tests, verdict


class _StubTool(WordCountTool):
    """Lesson 06's stub: a class whose run is not written yet."""

    def run(self, **kwargs):
        raise NotImplementedError


CHECKS = [
    (lesson06.check_derive_schema, derive_schema),
    (lesson06.check_check_arguments, check_arguments),
    (lesson06.check_word_count_tool, WordCountTool, _StubTool),
    (lesson06.check_stretch_schema, derive_schema_plus),
]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- lesson 06: deriving a schema


def _required_everything(fn):
    schema = derive_schema(fn)
    return {**schema, "required": list(schema["properties"])}


def _no_defaults(fn):
    schema = derive_schema(fn)
    return {**schema, "properties": {n: {k: v for k, v in p.items() if k != "default"}
                                     for n, p in schema["properties"].items()}}


def _json_type_int_first(hint):  # issubclass(bool, int): checking int first turns booleans into integers
    import typing
    if typing.get_origin(hint) is typing.Literal:
        return sol06.json_type(hint)
    for python_type, name in ((int, "integer"), (str, "string"), (float, "number")):
        if issubclass(hint, python_type):
            return {"type": name}
    raise TypeError(hint)


def _floats_as_integers(hint):
    return {"type": "integer"} if hint is float else sol06.json_type(hint)


def _literal_as_plain_string(hint):
    import typing
    return {"type": "string"} if typing.get_origin(hint) is typing.Literal else sol06.json_type(hint)


def _guesses_string_for_untyped(fn):
    import inspect
    import typing
    hints = typing.get_type_hints(fn)
    if all(name in hints for name in inspect.signature(fn).parameters):
        return derive_schema(fn)
    return {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


def _keeps_kwargs(fn):
    import inspect
    schema = derive_schema(fn)
    for name, parameter in inspect.signature(fn).parameters.items():
        if parameter.kind is parameter.VAR_KEYWORD:
            schema["properties"][name] = {"type": "string"}
    return schema


def _docstring_across_lines(fn):
    """The regex bug: a whitespace class after the colon runs into the next line, so "Args:" swallows a parameter."""
    import inspect
    import re
    schema = derive_schema(fn)
    found = {m.group(1): m.group(2).strip() for m in re.finditer(r"^\s*(\w+)\s*:\s*(.+)$", inspect.getdoc(fn) or "", re.M)}
    for name, spec in schema["properties"].items():
        spec.pop("description", None)
        if name in found:
            spec["description"] = found[name]
    return schema


def _open_schema(fn):
    schema = derive_schema(fn)
    schema.pop("additionalProperties")
    return schema


@pytest.mark.parametrize("wrong", [
    _required_everything,
    _no_defaults,
    lambda fn: derive_schema(fn, to_json=_json_type_int_first),
    lambda fn: derive_schema(fn, to_json=_floats_as_integers),
    lambda fn: derive_schema(fn, to_json=_literal_as_plain_string),
    _guesses_string_for_untyped,
    _keeps_kwargs,
    _docstring_across_lines,
    _open_schema,
], ids=["required-everything", "no-defaults", "bool-as-integer", "float-as-integer", "literal-without-enum",
        "untyped-guessed", "kwargs-kept", "docstring-regex-across-lines", "extra-arguments-allowed"])
def test_derive_schema_check_rejects_typical_wrong_derivations(wrong, capsys):
    assert lesson06.check_derive_schema(wrong) is False
    assert verdict(capsys) == "✗"


def test_derive_schema_check_names_the_parameter_that_differs(capsys):
    lesson06.check_derive_schema(_no_defaults)
    assert "`top_k` should have 'default': 3" in capsys.readouterr().out


def test_stretch_schema_check_rejects_the_exercise_solution_without_lists(capsys):
    assert lesson06.check_stretch_schema(derive_schema) is False
    assert verdict(capsys) == "✗"


# ---------------------------------------------------------------- lesson 06: validating arguments


def _bool_is_an_integer(schema, arguments):
    problems = check_arguments(schema, arguments)
    return [p for p in problems if "got bool" not in p and not ("`loud`" in p and "must be" in p)] if any(
        isinstance(v, bool) for v in arguments.values()) else problems


def _int_is_not_a_number(schema, arguments):
    problems = check_arguments(schema, arguments)
    for name, value in arguments.items():
        spec = schema["properties"].get(name, {})
        if spec.get("type") == "number" and type(value) is int:
            problems.append(f"argument `{name}` must be a number")
    return problems


def _first_problem_only(schema, arguments):
    return check_arguments(schema, arguments)[:1]


def _unknown_arguments_ignored(schema, arguments):
    return [p for p in check_arguments(schema, arguments) if not p.startswith("unknown")]


def _unknown_always_refused(schema, arguments):
    extra = [f"unknown argument `{n}`" for n in arguments if n not in schema["properties"]]
    return check_arguments(schema, arguments) + ([] if schema.get("additionalProperties") is False else extra)


def _no_backticks(schema, arguments):
    return [p.replace("`", "") for p in check_arguments(schema, arguments)]


def _enum_ignored(schema, arguments):
    return [p for p in check_arguments(schema, arguments) if "one of" not in p]


@pytest.mark.parametrize("wrong", [_bool_is_an_integer, _int_is_not_a_number, _first_problem_only,
                                   _unknown_arguments_ignored, _unknown_always_refused, _no_backticks, _enum_ignored])
def test_check_arguments_check_rejects_typical_wrong_validators(wrong, capsys):
    assert lesson06.check_check_arguments(wrong) is False
    assert verdict(capsys) == "✗"


def test_worked_check_arguments_agrees_with_the_package_on_every_call_of_the_check():
    from aria_kit.schemas import validate_arguments
    for _, schema, arguments in lesson06.CALLS:
        assert bool(check_arguments(schema, arguments)) == bool(validate_arguments(schema, arguments))


# ---------------------------------------------------------------- lesson 06: a whole tool


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


def _array_without_items(fn):  # says "a list", but not of what: the model cannot know to send strings
    schema = derive_schema_plus(fn)
    for spec in schema["properties"].values():
        spec.pop("items", None)
    return schema


def _optional_as_null_union(fn):  # JSON-schema's other spelling; the kit's derivation leaves None to the default
    schema = derive_schema_plus(fn)
    for name, spec in schema["properties"].items():
        if name not in schema["required"] and spec.get("default", "") is None:
            spec["type"] = [spec["type"], "null"]
    return schema


@pytest.mark.parametrize("wrong", [_array_without_items, _optional_as_null_union])
def test_stretch_schema_check_rejects_a_plausible_extension_and_names_the_parameter(wrong, capsys):
    assert_refused(lesson06.check_stretch_schema(wrong), capsys, "tags_and_limit")
