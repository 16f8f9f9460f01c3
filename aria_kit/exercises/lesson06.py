"""Exercise check for lesson 06 (tools and schemas): write a tool whose schema comes from its ``run``.

``check_word_count_tool(WordCountTool)`` takes the learner's class, makes one,
and checks both halves of a tool: the schema the model will see (derived by
``Tool.schema`` from ``run``'s type hints, defaults and docstring) and what
``invoke`` does with arguments a model might send. It does not check the wording
of the description, only that there is one.
"""

from __future__ import annotations

from typing import Any

from aria_kit.exercises import check
from aria_kit.interfaces import Tool

SOLUTION = "lesson06"


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


def check_word_count_tool(tool_class: type[Tool]) -> bool:
    """Check a ``word_count`` tool: typed, documented ``run(text, unique=False)`` returning the count as text."""
    return check("Exercise 6.1 (a word_count tool)", lambda: _word_count_test(tool_class), SOLUTION)
