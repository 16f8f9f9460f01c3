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


def _key_schema_without_docstring() -> str:
    """06: run(self, query: str, top_k: int = 3) with no docstring."""
    from aria_kit.interfaces import Tool

    class Search(Tool):
        name = "search"
        description = "Search."

        def run(self, query: str, top_k: int = 3) -> str:
            return query

    parameters = Search().schema()["function"]["parameters"]
    top_k = parameters["properties"].get("top_k")
    if top_k is None:
        return "a"
    typed = top_k.get("type") == "integer" and top_k.get("default") == 3 and "top_k" not in parameters["required"]
    return only_true({"b": typed and "description" not in top_k, "c": typed and "description" in top_k})


def _key_top_k_true() -> str:
    """06: memory_search gets {"query": "order 4821", "top_k": true}."""
    answer, ran = _key_memory_search_answer({"query": "order 4821", "top_k": True})
    refused = answer.startswith("Error:") and "`top_k` must be of type integer, got bool" in answer
    return only_true({"a": ran and not answer.startswith("Error:"), "b": answer.startswith("raised"),
                      "c": refused and not ran})


def _key_top_k_over_maximum() -> str:
    """06: memory_search gets {"query": "order 4821", "top_k": 50}, its schema's maximum being 10."""
    answer, ran = _key_memory_search_answer({"query": "order 4821", "top_k": 50})
    return only_true({"a": ran and not answer.startswith(("Error:", "raised")), "b": answer.startswith("Error:")
                      and "top_k" in answer and not ran, "c": False, "d": answer.startswith("raised ValueError")})


QUIZ = Quiz("Lesson 06", [
    Question(
        "A tool's `run(self, query: str, top_k: int = 3)` has no docstring. What does the model learn about `top_k`?",
        {"a": "Nothing: without a docstring the parameter is left out of the schema",
         "b": "Its type (integer), that it is optional, and its default 3, but no description",
         "c": "Its type, default and a description guessed from its name"},
        "b",
        "the signature alone gives the type, the default and so 'not required'; only descriptions need the docstring.",
        {"a": "every typed parameter is in the schema; the docstring only adds descriptions.",
         "c": "nothing is guessed: no `top_k: …` line, no description. A model then has only the name to go on."}, kind="predict", case=("top_k: int = 3", "no docstring"), compute=_key_schema_without_docstring),
    Question(
        "The model sends `{\"query\": \"order 4821\", \"top_k\": true}` to memory_search. What happens?",
        {"a": "top_k is read as 1, because in Python True == 1",
         "b": "run raises TypeError and the agent crashes",
         "c": "invoke answers 'Error: … `top_k` must be of type integer, got bool' and run is not called"},
        "c",
        "JSON true is a boolean, not an integer; validation refuses it before run, and the model can fix its call.",
        {"a": "that is exactly the mistake a validator must not make: isinstance(True, int) is true in Python, "
              "so the check has to rule bool out explicitly.",
         "b": "invoke validates first and answers with text; a bad argument never reaches run."}, kind="predict", case=('"top_k": true', "true"), compute=_key_top_k_true),
    Question(
        "Why does the kit refuse `().__class__.__base__.__subclasses__()` instead of running it with empty builtins?",
        {"a": "Empty builtins hide names, not objects: the expression walks from a tuple to every loaded class",
         "b": "It is too slow to compute",
         "c": "It uses a name that is not in math"},
        "a",
        "`eval` with no builtins is not a sandbox; the calculator parses the text and allows a short whitelist.",
        {"b": "it is instant; the problem is what it reaches (BuiltinImporter, os), not how long it takes.",
         "c": "it uses no name at all, only attributes of a literal, which is why hiding names does not help."}, kind="explain", case=("().__class__.__base__.__subclasses__()",)),
    Question(
        "memory_search declares `top_k: Annotated[int, Bounds(minimum=1, maximum=10)] = 3`. The model sends "
        "`{\"query\": \"order 4821\", \"top_k\": 50}`. What happens?",
        {"a": "run starts the search and stops at 10 hits, since the memory returns at most that many",
         "b": "invoke refuses it from the schema's maximum, with a message naming top_k, and run is not called",
         "c": "It goes through: Annotated is only a comment for people, so the model's value is used as sent",
         "d": "The agent crashes with a ValueError raised inside run"},
        "b",
        "the bound is part of the schema the model sees and of the validation invoke runs before run; the lesson's "
        "table shows the refusal.",
        {"a": "validation comes first: a value outside the declared range never reaches run, which would refuse it "
              "too (it checks the range again for callers that bypass invoke).",
         "c": "the derivation reads Annotated's Bounds into the schema (minimum and maximum), and invoke enforces "
              "them; that is why they are declared on the parameter.",
         "d": "tools answer with text, never by crashing the agent: a refused argument comes back as an Error: "
              "message the model can act on."}, kind="predict", case=('"top_k": 50', "maximum=10"), compute=_key_top_k_over_maximum),
])
