"""Hostile conditions for the SQLite-backed memory: SIGKILL mid-store, two writers, bad input, foreign files.

The crash and concurrency tests run real child processes that store into one
file and print each id right after ``store`` returns; whatever a child printed
must be in the file afterwards, whole, and the file must pass SQLite's
integrity check. Run with ``-s`` to see how many kills the file survived.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from memory_contract import DEMO_FACTS, UNUSUAL_TEXTS

from aria_kit.hybrid_memory import HybridMemory
from aria_kit.persistence import SCHEMA_VERSION, MemoryFile, MemoryFileError

REPO = Path(__file__).resolve().parents[1]
KILLS = 30

CHILD = r"""
import sys
from aria_kit.hybrid_memory import HybridMemory

path, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
memory = HybridMemory(path=path)
print("ready", flush=True)
sys.stdin.readline()  # wait for "go", so that several children can start storing together
for i in range(count):
    memory_id = memory.store(f"{prefix} memory {i}: Alice noted fact {i} about VelocityDB", {"i": i})
    print(memory_id, i, flush=True)
print("done", flush=True)
"""


def expected_text(prefix: str, i: int) -> str:
    return f"{prefix} memory {i}: Alice noted fact {i} about VelocityDB"


def spawn_child(path: Path, prefix: str, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), prefix, str(count)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )


def wait_until_ready(*children: subprocess.Popen[str]) -> None:
    for child in children:
        assert child.stdout.readline() == "ready\n", child.stderr.read()


def tell_to_go(*children: subprocess.Popen[str]) -> None:
    for child in children:
        child.stdin.write("go\n")
        child.stdin.flush()


def printed_ids(output: str) -> dict[int, int]:
    """seq -> i for every complete ``mem_XXXX i`` line a child printed."""
    pairs = [line.split() for line in output.splitlines(keepends=True) if line.startswith("mem_") and line.endswith("\n")]
    return {int(memory_id[4:]): int(i) for memory_id, i in pairs}


def rows_in(path: Path) -> dict[int, str]:
    """Check the file's integrity with a plain sqlite3 connection and return seq -> text."""
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return dict(connection.execute("SELECT seq, text FROM memories"))
    finally:
        connection.close()


# ---------------------------------------------------------------- crashes and concurrent writers


def test_every_store_a_killed_process_reported_is_in_the_file(tmp_path: Path, record_property: Any) -> None:
    path = tmp_path / "memory.sqlite3"
    rng = random.Random(20261129)
    reported: dict[int, str] = {}
    for round_ in range(KILLS):
        prefix = f"round{round_}"
        child = spawn_child(path, prefix, count=1_000_000)
        wait_until_ready(child)
        tell_to_go(child)
        time.sleep(rng.uniform(0.020, 0.300))
        os.kill(child.pid, signal.SIGKILL)
        output, _ = child.communicate()
        assert child.returncode == -signal.SIGKILL
        reported.update({seq: expected_text(prefix, i) for seq, i in printed_ids(output).items()})
        rows = rows_in(path)
        missing = {seq: text for seq, text in reported.items() if rows.get(seq) != text}
        assert not missing, f"after kill {round_ + 1}, reported stores are missing or changed: {missing}"
    with HybridMemory(path=path) as memory:
        assert len(memory) == len(rows_in(path)) >= len(reported) > KILLS
        assert memory.search("Alice noted fact 3 about VelocityDB", top_k=1)
    print(f"survived {KILLS} SIGKILLs; {len(reported)} reported stores all present")
    record_property("sigkills_survived", KILLS)
    record_property("reported_stores_checked", len(reported))


def test_two_processes_storing_into_one_file_lose_nothing_and_share_no_id(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    count = 200
    children = {prefix: spawn_child(path, prefix, count) for prefix in ("A", "B")}  # both create the file
    wait_until_ready(*children.values())
    watcher = HybridMemory(path=path)  # opened before the writers write: it must pick up their rows
    assert len(watcher) == 0
    tell_to_go(*children.values())
    printed: dict[str, dict[int, int]] = {}
    for prefix, child in children.items():
        output, errors = child.communicate(timeout=120)
        assert child.returncode == 0, errors
        printed[prefix] = printed_ids(output)
        assert sorted(printed[prefix].values()) == list(range(count))
    assert not printed["A"].keys() & printed["B"].keys()
    rows = rows_in(path)
    assert len(rows) == 2 * count
    for prefix, ids in printed.items():
        assert all(rows[seq] == expected_text(prefix, i) for seq, i in ids.items())
    assert len(watcher) == 2 * count
    assert [r.id for r in watcher.list_all()] == [f"mem_{seq:04d}" for seq in sorted(rows)]
    watcher.close()


def _open_together(path: str, start: Any, results: Any, writer: int) -> None:
    """One of several processes that open the same new file at the same moment and store one row."""
    try:
        start.wait()
        memory_file = MemoryFile(path, "test-embedder", 4)
        memory_file.insert([(f"writer {writer}", {"category": "general"}, np.full(4, 0.5, dtype=np.float32))])
        memory_file.close()
        results.put("ok")
    except Exception as exc:  # reported to the parent, which says what failed
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_opening_one_new_file_at_the_same_moment_all_succeed(tmp_path: Path) -> None:
    # Two races, both seen here before the fix: switching a new file to WAL failed at once with "database
    # is locked" (SQLite does not wait for that switch), and a process checking a file that another was
    # creating read the version before the commit and the tables after it, and refused a good file.
    context, writers, failures = multiprocessing.get_context("fork"), 3, []
    for attempt in range(40):
        path = tmp_path / f"memory-{attempt}.sqlite3"
        start, results = context.Barrier(writers), context.Queue()
        processes = [context.Process(target=_open_together, args=(str(path), start, results, writer))
                     for writer in range(writers)]
        for process in processes:
            process.start()
        outcomes = [results.get(timeout=60) for _ in processes]
        for process in processes:
            process.join(timeout=60)
        failures += [outcome for outcome in outcomes if outcome != "ok"]
        if not failures:
            assert len(rows_in(path)) == writers
    assert not failures, f"{len(failures)} of {40 * writers} opens failed, first: {failures[0]}"


# ---------------------------------------------------------------- bad input


REJECTED: list[tuple[Any, Any]] = [
    ("", None), ("   \n\t", None), (None, None), (b"bytes", None), (123, None),
    ("fine text", {"tags": ["a", "b"]}), ("fine text", {"when": object()}), ("fine text", {1: "int key"}),
    ("fine text", {"x": math.nan}), ("fine text", "task"), ("x" * 1_000_000, None), ("lone \ud800 surrogate", None),
]


def test_bad_input_is_rejected_unusual_input_is_stored_and_the_index_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:
        memory.store_many([text for text, _ in DEMO_FACTS], [{"category": cat} for _, cat in DEMO_FACTS])
        for text, metadata in REJECTED:
            with pytest.raises(ValueError):
                memory.store(text, metadata)
        for query in ("", "  ", None, "x" * 1_000_000):
            with pytest.raises(ValueError):
                memory.search(query)
        stored = {memory.store(text, {"category": "unusual"}): text for text in UNUSUAL_TEXTS}
        for memory_id, text in stored.items():
            assert memory.get(memory_id).text == text
            assert memory_id in [h.id for h in memory.search(text, top_k=3)]
        assert len(memory) == len(DEMO_FACTS) + len(UNUSUAL_TEXTS)
        assert memory.search("order 4821", top_k=1)[0].text.startswith("Order #4821")
        before = memory.list_all(), memory.search("Alice VelocityDB", top_k=20)
    assert len(rows_in(path)) == len(DEMO_FACTS) + len(UNUSUAL_TEXTS)
    with HybridMemory(path=path) as reopened:
        assert (reopened.list_all(), reopened.search("Alice VelocityDB", top_k=20)) == before


# ---------------------------------------------------------------- files that are not ours


def other_schema_version(path: Path) -> None:
    HybridMemory(path=path).close()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()


def unrelated_sqlite_database(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    connection.execute("INSERT INTO customers (name) VALUES ('Alice')")
    connection.commit()
    connection.close()


@pytest.mark.parametrize(
    ("make_file", "message"),
    [(other_schema_version, f"schema version {SCHEMA_VERSION + 1}"), (unrelated_sqlite_database, r"not an Aria Kit memory file \(its tables: customers\)")],
    ids=["other schema version", "unrelated SQLite tables"],
)
def test_a_file_we_did_not_write_is_refused_and_left_byte_for_byte_unchanged(tmp_path: Path, make_file: Any,
                                                                              message: str) -> None:
    path = tmp_path / "data.sqlite3"
    make_file(path)
    before = path.read_bytes()
    with pytest.raises(MemoryFileError, match=message) as caught:
        HybridMemory(path=path)
    assert "left untouched" in str(caught.value) and "new file" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert path.read_bytes() == before
