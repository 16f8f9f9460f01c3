"""Exercise checks for lesson 06 (tools and schemas): derive a schema, decide an argument policy, write a tool.

``check_derive_schema(derive_schema)`` compares the learner's schema derivation
with the package's ``schema_from_function`` on several signatures (defaults,
``Literal``, ``bool``, no docstring, a bound method, ``**kwargs``, a missing
hint). ``check_argument_policy(policy)`` grades a design by its properties: calls
in ``ACCEPT`` run once with values that mean what was sent, calls in ``REFUSE``
never run and get an ``Error`` naming each wrong argument, and each ``GREY`` call
may go either way (the check prints what the policy did). ``check_word_count_tool``
checks a whole tool, and ``check_stretch_schema`` the stretch task (``list[X]``
and ``X | None``). The checks judge behaviour, never how the code is written.
"""

from __future__ import annotations

import inspect
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


# ---------------------------------------------------------------- exercise 06.2: an argument policy (design)

_SEARCH = schema_from_function(search_notes)
_CONVERT = schema_from_function(convert_distance)
_SHOUT = schema_from_function(shout)
_OPEN = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}  # extras allowed

# (what the call is, schema, arguments). ACCEPT: run once, with values that mean what was sent.
ACCEPT: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("a good call", _SEARCH, {"query": "order 4821", "top_k": 2}),
    ("the default left out", _SEARCH, {"query": "order 4821"}),
    ("an integer where a number belongs", _CONVERT, {"amount": 3}),
    ("a boolean where it belongs", _SHOUT, {"text": "hi", "loud": True, "times": 2}),
    ("an extra argument a schema allows", _OPEN, {"city": "Oslo", "units": "metric"}),
]
# REFUSE: never run; an Error naming every argument in the second field (others may be named too, if sent or in
# the schema: "allowed: `query`, `top_k`" helps the model).
REFUSE: list[tuple[str, dict[str, Any], dict[str, Any], set[str]]] = [
    ("nothing at all", _SEARCH, {}, {"query"}),
    ("a required argument missing", _SEARCH, {"top_k": 2}, {"query"}),
    ("true where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": True}, {"top_k"}),
    ("2.5 where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": 2.5}, {"top_k"}),
    ("a word where an integer belongs", _SEARCH, {"query": "order 4821", "top_k": "two"}, {"top_k"}),
    ("1 where a boolean belongs", _SHOUT, {"text": "hi", "loud": 1}, {"loud"}),
    ("a value outside the enum", _CONVERT, {"amount": 3.5, "unit": "miles"}, {"unit"}),
    ("three mistakes at once", _CONVERT, {"amount": "far", "unit": "parsec", "speed": 1}, {"amount", "unit"}),
]
# GREY: your policy decides. Run with values that mean what was sent, or refuse naming the argument.
GREY: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ('"2" where an integer belongs', _SEARCH, {"query": "order 4821", "top_k": "2"}, "top_k"),
    ('"3.5" where a number belongs', _CONVERT, {"amount": "3.5"}, "amount"),
    ('"true" where a boolean belongs', _SHOUT, {"text": "hi", "loud": "true"}, "loud"),
    ("an unknown argument (a typo)", _SEARCH, {"query": "order 4821", "limit": 2}, "limit"),
]


class _Run:
    """A tool's run that records each call, so the check sees whether the policy ran it and with what."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, **arguments: Any) -> str:
        self.calls.append(arguments)
        return "ran"


def _same_meaning(sent: Any, passed: Any) -> bool:
    """``passed`` is ``sent`` or a conversion that loses nothing: 3 -> 3.0, "2" -> 2, "true" -> True."""
    if type(sent) is type(passed):
        return sent == passed
    if type(sent) is int and type(passed) is float:
        return float(sent) == passed
    if isinstance(sent, str) and type(passed) in (int, float):
        try:
            return float(sent.strip()) == passed
        except ValueError:
            return False
    if isinstance(sent, str) and type(passed) is bool:
        return sent.strip().lower() == str(passed).lower()
    return False


def _named(reply: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", reply))


def _ran_well(label: str, schema: dict[str, Any], sent: dict[str, Any], run: _Run, reply: Any) -> str | None:
    """Why a call that ran broke a property, or None."""
    if len(run.calls) != 1:
        return f"run was called {len(run.calls)} times; call it exactly once"
    passed = run.calls[0]
    problems = validate_arguments(schema, passed)
    if problems:
        return f"run received {passed}, which the schema refuses ({problems[0]}): whatever you let through must fit it"
    for name, value in passed.items():
        if name in sent and not _same_meaning(sent[name], value):
            return (f"run received `{name}` = {value!r} for the {sent[name]!r} that was sent: a conversion may change "
                    "the type, never the value (2.5 is not 2)")
        if name not in sent and value != schema["properties"].get(name, {}).get("default", object()):
            return f"run received `{name}` = {value!r}, which was not sent and is not its default"
    dropped = [name for name in sent if name in schema.get("properties", {}) and name not in passed]
    if dropped:
        return f"run never received `{dropped[0]}`, which was sent and which the schema knows"
    if not (isinstance(reply, str) and reply.startswith("ran")):
        return f"the reply should be what run returned ('ran'), a note after it at most; got {reply!r}"
    return None


def _refused_well(schema: dict[str, Any], sent: dict[str, Any], must_name: set[str], run: _Run, reply: Any) -> str | None:
    """Why a call that should not run broke a property, or None."""
    if run.calls:
        return f"run was called with {run.calls[0]}: a refused call must never reach the tool"
    if not (isinstance(reply, str) and reply.startswith("Error")):
        return f"the reply should be a text starting with 'Error' for the model to act on, got {reply!r}"
    missing = must_name - _named(reply)
    if missing:
        return (f"the reply {reply!r} does not name {sorted(missing)} in backticks: name every argument that is wrong, "
                "so the model can fix them all in one go")
    stray = _named(reply) - set(sent) - set(schema.get("properties", {}))
    if stray:
        return f"the reply {reply!r} names {sorted(stray)}, which was neither sent nor in the schema"
    return None


def _policy_test(policy: Callable[[Callable[..., str], dict[str, Any], dict[str, Any]], Any], rows: list[str]) -> None:
    doc = inspect.getdoc(policy) or ""
    policy(_Run(), _SEARCH, {"query": "order 4821"})  # a stub raises NotImplementedError here
    assert len(doc.split()) >= 8, ("state your policy for the grey cases in the function's docstring (a sentence or "
                                   "two: what you convert, what you refuse, why); the check prints it")
    for label, schema, sent in ACCEPT:
        run = _Run()
        why = _ran_well(label, schema, sent, run, policy(run, schema, dict(sent)))
        assert why is None, f"{label}, {sent}, must run: {why}"
    for label, schema, sent, must_name in REFUSE:
        run = _Run()
        why = _refused_well(schema, sent, must_name, run, policy(run, schema, dict(sent)))
        assert why is None, f"{label}, {sent}, must be refused: {why}"
    rows.append("Your policy, in your words:\n  " + doc.replace("\n", "\n  "))
    rows.append("What it did with the grey cases:")
    for label, schema, sent, name in GREY:
        run = _Run()
        reply = policy(run, schema, dict(sent))
        if run.calls:
            why = _ran_well(label, schema, sent, run, reply)
            rows.append(f"  {label}: runs with {run.calls[0]}")
        else:
            why = _refused_well(schema, sent, {name}, run, reply)
            rows.append(f"  {label}: refused, {reply!r}")
        assert why is None, f"{label}, {sent}, is yours to decide, but: {why}"


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


def check_argument_policy(policy: Callable[[Callable[..., str], dict[str, Any], dict[str, Any]], Any]) -> bool:
    """Check exercise 06.2 (design): ``policy(run, schema, arguments)`` runs good calls, refuses bad ones, decides the rest."""
    rows: list[str] = []
    passed = check("Exercise 06.2 (an argument policy)", lambda: _policy_test(policy, rows), SOLUTION)
    if passed:  # after the verdict: what the design decided, for the learner to read against the rubric
        print("\n".join(rows))
    return passed


def check_word_count_tool(tool_class: type[Tool]) -> bool:
    """Check exercise 06.3: a ``word_count`` tool, typed and documented ``run(text, unique=False)``."""
    return check("Exercise 06.3 (a word_count tool)", lambda: _word_count_test(tool_class), SOLUTION)


def check_stretch_schema(derive_schema: Callable[[Callable[..., Any]], dict[str, Any]]) -> bool:
    """Check stretch 06: ``derive_schema`` also handles ``list[X]`` and ``X | None`` like the package."""
    return check("Stretch 06 (lists and optional values)", lambda: _stretch_test(derive_schema), SOLUTION)


EXERCISES = [
    Exercise("06.1", designs="a schema derivation from a signature: types, defaults, docstring descriptions, and a "
             "refusal to guess a missing hint", kind="specification", minutes=25, solution=("derive_schema",)),
    Exercise("06.2", designs="a policy for a model's arguments: which it runs, which it refuses (every problem named, "
             "true not an integer), and what it does with \"2\" for an integer or a typo", kind="design", minutes=25,
             solution=("strict_call", "lenient_call"), check="check_argument_policy"),
    Exercise("06.3", designs="a word_count tool whose schema comes from its own signature (the lesson's recipe)",
             kind="warm-up", minutes=10, solution=("WordCountTool",)),
    Exercise("Stretch 06", designs="lists (list[X]) and optional values (X or None, Optional[X]) in the schema derivation", kind="stretch",
             minutes=20, solution=("derive_schema_plus",)),
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


def _key_int_escape() -> str:
    """06: the naive calculator (eval, empty builtins, math's names) on an escape that starts from an int."""
    import math

    try:
        found = eval("(1).__class__.__mro__[-1].__subclasses__()", {"__builtins__": {}}, vars(math))  # noqa: S307
    except NameError:
        return "b"
    except SyntaxError:
        return "c"
    names = {cls.__name__ for cls in found}
    return only_true({"a": {"int", "tuple", "BuiltinImporter"} <= names, "d": names == {"bool"}})


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
        "Predict: section 4's naive calculator, `eval(expression, {\"__builtins__\": {}}, vars(math))`, is given "
        "`(1).__class__.__mro__[-1].__subclasses__()`. What comes back?",
        {"a": "A list of every class loaded in the process: an int leads to `object` as surely as a tuple does",
         "b": "A NameError: with empty builtins and only math's names, `__class__` is a name it cannot find",
         "c": "A SyntaxError: a number literal cannot have attributes",
         "d": "`[bool]`, the subclasses of int: the walk cannot climb above the literal's own class"},
        "a",
        "any literal reaches `object` through its class's `__mro__`, and `object.__subclasses__()` lists every "
        "loaded class; emptying the builtins hides names, not objects, so the kit parses and whitelists instead.",
        {"b": "`__class__` is an attribute, not a name: attribute access needs no builtins at all.",
         "c": "`(1).__class__` is valid Python; only `1.__class__` without parentheses reads as a broken float.",
         "d": "`__mro__[-1]` is `object`, the last class of every method resolution order; its subclasses are "
              "every class."},
        kind="predict", case=("(1).__class__.__mro__[-1].__subclasses__()",), compute=_key_int_escape),
])
