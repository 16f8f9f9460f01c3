"""Aria Kit: the pieces the lessons build, importable and tested.

Each module matches a lesson: ``interfaces`` (01), ``embeddings`` (02), ``bm25``
(03), ``fusion``, ``memory_rules`` and ``hybrid_memory`` (04), ``schemas``, ``tools`` and
``calculator`` (05), ``persona`` (06), ``providers``, ``offline``, ``scripted`` and
``agent`` (07), ``demo`` (08). Charts and the chat widget import matplotlib and
ipywidgets, so they are never imported from here: ``from aria_kit.charts import …``.

The names below are imported lazily on first use, so ``import aria_kit`` stays
fast and importing one module does not load the embedding model. ``QdrantMemory``
needs the optional extra ``aria_kit[qdrant]``; without it, using the name raises an
``ImportError`` that says how to install it, and nothing else is affected.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

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
