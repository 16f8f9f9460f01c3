"""What every ``MemoryBackend`` must do, as a reusable test class.

Subclass ``MemoryBackendContract`` in a ``test_*.py`` file with a name starting
with ``Test`` and override ``make_memory(tmp_path)`` to return a fresh, empty
backend; pytest then runs every test below against it. The tests only use the
``MemoryBackend`` interface and the ``Hit``/``MemoryRecord`` fields, so the
same contract holds the in-process ``HybridMemory``, the SQLite-backed one and
engines such as Qdrant to one standard. Backend-specific internals (exact
scores, the size limit's value, rank tie-breaking) are tested elsewhere.
Superseding (lesson 10) is part of the contract: a memory replaced by a newer
one stays stored, linked both ways, and out of default search.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta, timezone
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

    # ------------------------------------------------------------ superseding (lesson 10)

    RUST, GO = "Alice's favourite programming language is Rust.", "Alice's favourite programming language is Go."

    def test_supersede_stores_a_new_memory_linked_both_ways_to_the_old_one(self, demo: MemoryBackend) -> None:
        new_id = demo.supersede("mem_0001", self.GO, at="2026-03-01T09:00:00+00:00")
        assert new_id == "mem_0008" and len(demo) == len(DEMO_FACTS) + 1
        old, new = demo.get("mem_0001"), demo.get(new_id)
        assert (old.text, old.superseded_by, old.superseded_at, old.supersedes) == (
            self.RUST, new_id, "2026-03-01T09:00:00+00:00", None)
        assert (new.text, new.superseded_by, new.superseded_at, new.supersedes) == (self.GO, None, None, "mem_0001")
        assert not old.is_current and new.is_current
        listed = {r.id: r for r in demo.list_all()}
        assert listed["mem_0001"] == old and listed[new_id] == new
        assert [r.id for r in demo.list_all()] == [f"mem_{i:04d}" for i in range(1, 9)]

    def test_default_search_returns_only_current_memories(self, demo: MemoryBackend) -> None:
        new_id = demo.supersede("mem_0001", self.GO)
        hits = demo.search("Alice's favourite programming language", top_k=8)
        assert "mem_0001" not in [h.id for h in hits] and len(hits) == len(DEMO_FACTS)
        assert hits[0].id == new_id and hits[0].supersedes == "mem_0001" and hits[0].superseded_by is None

    def test_history_is_searched_on_request_and_marked(self, demo: MemoryBackend) -> None:
        new_id = demo.supersede("mem_0001", self.GO)
        hits = {h.id: h for h in demo.search("Alice's favourite programming language", top_k=8, include_history=True)}
        assert len(hits) == len(DEMO_FACTS) + 1
        assert hits["mem_0001"].superseded_by == new_id and hits[new_id].superseded_by is None

    def test_the_new_version_keeps_the_old_metadata_unless_given(self, demo: MemoryBackend) -> None:
        kept = demo.supersede("mem_0001", self.GO)
        given = demo.supersede("mem_0005", "The project deadline for VelocityDB v1.0 is April 15.", {"category": "date"})
        assert demo.get(kept).metadata == {"category": "user_pref"}
        assert demo.get(given).metadata == {"category": "date"}

    def test_superseded_at_defaults_to_now_in_utc(self, demo: MemoryBackend) -> None:
        demo.supersede("mem_0001", self.GO)
        stamped = datetime.fromisoformat(demo.get("mem_0001").superseded_at)
        assert stamped.utcoffset() == timedelta(0)
        assert abs(datetime.now(timezone.utc) - stamped) < timedelta(minutes=5)

    @pytest.mark.parametrize("old_id", ["mem_0099", "not an id", "mem_0001"], ids=["unknown", "malformed", "superseded"])
    def test_superseding_what_is_not_a_current_memory_is_rejected_and_changes_nothing(
            self, demo: MemoryBackend, old_id: str) -> None:
        demo.supersede("mem_0001", self.GO)
        before = demo.list_all()
        with pytest.raises(ValueError, match="mem_0008, the current version" if old_id == "mem_0001" else "no memory"):
            demo.supersede(old_id, "Alice's favourite programming language is Zig.")
        assert demo.list_all() == before

    @pytest.mark.parametrize(("text", "at"), [("  ", None), (42, None), ("fine text", "last Tuesday"), ("fine", 7)],
                             ids=["blank", "not str", "at not ISO", "at not str"])
    def test_bad_input_to_supersede_is_rejected_and_changes_nothing(self, demo: MemoryBackend, text: Any,
                                                                    at: Any) -> None:
        before = demo.list_all()
        with pytest.raises(ValueError):
            demo.supersede("mem_0001", text, at=at)
        assert demo.list_all() == before

    def test_history_lists_every_version_oldest_first_from_any_of_them(self, demo: MemoryBackend) -> None:
        go = demo.supersede("mem_0001", self.GO, at="2026-03-01")
        zig = demo.supersede(go, "Alice's favourite programming language is Zig.", at="2026-06-01")
        for member in ("mem_0001", go, zig):
            assert [r.id for r in demo.history(member)] == ["mem_0001", go, zig]
        assert [r.superseded_at for r in demo.history(zig)] == ["2026-03-01", "2026-06-01", None]
        assert demo.history("mem_0002") == [demo.get("mem_0002")] and demo.history("mem_0099") == []

    def test_deleting_the_current_version_is_refused_and_never_revives_the_old_one(self, demo: MemoryBackend) -> None:
        go = demo.supersede("mem_0001", self.GO)
        with pytest.raises(ValueError, match=r"forget\('mem_\d+'\)"):
            demo.delete(go)
        assert demo.get("mem_0001").superseded_by == go and demo.get(go).is_current  # nothing changed
        assert demo.search("Alice's favourite programming language", top_k=1)[0].id == go

    def test_forget_removes_every_version_of_the_fact_and_nothing_else(self, demo: MemoryBackend) -> None:
        others = {r.id for r in demo.list_all()} - {"mem_0001"}
        go = demo.supersede("mem_0001", self.GO, at="2026-03-01")
        zig = demo.supersede(go, "Alice's favourite programming language is Zig.", at="2026-06-01")
        assert demo.forget(go) == ["mem_0001", go, zig]  # from any version, oldest first
        assert {r.id for r in demo.list_all()} == others and demo.forget(zig) == [] and demo.forget("nope") == []
        hits = demo.search("Alice's favourite programming language", top_k=len(others), include_history=True)
        assert not {h.id for h in hits} & {"mem_0001", go, zig}
        assert demo.store("Alice's favourite programming language is Odin.") not in {"mem_0001", go, zig}

    def test_deleting_a_middle_version_splices_the_chain(self, demo: MemoryBackend) -> None:
        go = demo.supersede("mem_0001", self.GO, at="2026-03-01")
        zig = demo.supersede(go, "Alice's favourite programming language is Zig.", at="2026-06-01")
        assert demo.delete(go)
        assert [(r.id, r.superseded_by, r.supersedes) for r in demo.history(zig)] == [
            ("mem_0001", zig, None), (zig, None, "mem_0001")]
        assert demo.get("mem_0001").superseded_at == "2026-03-01"
        assert demo.delete("mem_0001") and demo.get(zig).supersedes is None
