"""What every ``MemoryBackend`` must do, as a reusable test class.

Subclass ``MemoryBackendContract`` in a ``test_*.py`` file with a name starting
with ``Test`` and override ``make_memory(tmp_path)`` to return a fresh, empty
backend; pytest then runs every test below against it. The tests only use the
``MemoryBackend`` interface and the ``Hit``/``MemoryRecord`` fields, so the
same contract holds the in-process ``HybridMemory``, the SQLite-backed one and
engines such as Qdrant to one standard. Backend-specific internals (exact
scores, the size limit's value, rank tie-breaking) are tested elsewhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aria_kit.demo_data import DEMO_FACTS  # the seven facts of the reference demo, (text, category)
from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord

# Texts a careless backend mangles: emoji (incl. a ZWJ sequence), right-to-left scripts,
# combining marks, a NUL character, mixed scripts.
UNUSUAL_TEXTS: list[str] = [
    "Alice celebrated the VelocityDB launch 🎉🦀 with the team 👩‍👩‍👧",
    "שלום עולם — Alice wrote her notes in Hebrew",
    "مرحبا بالعالم: the Arabic greeting Alice learned",
    "Cafe\u0301 de\u0301ja\u0300 vu: combining accents on plain letters",
    "binary log line with a NUL\x00character inside",
    "日本語とEnglishの混在テキスト about VelocityDB",
]

BAD_TEXTS: list[Any] = ["", "   ", " \n\t\r ", None, 42, b"bytes are not text", ["a list"]]
BAD_METADATA: list[Any] = [
    "task",  # not a dict
    ["category", "task"],
    {1: "integer key"},
    {"tags": ["a", "b"]},  # not a JSON scalar
    {"nested": {"a": 1}},
    {"when": object()},
    {"score": float("nan")},
    {"score": float("inf")},
]
SCALAR_METADATA: dict[str, Any] = {"category": "task", "count": 3, "weight": 0.25, "done": False, "note": None,
                                   "unicode": "naïve ☕"}
ONE_MEGABYTE = 1_000_000
ID_FORMAT = re.compile(r"mem_\d{4,}")


class MemoryBackendContract:
    """Behaviour every memory backend shares. Override ``make_memory``."""

    def make_memory(self, tmp_path: Path) -> MemoryBackend:
        raise NotImplementedError("subclasses return a fresh, empty backend")

    @pytest.fixture
    def memory(self, tmp_path: Path) -> Iterator[MemoryBackend]:
        memory = self.make_memory(tmp_path)
        yield memory
        close = getattr(memory, "close", None)
        if callable(close):
            close()

    @pytest.fixture
    def demo(self, memory: MemoryBackend) -> MemoryBackend:
        memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])
        return memory

    # ------------------------------------------------------------ storing and reading back

    def test_ids_are_numbered_mem_0001_upwards_in_store_order(self, memory: MemoryBackend) -> None:
        ids = [memory.store(f"fact number {i}") for i in range(1, 4)]
        assert ids == ["mem_0001", "mem_0002", "mem_0003"]

    def test_ids_are_never_reused_after_delete(self, memory: MemoryBackend) -> None:
        memory.store("first")
        last = memory.store("second")
        assert memory.delete(last)
        assert memory.store("third") == "mem_0003"

    def test_get_returns_the_text_and_metadata_stored(self, memory: MemoryBackend) -> None:
        memory_id = memory.store("Alice likes tea.", dict(SCALAR_METADATA))
        record = memory.get(memory_id)
        assert record == MemoryRecord(memory_id, "Alice likes tea.", SCALAR_METADATA)
        assert record.category == "task"

    def test_category_defaults_to_general(self, memory: MemoryBackend) -> None:
        plain = memory.store("no metadata at all")
        other = memory.store("metadata without a category", {"source": "chat"})
        assert memory.get(plain).metadata == {"category": "general"}
        assert memory.get(other).metadata == {"source": "chat", "category": "general"}

    def test_get_of_an_unknown_id_returns_none(self, memory: MemoryBackend) -> None:
        memory.store("something")
        assert memory.get("mem_9999") is None
        assert memory.get("not an id") is None

    def test_list_all_returns_every_memory_oldest_first(self, demo: MemoryBackend) -> None:
        records = demo.list_all()
        assert [(r.text, r.category) for r in records] == DEMO_FACTS
        assert [r.id for r in records] == [f"mem_{i:04d}" for i in range(1, 8)]

    def test_store_many_returns_ids_in_order_and_stores_like_store(self, memory: MemoryBackend) -> None:
        ids = memory.store_many(["one", "two"], [{"category": "a"}, None])
        assert ids == ["mem_0001", "mem_0002"]
        assert [(r.text, r.category) for r in memory.list_all()] == [("one", "a"), ("two", "general")]
        assert memory.store_many([]) == []

    def test_store_many_with_mismatched_metadata_is_rejected_and_stores_nothing(self, memory: MemoryBackend) -> None:
        with pytest.raises(ValueError):
            memory.store_many(["one", "two"], [{"category": "a"}])
        assert len(memory) == 0

    def test_delete_forgets_the_memory_and_reports_whether_it_existed(self, demo: MemoryBackend) -> None:
        assert demo.delete("mem_0007") is True
        assert demo.delete("mem_0007") is False
        assert demo.delete("mem_0100") is False
        assert demo.get("mem_0007") is None
        assert len(demo) == 6
        assert "mem_0007" not in [r.id for r in demo.list_all()]
        assert "mem_0007" not in [h.id for h in demo.search("order 4821", top_k=7)]

    def test_len_counts_live_memories(self, memory: MemoryBackend) -> None:
        assert len(memory) == 0
        memory.store_many(["a fact", "another fact", "a third fact"])
        memory.delete("mem_0002")
        assert len(memory) == 2

    # ------------------------------------------------------------ searching

    def test_search_of_an_empty_memory_returns_nothing(self, memory: MemoryBackend) -> None:
        assert memory.search("anything at all") == []

    def test_hits_carry_id_text_metadata_and_scores_best_first(self, demo: MemoryBackend) -> None:
        hits = demo.search("VelocityDB deadline", top_k=5)
        assert len(hits) == 5
        stored = {r.id: r for r in demo.list_all()}
        for hit in hits:
            assert isinstance(hit, Hit) and ID_FORMAT.fullmatch(hit.id)
            assert (hit.text, hit.metadata) == (stored[hit.id].text, stored[hit.id].metadata)
            assert all(isinstance(x, float) and math.isfinite(x) for x in (hit.score, hit.cosine, hit.bm25))
            assert -1.0001 <= hit.cosine <= 1.0001 and hit.bm25 >= 0
            for rank in (hit.vector_rank, hit.keyword_rank):
                assert rank is None or (isinstance(rank, int) and rank >= 1)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert len({h.id for h in hits}) == 5

    def test_top_k_larger_than_the_memory_returns_every_memory(self, demo: MemoryBackend) -> None:
        assert len(demo.search("Alice", top_k=50)) == len(DEMO_FACTS)
        assert len(demo.search("Alice", top_k=1)) == 1

    def test_order_number_query_finds_the_order_first(self, demo: MemoryBackend) -> None:
        assert demo.search("order 4821", top_k=2)[0].text.startswith("Order #4821")

    def test_consensus_question_finds_the_raft_fact_first(self, demo: MemoryBackend) -> None:
        top = demo.search("What consensus algorithm does VelocityDB use?", top_k=2)[0]
        assert "Raft" in top.text

    def test_language_preference_finds_rust_in_the_top_two(self, demo: MemoryBackend) -> None:
        hits = demo.search("Alice's language preference", top_k=2)
        assert any("Rust" in h.text for h in hits)

    # ------------------------------------------------------------ input rules

    @pytest.mark.parametrize("text", BAD_TEXTS, ids=repr)
    def test_text_that_is_not_a_non_blank_str_is_rejected(self, memory: MemoryBackend, text: Any) -> None:
        with pytest.raises(ValueError):
            memory.store(text)
        with pytest.raises(ValueError):
            memory.store_many(["fine", text])
        assert len(memory) == 0

    @pytest.mark.parametrize("metadata", BAD_METADATA, ids=repr)
    def test_metadata_must_be_a_dict_of_json_scalars(self, memory: MemoryBackend, metadata: Any) -> None:
        with pytest.raises(ValueError):
            memory.store("a perfectly good text", metadata)
        assert len(memory) == 0

    def test_a_one_megabyte_text_is_stored_and_found_or_rejected(self, demo: MemoryBackend) -> None:
        filler = "Alice keeps a very long diary about nothing much. "
        text = ("zyxwvut4821 " + filler * (ONE_MEGABYTE // len(filler)))[:ONE_MEGABYTE]
        try:
            memory_id = demo.store(text)
        except ValueError:
            assert len(demo) == len(DEMO_FACTS)
        else:
            assert demo.get(memory_id).text == text
            assert memory_id in [h.id for h in demo.search("zyxwvut4821", top_k=3)]
        assert "Raft" in demo.search("What consensus algorithm does VelocityDB use?")[0].text

    @pytest.mark.parametrize("text", UNUSUAL_TEXTS, ids=range(len(UNUSUAL_TEXTS)))
    def test_unusual_unicode_is_stored_exactly_and_found_again(self, demo: MemoryBackend, text: str) -> None:
        memory_id = demo.store(text)
        assert demo.get(memory_id).text == text
        assert memory_id in [h.id for h in demo.search(text, top_k=3)]

    @pytest.mark.parametrize("query", ["", "   ", "\n\t"], ids=repr)
    def test_blank_query_is_rejected(self, demo: MemoryBackend, query: str) -> None:
        with pytest.raises(ValueError):
            demo.search(query)

    @pytest.mark.parametrize("top_k", [0, -1])
    def test_top_k_below_one_is_rejected(self, demo: MemoryBackend, top_k: int) -> None:
        with pytest.raises(ValueError):
            demo.search("Alice", top_k=top_k)

    def test_search_still_works_after_rejected_input(self, demo: MemoryBackend) -> None:
        for bad_call in (lambda: demo.store("  "), lambda: demo.store("ok", {"x": [1]}), lambda: demo.search("")):
            with pytest.raises(ValueError):
                bad_call()
        assert len(demo) == len(DEMO_FACTS)
        assert demo.search("order 4821", top_k=1)[0].text.startswith("Order #4821")
