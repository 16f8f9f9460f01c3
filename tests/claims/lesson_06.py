"""Claims in 06_tools, each tied to the output that makes it true."""

import math
import re

from lesson_claims import Claim, Lesson
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


CLAIMS = [
    Claim("which says who the agent is and becomes its system message", check_request_model),
    Claim("store the seven demo facts in it", lambda: len(DEMO_FACTS) == 7),
    Claim("the same information for all four tools", lambda: len(_tools_table()) == 4),
    Claim("Every text a tool reads or stores has a `maxLength`, and `top_k` has a range",
          _every_text_has_a_max_length_and_top_k_a_range),
    Claim("became `maxLength`, `minimum` and `maximum`", _schema_has_the_declared_bounds),
    Claim("The range is part of the schema (the `range` column above)", _out_of_range_row),
    Claim("The parameter with a default is optional and carries its default", _top_k_optional_with_its_default),
    Claim("on five signatures and one without a hint", lambda: len(lesson06.SIGNATURES) == 5),
    Claim("on fourteen calls", lambda: len(lesson06.CALLS) == 14),
    Claim("the lesson's table shows the refusal", _out_of_range_row),
    Claim("which `Bounds` puts into a derived schema (the calculator's expression, below, has one)",
          lambda: _limits()[("calculator", "expression")][1] == "500"),
    Claim("is a number with about 370 million digits",
          lambda: round(9**9 * math.log10(9) / 1e6) == 370),
    Claim("it counts each distinct word once, ignoring upper and lower case",
          lambda: (WordCountTool().run("The cat and the hat"), WordCountTool().run("The cat and the hat", unique=True))
          == ("5", "4")),
]
EXEMPT = {
    "lessons 01 (the `Tool` contract) and 04": "prerequisites, naming lessons",
    "\"22 * 6.5\"}`\".": "an example call, not an output",
    "Two consequences are the subject of this lesson": "announces the two numbered points that follow",
    "1.": "list numbering",
    "2.": "list numbering",
    "which ones are required, what each one means": "'one' as a pronoun",
    "The two memory tools work on a memory": "two of the four tools named in the table above are memory tools; "
                                              "a count of names, not of an output",
    "a lookup in a small built-in knowledge base (OpenAI, RAG, BM25)": "names the three topics of the simulated web "
                                                                      "(aria_kit/tools.py); 'BM25' is a name",
    "swaps it for one that knows more": "describes lesson 09; 'one' as a pronoun",
    "Look at the type hints, the default value": "points at the code printed above; no number",
    "one property per parameter, in signature order": "a specification of the exercise",
    "a parameter with a default is optional and carries `\"default\"`": "a specification of the exercise",
    "The derivation does not guess one": "'one' as a pronoun",
    "one string per problem, **every** problem rather than the first": "a specification of the exercise",
    "a value outside the `\"enum\"`, when there is one": "a specification; 'one' as a pronoun",
    "This one is a warm-up": "'one' as a pronoun; the catalogue says warm-up (checked by test_exercise_catalogue)",
    "give both parameters type hints, give `unique` a default": "a specification of the exercise",
    "to see exactly what a model would be told about your tool": "an instruction to the learner",
    "a missing hint is an error, not a guess": "recap of cell 16's TypeError; 'derived' names, no number",
    "`X | None` and `Optional[X]` become the schema of `X`": "a specification of the stretch task",
    "Everything exercise 06.1 checked must still hold": "a specification of the stretch task",
    "the signature alone gives the type, the default and so 'not required'": "quiz explanation of the schema rule "
                                                                            "cell 6 states",
    "Its type (integer), that it is optional, and its default 3": "restates the signature in the question prompt",
    "Its type, default and a description guessed from its name": "a wrong option (a misconception)",
    "Annotated[int, Bounds(minimum=1, maximum=10)] = 3`.": "quiz prompt: the declaration the question asks about",
    "\"order 4821\", \"top_k\": 50}`": "the call the question asks about",
    "run starts the search and stops at 10 hits": "a wrong option (a misconception)",
    "validation comes first: a value outside the declared range never reaches run": "quiz explanation; the table "
                                                                                     "in cell 19 shows it",
    "(`Query` is `Annotated[str, Bounds(maxLength=1000)]`": "quotes the signature printed in cell 5",
    "\"order 4821\", \"top_k\": true}` to memory_search": "the call the question asks about",
    "top_k is read as 1, because in Python True == 1": "a wrong option (a misconception)",
}
