"""Claims in a lesson's prose, tied to the outputs that make them true, and a scanner for the ones not yet tied.

A lesson's markdown and quiz state numbers, counts, ranks, orders and defaults ("request 1 holds 3
memories", "keyword beats vector", "the default fuses by a convex mix"), how the system is built ("the
system message holds the persona", "the recalled memories come after the history") and what a chart
shows ("the lines cross", "the bars rise"). Each such sentence is a claim about an output, and its check
must test what the sentence says (the messages a request holds, the chart's data), not a number that
happens to stand in it. ``tests/claims/lesson_NN.py`` lists, per lesson:

- ``CLAIMS``: ``Claim(text, check)``, where ``text`` is a fragment of one sentence and ``check`` a
  zero-argument callable that returns True or raises AssertionError (reading the executed notebook
  through ``Lesson.output``, which strict nbval keeps equal to a fresh run, or computing with aria_kit);
- ``EXEMPT``: ``{fragment: reason}`` for sentences whose numbers or order words claim nothing about an
  output (an instruction, a definition, a reference).

The scanner flags every sentence with a digit, a number word, an order/default word, an architecture
word (system message, live context, recalled memories, tool schemas, RRF, convex mix) or a chart word
(chart, lines, slope, cross, bars, rises, flat, curve, …); each must be covered by a claim or an exemption.
Lessons due for a rewrite may park sentences in ``tests/claims_pending.py`` until then. ``tests/test_claims.py`` runs all of it. This module does not
decide what is true: each lesson's file does.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]

# What makes a sentence a claim: a digit, a number word, or a word of order or default.
NUMBER_WORDS = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
                          r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|twice|half|double)\b", re.I)
ORDER_WORDS = re.compile(r"\b(default|defaults|beats?|best|worst|wins?|loses?|outranks?|higher|lower|more than"
                         r"|fewer than|faster|slower|first place|top)\b", re.I)
# What makes a sentence a claim about the system or a chart, with no number in it: where a part of a request goes
# (the system message, the recalled memories), how many tools, which fusion; and what a chart's marks do.
ARCHITECTURE_WORDS = re.compile(r"\b(system (?:message|prompt)s?|live context|(?:recalled|recall(?:s|ed)?) memor(?:y|ies)"
                                r"|memories (?:are |were )?recalled|tool schemas?|RRF|reciprocal rank fusion"
                                r"|convex (?:mix|combination|fusion))\b", re.I)
CHART_WORDS = re.compile(r"\b((?:the|both|these|those|other) lines|(?:every|each) lines?|charts?|plots?|plotted|axis|axes"
                         r"|log-log|slopes?|cross(?:es|ed|ing|ings)?|bars?|rises?|rising|rose|flat|flatter|curves?"
                         r"|bends?|steep(?:er|ly)?)\b", re.I)  # "the lines", not "thirty lines" (of code) or "the line that"
KINDS = {"a number": re.compile(r"\d"), "a number word": NUMBER_WORDS, "an order or default": ORDER_WORDS,
         "the architecture": ARCHITECTURE_WORDS, "a chart": CHART_WORDS}
# What is removed first, because it names something rather than claims something.
NOT_CLAIMS = [
    re.compile(r"`[^`]*`"),                                        # code spans: names and calls
    re.compile(r"\]\([^)]*\)"),                                    # link targets
    re.compile(r"<[^>]+>"),                                        # HTML tags
    re.compile(r"\b[Ll]essons?\s+\d\d?(?:\s*(?:–|-|,|and|or|to)\s*\d\d?\b)*"),  # lesson 05, lessons 02–04
    re.compile(r"\b(?:Exercise|Exercises)\s+\d\d\.\d+(?:\s*(?:–|-|,|and|or|to)\s*\d\d\.\d+)*"),
    re.compile(r"\bStretch\s+\d\d\b"),
    re.compile(r"\b(?:Q|[Qq]uestion\s)\d+\b"),
    re.compile(r"\b\d\d_[a-z][a-z0-9_]*\b"),                       # notebook names
    re.compile(r"^\s*(?:[-*]\s+)?\d+[.)]\s"),                      # list numbering
    re.compile(r"\*\*Time:\*\*.*"),                               # checked by test_lesson_structure
    re.compile(r"\b[A-Za-z][A-Za-z_]*[-_]?\d[\w.-]*"),              # names with digits: BM25, DDR5, gpt-4o-mini
]
SENTENCE_END = re.compile(r"(?<=[.!?:])\s+(?=[A-Z\"“(*_`\[])")


@dataclass(frozen=True)
class Sentence:
    where: str  # "cell 7", "quiz Q3 option b"
    text: str


@dataclass(frozen=True)
class Claim:
    """``text``: a fragment of one sentence; ``check``: returns True or raises AssertionError with a reason."""

    text: str
    check: Callable[[], bool]


def normalise(text: str) -> str:
    return " ".join(text.split())


def _units(markdown: str) -> list[str]:
    """Paragraphs, bullets and table rows of a markdown cell, hard-wrapped lines joined; code, math, headings dropped."""
    markdown = re.sub(r"```.*?```", "", markdown, flags=re.S)
    markdown = re.sub(r"\$\$.*?\$\$", "", markdown, flags=re.S)  # display formulas define; prose claims
    units: list[str] = []
    joinable = False  # may the next line continue the last unit?
    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or re.fullmatch(r"[\s|:-]+", stripped):
            joinable = False
        elif stripped.startswith("|"):
            units.append(stripped)
            joinable = False
        elif re.match(r"([-*>]|\d+[.)])\s", stripped) or not joinable:
            units.append(stripped)
            joinable = True
        else:
            units[-1] += " " + stripped
    return units


def split_sentences(markdown: str) -> list[str]:
    """Sentences of a markdown cell: table rows and bullets whole, paragraphs split at full stops."""
    return [normalise(part) for unit in _units(markdown) for part in SENTENCE_END.split(unit) if part.strip()]


def claim_kinds(sentence: str) -> list[str]:
    """What the sentence states, after removing names: a number, an order, the architecture, a chart (or nothing)."""
    stripped = sentence
    for pattern in NOT_CLAIMS:
        stripped = pattern.sub(" ", stripped)
    return [kind for kind, pattern in KINDS.items() if pattern.search(stripped)]


def is_claim_like(sentence: str) -> bool:
    """True when the sentence states a number, a count, an order, a default, the architecture or what a chart shows."""
    return bool(claim_kinds(sentence))


class Lesson:
    """A committed, executed lesson: its sentences (markdown and quiz) and its code cells' outputs."""

    def __init__(self, stem: str) -> None:
        self.stem = stem
        self.path = ROOT / "notebooks" / f"{stem}.ipynb"

    @cached_property
    def notebook(self) -> nbformat.NotebookNode:
        return nbformat.read(self.path, as_version=4)

    def cell(self, index: int) -> nbformat.NotebookNode:
        return self.notebook.cells[index]

    @staticmethod
    def _text(cell: nbformat.NotebookNode) -> str:
        parts = []
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                parts.append(output.text)
            elif output.output_type in ("execute_result", "display_data"):
                data = output.get("data", {})
                parts.append(data.get("text/markdown") or data.get("text/plain", ""))
            elif output.output_type == "error":
                parts.append(f"{output.ename}: {output.evalue}")
        return "".join(parts)

    def output(self, code_fragment: str) -> str:
        """The text output of the one code cell whose source contains ``code_fragment``."""
        cells = [cell for cell in self.notebook.cells if cell.cell_type == "code" and code_fragment in cell.source]
        assert len(cells) == 1, (f"{self.stem}: {len(cells)} code cells contain {code_fragment!r}; "
                                 "name a fragment of exactly one")
        return self._text(cells[0])

    def outputs_of_all(self) -> str:
        """Every code cell's text output, in order."""
        return "\n".join(self._text(cell) for cell in self.notebook.cells if cell.cell_type == "code")

    def quiz(self):
        """The lesson's ``QUIZ`` (``aria_kit.exercises.lessonNN``), or ``None`` for a lesson without one."""
        try:
            return importlib.import_module(f"aria_kit.exercises.lesson{self.stem[:2]}").QUIZ
        except (ModuleNotFoundError, AttributeError):
            return None

    def quiz_size_claims(self) -> list[Claim]:
        """The quiz section's "Four questions on this lesson.", checked the same way in every lesson.

        The number must be the quiz's, and the graded empty answer sheet must print "0 of N right."
        """
        quiz = self.quiz()
        cells = [cell.source for cell in self.notebook.cells if cell.cell_type == "markdown" and "## Quiz" in cell.source]
        found = re.search(r"\b(\d+|[Tt]hree|[Ff]our|[Ff]ive) questions\b", cells[-1]) if cells and quiz else None
        if found is None:
            return []
        stated = found.group(1).lower()
        stated_n = int(stated) if stated.isdigit() else ["three", "four", "five"].index(stated) + 3

        def holds() -> bool:
            size = len(quiz.questions)
            assert stated_n == size, f"the quiz has {size} questions, the lesson says {stated}"
            graded = self.output("QUIZ.grade(my_answers)").splitlines()
            assert f"0 of {size} right." in graded, f"the graded empty sheet says {graded[-2:]!r}"
            return True

        return [Claim(found.group(0), holds)]

    def sentences(self) -> list[Sentence]:
        """Every sentence of the markdown cells, then of the lesson's quiz (prompt, options, explanations)."""
        found = [Sentence(f"cell {index}", text)
                 for index, cell in enumerate(self.notebook.cells) if cell.cell_type == "markdown"
                 for text in split_sentences(cell.source)]
        quiz = self.quiz()
        for number, question in enumerate(quiz.questions if quiz else (), 1):
            parts = [("prompt", question.prompt), ("why", question.why)]
            parts += [(f"option {letter}", text) for letter, text in question.options.items()]
            parts += [(f"why not {letter}", text) for letter, text in question.why_not.items()]
            for label, text in parts:
                found += [Sentence(f"quiz Q{number} {label}", part) for part in split_sentences(text)]
        return found


def quiz_key_holds(lesson: str, number: int) -> bool:
    """Quiz question ``number`` of lesson ``lesson`` ("05"): its computed key is its answer (the kit run on its case)."""
    question = importlib.import_module(f"aria_kit.exercises.lesson{lesson}").QUIZ.questions[number - 1]
    assert question.compute() == question.answer, f"Q{number}: the kit makes {question.compute()!r} true"
    return True


def covered(sentence: str, fragments: list[str]) -> bool:
    text = normalise(sentence)
    return any(normalise(fragment) in text for fragment in fragments)


if __name__ == "__main__":  # python tests/lesson_claims.py: per lesson, flagged sentences, claims and exemptions
    import importlib.util
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    totals = [0, 0, 0]
    for path in sorted((ROOT / "tests" / "claims").glob("lesson_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        claims = len(module.CLAIMS) + len(module.LESSON.quiz_size_claims())
        counts = [sum(is_claim_like(s.text) for s in module.LESSON.sentences()), claims, len(module.EXEMPT)]
        totals = [a + b for a, b in zip(totals, counts)]
        print(f"{module.LESSON.stem:34} {counts[0]:4} flagged sentences {counts[1]:4} claims {counts[2]:4} exempt")
    print(f"{'all':34} {totals[0]:4} flagged sentences {totals[1]:4} claims {totals[2]:4} exempt")
