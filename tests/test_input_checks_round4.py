"""The data-set loader and score_dataset give clear errors, and read what an editor writes (issue 30, finding 7)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from aria_kit import datasets
from aria_kit.datasets import Document, LabelledQuery, LabelledSet
from aria_kit.tuning import score_dataset

DOC = {"id": "d1", "text": "Raft is a consensus algorithm."}
QUERY = {"id": "q1", "text": "consensus?", "relevant": ["d1"], "split": "dev"}


def hand_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, documents: list[dict], queries: list[dict],
              encoding: str = "utf-8") -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, rows in (("documents.jsonl", documents), ("queries.jsonl", queries)):
        (folder / name).write_text("".join(json.dumps(row) + "\n" for row in rows), encoding=encoding)
    monkeypatch.setattr(datasets, "DATA_DIR", tmp_path)


def test_load_dataset_of_none_is_a_clear_value_error_naming_the_sets() -> None:
    with pytest.raises(ValueError, match=r"takes a data set's name as a str, got None; the kit ships .*chitchat"):
        datasets.load_dataset(None)


def test_files_that_start_with_a_utf8_byte_order_mark_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hand_made(tmp_path, monkeypatch, [DOC], [QUERY], encoding="utf-8-sig")
    assert (tmp_path / "mine" / "documents.jsonl").read_bytes().startswith(b"\xef\xbb\xbf")
    loaded = datasets.load_dataset("mine")
    assert loaded.documents[0].id == "d1" and loaded.queries["dev"][0].id == "q1"


def test_a_repeated_query_id_is_refused_naming_both_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hand_made(tmp_path, monkeypatch, [DOC], [QUERY, {**QUERY, "text": "which algorithm?"}])
    with pytest.raises(ValueError, match=r"queries\.jsonl, line 2: the id 'q1' is already used on line 1"):
        datasets.load_dataset("mine")


class TinyEmbedder:
    dim = 2

    def embed(self, texts):
        return np.ones((len(texts), 2), dtype=np.float32)


def test_score_dataset_refuses_a_list_valued_thread_saying_threads_are_strings() -> None:
    documents = (Document("d1", "Hi there.", {"thread": ["s1"]}), Document("d2", "Hello.", {"thread": "s1"}))
    dataset = LabelledSet("mine", documents, {"dev": (LabelledQuery("q1", "hi", ("d1",), "dev"),), "heldout": ()})
    with pytest.raises(ValueError, match=r"document 'd1' has the thread \['s1'\], a list; a thread is named by a "
                                         r"string"):
        score_dataset(dataset, TinyEmbedder())


def test_the_readmes_round_four_figures_are_the_constants_the_code_uses() -> None:
    from aria_kit import agent, exercises
    from aria_kit.memory_rules import MAX_TEXT_BYTES

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = " ".join(readme.split("**Round four**", 1)[1].split("\n## ", 1)[0].split())
    for claim in (f"keeps the newest {agent.MAX_TURNS_KEPT} turns", f"still running after {exercises.TIME_LIMIT:g} s",
                  f"at most {exercises.MAX_VERDICT_CHARS:,} characters of a failure",
                  f"a message over {agent.MAX_MESSAGE_BYTES:,} bytes", f"one memory's {MAX_TEXT_BYTES:,} bytes"):
        assert claim in section, claim
