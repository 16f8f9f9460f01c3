"""Which quiz questions test transfer: a question's declared ``case`` looked up in every cell and output of its lesson.

A question is transfer only when it declares a case (``Question(..., case=("[-6, -8]",))``) and no piece of
that case appears in any cell of its notebook, markdown or code, nor in any committed output. The quiz's
own cells (those that mention ``QUIZ``) are left out, since they print every prompt. Matching ignores case
and whitespace (``[-6,-8]`` is ``[-6, -8]``), and a number is a token: ``5`` is not found in ``0.5`` or
``15``. ``scripts/exercise_table.py`` writes the counts into docs/exercises.md and
``tests/test_quiz_kinds.py`` checks them. Nothing here decides whether a case is a good one: a reader does.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|\w+|\S")  # a number (3, 0.625, 1,000), a word, or one other character


def piece_pattern(piece: str) -> re.Pattern[str]:
    """A regex for ``piece`` that allows any whitespace between its tokens and keeps words and numbers whole."""
    tokens = _TOKEN.findall(piece)
    if not tokens:
        raise ValueError(f"a case piece must hold something other than whitespace, got {piece!r}")
    body = r"\s*".join(re.escape(token) for token in tokens)
    # A word or number must not run on into a neighbour: "5" is not in "15", "0.5" or "5.1"; "tea" not in "team".
    before = r"(?<![\w.,])" if tokens[0][0].isdigit() else r"(?<!\w)" if re.match(r"\w", tokens[0]) else ""
    after = r"(?![\w]|[.,]\d)" if re.match(r"\w", tokens[-1]) else ""
    return re.compile(before + body + after, flags=re.IGNORECASE)


def appears(piece: str, text: str) -> bool:
    """True when ``piece`` occurs in ``text`` under the matching rules above."""
    return piece_pattern(piece).search(text) is not None


def _output_text(output: dict) -> str:
    if "text" in output:
        return "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
    data = output.get("data", {})
    parts = [data.get(kind, "") for kind in ("text/plain", "text/html", "text/markdown")]
    return "\n".join("".join(part) if isinstance(part, list) else part for part in parts)


@cache
def lesson_text(lesson: str) -> str:
    """Every cell's source and every committed output of notebook ``NN_*.ipynb``, but not the quiz's own cells."""
    [path] = sorted(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    notebook = nbformat.read(path, as_version=4)
    pieces = []
    for cell in notebook.cells:
        if "QUIZ" in cell.source:  # QUIZ.show() prints every prompt; QUIZ.grade(...) its verdicts
            continue
        pieces.append(cell.source)
        pieces += [_output_text(output) for output in cell.get("outputs", [])]
    return "\n".join(pieces)


def shown_pieces(question, lesson: str) -> list[str]:
    """The pieces of ``question.case`` that lesson ``lesson`` already shows (in a cell or an output)."""
    text = lesson_text(lesson)
    return [piece for piece in question.case if appears(piece, text)]


def is_transfer(question, lesson: str) -> bool:
    """A question needs transfer when it declares a case and the lesson shows no piece of it."""
    return bool(question.case) and not shown_pieces(question, lesson)
