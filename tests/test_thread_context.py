"""Thread memories are searched by keyword with their neighbouring turns' words (thread_context.py).

The reference for every case: a ``HybridMemory`` without thread context that holds, for each
memory, its own text joined with the texts its keyword side should hold. BM25 depends only on
each live document's tokens, so the two must give the very same BM25 score to every memory.
"""

from __future__ import annotations

import random

import pytest
from reference_hybrid_memory import ReferenceHybridMemory

from aria_kit.embeddings import default_embedder
from aria_kit.fusion import RRF
from aria_kit.hybrid_memory import HybridMemory

TURNS = ["Which cache do you use for the API gateway?", "Redis, since last Friday.",
         "Does it survive a restart of the pods?", "Only with the append-only file switched on.",
         "Good. What about the billing service?"]
QUERIES = ["cache API", "Redis Friday", "restart pods", "append-only file", "billing service", "gateway survive"]


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def thread_memory(embedder, turns=TURNS, thread="s1", **options) -> tuple[HybridMemory, list[str]]:
    memory = HybridMemory(embedder, thread_window=1, **options)
    return memory, memory.store_many(turns, [{"thread": thread}] * len(turns))


def keyword_scores(memory: HybridMemory, query: str) -> dict[str, float]:
    """{memory text: BM25 score} over every memory, history included."""
    return {hit.text: hit.bm25 for hit in memory.search(query, top_k=len(memory), include_history=True)}


def assert_keyword_sides(memory: HybridMemory, embedder, sides: dict[str, list[str]]) -> None:
    """Each memory's BM25 scores equal those of its text joined with ``sides[text]`` (its neighbours' texts)."""
    reference = HybridMemory(embedder, thread_window=0)
    reference.store_many([" ".join([text, *neighbours]) for text, neighbours in sides.items()])
    assert len(memory) == len(sides)
    for query in QUERIES:
        expected = {joined: score for joined, score in keyword_scores(reference, query).items()}
        by_own_text = {text: expected[" ".join([text, *neighbours])] for text, neighbours in sides.items()}
        assert keyword_scores(memory, query) == by_own_text, query


def test_a_reply_is_found_by_the_words_of_the_question_before_it(embedder) -> None:
    memory, ids = thread_memory(embedder)
    plain = HybridMemory(embedder, thread_window=0)
    plain.store_many(TURNS, [{"thread": "s1"}] * len(TURNS))
    reply = next(hit for hit in memory.search("cache API", top_k=5) if hit.id == ids[1])
    assert reply.bm25 > 0 and reply.text == TURNS[1] and reply.metadata == {"category": "general", "thread": "s1"}
    assert next(hit for hit in plain.search("cache API", top_k=5) if hit.id == ids[1]).bm25 == 0


def test_each_turn_holds_the_words_of_the_turns_next_to_it(embedder) -> None:
    memory, _ = thread_memory(embedder)
    t = TURNS
    assert_keyword_sides(memory, embedder, {t[0]: [t[1]], t[1]: [t[0], t[2]], t[2]: [t[1], t[3]],
                                            t[3]: [t[2], t[4]], t[4]: [t[3]]})


def test_storing_turns_one_at_a_time_indexes_the_earlier_turn_again(embedder) -> None:
    memory = HybridMemory(embedder, thread_window=2)
    for turn in TURNS:
        memory.store(turn, {"thread": "s1"})
    batch = HybridMemory(embedder, thread_window=2)
    batch.store_many(TURNS, [{"thread": "s1"}] * len(TURNS))
    for query in QUERIES:
        assert keyword_scores(memory, query) == keyword_scores(batch, query)


def test_interleaved_threads_take_their_neighbours_from_their_own_thread(embedder) -> None:
    a, b = ["cache question", "Redis answer"], ["billing question", "Stripe answer"]
    memory = HybridMemory(embedder, thread_window=1)
    memory.store_many([a[0], b[0], a[1], b[1], "a lone note"],
                      [{"thread": "a"}, {"thread": "b"}, {"thread": "a"}, {"thread": "b"}, {}])
    assert_keyword_sides(memory, embedder, {a[0]: [a[1]], b[0]: [b[1]], a[1]: [a[0]], b[1]: [b[0]],
                                            "a lone note": []})


def test_deleting_a_turn_joins_its_neighbours(embedder) -> None:
    memory, ids = thread_memory(embedder)
    memory.delete(ids[2])
    t = TURNS
    assert_keyword_sides(memory, embedder, {t[0]: [t[1]], t[1]: [t[0], t[3]], t[3]: [t[1], t[4]], t[4]: [t[3]]})


def test_a_correction_takes_the_place_of_the_turn_it_supersedes(embedder) -> None:
    memory, ids = thread_memory(embedder)
    memory.supersede(ids[1], "Memcached, since last Monday.")
    t, new = TURNS, "Memcached, since last Monday."
    # The history version keeps its place too: its neighbours are the current turns around it.
    assert_keyword_sides(memory, embedder, {t[0]: [new], t[1]: [t[0], t[2]], t[2]: [new, t[3]],
                                            t[3]: [t[2], t[4]], t[4]: [t[3]], new: [t[0], t[2]]})
    memory.forget(memory.search(new, top_k=1)[0].id)  # the turn goes with both versions: its neighbours close ranks
    assert_keyword_sides(memory, embedder, {t[0]: [t[2]], t[2]: [t[0], t[3]], t[3]: [t[2], t[4]], t[4]: [t[3]]})


def test_thread_context_survives_the_file_reopening_and_other_writers(embedder, tmp_path) -> None:
    path = tmp_path / "memory.sqlite3"
    memory, ids = thread_memory(embedder, TURNS[:3], path=path)
    other = HybridMemory(embedder, path=path, thread_window=1)
    other.store_many(TURNS[3:], [{"thread": "s1"}] * 2)  # another writer continues the conversation
    memory.delete(ids[1])
    memory.supersede(ids[2], "Does it survive a restart of the nodes?")
    t, new = TURNS, "Does it survive a restart of the nodes?"
    sides = {t[0]: [new], t[2]: [t[0], t[3]], t[3]: [new, t[4]], t[4]: [t[3]], new: [t[0], t[3]]}
    assert_keyword_sides(other, embedder, sides)  # picked up from the file
    memory.close()
    other.close()
    with HybridMemory(embedder, path=path, thread_window=1) as reopened:
        assert_keyword_sides(reopened, embedder, sides)


def test_many_deletes_and_compaction_keep_the_context_right(embedder) -> None:
    rng = random.Random(7)
    words = "cache redis pods restart billing invoice gateway friday monday file".split()
    turns = [" ".join(rng.sample(words, 3)) + f" turn{i}" for i in range(60)]
    memory = HybridMemory(embedder, thread_window=2)
    ids = []
    for start in range(0, 60, 7):  # several appends, so earlier turns are indexed again many times
        ids += memory.store_many(turns[start:start + 7], [{"thread": "t"}] * len(turns[start:start + 7]))
    kept = list(range(60))
    for index in rng.sample(range(60), 40):
        memory.delete(ids[index])
        kept.remove(index)
    sides = {turns[i]: [turns[j] for j in kept[max(0, p - 2):p] + kept[p + 1:p + 3]] for p, i in enumerate(kept)}
    assert_keyword_sides(memory, embedder, sides)


def test_memories_without_a_thread_rank_exactly_as_before(embedder) -> None:
    rng = random.Random(3)
    words = "cache redis pods restart billing invoice gateway friday monday file alice rust".split()
    texts = [" ".join(rng.choices(words, k=rng.randint(2, 9))) for _ in range(80)]
    fusion = RRF(60)
    memory = HybridMemory(embedder, fusion=fusion)  # thread context on, as by default
    reference = ReferenceHybridMemory(embedder, fusion=fusion)
    memory.store_many(texts, [{"category": "note"}] * len(texts))
    reference.store_many(texts)
    for memory_id in ("mem_0004", "mem_0030"):
        memory.delete(memory_id)
        reference.delete(memory_id)
    for query in ["cache restart", "alice rust billing", "friday"]:
        got = [(h.id, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank) for h in memory.search(query, 10)]
        want = [(h.id, h.score, h.cosine, h.bm25, h.vector_rank, h.keyword_rank) for h in reference.search(query, 10)]
        assert got == want


def test_thread_window_must_be_a_whole_number(embedder) -> None:
    with pytest.raises(ValueError, match="thread_window"):
        HybridMemory(embedder, thread_window=-1)


def test_evaluate_thread_context_differs_only_in_the_window(embedder, monkeypatch) -> None:
    from aria_kit.datasets import Document, LabelledQuery, LabelledSet
    from aria_kit.thread_evaluation import evaluate_thread_context

    monkeypatch.setattr("aria_kit.hybrid_memory.default_embedder", lambda: embedder)
    documents = tuple(Document(f"t{i}", text, {"thread": "s1"}) for i, text in enumerate(TURNS))
    documents += tuple(Document(f"n{i}", f"an unrelated note about lunch number {i}") for i in range(20))
    query = LabelledQuery("q1", "Which cache for the API gateway?", ("t1",), "dev")
    runs = evaluate_thread_context(LabelledSet("tiny", documents, {"dev": (query,), "heldout": ()}), window=1)
    with_context, without = runs["with thread context"], runs["without thread context"]
    assert with_context.rankings["vector"] == without.rankings["vector"]  # the vector side is untouched
    assert "t1" in with_context.rankings["keyword"][0] and "t1" not in without.rankings["keyword"][0]
