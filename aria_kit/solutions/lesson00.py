"""A worked answer to lesson 00's stretch task: predict what the agent will quote, then check.

The task is open: ask the finished agent questions of your own and, before each,
write down which memory you expect it to quote. This is one way to do it, and
what it shows. Run ``predict_then_ask(make_agent())`` after seeding the memory.
"""

from __future__ import annotations

import re

from aria_kit.agent import AutonomousAgent

# (question, the memory id we expect in the answer, why we expect it)
PREDICTIONS = [
    ("When is the VelocityDB deadline?", "mem_0005", "shares 'velocitydb' and 'deadline' with the deadline fact"),
    ("Which coding language does Alice like?", "mem_0001", "no shared keyword but 'language', and the meaning fits"),
    ("What did Alice buy?", "mem_0007", "nothing but 'alice' is shared; only the meaning points at the order"),
]


def predict_then_ask(agent: AutonomousAgent) -> list[tuple[str, str, str, bool]]:
    """Ask each question of ``PREDICTIONS``; return (question, expected id, ids quoted, whether it matched).

    Where a prediction fails, ``agent.last_turn`` shows the recall and the
    search results the answer came from: the place to look for why.
    """
    rows = []
    for question, expected, _why in PREDICTIONS:
        answer = agent.chat(question)
        quoted = re.findall(r"mem_\d{4}", answer)
        rows.append((question, expected, ", ".join(quoted) or "none", expected in quoted))
    return rows
