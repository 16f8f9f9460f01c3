"""chitchat_turns: the cut reproduces the shipped turns, threads are in turn order, labels point at answers."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from test_datasets import FIXTURES, _jsonl, _script

from aria_kit.datasets import DATA_DIR, load_dataset
from aria_kit.measuring import bootstrap_interval, query_clusters

USER = "720840be-e522-47ba-9e9f-143f66372673"


@pytest.fixture(scope="module")
def fixture_cut() -> tuple[list[dict], list[dict], dict]:
    upstream = json.loads((FIXTURES / "chitchat_upstream_sample.json").read_text())
    return (*_script("make_chitchat_turns").cut(upstream), upstream)


def test_the_cut_reproduces_the_shipped_turns_of_the_fixture_sessions(fixture_cut) -> None:
    documents, queries, _ = fixture_cut
    shipped = {row["id"]: row for row in _jsonl(DATA_DIR / "chitchat_turns" / "documents.jsonl")}
    assert len(documents) > 40 and all(shipped[row["id"]] == row for row in documents)
    by_text = {row["text"]: row for row in _jsonl(DATA_DIR / "chitchat_turns" / "queries.jsonl")}
    assert queries  # merged over all sessions upstream, so the fixture's labels are a subset of the shipped ones
    for row in queries:
        shipped_row = by_text[row["text"]]
        assert set(row["relevant"]) <= set(shipped_row["relevant"]) and row["split"] == shipped_row["split"]


def test_one_memory_per_user_turn_in_turn_order_and_no_partner_turn(fixture_cut) -> None:
    documents, _, upstream = fixture_cut
    for cid, conversation in upstream.items():
        mine = [index for index, turn in enumerate(conversation["messages"]) if turn[0]["sender"] == USER]
        stored = [row["metadata"]["turn"] for row in documents if row["metadata"]["thread"] == cid[:8]]
        assert stored == mine  # every user turn, nothing else, in the conversation's order


def test_each_question_is_labelled_with_the_user_turn_that_follows_it(fixture_cut) -> None:
    documents, queries, upstream = fixture_cut
    turns = {cid[:8]: c["messages"] for cid, c in upstream.items()}
    for row in queries:
        for doc_id in row["relevant"]:
            thread, turn = doc_id.split("-t")
            asked = [m["text"].strip() for m in turns[thread][int(turn) - 1]]
            assert row["text"] in asked and turns[thread][int(turn)][0]["sender"] == USER


def test_the_shipped_set_loads_with_threads_and_the_same_questions_and_splits_as_chitchat() -> None:
    turns, chunks = load_dataset("chitchat_turns"), load_dataset("chitchat")
    assert len(turns.documents) == 6998 and len({d.metadata["thread"] for d in turns.documents}) == 347
    for split in ("dev", "heldout"):
        assert [q.text for q in turns.queries[split]] == [q.text for q in chunks.queries[split]]
    by_thread = defaultdict(list)
    for document in turns.documents:
        by_thread[document.metadata["thread"]].append(document.metadata["turn"])
    assert all(order == sorted(order) for order in by_thread.values())  # store order is turn order
    assert sum(p.stat().st_size for p in (DATA_DIR / "chitchat_turns").iterdir()) < 2_000_000


def test_a_bootstrap_by_thread_is_wider_than_one_by_question_when_questions_cluster() -> None:
    values = [1.0] * 10 + [0.0] * 10  # two threads: all hits in one, all misses in the other
    low, high = bootstrap_interval(values, clusters=["a"] * 10 + ["b"] * 10)
    assert (low, high) == (0.0, 1.0)
    low, high = bootstrap_interval(values, clusters=[str(i) for i in range(20)])  # independent questions
    assert 0.2 < low < 0.5 < high < 0.8


def test_queries_belong_to_the_thread_of_their_first_answer() -> None:
    dataset = load_dataset("chitchat_turns")
    queries = dataset.queries["dev"][:5]
    assert query_clusters(dataset, queries) == [q.relevant[0].split("-t")[0] for q in queries]
