"""The agent's conversation log: every exchange kept as searchable thread memories, apart from facts (lesson 08).

Long-term memory holds the facts the model chose to store. A ``ConversationLog`` keeps what was
*said*: each user message and each answer become one memory (category ``"conversation"``,
``thread`` = the session id, ``role``, ``at``) in a memory of the log's own, as Letta/MemGPT keep a
searchable "recall memory" beside archival facts. Being thread memories, each turn is also found by
the keyword scores of the turns around it ("Yes, last Friday!" by the question it answered). The model
reaches the log through the ``conversation_search`` tool, which filters by speaker and by days
(as instants, whatever the clock's UTC offset) and widens its ranking until the filter is met, so
a filtered search is exact at any log size; fact recall and ``memory_search`` never see it, so
facts rank exactly as without a log. A message longer than a memory may hold is kept shortened.

Off unless given: ``AutonomousAgent(..., conversation_log=ConversationLog())`` records every
exchange and registers the tool. Not here: summarising old sessions, or deleting what was said
(use ``log.memory.delete``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Literal

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Hit, MemoryBackend, Tool
from aria_kit.memory_rules import MAX_TEXT_BYTES, quoted_entry

CATEGORY = "conversation"
WIDEN = 10  # a filtered search first ranks this many times top_k (at least 50), then four times more until met


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _instant(value: object) -> datetime | None:
    """A stored ``at`` as an aware datetime (a naive one is taken as UTC), or None if it is not a timestamp."""
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _fitted(text: str) -> str:
    """``text`` as the log keeps it: whole when a memory can hold it, else its start and a note of its length."""
    data = text.encode("utf-8", errors="replace")  # a lone surrogate becomes "?" rather than refusing the exchange
    if len(data) <= MAX_TEXT_BYTES:
        return data.decode("utf-8")
    note = f" … (shortened for the log: {len(text):,} characters in all)"
    return data[: MAX_TEXT_BYTES - len(note.encode("utf-8"))].decode("utf-8", errors="ignore") + note


class ConversationLog:
    """What was said to and by the agent, one memory per message; ``session`` is this conversation's thread."""

    def __init__(self, memory: MemoryBackend | None = None, session: str | None = None,
                 clock: Callable[[], datetime] = _now) -> None:
        self.memory = memory if memory is not None else HybridMemory()
        self.clock = clock
        self.session = session if session is not None else "session " + clock().isoformat(timespec="seconds")

    def record(self, user: str, answer: str) -> list[str]:
        """Keep one exchange (the user's message, then the answer) in this session's thread; return the ids.

        A text over ``memory_rules.MAX_TEXT_BYTES`` of UTF-8 is kept shortened (its start, then a note
        of its full length), so a long answer is logged with the rest of its exchange, not refused.
        """
        at = self.clock().isoformat(timespec="seconds")
        said = [(role, _fitted(text)) for role, text in (("user", user), ("assistant", answer)) if text.strip()]
        return self.memory.store_many([text for _, text in said], [
            {"category": CATEGORY, "thread": self.session, "role": role, "at": at} for role, _ in said])

    def search(self, query: str, top_k: int = 3, *, role: str | None = None, days: int | None = None) -> list[Hit]:
        """The ``top_k`` best messages for ``query``, only ``role``'s (user/assistant) and from the last ``days``.

        ``days`` longer than the calendar reaches back means all of them. The result is what ranking every
        message and then filtering gives: the ranking is widened until ``top_k`` pass or none is left out.
        """
        try:
            since = _instant(self.clock() - timedelta(days=days)) if days else None
        except OverflowError:  # before the year 1: every message is newer
            since = None
        total = len(self.memory)
        if not total:
            return []

        def wanted(hit: Hit) -> bool:
            if role is not None and hit.metadata.get("role") != role:
                return False
            at = _instant(hit.metadata.get("at")) if since is not None else None
            return since is None or (at is not None and at >= since)

        depth = top_k if role is None and since is None else max(50, WIDEN * top_k)
        while True:
            hits = self.memory.search(query, top_k=min(total, depth))
            kept = [hit for hit in hits if wanted(hit)]
            if len(kept) >= top_k or depth >= total:
                return kept[:top_k]
            depth *= 4

    def search_tool(self) -> ConversationSearchTool:
        return ConversationSearchTool(self)


class ConversationSearchTool(Tool):
    name = "conversation_search"
    description = (
        "Search what was said in past conversations with the user (their messages and your answers, with "
        "dates), not the stored facts. Use it for questions like 'what did I say about X last week?'."
    )

    def __init__(self, log: ConversationLog) -> None:
        self.log = log

    def run(self, query: str, top_k: int = 3, speaker: Literal["any", "user", "assistant"] = "any",
            days: int = 0) -> str:
        """Search past conversations.

        query: The topic to look for, in keywords or natural language.
        top_k: How many messages to return, 1 to 10.
        speaker: Whose messages: "user", "assistant" or "any".
        days: Only messages from the last this many days; 0 for all.
        """
        if not 1 <= top_k <= 10 or days < 0:
            return f"Error: top_k must be between 1 and 10 and days at least 0, got top_k={top_k}, days={days}."
        try:
            hits = self.log.search(query, top_k, role=None if speaker == "any" else speaker, days=days or None)
        except ValueError as exc:
            return f"Error: {exc}"
        where = f"{'' if speaker == 'any' else speaker + ' '}messages{f' of the last {days} days' if days else ''}"
        if not hits:
            return f"No {where} found for {json.dumps(query, ensure_ascii=False)}."
        lines = [f"Found {len(hits)} {where} for {json.dumps(query, ensure_ascii=False)}, best first, "
                 "one JSON object per line:"]
        lines += [quoted_entry(id=h.id, speaker=h.metadata.get("role"), at=h.metadata.get("at"),
                               session=h.metadata.get("thread"), text=h.text, fused=round(h.score, 4)) for h in hits]
        return "\n".join(lines)
