import dataclasses
import difflib

from aria_kit.interfaces import Hit
from aria_kit.persona import ARIA, BEHAVIOUR_RULES


def test_instructions_are_deterministic_and_name_the_persona():
    assert ARIA.instructions() == ARIA.instructions()
    prompt = ARIA.instructions()
    assert prompt.startswith("You are Aria, a precise research assistant.")
    for trait in ARIA.traits:
        assert trait in prompt
    for goal in ARIA.goals:
        assert f"- {goal}" in prompt
    for rule in BEHAVIOUR_RULES:
        assert rule in prompt
    assert 'Never say: "I cannot", "As an AI language model".' in prompt


def test_live_context_lists_recalled_memories_with_ids():
    hit = Hit("mem_0007", "Order #4821 was placed by Alice.", {"category": "order"}, 0.03, 0.5, 2.0)
    prompt = ARIA.live_context([hit])
    assert '{"id": "mem_0007", "category": "order", "text": "Order #4821 was placed by Alice."}' in prompt.splitlines()
    assert "(no memories recalled)" not in prompt
    assert "(no memories recalled)" in ARIA.live_context([])


def test_changing_a_trait_changes_exactly_one_line():
    playful = dataclasses.replace(ARIA, traits=("methodical", "playful", "transparent about uncertainty", "concise"))
    diff = [line for line in difflib.unified_diff(ARIA.instructions().splitlines(), playful.instructions().splitlines(), lineterm="")
            if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert diff == [
        "-Traits: methodical; curious; transparent about uncertainty; concise.",
        "+Traits: methodical; playful; transparent about uncertainty; concise.",
    ]
