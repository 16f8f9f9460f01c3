"""Every sentence of a lesson that states a number, an order or a default is checked against what the code prints.

Per lesson, ``tests/claims/lesson_NN.py`` ties claims to outputs and exempts, with a reason, sentences
that claim nothing (see tests/lesson_claims.py). Three tests per lesson: each claim holds (a failure
names the sentence and the cell), each claim-like sentence is covered, and no claim or exemption is
stale (its fragment no longer in the lesson). The last tests show the mechanism catching a sentence
that disagrees with its output, on a small notebook made here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

import lesson_claims
from claims_pending import PENDING
from lesson_claims import Claim, Lesson, claim_kinds, covered, is_claim_like, normalise, split_sentences

ROOT = Path(__file__).resolve().parents[1]
STEMS = [path.stem for path in sorted((ROOT / "notebooks").glob("*.ipynb"))]
IDS = [f"lesson_{stem[:2]}" for stem in STEMS]


def _claims_module(stem: str):
    path = ROOT / "tests" / "claims" / f"lesson_{stem[:2]}.py"
    assert path.exists(), (f"no {path.relative_to(ROOT)}: list the lesson's claims (CLAIMS) and exemptions (EXEMPT) "
                           "there; see tests/lesson_claims.py")
    spec = importlib.util.spec_from_file_location(f"claims_lesson_{stem[:2]}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _where(lesson: Lesson, fragment: str) -> str:
    hits = [s for s in lesson.sentences() if normalise(fragment) in s.text]
    return "; ".join(f"{s.where}: «{s.text[:160]}»" for s in hits) or "(in no sentence)"


def failed_claims(lesson: Lesson, claims: list[Claim]) -> list[str]:
    """One line per claim that does not hold, naming its sentence and cell."""
    failures = []
    for claim in claims:
        try:
            ok = claim.check()
            reason = "" if ok else "its check returned False"
        except AssertionError as exc:
            ok, reason = False, str(exc) or "an assertion failed"
        if not ok:
            failures.append(f"{lesson.stem} {_where(lesson, claim.text)}\n    does not hold: {reason}")
    return failures


def unchecked_sentences(lesson: Lesson, claims: list[Claim], exempt: dict[str, str]) -> list[str]:
    fragments = [claim.text for claim in claims] + [key for key, reason in exempt.items() if reason.strip()]
    fragments += [key for key, reason in PENDING.get(lesson.stem, {}).items() if reason.strip()]
    return [f"{s.where} ({', '.join(claim_kinds(s.text))}): «{s.text[:200]}»" for s in lesson.sentences()
            if is_claim_like(s.text) and not covered(s.text, fragments)]


@pytest.mark.parametrize("stem", STEMS, ids=IDS)
def test_every_claim_holds(stem):
    module = _claims_module(stem)
    failures = failed_claims(module.LESSON, module.CLAIMS + module.LESSON.quiz_size_claims())
    assert not failures, "sentences that disagree with the lesson's outputs:\n" + "\n".join(failures)


@pytest.mark.parametrize("stem", STEMS, ids=IDS)
def test_every_claim_like_sentence_is_checked_or_exempt(stem):
    module = _claims_module(stem)
    assert module.LESSON.stem == stem
    missing = unchecked_sentences(module.LESSON, module.CLAIMS + module.LESSON.quiz_size_claims(), module.EXEMPT)
    assert not missing, (f"{len(missing)} sentences of {stem} state a number, an order or a default with no claim "
                         f"or exemption in tests/claims/lesson_{stem[:2]}.py:\n" + "\n".join(missing))


@pytest.mark.parametrize("stem", STEMS, ids=IDS)
def test_no_claim_or_exemption_is_stale(stem):
    module = _claims_module(stem)
    sentences = [s.text for s in module.LESSON.sentences()]
    stale = [f"claim «{c.text}»" for c in module.CLAIMS if not any(covered(s, [c.text]) for s in sentences)]
    stale += [f"exemption «{key}»" for key in module.EXEMPT if not any(covered(s, [key]) for s in sentences)]
    stale += [f"pending «{key}» (tests/claims_pending.py)" for key in PENDING.get(stem, {})
              if not any(covered(s, [key]) for s in sentences)]
    assert not stale, f"{stem}: fragments found in no sentence (the prose changed):\n" + "\n".join(stale)


def test_only_sentences_the_architecture_and_chart_rules_flag_are_parked_as_pending():
    for stem, parked in PENDING.items():
        for fragment in parked:
            for sentence in (s.text for s in Lesson(stem).sentences() if covered(s.text, [fragment])):
                kinds = set(claim_kinds(sentence))
                assert kinds and kinds <= {"the architecture", "a chart"}, (
                    f"{stem}: «{sentence[:120]}» states {sorted(kinds)}; a number or an order needs its claim now")


# --- the mechanism itself, on a notebook made here --------------------------------------------------------------

@pytest.fixture
def small_lesson(tmp_path, monkeypatch):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# 99 · A made-up lesson\n\nRequest 1 holds 3 memories recalled. "
                                      "See lesson 05 and `top_k=3`."),
        nbformat.v4.new_code_cell("print(recalled)", outputs=[nbformat.v4.new_output("stream", text="2 memories\n")]),
    ]
    (tmp_path / "notebooks").mkdir()
    nbformat.write(notebook, tmp_path / "notebooks" / "99_made_up.ipynb")
    monkeypatch.setattr(lesson_claims, "ROOT", tmp_path)
    return Lesson("99_made_up")


def test_a_sentence_that_disagrees_with_its_output_is_named_with_its_cell(small_lesson):
    claim = Claim("holds 3 memories recalled", lambda: small_lesson.output("print(recalled)").startswith("3 "))
    failures = failed_claims(small_lesson, [claim])
    assert len(failures) == 1 and "cell 0: «Request 1 holds 3 memories recalled.»" in failures[0]


def test_an_unchecked_number_is_listed_until_claimed_or_exempted(small_lesson):
    assert unchecked_sentences(small_lesson, [], {}) == [
        "cell 0 (a number, the architecture): «Request 1 holds 3 memories recalled.»"]
    assert unchecked_sentences(small_lesson, [], {"holds 3 memories": ""}) != [], "an exemption needs a reason"
    assert unchecked_sentences(small_lesson, [], {"holds 3 memories": "an example"}) == []


@pytest.mark.parametrize(("sentence", "flagged"), [
    ("Keyword search beats vector search here.", True),
    ("The default fuses by a convex mix.", True),
    ("It found two of the three.", True),
    ("Recall@5 is 0.417.", True),
    ("See lesson 05 and lessons 02–04.", False),
    ("Exercise 05.2 asks for this; Stretch 05 too.", False),
    ("Call `search(query, top_k=3)` on it.", False),
    ("Open `05_measuring_memory` next.", False),
    ("Q3 explains why.", False),
    ("BM25 scores words; DDR5 RAM and gpt-4o-mini are names.", False),
    ("recall@5 is 0.417 here.", True),
    ("The system message holds the persona and the recalled memories.", True),
    ("It sends the memories recalled for the message in a message of their own.", True),
    ("Both fuse by RRF.", True),
    ("Every line has the same slope.", True),
    ("Where the lines cross, below it, exact and simple wins.", True),
    ("The bars rise; the Edge curve is nearly flat.", True),
    ("It is a few hundred lines of rules.", False),
    ("Each memory is printed on its own line with its id.", False),
])
def test_the_scanner_flags_numbers_orders_and_defaults_but_not_names(sentence, flagged):
    assert is_claim_like(sentence) is flagged


def test_sentences_split_on_full_stops_and_lines_but_skip_code_and_headings():
    text = ("# 05 · Title\n\nFirst sentence. Second one\nwrapped here!\n\n```python\nx = 1\n```\n$$y = 2$$\n"
            "| a | 2 |\n|---|---|\n- a bullet\n  that wraps\n- another")
    assert split_sentences(text) == ["First sentence.", "Second one wrapped here!", "| a | 2 |",
                                     "- a bullet that wraps", "- another"]


def test_the_quiz_size_sentence_is_checked_in_every_lesson_alike(tmp_path, monkeypatch):
    lesson = Lesson("06_tools")
    assert [claim.text for claim in lesson.quiz_size_claims()] == ["Four questions"]
    assert failed_claims(lesson, lesson.quiz_size_claims()) == []
    notebook = nbformat.read(lesson.path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and "## Quiz" in cell.source:
            cell.source = cell.source.replace("Four questions", "Three questions")
    (tmp_path / "notebooks").mkdir()
    nbformat.write(notebook, tmp_path / "notebooks" / "06_tools.ipynb")
    monkeypatch.setattr(lesson_claims, "ROOT", tmp_path)
    miscounted = Lesson("06_tools")
    failures = failed_claims(miscounted, miscounted.quiz_size_claims())
    assert len(failures) == 1 and "the quiz has 4 questions, the lesson says three" in failures[0]
