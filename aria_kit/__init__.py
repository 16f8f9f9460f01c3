"""Aria Kit: the pieces the lessons build, importable and tested.

``LESSONS`` below is the lesson map, written once: which lesson introduces each
module. Imports point backward only — a module imports modules of its own or
earlier lessons (``tests/test_import_direction.py`` derives the import graph and
enforces it) — so an early lesson never loads the agent or the OpenAI SDK.
``charts`` and ``chat_widget`` are the display modules: the only ones that
import matplotlib or ipywidgets, and nothing in the package imports them, so
they are never imported from here: ``from aria_kit.charts import …``.

The names below are imported lazily on first use, so ``import aria_kit`` stays
fast and importing one module does not load the embedding model. ``QdrantMemory``
needs the optional extra ``aria_kit[qdrant]``; without it, using the name raises an
``ImportError`` that says how to install it, and nothing else is affected.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# module -> the lesson that introduces it (exercise and solution modules belong to their own lesson).
LESSONS: dict[str, int] = {
    "time_limits": 0,  # the exercise checks' time limit (from lesson 00 on) and, in lesson 08, the tools'
    "interfaces": 1, "schemas": 1,  # Tool.schema() derives its schema in lesson 01; lesson 06 takes it apart
    "tables": 1, "demo_data": 1,  # display tables without matplotlib; the demo facts
    "embeddings": 2,
    "bm25": 3,
    "fusion": 4, "memory_rules": 4, "persistence": 4, "memory_rows": 4, "hybrid_memory": 4, "evaluation": 4,
    "exact_top_k": 4,  # HybridMemory's search sorts only the heads of its rankings; lesson 13 explains how
    "thread_context": 4,  # thread memories borrow their neighbouring turns' keyword scores at search time
    "datasets": 5, "measuring": 5, "tuning": 5, "thread_evaluation": 5,
    "charts": 5,  # display module for the retrieval lessons 02–05
    "calculator": 6, "tools": 6,
    "write_conflicts": 6,  # memory_store's check on write: it runs from 06 on, lesson 10 explains it
    "persona": 7,
    "scripted": 8, "offline": 8, "offline_rules": 8, "offline_arithmetic": 8,
    "offline_updates": 8,  # the stand-in's update rules: it uses them from 08 on, lesson 10 explains them
    "offline_conflicts": 8,  # the stand-in follows memory_store's conflict report; lesson 10 explains it
    "reply_limits": 8, "openai_provider": 8, "openai_embedder": 8, "agent": 8,
    "conversation_log": 8, "offline_conversation": 8,  # the agent's log of what was said, and the stand-in's use of it
    "demo": 9, "__main__": 9,
    "changing_facts": 10,
    "chat_widget": 11,
    "bm25_vectors": 12, "qdrant_engines": 12, "qdrant_server": 12,  # BM25 as sparse vectors; Edge; a server
    "qdrant_memory": 12,
    "approximate_search": 13,
}

_EXPORTS = {
    "AssistantMessage": "interfaces", "Embedder": "interfaces", "Hit": "interfaces", "LLMProvider": "interfaces",
    "MemoryBackend": "interfaces", "MemoryRecord": "interfaces", "Tool": "interfaces", "ToolCall": "interfaces",
    "reciprocal_rank_fusion": "fusion", "HybridMemory": "hybrid_memory",
    "ARIA": "persona", "AgentPersona": "persona",
    "OpenAIProvider": "openai_provider", "ProviderError": "openai_provider", "default_provider": "openai_provider",
    "OfflineProvider": "offline", "ScriptedProvider": "scripted",
    "OfflineLLM": "offline", "ScriptedLLM": "scripted",  # names before 0.2, kept as aliases
    "AutonomousAgent": "agent", "Step": "agent", "Turn": "agent",
    "make_agent": "demo",
    "QdrantMemory": "qdrant_memory",  # optional extra: pip install 'aria_kit[qdrant]'
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'aria_kit' has no attribute {name!r}")
    return getattr(importlib.import_module(f"aria_kit.{_EXPORTS[name]}"), name)


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
