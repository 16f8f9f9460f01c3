"""Worked solution for lesson 06: a tool whose schema is derived from a typed, documented ``run``.

Open this when you are stuck on exercise 6.1. Everything the model sees — the
parameter names, their JSON types, which are required, the default and the
descriptions — comes from the signature and docstring below; ``Tool.invoke``
then refuses arguments that do not fit before ``run`` is ever called.
"""

from __future__ import annotations

from aria_kit.interfaces import Tool


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
