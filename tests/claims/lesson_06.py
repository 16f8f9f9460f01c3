"""Claims in 06_tools, each tied to the output that makes it true."""

import math
import re

from lesson_claims import Claim, Lesson

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
    assert '"top_k": 50' in row and "top_k must be between 1 and 10, got 50" in row, row
    return True


def _only_the_calculator_has_a_max_length() -> bool:
    lengths = {line.split()[0]: line.split()[5] for line in _parameters().splitlines()[3:]}
    assert {tool for tool, limit in lengths.items() if limit != "—"} == {"calculator"}, lengths
    return True


def _top_k_optional_with_its_default() -> bool:
    schema = LESSON.output("print(json.dumps(search_tool.schema(), indent=2))")
    assert '"default": 3' in schema and re.search(r'"required": \[\s*"query"\s*\]', schema), schema
    return True


CLAIMS = [
    Claim("store the seven demo facts in it", lambda: len(DEMO_FACTS) == 7),
    Claim("the same information for all four tools", lambda: len(_tools_table()) == 4),
    Claim("The calculator adds one thing by hand", _only_the_calculator_has_a_max_length),
    Claim("The parameter with a default is optional and carries its default", _top_k_optional_with_its_default),
    Claim("on five signatures and one without a hint", lambda: len(lesson06.SIGNATURES) == 5),
    Claim("on fourteen calls", lambda: len(lesson06.CALLS) == 14),
    Claim("so `run` checks \"1 to 10\" itself", _out_of_range_row),
    Claim("but `run` itself refuses 50", _out_of_range_row),
    Claim("it simply cannot say '1 to 10'", _out_of_range_row),
    Claim("the lesson's table shows one", _out_of_range_row),
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
    "Four questions on this lesson": "counted by tests/test_quizzes.py (every quiz question graded)",
    "the signature alone gives the type, the default and so 'not required'": "quiz explanation of the schema rule "
                                                                            "cell 6 states",
    "Its type (integer), that it is optional, and its default 3": "restates the signature in the question prompt",
    "Its type, default and a description guessed from its name": "a wrong option (a misconception)",
    "\"order 4821\", \"top_k\": true}` to memory_search": "the call the question asks about",
    "top_k is read as 1, because in Python True == 1": "a wrong option (a misconception)",
}
