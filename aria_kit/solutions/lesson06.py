"""Worked solutions for lesson 06: derive a tool schema, validate arguments, write a tool.

Open this when you are stuck on exercises 06.1–06.3 or the stretch. ``derive_schema``
reads the signature (``inspect.signature``), the type hints
(``typing.get_type_hints``) and the ``name: description`` lines of the docstring.
Exercise 06.2 has two designs in ``SOLUTIONS["06.2"]``: ``strict_call`` runs only what
the schema says, exactly (``check_arguments`` collects every problem, so the model can
fix them all in one go); ``lenient_call`` first converts what loses nothing ("2" -> 2)
and drops unknown arguments, saying so in the result. ``derive_schema_plus`` is the stretch:
``list[X]`` and ``X | None`` too. The package's versions are in
``aria_kit/schemas.py``; compare them with these once yours pass.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Any

from aria_kit.interfaces import Tool

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def descriptions_from(doc: str) -> dict[str, str]:
    """Every ``name: text`` line of a docstring, whatever its indentation."""
    found = {}
    for line in doc.splitlines():
        match = re.match(r"\s*(\w+)\s*:\s*(.+)", line)  # line by line: \s* must not run into the next line
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def json_type(hint: Any) -> dict[str, Any]:
    if typing.get_origin(hint) is typing.Literal:
        values = list(typing.get_args(hint))
        return {"type": JSON_TYPES[type(values[0])], "enum": values}
    if hint in JSON_TYPES:  # a dict lookup, so bool is not mistaken for int (issubclass(bool, int) is True)
        return {"type": JSON_TYPES[hint]}
    raise TypeError(f"cannot express {hint!r} as a JSON type")


def derive_schema(fn: Callable[..., Any], to_json: Callable[[Any], dict[str, Any]] = json_type) -> dict[str, Any]:
    hints = typing.get_type_hints(fn)
    described = descriptions_from(inspect.getdoc(fn) or "")
    properties: dict[str, Any] = {}
    required: list[str] = []
    # A bound method's signature has no `self`; *args and **kwargs cannot be named by a model.
    for name, parameter in inspect.signature(fn).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name not in hints:
            raise TypeError(f"parameter `{name}` needs a type hint")
        spec = to_json(hints[name])
        if name in described:
            spec["description"] = described[name]
        if parameter.default is inspect.Parameter.empty:
            required.append(name)
        else:
            spec["default"] = parameter.default
        properties[name] = spec
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def type_ok(value: Any, json_type_name: str) -> bool:
    if isinstance(value, bool):  # JSON true/false are booleans only, never numbers
        return json_type_name == "boolean"
    expected = {"string": str, "integer": int, "number": (int, float), "boolean": bool}[json_type_name]
    return isinstance(value, expected)


def check_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    problems = [f"argument `{name}` is required" for name in schema.get("required", []) if name not in arguments]
    for name, value in arguments.items():
        spec = properties.get(name)
        if spec is None:
            if schema.get("additionalProperties", True) is False:
                problems.append(f"unknown argument `{name}`")
        elif not type_ok(value, spec["type"]):
            problems.append(f"argument `{name}` must be of type {spec['type']}, got {type(value).__name__}")
        elif "enum" in spec and value not in spec["enum"]:
            problems.append(f"argument `{name}` must be one of {spec['enum']}")
    return problems


def strict_call(run: Callable[..., str], schema: dict[str, Any], arguments: dict[str, Any]) -> str:
    """Strict: run only a call the schema accepts as sent; refuse "2" for an integer, "true" for a boolean, a typo.

    A model that sent a string meant something we would have to guess; an Error tells it what to send, and it
    fixes its call in the next round for the price of one round.
    """
    problems = check_arguments(schema, arguments)
    if problems:
        return "Error: " + "; ".join(problems) + ". Fix these and call again."
    return run(**arguments)


def _converted(value: Any, json_type_name: str) -> Any:
    """``value`` as ``json_type_name`` when a string converts without loss ("2" -> 2, "true" -> True), else as is."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if json_type_name == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if json_type_name in ("integer", "number") and re.fullmatch(r"-?\d+(\.\d+)?", text):
        number = float(text)
        if json_type_name == "number":
            return number
        if number.is_integer() and "." not in text:
            return int(text)
    return value


def lenient_call(run: Callable[..., str], schema: dict[str, Any], arguments: dict[str, Any]) -> str:
    """Lenient: convert a string that means the same number or boolean ("2" -> 2), drop an argument the schema does
    not know (saying so in the result), then refuse whatever is still wrong.

    Models often quote numbers; a round spent on that is a round the user waits for. Nothing that would change a
    value is converted: 2.5 stays 2.5 and is refused for an integer, and true is never a number.
    """
    properties = schema.get("properties", {})
    closed = schema.get("additionalProperties", True) is False
    unknown = [name for name in arguments if closed and name not in properties]
    call = {name: _converted(value, properties[name]["type"]) if name in properties else value
            for name, value in arguments.items() if name not in unknown}
    problems = check_arguments(schema, call)
    if problems:
        return "Error: " + "; ".join(problems) + ". Fix these and call again."
    result = run(**call)
    if unknown:
        result += "\n(Note: ignored unknown " + ", ".join(f"`{name}`" for name in unknown) + ".)"
    return result


# Each design is the arguments of one call of check_argument_policy (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"06.2": [(strict_call,), (lenient_call,)]}


class WordCountTool(Tool):
    name = "word_count"
    description = "Count the words in a text, optionally counting each distinct word only once."

    def run(self, text: str, unique: bool = False) -> str:
        """Count words.

        text: The text whose words to count; words are separated by whitespace.
        unique: If true, count each distinct word once, ignoring upper/lower case.
        """
        words = text.split()
        if unique:
            words = list({word.lower() for word in words})
        return str(len(words))


def json_type_plus(hint: Any) -> dict[str, Any]:
    """Stretch: ``X | None`` and ``Optional[X]`` are X (the default says it may be left out); ``list[X]`` is an array."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        members = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(members) != 1:
            raise TypeError(f"cannot express the union {hint!r} as one JSON type")
        return json_type_plus(members[0])
    if origin is list:
        (item,) = typing.get_args(hint)
        return {"type": "array", "items": json_type_plus(item)}
    return json_type(hint)


def derive_schema_plus(fn: Callable[..., Any]) -> dict[str, Any]:
    return derive_schema(fn, to_json=json_type_plus)
