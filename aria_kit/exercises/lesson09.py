"""Exercise checks for lesson 09 (the capstone): hot-swap a web tool, and seed a memory file only once.

``check_glossary_web_search(glossary_web_search)`` swaps the learner's tool into
an offline agent and asks it about Raft. ``check_seed_once(seed_once)`` calls the
learner's function twice on the same file in a temporary folder (deleted
afterwards) and checks that the file holds the seven demo facts exactly once,
as a notebook re-run or a kernel restart would need.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from aria_kit.demo import DEMO_FACTS, make_agent
from aria_kit.exercises import check
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryBackend, Tool
from aria_kit.offline import OfflineProvider

SOLUTION = "lesson09"


def _glossary_test(glossary_web_search: Callable[[], Tool]) -> None:
    tool = glossary_web_search()
    assert isinstance(tool, Tool), f"glossary_web_search returned a {type(tool).__name__}; return a Tool"
    assert tool.name == "web_search", (
        f"the tool is called {tool.name!r}; keep the name 'web_search' so it replaces the old tool")
    raft = tool.invoke('{"query": "Raft"}')
    assert not raft.startswith(("No results", "Error")) and "Raft" in raft, (
        f"searching for 'Raft' gave {raft[:120]!r}; add a knowledge entry with the topic 'Raft'")
    bm25 = tool.invoke('{"query": "BM25"}')
    assert not bm25.startswith("No results"), "the old topics are gone: extend WebSearchTool.KNOWLEDGE, don't replace it"

    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.register_tool(tool)
    assert agent.tools["web_search"] is tool, "register_tool should have swapped in your tool"
    answer = agent.chat("Explain Raft")
    assert raft.split("] ", 1)[-1][:40] in answer, f"the agent's answer did not use your Raft entry: {answer!r}"


def _seed_once_test(seed_once: Callable[[Path], MemoryBackend]) -> None:
    expected = list(DEMO_FACTS)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        path = Path(folder) / "memory.sqlite"
        for run in ("first", "second"):
            memory = seed_once(path)
            try:
                stored = [(r.text, r.category) for r in memory.list_all()]
            finally:
                getattr(memory, "close", lambda: None)()
            assert len(stored) == len(expected), (
                f"after the {run} call the memory holds {len(stored)} facts; it should hold the {len(expected)} demo "
                "facts once (seed only when the memory is empty)")
            assert stored == expected, f"after the {run} call the memory holds {stored[:2]}…, not the demo facts"
        with HybridMemory(path=path) as reopened:
            assert len(reopened) == len(expected), (
                f"a fresh HybridMemory(path=path) finds {len(reopened)} memories in the file; "
                "open your memory with path=path so it is saved")


def check_glossary_web_search(glossary_web_search: Callable[[], Tool]) -> bool:
    """Check exercise 9.1: a ``web_search`` tool whose knowledge also covers Raft, hot-swapped into an agent."""
    return check("Exercise 9.1 (hot-swap a web tool)", lambda: _glossary_test(glossary_web_search), SOLUTION)


def check_seed_once(seed_once: Callable[[Path], MemoryBackend]) -> bool:
    """Check exercise 9.2: ``seed_once(path)`` opens the memory file and seeds the demo facts only if it is empty."""
    return check("Exercise 9.2 (seed a memory file once)", lambda: _seed_once_test(seed_once), SOLUTION)
