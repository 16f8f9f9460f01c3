"""Tool schemas: derive them from a Python signature and check a model's arguments (lesson 06).

``schema_from_function`` reads a function's type hints, defaults and docstring
and writes the JSON-schema ``parameters`` object that OpenAI-style function
calling expects. ``validate_arguments`` checks a model's decoded arguments
against such a schema and returns a list of plain-English problems, so a tool
can hand them back to the model instead of crashing.

Bounds are declared once, on the parameter: ``top_k: Annotated[int, Bounds(minimum=1,
maximum=10)]`` puts ``minimum`` and ``maximum`` into the schema the model sees, and
``validate_arguments`` enforces that same schema, so what the model is told and what
the code checks cannot drift apart.

Deliberately small: it covers the JSON types a tool parameter needs (string,
integer, number, boolean, array, object) plus ``enum``, ``maxLength``,
``minimum`` and ``maximum``. It is not a full JSON-Schema validator.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

_JSON_TYPES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


@dataclass(frozen=True)
class Bounds:
    """Limits on one parameter, written as ``Annotated[int, Bounds(minimum=1, maximum=10)]``."""

    maxLength: int | None = None  # noqa: N815 - spelled as JSON Schema spells it
    minimum: int | float | None = None
    maximum: int | float | None = None

    def schema(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value is not None}


def _json_type(annotation: Any) -> dict[str, Any]:
    """Map one Python annotation to a JSON-schema fragment."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:  # Annotated[T, Bounds(...)]: T's schema plus the declared bounds
        base, *extras = typing.get_args(annotation)
        fragment = _json_type(base)
        for extra in extras:
            if isinstance(extra, Bounds):
                fragment.update(extra.schema())
        return fragment
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1:  # Optional[X] is just X with a default
            return _json_type(members[0])
        raise TypeError(f"unions of several types are not supported in tool parameters: {annotation}")
    if origin is typing.Literal:
        values = list(typing.get_args(annotation))
        return {"type": _JSON_TYPES[type(values[0])], "enum": values}
    if origin in (list, tuple):
        args = typing.get_args(annotation)
        return {"type": "array", "items": _json_type(args[0])} if args else {"type": "array"}
    if origin is dict:
        return {"type": "object"}
    if annotation in _JSON_TYPES:
        return {"type": _JSON_TYPES[annotation]}
    raise TypeError(f"cannot express {annotation!r} as a JSON-schema type; declare `parameters` explicitly")


def _docstring_descriptions(doc: str) -> dict[str, str]:
    """Pick ``name: description`` lines (Google style, under ``Args:`` or anywhere)."""
    found = {}
    for line in doc.splitlines():
        match = re.match(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$", line)
        if match and match.group(1) not in {"Args", "Returns", "Raises", "Example", "Examples"}:
            found[match.group(1)] = match.group(2).strip()
    return found


def schema_from_function(fn: Callable[..., Any]) -> dict[str, Any]:
    """Build the JSON-schema ``parameters`` object for ``fn`` from its signature and docstring.

    Every parameter needs a type hint; parameters without a default are
    required; ``name: text`` lines in the docstring become descriptions.
    """
    signature = inspect.signature(fn)
    hints = typing.get_type_hints(fn, include_extras=True)  # keep Annotated[..., Bounds(...)]
    descriptions = _docstring_descriptions(inspect.getdoc(fn) or "")
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or name == "self":
            continue
        if name not in hints:
            raise TypeError(f"parameter `{name}` of {fn.__qualname__} needs a type hint to become part of a tool schema")
        prop = _json_type(hints[name])
        if name in descriptions:
            prop["description"] = descriptions[name]
        if param.default is inspect.Parameter.empty:
            required.append(name)
        else:
            prop["default"] = param.default
        properties[name] = prop
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _type_ok(value: Any, json_type: str) -> bool:
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    python_type = {"string": str, "boolean": bool, "array": list, "object": dict}.get(json_type)
    return python_type is None or isinstance(value, python_type)


def _shown(value: Any, limit: int = 60) -> str:
    """A short repr for an error message: long values are cut, so the message stays a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def validate_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """Check decoded tool ``arguments`` against a ``parameters`` schema; return the problems found."""
    properties: dict[str, Any] = schema.get("properties", {})
    problems = [f"argument `{name}` is required" for name in schema.get("required", []) if name not in arguments]
    for name, value in arguments.items():
        spec = properties.get(name)
        if spec is None:
            if schema.get("additionalProperties", True) is False:
                allowed = ", ".join(f"`{p}`" for p in properties) or "none"
                problems.append(f"unknown argument `{name[:60]}` (allowed: {allowed})")  # a name can be any length
            continue
        expected = spec.get("type")
        if expected and not _type_ok(value, expected):
            problems.append(f"argument `{name}` must be of type {expected}, got {type(value).__name__}")
            continue
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
            problems.append(f"argument `{name}` is an integer of {value.bit_length()} bits; the limit is 64")
            continue
        if "enum" in spec and value not in spec["enum"]:
            problems.append(f"argument `{name}` must be one of {spec['enum']}, got {_shown(value)}")
        if isinstance(value, str) and len(value) > spec.get("maxLength", len(value)):
            problems.append(f"argument `{name}` is {len(value)} characters long; the limit is {spec['maxLength']}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in spec and value < spec["minimum"]:
                problems.append(f"argument `{name}` must be at least {spec['minimum']}, got {value}")
            if "maximum" in spec and value > spec["maximum"]:
                problems.append(f"argument `{name}` must be at most {spec['maximum']}, got {value}")
    return problems
