"""Which tool for which message: the offline stand-in's planning rules (lesson 08).

``plan(message)`` returns either the tool calls to make, as ``[(tool name, arguments)]``,
or a ``str``: a reply that needs no tool (a greeting, a line with no words in it).
The rules are tried in the order of ``RULES``; the first that answers wins:

- ``remember``: "remember …", "note that …", "keep in mind …", "save this: …" →
  ``memory_store`` with the fact and a category guessed from cue words. A question
  *about* memory ("do you remember …?", "what do you remember about …") is a recall;
- ``arithmetic``: anything ``offline_arithmetic.to_expression`` can turn into one
  expression (symbols, words, percentages, powers, unit conversions, rates) → ``calculator``;
- ``lookup``: "explain …", "look up …", "what is a …", "define …" → ``web_search``, plus
  ``memory_search`` when the message also points at something personal;
- ``small_talk``: greetings, thanks, goodbyes, "how are you", and lines without a word → a reply;
- ``recall``: any other message → ``memory_search``, one per question in it, for the top
  ``SEARCH_TOP_K`` memories: search wide, quote narrowly (the answer keeps only the hits
  that mention what was asked).

A new rule is one function ``(message) -> Plan | None`` and one entry in ``RULES``.
"""

from __future__ import annotations

import re
from typing import Any, Union

from aria_kit.offline_arithmetic import to_expression

Plan = Union[list[tuple[str, dict[str, Any]]], str]

REMEMBER = re.compile(r"\b(remember|don'?t forget|do not forget|keep in mind|make a note|note that|note:|"
                      r"memori[sz]e|save (?:this|that|the fact)|store (?:this|that|the fact))", re.I)
ASKS_MEMORY = re.compile(r"^\s*(?:do|did|can|could|will|would) (?:you|u) (?:still )?remember\b(?!\s+(?:that|this)\b|\s*:)|"
                         r"\bwhat (?:do|did) you (?:remember|know|have|note)\b|"
                         r"\bremember (?:what|when|where|who|which|how|if|whether)\b", re.I)
WEB = re.compile(r"\b(explain|look up|search the web|web search|search online|on the web|tell me about|define|"
                 r"what (?:is|are) (?:an?|the meaning of)|what does (?=\S+ (?:mean|stand for)\b))\b", re.I)
PERSONAL = re.compile(r"\b(my|our|me|I|her|his|their)\b|\w's\b", re.I)
GREETING = re.compile(r"^\W*(hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings|howdy)\b", re.I)
THANKS = re.compile(r"^\W*(thanks|thank you|cheers|great|perfect|nice|cool|ok(?:ay)?)\W*(?:a lot|so much|aria)?\W*$",
                    re.I)
BYE = re.compile(r"^\W*(bye|goodbye|see you|good night|later)\b", re.I)
HOW_ARE_YOU = re.compile(r"\bhow are (?:you|u)\b|\bhow'?s it going\b|\bwho are you\b|\bwhat are you\b", re.I)
CATEGORIES = (  # first match wins
    ("user_pref", r"\b(prefers?|favou?rite|likes?|loves?|hates?|dislikes?|call me)\b"),
    ("calendar", r"\b(meeting|appointment|call with|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                 r"\d+\s?[ap]m)\b"),
    ("order", r"\b(order|ordered|purchased?|bought)\b"),
    ("decision", r"\b(decided|switched|chose|chosen|picked|moved to|will use)\b"),
    ("task", r"\b(deadline|working on|project|task|due|todo)\b"),
)
SEARCH_TOP_K = 5
QUESTION_SPLIT = re.compile(r"(?:,|(?<!\s))\s*(?:\band\s+)?(?=\b(?:what|which|who|when|where|how|why)\b)", re.I)


def remember(message: str) -> Plan | None:
    """A request to store a fact (not a question about what is stored)."""
    if not REMEMBER.search(message) or ASKS_MEMORY.search(message):
        return None
    fact = _strip_request(message)
    return [("memory_store", {"text": fact, "category": _category(fact)})] if fact else None


def arithmetic(message: str) -> Plan | None:
    found = to_expression(message)
    return [("calculator", {"expression": found[0]})] if found else None


def lookup(message: str) -> Plan | None:
    """An explicit request for general knowledge; personal messages also search memory."""
    web = WEB.search(message)
    if not web:
        return None
    topic = re.split(r"\b(?:and|whether|if|mean|stand)\b|[?,]", message[web.end():], maxsplit=1)[0]
    topic = re.sub(r"^\s*(?:the|an?)\s+", "", topic).strip(" .:") or message
    calls: list[tuple[str, dict[str, Any]]] = [("web_search", {"query": topic})]
    personal = [("memory_search", {"query": message, "top_k": SEARCH_TOP_K})] if PERSONAL.search(message) else []
    return calls + personal


def small_talk(message: str) -> Plan | None:
    """Greetings, thanks and goodbyes get a short reply; so does a line with no word in it."""
    if not re.search(r"\w", message):
        return "I could not find a word in that message. Ask me something, or tell me something to remember."
    if THANKS.search(message):
        return "You're welcome."
    if BYE.search(message):
        return "Goodbye. What you asked me to remember stays in memory."
    if HOW_ARE_YOU.search(message):
        return ("I am Aria's offline stand-in: a few rules, not a language model. I can remember facts, search "
                "memory, do arithmetic and look things up in a small built-in knowledge base.")
    if GREETING.search(message) and len(re.findall(r"\w+", message)) <= 4:
        return "Hello! Ask me something, or tell me something to remember."
    return None


def recall(message: str) -> Plan:
    """Search memory once per question in the message (the rule of last resort)."""
    return [("memory_search", {"query": part, "top_k": SEARCH_TOP_K}) for part in _question_parts(message)]


RULES = (remember, arithmetic, lookup, small_talk)


def plan(message: str) -> Plan:
    """The first rule that answers, or a memory search."""
    for rule in RULES:
        result = rule(message)
        if result is not None:
            return result
    return recall(message)


def unit_of(message: str) -> str:
    """The unit of the calculator's answer to ``message`` ("hours"), or ""."""
    found = to_expression(message)
    return found[1] if found else ""


def _strip_request(text: str) -> str:
    """Turn "Please remember that my editor is Vim" into "My editor is Vim."."""
    text = re.sub(r"^\s*(please\s+)?(can you\s+|could you\s+)?(remember|note|keep in mind|don'?t forget|do not forget|"
                  r"make a note|save|store|memori[sz]e)(\s+(that|this|of|the fact that))?\s*[:,\-–—]?\s*", "", text,
                  flags=re.I)
    text = re.sub(r"(?<![\s,;:.\-–—])[\s,;:.\-–—]*(please\s+)?(remember|note|keep in mind|make a note of|save|store|memori[sz]e)"
                  r"(\s+(this|that|it))?(\s+for me)?[\s.!]*$", "", text, flags=re.I).strip()
    return (text[:1].upper() + text[1:]).rstrip(".!? ") + "." if re.search(r"\w", text) else ""


def _question_parts(message: str) -> list[str]:
    """Split "What is X, what is Y, and which Z?" into one search per question."""
    parts = [p.strip(" ,?") for p in QUESTION_SPLIT.split(message)]
    return [p for p in parts if p] or [message]


def _category(fact: str) -> str:
    return next((name for name, cue in CATEGORIES if re.search(cue, fact, re.I)), "fact")
