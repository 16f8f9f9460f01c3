"""Damaged files, bad paths and missing permissions: one MemoryFileError that says what to do (issue 13).

Each damaged file is made by editing a real memory file the way a hand edit,
a bad copy or a disk fault would; the test checks the error type, that its
message is actionable, and that the file's bytes did not change. Permission
tests need a user who is *not* root (root may write anything): when the tests
run as root, those bodies run in a forked child that drops to ``nobody``.
"""

from __future__ import annotations

import os
import pickle
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import Embedder
from aria_kit.persistence import MemoryFileError

NOBODY = 65534


class TinyEmbedder(Embedder):
    name, dim = "tiny-hash-16", 16

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.ones((len(texts), 16), dtype=np.float32) / 4


def memory_file(path: Path, count: int = 2) -> Path:
    with HybridMemory(TinyEmbedder(), path=path) as memory:
        memory.store("Alice likes tea.", {"category": "user_pref"})
        memory.store_many([f"note {i}: " + "x" * 200 for i in range(count - 1)])
    return path


def edit(path: Path, statement: str) -> None:
    connection = sqlite3.connect(path)
    connection.execute(statement)
    connection.commit()
    connection.close()


def fails_to_open_and_changes_nothing(path: Path, match: str) -> str:
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match=match) as caught:
        HybridMemory(TinyEmbedder(), path=path)
    assert path.read_bytes() == before
    return str(caught.value)


DAMAGE = {
    "metadata that is not JSON": "UPDATE memories SET metadata = '{\"category\": ' WHERE seq = 1",
    "metadata that is a JSON list": "UPDATE memories SET metadata = '[1, 2]' WHERE seq = 1",
    "metadata with a 5,000-digit number": f"UPDATE memories SET metadata = '{{\"n\": {'9' * 5000}}}' WHERE seq = 1",
    "text that is a blob": "UPDATE memories SET text = X'FF00FF' WHERE seq = 1",
    "an embedding that is text": f"UPDATE memories SET embedding = '{'a' * 64}' WHERE seq = 1",
    "an embedding that is a number": "UPDATE memories SET embedding = 5 WHERE seq = 1",
    "a delete counter that is not a number": "UPDATE meta SET value = 'many' WHERE key = 'deletes'",
    "no delete counter": "DELETE FROM meta WHERE key = 'deletes'",
    "no memories table": "DROP TABLE memories",
    "a renamed column": "ALTER TABLE memories RENAME COLUMN text TO body",
}


@pytest.mark.parametrize("statement", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_hand_edited_file_is_refused_with_what_to_do_and_left_unchanged(tmp_path: Path, statement: str) -> None:
    path = memory_file(tmp_path / "memory.sqlite3")
    edit(path, statement)
    message = fails_to_open_and_changes_nothing(path, "damaged")
    assert "Restore a backup" in message


def test_a_file_with_damaged_pages_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = memory_file(tmp_path / "memory.sqlite3", count=300)
    damaged = bytearray(path.read_bytes())
    for page in range(2, len(damaged) // 4096):  # page 1 (the header and schema) stays readable
        damaged[page * 4096 : page * 4096 + 8] = b"\xff" * 8
    path.write_bytes(bytes(damaged))
    fails_to_open_and_changes_nothing(path, "damaged")


def test_a_truncated_file_is_called_damaged_or_foreign_and_left_unchanged(tmp_path: Path) -> None:
    path = memory_file(tmp_path / "memory.sqlite3", count=300)
    path.write_bytes(path.read_bytes()[: 3 * 4096 + 100])
    fails_to_open_and_changes_nothing(path, "not an Aria Kit memory file, or is damaged")


@pytest.mark.parametrize("memory_id", ["mem_99999999999999999999999", "mem_9223372036854775808", "mem_" + "9" * 5000])
def test_an_id_too_large_for_any_file_is_simply_not_there(tmp_path: Path, memory_id: str) -> None:
    path = memory_file(tmp_path / "memory.sqlite3")
    with HybridMemory(TinyEmbedder(), path=path) as memory:
        assert memory.delete(memory_id) is False
        assert memory.get(memory_id) is None
        assert len(memory) == 2


@pytest.mark.parametrize("path", [5, ["memory.sqlite3"], b"memory.sqlite3", "memory\0.sqlite3", ""],
                         ids=["an int", "a list", "bytes", "a NUL character", "empty"])
def test_a_path_that_is_not_a_file_name_is_refused_with_an_example(path: Any) -> None:
    with pytest.raises(MemoryFileError, match="memory.sqlite3"):
        HybridMemory(TinyEmbedder(), path=path)


def test_a_folder_is_refused_with_a_file_inside_it_as_the_example(tmp_path: Path) -> None:
    with pytest.raises(MemoryFileError, match="is a folder") as caught:
        HybridMemory(TinyEmbedder(), path=tmp_path)
    assert str(tmp_path / "memory.sqlite3") in str(caught.value)


# ---------------------------------------------------------------- permissions (as a user who is not root)


def as_unprivileged(body: Callable[[], Any]) -> Any:
    """Run ``body`` as a user without root's power to write anything; return its result or raise its error."""
    if os.getuid() != 0:
        return body()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, run, send back the outcome, and leave without pytest's cleanup
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            outcome: Any = ("ok", body())
        except BaseException as exc:  # noqa: BLE001 - handed to the parent, which re-raises it
            outcome = ("error", exc)
        with os.fdopen(write, "wb") as pipe:
            pickle.dump(outcome, pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        kind, value = pickle.load(pipe)
    os.waitpid(pid, 0)
    if kind == "error":
        raise value
    return value


@pytest.fixture
def shared_folder() -> Path:
    """A folder the unprivileged user can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="aria-kit-permissions-"))
    folder.chmod(0o777)
    yield folder
    for child in sorted(folder.rglob("*"), reverse=True):
        child.chmod(0o777)
        child.unlink() if child.is_file() else child.rmdir()
    folder.rmdir()


def owned_by_nobody(path: Path) -> None:
    if os.getuid() == 0:
        os.chown(path, NOBODY, NOBODY)


def test_a_read_only_file_can_be_searched_and_a_store_fails_clearly_losing_nothing(shared_folder: Path) -> None:
    folder = shared_folder / "data"
    folder.mkdir()
    path = memory_file(folder / "memory.sqlite3")
    owned_by_nobody(folder)
    owned_by_nobody(path)
    path.chmod(0o444)
    before = path.read_bytes()

    def use() -> tuple[list[str], str, list[str]]:
        with HybridMemory(TinyEmbedder(), path=path) as memory:
            found = [hit.text for hit in memory.search("tea", top_k=1)]
            with pytest.raises(MemoryFileError) as caught:
                memory.store("Bob likes coffee.")
            return found, str(caught.value), [record.text for record in memory.list_all()]

    found, message, after = as_unprivileged(use)
    assert found == ["Alice likes tea."]
    assert "may not write it" in message and "permissions" in message
    assert after == ["Alice likes tea.", "note 0: " + "x" * 200]
    assert path.read_bytes() == before


def test_a_writable_file_in_a_read_only_folder_is_reported_as_a_folder_problem(shared_folder: Path) -> None:
    folder = shared_folder / "locked"
    folder.mkdir()
    path = memory_file(folder / "memory.sqlite3")
    owned_by_nobody(path)
    owned_by_nobody(folder)
    folder.chmod(0o555)
    before = path.read_bytes()

    def open_it() -> str:
        with pytest.raises(MemoryFileError) as caught:
            HybridMemory(TinyEmbedder(), path=path)
        return str(caught.value)

    message = as_unprivileged(open_it)
    assert "not an Aria Kit memory file" not in message
    assert f"its folder {folder}" in message and "memory.sqlite3-wal" in message
    assert path.read_bytes() == before


@pytest.mark.parametrize("exists", [True, False], ids=["file being written", "new file being switched to WAL"])
def test_a_file_another_process_keeps_locked_is_reported_as_busy_not_as_a_folder_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exists: bool) -> None:
    from aria_kit import persistence
    from aria_kit.persistence import MemoryFile

    monkeypatch.setattr(persistence, "BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "memory.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    if not exists:  # no file yet for the probe to read: the lock is met when switching to WAL
        monkeypatch.setattr(Path, "exists", lambda self: False)
    holder.execute("BEGIN EXCLUSIVE")  # what a process in the middle of a long write looks like from outside
    try:
        with pytest.raises(MemoryFileError, match="another process held it for more than 0.2 s. Try again"):
            MemoryFile(path, "test-embedder", 4)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    monkeypatch.undo()
    MemoryFile(path, "test-embedder", 4).close()  # once it lets go, the file opens
