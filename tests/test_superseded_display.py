"""Superseded memories as people see them (lesson 10): struck through in the chat widget, marked in /memories."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from aria_kit.__main__ import format_memory_line
from aria_kit.chat_widget import ChatWidget
from aria_kit.demo import make_agent, seed_memory
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryRecord
from aria_kit.offline import OfflineProvider

OLD = MemoryRecord("mem_0001", "Alice likes Rust.", {"category": "user_pref"}, "mem_0008", "2026-03-01T09:00:00+00:00")
NEW = MemoryRecord("mem_0008", "Alice likes Go.", {"category": "user_pref"}, supersedes="mem_0001")


def test_memory_panel_strikes_through_history_and_links_it_to_its_successor() -> None:
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    seed_memory(agent.memory)
    agent.memory.supersede("mem_0007", "Order #4821 <img src=x onerror=alert(1)> was cancelled.")
    chat = ChatWidget(agent)
    chat.send("Alice has switched to Go")
    panel = chat.memory_panel.value
    old_row = panel.split("id='aria-memory-mem_0001'")[1].split("</tr>")[0]
    assert "aria-memory-superseded" in old_row and "<s " in old_row
    assert "Alice&#x27;s favourite programming language is Rust.</s> → replaced by <a href='#aria-memory-mem_0009'>" in old_row
    new_row = panel.split("id='aria-memory-mem_0009'")[1].split("</tr>")[0]
    assert "<s " not in new_row and "(updates mem_0001)" in new_row and "aria-memory-new" in new_row
    assert "&lt;img src=x onerror=alert(1)&gt;" in panel and "<img" not in panel


def test_memories_lines_mark_history_with_its_successor_and_when() -> None:
    assert format_memory_line(NEW) == "  mem_0008 [user_pref] Alice likes Go. (updates mem_0001)"
    assert format_memory_line(OLD) == (
        "  mem_0001 [user_pref] ~~Alice likes Rust.~~ → superseded by mem_0008 at 2026-03-01T09:00:00+00:00")
    assert "\x1b[9mAlice likes Rust.\x1b[0m" in format_memory_line(OLD, ansi=True)
    assert format_memory_line(MemoryRecord("mem_0002", "Plain.", {"category": "fact"})) == "  mem_0002 [fact] Plain."


def test_terminal_chat_updates_a_fact_across_a_restart_and_lists_the_history(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}

    def chat(stdin: str) -> str:
        result = subprocess.run([sys.executable, "-m", "aria_kit", "chat", "--memory", str(tmp_path / "m.sqlite3")],
                                input=stdin, capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    chat("Please remember that the staging server is called Tern.\n")
    out = chat("The staging server is now called Heron.\nWhat is the staging server called?\n/memories\n")
    assert "Updated mem_0001 → mem_0002" in out
    assert "The staging server is called Heron. [mem_0002]" in out
    assert "mem_0001 [fact] ~~The staging server is called Tern.~~ → superseded by mem_0002 at " in out
    assert "mem_0002 [fact] The staging server is called Heron. (updates mem_0001)" in out
