"""The write-time conflict check finds a stored fact however many thread turns quote it (issue 28)."""

from __future__ import annotations

import pytest

from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.write_conflicts import CANDIDATES, find_conflicts

FACT = "The deadline of project 7 is Friday."


@pytest.fixture(scope="module", params=[5, 20])
def memory(request):
    # Turns that repeat the fact's words outrank it by their own words (a turn no longer borrows the words it holds
    # from its neighbours: thread_context.py), which is the situation the check must survive.
    quotes = [f"Deadline, project 7 deadline: {FACT} Project 7, deadline Friday (round {i})." for i in range(request.param)]
    memory = HybridMemory(default_embedder())
    memory.store_many(["So what did the team agree on?", *quotes, "Great, thanks for the update on the schedule."],
                      [{"thread": "chat-1"}] * (len(quotes) + 2))
    memory.store_many(["The budget of project 7 is 40,000 euros.", "The deadline of project 9 is in March."])
    fact_id = memory.store(FACT)
    memory.store_many([f"Yes, and {FACT.lower()}", "Noted."], [{"thread": "chat-1"}] * 2)
    return memory, fact_id


def test_searched_as_usual_the_quoting_turns_rank_above_the_fact(memory) -> None:
    memory, fact_id = memory  # the situation the check must survive
    ranked = [hit.id for hit in memory.search("The deadline of project 7 is Monday.", top_k=len(memory))]
    assert ranked.index(fact_id) >= 3


def test_a_new_value_is_caught_as_replacing_the_fact_however_many_turns_quote_it(memory) -> None:
    memory, fact_id = memory
    for candidates in (1, CANDIDATES):
        conflicts = find_conflicts(memory, "The deadline of project 7 is Monday.", candidates)
        assert [(c.kind, c.id) for c in conflicts if c.id == fact_id] == [("replaces", fact_id)]


def test_an_exact_repeat_is_caught_as_a_duplicate_however_many_turns_quote_it(memory) -> None:
    memory, fact_id = memory
    for candidates in (1, CANDIDATES):
        assert [(c.kind, c.id) for c in find_conflicts(memory, FACT, candidates)] == [("duplicate", fact_id)]
