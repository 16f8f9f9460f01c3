"""The exercise checks of lessons 06–07 pass the worked solutions and fail plausible wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import dataclasses

import pytest

from aria_kit.exercises import lesson06, lesson07
from aria_kit.persona import AgentPersona
from aria_kit.solutions import lesson06 as sol06
from aria_kit.solutions.lesson06 import WordCountTool, check_arguments, derive_schema, derive_schema_plus
from aria_kit.solutions.lesson07 import compile_persona, fit_prompt, violations
from exercise_checks import check_tests, verdict


# ---------------------------------------------------------------- every check: solution ✓, stub ○


class _StubTool(WordCountTool):
    """Lesson 06's stub: a class whose run is not written yet."""

    def run(self, **kwargs):
        raise NotImplementedError


CHECKS = [
    (lesson06.check_derive_schema, derive_schema),
    (lesson06.check_check_arguments, check_arguments),
    (lesson06.check_word_count_tool, WordCountTool, _StubTool),
    (lesson06.check_stretch_schema, derive_schema_plus),
    (lesson07.check_compile_persona, compile_persona),
    (lesson07.check_violations, violations),
    (lesson07.check_fit_prompt, fit_prompt),
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


# ---------------------------------------------------------------- lesson 07


def _hard_coded_aria(persona):
    return dataclasses.replace(persona, name="Aria", role="a precise research assistant").system_prompt() \
        if persona.name == "Aria" else compile_persona(dataclasses.replace(persona, traits=()))


def _always_a_traits_line(persona):
    text = compile_persona(persona)
    return text if persona.traits else text.replace("\n\nRules:", "\n\nTraits: .\n\nRules:", 1)


def _phrases_without_quotes(persona):
    return compile_persona(persona).replace('", "', ", ").replace('Never say: "', "Never say: ").replace('".', ".")


def _rules_from_zero(persona):
    import re
    return re.sub(r"^(\d)\. ", lambda m: f"{int(m.group(1)) - 1}. ", compile_persona(persona), flags=re.M)


@pytest.mark.parametrize("wrong", [
    lambda persona: compile_persona(persona) + "\n",
    _hard_coded_aria,
    _always_a_traits_line,
    _phrases_without_quotes,
    _rules_from_zero,
    lambda persona: compile_persona(persona).replace("\n\nGoals:", "\nGoals:"),
], ids=["trailing-newline", "only-aria-right", "empty-traits-line", "unquoted-phrases", "rules-from-zero",
        "missing-blank-line"])
def test_compile_persona_check_rejects_typical_wrong_compilers(wrong, capsys):
    assert lesson07.check_compile_persona(wrong) is False
    assert verdict(capsys) == "✗"


def test_compile_persona_check_names_the_first_differing_line(capsys):
    lesson07.check_compile_persona(lambda persona: compile_persona(persona) + "\n")
    assert "no trailing newline" in capsys.readouterr().out


def _cut_mid_entry(persona, hits, max_chars):
    return persona.system_prompt(hits)[:max_chars]


def _drops_the_best_first(persona, hits, max_chars):
    for start in range(len(hits) + 1):
        prompt = persona.system_prompt(hits[start:])
        if len(prompt) <= max_chars:
            return prompt
    return persona.system_prompt()


def _never_raises(persona, hits, max_chars):
    try:
        return fit_prompt(persona, hits, max_chars)
    except ValueError:
        return persona.system_prompt()


@pytest.mark.parametrize("wrong", [_cut_mid_entry, _drops_the_best_first, _never_raises])
def test_fit_prompt_check_rejects_budgets_met_the_wrong_way(wrong, capsys):
    assert lesson07.check_fit_prompt(wrong) is False
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
