"""What changed: the newer of two conflicting memories first, the older for questions about the past (recency.py)."""

from __future__ import annotations

import pytest

from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder, Hit
from aria_kit.recency import WINDOW, asks_about_past, memory_date, newer_first, reorder

EMBEDDER = default_embedder()
RUST, GO = "Alice's favourite programming language is Rust.", "Alice's favourite programming language is Go."
PINK = "Nadia is on pink band reading books at the moment, which the teacher says is fine. The school run was chaos."
BLUE = "Good news from parents' evening: Nadia has moved up to blue band books already. We celebrated with pancakes."
FILLER = ["The neighbours' cat has adopted our garden.", "I donated a bag of clothes to the charity shop.",
          "Work was quiet, so I left early for once.", "The boiler is making that noise again.",
          "We watched a film about penguins on Sunday.", "My sister is visiting at the weekend.",
          "I keep forgetting to water the plants.", "The bus was late twice this week."]


def hit(seq: int, text: str, score: float, **metadata) -> Hit:
    return Hit(f"mem_{seq:04d}", text, metadata, score, score, 1.0)


def ids(hits) -> list[str]:
    return [h.id for h in hits]


FACTS = [hit(2, RUST, 0.9), hit(3, "Alice prefers concise answers.", 0.6), hit(9, GO, 0.5),
         hit(4, "Bob likes tea.", 0.3)]
# a long-turn pair: the older turn ranks first, the newer is three places down and says what changed
TURNS = ([hit(2, PINK, 0.9)] + [hit(10 + i, text, 0.88 - i / 100) for i, text in enumerate(FILLER[:3])]
         + [hit(40, BLUE, 0.8)] + [hit(20 + i, text, 0.7 - i / 100) for i, text in enumerate(FILLER[3:])])


def test_a_question_about_the_current_value_gets_the_newer_statement_above_the_older():
    order = ids(newer_first("What is Alice's favourite programming language?", FACTS, 3, EMBEDDER))
    assert order == ["mem_0009", "mem_0002", "mem_0003"]  # the older stays found, one place down


def test_a_question_about_the_past_keeps_the_older_statement_first():
    order = ids(newer_first("What was Alice's favourite programming language before?", FACTS, 3, EMBEDDER))
    assert order == ["mem_0002", "mem_0003", "mem_0009"]


def test_a_question_about_the_past_moves_the_older_statement_above_the_newer():
    newer_on_top = [FACTS[2], FACTS[1], FACTS[0]]
    order = ids(newer_first("Which language did Alice like at first?", newer_on_top, 2, EMBEDDER))
    assert order == ["mem_0002", "mem_0009"]


def test_a_long_turn_that_says_what_changed_goes_above_the_turn_it_updates():
    assert ids(reorder("What reading band is Nadia on now?", TURNS, EMBEDDER))[:2] == ["mem_0040", "mem_0002"]
    assert reorder("What reading band was Nadia on before parents' evening?", TURNS, EMBEDDER) == TURNS


def test_hits_that_conflict_with_nothing_keep_their_identical_order():
    plain = [hit(5, "Alice likes Rust.", 0.9), hit(1, "The deadline is Friday.", 0.85),
             hit(7, "Bob has moved to Lisbon now.", 0.8), hit(3, "Order 4821 shipped.", 0.75)]
    assert reorder("what has changed now?", plain, EMBEDDER) == plain
    assert reorder("Where does Alice live now?", [hit(1, FILLER[0], 0.9)] + TURNS, EMBEDDER)[0].id == "mem_0001"


def test_statements_about_two_people_are_not_one_fact():
    bruno = hit(12, "Bruno's favourite programming language is Zig.", 0.7)
    order = [FACTS[0], bruno]
    assert reorder("What is Alice's favourite programming language?", order, EMBEDDER) == order


def test_a_newer_memory_that_repeats_the_older_word_for_word_is_not_a_change():
    repeat = hit(8, RUST + " Noted now.", 0.85)
    assert ids(reorder("Which language does Alice like now?", [FACTS[0], repeat], EMBEDDER)) == ["mem_0002", "mem_0008"]


def test_dates_decide_which_is_newer_when_both_memories_have_one():
    go_said_first = hit(9, GO, 0.9, date="2026-01-05")
    rust_said_later = hit(2, RUST, 0.8, date="2026-02-01")
    order = reorder("What is Alice's favourite programming language?", [go_said_first, rust_said_later], EMBEDDER)
    assert ids(order) == ["mem_0002", "mem_0009"]


def test_memories_linked_by_supersede_are_versions_of_one_fact_whatever_their_words():
    old = Hit("mem_0001", "Rust.", {}, 0.9, 0.9, 1.0, superseded_by="mem_0004")
    new = Hit("mem_0004", "Alice writes Go these days.", {}, 0.5, 0.5, 1.0, supersedes="mem_0001")
    assert ids(reorder("Which language does Alice use?", [old, new], EMBEDDER)) == ["mem_0004", "mem_0001"]


def test_the_window_is_fixed_so_a_smaller_top_k_is_a_prefix_of_a_larger_one():
    candidates = FACTS + [hit(100 + n, f"Unrelated turn number {n} about gardening.", 0.2 - n / 1000)
                          for n in range(30)]
    calls = []

    def search(k: int) -> list[Hit]:
        calls.append(k)
        return candidates[:k]

    query = "What is Alice's favourite programming language?"
    assert newer_first(query, search, 3, EMBEDDER) == newer_first(query, candidates, 30, EMBEDDER)[:3]
    assert calls == [WINDOW]  # it asks for the window, not just the top 3


def test_over_a_real_memory_the_newer_fact_comes_first_where_plain_search_put_the_older():
    memory = HybridMemory()
    memory.store_many([RUST, "Alice prefers concise answers.", "Alice has a meeting on Friday.", GO[:-1] + " now."])
    question = "What is Alice's favourite programming language?"
    assert ids(memory.search(question, 2))[0] == "mem_0001"  # plain search: the stale fact first
    assert ids(newer_first(question, lambda k: memory.search(question, k), 2, memory.embedder)) == [
        "mem_0004", "mem_0001"]


@pytest.mark.parametrize("query", ["What was the quote before the damp?", "What did I use to weigh?",
                                   "What was the original estimate?", "How often did I play at first?",
                                   "How bad was the knee when I first saw the physio?", "What was it previously?"])
def test_questions_about_the_past_are_recognised(query):
    assert asks_about_past(query)


@pytest.mark.parametrize("query", ["How much is it now?", "What's the current total?", "How heavy is Luna?",
                                   "What do I use to clean the oven?"])
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


def test_each_sentence_is_embedded_once_however_often_it_is_recalled():
    class Counting(Embedder):
        name, dim = "counting", EMBEDDER.dim

        def __init__(self) -> None:
            self.texts: list[str] = []

        def embed(self, texts):
            self.texts += list(texts)
            return EMBEDDER.embed(texts)

    counting = Counting()
    first = reorder("What reading band is Nadia on now?", TURNS, counting)
    embedded = len(counting.texts)
    assert reorder("What reading band is Nadia on now?", TURNS, counting) == first
    assert len(counting.texts) == embedded + 1  # the second search embeds only its query


def test_without_an_embedder_only_same_statements_and_linked_versions_are_paired():
    assert ids(newer_first("What is Alice's favourite programming language?", FACTS, 2)) == ["mem_0009", "mem_0002"]
    assert reorder("What reading band is Nadia on now?", TURNS, None) == TURNS
