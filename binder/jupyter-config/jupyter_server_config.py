"""`make lessons`: JupyterLab's Save writes a notebook the way `make notebooks` does, so a lesson you only ran stays
unchanged in `git status`.

Running a cell that shows a widget puts the widget's model id in the cell's output, and the kernel draws that id at
random; a Save (or autosave) then rewrites the lesson although nothing in it changed. This hook, run by the server
before every notebook save, applies scripts/execute_notebooks.py's ``normalise`` (stable widget ids, no execution
timestamps, one output per stream, the installed kernelspec). What a learner typed or ran is kept as it is.

Widget state itself is not saved (labconfig/default_setting_overrides.json sets the widgets manager's ``saveState``
to false), so the ``widgets`` metadata is the one read from disk; it is set aside while the outputs' ids are
renamed, and put back unchanged. The settings in jupyter_server_config.json, next to this file, load as well.
"""

import importlib.util
import sys
import uuid
import warnings
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
HOOK_MODULE = "aria_kit_lab_save_hook"  # Jupyter reads this file more than once: one module, one hook, no warning


def _load_normaliser():
    spec = importlib.util.spec_from_file_location(
        "aria_execute_notebooks", Path(__file__).resolve().parents[2] / "scripts" / "execute_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shown_ids(notebook):
    return {output["data"][WIDGET_VIEW]["model_id"] for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})}


def normalise_before_save(model, path, contents_manager, **kwargs):
    """Normalise a notebook about to be saved; other files pass untouched."""
    if model.get("type") != "notebook" or not model.get("content"):
        return
    import nbformat

    normaliser = sys.modules[HOOK_MODULE].normaliser
    notebook = nbformat.from_dict(model["content"])
    state = notebook.metadata.get("widgets", {}).get(normaliser.WIDGET_STATE, {}).get("state", {})
    # Live widgets saved their state (saveState switched on by hand) when a kernel's random (version 4) id is in it:
    # then normalise it all. Otherwise the state is the one read from disk: kept byte for byte, while the outputs'
    # ids are renamed (ids already stable map to themselves, so a lesson only opened and saved is left as it was).
    live = any(uuid.UUID(model_id).version == 4 for model_id in _shown_ids(notebook) & set(state))
    kept = None if live else notebook.metadata.pop("widgets", None)
    normaliser.normalise(notebook, Path(path).name)
    if kept is not None:
        notebook.metadata["widgets"] = kept
    model["content"] = notebook


if HOOK_MODULE not in sys.modules:
    hook = type(sys)(HOOK_MODULE)
    hook.normaliser, hook.normalise_before_save = _load_normaliser(), normalise_before_save
    sys.modules[HOOK_MODULE] = hook
c.ContentsManager.pre_save_hook = sys.modules[HOOK_MODULE].normalise_before_save  # noqa: F821 (Jupyter's config)
# The server applies its config twice and warns that the hook replaced itself: true, and nothing to act on.
warnings.filterwarnings("ignore", r"Overriding existing pre_save_hook \(normalise_before_save\)", UserWarning)
