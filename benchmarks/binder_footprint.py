"""Binder's footprint: the installed size of the Binder environment and the memory the lessons take.

    python benchmarks/binder_footprint.py          # builds a fresh environment (about a minute with pip's cache)

It first does what repo2docker does for this repository, as closely as a machine without Docker
allows (``tests/test_binder_env.py`` reuses these steps):

1. copy the files a clone would have (``git ls-files``) to a temporary folder — repo2docker
   builds from a clone, so uncommitted-but-ignored files (``.venv``, caches) must not help;
2. create a fresh virtual environment on this Python and ``pip install -r binder/requirements.txt``,
   exactly that and nothing else (pip's cache and the registries are used, as on Binder);
3. run ``binder/postBuild`` from the copy's root with that environment first on ``PATH``.

Then it measures:

- installed size: every file in the environment, in apparent bytes (what an image layer
  carries), MB = 10⁶ bytes, and the largest distributions;
- peak memory: every lesson (``notebooks/*.ipynb``, then ``app/*.ipynb``) run top to bottom, one
  after another, in ONE kernel — a learner who never restarts it — offline (``OPENAI_*`` removed);
  the kernel's peak resident memory after each lesson;
- the idle peak of a Jupyter server started from the same environment, for scale: on Binder the
  server (JupyterHub's single-user server with JupyterLab) shares the session's memory.

What it does not measure: repo2docker's base image (Ubuntu, its own Python, JupyterLab,
Node.js), which every Binder image carries whatever the repository; a real mybinder.org launch.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class BinderBuildError(RuntimeError):
    """A step of the repo2docker-like build failed; the message holds the step and its output."""


def _run(step: str, cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-4000:]
        raise BinderBuildError(f"{step} failed (exit {result.returncode}): {' '.join(map(str, cmd))}\n{tail}")
    return result


def copy_repository(root: Path, dest: Path) -> Path:
    """Copy the files a fresh clone of ``root`` would hold (tracked, plus new files not ignored) to ``dest``.

    Uses ``git ls-files`` so the copy matches what mybinder.org fetches once the work is committed;
    ignored files (the project's ``.venv``, caches, build output) are left behind. Returns ``dest``.
    """
    listed = _run("listing the repository's files", ["git", "-C", str(root), "ls-files", "-z", "--cached",
                                                    "--others", "--exclude-standard"])
    for name in filter(None, listed.stdout.split("\0")):
        source = root / name
        if source.is_file():  # a tracked file deleted in the work tree is not copied
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def environment_for(venv: Path, home: Path | None = None) -> dict[str, str]:
    """The environment variables of a Binder session using ``venv``: its ``bin`` first, no ``OPENAI_*``.

    With ``home``, Jupyter, IPython and Matplotlib get fresh per-user folders there, as a new
    Binder user has, so nothing configured on this machine (kernelspecs, caches) can help.
    """
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OPENAI_") and k not in ("PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    if home is not None:
        for var, sub in [("HOME", ""), ("JUPYTER_CONFIG_DIR", ".jupyter"), ("JUPYTER_DATA_DIR", ".local/share/jupyter"),
                         ("JUPYTER_RUNTIME_DIR", ".local/share/jupyter/runtime"), ("IPYTHONDIR", ".ipython"),
                         ("MPLCONFIGDIR", ".config/matplotlib"), ("XDG_CACHE_HOME", ".cache")]:
            env[var] = str(home / sub)
            (home / sub).mkdir(parents=True, exist_ok=True)
    return env


def build_binder_env(repo: Path, venv: Path) -> Path:
    """Create ``venv`` as repo2docker would: ``pip install -r binder/requirements.txt``, then ``binder/postBuild``.

    Uses this interpreter (``sys.executable``; ``binder/runtime.txt`` should name the same
    version). postBuild runs from ``repo``'s root, as repo2docker runs it. Raises
    ``BinderBuildError`` naming the failed step. Returns ``venv``.
    """
    _run("creating the virtual environment", [sys.executable, "-m", "venv", str(venv)])
    env = environment_for(venv)
    _run("pip install -r binder/requirements.txt",
         [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
         cwd=repo, env=env)
    _run("binder/postBuild", ["./binder/postBuild"], cwd=repo, env=env)
    return venv


def installed_size(venv: Path) -> int:
    """Apparent size in bytes of every file under ``venv`` (symlinks counted as links, hard links once)."""
    seen, total = set(), 0
    for folder, _, files in os.walk(venv):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def distribution_sizes(venv: Path) -> dict[str, int]:
    """Installed bytes of each distribution in ``venv`` by normalised name, from the RECORD files pip wrote."""
    script = ("import importlib.metadata as md, json, os, re\n"
              "sizes = {re.sub(r'[-_.]+', '-', d.metadata['Name']).lower():\n"
              "         sum(os.path.getsize(f.locate()) for f in (d.files or [])\n"
              "          if os.path.isfile(f.locate())) for d in md.distributions()}\n"
              "print(json.dumps(sizes))")
    result = _run("measuring distributions", [str(venv / "bin" / "python"), "-c", script])
    return json.loads(result.stdout)


def lesson_notebooks(repo: Path) -> list[Path]:
    """Every lesson in ``repo``: ``notebooks/*.ipynb`` in lesson order, then ``app/*.ipynb``."""
    return sorted((repo / "notebooks").glob("*.ipynb")) + sorted((repo / "app").glob("*.ipynb"))


def run_lessons_in_one_kernel(venv: Path, notebooks: list[Path], home: Path) -> list[tuple[str, int]]:
    """Run every code cell of ``notebooks`` in order in one kernel of ``venv``; return the peak RSS after each.

    Each lesson runs in its own folder (``os.chdir``), as Jupyter would start it; the kernel is
    never restarted, so the peaks are cumulative. Raises ``RuntimeError`` naming the lesson and
    cell if a cell fails (cells tagged ``raises-exception`` may fail).
    """
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager

    spec_dir = home / "kernelspecs" / "binder"
    spec_dir.mkdir(parents=True, exist_ok=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [str(venv / "bin" / "python"), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Binder environment", "language": "python"}))
    km = KernelManager(kernel_name="binder", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec_dir.parent)]))
    # The kernel's own log (e.g. ipykernel's warning about unencrypted TCP) goes to a file, not the table.
    km.start_kernel(env=environment_for(venv, home), cwd=str(home), stderr=(home / "kernel.log").open("w"))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        peaks = []
        for nb in notebooks:
            cells = json.loads(nb.read_text())["cells"]
            _execute(kc, f"import os; os.chdir({str(nb.parent)!r})", f"{nb.name} (chdir)")
            for i, cell in enumerate(cells):
                if cell["cell_type"] == "code":
                    source = "".join(cell["source"])
                    may_fail = "raises-exception" in cell.get("metadata", {}).get("tags", [])
                    _execute(kc, source, f"{nb.name}, cell {i}", may_fail=may_fail)
            out = _execute(kc, "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)", "peak")
            peaks.append((nb.name, int(out.strip().splitlines()[-1]) * 1024))  # ru_maxrss is in KiB on Linux
        return peaks
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _execute(kc, source: str, where: str, may_fail: bool = False) -> str:
    printed: list[str] = []

    def keep_stdout(msg: dict) -> None:
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            printed.append(msg["content"]["text"])

    reply = kc.execute_interactive(source, timeout=600, output_hook=keep_stdout, allow_stdin=False)
    content = reply["content"]
    if content["status"] != "ok" and not may_fail:
        raise RuntimeError(f"{where} failed: {content.get('ename')}: {content.get('evalue')}")
    return "".join(printed)


def idle_server_peak(venv: Path, home: Path) -> int:
    """Start ``jupyter server`` from ``venv`` on 127.0.0.1, wait until it answers, return its peak RSS in bytes."""
    token = "binder-footprint"
    with socket.socket() as probe:  # a free port; the tiny race until the server binds it is acceptable here
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = home / "jupyter-server.log"
    # --allow-root only matters where this runs as root (CI, containers); Binder's user is not root.
    server = subprocess.Popen([str(venv / "bin" / "jupyter-server"), "--no-browser", "--allow-root", "--ip=127.0.0.1",
                               f"--port={port}", "--port-retries=0", f"--IdentityProvider.token={token}"],
                              env=environment_for(venv, home), cwd=str(home),
                              stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter server did not answer on 127.0.0.1:{port} (exit {server.poll()}):\n"
                                       + log.read_text()[-2000:])
                time.sleep(0.3)
        status = Path(f"/proc/{server.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) * 1024
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="binder-footprint-") as tmp:
        tmp = Path(tmp)
        repo = copy_repository(ROOT, tmp / "repo")
        started = time.perf_counter()
        venv = build_binder_env(repo, tmp / "venv")
        build_s = time.perf_counter() - started
        size, dists = installed_size(venv), distribution_sizes(venv)
        notebooks = lesson_notebooks(repo)
        started = time.perf_counter()
        peaks = run_lessons_in_one_kernel(venv, notebooks, tmp / "home")
        lessons_s = time.perf_counter() - started
        server = idle_server_peak(venv, tmp / "home")

    mb = 1e6
    largest = sorted(dists.items(), key=lambda kv: -kv[1])[:8]
    print(f"Binder footprint — Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print(f"| measure | value | target |\n| --- | ---: | ---: |")
    print(f"| installed size of the Binder environment | {size / mb:.0f} MB | < 500 MB |")
    print(f"| kernel peak RSS, all {len(peaks)} lessons in one kernel | {peaks[-1][1] / mb:.0f} MB | < 1,000 MB |"
          if peaks else "| kernel peak RSS | no lessons found | < 1,000 MB |")
    print(f"| Jupyter server (same environment) idle peak RSS | {server / mb:.0f} MB | |")
    print(f"| build: venv + pip install + postBuild | {build_s:.0f} s | |")
    print(f"| all lessons in one kernel | {lessons_s:.0f} s | |")
    print("\nLargest distributions: " + ", ".join(f"{name} {n / mb:.0f} MB" for name, n in largest))
    print("\n| after lesson | kernel peak RSS |\n| --- | ---: |")
    for name, peak in peaks:
        print(f"| {name} | {peak / mb:.0f} MB |")


if __name__ == "__main__":
    main()
