"""`make lessons`: JupyterLab's Save writes a notebook the way `make notebooks` does, so a lesson you only ran stays
unchanged in `git status`.

Running a cell that shows a widget puts the widget's model id in the cell's output, and the kernel draws that id at
random; a Save (or autosave) then rewrites the lesson although nothing in it changed. This hook, run by the server
before every notebook save, applies scripts/execute_notebooks.py's ``normalise`` (stable widget ids, no execution
timestamps, one output per stream, the installed kernelspec). What a learner typed or ran is kept as it is.

Widget state itself is not saved (labconfig/default_setting_overrides.json sets the widgets manager's ``saveState``
to false), so the ``widgets`` metadata on disk is the committed one; it is set aside while the outputs' ids are
renamed, and put back unchanged. The settings in jupyter_server_config.json, next to this file, load as well.
"""

import importlib.util
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_spec = importlib.util.spec_from_file_location(
    "aria_execute_notebooks", Path(__file__).resolve().parents[2] / "scripts" / "execute_notebooks.py")
_execute_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_execute_notebooks)


def _shown_ids(notebook):
    return {output["data"][WIDGET_VIEW]["model_id"] for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})}


def normalise_before_save(model, path, contents_manager, **kwargs):
    """Normalise a notebook about to be saved; other files pass untouched."""
    if model.get("type") != "notebook" or not model.get("content"):
        return
    import nbformat

    notebook = nbformat.from_dict(model["content"])
    state = notebook.metadata.get("widgets", {}).get(_execute_notebooks.WIDGET_STATE, {}).get("state", {})
    stale = _shown_ids(notebook).isdisjoint(state)  # state loaded from disk, not the live widgets: keep it as is
    kept = notebook.metadata.pop("widgets", None) if stale else None
    _execute_notebooks.normalise(notebook, Path(path).name)
    if kept is not None:
        notebook.metadata["widgets"] = kept
    model["content"] = notebook


c.ContentsManager.pre_save_hook = normalise_before_save  # noqa: F821 (`c` is the config object Jupyter passes in)
