"""The command line, run as a user would: a separate process, offline, with nothing but stdin."""

import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from aria_kit.__main__ import chat
from aria_kit.agent import AutonomousAgent
from aria_kit.interfaces import AssistantMessage, LLMProvider
from aria_kit.persona import ARIA
from aria_kit.tools import default_tools
from toy_memory import ToyMemory

FAKE_KEY = "sk-test-SECRET1234567890abcdefXYZ"
KEY_SHAPED = re.compile(r"sk-[A-Za-z0-9_-]{16,}")


def run(*args, stdin="", extra_env=None, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(extra_env or {})
    if isinstance(stdin, bytes):  # raw bytes, as a terminal may send them
        result = subprocess.run([sys.executable, "-m", "aria_kit", *args], input=stdin, capture_output=True,
                                env=env, timeout=timeout)
        return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8", "replace"),
                                           result.stderr.decode("utf-8", "replace"))
    return subprocess.run([sys.executable, "-m", "aria_kit", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=timeout)


def test_demo_runs_offline_and_shows_the_calculator_and_the_stored_decision():
    result = run("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "No OPENAI_API_KEY set — running offline" in result.stderr  # a notice, not output
    assert "No OPENAI_API_KEY" not in out
    assert 'calculator({"expression": "22 * 6.5"}) → 143' in out
    assert "aria: 22 * 6.5 = 143 hours." in out
    first = out.split("aria: ")[1].split("\n")[0]  # the first answer opens with the project, not Alice's language
    assert first.startswith("From memory: Alice is working on a distributed key-value store") and "Rust" not in first
    assert "Stored as mem_0008 (category: decision)." in out
    recall = out.split("you:  What storage engine decision did Alice make?")[1].split("you:")[0]
    assert "Alice switched VelocityDB's storage engine from LSM-tree to B-tree. [mem_0008]" in recall
    swap = out.split("== 4. Hot swap")[1]
    assert "[B-tree] A B-tree keeps keys sorted" in swap
    dump = out.split("== 5. Memory dump")[1]
    assert dump.count("mem_") == 8 and "mem_0008 [decision]" in dump


def test_chat_keeps_memory_in_a_file_across_restarts(tmp_path):
    memory_file = tmp_path / "aria.sqlite3"
    first = run("chat", "--memory", str(memory_file), stdin="Please remember that the staging server is called Tern.\n/quit\n")
    assert first.returncode == 0, first.stderr
    assert "Stored as mem_0001" in first.stdout
    second = run("chat", "--memory", str(memory_file), stdin="What is the staging server called?\n/memories\n")
    assert second.returncode == 0, second.stderr
    assert "(1 memory)" in second.stdout
    assert "The staging server is called Tern. [mem_0001]" in second.stdout
    assert "mem_0001 [fact] The staging server is called Tern." in second.stdout


def test_chat_reports_an_unreachable_server_keeps_going_and_never_prints_the_key(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"OPENAI_API_KEY": FAKE_KEY, "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    result = run("chat", "--memory", str(tmp_path / "m.sqlite3"), stdin="hello\nhello again\n/quit\n", extra_env=env)
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert output.count("! Could not connect") == 2  # both turns reported, the loop went on
    assert FAKE_KEY not in output and not KEY_SHAPED.search(output)


# ---------------------------------------------------------------- the command line's own errors

def test_version_and_help_read_as_plain_text():
    version = run("--version")
    assert version.returncode == 0 and re.fullmatch(r"aria_kit \d+\.\d+\.\d+\n", version.stdout)
    help_text = run("--help")
    assert help_text.returncode == 0 and "chat" in help_text.stdout
    assert "``" not in help_text.stdout and "`" not in help_text.stdout


def unusable_memory_paths(tmp_path):
    text_file = tmp_path / "notes.txt"
    text_file.write_text("my shopping list\n")
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE customers (name TEXT)")
    return {
        "a folder": (tmp_path, "is a folder"),
        "a missing folder": (tmp_path / "nowhere" / "m.sqlite3", "does not exist"),
        "a text file": (text_file, "not an Aria Kit memory file"),
        "another program's database": (foreign, "not an Aria Kit memory file"),
        "a device": (Path(os.devnull), "not a regular file"),
    }


@pytest.mark.parametrize("case", ["a folder", "a missing folder", "a text file", "another program's database", "a device"])
def test_an_unusable_memory_path_is_one_line_on_stderr_and_exit_status_2(tmp_path, case):
    path, reason = unusable_memory_paths(tmp_path)[case]
    before = path.read_bytes() if path.is_file() else None
    result = run("chat", "--memory", str(path), stdin="hello\n")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and reason in lines[0], result.stderr
    assert (path.read_bytes() if path.is_file() else None) == before  # left untouched


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can read any file")
def test_an_unreadable_memory_file_is_one_line_on_stderr(tmp_path):
    path = tmp_path / "locked.sqlite3"
    assert run("chat", "--memory", str(path), stdin="/quit\n").returncode == 0
    path.chmod(0)
    result = run("chat", "--memory", str(path), stdin="hello\n")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "permissions" in result.stderr


# ---------------------------------------------------------------- the commands inside the chat

def test_chat_commands_help_memories_forget_and_unknown_ones_never_reach_the_model(tmp_path):
    memory_file = tmp_path / "aria.sqlite3"
    lines = ["Remember that the build server is called Heron.", "Remember that the cat is called Miso.",
             "/help", "/memories", "/forget mem_0001", "/forget mem_0042", "/memories", "/tell me a joke", "/quit"]
    result = run("chat", "--memory", str(memory_file), stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("/forget ID") == 2  # /help, and the help shown for the unknown /tell
    assert "2 memories in" in out and "1 memory in" in out
    assert "Forgot mem_0001:" in out and "There is no memory 'mem_0042'" in out
    assert "Unknown command '/tell'; nothing was sent to Aria." in out
    assert "memory_search" not in out  # nothing but the two stores went to the model
    assert out.count("· memory_store") == 2


def test_reset_asks_first_and_deletes_only_after_yes(tmp_path):
    memory_file = tmp_path / "aria.sqlite3"
    run("chat", "--memory", str(memory_file), stdin="Remember that the build server is called Heron.\n")
    declined = run("chat", "--memory", str(memory_file), stdin="/reset\nno\n/memories\n")
    assert "Delete all 1 memory" in declined.stdout and "Nothing deleted." in declined.stdout
    assert "1 memory in" in declined.stdout
    confirmed = run("chat", "--memory", str(memory_file), stdin="/reset\nyes\n/memories\n")
    assert "Deleted 1 memory" in confirmed.stdout and "0 memories in" in confirmed.stdout


# ---------------------------------------------------------------- no single line ends the chat (issue 13)

def test_no_single_input_line_ends_the_chat_once_memory_is_not_empty(tmp_path):
    memory_file = tmp_path / "aria.sqlite3"
    run("chat", "--memory", str(memory_file), stdin="Remember that the staging server is called Tern.\n")
    lines = [b"what about \xed\xa0\x80 this?",  # a lone surrogate, UTF-8-encoded: not valid UTF-8
             b"\xff\xfe broken bytes",
             b"x" * 200_000,  # 200 KB in one line
             b"What is the staging server called?"]
    result = run("chat", "--memory", str(memory_file), stdin=b"\n".join(lines) + b"\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("  ! ") == 3  # one line each for the three bad lines
    assert "The staging server is called Tern. [mem_0001]" in result.stdout  # and the next line is answered


class Unreliable(LLMProvider):
    """Fails in a way nothing foresaw, then answers with terminal escape sequences."""

    name = "unreliable"

    def __init__(self):
        self.calls = 0

    def complete(self, messages, tools=None):
        self.calls += 1
        if self.calls == 1:
            raise KeyError(0)  # e.g. `choices` as an object in an off-spec reply
        if self.calls == 3:
            return AssistantMessage(content=12345)  # content as a number
        return AssistantMessage(content="fine \x1b]0;PWNED\x07 \x1b]52;c;aGVsbG8=\x07 \x1b[2J \x9b31m done")


def test_any_provider_reply_is_survived_and_escape_sequences_never_reach_the_terminal(tmp_path, monkeypatch, capsys):
    memory = ToyMemory()
    memory.store("The door code is \x1b]52;c;c2VjcmV0\x07 \x1b[2J 1234 \x1b]0;owned\x1b\\")
    agent = AutonomousAgent(ARIA, Unreliable(), memory, default_tools(memory))
    lines = iter(["first question", "second question", "third question", "/memories"])

    def typed(prompt=""):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None  # Ctrl-D

    monkeypatch.setattr("builtins.input", typed)
    assert chat(agent, "memory") == 0
    out = capsys.readouterr().out
    assert "! That failed (KeyError" in out
    assert "aria> fine" in out and "done" in out
    third = out.split("done\n")[1].splitlines()[0]  # the content-as-a-number reply: answered or reported
    assert third == "aria> 12345" or third.startswith("  ! That failed"), third
    assert "The door code is" in out and "1234" in out
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)
