"""The chat web app and the lessons in a real browser: Voilà (`make app`) and JupyterLab (`make lessons`).

This is the one test that proves the widget works where people use it: the
page loads, Enter and the Send button send, the reply and the memory panel
update, the tool view opens, and markup typed by a person is shown as text and
runs nothing. It runs `make app` offline (OPENAI_* removed from its environment), and fails on any console error, failed
request or request that leaves 127.0.0.1 (Voilà's default page fetches Font Awesome from a public CDN).

The second test runs `make lessons` on a git repository of its own holding a copy of the lessons: lesson 00's
offline notice fits on one line; lessons 04 and 11 are Run All'ed and saved, lesson 04's slider moved (its track
wide enough to drag) and the learner's first message typed into lesson 11's chat, and after each save
`git status` of the lesson must be empty, and the terminal quiet.

It needs Debian's Chromium at /usr/bin/chromium (`make browser` installs it as
root). Without it the test skips on a learner's machine and fails where
CI=true, so CI can never pass without having run it. A screenshot of the chat
is saved to artifacts/chat.png after every run.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOT = ROOT / "artifacts" / "chat.png"
STARTUP_TIMEOUT = 120  # seconds for Voilà to listen and the kernel to render the widget (a cold CI machine)
REPLY_TIMEOUT_MS = 30_000
LOCAL_HOSTS = {"127.0.0.1", "localhost", None}  # None: data: and blob: URLs


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    how = "run `make browser` as root, or `sudo apt-get install chromium`"
    if _in_ci():
        pytest.fail(f"CI=true but {CHROMIUM} is missing, and CI must run the browser test: {how}.")
    pytest.skip(f"No {CHROMIUM}, so the browser chat test is skipped. To enable it, {how}.")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"Voilà exited with code {process.returncode}. Its log:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"Voilà did not listen on 127.0.0.1:{port} within {STARTUP_TIMEOUT} s. Its log:\n"
                         f"{log.read_text()}")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM to the server's process group (Voilà and JupyterLab shut their kernels down on it), SIGKILL after 15 s."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture
def voila_url(tmp_path: Path) -> Iterator[str]:
    """`make app` (Voilà on app/chat.ipynb) on a free local port, offline; stopped (with its kernels) afterwards."""
    _require_chromium()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    log = tmp_path / "voila.log"
    flags = f"--no-browser --port={port} --Voila.port_retries=0 --show_tracebacks=True"
    with log.open("w") as out:
        # The learner's command, so its template and config are what the browser meets; a session of its own,
        # so the whole group (make, Voilà) can be stopped together.
        process = subprocess.Popen(
            ["make", "--no-print-directory", "-o", ".venv/.installed", "app", f"BIN={Path(sys.executable).parent}",
             f"VOILA_FLAGS={flags}"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        _wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}/"
        running = log.read_text()  # what a newcomer sees in the terminal, up to the end of the chat
    finally:
        _stop(process)
        print(log.read_text())
    noise = [line for line in running.splitlines() if "WARNING" in line or "Warning" in line]
    assert noise == [], "make app prints warnings a newcomer cannot act on:\n" + "\n".join(noise)


@pytest.fixture
def page(voila_url: str):
    """A headless Chromium page on the chat app.

    Every JavaScript dialog is recorded in ``page.dialogs``; every console error, failed request and request that
    leaves 127.0.0.1 in ``page.problems``.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 820})
            page.dialogs, page.problems = [], []
            page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
            page.on("console", lambda message: message.type == "error"
                    and page.problems.append(f"console error: {message.text}"))
            page.on("requestfailed", lambda request: page.problems.append(f"failed request: {request.url}"))
            page.on("request", lambda request: urlsplit(request.url).hostname not in LOCAL_HOSTS
                    and page.problems.append(f"request off this machine: {request.url}"))
            page.goto(voila_url, timeout=STARTUP_TIMEOUT * 1000)
            page.locator(".aria-input input").wait_for(timeout=STARTUP_TIMEOUT * 1000)
            yield page
        finally:
            browser.close()


def _wait_for_answer(page, number: int) -> str:
    """Wait until the ``number``-th answer (1-based) is shown and the input is enabled again; return it."""
    from playwright.sync_api import expect

    answer = page.locator(".aria-assistant").nth(number - 1)
    answer.wait_for(timeout=REPLY_TIMEOUT_MS)
    expect(page.locator(".aria-input input")).to_be_enabled(timeout=REPLY_TIMEOUT_MS)
    return answer.inner_text()


def test_chat_in_browser_remembers_a_fact_answers_from_it_and_shows_markup_as_text(page):
    from playwright.sync_api import expect

    started = time.perf_counter()
    box = page.locator(".aria-input input")
    memory_panel = page.locator(".aria-memory-panel")
    expect(page.locator(".aria-model-line")).to_contain_text("offline")
    # A web user cannot set a variable or rebuild an agent: the line says what they can do and who sets the key.
    expect(page.locator(".aria-model-line")).not_to_contain_text("rebuild")
    expect(page.locator(".aria-model-line")).to_contain_text("whoever runs this app")
    expect(memory_panel).to_contain_text("Alice's favourite programming language is Rust.")  # the seeded facts

    # 1. Enter sends; the agent stores the fact and the panel lists the new memory.
    box.fill("Please remember that my favourite editor is Vim")
    box.press("Enter")
    _wait_for_answer(page, 1)
    new_row = memory_panel.locator(".aria-memory-new")
    expect(new_row).to_contain_text("My favourite editor is Vim.")
    expect(new_row).to_contain_text("user_pref")
    expect(new_row).to_contain_text("mem_0008")
    assert box.input_value() == "", "the box should be emptied after sending"
    expect(box).to_be_focused()  # ready for the next message without a click

    # 2. The Send button sends; the reply names Vim.
    box.fill("What is my favourite editor?")
    page.locator(".aria-send").click()
    reply = _wait_for_answer(page, 2)
    assert "Vim" in reply, f"the reply should name Vim, got: {reply!r}"
    assert page.locator(".aria-user").count() == 2, "each message should be sent exactly once"

    # 3. The collapsed tool view of the first turn opens and shows the store call and its result.
    first_tools = page.locator(".aria-tools details").first
    first_tools.locator("summary").click()
    expect(first_tools).to_contain_text("memory_store")
    expect(first_tools).to_contain_text("Stored as mem_0008")

    # 4. Markup a person types is shown as text and runs nothing.
    payload = "<img src=x onerror=alert(1)>"
    box.fill(payload)
    box.press("Enter")
    _wait_for_answer(page, 3)
    page.wait_for_timeout(300)  # an injected image would fail to load and fire onerror within this time
    assert page.dialogs == [], f"a dialog opened: {page.dialogs}"
    assert page.locator(".aria-chat img, .aria-chat script").count() == 0, "user text became HTML elements"
    expect(page.locator(".aria-user").nth(2)).to_contain_text(payload)
    # Offline nothing may be fetched from elsewhere (Voilà's default page asks a CDN for Font Awesome).
    assert page.problems == [], "\n".join(page.problems)
    print(f"\nbrowser round trips (3 messages) took {time.perf_counter() - started:.1f} s")

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.locator(".aria-chat").screenshot(path=str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000  # docs/chat.png is a copy of a good one, refreshed by hand


# ---------------------------------------------------------------- the lessons in JupyterLab, as `make lessons` serves them

LESSONS = ("04_hybrid_search.ipynb", "11_chat.ipynb")
RUN_ALL_TIMEOUT_MS = 120_000


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`make lessons` on a free port, serving a git repository of its own that holds a copy of the lessons.

    Yields the lab's URL (with its token) and that repository. The browser can then run and save the lessons
    without touching this checkout, and `git status` there says whether a save changed a byte.
    """
    _require_chromium()
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "notebooks", repo / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(ROOT / "requirements.txt", repo)  # lesson 00 reads the pins one folder above the lessons
    git = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "lessons as committed"]):
        subprocess.run(["git", *command], cwd=repo, env=git, check=True)
    port = _free_port()
    log = tmp_path / "lab.log"
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    # expose_app_in_browser lets the test call JupyterLab's own commands (run all, save) and await them.
    flags = "--no-browser --ServerApp.port_retries=0 --LabApp.expose_app_in_browser=True"
    with log.open("w") as out:
        process = subprocess.Popen(
            ["make", "--no-print-directory", "-o", ".venv/.installed", "lessons", f"PORT={port}", f"LAB_ROOT={repo}",
             f"JUPYTER={Path(sys.executable).parent / 'jupyter'}", f"LAB_FLAGS={flags}"],
            cwd=ROOT, env={**env, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for_port(port, process, log)
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not re.search(r"token=\w+", log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        token = re.search(r"token=(\w+)", log.read_text()).group(1)
        yield f"http://127.0.0.1:{port}/lab/tree/notebooks/{{lesson}}?token={token}", repo
        running = log.read_text()
    finally:
        _stop(process)
        print(log.read_text())
    noise = [line for line in running.splitlines() if re.match(r"\[[WE] ", line) or "Warning" in line]
    assert noise == [], "make lessons prints warnings a newcomer cannot act on:\n" + "\n".join(noise)


def _open_lesson(page, url: str, lesson: str) -> None:
    """Open ``lesson`` and wait until its kernel is ready."""
    page.goto(url.format(lesson=lesson), timeout=STARTUP_TIMEOUT * 1000)
    page.wait_for_function(f"() => window.jupyterapp?.shell.currentWidget?.context?.path === 'notebooks/{lesson}'",
                           timeout=STARTUP_TIMEOUT * 1000)
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.ready")
    # Connected, not only started: leaving a page while its kernel's websocket is half open makes the server log
    # an uncaught exception (jupyter_server's, not the lesson's), which the quiet-terminal check would report.
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel"
                           "?.connectionStatus === 'connected'", timeout=STARTUP_TIMEOUT * 1000)


def _run_all_and_save(page) -> list[int | None]:
    """Run All, as the Run menu does, wait for the last cell, Save; return the code cells' execution counts."""
    return page.evaluate("""async () => {
        const app = window.jupyterapp, panel = app.shell.currentWidget;
        await app.commands.execute('notebook:run-all-cells');
        await panel.context.save();
        const cells = Array.from({length: panel.model.cells.length}, (_, i) => panel.model.cells.get(i));
        return cells.filter(c => c.type === 'code').map(c => c.executionCount);
    }""")


def _save(page) -> None:
    page.evaluate("() => window.jupyterapp.shell.currentWidget.context.save()")


def _changed(repo: Path, lesson: str) -> str:
    status = subprocess.run(["git", "status", "--porcelain", f"notebooks/{lesson}"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    diff = subprocess.run(["git", "diff", "--stat", "--", f"notebooks/{lesson}"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout if status else ""
    return status + diff


def test_running_lessons_04_and_11_in_jupyterlab_and_saving_leaves_git_status_clean(lab):
    from playwright.sync_api import expect, sync_playwright

    url, repo = lab
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # Lesson 00 as committed: the offline notice fits on one line (JupyterLab breaks words that overflow).
            _open_lesson(page, url, "00_welcome.ipynb")
            notice = page.locator(".jp-OutputArea-output pre", has_text="No OPENAI_API_KEY set").first
            notice.scroll_into_view_if_needed()
            lines = notice.evaluate("pre => { const r = document.createRange(); r.selectNodeContents(pre);"
                                    " const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));"
                                    " return tops.size; }")
            assert lines == 2, f"lesson 00's notice and the line after it take {lines} lines, not 2"
            # Lesson 04: Run All, Save; then drag the slider to k = 1 (the chart redraws), Save again.
            _open_lesson(page, url, LESSONS[0])
            counts = _run_all_and_save(page)
            assert counts == list(range(1, len(counts) + 1)), f"Run All did not run every cell in order: {counts}"
            assert _changed(repo, LESSONS[0]) == "", "Run All + Save changed lesson 04"
            track = page.locator(".widget-slider .slider-container").first
            track.scroll_into_view_if_needed()
            width = track.bounding_box()["width"]
            assert width >= 400, f"the RRF k slider's track is {width:.0f} px: a small drag jumps too far"
            chart = page.locator(".widget-output img").first
            before = chart.get_attribute("src")
            page.locator(".widget-slider .noUi-handle").first.focus()
            page.keyboard.press("Home")  # k = 1, as a drag to the far left would
            expect(page.locator(".widget-slider .widget-readout").first).to_have_text("1")
            page.wait_for_function("src => { const i = document.querySelector('.widget-output img');"
                                   " return i && i.src !== src; }", arg=before, timeout=REPLY_TIMEOUT_MS)
            _save(page)
            assert _changed(repo, LESSONS[0]) == "", "moving the slider and saving changed lesson 04"

            # Lesson 11: Run All, Save; then the learner's first natural message, typed in the widget.
            _open_lesson(page, url, LESSONS[1])
            counts = _run_all_and_save(page)
            assert counts == list(range(1, len(counts) + 1)), f"Run All did not run every cell in order: {counts}"
            assert _changed(repo, LESSONS[1]) == "", "Run All + Save changed lesson 11"
            chat = page.locator(".aria-chat").first
            answers = chat.locator(".aria-assistant")
            before = answers.count()
            box = chat.locator(".aria-input input")
            box.scroll_into_view_if_needed()
            box.fill("Remember that my favourite editor is Helix")
            box.press("Enter")
            expect(answers).to_have_count(before + 1, timeout=REPLY_TIMEOUT_MS)
            answer = answers.last.inner_text()
            assert answer.startswith("Aria: Noted. Stored as"), f"the learner's first try was not new: {answer!r}"
            new_row = chat.locator(".aria-memory-new").first
            expect(new_row).to_contain_text("My favourite editor is Helix.")
            badge, memory_id = new_row.locator("td").first.locator("b"), new_row.locator("td code").first
            assert abs(badge.bounding_box()["y"] - memory_id.bounding_box()["y"]) < 4, "the 'new' badge wrapped"
            _save(page)
            assert _changed(repo, LESSONS[1]) == "", "chatting in the widget and saving changed lesson 11"
        finally:
            browser.close()
    print(f"\nRun All + Save of lessons 04 and 11, a slider move and a chat turn took "
          f"{time.perf_counter() - started:.1f} s")
