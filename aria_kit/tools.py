"""The agent's tools: memory store and search, and a simulated web search (lesson 06); memory update (lesson 10).

Each tool is a small ``Tool`` subclass: a name, a description for the model,
and a ``run`` method whose signature and docstring become the JSON schema the
model sees. The calculator lives in its own module (``calculator.py``) because
making it safe is a lesson of its own.

``memory_search`` returns one JSON object per memory, one per line: the stored
text is quoted data, so a memory containing a newline and a fake
``[mem_0999]`` line cannot pass itself off as a second memory.

``web_search`` is honest about what it is: a lookup in a tiny built-in
knowledge base, not the internet. Extend it by subclassing with a bigger
``KNOWLEDGE`` dict (the capstone hot-swaps exactly that) or by passing one in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated

from aria_kit.bm25 import tokenize
from aria_kit.calculator import CalculatorTool
from aria_kit.clock import dated
from aria_kit.interfaces import MAX_TOOL_RESULT, MemoryBackend, Tool
from aria_kit.memory_rules import MAX_CATEGORY_CHARS, MAX_SEQ, make_memory_id, quoted_entry
from aria_kit.recency import newer_first
from aria_kit.schemas import Bounds
from aria_kit.write_conflicts import Conflict, find_conflicts, update_call

MAX_MEMORY_TEXT = 4_000  # characters; a tool call is not the place for a novel
MAX_QUERY = 1_000
TOP_K = Bounds(minimum=1, maximum=10)
# The bounds live in the parameters' types, so the schema the model sees declares exactly what invoke() enforces.
MemoryText = Annotated[str, Bounds(maxLength=MAX_MEMORY_TEXT)]
Query = Annotated[str, Bounds(maxLength=MAX_QUERY)]
Category = Annotated[str, Bounds(maxLength=MAX_CATEGORY_CHARS)]
NOT_A_REPEAT = " If it is a different fact, call memory_store again with keep_both=true."
MemoryId = Annotated[str, Bounds(maxLength=len(make_memory_id(MAX_SEQ)))]


class MemoryStoreTool(Tool):
    """Stores a fact, unless a current memory already says it (lesson 10's check on write, ``write_conflicts.py``)."""

    name = "memory_store"
    description = (
        "Save one durable fact to long-term memory so it can be recalled in later conversations. "
        "Write the fact as a self-contained sentence."
    )

    def __init__(self, memory: MemoryBackend) -> None:
        self.memory = memory

    def run(self, text: MemoryText, category: Category = "general") -> str:
        """Store a fact.

        text: The fact to remember, as a self-contained sentence.
        category: A short label such as user_pref, task, fact, calendar, order or decision.
        """
        return self._store(text, category, hold_back=False, keep_both=False)

    def _store(self, text: str, category: str, hold_back: bool, keep_both: bool) -> str:
        """Refuse a repeat, hold back a possible replacement (``hold_back``), or store; ``keep_both`` always stores."""
        if len(text) > MAX_MEMORY_TEXT:
            return f"Error: the text is {len(text)} characters; store facts of at most {MAX_MEMORY_TEXT}."
        category = category.strip() or "general"
        if len(category) > MAX_CATEGORY_CHARS:  # a label, repeated in every prompt that recalls its memory
            return (f"Error: the category is {len(category)} characters; use a short label of at most "
                    f"{MAX_CATEGORY_CHARS}, such as user_pref or task.")
        try:
            conflicts = find_conflicts(self.memory, text) if text.strip() and not keep_both else []
            duplicate = next((c for c in conflicts if c.kind == "duplicate"), None)
            if duplicate is not None:
                return _already_says(duplicate, hold_back)
            replaces = [c for c in conflicts if c.kind == "replaces"]
            if replaces and hold_back:
                return held_back_report(text, replaces)
            store_if_absent = getattr(self.memory, "store_if_absent", None)
            if keep_both or store_if_absent is None:
                memory_id = self.memory.store(text, dated({"category": category}))
            else:  # another process may have stored it since the check: the write's own transaction looks again
                memory_id, stored = store_if_absent(text, dated({"category": category}))
                if not stored:
                    return f"Not stored: {memory_id} already says this (stored a moment ago, by another session)."
        except ValueError as exc:
            return f"Error: {exc}"
        return f"Stored as {memory_id} (category: {category})."


class CheckedMemoryStoreTool(MemoryStoreTool):
    """Lesson 10: ``memory_store`` for an agent that also has ``memory_update``.

    A fact that may replace a current memory is held back, and the result names
    that memory and the exact ``memory_update`` call that replaces it: the model
    decides, and ``keep_both=True`` stores the fact when both are true (always:
    it also overrides a repeat the check got wrong, such as two passwords told
    apart only by the case of a letter-only word).
    """

    description = MemoryStoreTool.description + (
        " If a stored fact may say otherwise, the result names it and the memory_update call that replaces it.")

    def run(self, text: MemoryText, category: Category = "general", keep_both: bool = False) -> str:
        """Store a fact.

        text: The fact to remember, as a self-contained sentence.
        category: A short label such as user_pref, task, fact, calendar, order or decision.
        keep_both: True to store the fact whatever a current memory says (both are true, or it is no repeat).
        """
        return self._store(text, category, hold_back=True, keep_both=keep_both)


def _quoted(text: str, limit: int) -> str:
    """``text`` JSON-quoted in at most ``limit`` characters, its end cut to "…" if need be (before quoting, so
    no escape is cut in half): the longest prefix that fits, found by halving."""
    quoted = json.dumps(text, ensure_ascii=False)
    if len(quoted) <= limit:
        return quoted
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if len(json.dumps(text[:middle] + "…", ensure_ascii=False)) <= limit else (
            low, middle - 1)
    return json.dumps(text[:low] + "…", ensure_ascii=False)


def _already_says(duplicate: Conflict, keep_both_offered: bool) -> str:
    """The refused repeat: which memory says it (quoted within the result cap), and how to store it anyway."""
    hint = NOT_A_REPEAT if keep_both_offered else ""
    head = f"Not stored: {duplicate.id} already says this ("
    return head + _quoted(duplicate.text, MAX_TOOL_RESULT - len(head) - len(hint) - 2) + ")." + hint


def held_back_report(text: str, replaces: list[Conflict]) -> str:
    """The held-back write: the exact calls that decide it first, then the memories it may replace, each quoted
    within an equal share of what is left of the agent's cap on a tool result, so the calls always arrive."""
    first = replaces[0].id
    call = update_call(first, text)
    if len(call) > MAX_TOOL_RESULT // 2:  # a text of quotes or control characters: too long to repeat as a call
        call = f"memory_update with memory_id={json.dumps(first)} and new_text set to the text you just sent"
    head = (f"Not stored yet: this may replace {first} (an older value of the same fact). If the new fact replaces "
            f"it, call {call}. If both are true, call memory_store again with keep_both=true. ")
    lines = [f"{c.id} says " for c in replaces]
    share = (MAX_TOOL_RESULT - len(head) - len("Candidates: ") - sum(len(x) + 2 for x in lines)) // len(replaces)
    quoted = "; ".join(line + _quoted(c.text, share) for line, c in zip(lines, replaces))
    return f"{head}Candidates: {quoted}."


class MemorySearchTool(Tool):
    name = "memory_search"
    description = (
        "Search long-term memory with hybrid (semantic + keyword) search. "
        "Returns the best memories with their ids and scores."
    )

    def __init__(self, memory: MemoryBackend) -> None:
        self.memory = memory

    def run(self, query: Query, top_k: Annotated[int, TOP_K] = 3) -> str:
        """Search memory.

        query: What to look for, in natural language or keywords.
        top_k: How many memories to return, 1 to 10.
        """
        if not TOP_K.minimum <= top_k <= TOP_K.maximum:
            return f"Error: top_k must be between {TOP_K.minimum} and {TOP_K.maximum}, got {top_k}."
        if len(query) > MAX_QUERY:
            return f"Error: the query is {len(query)} characters; use at most {MAX_QUERY}."
        try:
            hits = newer_first(query, lambda k: self.memory.search(query, top_k=k), top_k,
                               getattr(self.memory, "embedder", None))
        except ValueError as exc:
            return f"Error: {exc}"
        if not hits:
            return f"No memories found for {json.dumps(query, ensure_ascii=False)}."
        found = f"{len(hits)} {'memory' if len(hits) == 1 else 'memories'}"
        lines = [f"Found {found} for {json.dumps(query, ensure_ascii=False)}, best first, one JSON object per line:"]
        lines += [  # quoted, so a stored text can never pose as another memory (see quoted_entry)
            quoted_entry(id=h.id, category=h.category, text=h.text,
                         fused=round(h.score, 4), cosine=round(h.cosine, 3), bm25=round(h.bm25, 3))
            for h in hits
        ]
        return "\n".join(lines)


class MemoryUpdateTool(Tool):
    """Lesson 10: the model names the out-of-date memory and writes the fact as it is now; nothing is lost."""

    name = "memory_update"
    description = (
        "Replace a stored fact that is no longer true with the fact as it is now. The old memory is kept as "
        "history, linked to the new one, and searches return only the new one. Search memory first for the id."
    )

    def __init__(self, memory: MemoryBackend) -> None:
        self.memory = memory

    def run(self, memory_id: MemoryId, new_text: MemoryText) -> str:
        """Supersede a memory.

        memory_id: The id of the memory that is out of date, e.g. mem_0001.
        new_text: The fact as it is now, as a self-contained sentence.
        """
        if len(new_text) > MAX_MEMORY_TEXT:
            return f"Error: the text is {len(new_text)} characters; store facts of at most {MAX_MEMORY_TEXT}."
        try:
            old = self.memory.get(memory_id)
            new_id = self.memory.supersede(memory_id, new_text, dated(old.metadata) if old is not None else None)
        except (ValueError, NotImplementedError) as exc:
            return f"Error: {exc}"
        old = self.memory.get(memory_id)
        return f"Updated {memory_id} → {new_id}. Now: {new_text!r}; before: {old.text!r} (kept as history)."


class WebSearchTool(Tool):
    name = "web_search"
    description = (
        "Look up general knowledge. This is a simulated web search over a small built-in knowledge base, "
        "not the internet; it says so when it has nothing."
    )
    KNOWLEDGE: Mapping[str, str] = {
        "OpenAI": "OpenAI is an AI research and deployment company; its chat-completions API lets a model call "
        "tools by returning structured function calls.",
        "RAG": "Retrieval-Augmented Generation (RAG) retrieves relevant documents and puts them in the model's "
        "prompt, so answers are grounded in that text rather than in the model's weights alone.",
        "BM25": "BM25 is a keyword ranking function: it scores documents by query-term frequency, damped by "
        "saturation (k1) and document-length normalisation (b), weighted by inverse document frequency.",
    }

    def __init__(self, knowledge: Mapping[str, str] | None = None) -> None:
        self.knowledge = dict(self.KNOWLEDGE if knowledge is None else knowledge)

    def run(self, query: Query) -> str:
        """Search the simulated web.

        query: The topic to look up, e.g. "BM25" or "what is RAG".
        """
        if len(query) > MAX_QUERY:
            return f"Error: the query is {len(query)} characters; use at most {MAX_QUERY}."
        words = _word_set(query)
        matches = [(topic, text) for topic, text in self.knowledge.items() if _word_set(topic) <= words]
        if not matches:
            topics = ", ".join(self.knowledge)
            return f"No results for {query!r} in the simulated knowledge base (it only covers: {topics})."
        return "\n".join(f"[{topic}] {text}" for topic, text in matches)


def _word_set(text: str) -> set[str]:
    """Tokens with a naive plural strip, so "B-trees" finds the "B-tree" entry."""
    return {t[:-1] if len(t) > 3 and t.endswith("s") else t for t in tokenize(text)}


def default_tools(memory: MemoryBackend, *, updates: bool = False) -> list[Tool]:
    """The four tools of the reference design, wired to one memory; ``updates=True`` adds lesson 10's
    ``memory_update`` and has ``memory_store`` name what a new fact may replace."""
    store = CheckedMemoryStoreTool(memory) if updates else MemoryStoreTool(memory)
    tools = [store, MemorySearchTool(memory), CalculatorTool(), WebSearchTool()]
    return [*tools, MemoryUpdateTool(memory)] if updates else tools
