"""tune() and the data-set loader check what they are given (issue 24, finding 7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aria_kit import datasets
from aria_kit.demo_data import seed_memory
from aria_kit.fusion import DEFAULT_FUSION
from aria_kit.hybrid_memory import HybridMemory

GOOD = [("Which consensus algorithm?", ["mem_0003"])]


@pytest.fixture(scope="module")
def memory() -> HybridMemory:
    memory = HybridMemory()
    seed_memory(memory)
    memory.supersede("mem_0001", "Alice's favourite programming language is Go.")
    return memory


@pytest.mark.parametrize(("labelled", "says"), [
    ([("Which consensus algorithm?", "mem_0003")], "non-empty list of memory ids"),
    ([("Which consensus algorithm?", [])], "non-empty list of memory ids"),
    ([], "non-empty list of (query"),
    ("mem_0003", "non-empty list of (query"),
    ([("Which consensus algorithm?", ["mem_0099"])], "'mem_0099', which is not in this memory"),
    ([("Alice's language?", ["mem_0001"])], "'mem_0001', which was superseded by mem_0008"),
    ([("Which consensus algorithm?",)], "must be a (query, [relevant memory ids]) pair"),
    ([(42, ["mem_0003"])], "query of labelled[0] must be a str"),
])
def test_tune_refuses_bad_labels_and_keeps_its_fusion(memory: HybridMemory, labelled: Any, says: str) -> None:
    memory.fusion = DEFAULT_FUSION
    with pytest.raises(ValueError, match=None) as refused:
        memory.tune(labelled)
    assert says in str(refused.value)
    assert memory.fusion is DEFAULT_FUSION


@pytest.mark.parametrize(("arguments", "says"), [
    ({"k": -1}, "k must be a whole number >= 1"), ({"k": 1.5}, "k must be a whole number >= 1"),
    ({"k": True}, "k must be a whole number >= 1"), ({"weights": []}, "weights must be a non-empty list"),
    ({"weights": [0.5, 2]}, "in [0, 1]"), ({"weights": [float("nan")]}, "in [0, 1]"),
    ({"weights": "0.5"}, "weights must be a non-empty list"),
])
def test_tune_refuses_bad_k_and_weights(memory: HybridMemory, arguments: dict, says: str) -> None:
    memory.fusion = DEFAULT_FUSION
    with pytest.raises(ValueError) as refused:
        memory.tune(GOOD, **arguments)
    assert says in str(refused.value) and memory.fusion is DEFAULT_FUSION


def test_tune_still_tunes_on_good_labels(memory: HybridMemory) -> None:
    scores = memory.tune(GOOD, k=1, weights=(0.0, 0.5, 1.0))
    assert set(scores) == {0.0, 0.5, 1.0} and max(scores.values()) == 1.0


# ---------------------------------------------------------------- hand-made data files

DOC = {"id": "d1", "text": "Raft is a consensus algorithm."}
QUERY = {"id": "q1", "text": "consensus?", "relevant": ["d1"], "split": "dev"}


def hand_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, documents: list[str], queries: list[str]) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "documents.jsonl").write_text("\n".join(documents) + "\n", encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(queries) + "\n", encoding="utf-8")
    monkeypatch.setattr(datasets, "DATA_DIR", tmp_path)
    return folder


@pytest.mark.parametrize(("documents", "queries", "says"), [
    ([json.dumps(DOC), "[" * 100_000], [json.dumps(QUERY)], "documents.jsonl, line 2 is not one JSON object"),
    ([json.dumps(DOC), "{not json"], [json.dumps(QUERY)], "documents.jsonl, line 2 is not one JSON object"),
    ([json.dumps(DOC), "[1, 2]"], [json.dumps(QUERY)], "documents.jsonl, line 2 is a JSON list"),
    ([json.dumps({"id": "d2"})], [json.dumps(QUERY)], "documents.jsonl, line 1: 'text' must be a non-blank string"),
    (['{"id": "d1", "text": NaN}'], [json.dumps(QUERY)], "line 1: 'text' must be a non-blank string, got 'NaN'"),
    ([json.dumps({"id": 7, "text": "x"})], [json.dumps(QUERY)], "line 1: 'id' must be a non-blank string"),
    ([json.dumps(DOC), json.dumps(DOC)], [json.dumps(QUERY)], "documents.jsonl, line 2: the id 'd1' is already used on line 1"),
    ([json.dumps({**DOC, "metadata": [1]})], [json.dumps(QUERY)], "'metadata' must be an object"),
    ([json.dumps(DOC)], [json.dumps({**QUERY, "relevant": "ddd"})], "queries.jsonl, line 1: 'relevant' must be"),
    ([json.dumps(DOC)], [json.dumps({k: v for k, v in QUERY.items() if k != "split"})], "line 1: 'split' must be"),
])
def test_a_hand_made_data_file_fails_naming_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          documents: list[str], queries: list[str], says: str) -> None:
    hand_made(tmp_path, monkeypatch, documents, queries)
    with pytest.raises(ValueError) as refused:
        datasets.load_dataset("mine")
    assert says in str(refused.value)


def test_a_good_hand_made_data_set_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hand_made(tmp_path, monkeypatch, [json.dumps(DOC)], [json.dumps(QUERY)])
    loaded = datasets.load_dataset("mine")
    assert loaded.documents[0].text == DOC["text"] and loaded.queries["dev"][0].relevant == ("d1",)
