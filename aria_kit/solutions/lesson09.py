"""Worked solutions for lesson 09: a hot-swappable web tool, and seeding a memory file only once.

Open this when you are stuck on exercises 9.1 and 8.2. The web tool keeps the
name ``web_search``, so ``agent.register_tool`` replaces the old one; its
knowledge extends the built-in one rather than replacing it. ``seed_once``
checks before it stores, because a memory file outlives the notebook run that
filled it: run the cell again and an unconditional seed would store every fact twice.
"""

from __future__ import annotations

from pathlib import Path

from aria_kit.demo import seed_memory
from aria_kit.hybrid_memory import HybridMemory
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
