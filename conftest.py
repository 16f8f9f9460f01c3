"""Test-session setup shared by tests/ and the notebooks run under nbval.

Tests and notebooks must run offline and deterministically whatever the
developer's shell has set, so the model-provider and Qdrant-server variables are removed before
anything (including the notebook kernels nbval starts) can read them, and the day memories are
dated with is pinned to ``clock.LESSON_DAY`` (``scripts/execute_notebooks.py`` pins the same day).
"""

import os

from aria_kit.clock import LESSON_DAY, TODAY_VARIABLE

for _name in [n for n in os.environ if n.startswith(("OPENAI_", "ARIA_QDRANT_"))]:
    del os.environ[_name]
os.environ[TODAY_VARIABLE] = LESSON_DAY
