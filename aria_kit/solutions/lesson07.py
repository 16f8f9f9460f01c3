"""Worked solutions for lesson 07: compile a persona yourself, catch forbidden phrases, fit a budget.

Open this when you are stuck on exercises 07.1, 07.2 or the stretch. A persona
is plain data; ``compile_persona`` writes each field into a fixed place and
leaves out a section whose field is empty. The prompt only *asks* the model to
avoid its forbidden phrases, so code that must be sure checks the answer itself,
which is what ``violations`` does. ``fit_prompt`` drops the lowest-ranked
recalled memories, whole, until the prompt fits a character budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from aria_kit.interfaces import Hit
from aria_kit.persona import BEHAVIOUR_RULES, AgentPersona


def compile_persona(persona: AgentPersona) -> str:
    lines = [f"You are {persona.name}, {persona.role}."]
    if persona.traits:
        lines += ["", "Traits: " + "; ".join(persona.traits) + "."]
    if persona.goals:
        lines += ["", "Goals:"] + [f"- {goal}" for goal in persona.goals]
    lines += ["", "Rules:"] + [f"{number}. {rule}" for number, rule in enumerate(BEHAVIOUR_RULES, start=1)]
    if persona.forbidden_phrases:
        lines += ["", "Never say: " + ", ".join(f'"{phrase}"' for phrase in persona.forbidden_phrases) + "."]
    lines += ["", "## Live context (memories recalled for this message)", "(no memories recalled)"]
    return "\n".join(lines)  # joined, so there is no trailing newline


def violations(persona: AgentPersona, text: str) -> list[str]:
    lowered = text.lower()
    return [phrase for phrase in persona.forbidden_phrases if phrase.lower() in lowered]


def fit_prompt(persona: AgentPersona, hits: Sequence[Hit], max_chars: int) -> str:
    # Hits come best first, so keeping a prefix drops the lowest-ranked ones; each try compiles whole entries.
    for keep in range(len(hits), -1, -1):
        prompt = persona.system_prompt(hits[:keep])
        if len(prompt) <= max_chars:
            return prompt
    raise ValueError(f"even the prompt without memories is {len(prompt)} characters; the budget is {max_chars}")
