"""Exercise checks for lesson 07 (the persona): compile a persona yourself, catch forbidden phrases.

``check_compile_persona(compile_persona)`` compares the learner's compiler with
``AgentPersona.system_prompt`` on several personas, including ones with no
traits, goals or forbidden phrases (whose sections must then disappear), and
names the first line that differs. ``check_violations(violations)`` runs the
learner's detector on answers that do and do not break Aria's "Never say" rule.
``check_fit_prompt(fit_prompt)`` checks the stretch task: the longest prompt with
whole recalled memories that fits a character budget. None judges style.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aria_kit.exercises import check
from aria_kit.exercises.quiz import Question, Quiz
from aria_kit.interfaces import Hit
from aria_kit.persona import ARIA, AgentPersona

SOLUTION = "lesson07"

PERSONAS = [
    ARIA,
    AgentPersona(name="Bolt", role="a terse code reviewer", traits=("blunt",),
                 goals=("Point out the one change that matters most.", "Praise nothing twice.", "Stay under 50 words."),
                 forbidden_phrases=("Great question",)),
    AgentPersona(name="Quiet", role="a persona with only a name and a role"),
    AgentPersona(name="Nova", role="a tutor", goals=("Ask before you explain.",)),
    AgentPersona(name="Rex", role="a release manager", traits=("calm", "exact"), forbidden_phrases=("ASAP", "just")),
]


def _first_difference(mine: str, reference: str) -> str:
    mine_lines, ref_lines = mine.split("\n"), reference.split("\n")
    for number, (got, want) in enumerate(zip(mine_lines, ref_lines), start=1):
        if got != want:
            return f"line {number} should be {want!r}, yours is {got!r}"
    if len(mine_lines) < len(ref_lines):
        return f"yours stops after line {len(mine_lines)}; the next line should be {ref_lines[len(mine_lines)]!r}"
    return f"yours goes on after the last line: {mine_lines[len(ref_lines)]!r} (no trailing newline or extra lines)"


def _compile_test(compile_persona: Callable[[AgentPersona], str]) -> None:
    for persona in PERSONAS:
        mine, reference = compile_persona(persona), persona.system_prompt()
        assert isinstance(mine, str), f"compile_persona returned a {type(mine).__name__}; return the prompt as a str"
        assert mine == reference, f"for {persona.name} ({persona.role}): {_first_difference(mine, reference)}"


def _violations_test(violations: Callable[[AgentPersona, str], list[str]]) -> None:
    clean = "Raft replicates the log [mem_0003]."
    assert violations(ARIA, clean) == [], f"{clean!r} breaks no rule, but violations returned {violations(ARIA, clean)!r}"
    both = "As an AI language model, I cannot know that."
    found = violations(ARIA, both)
    assert found == ["I cannot", "As an AI language model"], (
        f"{both!r} contains both of Aria's forbidden phrases; expected them in the persona's order, got {found!r}")
    shouting = "i CANNOT do that."
    found = violations(ARIA, shouting)
    assert found == ["I cannot"], f"matching should ignore case: {shouting!r} should give ['I cannot'], got {found!r}"
    quiet = AgentPersona(name="Quiet", role="a persona with no rules")
    assert violations(quiet, both) == [], "a persona without forbidden phrases has no violations"


def _hits(texts: Sequence[str]) -> list[Hit]:
    return [Hit(id=f"mem_{n:04d}", text=text, metadata={"category": "fact"}, score=1 / (60 + n), cosine=0.5, bm25=1.0)
            for n, text in enumerate(texts, start=1)]


def _fit_test(fit_prompt: Callable[[AgentPersona, Sequence[Hit], int], str]) -> None:
    hits = _hits(["Alice's favourite programming language is Rust.", "VelocityDB uses Raft for replication.",
                  "The project deadline for VelocityDB v1.0 is March 31.", "Order #4821 was for 32 GB of DDR5 RAM."])
    full = ARIA.system_prompt(hits)
    for budget in (len(full), len(full) + 100):
        assert fit_prompt(ARIA, hits, budget) == full, f"with {budget} characters every memory fits: return the full prompt"
    sizes = [len(ARIA.system_prompt(hits[:k])) for k in range(len(hits) + 1)]
    for keep in (3, 2, 1):
        budget = sizes[keep + 1] - 1  # one character short of fitting one more memory
        got = fit_prompt(ARIA, hits, budget)
        assert len(got) <= budget, f"with a budget of {budget} characters your prompt has {len(got)}"
        assert got == ARIA.system_prompt(hits[:keep]), (
            f"with a budget of {budget} characters the best {keep} memories fit; keep them, drop the lower-ranked "
            "ones, and never cut a memory in half")
    empty = ARIA.system_prompt()
    assert fit_prompt(ARIA, hits, len(empty)) == empty, "when no memory fits, return the prompt with no memories"
    try:
        fit_prompt(ARIA, hits, len(empty) - 1)
    except ValueError:
        return
    raise AssertionError("when even the prompt without memories is over budget, raise ValueError: nothing can be dropped")


def check_compile_persona(compile_persona: Callable[[AgentPersona], str]) -> bool:
    """Check exercise 07.1: ``compile_persona(persona)`` equals ``persona.system_prompt()`` for several personas."""
    return check("Exercise 07.1 (compile a persona)", lambda: _compile_test(compile_persona), SOLUTION)


def check_violations(violations: Callable[[AgentPersona, str], list[str]]) -> bool:
    """Check exercise 07.2: the persona's forbidden phrases found in a text, ignoring case, in the persona's order."""
    return check("Exercise 07.2 (catch forbidden phrases)", lambda: _violations_test(violations), SOLUTION)


def check_fit_prompt(fit_prompt: Callable[[AgentPersona, Sequence[Hit], int], str]) -> bool:
    """Check stretch 07: the prompt with the most top-ranked whole memories that fits ``max_chars``."""
    return check("Stretch 07 (a prompt within a budget)", lambda: _fit_test(fit_prompt), SOLUTION)


QUIZ = Quiz("Lesson 07", [
    Question(
        "Why does the kit keep the persona as a frozen dataclass and compile the prompt, instead of a string?",
        {"a": "Compiling is faster than reading a string",
         "b": "The same persona always gives the same text, so a change shows up as a diff a test can pin",
         "c": "Models only accept prompts built by a dataclass"},
        "b",
        "deterministic compilation turns a persona change into a reviewable diff; frozen means it cannot shift mid-run.",
        {"a": "speed is not the point; both take microseconds.",
         "c": "a model receives plain text either way; the dataclass is for the people who change it."}),
    Question(
        "Offline, forbidding \"DDR5\" blanks it out of the answer. What does that show about a real model?",
        {"a": "Nothing directly: the blanking is a regular expression in the offline stand-in, not a model obeying",
         "b": "That a real model will never say DDR5 either",
         "c": "That the persona's code enforces its forbidden phrases"},
        "a",
        "the stand-in's `_scrub` reads the Never-say line and deletes matches; a real model is only asked, so measure it.",
        {"b": "a real model usually follows the rule, not always; only a measurement with that model can say how often.",
         "c": "persona.py enforces nothing; it only writes the instruction into the prompt."}),
    Question(
        "Offline, changing Aria's trait 'concise' to 'playful' leaves every answer unchanged. Why?",
        {"a": "Traits have no effect on any model",
         "b": "The stand-in reads only the Never-say line and the recalled memories, never the traits",
         "c": "The persona was not recompiled"},
        "b",
        "the stand-in is a handful of rules; traits are words only a language model can act on.",
        {"a": "a real model does read them; the lesson's measurement cell is how you find out how much.",
         "c": "the prompt was recompiled (the diff shows the changed line); the stand-in simply ignores that line."}),
    Question(
        "Your application must never show a competitor's name. What should you rely on?",
        {"a": "A \"Never say\" line in the persona",
         "b": "A check in code on every answer (like `violations`), with the persona's rule as a first line of defence",
         "c": "A more polite wording of the rule"},
        "b",
        "a prompt instructs and lowers the odds; only code that inspects the answer can guarantee anything.",
        {"a": "a prompt instructs, it does not enforce: a real model can still say it.",
         "c": "wording may change the odds, not the guarantee; check in code."}),
])
