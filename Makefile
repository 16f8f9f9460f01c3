# Two commands do everything (see README):
#   make lessons   set up .venv, then open JupyterLab on the first lesson
#   make test      set up .venv (and the browser, where missing), then run every test and notebook
# `make help` lists every target.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JUPYTER ?= $(BIN)/jupyter
# JupyterLab listens on this machine only (127.0.0.1); see the README for reaching it from another one.
PORT   ?= 8888
LESSON := notebooks/00_welcome.ipynb
# Jupyter refuses to start as root unless told to; containers and CI boxes often are root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
LAB_FLAGS ?=
JUPYTER_CONFIG := $(CURDIR)/binder/jupyter-config
LAB_ROOT ?= $(CURDIR)
VOILA_FLAGS ?=

.DEFAULT_GOAL := help
.PHONY: help setup lessons demo chat app test browser notebooks bench bench-full clean

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -e .
	touch $(STAMP)

setup: $(STAMP) ## create .venv with the pinned dependencies (once; again when a requirements file changes)

# The server's root is the repository, so aria_kit/ and aria_kit/solutions/ are reachable from the lessons;
# the printed URL (and the browser, where there is one) opens lesson 00. binder/jupyter-config (its lab settings
# also used on Binder) turns JupyterLab's news pop-up off and widget state out of saved lessons, makes Save write a
# lesson as `make notebooks` does (so running one leaves git status clean), encrypts the kernel's sockets, shuts
# down kernels left idle with no tab open, and keeps the terminal to warnings and the URL to open. The workspace
# (which tabs were open) is this project's own, in .jupyter/workspaces, not JupyterLab's shared default, so tabs
# of another project never reopen here.
lessons: setup ## open JupyterLab on lesson 00 (http://127.0.0.1:8888, this machine only)
	@# Signed for this user, so opening a lesson prints no "not trusted" warning and its outputs show as committed.
	-@$(JUPYTER) trust $(wildcard $(LAB_ROOT)/notebooks/*.ipynb) >/dev/null
	JUPYTER_CONFIG_PATH="$(JUPYTER_CONFIG)" $(JUPYTER) lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir="$(LAB_ROOT)" \
		--LabApp.workspaces_dir="$(LAB_ROOT)/.jupyter/workspaces" --LabApp.default_url=/lab/tree/$(LESSON) \
		$(ALLOW_ROOT) $(LAB_FLAGS)

demo: setup ## run the whole reference demo in the terminal
	$(BIN)/python -m aria_kit demo

chat: setup ## chat with Aria in the terminal; memory kept in aria_memory.sqlite3
	$(BIN)/python -m aria_kit chat

# The chat alone, as a small web app for workshops (Voila serves app/chat.ipynb). app/voila.json picks the template
# in app/share/jupyter (Voila's, without Font Awesome from a public CDN), 127.0.0.1 and encrypted kernel sockets.
app: setup ## serve the chat alone as a web app (Voila, this machine only)
	-@$(JUPYTER) trust app/chat.ipynb >/dev/null
	JUPYTER_PATH="$(CURDIR)/app/share/jupyter" JUPYTER_CONFIG_PATH="$(CURDIR)/app" $(BIN)/voila app/chat.ipynb $(VOILA_FLAGS)

# The browser test needs Debian's chromium. As root (CI, a container) it is installed here;
# elsewhere the test skips and says how to enable it.
browser: ## install Chromium for the browser test (as root, where missing)
	@if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && /usr/bin/chromium --version; \
	else echo "No /usr/bin/chromium: the browser test will skip. Enable it with: sudo apt-get install chromium"; fi

test: setup browser ## run every test and notebook (what CI runs)
	$(BIN)/python -m pytest

# Re-execute every notebook in place, offline, so committed outputs match the code (run after changing aria_kit).
# Timestamps, split streams and random widget ids are normalised, so on unchanged code `git status` stays clean.
notebooks: setup ## re-execute every notebook offline and save its outputs
	$(BIN)/python scripts/execute_notebooks.py notebooks/*.ipynb app/*.ipynb

bench: setup ## quick benchmarks (under a minute)
	$(BIN)/python benchmarks/bench_memory.py
	$(BIN)/python benchmarks/bench_qdrant.py

bench-full: setup ## the full benchmarks quoted in the README (several minutes)
	$(BIN)/python benchmarks/bench_memory.py --full
	$(BIN)/python benchmarks/bench_qdrant.py --full

clean: ## remove .venv and test caches (your memory file aria_memory.sqlite3 is kept)
	rm -rf $(VENV) .pytest_cache .hypothesis
