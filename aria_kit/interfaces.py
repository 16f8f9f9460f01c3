"""The contracts every layer speaks (lesson 01).

Four small abstract classes and the records they pass around:

- ``Embedder``: texts -> unit-length vectors.
- ``MemoryBackend``: store text + metadata -> id; search query -> ranked hits; list all;
  supersede an old memory with a newer one, keeping the old one as history (lesson 10); forget a
  fact with its whole history.
- ``LLMProvider``: chat messages (+ optional tool schemas) -> one ``AssistantMessage``.
- ``Tool``: name, description, ``run(**kwargs) -> str`` and an OpenAI-style schema.

The agent only ever talks to these, so a lesson can swap the memory engine, the
model provider or a single tool in one line. This file deliberately holds no
retrieval maths, no network code and no prompt text: those live in the modules
named after the lessons that teach them.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aria_kit.schemas import schema_from_function, validate_arguments

Metadata = dict[str, Any]


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class MemoryRecord:
    """One stored memory ("chunk"): its id, text and metadata such as a category.

    A memory that a newer one replaced is kept as history: ``superseded_by`` is
    the newer memory's id and ``superseded_at`` when this one stopped being
    current (ISO 8601, UTC); the newer one points back with ``supersedes``.
    """

    id: str
    text: str
    metadata: Metadata = field(default_factory=dict)
    superseded_by: str | None = None
    superseded_at: str | None = None
    supersedes: str | None = None

    @property
    def category(self) -> str:
        return str(self.metadata.get("category", "general"))

    @property
    def is_current(self) -> bool:
        """True unless a newer memory replaced this one."""
        return self.superseded_by is None


@dataclass(frozen=True)
class Hit:
    """One search result, with every number that explains its place.

    ``score`` is the fused score used to order hits (what the memory's fusion
    made of the two: see ``fusion.py``); ``cosine`` and ``bm25`` are the raw
    semantic and keyword scores, and the two ranks (1 = best, ``None`` = not
    ranked by that retriever) are each retriever's own ordering.
    """

    id: str
    text: str
    metadata: Metadata
    score: float
    cosine: float
    bm25: float
    vector_rank: int | None = None
    keyword_rank: int | None = None
    superseded_by: str | None = None  # set only on history hits (``search(..., include_history=True)``)
    supersedes: str | None = None  # the older memory this one replaced, if any

    @property
    def category(self) -> str:
        return str(self.metadata.get("category", "general"))

    def __str__(self) -> str:
        history = f" (superseded by {self.superseded_by})" if self.superseded_by else ""
        return (
            f"[{self.id}] ({self.category}) {self.text}{history} "
            f"(fused {self.score:.4f}, cosine {self.cosine:.3f}, bm25 {self.bm25:.3f})"
        )


@dataclass(frozen=True)
class ToolCall:
    """A model's request to run one tool. ``arguments`` is the raw JSON text the model wrote."""

    id: str
    name: str
    arguments: str = "{}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class AssistantMessage:
    """The one shape every provider returns: text, tool calls, or both."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    role: str = "assistant"

    def to_dict(self) -> dict[str, Any]:
        """The chat-completions form, ready to append to the conversation."""
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        return message


# ---------------------------------------------------------------- contracts


class Embedder(ABC):
    """Turns texts into vectors; rows come back unit-normalised, so dot product = cosine."""

    name: str = "embedder"
    dim: int = 0

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch of texts into a float32 array of shape (len(texts), dim)."""


class MemoryBackend(ABC):
    """Where the agent's long-term memory lives. Ids are strings such as ``mem_0001``."""

    @abstractmethod
    def store(self, text: str, metadata: Metadata | None = None) -> str:
        """Store one text with its metadata and return its new id."""

    @abstractmethod
    def search(self, query: str, top_k: int = 3) -> list[Hit]:
        """Return up to ``top_k`` hits, best first.

        Backends that keep history (lesson 10) take ``include_history=False`` too:
        by default only current memories are searched, superseded ones on request.
        """

    @abstractmethod
    def list_all(self) -> list[MemoryRecord]:
        """Every stored memory, oldest first."""

    @abstractmethod
    def delete(self, memory_id: str) -> bool:
        """Delete one memory; return whether it existed.

        Backends that keep history refuse (``ValueError``) the current version of a fact that has older
        versions, since deleting it would make an older one current again: ``forget`` removes the whole fact.
        """

    def forget(self, memory_id: str) -> list[str]:
        """Remove the fact ``memory_id`` belongs to with every version of it; return the ids removed, oldest first.

        This default deletes the versions one by one, oldest first (each is then an older version, or the
        last one left), which is all a memory without files needs. A backend that keeps files overrides it
        so that the texts leave its files too, and in one step (``HybridMemory``, ``QdrantMemory``).
        """
        removed = [record.id for record in self.history(memory_id)]
        for version in removed:
            self.delete(version)
        return removed

    def store_many(self, texts: Sequence[str], metadatas: Sequence[Metadata | None] | None = None) -> list[str]:
        """Store a batch; backends override this when batching is cheaper."""
        metadatas = list(metadatas) if metadatas is not None else [None] * len(texts)
        if len(metadatas) != len(texts):
            raise ValueError(f"got {len(texts)} texts but {len(metadatas)} metadata entries")
        return [self.store(text, meta) for text, meta in zip(texts, metadatas)]

    def get(self, memory_id: str) -> MemoryRecord | None:
        """The memory with this id, or ``None``."""
        return next((r for r in self.list_all() if r.id == memory_id), None)

    def supersede(self, old_id: str, text: str, metadata: Metadata | None = None, *, at: str | None = None) -> str:
        """Store ``text`` as the memory that replaces ``old_id``; return the new id (lesson 10).

        The old memory stays stored, marked ``superseded_by`` the new id and
        ``superseded_at`` ``at`` (default: now, UTC); default search leaves it out.
        ``metadata`` defaults to the old memory's. Raises ``ValueError`` if
        ``old_id`` is unknown or already superseded, and then changes nothing.
        A backend that keeps no history leaves this as it is.
        """
        raise NotImplementedError(f"{type(self).__name__} keeps no history: it cannot supersede memories")

    def history(self, memory_id: str) -> list[MemoryRecord]:
        """Every version of the fact ``memory_id`` belongs to, oldest first ([] for an unknown id)."""
        record, seen = self.get(memory_id), {memory_id}
        while record is not None and record.supersedes is not None and record.supersedes not in seen:
            older = self.get(record.supersedes)  # `seen`: a hand-edited cycle of links must not loop for ever
            if older is None:
                break
            record = older
            seen.add(record.id)
        versions, seen = [], set()
        while record is not None and record.id not in seen:
            versions.append(record)
            seen.add(record.id)
            record = self.get(record.superseded_by) if record.superseded_by else None
        return versions

    def __len__(self) -> int:
        return len(self.list_all())


class LLMProvider(ABC):
    """A chat model that may answer with tool calls. ``name`` says which model is in use."""

    name: str = "llm"

    @abstractmethod
    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> AssistantMessage:
        """Send chat-completions ``messages`` (and tool schemas) and return the assistant's reply."""

    def describe(self) -> str:
        """One line for a person: which model answers (and, for a stand-in, how to use a real one)."""
        return self.name


# Characters of one tool result fed back to the model; the agent cuts a longer one, so a tool that must be heard in
# full (memory_store's held-back report) writes within it.
MAX_TOOL_RESULT = 8_000


class Tool(ABC):
    """Something the model may call. Subclasses set ``name`` and ``description`` and write ``run``.

    The JSON schema of the parameters is derived from ``run``'s signature (type
    hints, defaults, and ``name: description`` lines in its docstring) unless the
    subclass sets ``parameters`` explicitly. ``invoke`` validates the model's
    arguments against that schema before ``run`` ever sees them.
    """

    name: str = ""
    description: str = ""
    parameters: dict[str, Any] | None = None

    @abstractmethod
    def run(self, **kwargs: Any) -> str:
        """Do the work and return text for the model."""

    def parameters_schema(self) -> dict[str, Any]:
        return self.parameters if self.parameters is not None else schema_from_function(self.run)

    def schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema for this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }

    def invoke(self, arguments: str | dict[str, Any] | None) -> str:
        """Parse and validate the model's arguments, then run. Mistakes come back as ``Error: …`` text."""
        if arguments is None or arguments == "":
            arguments = "{}"
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                return f"Error: arguments for `{self.name}` are not valid JSON ({exc.msg} at position {exc.pos}). Send a JSON object."
            except (ValueError, RecursionError):  # a number of over 4,300 digits, or nesting too deep to recurse
                return (f"Error: arguments for `{self.name}` could not be read: a number is too long or the JSON is "
                        "nested too deeply. Send a flat JSON object.")
        if not isinstance(arguments, dict):
            return f"Error: arguments for `{self.name}` must be a JSON object, got {type(arguments).__name__}."
        problems = validate_arguments(self.parameters_schema(), arguments)
        if problems:
            return f"Error: invalid arguments for `{self.name}`: " + "; ".join(problems)
        return self.run(**arguments)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
