"""Links in the kit's markdown (notebook cells and .md files), the anchors each document offers, and a verdict per link.

A link is checked offline: a relative link must name a file or folder that exists, a ``#fragment`` must be
an anchor of its target, and an ``http(s)`` link must be well-formed (it is never fetched). Anchors are the
ids the reader's viewer gives the headings, plus explicit ``<a id=…>`` / ``<a name=…>`` (any ``id="…"``):

- **a notebook, as JupyterLab renders it:** the heading's text content with every space replaced by ``-``,
  case and punctuation kept, no de-duplication (JupyterLab 4, ``packages/rendermime/src/renderers.ts``,
  ``Private.createHeaderId``: ``(header.textContent ?? '').replace(/ /g, '-')``). So
  ``## 4. Switch to a real model (optional)`` is ``#4.-Switch-to-a-real-model-(optional)``.
- **a .md file, as GitHub renders it** (github-slugger): the text content lower-cased, every character that
  is not a letter, mark, digit, ``_``, ``-`` or space removed, spaces replaced by ``-``; a repeated slug
  gets ``-1``, ``-2``, … So ``## `make test` (2 min)`` is ``#make-test-2-min``.

Text inside code fences and code spans is not a link. This module does not fetch anything and does not
judge a link's wording; tests/test_links.py runs it over the repository.
"""

from __future__ import annotations

import difflib
import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat

FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
# [text](target "title") and ![alt](target), with one level of parentheses inside the target.
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|(?:[^()\s]|\([^()\s]*\))*)"
                         r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
HTML_LINK = re.compile(r"<(?:a|img|link|script|source)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.M)
HOST = re.compile(r"^(localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,})$")


@dataclass(frozen=True)
class Link:
    source: Path  # the file the link is in
    where: str  # "cell 45" for a notebook, "line 12" for a .md file
    target: str


def without_fences(markdown: str) -> str:
    """The markdown with fenced code blocks blanked (same line count, so line numbers still hold)."""
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), markdown)


def without_code(markdown: str) -> str:
    """The markdown with fenced blocks and code spans blanked."""
    return CODE_SPAN.sub(lambda m: "\n" * m.group(0).count("\n"), without_fences(markdown))


def text_content(heading: str) -> str:
    """What a browser shows of a heading's markdown: link text kept, code, emphasis and tags unwrapped."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)  # an image's textContent is empty
    text = re.sub(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", text)
    pieces = re.split(r"(`+)(.*?)\1", text)  # [plain, ticks, code, plain, ticks, code, …]: code is literal
    for i in range(0, len(pieces), 3):
        plain = re.sub(r"<[^>]+>", "", pieces[i])
        plain = re.sub(r"(\*\*|\*)(?=\S)(.+?)(?<=\S)\1", r"\2", plain)
        pieces[i] = html.unescape(re.sub(r"(?<!\w)(__|_)(?=\S)(.+?)(?<=\S)\1(?!\w)", r"\2", plain))
    return "".join(piece for i, piece in enumerate(pieces) if i % 3 != 1).strip()


def jupyterlab_id(heading: str) -> str:
    return text_content(heading).replace(" ", "-")


def github_slug(heading: str) -> str:
    text = text_content(heading).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def markdown_of(path: Path) -> list[tuple[str, str]]:
    """(where, markdown) pieces of a notebook (its markdown cells) or a .md file (the whole file)."""
    if path.suffix == ".ipynb":
        notebook = nbformat.read(path, as_version=4)
        return [(f"cell {i}", cell.source) for i, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"]
    return [("", path.read_text(encoding="utf-8"))]


@lru_cache(maxsize=None)
def anchors(path: Path) -> frozenset[str]:
    """The fragments a link may name in ``path``: heading ids (JupyterLab's or GitHub's) and explicit ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, markdown in markdown_of(path):
        found.update(HTML_ID.findall(without_code(markdown)))
        for _, heading in HEADING.findall(without_fences(markdown)):
            if path.suffix == ".ipynb":
                found.add(jupyterlab_id(heading))
            else:
                slug = github_slug(heading)
                found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
                seen[slug] = seen.get(slug, 0) + 1
    return frozenset(found)


def links(path: Path) -> list[Link]:
    found = []
    for where, markdown in markdown_of(path):
        plain = without_code(markdown)
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, AUTOLINK, HTML_LINK):
            for match in pattern.finditer(plain):
                target = match.group(match.lastindex).strip("<>")
                line = plain.count("\n", 0, match.start()) + 1
                found.append(Link(path, where or f"line {line}", target))
    return found


def problem(link: Link) -> str | None:
    """Why ``link`` is broken, or None when it is fine."""
    target = link.target
    if not target:
        return "empty link target"
    parts = urlsplit(target)
    if parts.scheme in ("http", "https"):
        host = parts.hostname or ""
        if re.search(r"\s", target) or not HOST.match(host):
            return f"not a well-formed web address (host {host!r})"
        if target.count("(") != target.count(")"):
            return "unbalanced parentheses: the link was probably cut short"
        return None
    if parts.scheme == "mailto":
        return None if re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", parts.path) else "not a mail address"
    if parts.scheme or parts.netloc:
        return f"unexpected scheme {parts.scheme!r}: use a relative path or an http(s) address"
    path = unquote(parts.path)
    file = link.source if not path else (link.source.parent / path)
    if not file.exists():
        return f"{path} does not exist (looked for {file.resolve()})"
    if parts.fragment and file.is_file() and file.suffix in (".ipynb", ".md"):
        fragment = unquote(parts.fragment)
        if fragment not in anchors(file):
            near = difflib.get_close_matches(fragment, anchors(file), n=1, cutoff=0.6)
            return f"{file.name} has no anchor #{fragment}" + (f" (did you mean #{near[0]}?)" if near else "")
    return None
