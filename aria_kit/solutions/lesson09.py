"""Worked solutions for lesson 09: a hot-swappable web tool, and seeding a memory file only once.

Open this when you are stuck on exercises 09.1–09.4 or the stretch. The web tool keeps the
name ``web_search``, so ``agent.register_tool`` replaces the old one; its
knowledge extends the built-in one rather than replacing it. ``seed_once``
checks before it stores, because a memory file outlives the notebook run that
filled it: run the cell again and an unconditional seed would store every fact twice.
In 09.3 the model gets no forgetting tool: ``ForgetRequestTool`` only records a proposal and
says it asked the person, and its ``confirm`` (the person's yes) calls ``memory.forget``, which removes every
version (``delete`` refuses a current version with history); ``make_stateless_forget_request``, a second design,
keeps no proposals and lets the person confirm any id (``SOLUTIONS["09.3"]`` lists both). ``move_memory`` (09.4) keeps the agent and repoints its memory and every tool bound to
it; ``move_memory_by_new_tools`` is a second design, which copies in one batch and replaces each
memory tool with a new one built on the file (``SOLUTIONS["09.4"]`` lists both). The stretch saves the conversation next to the memory file, so a new agent resumes both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from aria_kit.agent import AutonomousAgent
from aria_kit.demo import make_agent, seed_memory
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import LLMProvider, MemoryBackend, Tool
from aria_kit.tools import WebSearchTool


def glossary_web_search() -> WebSearchTool:
    return WebSearchTool({
        **WebSearchTool.KNOWLEDGE,
        "Raft": "Raft is a consensus algorithm: the nodes elect a leader, which appends every change to a "
        "replicated log and commits it once a majority of the nodes have stored it.",
    })


def seed_once(path: Path) -> HybridMemory:
    memory = HybridMemory(path=path)
    if len(memory) == 0:
        seed_memory(memory)
    return memory


def save_conversation(agent: AutonomousAgent, path: Path) -> None:
    # The history is a list of plain {"role", "content"} dicts, so JSON holds it exactly; UTF-8 keeps "—" as it is.
    Path(path).write_text(json.dumps(agent.history, ensure_ascii=False, indent=1), encoding="utf-8")


def resume(memory_path: Path, history_path: Path, llm: LLMProvider) -> AutonomousAgent:
    agent = make_agent(memory_path=memory_path, llm=llm, verbose=False)
    agent.history = json.loads(Path(history_path).read_text(encoding="utf-8"))
    return agent


class ForgetRequestTool(Tool):
    name = "memory_forget_request"
    description = ("Ask the person to confirm forgetting one memory, by its id (e.g. mem_0003), with every older "
                   "version of it. This forgets nothing itself: only the person's yes does, and it cannot be undone. "
                   "Use it only when the user asked to forget something; to correct a fact, use memory_update.")

    def __init__(self, memory: MemoryBackend) -> None:
        self.memory = memory
        self.pending: set[str] = set()  # what the model proposed and the person has not answered yet

    def run(self, memory_id: str) -> str:
        """Propose to forget a memory.

        memory_id: The id of the memory to forget, as shown by memory_search (e.g. mem_0003).
        """
        record = self.memory.get(memory_id)
        if record is None:
            return f"Error: there is no memory {memory_id!r}; use memory_search to find the right id."
        self.pending.add(memory_id)
        return f"Asked the person to confirm forgetting {memory_id} ({record.text!r}). Nothing is forgotten yet."

    def confirm(self, memory_id: str) -> str:
        """The person's yes: forget ``memory_id`` with every version, if the model proposed it."""
        if memory_id not in self.pending:
            return f"Nothing was forgotten: {memory_id!r} was not proposed, or was answered already."
        self.pending.discard(memory_id)
        removed = self.memory.forget(memory_id)  # delete would refuse a current version with history
        return f"Forgot {', '.join(removed)}." if removed else f"{memory_id} was already gone."


def make_forget_request(memory: MemoryBackend) -> tuple[ForgetRequestTool, Callable[[str], str]]:
    tool = ForgetRequestTool(memory)
    return tool, tool.confirm


def make_stateless_forget_request(memory: MemoryBackend) -> tuple[Tool, Callable[[str], str]]:
    # A second design for 09.3: no list of pending proposals. The tool only describes what a yes would remove
    # (the fact and how many versions), and the person's confirm forgets any id they name: the person may always
    # forget directly, and it is the person, never the model, who calls it.
    class Proposal(Tool):
        name = "memory_forget_request"
        description = ("Ask the person to confirm forgetting a memory and its older versions. This changes nothing "
                       "by itself; only the person's yes forgets, for good.")
        parameters = {"type": "object", "required": ["memory_id"], "additionalProperties": False,
                      "properties": {"memory_id": {"type": "string",
                                                   "description": "The memory's id from memory_search, e.g. mem_0003"}}}

        def run(self, memory_id: str) -> str:
            versions = memory.history(memory_id)
            if not versions:
                return f"Error: no memory is stored as {memory_id!r}; ids look like mem_0003 (see memory_search)."
            older = f" and {len(versions) - 1} older version(s)" if len(versions) > 1 else ""
            return f"Asked the person: forget {memory_id}{older}? Only their yes forgets it."

    def confirm(memory_id: str) -> str:
        removed = memory.forget(memory_id) if memory.get(memory_id) is not None else []
        return f"Forgot {', '.join(removed)}." if removed else f"No memory {memory_id!r}: nothing was forgotten."

    tool = Proposal()
    return tool, confirm


def move_memory(agent: AutonomousAgent, path: Path) -> HybridMemory:
    # The agent object stays, so its history and turns stay. Each memory tool was built with the old memory and
    # keeps its own reference (tool.memory): repoint those too, or memory_store would go on writing to the old one.
    moved = HybridMemory(path=path)
    old = agent.memory
    for record in old.list_all():
        moved.store(record.text, dict(record.metadata))
    agent.memory = moved
    for tool in agent.tools.values():
        if getattr(tool, "memory", None) is old:
            tool.memory = moved
    return moved


def move_memory_by_new_tools(agent: AutonomousAgent, path: Path) -> HybridMemory:
    # A second design: leave the old tools alone and hot-swap each memory tool for a fresh one of the same class
    # built on the file (register_tool replaces a tool of the same name, in place); copy every memory in one batch.
    old = agent.memory
    records = old.list_all()
    moved = HybridMemory(path=path)
    moved.store_many([r.text for r in records], [dict(r.metadata) for r in records])
    bound = [tool for tool in agent.tools.values() if getattr(tool, "memory", None) is old]
    agent.memory = moved
    for tool in bound:
        agent.register_tool(type(tool)(moved))
    return moved


# Each design is the argument of one call of its exercise's check (tests/test_exercise_kinds.py runs them all).
SOLUTIONS = {"09.3": [(make_forget_request,), (make_stateless_forget_request,)],
             "09.4": [(move_memory,), (move_memory_by_new_tools,)]}
