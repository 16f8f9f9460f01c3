"""Every link in every lesson's markdown and every .md file of the kit leads somewhere, anchors included.

Offline: relative links must name a file or folder that exists, a ``#fragment`` must be an anchor of its
target (JupyterLab's heading ids in a notebook, GitHub's slugs in a .md file, or an explicit ``<a id=…>``;
the rules are written down in tests/markdown_links.py), and web addresses must be well-formed; nothing is
fetched. The last tests run the checker on small documents made here, so each rule is seen to fail.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from markdown_links import Link, anchors, github_slug, jupyterlab_id, links, problem

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", ".ipynb_checkpoints", "build", "dist", ".pytest_cache"}
DOCUMENTS = sorted(path for path in [*ROOT.rglob("*.md"), *(ROOT / "notebooks").glob("*.ipynb")]
                   if not SKIP_DIRS & set(path.relative_to(ROOT).parts))

def _broken(paths) -> dict[tuple[str, str, str], str]:
    found = {}
    for path in paths:
        for link in links(path):
            reason = problem(link)
            if reason:
                found[(str(path.relative_to(ROOT)), link.where, link.target)] = reason
    return found


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_every_link_leads_somewhere(path):
    broken = {key: reason for key, reason in _broken([path]).items()}
    assert not broken, "broken links:\n" + "\n".join(f"{file} {where}: ({target}) {reason}"
                                                      for (file, where, target), reason in broken.items())

