"""Exercise checks for lesson 06 (tools and schemas): derive a schema, validate arguments, write a tool.

``check_derive_schema(derive_schema)`` compares the learner's schema derivation
with the package's ``schema_from_function`` on several signatures (defaults,
``Literal``, ``bool``, no docstring, a bound method, ``**kwargs``, a missing
hint). ``check_check_arguments(check_arguments)`` compares the learner's
validator with ``validate_arguments``: for each call it must find a problem with
the same arguments (the wording is the learner's own). ``check_word_count_tool``
checks a whole tool, and ``check_stretch_schema`` the stretch task (``list[X]``
and ``X | None``). The checks judge behaviour, never how the code is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, Optional

from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true
from aria_kit.interfaces import Tool
from aria_kit.schemas import schema_from_function, validate_arguments

SOLUTION = "lesson06"


# ---------------------------------------------------------------- signatures the checks derive schemas from


def search_notes(query: str, top_k: int = 3) -> str:
    """Search the notes.

    query: What to look for.
    top_k: How many notes to return.
    """
    return ""


def convert_distance(amount: float, unit: Literal["km", "mi"] = "km") -> str:
    """Convert a distance.

    Args:
        amount: The distance to convert.
        unit: The unit `amount` is in.

    Returns: the distance in the other unit.
    """
    return ""


def shout(text: str, loud: bool = False, times: int = 1) -> str:  # no docstring: no descriptions
    return ""


def log_event(message: str, **extra: str) -> str:
    """message: What happened."""
    return ""


class Greeter:
    def run(self, name: str, polite: bool = True) -> str:
        """name: Whom to greet."""
        return ""


def untyped(amount, unit: str = "km") -> str:
    """amount: The distance."""
    return ""


def tags_and_limit(tags: list[str], limit: Optional[int] = None, note: str | None = None) -> str:
    """tags: Labels to match, all of them.
    limit: At most this many results.
    """
    return ""


SIGNATURES: list[tuple[str, Callable[..., Any]]] = [
    ("search_notes(query: str, top_k: int = 3)", search_notes),
    ('convert_distance(amount: float, unit: Literal["km", "mi"] = "km")', convert_distance),
    ("shout(text: str, loud: bool = False, times: int = 1), no docstring", shout),
    ("log_event(message: str, **extra: str)", log_event),
    ("Greeter().run, a bound method with `self`", Greeter().run),
]


def _first_difference(mine: dict[str, Any], reference: dict[str, Any]) -> str:
    """Name the first thing that differs between two parameter schemas, in words a learner can act on."""
    for key in ("type", "additionalProperties"):
        if mine.get(key) != reference.get(key):
            return f"the top level should have {key!r}: {reference.get(key)!r}, yours has {mine.get(key)!r}"
    mine_props, ref_props = mine.get("properties") or {}, reference.get("properties") or {}
    if list(mine_props) != list(ref_props):
        return f"the properties should be {list(ref_props)} (in signature order), yours are {list(mine_props)}"
    for name, ref in ref_props.items():
        got = mine_props[name]
        for key in sorted(set(ref) | set(got)):
            if got.get(key) != ref.get(key):
                if key not in ref:
                    return f"`{name}` should have no {key!r} (yours says {got[key]!r})"
                return f"`{name}` should have {key!r}: {ref[key]!r}, yours has {got.get(key)!r}"
    if mine.get("required") != reference.get("required"):
        return (f"'required' should be {reference.get('required')!r} (the parameters without a default, in order), "
                f"yours is {mine.get('required')!r}")
    extra = sorted(set(mine) - set(reference))
    return f"yours has extra keys {extra}" if extra else "the two differ"


def _derive_test(derive_schema: Callable[[Callable[..., Any]], dict[str, Any]]) -> None:
    for label, fn in SIGNATURES:
        mine, reference = derive_schema(fn), schema_from_function(fn)
        assert isinstance(mine, dict), f"derive_schema returned a {type(mine).__name__}; return a dict"
        assert mine == reference, f"for {label}: {_first_difference(mine, reference)}"
    try:
        result = derive_schema(untyped)
    except TypeError:
        return
    raise AssertionError(f"untyped(amount, unit: str = 'km') has no hint on `amount`; raise TypeError instead of "
                         f"guessing (you returned {result!r})")


# ---------------------------------------------------------------- argument validation

_SEARCH = schema_from_function(search_notes)
_CONVERT = schema_from_function(convert_distance)
_SHOUT = schema_from_function(shout)
_OPEN = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}  # extras allowed

CALLS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("a good call", _SEARCH, {"query": "order 4821", "top_k": 2}),
    ("the default left out", _SEARCH, {"query": "order 4821"}),
    ("a required argument missing", _SEARCH, {"top_k": 2}),
    ("an unknown argument", _SEARCH, {"query": "order 4821", "limit": 2}),
    ("a string where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": "2"}),
    ("true where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": True}),
    ("2.5 where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": 2.5}),
    ("an integer where a number belongs", _CONVERT, {"amount": 3}),
    ("a value outside the enum", _CONVERT, {"amount": 3.5, "unit": "miles"}),
    ("three mistakes at once", _CONVERT, {"amount": "far", "unit": "parsec", "speed": 1}),
    ("1 where a boolean belongs", _SHOUT, {"text": "hi", "loud": 1}),
    ("a boolean where it belongs", _SHOUT, {"text": "hi", "loud": True, "times": 2}),
    ("an extra argument a schema allows", _OPEN, {"city": "Oslo", "units": "metric"}),
    ("nothing at all", _SEARCH, {}),
]


def _named(problems: list[str]) -> list[str]:
    """The argument each problem is about: the first name in backticks."""
    names = []
    for problem in problems:
        match = re.search(r"`([^`]+)`", problem)
        names.append(match.group(1) if match else "?")
    return sorted(names)


def _arguments_test(check_arguments: Callable[[dict[str, Any], dict[str, Any]], list[str]]) -> None:
    for label, schema, arguments in CALLS:
        mine = check_arguments(schema, dict(arguments))
        assert isinstance(mine, list) and all(isinstance(p, str) for p in mine), (
            f"check_arguments should return a list of strings, got {mine!r}")
        expected = _named(validate_arguments(schema, arguments))
        if not expected:
            assert not mine, f"{label} ({arguments}) is valid, but you reported {mine}"
            continue
        assert "?" not in _named(mine), (
            f"for {label} you reported {mine}: put the argument's name in backticks, e.g. \"argument `query` is required\"")
        assert _named(mine) == expected, (
            f"for {label} ({arguments}) expected one problem about each of {expected}, you reported {mine}")


# ---------------------------------------------------------------- a whole tool


def _word_count_test(tool_class: type[Tool]) -> None:
    tool = tool_class()
    # Call run first: an untouched stub raises NotImplementedError here and reads as "not done yet".
    first = tool.run(text="The cat and the hat")
    assert first == "5", f'run(text="The cat and the hat") returned {first!r}; expected "5"'
    assert tool.name == "word_count", f'the tool is called {tool.name!r}; set name = "word_count"'
    assert tool.description.strip(), "the description is empty; tell the model what the tool does"

    parameters = tool.schema()["function"]["parameters"]
    properties: dict[str, Any] = parameters["properties"]
    assert set(properties) == {"text", "unique"}, (
        f"the schema's parameters are {sorted(properties)}; run should take exactly `text` and `unique`")
    assert properties["text"].get("type") == "string", "`text` should be a string: annotate it `text: str`"
    assert properties["unique"].get("type") == "boolean", "`unique` should be a boolean: annotate it `unique: bool`"
    assert parameters["required"] == ["text"], (
        f"required parameters are {parameters['required']}; only `text` should be required (give `unique` a default)")
    assert properties["unique"].get("default") is False, "`unique` should default to False"
    for name in ("text", "unique"):
        assert properties[name].get("description"), (
            f"`{name}` has no description; add a line `{name}: what it means` to run's docstring")

    # invoke is what the agent calls with the model's raw JSON: validation comes for free from the schema.
    unique = tool.invoke('{"text": "The cat and the hat", "unique": true}')
    assert unique == "4", f'with unique=true, "The cat and the hat" has 4 distinct words (ignoring case), got {unique!r}'
    assert tool.invoke('{"text": "   "}') == "0", "a text of only spaces has 0 words"
    missing = tool.invoke("{}")
    assert missing.startswith("Error:") and "`text` is required" in missing, (
        f"invoke('{{}}') should report that `text` is required, got {missing!r}")
    wrong = tool.invoke('{"text": 42}')
    assert wrong.startswith("Error:"), f"invoke with text=42 should be refused by the schema, got {wrong!r}"


def _stretch_test(derive_schema: Callable[[Callable[..., Any]], dict[str, Any]]) -> None:
    mine, reference = derive_schema(tags_and_limit), schema_from_function(tags_and_limit)
    assert mine == reference, (f"for tags_and_limit(tags: list[str], limit: Optional[int] = None, "
                               f"note: str | None = None): {_first_difference(mine, reference)}")
    _derive_test(derive_schema)  # the extension must not break what already worked


def check_derive_schema(derive_schema: Callable[[Callable[..., Any]], dict[str, Any]]) -> bool:
    """Check exercise 06.1: ``derive_schema(fn)`` equals ``schema_from_function(fn)`` on several signatures."""
    return check("Exercise 06.1 (derive a schema)", lambda: _derive_test(derive_schema), SOLUTION)


def check_check_arguments(check_arguments: Callable[[dict[str, Any], dict[str, Any]], list[str]]) -> bool:
    """Check exercise 06.2: ``check_arguments`` finds a problem with the same arguments as ``validate_arguments``."""
    return check("Exercise 06.2 (validate arguments)", lambda: _arguments_test(check_arguments), SOLUTION)


def check_word_count_tool(tool_class: type[Tool]) -> bool:
    """Check exercise 06.3: a ``word_count`` tool, typed and documented ``run(text, unique=False)``."""
    return check("Exercise 06.3 (a word_count tool)", lambda: _word_count_test(tool_class), SOLUTION)


def check_stretch_schema(derive_schema: Callable[[Callable[..., Any]], dict[str, Any]]) -> bool:
    """Check stretch 06: ``derive_schema`` also handles ``list[X]`` and ``X | None`` like the package."""
    return check("Stretch 06 (lists and optional values)", lambda: _stretch_test(derive_schema), SOLUTION)


EXERCISES = [
    Exercise("06.1", designs="a schema derivation from a signature: types, defaults, docstring descriptions, and a "
             "refusal to guess a missing hint", kind="specification", minutes=25, solution=("derive_schema",)),
    Exercise("06.2", designs="an argument validator that reports every problem at once, with true not an integer",
             kind="specification", minutes=20, solution=("check_arguments",)),
    Exercise("06.3", designs="a word_count tool whose schema comes from its own signature (the lesson's recipe)",
             kind="warm-up", minutes=10, solution=("WordCountTool",)),
    Exercise("Stretch 06", designs="lists (list[X]) and optional values (X or None, Optional[X]) in the schema derivation", kind="stretch",
             minutes=25, solution=("derive_schema_plus",)),
]

# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_memory_search_answer(arguments: dict) -> tuple[str, bool]:
    """What memory_search's invoke answers for ``arguments``, and whether run was called."""
    import json

    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import MemorySearchTool

    class Counted(HybridMemory):  # run's only work is a search, so a search is a call to run
        def search(self, *args, **kwargs):
            calls.append(args)
            return super().search(*args, **kwargs)

    calls: list[tuple] = []
    tool = MemorySearchTool(Counted())
    tool.memory.store("Order #4821 was for 32 GB of DDR5 RAM.")
    try:
        answer = tool.invoke(json.dumps(arguments))
    except Exception as exc:  # noqa: BLE001 - an exception is an outcome an option names
        return f"raised {type(exc).__name__}", bool(calls)
    return answer, bool(calls)


def _key_bool_with_a_default() -> str:
    """06: the schema of `remind: bool = True`, a parameter without a docstring line."""
    from aria_kit.schemas import schema_from_function

    def schedule(title: str, minutes: int, remind: bool = True) -> str:
        """Put a meeting in the calendar.

        title: What the meeting is about.
        minutes: How long it lasts.
        """
        return title

    parameters = schema_from_function(schedule)
    remind = parameters["properties"].get("remind")
    if remind is None:
        return "d"
    return only_true({"a": remind.get("type") == "integer",
                      "b": remind == {"type": "boolean", "default": True} and "remind" not in parameters["required"],
                      "c": remind.get("type") == "boolean" and "remind" in parameters["required"]})


def _key_top_k_zero() -> str:
    """06: memory_search gets {"query": "ssd prices", "top_k": 0}, its schema's minimum being 1."""
    answer, ran = _key_memory_search_answer({"query": "ssd prices", "top_k": 0})
    refused = answer.startswith("Error:") and "top_k" in answer and "at least 1" in answer
    return only_true({"a": ran and answer.startswith("No memories"), "c": refused and not ran,
                      "b": ran and answer.startswith("Found"), "d": answer.startswith("raised")})


def _key_calculator_max() -> str:
    """06: the kit's calculator on max(3, 9)."""
    from aria_kit.calculator import calculate

    try:
        answer = calculate("max(3, 9)")
    except Exception:  # noqa: BLE001 - an exception is an outcome an option names
        return "c"
    return only_true({"a": answer == "9", "d": answer.startswith("Error:") and "max" in answer,
                      "b": answer.startswith("Error:") and "max" not in answer})


QUIZ = Quiz("Lesson 06", [
    Question(
        "A tool's `run(self, title: str, minutes: int, remind: bool = True)` has docstring lines for `title` and "
        "`minutes` only. What does the derived schema say about `remind`?",
        {"a": "{\"type\": \"integer\", \"default\": true}: in Python a bool is an int",
         "b": "{\"type\": \"boolean\", \"default\": true}, not required, with no description",
         "c": "{\"type\": \"boolean\"}, and required: without a docstring line nothing says it is optional",
         "d": "Nothing: a parameter without a description is left out of the schema"},
        "b", "the signature gives the type and the default, and a default means optional; only the description "
             "comes from the docstring.",
        {"a": "issubclass(bool, int) is true, which is exactly why the derivation must test bool first: a model "
              "told 'integer' would send 1.",
         "c": "the default makes it optional, and the default comes from the signature, not from the docstring.",
         "d": "every typed parameter is in the schema; without a description the model has only the name to go on."},
        kind="predict", case=("remind: bool = True",), compute=_key_bool_with_a_default),
    Question(
        "The model sends `{\"query\": \"ssd prices\", \"top_k\": 0}` to memory_search. What comes back?",
        {"a": "'No memories found': run searches for zero memories and finds none",
         "b": "The default 3 memories: 0 is falsy, so the tool falls back to its default",
         "c": "'Error: … `top_k` must be at least 1, got 0', and run is not called",
         "d": "A ValueError from run, and the agent stops the turn"},
        "c", "the range 1 to 10 is part of the schema, and invoke validates against it before run; the model "
             "reads the message and can fix its call.",
        {"a": "a value outside the declared range never reaches run; the model learns its mistake instead of an "
              "empty answer it might believe.",
         "b": "a default applies only when the argument is missing; a value that is sent is checked, and 0 fails.",
         "d": "tools answer with text, never by crashing the agent: a refused argument comes back as an Error: "
              "message."},
        kind="predict", case=('"top_k": 0',), compute=_key_top_k_zero),
    Question(
        "The model asks the kit's calculator for `max(3, 9)`. What does calculate return?",
        {"a": "9: max is a harmless builtin, not an attribute walk",
         "b": "An Error: that the expression is not valid Python",
         "c": "Nothing: it raises NameError, since max is not in math",
         "d": "An Error: naming `max`, with the list of functions it may call"},
        "d", "the calculator allows only a whitelist (numbers, operators, pi, e, tau and math functions by name); "
             "anything else is refused before anything runs, harmless or not.",
        {"a": "a whitelist does not judge what is harmless; it allows what it lists, and max is not on it.",
         "c": "the calculator answers with text, never by raising: the model gets a message it can act on.",
         "b": "max(3, 9) is valid Python and parses fine; it is refused for calling a function outside the list."},
        kind="predict", case=("max(3, 9)",), compute=_key_calculator_max),
    Question(
        "Why does the kit refuse `().__class__.__base__.__subclasses__()` instead of running it with empty builtins?",
        {"a": "Empty builtins hide names, not objects: the expression walks from a tuple to every loaded class",
         "b": "It is too slow to compute",
         "c": "It uses a name that is not in math",
         "d": "It calls double-underscore methods, which Python keeps private to each class"},
        "a",
        "`eval` with no builtins is not a sandbox; the calculator parses the text and allows a short whitelist.",
        {"b": "it is instant; the problem is what it reaches (BuiltinImporter, os), not how long it takes.",
         "c": "it uses no name at all, only attributes of a literal, which is why hiding names does not help.",
         "d": "nothing in Python is private: double-underscore attributes are readable from any object, which is "
              "why the walk works."}, kind="explain", case=("().__class__.__base__.__subclasses__()",)),
])
