"""OfflineProvider: a deterministic, rule-based stand-in for a chat model (lessons 08–09).

This is **not a language model**. It is a few pages of regular expressions that
speak the same tool-calling protocol as a real model, so every lesson, test and
demo runs with no API key, no network and the same output every time. It reads
only the latest user message (and the tool results that followed it):

- ``offline_rules.plan`` picks the tools by general rules (remember → ``memory_store``,
  arithmetic in symbols or words → ``calculator``, "explain/look up" → ``web_search``,
  greetings → a reply, anything else → ``memory_search``);
- this file writes the answer from the tool results. From a memory search it quotes
  only the hits that share a *content* word with the question (after a little stemming
  and a short table of synonyms such as "project" ~ "working on"), preferring the hits
  that share the most; a hit that shares only a name ("Alice") with a question about
  something else is not quoted. When nothing qualifies, the answer says how many
  memories the search returned and that none mentions what was asked;
- (lesson 10, in ``offline_updates.py``, when ``memory_update`` is offered) "X has switched to Y",
  "we moved from A to B", "actually, it's Z now", "X no longer …" → ``memory_search`` for the
  current fact, then ``memory_update`` on it, then an answer quoting both ids;
- (lesson 10, in ``offline_conflicts.py``) when ``memory_store`` holds a fact back because it may replace
  a memory, the stand-in makes the ``memory_update`` call the result names, by rule.

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
from aria_kit.memory_rules import as_quoted_text, read_quoted_entries
from aria_kit.offline_conflicts import conflict_reply
from aria_kit.offline_conversation import conversation_reply
from aria_kit.offline_rules import plan, unit_of
from aria_kit.offline_updates import update_reply

STOPWORDS = set("a an and are at be by can could did do does for from has have how i in is it its me my of on or "
                "our please tell that the their them there this to was were what when where which who whom whose "
                "why will with would you your about any anything know".split())
# Question words → words a stored fact would use instead. General English, not the demo's sentences.
SYNONYMS = {
    "project": {"working", "building", "project"}, "work": {"working", "works", "job"},
    "job": {"working", "works", "job"}, "like": {"favourite", "favorite", "prefers", "likes", "loves"},
    "favourite": {"favourite", "favorite", "prefers", "likes", "loves"}, "deadline": {"due", "deadline"},
    "due": {"due", "deadline"}, "live": {"lives", "living", "moved"}, "rely": {"uses", "use", "relies"},
    "use": {"uses", "use", "using"}, "decision": {"decided", "switched", "chose", "picked"},
    "decide": {"decided", "switched", "chose", "picked"}, "bought": {"order", "ordered", "purchased"},
    "order": {"order", "ordered", "purchased", "placed"}, "meet": {"meeting", "meets"},
    "called": {"called", "named", "name"}, "name": {"called", "named", "name"},
}
def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _content_words(query: str) -> dict[str, set[str]]:
    """Each content word of the question → the stems a fact answering it might contain."""
    words = [w for w in tokenize(query) if w not in STOPWORDS]
    return {w: {_stem(v) for v in SYNONYMS.get(w, set()) | {w}} for w in words}


def _names(query: str) -> set[str]:
    """Capitalised words after the first one ("Alice", "VelocityDB"; not acronyms such as "CEO")."""
    return {w.lower() for w in re.findall(r"(?<=\s)[A-Z][a-z][\w-]*", query.replace("'s", ""))}


def relevant(hits: list[dict[str, str]], query: str) -> tuple[list[dict[str, str]], list[str]]:
    """(the hits that answer ``query``, the content words none of the hits mentions).

    When some hit mentions a content word of the question that is not a name, only
    such hits count ("Alice" alone does not make a memory answer "What is Alice's
    project?"). Otherwise a name counts where not every matching hit mentions it, or
    when the question has nothing but names ("Would Rust suit VelocityDB?" lists what
    is known about each; "What is Alice's shoe size?" quotes nothing). Of the hits that
    count, those that mention the most content words win.
    """
    wanted = _content_words(query)
    names = _names(query) & set(wanted)
    matched = []
    for hit in hits:
        stems = {_stem(t) for t in tokenize(hit["text"])}
        matched.append({w for w, forms in wanted.items() if forms & stems})
    if any(m - names for m in matched):  # some hit mentions what is asked, not just who: only those count
        counted = [(h, m) for h, m in zip(hits, matched) if m - names]
    else:  # only names matched: a name counts where it tells the hits apart, or when it is all that was asked
        found = [m for m in matched if m]
        common = set.intersection(*found) if found else set()
        counted = [(h, m) for h, m in zip(hits, matched) if m - common or (m and not set(wanted) - names)]
    best = max((len(m) for _, m in counted), default=0)
    missing = [w for w in wanted if w not in names and not any(w in m for m in matched)]
    return [h for h, m in counted if len(m) == best], missing


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
        user = str(messages[users[-1]].get("content") or "")
        after_user = messages[users[-1] + 1:]
        available = {t["function"]["name"] for t in tools or ()}
        if (said := conversation_reply(messages, available, self._call)) is not None:  # conversation_log.py
            return AssistantMessage(content=self._scrub(said, system)) if isinstance(said, str) else said
        update = conflict_reply(messages, available, self._call) or update_reply(messages, available, self._call, plan)
        if update is not None:  # lesson 10: a write that may replace a memory, or a stated change
            return AssistantMessage(content=self._scrub(update, system)) if isinstance(update, str) else update
        if any(m.get("role") == "tool" for m in after_user):
            text = self._answer(after_user, user)
        else:
            planned = plan(user)
            if isinstance(planned, str):
                return AssistantMessage(content=self._scrub(planned, system))
            calls = [c for c in planned if c[0] in available]
            if calls:
                return AssistantMessage(tool_calls=tuple(self._call(name, args) for name, args in calls))
            text = self._answer_without_tools(messages[:users[-1]])
        return AssistantMessage(content=self._scrub(text, system))

    def _call(self, name: str, arguments: dict[str, Any]) -> ToolCall:
        self._calls += 1
        return ToolCall(f"call_{self._calls:03d}", name, json.dumps(arguments))

    def _answer(self, after_user: list[dict[str, Any]], user: str) -> str:
        calls = {c["id"]: c["function"] for m in after_user for c in m.get("tool_calls") or ()}
        parts, quoted, unanswered = [], set(), []
        for message in (m for m in after_user if m.get("role") == "tool"):
            function = calls.get(message.get("tool_call_id"), {"name": "tool", "arguments": "{}"})
            part = self._explain(function["name"], function.get("arguments") or "{}", str(message.get("content")),
                                 user, quoted, unanswered)
            if part and part not in parts:
                parts.append(part)
        memory_parts = [p for p in parts if p.startswith("From memory:")]
        if len(memory_parts) > 1:  # several searches: one "From memory:" line, not one per search
            merged = "From memory: " + " ".join(p[len("From memory: "):] for p in memory_parts)
            parts = [p for p in parts if p not in memory_parts] + [merged]
        if unanswered and not memory_parts:
            parts.append(self._nothing_relevant(unanswered))
        elif unanswered:  # part of the question found an answer, part did not
            parts.append("Nothing in memory answers: " + "; ".join(q for q, _, _ in unanswered) + ".")
        return "\n".join(parts) or "I found nothing in memory that matches that."

    @staticmethod
    def _explain(name: str, raw_arguments: str, result: str, user: str, quoted: set[str],
                 unanswered: list[tuple[str, int, list[str]]]) -> str:
        try:
            arguments = json.loads(raw_arguments)
        except json.JSONDecodeError:
            arguments = {}
        if not isinstance(arguments, dict):
            arguments = {}
        if result.startswith("Error:"):
            return f"The {name} tool reported a problem — {result[len('Error:'):].strip()}"
        if name == "memory_store":
            return "Noted. " + as_quoted_text(result)
        if name == "calculator":
            unit = unit_of(user)
            return f"{arguments.get('expression', '?')} = {result}{' ' + unit if unit else ''}."
        if name == "web_search":
            return "From the (simulated) web: " + re.sub(r"^\[[^\]]*\] ", "", result, flags=re.M).replace("\n", " ")
        if name == "memory_search":
            query = str(arguments.get("query", ""))
            hits = read_quoted_entries(result)  # best first, one JSON object per hit
            answering, missing = relevant(hits, query)
            fresh = [h for h in answering if h["id"] not in quoted]
            quoted.update(h["id"] for h in fresh)
            if not answering:
                unanswered.append((query, len(hits), missing))
            # the stored text is data: a "[mem_0002]" inside it must not read as a citation
            return "From memory: " + " ".join(f"{as_quoted_text(h['text'])} [{h['id']}]" for h in fresh) if fresh else ""
        return f"{name} returned: {result}"

    @staticmethod
    def _nothing_relevant(unanswered: list[tuple[str, int, list[str]]]) -> str:
        """Say plainly that nothing was found, and why the hits a search returned were not quoted."""
        found = sum(count for _, count, _ in unanswered)
        if not found:
            return "I found nothing in memory that matches that."
        words = sorted({w for _, _, missing in unanswered for w in missing})
        about = f" mentions {' or '.join(repr(w) for w in words[:4])}" if words else " answers the question"
        noun = "memory" if found == 1 else "memories"
        return f"Memory search returned {found} {noun}, but none{about}, so I have no answer from memory."

    @staticmethod
    def _answer_without_tools(before_user: list[dict[str, Any]]) -> str:
        """Quote the memories recalled for this message: the agent sends them just before it (lesson 08)."""
        context = str(before_user[-1].get("content") or "") if before_user and before_user[-1].get("role") == "user" else ""
        recalled = [f"[{m['id']}] ({m.get('category')}) {as_quoted_text(m['text'])}" for m in read_quoted_entries(context)]
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
