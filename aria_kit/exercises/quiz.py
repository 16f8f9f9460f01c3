"""End-of-lesson quizzes: multiple choice, graded on the spot, with a reason for every wrong option.

Each lesson's exercise module defines ``QUIZ = Quiz("Lesson 02", [Question(...), ...])``.
In the notebook the learner reads the questions, fills a dict of answers and grades it:

    QUIZ.show()
    my_answers = {1: None, 2: None, 3: None}   # replace None with "a", "b", …
    QUIZ.grade(my_answers)

``grade`` prints one line per question — ✓, ○ (not answered yet), ✗ with the
explanation written for exactly the option chosen, or ? for an answer that is not one
of the options (a typo, a number) — and returns the number right. A question's
number may be written ``1`` or ``"1"`` (as a dict read back from JSON has it).
Like the exercise checks it never raises on a learner's input. The test suite
checks every quiz: the key scores full marks, and every wrong option has its own
explanation. A question may name its ``case`` (the numbers, strings or code it asks about): it counts as
transfer only if its lesson shows none of them (``scripts/quiz_cases.py`` looks). A "predict" question
carries ``compute`` (defined above its lesson's ``QUIZ``), which runs the kit on that case and names the
option that came true, so the test suite checks its key by running it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

KINDS = ("predict", "explain", "choose", "recall")


@dataclass(frozen=True)
class Question:
    """One question: ``options`` maps a letter to its text; ``why_not`` explains each wrong letter."""

    prompt: str
    options: dict[str, str]
    answer: str
    why: str  # why the right answer is right, shown when it is chosen
    why_not: dict[str, str]
    # What the question asks of the learner: to predict an output, explain a result the lesson showed,
    # choose between two designs, or recall a fact. docs/exercises.md counts them per lesson.
    kind: str = "recall"
    # The distinctive numbers, strings or code the question asks about, each as written in the prompt.
    case: tuple[str, ...] = ()
    # For a "predict" question: runs the kit on the case and returns the letter of the option that came true.
    compute: Callable[[], str] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"question {self.prompt[:40]!r}: kind must be one of {', '.join(KINDS)}, "
                             f"not {self.kind!r}")
        if isinstance(self.case, str) or not all(isinstance(piece, str) and piece.strip() for piece in self.case):
            raise ValueError(f"question {self.prompt[:40]!r}: case must be a tuple of non-empty strings, "
                             f"such as case=(\"[-6, -8]\",), not {self.case!r}")
        object.__setattr__(self, "case", tuple(self.case))
        if self.compute is not None and not callable(self.compute):
            raise ValueError(f"question {self.prompt[:40]!r}: compute must be a function of no arguments that "
                             "returns the letter of the option the kit's run makes true")
        wrong = set(self.options) - {self.answer}
        if self.answer not in self.options or set(self.why_not) != wrong:
            raise ValueError(f"question {self.prompt[:40]!r}: the answer must be an option and every "
                             f"wrong option needs an explanation (missing: {sorted(wrong - set(self.why_not))})")


@dataclass(frozen=True)
class Quiz:
    """A lesson's questions, numbered from 1."""

    title: str
    questions: tuple[Question, ...]

    def __init__(self, title: str, questions: list[Question]) -> None:
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "questions", tuple(questions))

    def show(self) -> None:
        """Print every question with its lettered options."""
        print(f"{self.title} quiz — answer in a dict such as {{1: \"a\", 2: \"c\"}}, then run QUIZ.grade(...).")
        for number, question in enumerate(self.questions, 1):
            print(f"\n{number}. {question.prompt}")
            for letter, text in question.options.items():
                print(f"   {letter}) {text}")

    def grade(self, answers: Mapping[int | str, str | None]) -> int:
        """Print a verdict per question and return how many are right; keys are question numbers, 1 or "1"."""
        right = 0
        for number, question in enumerate(self.questions, 1):
            raw = _answer(answers, number)
            given = raw.strip().lower() if isinstance(raw, str) else raw
            letters = ", ".join(f'"{letter}"' for letter in question.options)
            if given is None or given == "":
                print(f"○ {number}: not answered yet.")
            elif given == question.answer:
                right += 1
                print(f"✓ {number}: right — {question.why}")
            elif isinstance(given, str) and given in question.why_not:
                print(f"✗ {number}: not {given} — {question.why_not[given]}")
            else:  # a typo or a number: say so, rather than grade it wrong or call it unanswered
                print(f"? {number}: {raw!r} is not a valid answer — write one of the letters {letters}.")
        print(f"{right} of {len(self.questions)} right.")
        return right


def only_true(outcomes: Mapping[str, bool]) -> str:
    """For a ``compute``: the one letter whose outcome held when the kit ran; none or several is an error."""
    letters = [letter for letter, holds in outcomes.items() if holds]
    if len(letters) != 1:
        raise AssertionError(f"the run made {letters or 'no option'} true; exactly one option should be")
    return letters[0]


def _answer(answers: object, number: int) -> object:
    """The answer given to question ``number``: under the key ``number``, else under ``"number"`` (JSON keys)."""
    if not isinstance(answers, Mapping):
        return None
    for key in (number, str(number)):
        try:
            if key in answers and answers[key] is not None:
                return answers[key]
        except Exception:  # noqa: BLE001 - a learner's odd mapping must not stop the grading
            return None
    return None
