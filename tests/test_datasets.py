"""The shipped labelled data sets: checksums, reproducible cuts, and the loader's contract."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from aria_kit.datasets import DATA_DIR, SPLITS, list_datasets, load_dataset

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"


def _script(name: str):
    if str(ROOT / "scripts") not in sys.path:  # as when run as `python scripts/make_x.py`: its folder is on the path
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_shipped_files_match_their_recorded_checksums() -> None:
    lines = (DATA_DIR / "SHA256SUMS").read_text().splitlines()
    assert len(lines) == 3 * len(list_datasets())  # documents, queries and LICENSE of each set
    for line in lines:
        digest, name = line.split()
        assert hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest() == digest, name


def test_every_set_ships_a_readme_and_licence_and_stays_small() -> None:
    assert list_datasets() == ["chitchat", "chitchat_turns", "fanoutqa", "long_turns", "paraphrase"]
    total = sum(p.stat().st_size for p in DATA_DIR.rglob("*") if p.is_file())
    assert total < 5_000_000
    for name in list_datasets():
        readme = (DATA_DIR / name / "README.md").read_text()
        assert "Licence" in readme and "Split" in readme and f"scripts/make_{name}.py" in readme
        assert (DATA_DIR / name / "LICENSE").stat().st_size > 500


def test_chitchat_cut_reproduces_the_shipped_records_of_the_fixture_sessions() -> None:
    documents, queries = _script("make_chitchat").cut(json.loads((FIXTURES / "chitchat_upstream_sample.json").read_text()))
    shipped = {row["id"]: row for row in _jsonl(DATA_DIR / "chitchat" / "documents.jsonl")}
    assert len(documents) > 10
    assert all(shipped[row["id"]] == row for row in documents)
    # Queries merge identical questions over all sessions, so the fixture's labels are a subset of the shipped ones.
    by_text = {row["text"]: row for row in _jsonl(DATA_DIR / "chitchat" / "queries.jsonl")}
    assert queries
    for row in queries:
        assert set(row["relevant"]) <= set(by_text[row["text"]]["relevant"])


def test_fanoutqa_cut_reproduces_the_shipped_records_of_the_fixture_questions() -> None:
    documents, queries = _script("make_fanoutqa").cut(json.loads((FIXTURES / "fanoutqa_upstream_sample.json").read_text()))
    shipped_docs = {row["id"]: row for row in _jsonl(DATA_DIR / "fanoutqa" / "documents.jsonl")}
    shipped_queries = {row["id"]: row for row in _jsonl(DATA_DIR / "fanoutqa" / "queries.jsonl")}
    assert len(queries) == 3 and len(documents) > 10
    assert all(shipped_docs[row["id"]] == row for row in documents)
    assert all(shipped_queries[row["id"]] == row for row in queries)


@pytest.mark.parametrize("name, at_least", [("chitchat", 100), ("chitchat_turns", 100), ("fanoutqa", 100),
                                            ("long_turns", 300), ("paraphrase", 90)])
def test_loaded_sets_have_disjoint_splits_and_labels_that_point_at_documents(name: str, at_least: int) -> None:
    dataset = load_dataset(name)
    ids = {document.id for document in dataset.documents}
    assert len(ids) == len(dataset.documents)
    assert set(dataset.queries) == set(SPLITS)
    seen = [q.id for split in SPLITS for q in dataset.queries[split]]
    assert len(seen) == len(set(seen))
    for split in SPLITS:
        assert len(dataset.queries[split]) >= at_least
        assert all(q.split == split and q.relevant and set(q.relevant) <= ids for q in dataset.queries[split])


def test_an_unknown_set_name_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match="chitchat, chitchat_turns, fanoutqa, long_turns, paraphrase"):
        load_dataset("msmarco")


def test_a_label_pointing_at_no_document_is_an_error(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "documents.jsonl").write_text('{"id": "d1", "text": "hello"}\n')
    (folder / "queries.jsonl").write_text('{"id": "q1", "text": "hi", "relevant": ["d2"], "split": "dev"}\n')
    monkeypatch.setattr("aria_kit.datasets.DATA_DIR", tmp_path)
    with pytest.raises(ValueError, match="d2"):
        load_dataset("broken")


# ---------------------------------------------------------------- the authored paraphrase set (issue 21, item 4)

def test_paraphrase_files_are_exactly_what_their_generator_writes(tmp_path) -> None:
    _script("make_paraphrase").main(str(tmp_path))
    for name in ("documents.jsonl", "queries.jsonl"):
        assert (tmp_path / name).read_bytes() == (DATA_DIR / "paraphrase" / name).read_bytes(), name


def test_paraphrase_split_is_fixed_by_topic_and_every_answer_is_a_topic_memory() -> None:
    split_of = _script("cutting").split_of
    dataset = load_dataset("paraphrase")
    topic = {d.id: d.metadata["topic"] for d in dataset.documents}
    assert len(dataset.documents) == 240 and sum(len(dataset.queries[s]) for s in SPLITS) == 204
    for split in SPLITS:
        for query in dataset.queries[split]:
            keys = [topic[doc] for doc in query.relevant]
            assert "none" not in keys and len(set(keys)) == len(keys) <= 2
            assert split_of("+".join(keys)) == split, query  # a two-memory question splits by both keys
    assert [len(dataset.queries[s]) for s in SPLITS] == [109, 95]
    # each topic's distractors and its answer share the topic key; background memories are asked for by no one
    asked = {doc for s in SPLITS for q in dataset.queries[s] for doc in q.relevant}
    assert len(asked) == 98 and all(topic[doc] != "none" for doc in asked)
