"""Worked solutions for lesson 09: a hot-swappable web tool, and seeding a memory file only once.

Open this when you are stuck on exercises 09.1–09.4 or the stretch. The web tool keeps the
name ``web_search``, so ``agent.register_tool`` replaces the old one; its
knowledge extends the built-in one rather than replacing it. ``seed_once``
checks before it stores, because a memory file outlives the notebook run that
filled it: run the cell again and an unconditional seed would store every fact twice.
``MemoryForgetTool`` (09.3) deletes one memory by id and answers every refusal with text, never
an exception; ``SuggestingForgetTool``, a second design, tells text that is no id from an id not stored, and
answers the first with the ids of the closest memories, so the model can retry without a search (``SOLUTIONS["09.3"]`` lists both). ``move_memory`` (09.4) keeps the agent and repoints its memory and every tool bound to
it; ``move_memory_by_new_tools`` is a second design, which copies in one batch and replaces each
memory tool with a new one built on the file (``SOLUTIONS["09.4"]`` lists both). The stretch saves the conversation next to the memory file, so a new agent resumes both.
"""

from __future__ import annotations

import json
import re
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


class MemoryForgetTool(Tool):
    name = "memory_forget"
    description = ("Delete one memory from long-term memory by its id, e.g. mem_0003. This cannot be undone: "
                   "search first and forget only what the user asked you to forget.")

    def __init__(self, memory: MemoryBackend) -> None:
        self.memory = memory

    def run(self, memory_id: str) -> str:
        """Forget a memory.

        memory_id: The id of the memory to delete, as shown by memory_search (e.g. mem_0003).
        """
        # delete() answers False for an unknown or malformed id, so every refusal is one branch.
        if not self.memory.delete(memory_id):
            return f"Error: there is no memory {memory_id!r}; use memory_search to find the right id."
        return f"Forgot {memory_id}."


def make_forget_tool(memory: MemoryBackend) -> MemoryForgetTool:
    return MemoryForgetTool(memory)


class SuggestingForgetTool(MemoryForgetTool):
    # A second design for 09.3: say why a forget failed. Text that is no id (the model passed a description)
    # gets the ids of the memories nearest that text to retry with; a well-formed id that is not stored, a plain no.
    def run(self, memory_id: str) -> str:
        """Forget a memory.

        memory_id: The id of the memory to delete, as shown by memory_search (e.g. mem_0003).
        """
        if self.memory.delete(memory_id):
            return f"Forgot {memory_id}."
        if not re.fullmatch(r"mem_\d{4,}", memory_id.strip()):
            near = ", ".join(hit.id for hit in self.memory.search(memory_id, top_k=3)) if len(self.memory) else ""
            return (f"Error: {memory_id!r} is not a memory id (ids look like mem_0003)."
                    + (f" The memories closest to it are {near}: forget one of those ids." if near else ""))
        return f"Error: there is no memory {memory_id}: it was never stored or is already forgotten. Nothing was deleted."


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
SOLUTIONS = {"09.3": [(MemoryForgetTool,), (SuggestingForgetTool,)],  # a class is a make_forget_tool too
             "09.4": [(move_memory,), (move_memory_by_new_tools,)]}
