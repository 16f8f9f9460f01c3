"""Worked solutions for lesson 07: compile a persona yourself, catch forbidden phrases, fit a budget.

Open this when you are stuck on exercises 07.1, 07.2 or the stretch. A persona
is plain data; ``compile_persona`` writes each field into a fixed place and
leaves out a section whose field is empty. The prompt only *asks* the model to
avoid its forbidden phrases, so code that must be sure checks the answer itself,
which is what ``violations`` does (whole words, any spacing, any case). Exercise 07.3
has two answers of different design in ``SOLUTIONS["07.3"]``: a citation rule checked by a pattern
(``breaks_rule``) and a length rule checked by counting sentences (``breaks_short_rule``).
``fit_live_context`` drops the lowest-ranked recalled memories, whole, until the live context
fits a character budget.
"""

from __future__ import annotations

import re
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
    return "\n".join(lines)  # joined, so there is no trailing newline


def violations(persona: AgentPersona, text: str) -> list[str]:
    found = []
    for phrase in persona.forbidden_phrases:
        # Whole words ("just" is not in "adjust"), any run of spaces or line breaks between them, any case.
        words = r"\s+".join(re.escape(word) for word in phrase.split())
        if re.search(rf"(?<!\w){words}(?!\w)", text, flags=re.IGNORECASE):
            found.append(phrase)
    return found


# Exercise 07.3: rule 4 of the prompt, made checkable. A reply that answers from memory must say which memory.
RULE = "When you answer from memory, cite the id of each memory you used in brackets, like [mem_0003]."
GOOD = ["From memory: Alice's favourite programming language is Rust. [mem_0001]", "22 * 6.5 = 143.",
        "I found nothing in memory about that."]
BAD = ["From memory: Alice's favourite programming language is Rust.",
       "From memory, the deadline is March 31 (see mem_0005)."]


def breaks_rule(reply: str) -> bool:
    """True when ``reply`` answers from memory without a bracketed memory id.

    The rule (``RULE``): "When you answer from memory, cite the id of each memory you used in brackets, like
    [mem_0003]." It must pass "From memory: Alice's favourite programming language is Rust. [mem_0001]" and
    "22 * 6.5 = 143." (not from memory), and catch the same fact without its id and "…(see mem_0005)", which
    cites an id but not as the rule asks (``GOOD`` and ``BAD`` in aria_kit/solutions/lesson07.py).
    """
    from_memory = re.search(r"\bfrom memory\b", reply, flags=re.IGNORECASE)
    return bool(from_memory) and not re.search(r"\[mem_\d{4,}\]", reply)


# A second design for 07.3: a rule about form, not content, checked by counting, not by matching a pattern.
RULE_SHORT = "Answer in at most two sentences; the user can always ask for more."
GOOD_SHORT = ["22 * 6.5 = 143.", "Alice's favourite language is Rust. She has used it since 2021.",
              "VelocityDB v1.0 is due on March 31!"]
BAD_SHORT = ["Rust. Go. Zig.", "The deadline is March 31. It may move. Ask the team on Friday?"]


def breaks_short_rule(reply: str) -> bool:
    """True when ``reply`` has more than two sentences (a decimal point such as 6.5 or v1.0 ends none)."""
    ends = re.findall(r"[.!?]+(?=\s|$)", reply.strip())  # a stop followed by a space or the end of the reply
    return len(ends) > 2


# Each design is the arguments of one call of check_persona_rule (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"07.3": [(RULE, breaks_rule, GOOD, BAD), (RULE_SHORT, breaks_short_rule, GOOD_SHORT, BAD_SHORT)]}


def fit_live_context(hits: Sequence[Hit], max_chars: int) -> str:
    # Hits come best first, so keeping a prefix drops the lowest-ranked ones; each try compiles whole entries.
    # The system message is not touched: it is the same bytes on every request.
    for keep in range(len(hits), -1, -1):
        context = AgentPersona.live_context(hits[:keep])
        if len(context) <= max_chars:
            return context
    raise ValueError(f"even the live context without memories is {len(context)} characters; the budget is {max_chars}")
