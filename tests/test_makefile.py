"""The Makefile as a newcomer meets it: `make help`, and `make lessons` as root and as a normal user.

`make lessons` is run twice with a fake `jupyter` (and a fake `id`, to play root or
not) that records its command line, and once for real: JupyterLab started on a
free port of 127.0.0.1, the printed URL fetched, and a solution file read through
the server. `-o .venv/.installed` keeps make from reinstalling the environment.
"""

import json
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
LAB_CONFIG = ROOT / "binder" / "jupyter-config" / "jupyter_server_config.json"
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
    # The project's own workspace (open tabs), not JupyterLab's shared default in ~/.jupyter/lab/workspaces.
    workspaces = Path(next(a for a in args if a.startswith("--LabApp.workspaces_dir=")).split("=", 1)[1])
    assert workspaces == ROOT / ".jupyter" / "workspaces"
    assert subprocess.run(["git", "check-ignore", "-q", str(workspaces / "x.json")], cwd=ROOT).returncode == 0


def test_lab_config_keeps_the_websocket_ping_timeout_longer_than_the_ping_interval():
    # Jupyter closes a kernel's websocket when the last pong is older than the timeout at the next ping; pings come
    # every interval, so a timeout equal to the interval dropped an idle notebook's connection every 30 s.
    from jupyter_server.base.websocket import WebSocketMixin

    settings = json.loads(LAB_CONFIG.read_text())["ServerApp"].get("tornado_settings", {})
    handler = type("Handler", (WebSocketMixin,), {"settings": settings})()
    assert handler.ping_interval == 0 or handler.ping_timeout >= 2 * handler.ping_interval, (
        handler.ping_interval, handler.ping_timeout)


def test_lab_config_culls_idle_kernels_of_closed_tabs_after_the_time_the_readme_gives():
    culling = json.loads(LAB_CONFIG.read_text())["MappingKernelManager"]
    assert culling["cull_connected"] is False and culling["cull_busy"] is False  # an open tab's kernel is kept
    minutes = culling["cull_idle_timeout"] / 60
    assert minutes == int(minutes) and 5 <= minutes <= 60, minutes
    assert 0 < culling["cull_interval"] <= culling["cull_idle_timeout"] / 10
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"idle for {int(minutes)} minutes with no tab open" in readme


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
        open_kernel_websocket(port, token)  # tornado's one-time ping warning was printed when the first one opened
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the whole group: make and the JupyterLab it started
        rest, _ = server.communicate(timeout=30)
    printed = "".join(seen) + rest
    warnings = [line for line in printed.splitlines() if re.match(r"\[W ", line) or "websocket_ping" in line]
    assert warnings == [], "make lessons prints warnings a newcomer cannot act on:\n" + printed


def open_kernel_websocket(port, token):
    """Start a kernel through the REST API, connect to its channels as a browser tab does, and close both."""
    import asyncio

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    base, auth = f"http://127.0.0.1:{port}/api/kernels", {"Authorization": f"token {token}"}
    request = urllib.request.Request(base, data=b"{}", method="POST", headers=auth)
    with urllib.request.urlopen(request, timeout=60) as reply:
        kernel = json.loads(reply.read())["id"]

    async def connect():
        socket_ = await websocket_connect(HTTPRequest(f"ws://127.0.0.1:{port}/api/kernels/{kernel}/channels?session_id=test",
                                                      headers=auth))
        await asyncio.sleep(1)
        socket_.close()

    asyncio.run(connect())
    urllib.request.urlopen(urllib.request.Request(f"{base}/{kernel}", method="DELETE", headers=auth), timeout=60)


def test_the_editable_install_of_make_setup_prints_no_setuptools_warning(tmp_path):
    # `make setup` runs `pip install -e .`; into a throwaway --target the same build runs, leaving .venv alone.
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-e", str(ROOT),
                             "--target", str(tmp_path / "site")], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    printed = result.stdout + result.stderr
    assert "*****" not in printed and "warning" not in printed.lower(), printed
    (pth,) = (tmp_path / "site").glob("__editable__*.pth")
    assert Path(pth.read_text().strip()) == ROOT  # the lessons import this checkout's aria_kit


def load_save_hook():
    """The pre-save hook binder/jupyter-config/jupyter_server_config.py gives the server (`c` is Jupyter's config)."""
    from traitlets.config import Config

    config = Config()
    path = LAB_CONFIG.with_suffix(".py")
    exec(compile(path.read_text(), str(path), "exec"), {"c": config, "__file__": str(path)})
    return config.ContentsManager.pre_save_hook


def test_saving_a_lesson_in_the_lab_gives_its_widgets_the_ids_make_notebooks_wrote():
    import copy
    import uuid

    import nbformat

    committed = nbformat.read(ROOT / "notebooks" / "11_chat.ipynb", as_version=4)
    ran = copy.deepcopy(committed)  # what JupyterLab sends after Run All: new random ids, the state read from disk
    for cell in ran.cells:
        for output in cell.get("outputs", []):
            if "application/vnd.jupyter.widget-view+json" in output.get("data", {}):
                output.data["application/vnd.jupyter.widget-view+json"]["model_id"] = uuid.uuid4().hex
    model = {"type": "notebook", "content": json.loads(json.dumps(ran))}
    load_save_hook()(model=model, path="notebooks/11_chat.ipynb", contents_manager=None)
    assert nbformat.writes(nbformat.from_dict(model["content"])) == nbformat.writes(committed)
    opened = {"type": "notebook", "content": json.loads(json.dumps(committed))}  # opened and saved, nothing run
    load_save_hook()(model=opened, path="notebooks/11_chat.ipynb", contents_manager=None)
    assert nbformat.writes(nbformat.from_dict(opened["content"])) == nbformat.writes(committed)
    text = {"type": "file", "content": "uuid 0123456789abcdef0123456789abcdef", "format": "text"}
    load_save_hook()(model=text, path="notes.txt", contents_manager=None)
    assert text["content"] == "uuid 0123456789abcdef0123456789abcdef"
