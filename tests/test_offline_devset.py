"""The offline stand-in against its development set (tests/offline_devset.py), and the pass rate by category.

Each case runs one turn of a real agent (HybridMemory with the set's twelve
memories, the four default tools, Aria's persona) and checks the first tool
asked for and the answer. Cases the stand-in is known to get wrong are strict
xfails that name what it cannot do. ``python tests/test_offline_devset.py``
prints the pass rate by category.
"""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from offline_devset import CASES, HELD_OUT, MEMORIES, Case  # noqa: E402

from aria_kit.agent import AutonomousAgent  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402
from aria_kit.offline import OfflineProvider  # noqa: E402
from aria_kit.persona import ARIA  # noqa: E402
from aria_kit.tools import default_tools  # noqa: E402

NO_ANSWER = re.compile(r"found nothing in memory|no answer from memory")


def run_case(case: Case) -> list[str]:
    """Run one turn; return what is wrong with it (empty: it passed)."""
    memory = HybridMemory()
    memory.store_many([t for t, _ in MEMORIES], [{"category": c} for _, c in MEMORIES])
    agent = AutonomousAgent(ARIA, OfflineProvider(), memory, default_tools(memory))
    answer = agent.chat(case.message)
    calls = [s.detail["call"] for s in agent.last_turn.steps if s.kind == "tool"]
    first = calls[0].name if calls else None
    if first != case.tool:
        return [f"asked for {first}, expected {case.tool}; answer: {answer!r}"]
    problems = []
    if case.tool == "calculator":
        number = re.search(r"= (-?[\d.e+-]+)( [a-z]+)?\.$", answer)
        if not number or not math.isclose(float(number.group(1)), case.value, rel_tol=1e-9):
            problems.append(f"answer {answer!r}, expected {case.value}")
        elif (number.group(2) or "").strip() != case.unit:
            problems.append(f"unit {number.group(2)!r}, expected {case.unit!r}")
    elif case.tool == "memory_store":
        record = memory.list_all()[-1]
        if (record.text, record.category) != (case.text, case.stored_category):
            problems.append(f"stored {(record.text, record.category)}, expected {(case.text, case.stored_category)}")
    elif case.tool == "memory_search":
        cited = set(re.findall(r"\[(mem_\d+)\]", answer))
        if cited != set(case.cites):
            problems.append(f"cited {sorted(cited)}, expected {sorted(case.cites)}: {answer!r}")
        elif not case.cites and not NO_ANSWER.search(answer):
            problems.append(f"expected a plain 'nothing in memory answers that', got {answer!r}")
    elif case.tool == "web_search":
        query = __import__("json").loads(calls[0].arguments)["query"]
        if query != case.query or not answer.startswith("From the (simulated) web"):
            problems.append(f"query {query!r}, expected {case.query!r}; answer {answer!r}")
    elif not answer or "[mem_" in answer:
        problems.append(f"expected a short reply without memories, got {answer!r}")
    return problems


@pytest.mark.parametrize("case", [pytest.param(c, id=f"{c.category}: {c.message}", marks=[
    pytest.mark.xfail(reason=c.fails, strict=True)] if c.fails else []) for c in CASES + HELD_OUT])
def test_offline_stand_in_on_its_development_set(case):
    assert run_case(case) == []


def test_the_development_set_covers_every_kind_of_message():
    counts = Counter(c.category for c in CASES)
    assert len(CASES) >= 80
    assert set(counts) == {"expression", "words", "percent", "power", "units", "rate", "remember", "recall",
                           "lookup", "small talk", "nonsense"}
    assert counts["rate"] >= 10


def pass_rates(cases: list[Case]) -> dict[str, tuple[int, int]]:
    """Category → (passed, total)."""
    rates: dict[str, list[int]] = {}
    for case in cases:
        passed, total = rates.setdefault(case.category, [0, 0])
        rates[case.category] = [passed + (not run_case(case)), total + 1]
    return {k: (v[0], v[1]) for k, v in rates.items()}


if __name__ == "__main__":
    for title, cases in (("development set", CASES), ("held-out set", HELD_OUT)):
        rates = pass_rates(cases)
        print(f"{title}: passed / total by category")
        for category, (passed, total) in rates.items():
            print(f"  {category:12} {passed:3} / {total:3}")
        passed, total = sum(p for p, _ in rates.values()), sum(t for _, t in rates.values())
        print(f"  {'all':12} {passed:3} / {total:3}  ({100 * passed / total:.0f}%)")
        for case in cases:
            for problem in run_case(case):
                print(f"  FAIL [{case.category}] {case.message!r}: {problem}")
