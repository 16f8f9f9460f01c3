"""long_turns: the generator writes the shipped bytes, the split is by chat, and changed values come in pairs."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from test_datasets import _script

from aria_kit.datasets import DATA_DIR, SPLITS, ValueUpdate, load_dataset

SET = DATA_DIR / "long_turns"


@pytest.fixture(scope="module")
def dataset():
    return load_dataset("long_turns")


def _words(text: str) -> int:
    return len(text.split())


def test_the_files_are_exactly_what_the_generator_writes(tmp_path: Path) -> None:
    # the generator also asserts, while writing, that each fact's value is stated in exactly one turn of its chat
    _script("make_long_turns").main(str(tmp_path))
    for name in ("documents.jsonl", "queries.jsonl"):
        assert (tmp_path / name).read_bytes() == (SET / name).read_bytes(), name


def test_the_set_loads_as_eighteen_chats_of_ninety_turns_in_turn_order(dataset) -> None:
    turns = defaultdict(list)
    for document in dataset.documents:
        assert isinstance(document.metadata["thread"], str)
        turns[document.metadata["thread"]].append((document.metadata["turn"], document.metadata["date"]))
    assert len(turns) == 18 and all(len(chat) == 90 for chat in turns.values())
    for chat in turns.values():  # store order is turn order, and the dates never go back
        assert [turn for turn, _ in chat] == list(range(90)) and [d for _, d in chat] == sorted(d for _, d in chat)
    assert [len(dataset.queries[split]) for split in SPLITS] == [306, 306]
    assert sum(p.stat().st_size for p in SET.iterdir()) < 1_500_000


def test_turns_are_paragraphs_except_the_short_follow_ups(dataset) -> None:
    lengths = sorted(_words(d.text) for d in dataset.documents)
    long = [n for n in lengths if n >= 30]
    assert len(long) == 1530 and min(long) >= 60 and max(long) <= 220
    assert long[len(long) // 2] >= 100  # a paragraph is the typical turn, not the exception


def test_the_split_is_by_conversation(dataset) -> None:
    thread = {d.id: d.metadata["thread"] for d in dataset.documents}
    chats = {split: {thread[doc] for q in dataset.queries[split] for doc in q.relevant} for split in SPLITS}
    assert not chats["dev"] & chats["heldout"]
    assert len(chats["dev"]) == len(chats["heldout"]) == 9


def test_every_question_has_one_answer_that_is_a_turn(dataset) -> None:
    ids = {d.id for d in dataset.documents}
    for split in SPLITS:
        assert all(len(q.relevant) == 1 and q.relevant[0] in ids for q in dataset.queries[split])


def test_changed_values_come_as_a_current_and_a_past_question_about_two_turns_of_one_chat(dataset) -> None:
    place = {d.id: (d.metadata["thread"], d.metadata["turn"]) for d in dataset.documents}
    pairs = defaultdict(list)
    for split in SPLITS:
        for query in dataset.queries[split]:
            if query.update:
                pairs[(query.update.newer, query.update.older)].append(query.update.asks)
    assert len(pairs) == 72  # four per chat
    for (newer, older), asks in pairs.items():
        assert sorted(asks) == ["current", "past"]
        assert place[newer][0] == place[older][0] and place[newer][1] - place[older][1] >= 15
    per_chat = defaultdict(int)
    for newer, _ in pairs:
        per_chat[place[newer][0]] += 1
    assert len(per_chat) == 18 and min(per_chat.values()) >= 3


def test_some_answers_are_short_follow_ups_after_a_long_turn_of_the_same_chat(dataset) -> None:
    by_id = {d.id: d for d in dataset.documents}
    order = [d.id for d in dataset.documents]
    follow_ups = [q for split in SPLITS for q in dataset.queries[split] if _words(by_id[q.relevant[0]].text) < 30]
    assert len(follow_ups) == 36
    for query in follow_ups:
        reply = by_id[query.relevant[0]]
        before = by_id[order[order.index(reply.id) - 1]]
        assert before.metadata["thread"] == reply.metadata["thread"] and _words(before.text) >= 60


# ------------------------------------------------------------------ the loader's optional `update` field

def _hand_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, update) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    docs = [{"id": "d1", "text": "It costs 400."}, {"id": "d2", "text": "Now it costs 250."}]
    (folder / "documents.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    query = {"id": "q1", "text": "What does it cost now?", "relevant": ["d2"], "split": "dev", "update": update}
    (folder / "queries.jsonl").write_text(json.dumps(query) + "\n")
    monkeypatch.setattr("aria_kit.datasets.DATA_DIR", tmp_path)


def test_a_well_formed_update_is_exposed_on_the_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _hand_made(tmp_path, monkeypatch, {"asks": "current", "newer": "d2", "older": "d1"})
    query = load_dataset("mine").queries["dev"][0]
    assert query.update == ValueUpdate("current", "d2", "d1")


def test_queries_without_an_update_say_none(dataset) -> None:
    assert load_dataset("paraphrase").queries["dev"][0].update is None
    assert sum(q.update is None for s in SPLITS for q in dataset.queries[s]) == 612 - 144


@pytest.mark.parametrize("update", [
    {"asks": "later", "newer": "d2", "older": "d1"},  # neither current nor past
    {"asks": "current", "newer": "d2", "older": "d9"},  # no such document
    {"asks": "current", "newer": "d2", "older": "d2"},  # one turn cannot be both
    {"asks": "past", "newer": "d2", "older": "d1"},  # relevant is d2, the newer: not what a past question asks
    {"asks": "current", "newer": "d2"},  # a field missing
    {"asks": "current", "newer": "d2", "older": "d1", "when": "May"},  # a field unknown
    "current",  # not an object
])
def test_a_malformed_update_is_refused_naming_the_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         update) -> None:
    _hand_made(tmp_path, monkeypatch, update)
    with pytest.raises(ValueError, match=r"queries.jsonl: query 'q1' has update .*'relevant' \[newer\]"):
        load_dataset("mine")


# ------------------------------------------------------------------ the READMEs' figures, measured

def test_the_readme_figures_are_the_files_figures(dataset) -> None:
    from aria_kit.bm25 import tokenize

    readme = (SET / "README.md").read_text()
    paragraphs = sorted(_words(d.text) for d in dataset.documents if _words(d.text) >= 30)
    by_id = {d.id: d for d in dataset.documents}
    queries = [q for split in SPLITS for q in dataset.queries[split]]
    text = _script("long_turns_text")
    anchors = sorted({a for kind in text.KINDS for a in kind["anchors"]}, key=len, reverse=True)
    anchor = [next(a for a in anchors if a in q.text) for q in queries]  # every question names one
    df = defaultdict(int)
    for document in dataset.documents:
        for token in set(tokenize(document.text)):
            df[token] += 1
    shared = [set(tokenize(q.text)) & set(tokenize(by_id[q.relevant[0]].text)) - set(tokenize(a))
              for q, a in zip(queries, anchor)]
    rare = sum(any(df[t] <= 40 for t in common) for common in shared)
    named = sum(a in by_id[q.relevant[0]].text for q, a in zip(queries, anchor))
    for q, a in zip(queries, anchor):  # the chat names the anchor before (or in) the evidence turn
        evidence = by_id[q.relevant[0]].metadata
        assert any(a in d.text for d in dataset.documents if d.metadata["thread"] == evidence["thread"]
                   and d.metadata["turn"] <= evidence["turn"]), q
    dev = ", ".join(sorted({by_id[q.relevant[0]].metadata["thread"] for q in dataset.queries["dev"]}))
    for figure in [f"{len(dataset.documents):,}\nmemories, {len(paragraphs):,} of them a paragraph of "
                   f"{paragraphs[0]}–{paragraphs[-1]} words (median {paragraphs[len(paragraphs) // 2]})",
                   f"{len(queries)} ({len(dataset.queries['dev'])} dev, {len(dataset.queries['heldout'])} heldout)",
                   f"found {rare} of the {len(queries)} questions",
                   f"Only\n{named} of the {len(queries)} evidence turns",
                   f"in `dev` ({dev})"]:
        assert figure in readme, figure
    # the recurring everyday sentences: how many a chat draws, and from how many
    generator, chats = _script("make_long_turns"), []
    original = generator.Chat.__init__

    def keep(self, *args, **kwargs):
        original(self, *args, **kwargs)
        chats.append(self)

    generator.Chat.__init__ = keep
    generator.build()
    draws = sum(sum(c.uses.values()) for c in chats) / len(chats)
    pool = sum(len(c.uses) for c in chats) / len(chats)
    assert round(draws, -2) == 800 and round(pool, -1) == 310, (draws, pool)
    kinds = defaultdict(int)
    for chat in chats:
        for topic in chat.topics:
            kinds[topic["kind"]["key"]] += 1
    assert set(kinds.values()) == {7, 8} and "each kind is in 7 or 8 chats" in readme


def test_the_data_readme_row_and_total_are_measured(dataset) -> None:
    row = next(line for line in (DATA_DIR.parent.parent / "data" / "README.md").read_text().splitlines()
               if line.startswith("| `long_turns`"))
    paragraphs = sorted(_words(d.text) for d in dataset.documents if _words(d.text) >= 30)
    updates = sum(q.update is not None for s in SPLITS for q in dataset.queries[s])
    assert f"median {paragraphs[len(paragraphs) // 2]} words" in row and f"{len(dataset.documents):,} memories" in row
    assert f"612 questions, {updates} of them" in row
    total = sum(p.stat().st_size for p in DATA_DIR.rglob("*") if p.is_file())
    assert "about 3.9 MB together" in (DATA_DIR.parent.parent / "data" / "README.md").read_text()
    assert round(total / 1e6, 1) == 3.9
