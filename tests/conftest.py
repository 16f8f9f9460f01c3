"""Shared fixtures for tests/ — and the one rule for importing test helpers.

The import rule: tests/ has no ``__init__.py``, so pytest puts this folder on
``sys.path`` and a test imports a helper module of this folder by its plain
name (``from toy_memory import ToyMemory``, ``from fake_openai_server import
chat_reply``, ``from memory_contract import …``, ``from exercise_checks import
…``). Worked solutions are part of the package: ``from aria_kit.solutions.lesson02
import cosine``. Nothing else is on the path.

Fixtures every test module may use without importing them:

- ``fake_openai``: a scriptable OpenAI-compatible server on 127.0.0.1
  (``fake_openai_server.py``), strict about unused replies;
- ``no_openai_environment``: removes every OPENAI_* setting for one test (the
  repository's root ``conftest.py`` already clears them for the session; tests
  that talk to a server take this too, so a test that sets one cannot leak it).
"""

from __future__ import annotations

import pytest

from fake_openai_server import fake_openai  # noqa: F401  (a fixture: defined there, shared from here)

OPENAI_SETTINGS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID")


@pytest.fixture
def no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no OpenAI settings, whatever the machine running the suite has."""
    for name in OPENAI_SETTINGS:
        monkeypatch.delenv(name, raising=False)
