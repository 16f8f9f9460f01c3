"""Lesson 00's stretch has no check (it is open), so its worked answer's account of what happens is tested here."""

from __future__ import annotations

from aria_kit.demo import make_agent, seed_memory
from aria_kit.exercises import show_solution
from aria_kit.solutions.lesson00 import PREDICTIONS, predict_then_ask


def test_the_worked_predictions_come_out_as_the_solution_says(capsys):
    agent = make_agent()
    seed_memory(agent.memory)
    rows = predict_then_ask(agent)
    assert [row[3] for row in rows] == [True, True, False] and rows[2][2] == "none"
    top = agent.memory.search("What did Alice buy?", top_k=3)
    assert top[0].id == "mem_0001" and "mem_0007" not in [hit.id for hit in top]
    assert (round(top[0].cosine, 3), round(top[0].bm25, 3)) == (0.462, 0.453)  # the figures its docstring quotes
    found = [step.detail["result"] for step in agent.last_turn.steps if step.kind == "tool"]  # "What did Alice buy?"
    assert len(found) == 1 and found[0].startswith("Found 5 memories"), found
    assert [line for line in found[0].splitlines() if '"id": "mem_' in line].index(  # "found, not quoted": fourth
        next(line for line in found[0].splitlines() if '"id": "mem_0007"' in line)) == 3, found[0]
    assert agent.memory.search("What did Alice order?", top_k=1)[0].id == "mem_0007"
    assert len(PREDICTIONS) == 3


def test_show_solution_prints_the_stretch_answer_with_its_account(capsys):
    show_solution("stretch 00")
    out = capsys.readouterr().out
    assert "def predict_then_ask" in out and "cosine 0.462" in out
