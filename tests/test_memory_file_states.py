"""Hand-edited states, lost races and old files (issue 24, findings 2, 3, 4 and 8).

A lost race is reported as one (search again, retry), never as damage; a file
whose supersede links dangle or form a cycle, or whose rows are numbered 0 or
near 2^63, is refused on open naming the row, and left as it was; a schema-1
file is checked before it is upgraded, and a read-only one can be searched.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from test_memory_file_errors import as_unprivileged, owned_by_nobody, shared_folder  # noqa: F401 (a fixture)
from test_superseding import GO, ZIG, write_version_1_file

from aria_kit.demo_data import DEMO_FACTS, seed_memory
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder
from aria_kit.persistence import ChangedByAnotherProcess, MemoryFileError
from aria_kit.tools import MemoryUpdateTool


class MeanwhileEmbedder(Embedder):
    """The default embedder, which runs ``meanwhile`` (once) while embedding: the window where a race is lost."""

    def __init__(self) -> None:
        self.inner = default_embedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.meanwhile: Callable[[], object] | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        act, self.meanwhile = self.meanwhile, None
        if act is not None:
            act()
        return self.inner.embed(texts)


@pytest.fixture
def racing(tmp_path: Path) -> tuple[HybridMemory, HybridMemory, MeanwhileEmbedder]:
    embedder = MeanwhileEmbedder()
    loser, winner = HybridMemory(embedder, path=tmp_path / "m.sqlite3"), HybridMemory(path=tmp_path / "m.sqlite3")
    seed_memory(winner)
    yield loser, winner, embedder
    loser.close()
    winner.close()


# ---------------------------------------------------------------- finding 2: a lost race is a lost race


@pytest.mark.parametrize("other_change", ["supersede", "delete"])
def test_a_supersede_that_loses_a_race_says_so_and_not_that_the_file_is_damaged(racing, other_change: str) -> None:
    loser, winner, embedder = racing
    assert loser.get("mem_0001").is_current
    embedder.meanwhile = (lambda: winner.supersede("mem_0001", ZIG)) if other_change == "supersede" else (
        lambda: winner.delete("mem_0001"))
    result = MemoryUpdateTool(loser).invoke({"memory_id": "mem_0001", "new_text": GO})
    assert result.startswith("Error: another process changed memory mem_0001 first"), result
    assert "search memory again" in result and "damaged" not in result and "backup" not in result
    texts = [r.text for r in loser.list_all()]
    assert GO not in texts and len(texts) == (8 if other_change == "supersede" else 6)
    embedder.meanwhile = lambda: winner.delete("mem_0002")  # and directly: a ValueError, as the contract says
    with pytest.raises(ChangedByAnotherProcess, match="another process changed memory mem_0002 first"):
        loser.supersede("mem_0002", GO)


def test_only_real_damage_is_called_damaged(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    with HybridMemory(path=path) as memory:
        seed_memory(memory)
        with sqlite3.connect(path) as edit:
            edit.execute("UPDATE meta SET value = 'many' WHERE key = 'deletes'")
        with pytest.raises(MemoryFileError, match="damaged"):
            memory.delete("mem_0002")


# ---------------------------------------------------------------- findings 3 and 8: hand-edited states


def edited(tmp_path: Path, *statements: str) -> Path:
    path = tmp_path / "m.sqlite3"
    with HybridMemory(path=path) as memory:
        seed_memory(memory)
        memory.supersede("mem_0001", GO)  # mem_0008
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        connection.execute(statement)
    connection.close()
    return path


@pytest.mark.parametrize(("statements", "named"), [
    (["UPDATE memories SET superseded_by = 2 WHERE seq = 2"], "memories 2 -> 2 form a cycle"),
    (["UPDATE memories SET superseded_by = 1 WHERE seq = 8"], "memories 1 -> 8 -> 1 form a cycle"),
    (["UPDATE memories SET supersedes = 8 WHERE seq = 1"], "supersedes links of memories 1 -> 8 -> 1"),
    (["UPDATE memories SET superseded_by = 99 WHERE seq = 3"], "memory 3 is superseded by memory 99, which is not"),
    (["UPDATE memories SET seq = 0 WHERE seq = 4"], "row with seq 0"),
    (["UPDATE memories SET seq = -5 WHERE seq = 4"], "row with seq -5"),
    (["UPDATE memories SET seq = 9223372036854775807 WHERE seq = 4"], "row with seq 9223372036854775807"),
    (["UPDATE sqlite_sequence SET seq = 9223372036854775806"], "last memory number handed out"),
])
def test_a_hand_edited_state_is_refused_on_open_naming_the_row_and_left_unchanged(
        tmp_path: Path, statements: list[str], named: str) -> None:
    path = edited(tmp_path, *statements)
    before = path.read_bytes()
    with pytest.raises(MemoryFileError) as refused:
        HybridMemory(path=path)
    assert named in str(refused.value) and "edited by hand" in str(refused.value)
    assert "Restore a backup" in str(refused.value)
    assert path.read_bytes() == before


def test_history_ends_even_when_links_form_a_cycle() -> None:
    from aria_kit.interfaces import MemoryRecord
    from toy_memory import ToyMemory

    class Looped(ToyMemory):
        reads = 0

        def get(self, memory_id: str) -> MemoryRecord | None:
            self.reads += 1
            assert self.reads < 100, "history() is walking a cycle for ever"
            links = {"mem_0001": ("mem_0002", "mem_0002"), "mem_0002": ("mem_0001", "mem_0001")}
            return MemoryRecord(memory_id, "x", {}, links[memory_id][0], "2026-01-01", links[memory_id][1])

    assert [r.id for r in Looped().history("mem_0001")] == ["mem_0002", "mem_0001"]


# ---------------------------------------------------------------- finding 4: schema 1, checked before upgrading


def test_a_version_1_file_with_a_damaged_row_is_refused_before_it_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    write_version_1_file(path)
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE memories SET embedding = x'00' WHERE seq = 5")
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match="memory 5 has 1 bytes as its embedding"):
        HybridMemory(path=path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA user_version").fetchone() == (1,)


def test_a_read_only_version_1_file_can_be_searched_and_is_not_upgraded(shared_folder: Path) -> None:  # noqa: F811
    folder = shared_folder / "data"
    folder.mkdir()
    path = folder / "old.sqlite3"
    write_version_1_file(path)
    owned_by_nobody(folder)
    owned_by_nobody(path)
    path.chmod(0o444)
    before = path.read_bytes()

    def use() -> tuple[str, int, str]:
        with HybridMemory(path=path) as memory:
            found = memory.search("Which consensus algorithm does VelocityDB use?", top_k=1)[0].text
            with pytest.raises(MemoryFileError) as caught:
                memory.supersede("mem_0001", GO)
            return found, len(memory), str(caught.value)

    found, count, message = as_unprivileged(use)
    assert found == DEMO_FACTS[2][0] and count == 7
    assert "may not write it" in message
    assert path.read_bytes() == before
    assert os.stat(path).st_mode & 0o777 == 0o444
