"""The reference demo (lesson 09): seed memory, search showdown, conversation, hot swap, dump.

Everything here is data from the mission plus ``make_agent``, the one-line way
to get a ready agent: offline rule-based model unless ``OPENAI_API_KEY`` or
``OPENAI_BASE_URL`` is set, offline embeddings, Aria's persona and the four
tools. ``run_demo`` prints the whole demo readably; ``python -m aria_kit demo``
calls it. Nothing in this file is special-cased for the offline model: the
same conversation goes to a real model when one is configured.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aria_kit.agent import AutonomousAgent
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import LLMProvider, MemoryBackend
from aria_kit.persona import ARIA, AgentPersona
from aria_kit.providers import default_provider
from aria_kit.tools import WebSearchTool, default_tools

DEMO_FACTS: list[tuple[str, str]] = [
    ("Alice's favourite programming language is Rust.", "user_pref"),
    ("Alice is working on a distributed key-value store called 'VelocityDB'.", "task"),
    ("VelocityDB uses the Raft consensus algorithm for replication.", "fact"),
    ("Alice has a meeting with the infrastructure team on Friday at 2 PM.", "calendar"),
    ("The project deadline for VelocityDB v1.0 is March 31.", "task"),
    ("Alice prefers concise answers without unnecessary preamble.", "user_pref"),
    ("Order #4821 was placed by Alice for 32 GB of DDR5 RAM modules.", "order"),
]

SHOWDOWN_QUERIES: list[str] = [
    "What consensus algorithm does VelocityDB use?",
    "order 4821",
    "Alice's language preference",
]

CONVERSATION: list[str] = [
    "What is Alice's project, what is its deadline, and which algorithm does it rely on?",
    "What are the details of order 4821?",
    "There are 22 working days until March 31 at 6.5 hours a day — how many hours are left?",
    "Alice switched VelocityDB's storage engine from LSM-tree to B-tree — remember this.",
    "What storage engine decision did Alice make?",
]

HOT_SWAP_QUESTION = "Explain B-trees, and whether a B-tree suits Alice's project."


class StorageWebSearch(WebSearchTool):
    """The hot-swapped web tool: the same simulated web, plus storage-engine knowledge."""

    KNOWLEDGE = {
        **WebSearchTool.KNOWLEDGE,
        "LSM-tree": "A log-structured merge-tree (LSM-tree) buffers writes in memory and flushes sorted runs to "
        "disk, merging them in the background: very fast writes, at the cost of read and space amplification.",
        "B-tree": "A B-tree keeps keys sorted in wide, shallow pages and updates them in place: reads and range "
        "scans take a few page reads, writes cost more than in an LSM-tree. Most relational databases use one.",
    }


def seed_memory(memory: MemoryBackend) -> list[str]:
    """Store the seven demo facts with their categories; return their ids."""
    return memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])


def make_agent(
    memory: MemoryBackend | None = None,
    llm: LLMProvider | None = None,
    persona: AgentPersona = ARIA,
    *,
    memory_path: str | Path | None = None,
    verbose: bool = True,
) -> AutonomousAgent:
    """A ready agent: given parts are used as they are; missing ones get the kit's defaults."""
    memory = memory if memory is not None else HybridMemory(path=memory_path)
    llm = llm if llm is not None else default_provider(verbose=verbose)
    return AutonomousAgent(persona, llm, memory, default_tools(memory))


def run_demo(out: Callable[[str], None] = print, llm: LLMProvider | None = None) -> AutonomousAgent:
    """Run the whole reference demo, printing each step through ``out``; return the agent."""
    agent = make_agent(llm=llm)
    out(f"Model: {agent.llm.name}\n")
    out("== 1. Seed memory")
    for memory_id, (text, category) in zip(seed_memory(agent.memory), DEMO_FACTS):
        out(f"  {memory_id} [{category}] {text}")

    out("\n== 2. Search showdown (top 2: fused RRF score, cosine, BM25)")
    for query in SHOWDOWN_QUERIES:
        out(f"  query: {query}")
        for hit in agent.memory.search(query, top_k=2):
            out(f"    {hit.id}  fused {hit.score:.4f}  cosine {hit.cosine:.3f}  bm25 {hit.bm25:.3f}  {hit.text}")

    out("\n== 3. Conversation")
    for message in CONVERSATION:
        _turn(agent, message, out)

    out("\n== 4. Hot swap: web_search now also knows storage engines")
    agent.register_tool(StorageWebSearch())
    _turn(agent, HOT_SWAP_QUESTION, out)

    out("\n== 5. Memory dump")
    for record in agent.memory_dump():
        out(f"  {record.id} [{record.category}] {record.text}")
    return agent


def _turn(agent: AutonomousAgent, message: str, out: Callable[[str], None]) -> None:
    answer = agent.chat(message)
    out(f"\nyou:  {message}")
    for step in agent.last_turn.steps if agent.last_turn else ():
        if step.kind == "tool":
            out(f"      tool  {step.summary}")
    out(f"aria: {answer}")
