"""The exercise checks of lesson 06 pass the worked solutions and answer typical wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import json

import pytest

from aria_kit.exercises import lesson06
from aria_kit.schemas import validate_arguments
from aria_kit.solutions import lesson06 as sol06
from aria_kit.solutions.lesson06 import WordCountTool, derive_schema, derive_schema_plus
from exercise_checks import assert_refused, check_tests, verdict


class _StubTool(WordCountTool):
    """Lesson 06's stub: a class whose run is not written yet."""

    def run(self, **kwargs):
        raise NotImplementedError


CHECKS = [
    (lesson06.check_derive_schema, derive_schema),
    (lesson06.check_argument_policy, sol06.strict_call),
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


# ---------------------------------------------------------------- lesson 06: an argument policy (design)


def _runs_everything(run, schema, arguments):
    """Trusts the model: every call reaches the tool."""
    return run(**arguments)


def _falls_back_to_defaults(run, schema, arguments):
    """Drops a wrong optional argument and runs with the default: the model never hears it was wrong."""
    problems = sol06.check_arguments(schema, arguments)
    wrong = {name for name in arguments for p in problems if f"`{name}`" in p}
    if any(name in schema.get("required", []) for name in wrong) or any("required" in p for p in problems):
        return "Error: " + "; ".join(problems)
    return run(**{k: v for k, v in arguments.items() if k not in wrong})


def _rounds_numbers(run, schema, arguments):
    """Converts whatever it can, 2.5 into 2 included: the value changes."""
    call = dict(arguments)
    for name, value in arguments.items():
        kind = schema["properties"].get(name, {}).get("type")
        if kind == "integer" and isinstance(value, float):
            call[name] = int(value)
    return sol06.strict_call(run, schema, call)


def _true_is_an_integer(run, schema, arguments):
    """Python's isinstance(True, int): a JSON true passes as an integer."""
    call = {k: (int(v) if isinstance(v, bool) and schema["properties"].get(k, {}).get("type") == "integer" else v)
            for k, v in arguments.items()}
    return sol06.strict_call(run, schema, call)


def _first_problem_only(run, schema, arguments):
    """Stops at the first problem: the model fixes one mistake per round."""
    problems = sol06.check_arguments(schema, arguments)
    return f"Error: {problems[0]}" if problems else run(**arguments)


def _raises(run, schema, arguments):
    """Raises instead of answering: the model never learns what to fix."""
    problems = sol06.check_arguments(schema, arguments)
    if problems:
        raise ValueError("; ".join(problems))
    return run(**arguments)


def _undocumented(run, schema, arguments):
    return sol06.strict_call(run, schema, arguments)


def _no_names(run, schema, arguments):
    """Says something is wrong, but not which argument."""
    return "Error: invalid arguments." if sol06.check_arguments(schema, arguments) else run(**arguments)


for _wrong in (_runs_everything, _falls_back_to_defaults, _rounds_numbers, _true_is_an_integer, _first_problem_only,
               _raises, _no_names):
    _wrong.__doc__ = (_wrong.__doc__ or "") + " The policy for the grey cases is written in this sentence."


@pytest.mark.parametrize(("wrong", "hint"), [
    (_runs_everything, "must never reach the tool"),
    (_falls_back_to_defaults, "true where an integer belongs"),
    (_rounds_numbers, "2.5 where an integer belongs"),
    (_true_is_an_integer, "true where an integer belongs"),
    (_first_problem_only, "three mistakes at once"),
    (_raises, "raised ValueError"),
    (_undocumented, "docstring"),
    (_no_names, "in backticks"),
], ids=["runs-everything", "falls-back-to-defaults", "rounds-2.5", "true-as-integer", "first-problem-only", "raises",
        "no-docstring", "names-no-argument"])
def test_argument_policy_check_refuses_a_policy_that_breaks_a_property(wrong, hint, capsys):
    assert_refused(lesson06.check_argument_policy(wrong), capsys, hint)


def test_argument_policy_check_prints_the_policy_and_what_it_did_with_each_grey_case(capsys):
    assert lesson06.check_argument_policy(sol06.lenient_call) is True
    out = capsys.readouterr().out
    assert "Models often quote numbers" in out and out.count("runs with") == len(lesson06.GREY)
    assert lesson06.check_argument_policy(sol06.strict_call) is True
    assert capsys.readouterr().out.count(": refused, 'Error") == len(lesson06.GREY)


def test_a_lenient_policy_that_converts_grey_cases_still_refuses_what_changes_a_value():
    run = lesson06._Run()
    assert sol06.lenient_call(run, lesson06._SEARCH, {"query": "q", "top_k": "2.5"}).startswith("Error")
    assert sol06.lenient_call(run, lesson06._SEARCH, {"query": "q", "top_k": "2"}) == "ran" and run.calls[-1]["top_k"] == 2


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


def _kit_style_refusal(run, schema, arguments):
    """Refuses whatever the kit's validate_arguments refuses, in its words: "unknown argument `limit` (allowed:
    `query`, `top_k`)" names the schema's arguments too, so the model sees what it may send."""
    problems = validate_arguments(schema, arguments)
    return "Error: " + "; ".join(problems) if problems else run(**arguments)


def _names_an_argument_nobody_sent(run, schema, arguments):
    """Refuses like strict_call, but guesses at a fix with a name the schema does not have."""
    reply = sol06.strict_call(run, schema, arguments)
    return reply + " Did you mean `top_n`?" if reply.startswith("Error") else reply


def _refuses_every_extra(run, schema, arguments):
    """Refuses every argument not in the properties, even where the schema allows extras."""
    extra = [name for name in arguments if name not in schema.get("properties", {})]
    if extra:
        return "Error: unknown " + ", ".join(f"`{name}`" for name in extra)
    return sol06.strict_call(run, schema, arguments)


def test_argument_policy_check_accepts_a_refusal_that_lists_the_schemas_arguments(capsys):
    assert "allowed: `query`, `top_k`" in _kit_style_refusal(lesson06._Run(), lesson06._SEARCH, {"limit": 2, "query": "q"})
    assert lesson06.check_argument_policy(_kit_style_refusal) is True
    assert verdict(capsys) == "✓"


@pytest.mark.parametrize(("wrong", "hint"), [
    (_names_an_argument_nobody_sent, "neither sent nor in the schema"),
    (_refuses_every_extra, "an extra argument a schema allows"),
], ids=["names-a-stranger", "refuses-what-an-open-schema-allows"])
def test_argument_policy_check_refuses_a_stray_name_or_an_extra_the_schema_allows(wrong, hint, capsys):
    assert_refused(lesson06.check_argument_policy(wrong), capsys, hint)
