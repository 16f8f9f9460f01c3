"""The command line, run as a user would: a separate process, offline, with nothing but stdin."""

import os
import re
import socket
import subprocess
import sys

FAKE_KEY = "sk-test-SECRET1234567890abcdefXYZ"
KEY_SHAPED = re.compile(r"sk-[A-Za-z0-9_-]{16,}")


def run(*args, stdin="", extra_env=None, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "aria_kit", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=timeout)


def test_demo_runs_offline_and_shows_the_calculator_and_the_stored_decision():
    result = run("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "No OPENAI_API_KEY set — running offline" in out
    assert 'calculator({"expression": "22 * 6.5"}) → 143' in out
    assert "aria: 22 * 6.5 = 143 hours." in out
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
    assert "(1 memories)" in second.stdout
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
