"""The write-time conflict check finds a stored fact however many thread turns quote it (issue 28)."""

from __future__ import annotations

import pytest

from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.write_conflicts import find_conflicts

FACT = "The deadline of project 7 is Friday."
QUOTES = [f"Dana said in the stand-up that {FACT.lower()} Remember it, round {i}." for i in range(5)]


@pytest.fixture(scope="module")
def memory():
    memory = HybridMemory(default_embedder())
    memory.store_many(["So what did the team agree on?", *QUOTES, "Great, thanks for the update on the schedule."],
                      [{"thread": "chat-1"}] * 7)
    memory.store_many(["The budget of project 7 is 40,000 euros.", "The deadline of project 9 is in March."])
    fact_id = memory.store(FACT)
    memory.store_many([f"Yes, and {FACT.lower()}", "Noted."], [{"thread": "chat-1"}] * 2)
    return memory, fact_id


def test_with_thread_context_the_quoting_turns_crowd_the_fact_out_of_the_top_five(memory) -> None:
    memory, fact_id = memory  # the situation the check must survive: searched as usual, the fact is not seen
    assert fact_id not in [hit.id for hit in memory.search("The deadline of project 7 is Monday.", top_k=5)]


def test_a_new_value_is_caught_as_replacing_the_fact_despite_five_quoting_turns(memory) -> None:
    memory, fact_id = memory
    conflicts = find_conflicts(memory, "The deadline of project 7 is Monday.")
    assert [(c.kind, c.id) for c in conflicts if c.id == fact_id] == [("replaces", fact_id)]


def test_an_exact_repeat_is_caught_as_a_duplicate_despite_five_quoting_turns(memory) -> None:
    memory, fact_id = memory
    assert [(c.kind, c.id) for c in find_conflicts(memory, FACT)] == [("duplicate", fact_id)]
