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

# Links another branch is fixing: (file, where, target). The lead deletes an entry once that branch is merged;
# an entry that no longer matches a broken link fails the test below, so the list cannot go stale.
EXPECTED_BROKEN_UNTIL_MERGED: dict[tuple[str, str, str], str] = {
    ("notebooks/11_chat.ipynb", f"cell {cell}", "00_welcome.ipynb#4.-Switch-to-a-real-model-(optional)"):
        "lesson 11 is branch `newcomer`'s, which fixes its three links to lesson 00"
    for cell in (1, 32, 43)
}


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
    broken = {key: reason for key, reason in _broken([path]).items() if key not in EXPECTED_BROKEN_UNTIL_MERGED}
    assert not broken, "broken links:\n" + "\n".join(f"{file} {where}: ({target}) {reason}"
                                                      for (file, where, target), reason in broken.items())


def test_the_expected_broken_links_are_still_broken():
    files = {ROOT / file for file, _, _ in EXPECTED_BROKEN_UNTIL_MERGED}
    fixed = set(EXPECTED_BROKEN_UNTIL_MERGED) - set(_broken(files))
    assert not fixed, f"fixed now, delete from EXPECTED_BROKEN_UNTIL_MERGED: {sorted(fixed)}"


def test_the_documents_checked_include_every_lesson_and_the_readmes():
    names = {str(p.relative_to(ROOT)) for p in DOCUMENTS}
    assert {"README.md", "benchmarks/README.md", "data/README.md", "docs/claims.md",
            "notebooks/00_welcome.ipynb", "notebooks/13_going_further_scaling.ipynb"} <= names
    assert any(name.startswith("aria_kit/data/") for name in names)


# --- the rules, on documents made here ---------------------------------------------------------------------------

@pytest.mark.parametrize(("heading", "jupyterlab", "github"), [
    ("4. Switch to a real model (optional)", "4.-Switch-to-a-real-model-(optional)", "4-switch-to-a-real-model-optional"),
    ("Where the time goes now", "Where-the-time-goes-now", "where-the-time-goes-now"),
    ("`make test` — **2 min**", "make-test-—-2-min", "make-test--2-min"),
    ("`bench_scale.py` and _dev_ of `bench_qdrant.py`", "bench_scale.py-and-dev-of-bench_qdrant.py",
     "bench_scalepy-and-dev-of-bench_qdrantpy"),
    ("See [lesson 05](05_measuring_memory.ipynb)", "See-lesson-05", "see-lesson-05"),
])
def test_heading_ids_follow_jupyterlab_in_notebooks_and_github_in_markdown(heading, jupyterlab, github):
    assert jupyterlab_id(heading) == jupyterlab
    assert github_slug(heading) == github


@pytest.fixture
def documents(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# 99 · Made up\n\n## 4. Switch to a real model (optional)\n"
                                                    "<a id=\"kept\"></a>\n```\n## Not a heading\n```")]
    nbformat.write(notebook, tmp_path / "99_made_up.ipynb")
    (tmp_path / "notes.md").write_text("# Notes\n\n## Notes\n\nText with `[not](a-link.md)` in code.\n")
    return tmp_path


@pytest.mark.parametrize(("target", "fine"), [
    ("99_made_up.ipynb#4.-Switch-to-a-real-model-(optional)", True),
    ("99_made_up.ipynb#kept", True),
    ("99_made_up.ipynb#Switch-to-a-real-model", False),   # a heading renamed: the old anchor is gone
    ("99_made_up.ipynb#Not-a-heading", False),            # inside a code fence
    ("notes.md#notes-1", True),                           # GitHub numbers a repeated heading
    ("notes.md#Notes", False),                            # GitHub slugs are lower case
    ("missing.md", False),
    (".", True),
    ("https://github.com/qdrant/qdrant", True),
    ("https://github com/qdrant", False),
    ("http://localhost:8866/voila", True),
    ("ftp://example.org/x", False),
])
def test_a_link_is_fine_only_when_its_file_and_anchor_exist(documents, target, fine):
    reason = problem(Link(documents / "notes.md", "line 1", target))
    assert (reason is None) is fine, reason


def test_links_are_found_in_text_but_not_in_code(documents):
    (documents / "page.md").write_text("[a](notes.md) ![b](img.png \"title\") <a href=\"x.md\">c</a>\n"
                                       "`[no](code.md)`\n```\n[no](fence.md)\n```\n[ref]: https://example.org\n"
                                       "[paren](99_made_up.ipynb#4.-Switch-to-a-real-model-(optional))\n")
    assert [link.target for link in links(documents / "page.md")] == [
        "notes.md", "img.png", "99_made_up.ipynb#4.-Switch-to-a-real-model-(optional)", "https://example.org", "x.md"]
    assert "kept" in anchors(documents / "99_made_up.ipynb")
