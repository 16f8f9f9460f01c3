"""What changed: the newer of two conflicting memories first, the older for questions about the past (recency.py)."""

from __future__ import annotations

import pytest

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Hit
from aria_kit.recency import WINDOW, asks_about_past, memory_date, newer_first, reorder

OLD = "Marek sent the quote through this morning: £14,200 all in, including the plastering."
NEW = "Bad news on the money side: the total for the job Marek is doing went up to £16,950 now."
OTHER = "We ordered a deep Belfast sink, which felt extravagant."


def hit(seq: int, text: str, score: float, **metadata) -> Hit:
    return Hit(f"mem_{seq:04d}", text, metadata, score, score, 1.0)


def ids(hits) -> list[str]:
    return [h.id for h in hits]


CANDIDATES = [hit(2, OLD, 0.9), hit(3, OTHER, 0.8), hit(9, NEW, 0.7), hit(4, "Marek came round on Monday.", 0.6)]


def test_a_question_about_the_current_value_gets_the_newer_memory_above_the_older():
    order = ids(newer_first("How much is the kitchen with Marek going to cost us now?", CANDIDATES, 3))
    assert order == ["mem_0009", "mem_0002", "mem_0003"]  # the older stays, one place down


def test_a_question_about_the_past_keeps_the_older_memory_first():
    hits = newer_first("What was Marek's original quote before the damp turned up?", CANDIDATES, 3)
    assert ids(hits) == ["mem_0002", "mem_0003", "mem_0009"]


def test_a_question_about_the_past_moves_the_older_memory_above_the_newer():
    newer_on_top = [CANDIDATES[2], CANDIDATES[1], CANDIDATES[0]]
    assert ids(newer_first("What did Marek quote at first?", newer_on_top, 2)) == ["mem_0009", "mem_0002"]


def test_hits_that_conflict_with_nothing_keep_their_identical_order():
    plain = [hit(5, "Alice likes Rust.", 0.9), hit(1, "The deadline is Friday.", 0.5),
             hit(7, "Bob moved to Lisbon now.", 0.4), hit(3, "Order 4821 shipped.", 0.3)]
    assert reorder("what changed now?", plain) == plain


def test_a_newer_memory_that_repeats_the_older_word_for_word_is_not_a_change():
    quote = hit(8, OLD + " That is now settled.", 0.5)
    assert ids(reorder("how much now?", [hit(2, OLD, 0.9), quote])) == ["mem_0002", "mem_0008"]


def test_dates_decide_which_is_newer_when_both_memories_have_one():
    older_by_date = hit(9, NEW, 0.9, date="2026-01-05")
    newer_by_date = hit(2, OLD.replace("this morning", "now"), 0.8, date="2026-02-01")
    assert ids(reorder("What does the job cost?", [older_by_date, newer_by_date])) == ["mem_0002", "mem_0009"]


def test_memories_linked_by_supersede_are_versions_of_one_fact_whatever_their_words():
    old = Hit("mem_0001", "Rust.", {}, 0.9, 0.9, 1.0, superseded_by="mem_0004")
    new = Hit("mem_0004", "Alice's language is Go.", {}, 0.5, 0.5, 1.0, supersedes="mem_0001")
    assert ids(reorder("Which language does Alice use?", [old, new])) == ["mem_0004", "mem_0001"]


def test_the_window_is_fixed_so_a_smaller_top_k_is_a_prefix_of_a_larger_one():
    filler = [hit(100 + n, f"Unrelated turn number {n} about gardening.", 0.5 - n / 100) for n in range(30)]
    candidates = CANDIDATES + filler
    calls = []

    def search(k: int) -> list[Hit]:
        calls.append(k)
        return candidates[:k]

    query = "What's the latest total for Marek's job?"
    assert newer_first(query, search, 3) == newer_first(query, candidates, 30)[:3]
    assert calls == [WINDOW]  # asks for the window, not just the top 3


def test_newer_first_over_a_real_memory_finds_the_newer_statement_first():
    memory = HybridMemory()
    memory.store_many([OLD, OTHER, "Marek came round on Monday to measure up.", NEW])
    hits = newer_first("How much is the kitchen with Marek going to cost us now?",
                       lambda k: memory.search("How much is the kitchen with Marek going to cost us now?", k), 2)
    assert ids(hits)[0] == "mem_0004"


@pytest.mark.parametrize("query", ["What was the quote before the damp?", "What did I use to weigh?",
                                   "What was the original estimate?", "How often did I play at first?",
                                   "How bad was the knee when I first saw the physio?", "What was it previously?"])
def test_questions_about_the_past_are_recognised(query):
    assert asks_about_past(query)


@pytest.mark.parametrize("query", ["How much is it now?", "What's the current total?", "How heavy is Luna?"])
def test_questions_about_the_present_are_not_taken_for_the_past(query):
    assert not asks_about_past(query)


@pytest.mark.parametrize(("metadata", "day"), [
    ({"date": "2026-03-02"}, "2026-03-02"),
    ({"at": "2026-03-02T09:15:00+00:00"}, "2026-03-02"),  # the conversation log's timestamp
    ({"date": "2026-03-02", "at": "2025-01-01T00:00:00"}, "2026-03-02"),
    ({"date": "last week"}, None), ({"date": 20260302}, None), ({}, None), ({"category": "fact"}, None),
])
def test_a_memory_date_is_read_from_its_metadata_or_is_none(metadata, day):
    assert memory_date(metadata) == day
