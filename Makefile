# Two commands do everything (see README):
#   make lessons   set up .venv, then open JupyterLab on the first lesson
#   make test      set up .venv (and the browser, where missing), then run every test and notebook
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup lessons demo chat app test browser notebooks bench clean

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -e .
	touch $(STAMP)

setup: $(STAMP)

lessons: setup
	$(BIN)/jupyter lab notebooks/00_welcome.ipynb

demo: setup
	$(BIN)/python -m aria_kit demo

chat: setup
	$(BIN)/python -m aria_kit chat

# The chat alone, as a small web app for workshops (Voila serves app/chat.ipynb).
app: setup
	$(BIN)/voila app/chat.ipynb

# The browser test needs Debian's chromium. As root (CI, a container) it is installed here;
# elsewhere the test skips and says how to enable it.
browser:
	@if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && /usr/bin/chromium --version; \
	else echo "No /usr/bin/chromium: the browser test will skip. Enable it with: sudo apt-get install chromium"; fi

test: setup browser
	$(BIN)/python -m pytest

# Re-execute every notebook in place, offline, so committed outputs match the code (run after changing aria_kit).
notebooks: setup
	env -u OPENAI_API_KEY -u OPENAI_BASE_URL $(BIN)/jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb app/*.ipynb

bench: setup
	$(BIN)/python benchmarks/bench_memory.py
	$(BIN)/python benchmarks/bench_qdrant.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
