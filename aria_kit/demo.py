"""The reference demo (lesson 09): seed memory, search showdown, conversation, hot swap, dump.

The demo's data is in ``demo_data.py`` (re-exported here); this file adds ``make_agent``, the one-line way
to get a ready agent: offline rule-based model unless ``OPENAI_API_KEY`` or
``OPENAI_BASE_URL`` is set, offline embeddings, Aria's persona and the four
tools (plus ``memory_update``, lesson 10). ``run_demo`` prints the whole demo readably; ``python -m aria_kit demo``
calls it. Nothing in this file is special-cased for the offline model: the
same conversation goes to a real model when one is configured.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aria_kit.agent import AutonomousAgent
# The data lives in a data-only module; re-exported here because the lessons import it from demo.
from aria_kit.demo_data import CONVERSATION, DEMO_FACTS, HOT_SWAP_QUESTION, SHOWDOWN_QUERIES, seed_memory
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import LLMProvider, MemoryBackend
from aria_kit.persona import ARIA, AgentPersona
from aria_kit.openai_provider import default_provider
from aria_kit.tools import WebSearchTool, default_tools

__all__ = ["CONVERSATION", "DEMO_FACTS", "HOT_SWAP_QUESTION", "SHOWDOWN_QUERIES", "StorageWebSearch",
           "make_agent", "run_demo", "seed_memory"]


class StorageWebSearch(WebSearchTool):
    """The hot-swapped web tool: the same simulated web, plus storage-engine knowledge."""

    KNOWLEDGE = {
        **WebSearchTool.KNOWLEDGE,
        "LSM-tree": "A log-structured merge-tree (LSM-tree) buffers writes in memory and flushes sorted runs to "
        "disk, merging them in the background: very fast writes, at the cost of read and space amplification.",
        "B-tree": "A B-tree keeps keys sorted in wide, shallow pages and updates them in place: reads and range "
        "scans take a few page reads, writes cost more than in an LSM-tree. Most relational databases use one.",
    }


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
    # the reference design's four tools, and lesson 10's memory_update so facts can change with history kept
    return AutonomousAgent(persona, llm, memory, default_tools(memory, updates=True))


def run_demo(out: Callable[[str], None] = print, llm: LLMProvider | None = None) -> AutonomousAgent:
    """Run the whole reference demo, printing each step through ``out``; return the agent."""
    agent = make_agent(llm=llm)
    out(f"Model: {agent.llm.name}\n")
    out("== 1. Seed memory")
    for memory_id, (text, category) in zip(seed_memory(agent.memory), DEMO_FACTS):
        out(f"  {memory_id} [{category}] {text}")

    out("\n== 2. Search showdown (top 2: fused score, cosine, BM25)")
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
