"""`make notebooks` on unchanged code changes nothing: no timestamps, no random widget ids, no split streams.

The end-to-end check runs `scripts/execute_notebooks.py` twice on copies of one
small notebook and of the two full of widgets (lesson 11 and the chat app) and
compares the files byte for byte; the rest checks the normalisation on hand-made notebooks. One more runs
`make lessons` and opens a lesson in a real JupyterLab in headless Chromium: saving it must not change a byte.
"""

import copy
import difflib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from execute_notebooks import (  # noqa: E402
    WIDGET_STATE, WIDGET_VIEW, _keep_live_timing_pictures, drawn_from, installed_kernelspec, normalise)

MAKE = shutil.which("make")


def widget_notebook(ids):
    """A notebook showing a box (ids[0]) that holds a button (ids[1]) with a layout (ids[2]), timed and split."""
    box, button, layout = ids
    state = {
        layout: {"model_name": "LayoutModel", "state": {"width": "50%"}},
        button: {"model_name": "ButtonModel", "state": {"description": "Send", "layout": f"IPY_MODEL_{layout}"}},
        box: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{button}"]}},
    }
    cell = nbformat.v4.new_code_cell("show()", execution_count=1, outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="hello "),
        nbformat.v4.new_output("stream", name="stdout", text="world\n"),
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": box}, "text/plain": "VBox()"}),
    ])
    cell.id = "cell-1"  # nbformat draws cell ids at random too; committed notebooks keep theirs
    cell.metadata["execution"] = {"iopub.status.busy": str(uuid.uuid4())}  # stands for a timestamp
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["widgets"] = {WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    return notebook


def random_ids():
    return [uuid.uuid4().hex for _ in range(3)]


def test_the_same_widgets_with_other_random_ids_normalise_to_the_same_notebook():
    first = normalise(widget_notebook(random_ids()), "x.ipynb")
    second = normalise(widget_notebook(random_ids()), "x.ipynb")
    assert nbformat.writes(first) == nbformat.writes(second)


def test_normalised_widget_references_still_point_at_their_models():
    notebook = normalise(widget_notebook(random_ids()), "x.ipynb")
    state = notebook.metadata["widgets"][WIDGET_STATE]["state"]
    box = notebook.cells[0].outputs[-1]["data"][WIDGET_VIEW]["model_id"]
    button = state[box]["state"]["children"][0].removeprefix("IPY_MODEL_")
    assert state[button]["state"]["description"] == "Send"
    assert state[state[button]["state"]["layout"].removeprefix("IPY_MODEL_")]["state"] == {"width": "50%"}


def test_timestamps_go_and_a_split_stream_becomes_one_output():
    notebook = normalise(widget_notebook(random_ids()), "x.ipynb")
    cell = notebook.cells[0]
    assert "execution" not in cell.metadata
    assert [o.output_type for o in cell.outputs] == ["stream", "display_data"]
    assert cell.outputs[0].text == "hello world\n"


def test_a_notebook_without_widgets_is_left_as_it_was_apart_from_timestamps():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", outputs=[
        nbformat.v4.new_output("execute_result", data={"text/plain": "0123456789abcdef0123456789abcdef"})])])
    before = copy.deepcopy(notebook)
    assert normalise(notebook, "y.ipynb") == before


@pytest.mark.parametrize("relative", ["notebooks/00_welcome.ipynb", "notebooks/11_chat.ipynb", "app/chat.ipynb"])
def test_executing_a_notebook_twice_writes_the_same_bytes(tmp_path, relative):
    shutil.copy(ROOT / "requirements.txt", tmp_path)  # lesson 00 reads the pins from the repository root
    target = tmp_path / relative
    target.parent.mkdir()
    shutil.copy(ROOT / relative, target)
    runs = []
    for _ in range(2):
        result = subprocess.run([sys.executable, str(ROOT / "scripts" / "execute_notebooks.py"), str(target)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        runs.append(target.read_bytes())
    assert runs[0] == runs[1]
    notebook = json.loads(runs[0])
    assert not any("execution" in cell["metadata"] for cell in notebook["cells"])


def _chart_cell(picture: str, title: str, tags: list[str], source: str = "plot_timings()") -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": tags})
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": picture, "text/plain": title},
                                           metadata={"drawn_from": drawn_from("plot_timings()")})]
    return cell


def test_a_picture_drawn_by_other_source_is_replaced_even_when_the_file_was_edited_first():
    # The committed file already holds the edited source beside the picture the old source drew.
    committed = nbformat.v4.new_notebook(cells=[_chart_cell("OLD", "<Figure>", ["live-timings"], "plot(title='new')")])
    executed = nbformat.v4.new_notebook(cells=[_chart_cell("NEW", "<Figure>", ["live-timings"], "plot(title='new')")])
    _keep_live_timing_pictures(executed, committed)
    assert executed.cells[0].outputs[0].data["image/png"] == "NEW"
    assert executed.cells[0].outputs[0].metadata["drawn_from"] == drawn_from("plot(title='new')")


@pytest.mark.parametrize(("tags", "title", "kept"), [(["live-timings"], "<Figure size 700x400 with 1 Axes>", True),
                                                      (["live-timings"], "<Figure size 900x400 with 1 Axes>", False),
                                                      ([], "<Figure size 700x400 with 1 Axes>", False)])
def test_a_live_timings_picture_is_kept_only_when_tagged_and_its_text_is_unchanged(tags, title, kept):
    committed = nbformat.v4.new_notebook(cells=[_chart_cell("OLD", "<Figure size 700x400 with 1 Axes>", tags)])
    executed = nbformat.v4.new_notebook(cells=[_chart_cell("NEW", title, tags)])
    _keep_live_timing_pictures(executed, committed)
    assert executed.cells[0].outputs[0].data["image/png"] == ("OLD" if kept else "NEW")


def test_markdown_cells_beside_a_live_timings_chart_are_left_alone():
    cells = [nbformat.v4.new_markdown_cell("# Timings"), _chart_cell("OLD", "<Figure>", ["live-timings"])]
    committed = nbformat.v4.new_notebook(cells=cells)
    executed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Timings"),
                                               _chart_cell("NEW", "<Figure>", ["live-timings"])])
    _keep_live_timing_pictures(executed, committed)
    assert executed.cells[1].outputs[0].data["image/png"] == "OLD"


def test_an_old_python_3_kernelspec_becomes_the_one_jupyterlab_writes():
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    assert normalise(notebook, "z.ipynb").metadata["kernelspec"] == {
        "display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def test_every_notebook_names_the_installed_kernel_as_jupyterlab_would_write_it():
    # JupyterLab rewrites a kernelspec that differs from the kernel it starts and marks the lesson unsaved.
    expected = installed_kernelspec()
    wrong = {str(path.relative_to(ROOT)): json.loads(path.read_text())["metadata"].get("kernelspec")
             for path in sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("app/*.ipynb")])}
    assert {name: spec for name, spec in wrong.items() if spec != expected} == {}, \
        f"run `make notebooks`: the normaliser writes {expected}"


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def test_opening_a_lesson_in_jupyterlab_and_saving_it_changes_no_byte(tmp_path):
    """`make lessons`, a real JupyterLab, a headless browser: open a lesson, let the kernel start, save, compare.

    The copy is normalised as `make notebooks` writes it; lesson 11 carries widget state. It also checks what a
    newcomer sees first: the lesson is not marked unsaved, no news pop-up, and a quiet terminal.
    """
    if not CHROMIUM.exists() or MAKE is None:
        pytest.skip(f"needs make and {CHROMIUM} (`make browser` installs it as root)")
    from playwright.sync_api import sync_playwright

    lesson = tmp_path / "notebooks" / "11_chat.ipynb"
    lesson.parent.mkdir()
    notebook = nbformat.read(ROOT / "notebooks" / lesson.name, as_version=4)
    nbformat.write(normalise(notebook, lesson.name), lesson)
    before = lesson.read_bytes()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp_path / "lab.log"
    server = subprocess.Popen([MAKE, "--no-print-directory", "-o", ".venv/.installed", "lessons", f"PORT={port}",
                               f"LAB_ROOT={tmp_path}", "LAB_FLAGS=--no-browser --ServerApp.port_retries=0",
                               f"JUPYTER={Path(sys.executable).parent / 'jupyter'}"],
                              cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
                              env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")})
    try:
        deadline = time.monotonic() + 60
        while not re.search(r"token=\w+", log.read_text()) and time.monotonic() < deadline:
            assert server.poll() is None, log.read_text()
            time.sleep(0.2)
        token = re.search(r"token=(\w+)", log.read_text()).group(1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/lab/tree/notebooks/{lesson.name}?token={token}")
            page.get_by_text("Kernel status: Idle").first.wait_for(state="attached", timeout=90_000)
            page.wait_for_timeout(1500)  # the moment JupyterLab would mark a changed kernelspec unsaved
            assert page.locator(".jp-mod-dirty").count() == 0, "the lesson opened marked unsaved"
            toasts = page.locator(".Toastify__toast").all_inner_texts()
            assert not any("news" in toast for toast in toasts), toasts
            saved_at = lesson.stat().st_mtime_ns
            dialogs = page.locator(".jp-Dialog").all_inner_texts()
            assert dialogs == [], dialogs
            page.keyboard.press("Control+s")  # what autosave does, two minutes sooner
            deadline = time.monotonic() + 20
            while lesson.stat().st_mtime_ns == saved_at and time.monotonic() < deadline:
                time.sleep(0.1)
            browser.close()
        assert lesson.stat().st_mtime_ns != saved_at, "JupyterLab did not save the lesson"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
    assert lesson.read_bytes() == before, "saving in JupyterLab changed the lesson: " + "\n".join(
        difflib.unified_diff(before.decode().splitlines(), lesson.read_text().splitlines(), lineterm="", n=1))
    noise = [line for line in log.read_text().splitlines()
             if re.search(r"Warning|WARNING|\[W |Skipped non-installed|extension was successfully", line)]
    assert noise == [], "the terminal shows noise on start:\n" + "\n".join(noise)
