"""Worked solutions for lesson 07: a persona of your own, and a forbidden-phrase detector.

Open this when you are stuck on exercises 7.1 and 6.2. A persona is plain
data, so writing one is filling in fields; the system prompt compiles from it.
The prompt only *asks* the model to avoid its forbidden phrases, so code that
must be sure checks the answer itself, which is what ``violations`` does.
"""

from __future__ import annotations

from aria_kit.persona import AgentPersona


def make_persona() -> AgentPersona:
    return AgentPersona(
        name="Bolt",
        role="a terse code reviewer",
        traits=("blunt", "precise", "kind about people, strict about code"),
        goals=("Point out the one change that matters most.",),
        forbidden_phrases=("Great question", "As an AI language model"),
    )


def violations(persona: AgentPersona, text: str) -> list[str]:
    lowered = text.lower()
    return [phrase for phrase in persona.forbidden_phrases if phrase.lower() in lowered]
