"""Claims in 00_welcome, each tied to the output or the package default that makes it true."""

import inspect

from default_search import names_the_default_search
from lesson_claims import Claim, Lesson
from request_model import QUESTIONS, check_request_model, recalled_ids, recorded_requests

from aria_kit.agent import AutonomousAgent
from aria_kit.bm25 import tokenize
from aria_kit.demo_data import DEMO_FACTS

LESSON = Lesson("00_welcome")
ENVIRONMENT = 'for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL")'
FIRST_AGENT = "agent = make_agent()"


def _order_fact_is_the_only_keyword_match() -> bool:
    holding = [i for i, (text, _) in enumerate(DEMO_FACTS) if {"order", "4821"} & set(tokenize(text))]
    assert holding == [6], f"facts holding 'order' or '4821': {holding}"
    return "[mem_0007]" in LESSON.output('agent.chat("What are the details of order 4821?")')


def _offline() -> bool:
    lines = LESSON.output(ENVIRONMENT).splitlines()
    assert lines == ["OPENAI_API_KEY: not set — running offline", "OPENAI_BASE_URL: not set — running offline"], lines
    return True


def _one_line_names_the_model() -> bool:
    lines = [line for line in LESSON.output(FIRST_AGENT).splitlines() if "gpt-4o-mini" in line or "model" in line]
    assert len(lines) == 1 and lines[0].startswith("No OPENAI_API_KEY set"), lines
    return True


def _diagram_matches_the_kit() -> bool:
    """The diagram (fenced, so no sentence of its own) names every tool of make_agent and the default fusion."""
    from aria_kit.demo import make_agent
    from aria_kit.fusion import DEFAULT_FUSION, ConvexFusion

    diagram = LESSON.cell(1).source.split("```text", 1)[1].split("```", 1)[0]
    missing = [name for name in make_agent().tools if name not in diagram]
    assert not missing, f"the diagram's tools box lacks {missing}"
    fused = next(line for line in diagram.splitlines() if "fused" in line)
    expected = "convex" if isinstance(DEFAULT_FUSION, ConvexFusion) else "RRF"
    assert expected in fused, f"the diagram says {fused.strip()!r}; the default fusion is {DEFAULT_FUSION!r}"
    return True


def _badge_turn() -> bool:
    """Quiz Q2: the offline agent's record of a turn that asks it to remember a fact."""
    from aria_kit.demo import make_agent, seed_memory

    agent = make_agent()
    seed_memory(agent.memory)
    agent.chat("Remember that my badge number is 7731.")
    steps = [(row[1], row[2]) for row in agent.last_turn.rows()]
    assert [step for step, _ in steps] == ["recall", "model", "tool", "model", "answer"], steps
    assert steps[1][1].endswith("calls memory_store") and steps[2][1].startswith("memory_store("), steps
    assert "mem_0008" not in steps[0][1], "recall listed the memory stored later in the turn"
    return True


THIRD_TURN = (*QUESTIONS[:2], "Who leads the infrastructure team?")


def _third_turn_request() -> bool:
    """Quiz Q4: the request of the third turn, in the order option b gives, with three recalled memories."""
    assert check_request_model(questions=THIRD_TURN)
    third = recorded_requests(questions=THIRD_TURN)[2]
    assert len(recalled_ids(third)) == 3, recalled_ids(third)
    assert [m["role"] for m in third[1:5]] == ["user", "assistant", "user", "assistant"], "two earlier turns"
    return True


def _tools() -> bool:
    from aria_kit.demo import make_agent

    agent = make_agent()
    assert len(agent.tools) == 5, sorted(agent.tools)
    return True


def _every_pin_is_checked() -> bool:
    from pathlib import Path

    pinned = [line.split("#")[0].split("==")[0].strip().lower()
              for line in (Path(__file__).resolve().parents[2] / "requirements.txt").read_text().splitlines()
              if "==" in line.split("#")[0]]
    shown = [line.split()[0] for line in LESSON.output('title="Runtime dependencies"').splitlines()[3:] if line.strip()]
    assert "snowballstemmer" in pinned and shown == pinned, (shown, pinned)
    return True


CLAIMS = [
    Claim("the list of every package the lessons need, imports each one", _every_pin_is_checked),
    # The default fusion, stated in the opening, the lesson table and quiz Q1's explanation (issue 20).
    Claim("Aria's memory search is the heart of the course",
          names_the_default_search(LESSON, "Aria's memory search is the heart of the course", stems=True)),
    Claim("your own hybrid memory", names_the_default_search(LESSON, "your own hybrid memory")),
    Claim("vector search finds paraphrases", names_the_default_search(LESSON, "vector search finds paraphrases")),
    Claim("Each box is one small module", _diagram_matches_the_kit),
    Claim("reads two environment variables", lambda: len(LESSON.output(ENVIRONMENT).splitlines()) == 2),
    Claim("stores the seven demo facts", lambda: "Stored 7 memories" in LESSON.output(FIRST_AGENT)),
    Claim("then print one line saying which model answers", _one_line_names_the_model),
    Claim("five tools and a hybrid memory", _tools),
    Claim("Everything runs offline by default", _offline),
    Claim("to see all seven facts", lambda: len(DEMO_FACTS) == 7),
    Claim("In section 3 the agent answered", _order_fact_is_the_only_keyword_match),
    Claim("'order' and '4821' occur in that fact and in no other", _order_fact_is_the_only_keyword_match),
    Claim("Which half of memory search is sure to rank that fact first?", _order_fact_is_the_only_keyword_match),
    Claim("reads all seven facts", lambda: len(DEMO_FACTS) == 7),
    Claim("so '4821' and '4812' look alike to it", lambda: _cosine("4821", "4812") > 0.99),
    Claim("badge number is 7731", _badge_turn),
    Claim("Aria recalls three memories for 'Who leads the infrastructure team?'",
          lambda: inspect.signature(AutonomousAgent).parameters["recall_k"].default == 3 and _third_turn_request()),
    Claim("then the three memories in a message of their own; then the new message", _third_turn_request),
    Claim("what stays the same comes first and what changes every turn comes last", _third_turn_request),
    Claim("so they go in a message of their own after the history", _third_turn_request),
]


def _cosine(a: str, b: str) -> float:
    from aria_kit.embeddings import default_embedder

    vectors = default_embedder().embed([a, b])
    return float(vectors[0] @ vectors[1])


EXEMPT = {
    "the lesson that builds each one": "'each one' is a pronoun, not a count",
    "| 0": "the lesson table: the digits are lesson numbers",
    "| 1": "the lesson table: the digits are lesson numbers",
    "Lessons 00–09 build the agent": "lesson numbers",
    "Then we ask one question.": "describes the next cell, which asks a single question",
    "and a wrong one tells you why it is wrong": "'a wrong one' is a pronoun, not a count",
    "with the three memories appended, as one system message": "a wrong option; the claim on option b shows the "
    "system message holds no recalled memory",
    "The three memories, then the new message": "a wrong option; the claim on option b shows the earlier turns are sent",
}
