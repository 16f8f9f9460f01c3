"""The agent loop (lesson 08): recall, ask the model, run its tools, repeat, answer.

``AutonomousAgent.chat`` is the whole loop and fits on one screen. Each request is
the persona's instructions (a system message that is the same bytes on every
request, so a provider's prompt cache keeps matching it), the newest exchanges of
the conversation that fit in ``history_chars`` characters, the memories recalled
for this message in a message of their own (quoted data), and the message. It runs
each tool the model asks for, feeds the result back, and stops at a plain-text
answer or after ``max_rounds`` model calls.

The model's output is untrusted: an unknown tool, arguments that are not JSON or
fail validation, a tool that raises or runs past ``tool_timeout`` seconds (a
``SIGALRM`` timer, main thread on Unix only), and calls past
``max_tool_calls_per_reply`` or ``max_tool_calls_per_turn`` all become a tool
message starting ``Error:``, so the model can correct itself and every tool call
gets its reply, as the chat-completions API requires. A provider failure
(``ProviderError``) propagates, and the history is left as it was so the user can
retry. Each turn is recorded as a ``Turn`` of ``Step``s for the lessons' tables;
``agent.turns`` keeps the newest ``MAX_TURNS_KEPT`` (50). A message over
``MAX_MESSAGE_BYTES`` (100 kB of UTF-8) is refused before anything runs, and with a
log on, an exchange goes to the log before the history, so it is kept whole or not at all.
Deliberately absent: streaming, parallel tool execution, summarising old history.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aria_kit.interfaces import MAX_TOOL_RESULT, LLMProvider, MemoryBackend, MemoryRecord, Tool, ToolCall
from aria_kit.memory_rules import MAX_TEXT_BYTES, utf8_size
from aria_kit.persona import AgentPersona
from aria_kit.recency import newer_first
from aria_kit.time_limits import OutOfTime, time_limit

if TYPE_CHECKING:
    from aria_kit.conversation_log import ConversationLog

log = logging.getLogger(__name__)

TOOL_TIMEOUT = 60.0  # seconds; long enough for a memory store that embeds through a remote API
# Characters, not tokens: each model counts tokens its own way, and no tokenizer works offline here.
# English runs about 4 characters a token, so this is ~6,000 tokens of history.
DEFAULT_HISTORY_CHARS = 24_000
MAX_TOOL_CALLS_PER_REPLY = 8  # one reply rarely needs more; a flood of 3,000 must not run 3,000 tools
MAX_TOOL_CALLS_PER_TURN = 24
MAX_TURNS_KEPT = 50  # agent.turns keeps the newest this many turns whole; only `history` is ever sent
MAX_MESSAGE_BYTES = MAX_TEXT_BYTES  # a message is searched in memory and kept in the log, so it fits in one memory


def history_chars(messages: Sequence[dict[str, Any]]) -> int:
    """The size of ``messages`` as the history budget counts it: their text and their tool calls' JSON."""
    return sum(len(str(m.get("content") or "")) + sum(len(c["function"]["name"]) + len(c["function"]["arguments"])
                                                      for c in m.get("tool_calls") or ()) for m in messages)


def newest_exchanges(history: Sequence[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """The newest whole exchanges of ``history`` that fit in ``budget`` characters, in order.

    An exchange starts at a user message and runs to the next one, so an assistant's tool
    calls and their tool results are kept or dropped together, never split.
    """
    starts = [i for i, m in enumerate(history) if m.get("role") == "user"] or [0]
    kept, used, end = 0, 0, len(history)
    for start in reversed(starts):
        size = history_chars(history[start:end])
        if used + size > budget:
            break
        used, kept, end = used + size, start, start
    return list(history[kept:]) if end < len(history) else []


# A tool whose name says it changes something (memory_store, memory_update, memory_delete, save_note, …): when
# it times out, the model is told the change may have happened, so that it looks before it tries again.
_WRITE_TOOL = re.compile(r"(?:^|_|-)(?:store|update|delete|forget|write|save|remove|add|set|edit|create|insert|"
                         r"append|supersede)(?:$|_|-)", re.IGNORECASE)


class ToolTimeout(OutOfTime):
    """Raised inside a tool that ran out of time; a BaseException, so a tool's ``except Exception`` can't swallow it."""


def _time_limit(seconds: float | None) -> AbstractContextManager[None]:
    """Raise ``ToolTimeout`` in the block after ``seconds``, where a SIGALRM timer is available (time_limits.py)."""
    return time_limit(seconds, ToolTimeout)


@dataclass(frozen=True)
class Step:
    """One thing that happened in a turn: ``kind`` is recall, model, tool, limit (calls refused) or answer."""

    kind: str
    summary: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(repr=False)
class Turn:
    """One user message and everything the agent did to answer it."""

    user: str
    steps: list[Step] = field(default_factory=list)
    answer: str | None = None

    def rows(self) -> list[tuple[int, str, str]]:
        """(step number, kind, summary) rows, for a table."""
        return [(i, s.kind, s.summary) for i, s in enumerate(self.steps, start=1)]

    def __str__(self) -> str:
        lines = [f"user: {self.user}"] + [f"  {i:>2}. {kind:<6} {summary}" for i, kind, summary in self.rows()]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        cells = "".join(
            f"<tr><td>{i}</td><td>{kind}</td><td style='text-align:left'>{html.escape(summary)}</td></tr>"
            for i, kind, summary in self.rows()
        )
        return (
            f"<p><b>user:</b> {html.escape(self.user)}</p>"
            f"<table><tr><th>#</th><th>step</th><th style='text-align:left'>what happened</th></tr>{cells}</table>"
        )


_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what OpenAI-style function calling accepts


def _describe(exc: Exception) -> str:
    """An exception's message, even when its own ``__str__`` is what is broken."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001 - the message is best effort; the type name is already reported
        return "(its message could not be shown)"


def _capped(result: str) -> str:
    """A tool message as the model gets it: at most ``MAX_TOOL_RESULT`` characters, and a note of the rest."""
    if len(result) <= MAX_TOOL_RESULT:
        return result
    return result[:MAX_TOOL_RESULT] + f"\n… (truncated: {len(result)} characters in all)"


def _check_message_size(message: str) -> None:
    """Refuse a message a memory could not search or the log keep, saying what to do instead."""
    size = utf8_size(message, "The message", ": decode the text with errors='replace' and send it again.")
    if size > MAX_MESSAGE_BYTES:
        raise ValueError(f"The message is {size:,} bytes of UTF-8, over the {MAX_MESSAGE_BYTES:,}-byte limit for one "
                         "message: send a shorter one, or store a long document in memory in parts "
                         "(memory.store_many) and ask about it")


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class AutonomousAgent:
    """A tool-calling agent with hybrid long-term memory; every part is an interface you can swap."""

    def __init__(
        self,
        persona: AgentPersona,
        llm: LLMProvider,
        memory: MemoryBackend,
        tools: Sequence[Tool] = (),
        *,
        max_rounds: int = 8,
        recall_k: int = 3,
        tool_timeout: float | None = TOOL_TIMEOUT,
        conversation_log: ConversationLog | None = None,
        history_chars: int = DEFAULT_HISTORY_CHARS,
        max_tool_calls_per_reply: int = MAX_TOOL_CALLS_PER_REPLY,
        max_tool_calls_per_turn: int = MAX_TOOL_CALLS_PER_TURN,
    ) -> None:
        for name, value, least in (("max_rounds", max_rounds, 1), ("recall_k", recall_k, 0),
                                   ("history_chars", history_chars, 0),
                                   ("max_tool_calls_per_reply", max_tool_calls_per_reply, 1),
                                   ("max_tool_calls_per_turn", max_tool_calls_per_turn, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
        if tool_timeout is not None and not (isinstance(tool_timeout, (int, float)) and tool_timeout > 0):
            raise ValueError(f"tool_timeout must be a positive number of seconds or None, got {tool_timeout!r}")
        self.persona, self.llm, self.memory = persona, llm, memory
        self.max_rounds, self.recall_k, self.tool_timeout = max_rounds, recall_k, tool_timeout
        self.history_chars = history_chars
        self.max_tool_calls_per_reply, self.max_tool_calls_per_turn = max_tool_calls_per_reply, max_tool_calls_per_turn
        self.tools: dict[str, Tool] = {}
        self._schemas: dict[str, dict[str, Any]] = {}  # built once per tool, when it is registered
        for tool in tools:
            self.register_tool(tool)
        self.history: list[dict[str, Any]] = []
        self.turns: list[Turn] = []
        self.conversation_log = conversation_log  # off unless given: keeps every exchange (conversation_log.py)
        if conversation_log is not None:
            self.register_tool(conversation_log.search_tool())

    # ------------------------------------------------------------ the loop

    def chat(self, message: str) -> str:
        """Answer one user message, using memory and tools; return the answer text."""
        if not isinstance(message, str) or not message.strip():
            raise ValueError("The message is empty: type something for the agent to answer.")
        _check_message_size(message)  # before anything runs, whether memory is empty or not
        turn = Turn(user=message)
        # current facts only: a superseded memory is history, and search leaves it out (lesson 10)
        # newer_first (recency.py): of two recalled memories that give different values for one thing, the newer
        # comes first unless the message asks about the past
        recalled = newer_first(message, lambda k: self.memory.search(message, top_k=k), self.recall_k,
                               getattr(self.memory, "embedder", None)) if self.recall_k and len(self.memory) else []
        turn.steps.append(Step("recall", ", ".join(h.id for h in recalled) or "no memories yet", {"hits": recalled}))
        messages = [{"role": "system", "content": self.persona.instructions()}]  # the same bytes every request
        messages += newest_exchanges(self.history, self.history_chars)
        if self.recall_k:  # after the history, so system + history stay a prefix the next request repeats
            messages.append({"role": "user", "content": self.persona.live_context(recalled)})
        messages.append({"role": "user", "content": message})
        schemas = list(self._schemas.values())

        answer, calls_run = None, 0
        for round_number in range(1, self.max_rounds + 1):
            reply = self.llm.complete(messages, schemas)  # ProviderError propagates; history untouched
            summary = f"round {round_number}: " + (
                "calls " + _shorten(", ".join(c.name for c in reply.tool_calls), 120) if reply.tool_calls
                else "answers in text")
            turn.steps.append(Step("model", summary, {"reply": reply}))
            messages.append(reply.to_dict())
            if not reply.tool_calls:
                answer = reply.content or ""
                break
            refused = 0
            for index, call in enumerate(reply.tool_calls):
                result = self._over_limit(index, len(reply.tool_calls), calls_run)
                if result is not None:  # answered, not run: every tool_call_id needs its tool message
                    refused += 1
                else:
                    calls_run += 1
                    result = _capped(self._run_tool(call))
                    summary = f"{_shorten(call.name, 64)}({_shorten(str(call.arguments), 80)}) → {_shorten(result)}"
                    turn.steps.append(Step("tool", summary, {"call": call, "result": result}))
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            if refused:
                turn.steps.append(Step("limit", f"{refused} call{'s' * (refused > 1)} over the limit answered "
                                                "with an error, not run", {"refused": refused}))
        if answer is None:
            answer = (
                f"Round limit reached: I stopped after {self.max_rounds} model rounds without a final answer. "
                "The tool results so far are in the trace; try a narrower request."
            )
        turn.answer = answer
        turn.steps.append(Step("answer", _shorten(answer, 240), {"answer": answer}))
        if self.conversation_log is not None:  # first: if the log fails, the exchange is recorded nowhere
            self.conversation_log.record(message, answer)
        self.history += [{"role": "user", "content": message}, {"role": "assistant", "content": answer}]
        self.turns.append(turn)
        del self.turns[:-MAX_TURNS_KEPT]
        return answer

    def _over_limit(self, index: int, in_reply: int, run_so_far: int) -> str | None:
        """The ``Error:`` text for a call past a limit, or None when it may run."""
        if index >= self.max_tool_calls_per_reply:
            return (f"Error: not run. This reply asked for {in_reply} tool calls and the limit is "
                    f"{self.max_tool_calls_per_reply} per reply, so the calls after the first "
                    f"{self.max_tool_calls_per_reply} were not run. Ask again for what is still needed, a few at a "
                    "time.")
        if run_so_far >= self.max_tool_calls_per_turn:
            return (f"Error: not run. This turn has used its {self.max_tool_calls_per_turn} tool calls "
                    f"({self.max_tool_calls_per_turn} per turn). Answer with what you have.")
        return None

    def _run_tool(self, call: ToolCall) -> str:
        """Run one tool call; every failure becomes text for the model, never an exception."""
        tool = self.tools.get(call.name)
        if tool is None:
            available = ", ".join(sorted(self.tools)) or "none"
            return f"Error: unknown tool `{_shorten(str(call.name), 100)}`. Available tools: {available}."
        try:
            with _time_limit(self.tool_timeout):
                result = tool.invoke(call.arguments)
                result = result if isinstance(result, str) else str(result)  # inside: a result's str() may fail too
        except ToolTimeout:
            log.warning("tool %s timed out after %s s", call.name, self.tool_timeout)
            if _WRITE_TOOL.search(call.name):  # stopped after its write, maybe: a blind retry would write twice
                return (f"Error: tool `{call.name}` did not finish within {self.tool_timeout:g} s and was stopped; "
                        "its change may have been made all the same (a memory write is all or nothing: done "
                        "whole or not at all). Search memory for it before trying again.")
            return (f"Error: tool `{call.name}` did not finish within {self.tool_timeout:g} s and was stopped. "
                    "Try a smaller request, or answer without it.")
        except Exception as exc:  # a tool's bug must not end the conversation
            log.warning("tool %s raised %s", call.name, type(exc).__name__)
            return f"Error: tool `{call.name}` failed with {type(exc).__name__}: {_describe(exc)}"
        return result

    # ------------------------------------------------------------ runtime changes

    @property
    def last_turn(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    def register_tool(self, tool: Tool) -> None:
        """Add a tool, or hot-swap the one with the same name; a malformed tool is refused here, at once.

        The tool's schema is built (and so checked) now rather than on every turn: a ``run``
        without type hints fails when it is registered, not in the middle of a conversation.
        """
        if not isinstance(tool, Tool):
            raise TypeError(f"{tool!r} is not a Tool: subclass aria_kit.interfaces.Tool and write `run`.")
        if not isinstance(tool.name, str) or not _TOOL_NAME.fullmatch(tool.name):
            raise ValueError(f"{tool!r} needs a `name` of 1–64 letters, digits, _ or - (the model calls it by "
                             f"that name), got {tool.name!r}.")
        try:
            schema = tool.schema()
        except (TypeError, ValueError) as exc:
            raise ValueError(f"tool `{tool.name}`: its schema cannot be built — {exc}. Give every parameter of "
                             "`run` a type hint, or set `parameters` to a JSON schema.") from exc
        self.tools[tool.name] = tool
        self._schemas[tool.name] = schema

    def list_tools(self) -> list[str]:
        return list(self.tools)

    def memory_dump(self) -> list[MemoryRecord]:
        """Every stored memory, oldest first."""
        return self.memory.list_all()

    def clear_history(self) -> None:
        """Forget the conversation (long-term memory stays)."""
        self.history.clear()
        self.turns.clear()
