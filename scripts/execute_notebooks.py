"""Re-execute notebooks in place, offline, and write them so an unchanged run changes nothing (``make notebooks``).

    python scripts/execute_notebooks.py notebooks/*.ipynb app/*.ipynb

Each notebook runs top to bottom in a fresh kernel started from its own folder,
with ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL`` removed from the environment (so
the committed outputs are the offline ones) and ``ARIA_KIT_TODAY`` set to ``clock.LESSON_DAY`` (so the
dates on stored memories are the ones nbval sees under the root ``conftest.py``). Before it is written, three kinds
of noise that say nothing about the lesson are taken out:

- execution timestamps (nbclient's ``record_timing``, switched off, and any old
  ``metadata.execution`` removed);
- a stream printed in several chunks (``stdout`` then ``stdout`` again): merged
  into one output, as nbval merges them when it compares;
- widget model ids, which the kernel draws at random (``uuid4``): renamed to
  ids derived from the notebook's file name and the order in which the widgets
  are reached (displayed widgets first, in output order, then the models they
  reference), so the same widgets get the same ids on every run.

One kind of output is kept from the committed notebook instead: the picture of a
chart drawn from live timings, in a cell tagged ``live-timings``. Its pixels
change on every run and nbval never compares images, so a new picture would be
noise; it is kept only when the cell's text output is unchanged and the picture
was drawn by the same source (each picture records a hash of the source that drew
it in its output metadata, which nbval does not compare). Comparing with the file's
own source would not do: a cell edited before the run already holds the new source
beside the old picture.

``language_info`` is left as the kernel reported it, and outputs are not checked:
strict nbval does that (``pytest notebooks/NN_x.ipynb``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import nbformat
import zmq
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's aria_kit, installed or not
from aria_kit.clock import LESSON_DAY, TODAY_VARIABLE  # noqa: E402

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")
ID_NAMESPACE = uuid.UUID("5e1b7a9c-3f0d-4c8e-9a57-aa1c0de0b000")  # any fixed namespace will do
CELL_TIMEOUT_S = 600
LIVE_TIMINGS_TAG = "live-timings"
KERNEL = "python3"
# What ipykernel's own spec says, for a machine where the kernel is not installed as a spec (then nbclient falls
# back to the running Python's ipykernel, which describes itself the same way).
IPYKERNEL_DISPLAY_NAME = "Python 3 (ipykernel)"


def execute(path: Path) -> None:
    """Run ``path`` in a fresh offline kernel and write it back, normalised."""
    notebook = nbformat.read(path, as_version=4)
    committed = nbformat.read(path, as_version=4)
    for variable in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        os.environ.pop(variable, None)  # the kernel inherits this process's environment
    os.environ[TODAY_VARIABLE] = LESSON_DAY
    # Curve-encrypted kernel sockets where pyzmq has them: the kernel then has no plain-TCP warning to print.
    sockets = Config({"KernelManager": {"transport_encryption": "auto" if zmq.has("curve") else "disabled"}})
    NotebookClient(notebook, config=sockets, timeout=CELL_TIMEOUT_S, record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    normalise(notebook, path.name)
    _keep_live_timing_pictures(notebook, committed)
    nbformat.write(notebook, path)


def _text_of(outputs: list[Any]) -> list[Any]:
    return [{k: v for k, v in o.get("data", {}).items() if k.startswith("text/")} or o.get("text") for o in outputs]


def drawn_from(source: str) -> str:
    """The stamp a live-timings picture carries: a short hash of the cell source that drew it."""
    return hashlib.sha1(source.encode()).hexdigest()[:16]


def _keep_live_timing_pictures(notebook: Any, committed: Any) -> None:
    """In cells tagged ``live-timings``, keep the committed outputs when only the pictures differ."""
    for new, old in zip(notebook.cells, committed.cells):
        tagged = LIVE_TIMINGS_TAG in new.metadata.get("tags", [])
        if not tagged or new.cell_type != "code":
            continue
        stamp = drawn_from(new.source)
        stamps = {o.get("metadata", {}).get("drawn_from") for o in old.get("outputs", []) if "image/png" in o.get("data", {})}
        if stamps == {stamp} and _text_of(new.outputs) == _text_of(old.outputs):
            new.outputs = old.outputs
            continue
        for output in new.outputs:
            if "image/png" in output.get("data", {}):
                output.setdefault("metadata", {})["drawn_from"] = stamp


def installed_kernelspec(kernel: str = KERNEL) -> dict[str, str]:
    """The kernelspec JupyterLab writes into a notebook it opens with ``kernel``: name, display name, language."""
    try:
        spec = KernelSpecManager().get_kernel_spec(kernel)
        return {"display_name": spec.display_name, "language": spec.language, "name": kernel}
    except NoSuchKernel:
        return {"display_name": IPYKERNEL_DISPLAY_NAME, "language": "python", "name": kernel}


def normalise(notebook: Any, name: str) -> Any:
    """Strip timestamps, merge split streams, give widgets stable ids, write the installed kernelspec.

    Returns the same notebook.
    """
    if "kernelspec" in notebook.metadata:
        notebook.metadata.kernelspec = installed_kernelspec(notebook.metadata.kernelspec.get("name", KERNEL))
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
    renames = _stable_widget_ids(notebook, name)
    if renames:
        text = MODEL_REFERENCE.sub(lambda m: "IPY_MODEL_" + renames.get(m.group(1), m.group(1)), json.dumps(notebook))
        text = re.sub(r'"([0-9a-f]{32})"', lambda m: f'"{renames.get(m.group(1), m.group(1))}"', text)
        notebook.clear()
        notebook.update(nbformat.from_dict(json.loads(text)))
    return notebook


def _merge_streams(outputs: list[Any]) -> list[Any]:
    merged: list[Any] = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None and previous.output_type == "stream"
                and previous.name == output.name):
            previous.text = "".join(previous.text) + "".join(output.text)
        else:
            merged.append(output)
    return merged


def _stable_widget_ids(notebook: Any, name: str) -> dict[str, str]:
    """Old id → new id, numbering models in the order they are reached from the displayed widgets.

    Displayed widgets come first, in output order; then, breadth first, the models
    each one references (``IPY_MODEL_…`` in its state, read in sorted key order);
    models nothing reaches come last, ordered by their state with ids masked.
    """
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    shown = [output.data[WIDGET_VIEW]["model_id"] for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs if WIDGET_VIEW in output.get("data", {})]
    order: list[str] = []
    queue = list(shown)
    while queue:
        model = queue.pop(0)
        if model in order:
            continue
        order.append(model)
        queue += MODEL_REFERENCE.findall(json.dumps(state.get(model, {}), sort_keys=True))
    rest = [m for m in state if m not in order]
    order += sorted(rest, key=lambda m: MODEL_REFERENCE.sub("IPY_MODEL_", json.dumps(state[m], sort_keys=True)))
    return {old: uuid.uuid5(ID_NAMESPACE, f"{name}:{i}").hex for i, old in enumerate(order)}


def main(argv: list[str] | None = None) -> int:
    """Execute each notebook named on the command line; stop at the first that fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.notebooks:
        print(f"executing {path}", file=sys.stderr, flush=True)
        execute(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
