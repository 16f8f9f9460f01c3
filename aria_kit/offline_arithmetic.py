"""Arithmetic in plain English → one calculator expression, for the offline stand-in (lesson 08).

``to_expression("What is 17% of 2450 plus 3 squared?")`` returns ``("17 / 100 * 2450 + 3 ** 2", "")``;
``to_expression("The audit runs for 12 days, 8.5 hours each day — total hours?")`` returns
``("12 * 8.5", "hours")``. The rules, applied in order to a lower-cased copy of the message:

1. numbers that are not quantities are set aside: dates ("March 31"), clock times ("2 PM"),
   ids ("#4821", "v1.0"), ranges of years ("2025-2026"); thousands separators go ("2,450" → 2450) and number words
   become digits ("twenty-one" → 21, "one hundred and five" → 105);
2. unit conversions ("how many minutes in 3.5 hours", "convert 5 km to miles") use a small
   table of time, length and mass units;
3. rate problems ("N things at X units a/per/each thing", in any order) multiply the two
   quantities, or divide them when the question asks "how long" / "how many <thing>s";
4. everything else is rewritten word by word ("17% of" → "17 / 100 *", "squared" → "** 2",
   "divide 10 by 4" → "10 / 4", "plus" → "+") and the longest run of arithmetic is kept,
   if the message asks for a result or writes an operator between two numbers.

It knows no grammar: "three apples and two pears" is not a sum, and a sentence with two
unrelated numbers and the word "each" may be taken for a rate. That is the point of the
lesson: rules carry a stand-in only as far as someone thought ahead.
"""

from __future__ import annotations

import re

NUM = r"(?<![\d.])\d+(?:\.\d+)?"  # starts only where a number starts: a search stays linear in a long run of digits
UNITS = {  # unit → (dimension, size in the dimension's base unit: seconds, metres, grams)
    "second": ("time", 1), "minute": ("time", 60), "hour": ("time", 3600), "day": ("time", 86400),
    "week": ("time", 604800), "millimetre": ("length", 0.001), "centimetre": ("length", 0.01),
    "metre": ("length", 1), "kilometre": ("length", 1000), "km": ("length", 1000), "m": ("length", 1),
    "cm": ("length", 0.01), "mm": ("length", 0.001), "mile": ("length", 1609.344), "foot": ("length", 0.3048),
    "feet": ("length", 0.3048), "inch": ("length", 0.0254), "gram": ("mass", 1), "g": ("mass", 1),
    "kilogram": ("mass", 1000), "kg": ("mass", 1000), "pound": ("mass", 453.59237), "lb": ("mass", 453.59237),
}
SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS = {w: i for i, w in enumerate(SMALL)} | {w: 20 + 10 * i for i, w in enumerate(TENS)}
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
NUMBER_WORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True) + list(SCALES))
WORD_RUN = re.compile(rf"\b(?:{NUMBER_WORD})(?:(?:\s+|-|\s+and\s+)(?:{NUMBER_WORD}))*\b")
MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
NOT_QUANTITIES = re.compile(rf"\b(?:{MONTHS})\s+\d+(?:st|nd|rd|th)?\b|\b\d+(?:st|nd|rd|th)?\s+(?:{MONTHS})\b"
                            r"|\b\d+(?::\d+)?\s*[ap]\.?m\b|#\d+|\bv\d+(?:\.\d+)*\b|\b\d+:\d+\b"
                            r"|\b(?:19|20)\d\d[-–/](?:19|20)?\d\d\b")  # a range of years is not a subtraction
PHRASES = [  # (pattern, replacement) applied in order; prefix forms first, they use "and" and "by"
    (rf"\b(?:add|sum of)\s+({NUM})\s+(?:and|to)\s+({NUM})", r"\1 + \2"),
    (rf"\bsubtract\s+({NUM})\s+from\s+({NUM})", r"\2 - \1"),
    (rf"\btake\s+({NUM})\s+(?:away\s+)?from\s+({NUM})", r"\2 - \1"),
    (rf"\b(?:difference between)\s+({NUM})\s+and\s+({NUM})", r"\1 - \2"),
    (rf"\b(?:multiply\s+({NUM})\s+(?:by|and)|product of\s+({NUM})\s+and)\s+({NUM})", r"\1\2 * \3"),
    (rf"\bdivide\s+({NUM})\s+by\s+({NUM})", r"\1 / \2"),
    (rf"\b(?:increase|raise)\s+({NUM})\s+by\s+({NUM})\s*(?:%|percent|per cent)", r"\1 * (1 + \2 / 100)"),
    (rf"\b(?:decrease|reduce|lower)\s+({NUM})\s+by\s+({NUM})\s*(?:%|percent|per cent)", r"\1 * (1 - \2 / 100)"),
    (rf"({NUM})\s*(?:%|percent|per cent)\s+off\s+({NUM})", r"\2 * (1 - \1 / 100)"),
    (rf"({NUM})\s*(?:%|percent|per cent)\s+(?:of|(?:[a-z]+\s+)?on\s+(?:an?\s+|the\s+)?(?=\d))\s*", r"\1 / 100 * "),
    (rf"({NUM})\s*(?:percent|per cent|%(?!\s*\(?\d))", r"\1 / 100"),  # "45 % 7" stays a remainder
    (rf"\b(?:the\s+)?square root of\s+({NUM})", r"sqrt(\1)"),
    (rf"\b(?:the\s+)?cube root of\s+({NUM})", r"cbrt(\1)"),
    (r"\bhalf of\s+", "0.5 * "), (r"\b(?:double|twice)\s+", "2 * "), (r"\btriple\s+", "3 * "),
    (r"\bsquared\b", "** 2"), (r"\bcubed\b", "** 3"),
    (rf"\bto the\s+({NUM})(?:st|nd|rd|th)?(?:\s+power)?", r"** \1"),
    (r"\b(?:raised\s+)?to the power of\b|\braised to\b", "**"),
    (r"\bplus\b", "+"), (r"\bminus\b|\btake away\b", "-"), (r"\bmultiplied by\b|\btimes\b", "*"),
    (r"\bdivided by\b|\bover\b", "/"), (r"\bmod(?:ulo)?\b", "%"),
    ("×", "*"), ("÷", "/"), (r"\^", "**"), (r"(?<=\d)\s*x\s*(?=\d)", " * "),
]
MATH_RUN = re.compile(r"(?:\b(?:sqrt|cbrt|sin|cos|tan|log|log10|log2|exp|abs|round|factorial|pi)\b"
                      r"|\d+(?:\.\d+)?|\*\*|[-+*/%()]|\s)+")
ASKS = re.compile(r"\b(calculate|compute|how (?:many|much|far|long)|what(?:'s| is| are)|evaluate|total|"
                  r"altogether|in all|work out|result)\b|=|\?\s*$")
RATE_WORD = r"(?:a|an|per|each|every|for each|in each|apiece)"
QUANTITY = re.compile(rf"(\$)?({NUM})\s*([a-z][a-z-]*)?")
CURRENCIES = ("euros", "euro", "dollars", "dollar", "francs", "franc", "yen")
STOP_NOUNS = {"at", "of", "with", "for", "and", "a", "an", "per", "each", "every", "in", "on", "to", "is", "are"}


def to_expression(message: str) -> tuple[str, str] | None:
    """(calculator expression, unit of the answer or "") for arithmetic in ``message``, or None."""
    text = message.lower().replace("’", "'").replace("\u2212", "-")  # U+2212 is the typographic minus sign
    text = _digits(NOT_QUANTITIES.sub(" ", re.sub(r"(?<=\d)\s*–\s*(?=\d)", " - ", text)))
    found = _conversion(text) or _rate(text) or _written_out(text)
    if found and not found[1]:  # "a 45 euro bill": the answer is in euros
        currency = re.search(rf"(\$)\s*{NUM}|{NUM}\s*({'|'.join(CURRENCIES)})\b", text)
        found = (found[0], "dollars" if currency and currency.group(1) else
                 _plural(currency.group(2)) if currency else "")
    return found


def _digits(text: str) -> str:
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    return WORD_RUN.sub(lambda m: _number_value(m.group(0)), text)


def _number_value(words: str) -> str:
    """ "one hundred and five" → "105"; a lone "and" between two numbers is kept for the phrases above."""
    total = current = 0
    parts = re.split(r"\s+|-", words)
    if len(parts) > 12:  # no quantity in a question is spelled with more words: leave a pasted wall of them as text
        return words
    if "and" in parts and not any(p in SCALES for p in parts):
        return " and ".join(_number_value(p) for p in words.split(" and "))  # "add five and seven"
    for part in parts:
        if part in NUMBER_WORDS:
            current += NUMBER_WORDS[part]
        elif part in SCALES:
            current = max(current, 1) * SCALES[part]
            if SCALES[part] > 100:
                total, current = total + current, 0
    return str(total + current)


def _unit(word: str) -> str | None:
    """The table's name for ``word`` (plural or not), or None."""
    for candidate in (word, word.rstrip("s"), word[:-2] if word.endswith("es") else word):
        candidate = candidate.replace("meter", "metre")
        if candidate in UNITS:
            return candidate
    return None


def _conversion(text: str) -> tuple[str, str] | None:
    """ "how many minutes in 3.5 hours" / "convert 5 km to miles" / "5 kg in pounds"."""
    text = re.sub(r"\b(?:a|an|one) (?=[a-z]+\b)", "1 ", text) if re.search(r"how many|convert", text) else text
    match = (re.search(rf"how many ([a-z]+) (?:are )?(?:in|is|make)\s+({NUM})\s*([a-z]+)", text)
             or re.search(rf"({NUM})\s*([a-z]+) (?:in|to|into|as)\s+([a-z]+)", text))
    if not match:
        return None
    if match.re.pattern.startswith("how"):
        target, amount, source = match.groups()
    else:
        amount, source, target = match.groups()
    source_unit, target_unit = _unit(source), _unit(target)
    if not (source_unit and target_unit) or UNITS[source_unit][0] != UNITS[target_unit][0]:
        return None
    ratio = UNITS[source_unit][1] / UNITS[target_unit][1]
    if ratio >= 1 and float(ratio).is_integer():
        expression = f"{amount} * {int(ratio)}"
    elif ratio < 1 and float(1 / ratio).is_integer():
        expression = f"{amount} / {int(1 / ratio)}"
    else:
        expression = f"{amount} * {UNITS[source_unit][1]:.10g} / {UNITS[target_unit][1]:.10g}"
    return expression, target  # as the question wrote it: "minutes", "miles", "feet", "km"


def _rate(text: str) -> tuple[str, str] | None:
    """Two quantities, one of them a rate ("8.5 hours each day", "$18 an hour", "24 bottles in each box")."""
    if re.search(r"[-+*/^×÷]\s*\d|\d\s*[-+*/^×÷]", text) or not re.search(rf"\b{RATE_WORD}\b", text):
        return None
    quantities = [(m.group(2), _noun(m)) for m in QUANTITY.finditer(text)]
    if len(quantities) != 2:
        return None
    rate = re.search(rf"(\$)?({NUM})\s*([a-z][a-z-]*)?\s+(?:of [a-z]+\s+)?{RATE_WORD}\s+([a-z]+)", text)
    each_first = re.search(rf"\beach of (?:the )?({NUM})", text)
    if rate:
        rate_number, rate_unit, per = rate.group(2), _noun(rate), rate.group(4)
    elif each_first or re.search(r"\b(?:each|apiece)\b", text):
        rate_number, rate_unit, per = quantities[-1][0], quantities[-1][1], quantities[0][1]
    else:
        return None
    other_number, other_unit = next(((n, u) for n, u in quantities if n != rate_number), quantities[0])
    asked = re.search(r"how many ([a-z]+)|how long", text)
    if asked and (asked.group(0) == "how long" or _singular(asked.group(1) or "") == _singular(per)):
        return f"{other_number} / {rate_number}", _plural(per)  # "300 pages at 30 pages a day: how many days?"
    return f"{other_number} * {rate_number}", rate_unit


def _noun(match: re.Match[str]) -> str:
    if match.group(1) == "$":
        return "dollars"
    word = match.group(3) or ""
    return "" if word in STOP_NOUNS else word


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _plural(word: str) -> str:
    return word if word.endswith("s") else word + "s"


def _written_out(text: str) -> tuple[str, str] | None:
    """Operators in words or symbols, rewritten; the longest run of arithmetic, if one is asked for."""
    rewritten = text
    for pattern, replacement in PHRASES:
        rewritten = re.sub(pattern, replacement, rewritten)
    runs = [r.strip() for r in MATH_RUN.findall(rewritten)]
    runs = [r for r in runs if re.search(r"\d|pi", r) and re.search(r"[-+*/%]|\w\(", r)]
    explicit = re.search(r"\d\s*(?:\*\*|[-+*/%])\s*\(?\d|\b(?:sqrt|cbrt)\(", rewritten)  # math written as math
    if not runs or not (ASKS.search(text) or explicit):
        return None
    expression = re.sub(r"\s+", " ", max(runs, key=len)).strip("=?. ")
    expression = re.sub(r"^[+*/%\s]+|[-+*/%\s]+$", "", expression)  # operators cut off from their numbers
    return (expression, "") if re.search(r"\d", expression) and re.search(r"[-+*/%(]", expression) else None
