"""Exercise checks for lesson 07 (the persona): write a persona, and catch forbidden phrases in code.

``check_persona(make_persona)`` compiles the learner's persona and reads the
system prompt back, the way a model would see it. ``check_violations(violations)``
runs the learner's detector on answers that do and do not break Aria's
"Never say" rule. Neither judges style: only what the exercise text asks for.
"""

from __future__ import annotations

from collections.abc import Callable

from aria_kit.exercises import check
from aria_kit.persona import ARIA, AgentPersona

SOLUTION = "lesson07"


def _persona_test(make_persona: Callable[[], AgentPersona]) -> None:
    persona = make_persona()
    assert isinstance(persona, AgentPersona), f"make_persona returned a {type(persona).__name__}; return an AgentPersona"
    prompt = persona.system_prompt()
    assert prompt.startswith("You are Bolt, a terse code reviewer."), (
        f"the prompt starts {prompt.splitlines()[0]!r}; use name='Bolt' and role='a terse code reviewer'")
    assert isinstance(persona.traits, tuple) and len(persona.traits) >= 2, (
        "give Bolt at least two traits, as a tuple such as ('blunt', 'precise')")
    assert persona.goals, "give Bolt at least one goal"
    assert "Great question" in persona.forbidden_phrases, '"Great question" should be one of the forbidden phrases'
    assert '"Great question"' in next((line for line in prompt.splitlines() if line.startswith("Never say:")), ""), (
        'the compiled prompt has no "Never say" line with "Great question"')
    assert prompt == make_persona().system_prompt(), "two personas built the same way compile to different prompts"


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


def check_persona(make_persona: Callable[[], AgentPersona]) -> bool:
    """Check exercise 7.1: Bolt, a terse code reviewer with traits, a goal and "Great question" forbidden."""
    return check("Exercise 7.1 (write a persona)", lambda: _persona_test(make_persona), SOLUTION)


def check_violations(violations: Callable[[AgentPersona, str], list[str]]) -> bool:
    """Check exercise 7.2: the persona's forbidden phrases found in a text, ignoring case, in the persona's order."""
    return check("Exercise 7.2 (catch forbidden phrases)", lambda: _violations_test(violations), SOLUTION)
