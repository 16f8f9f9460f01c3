"""OfflineProvider: a deterministic, rule-based stand-in for a chat model (lessons 08–09).

This is **not a language model**. It is a few dozen lines of regular
expressions that speak the same tool-calling protocol as a real model, so every
lesson, test and demo runs with no API key, no network and the same output
every time. It reads only the latest user message (and the tool results that
followed it), picks tools by general rules, and writes its answer from the
tool results:

- "remember …", "note that …", "keep in mind …" → ``memory_store`` with the fact and a
  category guessed from cue words (preference, calendar, order, decision, task, fact);
- arithmetic written as an expression ("(3 + 4) * 2") or as a rate problem
  ("N days at X hours a day") → ``calculator``;
- "explain …", "look up …", "search the web for …" → ``web_search``, plus ``memory_search``
  when the message also points at something personal ("… and does it suit my project?");
- any other message → ``memory_search``, then an answer that quotes the ids of the hits
  that share a content word with the question.

It honours the "Never say" line of the system prompt. It does not reason, plan,
hold a conversation across turns, or understand anything it was not written to
spot: for that, set ``OPENAI_API_KEY`` (or ``OPENAI_BASE_URL``) and use a model.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aria_kit.bm25 import tokenize
from aria_kit.interfaces import AssistantMessage, LLMProvider, ToolCall

REMEMBER = re.compile(r"\b(remember|don'?t forget|do not forget|keep in mind|make a note|note that|memori[sz]e)\b", re.I)
WEB = re.compile(r"\b(explain|look up|search the web|web search|search online|on the web|tell me about|what (?:is|are) an?)\b", re.I)
PERSONAL = re.compile(r"\b(my|our|me|I|her|his|their)\b|\w's\b", re.I)
RATE = re.compile(
    r"(\d+(?:\.\d+)?)\s+(?:[a-z-]+\s+)?[a-z]+\b.*?\b(?:at|of|with)\s+(\d+(?:\.\d+)?)\s+([a-z]+)\s+(?:a|an|per|each|every)\b",
    re.I,
)
MATH_RUN = re.compile(r"(?:\b(?:sqrt|sin|cos|tan|log|log10|log2|exp|abs|round|factorial|pi)\b|\d+(?:\.\d+)?|\*\*|[-+*/%()]|\s)+")
MATH_CUE = re.compile(r"\b(calculate|compute|how (?:many|much)|what(?:'s| is)|evaluate)\b|=", re.I)
CATEGORIES = (  # first match wins
    ("user_pref", r"\b(prefers?|favou?rite|likes?|loves?|hates?|dislikes?)\b"),
    ("calendar", r"\b(meeting|appointment|call with|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d+\s?[ap]m)\b"),
    ("order", r"\b(order|ordered|purchased?|bought)\b"),
    ("decision", r"\b(decided|switched|chose|chosen|picked|moved to|will use)\b"),
    ("task", r"\b(deadline|working on|project|task|due|todo)\b"),
)
STOPWORDS = set("a an and are at be by did do does for from has have how i in is it its me my of on or "
                "our that the their this to was what when where which who why with you your".split())
QUESTION_SPLIT = re.compile(r",?\s*(?:\band\s+)?(?=\b(?:what|which|who|when|where|how|why)\b)", re.I)


def _strip_request(text: str) -> str:
    """Turn "Please remember that my editor is Vim" into "My editor is Vim."."""
    text = re.sub(r"^\s*(please\s+)?(can you\s+)?(remember|note|keep in mind|don'?t forget|do not forget|make a note)"
                  r"(\s+(that|this|of))?\s*[:,\-–—]?\s*", "", text, flags=re.I)
    text = re.sub(r"[\s,;:.\-–—]*(please\s+)?(remember|note|keep in mind|make a note of)(\s+(this|that|it))?[\s.!]*$",
                  "", text, flags=re.I).strip()
    return (text[:1].upper() + text[1:]).rstrip(".!") + "." if text else text


def _question_parts(message: str) -> list[str]:
    """Split "What is X, what is Y, and which Z?" into one search per question."""
    parts = [p.strip(" ,?") for p in QUESTION_SPLIT.split(message)]
    return [p for p in parts if p] or [message]


def _category(fact: str) -> str:
    return next((name for name, cue in CATEGORIES if re.search(cue, fact, re.I)), "fact")


def _expression(message: str) -> tuple[str, str] | None:
    """(expression, unit) for arithmetic in the message, or None."""
    rate = RATE.search(message)
    if rate:
        return f"{rate.group(1)} * {rate.group(2)}", rate.group(3)
    text = message.replace("×", "*").replace("÷", "/").replace("^", "**")
    text = re.sub(r"(?<=\d)\s*x\s*(?=\d)", " * ", text)
    runs = [r.strip() for r in MATH_RUN.findall(text)]
    runs = [r for r in runs if re.search(r"\d|pi", r) and re.search(r"[-+*/%]|\w\(", r)]
    if runs and (MATH_CUE.search(message) or re.search(r"\d\s+[-+*/%]\s+\d", text)):
        return max(runs, key=len).strip("=?. "), ""
    return None


def _quoted_memories(text: str) -> list[dict[str, Any]]:
    """The memories quoted one JSON object per line in a search result or the system prompt."""
    entries = []
    for line in text.splitlines():
        try:
            entry = json.loads(line) if line.startswith("{") else None
        except json.JSONDecodeError:
            entry = None
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("text"), str):
            entries.append(entry)
    return entries


def _relevant(hits: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """Hits that share the most *distinguishing* words with the query (words not common to every hit).

    "Alice" in a question about Alice's storage engine matches every memory about
    Alice; "storage" and "engine" pick out the one that answers it.
    """
    wanted = set(tokenize(query)) - STOPWORDS
    words = [set(tokenize(h["text"])) & wanted for h in hits]
    common = set.intersection(*words) if len(words) > 1 else set()
    kept = [(h, w) for h, w in zip(hits, words) if w - common or (w and w == common and h is hits[0])]
    best = max((len(w) for _, w in kept), default=0)
    return [h for h, w in kept if len(w) == best]  # the hits that match the question best, not every partial match


class OfflineProvider(LLMProvider):
    """Rule-based, deterministic, offline. Speaks the tool-calling protocol; understands very little."""

    name = "offline rule-based stand-in (not a language model)"

    def describe(self) -> str:
        return (f"{self.name}, offline. To chat with a real model, set OPENAI_API_KEY (or OPENAI_BASE_URL for "
                "a local server such as Ollama) and rebuild the agent.")

    def __init__(self) -> None:
        self._calls = 0

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> AssistantMessage:
        """Ask for tools on a fresh user message; answer from the tool results once they are back."""
        system = next((str(m.get("content") or "") for m in messages if m.get("role") == "system"), "")
        users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        if not users:
            return AssistantMessage(content="There is no user message to answer.")
        after_user = messages[users[-1] + 1:]
        available = {t["function"]["name"] for t in tools or ()}
        if any(m.get("role") == "tool" for m in after_user):
            text = self._answer(after_user, str(messages[users[-1]].get("content") or ""))
        else:
            calls = [c for c in self._plan(str(messages[users[-1]].get("content") or "")) if c[0] in available]
            if calls:
                return AssistantMessage(tool_calls=tuple(self._call(name, args) for name, args in calls))
            text = self._answer_without_tools(system)
        return AssistantMessage(content=self._scrub(text, system))

    def _call(self, name: str, arguments: dict[str, Any]) -> ToolCall:
        self._calls += 1
        return ToolCall(f"call_{self._calls:03d}", name, json.dumps(arguments))

    @staticmethod
    def _plan(message: str) -> list[tuple[str, dict[str, Any]]]:
        if REMEMBER.search(message):
            fact = _strip_request(message)
            return [("memory_store", {"text": fact, "category": _category(fact)})]
        arithmetic = _expression(message)
        if arithmetic:
            return [("calculator", {"expression": arithmetic[0]})]
        web = WEB.search(message)
        if web:
            topic = re.split(r"\b(?:and|whether|if)\b|[?,]", message[web.end():], maxsplit=1)[0].strip(" .:") or message
            calls = [("web_search", {"query": topic})]
            return calls + [("memory_search", {"query": message})] if PERSONAL.search(message) else calls
        return [("memory_search", {"query": part}) for part in _question_parts(message)]

    def _answer(self, after_user: list[dict[str, Any]], user: str) -> str:
        calls = {c["id"]: c["function"] for m in after_user for c in m.get("tool_calls") or ()}
        parts, quoted = [], set()
        for message in (m for m in after_user if m.get("role") == "tool"):
            function = calls.get(message.get("tool_call_id"), {"name": "tool", "arguments": "{}"})
            part = self._explain(function["name"], function.get("arguments") or "{}", str(message.get("content")), user, quoted)
            if part and part not in parts:
                parts.append(part)
        memory_parts = [p for p in parts if p.startswith("From memory:")]
        if len(memory_parts) > 1:  # several searches: one "From memory:" line, not one per search
            merged = "From memory: " + " ".join(p[len("From memory: "):] for p in memory_parts)
            parts = [p for p in parts if p not in memory_parts] + [merged]
        if not parts:
            parts = ["I found nothing in memory that matches that."]
        return "\n".join(parts)

    @staticmethod
    def _explain(name: str, raw_arguments: str, result: str, user: str, quoted: set[str]) -> str:
        try:
            arguments = json.loads(raw_arguments)
        except json.JSONDecodeError:
            arguments = {}
        if result.startswith("Error:"):
            return f"The {name} tool reported a problem — {result[len('Error:'):].strip()}"
        if name == "memory_store":
            return "Noted. " + result
        if name == "calculator":
            unit = (_expression(user) or ("", ""))[1]
            return f"{arguments.get('expression', '?')} = {result}{' ' + unit if unit else ''}."
        if name == "web_search":
            return "From the (simulated) web: " + re.sub(r"^\[[^\]]*\] ", "", result, flags=re.M).replace("\n", " ")
        if name == "memory_search":
            hits = _quoted_memories(result)
            relevant = [h for h in _relevant(hits, str(arguments.get("query", ""))) if h["id"] not in quoted]
            quoted.update(h["id"] for h in relevant)
            return "From memory: " + " ".join(f"{h['text']} [{h['id']}]" for h in relevant) if relevant else ""
        return f"{name} returned: {result}"

    @staticmethod
    def _answer_without_tools(system_prompt: str) -> str:
        recalled = [f"[{m['id']}] ({m.get('category')}) {m['text']}" for m in _quoted_memories(system_prompt)]
        if recalled:
            return "No tools are available; recalled memories: " + " ".join(recalled)
        return "No tools are available and nothing was recalled, so there is nothing to go on."

    @staticmethod
    def _scrub(text: str, system_prompt: str) -> str:
        """Honour the persona's "Never say" line, read from the system prompt like any model would."""
        rule = re.search(r"^Never say: (.*)$", system_prompt, flags=re.M)
        for phrase in re.findall(r'"([^"]+)"', rule.group(1)) if rule else ():
            text = re.sub(re.escape(phrase), "…", text, flags=re.I)
        return text


OfflineLLM = OfflineProvider  # the name lessons used before 0.2; kept so old notebooks still run
