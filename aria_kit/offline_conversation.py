"""The offline stand-in's questions about past conversations: "what did I say about the cache last week?" (lesson 08).

When the agent has a conversation log (``conversation_log.py``) and the latest message asks what
was said ("what did I say about X", "what did you tell me about X", "did we talk about X", "when
did I mention X"), ``conversation_reply`` first calls ``conversation_search`` with the topic, the
speaker ("I" → user, "you" → assistant, "we" → anyone) and a look-back in days read from the time
words (``LOOK_BACK``: "last week" looks back 14 days, enough to hold all of the previous calendar
week). Then it answers from the results, quoting with its date each message that shares a content
word with the topic, and says plainly when none does. Any other message: ``None``, and the
ordinary rules apply. Like the rest of the stand-in, this is pattern matching, not understanding.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.interfaces import AssistantMessage, ToolCall
from aria_kit.memory_rules import as_quoted_text, read_quoted_entries

ASKS_SAID = re.compile(r"\b(?:what|when|where|did|have)\b.*?\b(I|we|you)\s+(?:ever\s+)?"
                       r"(?:say|said|tell|told|mention(?:ed)?|talk(?:ed)?|discuss(?:ed)?|write|wrote)\b"
                       r"(?:\s+(?:me|you|us))?(?:\s+(?:about|on|regarding|of))?\s*(?P<topic>.*)", re.I)
LOOK_BACK = {"today": 1, "yesterday": 2, "this week": 7, "last week": 14, "past week": 7, "this month": 31,
             "last month": 62, "past month": 31}
_WHEN = re.compile(r"\b(" + "|".join(LOOK_BACK) + r")\b", re.I)
SPEAKER = {"i": "user", "you": "assistant", "we": "any"}
WHO = {"user": "you said", "assistant": "I said"}


def parse_question(message: str) -> dict[str, Any] | None:
    """The ``conversation_search`` arguments a question about past conversations asks for, or ``None``."""
    found = ASKS_SAID.search(message)
    if found is None:
        return None
    when = _WHEN.search(message)
    topic = _WHEN.sub(" ", found.group("topic"))
    topic = " ".join(w for w in tokenize(topic) if w not in STOPWORDS)
    if not topic:
        return None
    return {"query": topic, "top_k": 5, "speaker": SPEAKER[found.group(1).lower()],
            "days": LOOK_BACK[when.group(1).lower()] if when else 0}


def conversation_reply(messages: list[dict[str, Any]], available: set[str],
                       make_call: Callable[[str, dict[str, Any]], ToolCall]) -> AssistantMessage | str | None:
    """The next step of a question about past conversations: the search call, the answer, or ``None``."""
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if not users or "conversation_search" not in available:
        return None
    arguments = parse_question(str(messages[users[-1]].get("content") or ""))
    if arguments is None:
        return None
    results = [str(m.get("content") or "") for m in messages[users[-1]:] if m.get("role") == "tool"]
    if not results:
        return AssistantMessage(tool_calls=(make_call("conversation_search", arguments),))
    if results[-1].startswith("Error:"):
        return f"The conversation_search tool reported a problem — {results[-1][len('Error:'):].strip()}"
    wanted = set(tokenize(arguments["query"], stem=True))
    quoted = [f"on {str(e.get('at', '?'))[:10]} {WHO.get(e.get('speaker'), 'someone said')}: \"{as_quoted_text(e['text'])}\" "
              f"[{e['id']}]" for e in read_quoted_entries(results[-1]) if wanted & set(tokenize(e["text"], stem=True))]
    span = f" in the last {arguments['days']} days" if arguments["days"] else ""
    if not quoted:
        return f"Nothing said in our conversations{span} mentions {arguments['query']!r}."
    return f"From our conversations{span}: " + "; ".join(quoted) + "."
