"""The offline stand-in's rules for facts that change (lesson 10): "Alice has switched to Go" → ``memory_update``.

``OfflineProvider`` calls ``update_reply`` before its other rules. When the
latest user message states a change, the turn goes: search memory for the
current fact on the same subject, supersede it with ``memory_update`` (the old
fact stays as history), then answer with what changed and both ids. When no
current memory matches, the message is handled as the other rules would
(usually ``memory_store``), and the answer says nothing was superseded.

Recognised (statements only; a question is never an update):

- "X has switched / moved / changed / migrated from A to B" → the memory that names X and A, A replaced by B;
- "X has switched / moved to B" → the best-ranked memory that names X, its value replaced by B;
- "X is now B", "X now prefers / uses / likes B" → the best-ranked memory about X;
- "X no longer …" → the memory sharing the most words with the message, replaced by the message;
- "actually, it's Z now" → the one memory quoted in the previous answer, its value replaced by Z;
- any of these after a marker ("Quick update: Alice has switched to Go");
- any other statement with a firm sign of news (a marker such as "Heads up", a change verb or phrase such as
  "has been pushed to", "used to", no hedge such as "I think") → "announced": the memory the check on write
  would name (``write_conflicts.conflicts_among``), replaced by the statement; with none, nothing happens.

"Its value" is the short phrase after the memory's last "is / are / uses /
prefers / likes"; when a memory has no such phrase the new text is the user's
sentence. These are surface rules: they do not know that Go is a language or
that "she" is Alice (a change with no named subject is stored, not applied), and "X switched to B" on a subject with several memories
picks the best-ranked one, right or wrong — the answer quotes both ids so a
person can check. A model with ``memory_update`` decides all this itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aria_kit.bm25 import tokenize
from aria_kit.change_signals import adds_to, announces_change, content_words, without_marker
from aria_kit.interfaces import AssistantMessage, ToolCall
from aria_kit.memory_rules import as_quoted_text, read_quoted_entries
from aria_kit.write_conflicts import Conflict, conflicts_among

# Every pattern below is matched in time linear in its input, whatever the input (messages run to 100 kB):
# the sentence is single-spaced first, and each pattern is a bounded phrase found by one left-to-right search,
# never a lazy ".*?" or a "\\s+" that backtracks into another (those took seconds to minutes on 16 kB inputs).
CHANGE_VERB = re.compile(r"\b(?:has |have |had )?(?:switched|moved|changed|migrated|gone|went)\b", re.I)
FROM, TO = re.compile(r"\bfrom ", re.I), re.compile(r" to ", re.I)
SWITCHED_TO = re.compile(r" (?:has |have |had )?(?:now )?(?:switched|moved|changed|migrated)(?: over)? to ", re.I)
IS_NOW = re.compile(r" (?:(?:is|are) now|now (?P<verb>prefers?|uses?|likes?)) ", re.I)
NO_LONGER, NOT, ANY_MORE = (re.compile(p, re.I) for p in (r"\bno longer\b", r"\bnot\b", r"\bany ?more\b"))
ACTUALLY = re.compile(r"^(?:actually|correction|sorry)\b[,:]? ?(?:it|that)(?:'s| is| has changed to) (?P<new>.+?)"
                      r"(?: now)?$", re.I)
SLOT_VERB = re.compile(r"\b(?:is|are|uses|prefers|likes)(?=\s)")
SPACES, SLOT_VALUE = re.compile(r"\s+"), re.compile(r"([^.]+)\.?$")
CITATION = re.compile(r"\[(mem_\d+)\]")
# "remember that …" at the start, "… — note that." at the end; the end's run of punctuation is matched from its
# first character only (the look-behind), so a long run is walked once, not once per character in it.
REQUEST_START = re.compile(r"^\s*(?:please\s+)?(?:remember|note|keep in mind)(?:\s+that)?[\s:,]*", re.I)
REQUEST_END = re.compile(r"(?<![\s,;:.—–-])[\s,;:.—–-]*(?:please\s+)?(?:remember|note|keep in mind)"
                         r"(?:\s+(?:this|that|it))?[\s.!]*$", re.I)
WORDS_OF_NO_SUBJECT = set("i we you he she they it ve re ll d s the a an our my her his their has have had now is are "
                          "was on in at of for to with and by".split())
MAX_VALUE_WORDS = 5  # longer than this, "the value" is really a clause, and replacing it would garble the fact

Plan = Callable[[str], "list[tuple[str, dict[str, Any]]] | str"]  # tool calls, or a reply with no tool


@dataclass(frozen=True)
class Change:
    """A stated change: how to find the current fact (``query``), what replaces what, and the sentence said."""

    form: str
    statement: str
    query: str
    new: str
    subject: frozenset[str] = frozenset()
    old: str = ""
    said: str = ""  # "announced": the sentence as said, marker included (the marker may be the only sign)

    def matches(self, hits: list[tuple[str, str]]) -> tuple[str, str] | None:
        """The (id, text) of the current memory this change is about, or None."""
        if self.form == "announced":
            found = conflicts_among([Conflict("hit", i, text) for i, text in hits], self.said)
            return next(((c.id, c.text) for c in found if c.kind == "replaces"), None)
        if self.form == "from-to":
            wanted = set(tokenize(self.old)) | self.subject
            return next((h for h in hits if wanted <= set(tokenize(h[1]))), None)
        if self.form == "no-longer":
            words = set(tokenize(self.statement)) - WORDS_OF_NO_SUBJECT - {"no", "longer", "not", "anymore"}
            shared = [len(words & set(tokenize(text))) for _, text in hits]
            best = max(shared, default=0)
            return hits[shared.index(best)] if best >= 2 else None
        # "she has switched to Go": with no named subject, any memory would do, so none is picked
        return next((h for h in hits if self.subject and self.subject <= set(tokenize(h[1]))), None)

    def rewrite(self, old_text: str) -> str:
        """The new version of ``old_text``: A swapped for B, else its value slot filled with B, else the statement."""
        if self.form == "announced":
            return self.statement
        if self.form == "from-to" and (at := _find(old_text, self.old)) is not None:
            return old_text[:at] + self.new + old_text[at + len(self.old):]
        slot = _value_slot(old_text)
        if self.form != "no-longer" and slot and len(slot[1].split()) <= MAX_VALUE_WORDS:
            return f"{slot[0]}{self.new}."
        return self.statement


def _find(text: str, part: str) -> int | None:
    """Where ``part`` first occurs in ``text``, ignoring case (str.find: linear, unlike a regex with re.I)."""
    folded_text, folded_part = text.lower(), part.lower()
    if len(folded_text) != len(text) or len(folded_part) != len(part):  # "İ" lowers to two characters
        found = re.search(re.escape(part), text, re.I)
        return found.start() if found else None
    at = folded_text.find(folded_part)
    return at if at >= 0 and part else None


def _value_slot(text: str) -> tuple[str, str] | None:
    """(head, value) of a fact "head is|are|uses|prefers|likes value[.]", the value after the last such verb.

    The value is dot-free (but for one final full stop) and the head holds no line break, so only the last two
    verbs on the first line can start it (the one before the last when the last leaves no value): a few
    anchored matches, each linear, where one backtracking pattern was quadratic.
    """
    line_end = text.find("\n")
    verbs = [m for m in SLOT_VERB.finditer(text, 0, len(text) if line_end < 0 else line_end + 1) if m.start() > 0]
    for verb in reversed(verbs[-2:]):
        spaces = SPACES.match(text, verb.end())
        for start in range(spaces.end(), max(spaces.start(), spaces.end() - 2), -1):  # a space may start the value
            if (value := SLOT_VALUE.match(text, start)) is not None:
                return text[:start], value.group(1)
    return None


def _statement(message: str) -> str:
    """The message as a fact: "remember that …" dropped, first letter capitalised, one final full stop."""
    start = REQUEST_START.match(message)
    text = REQUEST_END.sub("", message[start.end() if start else 0:]).strip().rstrip(".!")
    return text[:1].upper() + text[1:] + "." if text else ""


WHEN = ("last week", "last month", "last year", "this week", "this month", "yesterday", "today", "recently")


def _value(text: str) -> str:
    """The new value as said, without "now", "instead" or when it changed ("to Valkey last week" → "Valkey")."""
    value = re.sub(r" (?:now|instead)$", "", text.strip(" .!—–-"), flags=re.I)  # text is single-spaced
    for _ in range(2):  # "Valkey last week now": a couple of endings, each a fixed-length comparison
        ending = next((w for w in WHEN if value[-len(w) - 1:].lower() == " " + w), None)
        value = value[:-len(ending) - 1] if ending else value
    return value


def parse_change(message: str) -> Change | None:
    """The change a message states, or None for anything else (questions included).

    The forms above are read first as said, then without a marker in front ("Quick update: Alice has switched
    to Go"); a statement that still announces a change ("Heads up, the review is in room 2A instead") is the
    form "announced", matched as the check on write matches (``write_conflicts.conflicts_among``).
    """
    statement = _statement(message)
    if not statement or message.rstrip().endswith("?"):
        return None
    sentence = " ".join(statement.rstrip(".").split())  # single-spaced: no pattern below meets a run of spaces
    if (found := ACTUALLY.match(sentence)) is not None:
        return Change("actually", statement, "", _value(found.group("new")))
    if (change := _stated(statement, sentence)) is not None:
        return change
    bare = without_marker(sentence)
    if bare == sentence and not announces_change(sentence, firmly=True) or adds_to(sentence):
        return None
    bare_statement = bare[:1].upper() + bare[1:] + "."
    if (change := _stated(bare_statement, bare_statement.rstrip("."))) is not None:
        return change
    # nobody asked to store this: only a firm sign of news will do ("I'm not sure about the deadline" is none);
    # "Remember the rent? It went up": left to the check on write
    if not announces_change(sentence, firmly=True) or "?" in sentence or not content_words(bare):
        return None  # a marker alone ("Actually.") announces nothing in particular
    return Change("announced", bare_statement, bare_statement.rstrip("."), "", said=sentence)


def _stated(statement: str, sentence: str) -> Change | None:
    """The change in a single-spaced ``sentence`` by the forms from-to, no-longer, switched-to and is-now."""
    if (parts := _from_to(sentence)) is not None:
        subject, old, new = parts
        return Change("from-to", statement, old, _value(re.split(r" [—–-] ", new)[0]),
                      frozenset(tokenize(subject)) - WORDS_OF_NO_SUBJECT, old.strip())
    if NO_LONGER.search(sentence) or any((n := NOT.search(part)) and ANY_MORE.search(part, n.end())
                                         for part in sentence.split(".")):
        return Change("no-longer", statement, sentence, "")
    for form, pattern in (("switched-to", SWITCHED_TO), ("is-now", IS_NOW)):
        if (found := pattern.search(sentence, 1)) is not None:  # the subject is at least one character
            subject = sentence[:found.start()]
            verb = found.groupdict().get("verb") or ""
            query = sentence if form == "switched-to" else f"{subject} {verb}"
            return Change(form, statement, query.strip(), _value(sentence[found.end():]),
                          frozenset(tokenize(subject)) - WORDS_OF_NO_SUBJECT)
    return None


def _from_to(sentence: str) -> tuple[str, str, str] | None:
    """(subject, A, B) of "subject … switched … from A to B", or None: the first verb, its first "from", the
    first " to " after that (if those fail, every later choice fails too, so nothing is tried twice)."""
    verb = CHANGE_VERB.search(sentence)
    start = FROM.search(sentence, verb.end()) if verb else None
    rest = sentence[start.end():] if start else ""
    to = TO.search(rest, 1)
    if to is None or to.end() >= len(rest):
        return None
    return sentence[:verb.start()], rest[:to.start()], rest[to.end():]


def _quoted_in_last_answer(earlier: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(id, text) of each memory the previous answer quoted as "text [mem_0001]"."""
    answer = next((str(m.get("content") or "") for m in reversed(earlier) if m.get("role") == "assistant"), "")
    quoted, start = [], 0
    for citation in CITATION.finditer(answer):  # the text before each "[mem_…]", back to the previous bracket
        before = answer[start:citation.start()]
        text = before[max(before.rfind("["), before.rfind("]")) + 1:]
        start = citation.end()
        if text:
            quoted.append((citation.group(1), re.sub(r"^\s*(?:From memory:)?\s*", "", text).strip()))
    return quoted


def update_reply(messages: list[dict[str, Any]], available: set[str], make_call: Callable[[str, dict[str, Any]], ToolCall],
                 plan: Plan) -> AssistantMessage | str | None:
    """The next step of an update turn: tool calls, the answer text, or None when the message states no change."""
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if not users or "memory_update" not in available:
        return None
    user = str(messages[users[-1]].get("content") or "")
    change = parse_change(user)
    if change is None:
        return None
    calls = {c["id"]: c["function"]["name"] for m in messages[users[-1]:] for c in m.get("tool_calls") or ()}
    results = [(calls.get(m.get("tool_call_id"), "tool"), str(m.get("content") or ""))
               for m in messages[users[-1]:] if m.get("role") == "tool"]
    if change.form == "actually" and not results:
        quoted = _quoted_in_last_answer(messages[:users[-1]])
        if len({memory_id for memory_id, _ in quoted}) != 1:
            listed = ", ".join(f"[{memory_id}] {text}" for memory_id, text in quoted) or "none"
            return f"Which memory should change? The last answer quoted: {listed}. Say, e.g., \"X is now {change.new}\"."
        memory_id, text = quoted[0]
        return AssistantMessage(tool_calls=(make_call("memory_update", {"memory_id": memory_id,
                                                                        "new_text": change.rewrite(text)}),))
    if not results:
        return AssistantMessage(tool_calls=(make_call("memory_search", {"query": change.query, "top_k": 5}),))
    name, result = results[-1]
    if name == "memory_search" and len(results) == 1:
        hits = [(entry["id"], entry["text"]) for entry in read_quoted_entries(result)]
        target = change.matches(hits)
        if target is not None:
            return AssistantMessage(tool_calls=(make_call("memory_update", {"memory_id": target[0],
                                                                            "new_text": change.rewrite(target[1])}),))
        planned = plan(user)
        fallback = [] if isinstance(planned, str) else [c for c in planned if c[0] in available and c[0] != "memory_search"]
        if not fallback and change.form == "announced":
            return None  # a remark that sounds like news about nothing stored: answered as any other message
        fallback = fallback or [("memory_store", {"text": change.statement, "category": "fact"})]
        return AssistantMessage(tool_calls=tuple(make_call(n, args) for n, args in fallback))
    if result.startswith("Error:"):
        return f"The {name} tool reported a problem — {result[len('Error:'):].strip()}"
    if name == "memory_update":
        return "Noted the change. " + as_quoted_text(result)  # it repeats both texts: data, not citations
    return (f"Noted. {result} No current memory matched {change.query!r}, so nothing was superseded.")
