"""Thread memories borrow their neighbouring turns' keyword scores at search time (thread_context.py).

The reference for every case: a ``HybridMemory`` without thread context that holds the same texts
(so the same BM25 statistics) gives each memory its own keyword score; a thread memory's score must
be its own plus its share (``weight · min(1, length / its tokens)``) of the sum of its neighbours'
own scores on the query words it lacks (each word scored alone), the neighbours written out by hand for each case.
"""

from __future__ import annotations

import random

import pytest
from reference_hybrid_memory import ReferenceHybridMemory

from aria_kit.bm25 import STOPWORDS, tokenize
from aria_kit.embeddings import default_embedder
from aria_kit.fusion import RRF
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.thread_context import THREAD_LENGTH

TURNS = ["Which cache do you use for the API gateway?", "Redis, since last Friday.",
         "Does it survive a restart of the pods?", "Only with the append-only file switched on.",
         "Good. What about the billing service?"]
QUERIES = ["cache API", "Redis Friday", "restart pods", "append-only file", "billing service", "gateway survive"]
WEIGHT = 0.5


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def thread_memory(embedder, turns=TURNS, thread="s1", **options) -> tuple[HybridMemory, list[str]]:
    memory = HybridMemory(embedder, thread_window=options.pop("window", 1), thread_weight=WEIGHT, **options)
    return memory, memory.store_many(turns, [{"thread": thread}] * len(turns))


def keyword_scores(memory: HybridMemory, query: str, **options) -> dict[str, float]:
    """{memory text: BM25 score} over every memory, history included."""
    return {hit.text: hit.bm25 for hit in memory.search(query, top_k=len(memory), include_history=True, **options)}


def share(text: str) -> float:
    return WEIGHT * min(1.0, THREAD_LENGTH / max(len(tokenize(text, stem=True)), 1))


def assert_keyword_scores(memory: HybridMemory, embedder, neighbours: dict[str, list[str]]) -> None:
    """Each memory scores its own BM25 plus its share of its ``neighbours``' own BM25 on the query words it lacks."""
    reference = HybridMemory(embedder, thread_window=0)
    texts = list(neighbours)
    reference.store_many(texts)
    assert len(memory) == len(neighbours)
    for query in QUERIES:
        own = keyword_scores(reference, query)
        assert keyword_scores(memory, query, thread_context=False) == own, query  # the index holds own words only
        words = [dict(zip(texts, reference._memories.bm25_scores([word])))  # each query word's scores alone
                 for word in dict.fromkeys(tokenize(query, STOPWORDS, True))]
        expected = {text: own[text] + share(text) * sum(w[n] for n in near for w in words if w[text] == 0)
                    if near else own[text] for text, near in neighbours.items()}
        assert keyword_scores(memory, query) == pytest.approx(expected, rel=1e-12, abs=0), query


def test_a_reply_is_found_by_the_words_of_the_question_before_it(embedder) -> None:
    memory, ids = thread_memory(embedder)
    reply = next(hit for hit in memory.search("cache API", top_k=5) if hit.id == ids[1])
    assert reply.bm25 > 0 and reply.text == TURNS[1] and reply.metadata == {"category": "general", "thread": "s1"}
    assert next(h for h in memory.search("cache API", top_k=5, thread_context=False) if h.id == ids[1]).bm25 == 0


def test_a_turn_borrows_only_the_query_words_it_lacks(embedder) -> None:
    memory, _ = thread_memory(embedder, ["cache question", "cache answer", "billing"])
    own = keyword_scores(memory, "cache billing", thread_context=False)
    billing = keyword_scores(memory, "billing", thread_context=False)["billing"]
    # "cache answer" holds "cache": its neighbour's "cache" is not paid again; it lacks "billing": that it borrows
    assert keyword_scores(memory, "cache billing")["cache answer"] == pytest.approx(
        own["cache answer"] + share("cache answer") * billing, rel=1e-12, abs=0)


def test_each_turn_borrows_from_the_turns_next_to_it(embedder) -> None:
    memory, _ = thread_memory(embedder)
    t = TURNS
    assert_keyword_scores(memory, embedder, {t[0]: [t[1]], t[1]: [t[0], t[2]], t[2]: [t[1], t[3]],
                                             t[3]: [t[2], t[4]], t[4]: [t[3]]})


def test_storing_turns_one_at_a_time_scores_as_one_batch(embedder) -> None:
    memory = HybridMemory(embedder, thread_window=2)
    for turn in TURNS:
        memory.store(turn, {"thread": "s1"})
    batch = HybridMemory(embedder, thread_window=2)
    batch.store_many(TURNS, [{"thread": "s1"}] * len(TURNS))
    for query in QUERIES:
        assert keyword_scores(memory, query) == keyword_scores(batch, query)


def test_interleaved_threads_take_their_neighbours_from_their_own_thread(embedder) -> None:
    a, b = ["cache question", "Redis answer"], ["billing question", "Stripe answer"]
    memory = HybridMemory(embedder, thread_window=1, thread_weight=WEIGHT)
    memory.store_many([a[0], b[0], a[1], b[1], "a lone note"],
                      [{"thread": "a"}, {"thread": "b"}, {"thread": "a"}, {"thread": "b"}, {}])
    assert_keyword_scores(memory, embedder, {a[0]: [a[1]], b[0]: [b[1]], a[1]: [a[0]], b[1]: [b[0]],
                                             "a lone note": []})


def test_a_long_turn_takes_a_smaller_share_of_its_neighbours(embedder) -> None:
    long_turn = " ".join(f"word{i}" for i in range(4 * THREAD_LENGTH))
    memory, _ = thread_memory(embedder, ["cache question", long_turn, "cache answer"])
    assert share(long_turn) == WEIGHT / 4 and share("cache question") == WEIGHT
    assert_keyword_scores(memory, embedder, {"cache question": [long_turn], long_turn: ["cache question", "cache answer"],
                                             "cache answer": [long_turn]})


def test_deleting_a_turn_joins_its_neighbours(embedder) -> None:
    memory, ids = thread_memory(embedder)
    memory.delete(ids[2])
    t = TURNS
    assert_keyword_scores(memory, embedder, {t[0]: [t[1]], t[1]: [t[0], t[3]], t[3]: [t[1], t[4]], t[4]: [t[3]]})


def test_a_correction_takes_the_place_of_the_turn_it_supersedes(embedder) -> None:
    memory, ids = thread_memory(embedder)
    memory.supersede(ids[1], "Memcached, since last Monday.")
    t, new = TURNS, "Memcached, since last Monday."
    # The history version keeps its place too: its neighbours are the current turns around it.
    assert_keyword_scores(memory, embedder, {t[0]: [new], t[1]: [t[0], t[2]], t[2]: [new, t[3]],
                                             t[3]: [t[2], t[4]], t[4]: [t[3]], new: [t[0], t[2]]})
    memory.forget(memory.search(new, top_k=1)[0].id)  # the turn goes with both versions: its neighbours close ranks
    assert_keyword_scores(memory, embedder, {t[0]: [t[2]], t[2]: [t[0], t[3]], t[3]: [t[2], t[4]], t[4]: [t[3]]})


def test_a_turn_replaced_from_outside_its_thread_leaves_a_gap_until_the_chain_returns(embedder) -> None:
    memory, ids = thread_memory(embedder, TURNS[:3])
    t, note, back = TURNS, "a note outside any thread", "Valkey, since last Friday."
    note_id = memory.supersede(ids[1], note, {})  # the place of turn 1 has no current version: skipped
    assert_keyword_scores(memory, embedder, {t[0]: [t[2]], t[1]: [t[0], t[2]], t[2]: [t[0]], note: []})
    back_id = memory.supersede(note_id, back, {"thread": "s1"})  # back in the thread: its predecessor is not
    assert_keyword_scores(memory, embedder, {t[0]: [t[2]], t[1]: [t[0], t[2]], t[2]: [t[0], back], note: [],
                                             back: [t[2]]})
    memory.delete(note_id)  # now back's predecessor is turn 1 itself: it takes turn 1's place
    assert memory.get(back_id).supersedes == ids[1]
    assert_keyword_scores(memory, embedder, {t[0]: [back], t[1]: [t[0], t[2]], t[2]: [back], back: [t[0], t[2]]})


def test_thread_context_survives_the_file_reopening_and_other_writers(embedder, tmp_path) -> None:
    path = tmp_path / "memory.sqlite3"
    memory, ids = thread_memory(embedder, TURNS[:3], path=path)
    other = HybridMemory(embedder, path=path, thread_window=1, thread_weight=WEIGHT)
    other.store_many(TURNS[3:], [{"thread": "s1"}] * 2)  # another writer continues the conversation
    memory.delete(ids[1])
    memory.supersede(ids[2], "Does it survive a restart of the nodes?")
    t, new = TURNS, "Does it survive a restart of the nodes?"
    sides = {t[0]: [new], t[2]: [t[0], t[3]], t[3]: [new, t[4]], t[4]: [t[3]], new: [t[0], t[3]]}
    assert_keyword_scores(other, embedder, sides)  # picked up from the file
    memory.close()
    other.close()
    with HybridMemory(embedder, path=path, thread_window=1, thread_weight=WEIGHT) as reopened:
        assert_keyword_scores(reopened, embedder, sides)


def test_many_deletes_and_compaction_keep_the_context_right(embedder) -> None:
    rng = random.Random(7)
    words = "cache redis pods restart billing invoice gateway friday monday file".split()
    turns = [" ".join(rng.sample(words, 3)) + f" turn{i}" for i in range(60)]
    memory = HybridMemory(embedder, thread_window=2, thread_weight=WEIGHT)
    ids = []
    for start in range(0, 60, 7):
        ids += memory.store_many(turns[start:start + 7], [{"thread": "t"}] * len(turns[start:start + 7]))
    kept = list(range(60))
    for index in rng.sample(range(60), 40):  # past half dead: the rows are compacted on the way
        memory.delete(ids[index])
        kept.remove(index)
    sides = {turns[i]: [turns[j] for j in kept[max(0, p - 2):p][::-1] + kept[p + 1:p + 3]] for p, i in enumerate(kept)}
    assert_keyword_scores(memory, embedder, sides)


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


def test_memories_without_a_thread_score_the_same_beside_thread_turns(embedder) -> None:
    notes = ["the cache runs on Redis", "billing moved to Stripe", "pods restart nightly"]
    memory = HybridMemory(embedder)  # the default window and weight
    memory.store_many(TURNS, [{"thread": "s1"}] * len(TURNS))
    note_ids = memory.store_many(notes)
    plain = HybridMemory(embedder, thread_window=0)
    plain.store_many(TURNS, [{"thread": "s1"}] * len(TURNS))
    plain.store_many(notes)
    for query in QUERIES:
        with_turns = {h.id: (h.cosine, h.bm25) for h in memory.search(query, top_k=len(memory))}
        without = {h.id: (h.cosine, h.bm25) for h in plain.search(query, top_k=len(plain))}
        assert [with_turns[i] for i in note_ids] == [without[i] for i in note_ids]


@pytest.mark.parametrize("option, value", [("thread_window", -1), ("thread_window", 1.5), ("thread_weight", 1.5),
                                           ("thread_weight", float("nan")), ("thread_weight", True)])
def test_thread_settings_out_of_range_are_refused_by_name(embedder, option, value) -> None:
    with pytest.raises(ValueError, match=option):
        HybridMemory(embedder, **{option: value})


def test_an_older_files_numeric_threads_stay_apart(embedder, tmp_path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with HybridMemory(embedder, path=path) as memory:
        memory.store_many(["cache question", "Redis answer", "billing question"],
                          [{"thread": "1"}, {"thread": "1.0"}, {"thread": "True"}])
    conn = sqlite3.connect(path)  # as a file written before threads had to be str
    for seq, thread in ((1, 1), (2, 1.0), (3, True)):
        conn.execute("UPDATE memories SET metadata = json_object('category', 'general', 'thread', json(?)) "
                     "WHERE seq = ?", (str(thread).lower() if thread is True else str(thread), seq))
    conn.commit()
    conn.close()
    with HybridMemory(embedder, path=path, thread_weight=WEIGHT) as memory:
        assert [r.metadata["thread"] for r in memory.list_all()] == [1, 1.0, True]  # returned as stored
        answer = next(h for h in memory.search("cache", top_k=3) if h.text == "Redis answer")
        assert answer.bm25 == 0  # "1" and "1.0" are two conversations, not one
        with pytest.raises(ValueError, match=r"pass str\(thread\), such as '1'"):  # inheriting the old int thread
            memory.supersede("mem_0001", "cache question, asked again")
        memory.supersede("mem_0001", "cache question, asked again", {"thread": "1"})  # str(1): the same conversation
        assert len(memory) == 4 and memory.get("mem_0001").superseded_by == "mem_0004"


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


@pytest.mark.parametrize("thread", [1, 1.0, True])
def test_a_thread_that_is_not_a_str_is_refused_with_what_to_pass(embedder, thread) -> None:
    memory = HybridMemory(embedder)
    with pytest.raises(ValueError, match=r"thread id is a str: pass str\(thread\), such as '" + str(thread)):
        memory.store("Redis, since last Friday.", {"thread": thread})
    assert len(memory) == 0
