"""Claims in 06_tools, each tied to the output that makes it true."""

import math
import re
from functools import partial

from lesson_claims import Claim, Lesson, quiz_key_holds
from request_model import check_request_model

from aria_kit.demo_data import DEMO_FACTS
from aria_kit.exercises import lesson06
from aria_kit.solutions.lesson06 import WordCountTool

LESSON = Lesson("06_tools")


def _tools_table() -> list[str]:
    return [line for line in LESSON.output("default_tools(memory)").splitlines() if line.endswith("…")]


def _parameters() -> str:
    return LESSON.output("Every parameter the model can fill in")


def _out_of_range_row() -> bool:
    row = next(line for line in LESSON.output("memory_search.invoke(...)").splitlines()
               if line.startswith("the right type, out of range"))
    assert '"top_k": 50' in row and "invalid arguments for `memory_search`: argument `top_k` must be at most 10, " \
        "got 50" in row, row  # refused by invoke, from the schema, before run
    return True


def _limits() -> dict[tuple[str, str], tuple[str, str, str]]:
    """(tool, parameter) -> (type, max length, range) from the table of every parameter."""
    rows = [line.split() for line in _parameters().splitlines()[3:]]
    return {(r[0], r[1]): (r[2], r[5], " ".join(r[6:9]) if r[7:8] == ["to"] else r[6]) for r in rows}


def _every_text_has_a_max_length_and_top_k_a_range() -> bool:
    limits = _limits()
    assert all(length != "—" for kind, length, _ in limits.values() if kind == "string"), limits
    assert {key for key, (_, _, bounds) in limits.items() if bounds != "—"} == {("memory_search", "top_k")}, limits
    assert limits[("memory_search", "top_k")][2] == "1 to 10"
    return True


def _schema_has_the_declared_bounds() -> bool:
    schema = LESSON.output("print(json.dumps(search_tool.schema(), indent=2))")
    assert all(part in schema for part in ('"maxLength": 1000', '"minimum": 1', '"maximum": 10')), schema
    return True


def _top_k_optional_with_its_default() -> bool:
    schema = LESSON.output("print(json.dumps(search_tool.schema(), indent=2))")
    assert '"default": 3' in schema and re.search(r'"required": \[\s*"query"\s*\]', schema), schema
    return True


def _two_policies() -> bool:
    """The two shipped designs of 06.2: the strict one refuses every grey case, the lenient one runs every one."""
    from aria_kit.solutions.lesson06 import SOLUTIONS

    (strict,), (lenient,) = SOLUTIONS["06.2"]
    for _, schema, sent, _ in lesson06.GREY:
        runs = [lesson06._Run(), lesson06._Run()]
        assert strict(runs[0], schema, dict(sent)).startswith("Error") and not runs[0].calls, sent
        assert lenient(runs[1], schema, dict(sent)).startswith("ran") and runs[1].calls, sent
    return True


_key_holds = partial(quiz_key_holds, "06")  # Q{number}'s computed key is its answer


def _stretch_asks_for_two() -> bool:
    """The stretch check derives one signature, whose hints are list[X], Optional[X] and X | None: no dict, no Bounds."""
    import inspect
    import typing

    from aria_kit.exercises import lesson06

    assert "tags_and_limit" in inspect.getsource(lesson06._stretch_test)
    hints = typing.get_type_hints(lesson06.tags_and_limit, include_extras=True)
    origins = {typing.get_origin(hint) for name, hint in hints.items() if name != "return"}
    assert origins == {list, typing.Union} or origins == {list, typing.Union, __import__("types").UnionType}, origins
    return True


CLAIMS = [
    # The quiz: predict keys computed by the kit on the question's case.
    Claim("the signature gives the type and the default, and a default means optional", lambda: _key_holds(1)),
    Claim("\"boolean\", \"default\": true}, not required, with no description", lambda: _key_holds(1)),
    Claim("the default makes it optional, and the default comes from the signature", lambda: _key_holds(1)),
    Claim("\"ssd prices\", \"top_k\": 0}` to memory_search", lambda: _key_holds(2)),
    Claim("the range 1 to 10 is part of the schema", lambda: _key_holds(2) and lesson06.QUIZ.questions[1].answer == "c"
          and "1 to 10" in LESSON.output("Every parameter the model can fill in")),
    Claim("must be at least 1, got 0', and run is not called", lambda: _key_holds(2)),
    Claim("a default applies only when the argument is missing", lambda: _key_holds(2)),
    Claim("max(3, 9) is valid Python and parses fine", lambda: __import__("ast").parse("max(3, 9)") and _key_holds(3)),
    Claim("which says who the agent is and becomes its system message", check_request_model),
    Claim("holding the seven demo facts", lambda: len(DEMO_FACTS) == 7
          and [line.split()[0] for line in _tools_table()][:2] == ["memory_store", "memory_search"]),
    Claim("The same information for all four tools", lambda: len(_tools_table()) == 4),
    Claim("Every text a tool reads or stores has a `maxLength`, and `top_k` has a range",
          _every_text_has_a_max_length_and_top_k_a_range),
    Claim("became `maxLength`, `minimum` and `maximum`", _schema_has_the_declared_bounds),
    Claim("the range is part of the schema, so `invoke` refuses 50 before `run` is called", _out_of_range_row),
    Claim("The parameter with a default is optional and carries its default", _top_k_optional_with_its_default),
    Claim("on five signatures and one without a hint", lambda: len(lesson06.SIGNATURES) == 5),
    Claim("The check sends 17 calls", lambda: len(lesson06.ACCEPT) + len(lesson06.REFUSE) + len(lesson06.GREY) == 17),
    Claim("shows two designs, one strict and one that converts", _two_policies),
    Claim("the stretch task asks for two of them", _stretch_asks_for_two),
    Claim("Predict: section 4's naive calculator", lambda: _key_holds(4)),
    Claim("has about 370 million digits",
          lambda: round(9**9 * math.log10(9) / 1e6) == 370),
    Claim("it counts each distinct word once, ignoring case",
          lambda: (WordCountTool().run("The cat and the hat"), WordCountTool().run("The cat and the hat", unique=True))
          == ("5", "4")),
]
EXEMPT = {
    "\"integer\", \"default\": true}: in Python a bool is an int": "a wrong option; the computed key rules it out",
    "The default 3 memories: 0 is falsy": "a wrong option; the computed key rules it out",
    "9: max is a harmless builtin": "a wrong option; the computed key rules it out",
    "lessons 01 (the `Tool` contract) and 04": "prerequisites, naming lessons",
    "\"22 * 6.5\"}`\"; our code runs the tool": "an example call, not an output",
    "1.": "list numbering",
    "2.": "list numbering",
    "a lookup in a small built-in knowledge base (OpenAI, RAG, BM25)": "names the three topics of the simulated web "
                                                                      "(aria_kit/tools.py); 'BM25' is a name",
    "note the type hints, the default and the": "points at the code printed below; no number",
    "one property per parameter, in signature order": "a specification of the exercise",
    "a parameter with a default is optional and carries `\"default\"`": "a specification of the exercise",
    "Let the schema come from `run`: type hints, a default": "a specification of the exercise",
    "a missing hint is an error, not a guess": "recap of cell 16's TypeError; 'derived' names, no number",
    "(the default left out), `3` where a number belongs": "a specification of exercise 06.2 (lesson06.ACCEPT holds "
                                                           "both calls)",
    "all it needs to fix its call in one round": "a rubric question for the learner",
    "`X | None` and `Optional[X]`, which become the schema of `X`": "a specification of the stretch task",
    "Everything exercise 06.1 checked must still hold": "a specification of the stretch task",
    "(`Query` is `Annotated[str, Bounds(maxLength=1000)]`": "quotes the signature printed in cell 5",
}
