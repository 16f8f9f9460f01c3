"""The Makefile as a newcomer meets it: `make help`, and `make lessons` as root and as a normal user.

`make lessons` is run twice with a fake `jupyter` (and a fake `id`, to play root or
not) that records its command line, and once for real: JupyterLab started on a
free port of 127.0.0.1, the printed URL fetched, and a solution file read through
the server. `-o .venv/.installed` keeps make from reinstalling the environment.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def make(*args, env=None, timeout=60):
    return subprocess.run([MAKE, "--no-print-directory", "-o", ".venv/.installed", *args], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=timeout)


def fake_tools(tmp_path, uid):
    """A `jupyter` that prints its arguments and an `id` that answers `uid`, first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "jupyter").write_text('#!/bin/sh\nfor a in "$@"; do echo "ARG $a"; done\n')
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return bin_dir, {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def test_make_help_lists_every_phony_target():
    declared = re.search(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    result = make("help")
    assert result.returncode == 0, result.stderr
    listed = re.findall(r"^  make (\S+)", result.stdout, re.M)
    assert sorted(listed) == sorted(declared)


@pytest.mark.parametrize("uid, allow_root", [(0, True), (1000, False)])
def test_make_lessons_serves_the_repository_on_localhost_and_opens_lesson_00(tmp_path, uid, allow_root):
    bin_dir, env = fake_tools(tmp_path, uid)
    result = make("lessons", f"JUPYTER={bin_dir / 'jupyter'}", env=env)
    assert result.returncode == 0, result.stderr
    args = re.findall(r"^ARG (.*)$", result.stdout, re.M)
    assert args[0] == "lab"
    assert ("--allow-root" in args) is allow_root
    assert "--ip=127.0.0.1" in args
    root = Path(next(a for a in args if a.startswith("--ServerApp.root_dir=")).split("=", 1)[1])
    assert root == ROOT
    lesson = next(a for a in args if a.startswith("--LabApp.default_url=")).split("=", 1)[1]
    assert lesson == "/lab/tree/notebooks/00_welcome.ipynb" and (root / lesson[len("/lab/tree/"):]).is_file()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url, patience_s=30.0):
    """GET ``url`` (status 200), retrying while the server is still binding: it prints its URL a moment before."""
    deadline = time.monotonic() + patience_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                assert reply.status == 200
                return reply.read().decode()
        except urllib.error.URLError as exc:
            if not isinstance(exc.reason, ConnectionRefusedError) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_make_lessons_for_real_prints_a_url_that_opens_lesson_00_and_reaches_the_solutions():
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists():
        pytest.skip("jupyter is not installed next to this Python")
    port = free_port()
    server = subprocess.Popen(
        [MAKE, "--no-print-directory", "-o", ".venv/.installed", "lessons", f"JUPYTER={jupyter}", f"PORT={port}",
         "LAB_FLAGS=--no-browser --ServerApp.port_retries=0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        url, deadline, seen = None, time.monotonic() + 90, []
        while url is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+/\S+\?token=\w+)", line)
            url = found.group(1) if found else None
        assert url, "no URL printed:\n" + "".join(seen)
        assert url.startswith(f"http://127.0.0.1:{port}/lab/tree/notebooks/00_welcome.ipynb?token=")
        page = fetch(url)
        assert "JupyterLab" in page
        token = url.split("token=")[1]
        solution = fetch(f"http://127.0.0.1:{port}/api/contents/aria_kit/solutions/lesson02.py?token={token}")
        assert '"name": "lesson02.py"' in solution
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the whole group: make and the JupyterLab it started
        server.wait(timeout=30)


def test_the_editable_install_of_make_setup_prints_no_setuptools_warning(tmp_path):
    # `make setup` runs `pip install -e .`; into a throwaway --target the same build runs, leaving .venv alone.
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-e", str(ROOT),
                             "--target", str(tmp_path / "site")], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    printed = result.stdout + result.stderr
    assert "*****" not in printed and "warning" not in printed.lower(), printed
    (pth,) = (tmp_path / "site").glob("__editable__*.pth")
    assert Path(pth.read_text().strip()) == ROOT  # the lessons import this checkout's aria_kit
