"""Worked solutions for lesson 06: derive a tool schema, validate arguments, write a tool.

Open this when you are stuck on exercises 06.1–06.3 or the stretch. ``derive_schema``
reads the signature (``inspect.signature``), the type hints
(``typing.get_type_hints``) and the ``name: description`` lines of the docstring;
``check_arguments`` collects every problem rather than stopping at the first, so
the model can fix them all in one go. ``derive_schema_plus`` is the stretch:
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
            problems.append(f"argument `{name}` must be a {spec['type']}, got {type(value).__name__}")
        elif "enum" in spec and value not in spec["enum"]:
            problems.append(f"argument `{name}` must be one of {spec['enum']}")
    return problems


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
