"""Claims in 00_welcome, each tied to the output or the package default that makes it true."""

from functools import partial

from default_search import names_the_default_search
from lesson_claims import Claim, Lesson, quiz_key_holds

from aria_kit.bm25 import tokenize
from aria_kit.demo_data import DEMO_FACTS

LESSON = Lesson("00_welcome")
ENVIRONMENT = 'for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL")'
FIRST_AGENT = "agent = make_agent()"


TICKET, TICKET_QUESTION = "Ticket OPS-2207 waits on a disk quota.", "What do you know about ticket 2207?"


_key_holds = partial(quiz_key_holds, "00")  # Q{number}'s computed key is its answer


def _ticket_is_the_only_match() -> bool:
    """Quiz Q1: '2207' is a token of the ticket alone, '4821' of the order alone; two shared words."""
    holding = [text for text, _ in DEMO_FACTS if "2207" in tokenize(text)]
    assert holding == [] and "2207" in tokenize(TICKET) and "4821" not in tokenize(TICKET), holding
    assert set(tokenize(TICKET)) & set(tokenize(TICKET_QUESTION)) == {"ticket", "2207"}
    return _key_holds(1)


def _base_url_alone_is_enough() -> bool:
    """Quiz Q4: either variable leaves offline mode, and make_agent() prints one line."""
    import contextlib
    import io
    import os
    from unittest import mock

    from aria_kit.demo import make_agent

    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["OPENAI_BASE_URL"] = "http://127.0.0.1:9000/v1"
    out = io.StringIO()
    with mock.patch.dict(os.environ, env, clear=True), contextlib.redirect_stdout(out):
        make_agent()
    assert out.getvalue().count("\n") == 1 and "127.0.0.1:9000" in out.getvalue(), out.getvalue()
    return _key_holds(4) and len(_variable_lines()) == 2


def _variable_lines() -> list[str]:
    return [line for line in LESSON.output(ENVIRONMENT).splitlines() if line.startswith("OPENAI_")]


def _offline() -> bool:
    lines = LESSON.output(ENVIRONMENT).splitlines()
    assert lines == ["OPENAI_API_KEY: not set", "OPENAI_BASE_URL: not set", "Neither is set: the agent runs offline."], lines
    return True


def _two_variables_choose_the_model() -> bool:
    """Section 2: the kit's choice of model turns on OPENAI_API_KEY and OPENAI_BASE_URL, and on nothing else
    (OPENAI_MODEL alone leaves it offline); the cell shows those two."""
    import itertools
    import os
    from unittest import mock

    from aria_kit.offline import OfflineProvider
    from aria_kit.openai_provider import default_provider

    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    for key, url, model in itertools.product([None, "sk-test"], [None, "http://127.0.0.1:9000/v1"], [None, "m"]):
        env = dict(base, **{name: value for name, value in [("OPENAI_API_KEY", key), ("OPENAI_BASE_URL", url),
                                                              ("OPENAI_MODEL", model)] if value})
        with mock.patch.dict(os.environ, env, clear=True):
            offline = isinstance(default_provider(verbose=False), OfflineProvider)
        assert offline == (key is None and url is None), (key, url, model)
    assert [line.split(":")[0] for line in _variable_lines()] == ["OPENAI_API_KEY", "OPENAI_BASE_URL"], _variable_lines()
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


def _tools() -> bool:
    from aria_kit.demo import make_agent

    from aria_kit.interfaces import LLMProvider, MemoryBackend, Tool

    agent = make_agent()
    assert len(agent.tools) == 5, sorted(agent.tools)
    # "the last three sit behind interfaces": the model, the tools and the memory are lesson 01's contracts
    assert isinstance(agent.llm, LLMProvider) and isinstance(agent.memory, MemoryBackend)
    assert all(isinstance(tool, Tool) for tool in agent.tools.values()), agent.tools
    return True


def _every_pin_is_checked() -> bool:
    from pathlib import Path

    pinned = [line.split("#")[0].split("==")[0].strip().lower()
              for line in (Path(__file__).resolve().parents[2] / "requirements.txt").read_text().splitlines()
              if "==" in line.split("#")[0]]
    shown = []  # the two tables' first column, each table's title, header and rule line skipped
    for table in LESSON.output('title="Runtime dependencies').split("Runtime dependencies")[1:]:
        shown += [line.split()[0] for line in table.splitlines()[3:] if line.strip()]
    assert "snowballstemmer" in pinned and sorted(shown) == sorted(pinned) and len(shown) == len(pinned), (shown, pinned)
    return True


def _fifteen_lessons() -> bool:
    """The lesson tables list 15 notebooks, numbered 00 to 14 without a gap, and notebooks/ holds exactly those."""
    import re

    rows = [line for line in LESSON.cell(1).source.splitlines() if line.startswith("| `")]
    listed = [re.match(r"\| `(\d\d)_", row).group(1) for row in rows]
    assert listed == [f"{n:02d}" for n in range(15)], listed
    present = sorted(path.stem[:2] for path in LESSON.path.parent.glob("*.ipynb"))
    assert present == listed, f"notebooks/ holds lessons {present}, the tables list {listed}"
    return True


CLAIMS = [
    Claim("imports every package that", _every_pin_is_checked),
    Claim("The course has 15 lessons, 00–14", _fifteen_lessons),
    # The default fusion, stated in the opening and quiz Q1's explanation.
    Claim("Aria's memory search is the heart of the course",
          names_the_default_search(LESSON, "Aria's memory search is the heart of the course", stems=True)),
    Claim("vector search finds paraphrases", names_the_default_search(LESSON, "vector search finds paraphrases")),
    Claim("Each box is a module of", _diagram_matches_the_kit),
    Claim("Two environment variables choose the model", _two_variables_choose_the_model),
    Claim("stores the seven demo facts", lambda: "Stored 7 memories" in LESSON.output(FIRST_AGENT)),
    Claim("then prints one line saying which model answers", _one_line_names_the_model),
    Claim("five tools and a hybrid memory", _tools),
    Claim("Offline by default", _offline),
    Claim("shows all seven facts", lambda: len(DEMO_FACTS) == 7),
    Claim("After section 3, you store 'Ticket OPS-2207 waits on a disk quota.'", _ticket_is_the_only_match),
    Claim("BM25 matches '2207' as a whole token, and only the ticket holds it", _ticket_is_the_only_match),
    Claim("the ticket shares two words with the question", _ticket_is_the_only_match),
    Claim("badge number is 7731", _badge_turn),
    Claim("On your own computer you run a model server at http://127.0.0.1:9000/v1", _base_url_alone_is_enough),
    Claim("the kit leaves offline mode when OPENAI_API_KEY or OPENAI_BASE_URL is set", _base_url_alone_is_enough),
    Claim("a key is only one of the two variables", _base_url_alone_is_enough),
    Claim("the kit builds the client without a key for a base URL", _base_url_alone_is_enough),
]


EXEMPT = {
    "the lesson that builds each one": "'each one' is a pronoun, not a count",
    "one change at a time, ablation": "the name of a method (lesson 14), not a count",
    "in any order after 09": "a lesson number",
    "and a wrong one says why": "'a wrong one' is a pronoun, not a count",
    "to the search one four-digit number looks much like another": "a wrong option; the computed key rules it out",
}
