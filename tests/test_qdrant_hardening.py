"""QdrantMemory on Qdrant Edge, hardened (issue 24, finding 5): clear errors for bad places, and crashes.

Each crash is real: a child process is killed (``os._exit``, no close, no flush)
at the worst moment of a store or of a supersede, and the folder is opened again.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("qdrant_edge")

import aria_kit  # noqa: E402
from aria_kit.qdrant_memory import QdrantMemory  # noqa: E402


def test_a_path_that_names_a_file_is_refused_with_what_to_pass(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"is a file; QdrantMemory keeps its points in a folder"):
        QdrantMemory(path=tmp_path / "notes.txt")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_collection_name_too_long_for_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"collection= is 300 bytes long; .* at most 255"):
        QdrantMemory(path=tmp_path, collection="c" * 300)


def test_a_damaged_edge_config_is_refused_and_left_untouched(tmp_path: Path) -> None:
    QdrantMemory(path=tmp_path).close()
    config = tmp_path / "aria_memory" / "edge_config.json"
    config.write_text("garbage")
    with pytest.raises(ValueError, match=r"edge_config.json is damaged .* left untouched: restore"):
        QdrantMemory(path=tmp_path)
    assert config.read_text() == "garbage"


def test_a_non_empty_folder_that_is_not_a_collection_is_refused_not_adopted(tmp_path: Path) -> None:
    (tmp_path / "aria_memory").mkdir()
    (tmp_path / "aria_memory" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"is not empty \(notes.txt\) but holds no Qdrant Edge collection"):
        QdrantMemory(path=tmp_path)
    assert sorted(p.name for p in (tmp_path / "aria_memory").iterdir()) == ["notes.txt"]


def killed_during(tmp_path: Path, patch: str, then: str) -> None:
    """Run ``then`` in a child whose engine runs ``patch`` (a method wrapper that may ``os._exit``)."""
    code = ("import os, sys\nfrom aria_kit import QdrantMemory\nmemory = QdrantMemory(path=sys.argv[1])\n"
            "memory.store_many(['first', 'second'])\nengine = memory.engine\n" + patch + then + "\nos._exit(3)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # 0: killed at the chosen moment; 3: the moment never came


def test_a_store_killed_after_writing_its_point_never_hands_the_id_out_again(tmp_path: Path) -> None:
    killed_during(tmp_path, "real = engine.insert\n"
                  "def insert(points):\n    real(points)\n    os._exit(0)\nengine.insert = insert\n",
                  "memory.store('written, then the process died')")
    memory = QdrantMemory(path=tmp_path)
    assert memory.get("mem_0003").text == "written, then the process died"
    assert memory.delete("mem_0003")
    assert memory.store("after the crash") == "mem_0004"
    memory.close()


def test_a_supersede_killed_between_its_writes_is_finished_on_open(tmp_path: Path) -> None:
    killed_during(tmp_path, "real = engine.set_payload\n"
                  "def set_payload(ids, payload):\n    if 'superseded_by' in payload: os._exit(0)\n"
                  "    real(ids, payload)\nengine.set_payload = set_payload\n",
                  "memory.supersede('mem_0001', 'first, corrected', at='2026-12-01')")
    memory = QdrantMemory(path=tmp_path)
    assert [r.id for r in memory.history("mem_0003")] == ["mem_0001", "mem_0003"]
    assert memory.get("mem_0001").superseded_by == "mem_0003"
    assert memory.get("mem_0001").superseded_at == "2026-12-01"
    assert [h.id for h in memory.search("first", top_k=3)] == ["mem_0003", "mem_0002"]
    assert memory.delete("mem_0001") and memory.delete("mem_0003")
    assert [r.id for r in memory.list_all()] == ["mem_0002"]
    memory.close()


def test_deleting_a_version_whose_neighbour_is_gone_is_not_a_raw_engine_error(tmp_path: Path) -> None:
    memory = QdrantMemory(path=tmp_path)
    memory.store("first")
    new = memory.supersede("mem_0001", "first, corrected")
    memory.engine.delete([1])  # the old version vanished without the splice (a hand edit, a crash elsewhere)
    assert memory.delete(new) and len(memory) == 0
    memory.close()


def test_the_engine_modules_do_not_import_each_other() -> None:
    source = (Path(aria_kit.__file__).parent / "qdrant_engines.py").read_text()
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert "aria_kit.qdrant_server" not in imported
