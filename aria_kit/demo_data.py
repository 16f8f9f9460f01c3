"""The reference demo's data (lessons 01–09): the seven facts, the showdown queries, the conversation.

Data only, plus ``seed_memory``: this module imports nothing but the memory
contract, so an early lesson, a chart or a test can use the demo facts without
loading the agent, the providers or the OpenAI SDK (``demo.py`` builds on it).
"""

from __future__ import annotations

from aria_kit.interfaces import MemoryBackend

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


def seed_memory(memory: MemoryBackend) -> list[str]:
    """Store the seven demo facts with their categories; return their ids."""
    return memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])
