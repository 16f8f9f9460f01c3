"""Lesson 10's rule-built set of changing facts, its recall measure, the fact timeline, and the exercises."""

from __future__ import annotations

from collections import Counter

import pytest

from aria_kit.changing_facts import (ATTRIBUTES, PEOPLE, PHRASINGS, Question, build_changing_facts, classify_changes,
                                     evaluate, ingest, summarize)
from aria_kit.charts import plot_fact_timeline, timeline_rows
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import MemoryRecord
from aria_kit.solutions.lesson10 import search_as_of
from aria_kit.demo_data import seed_memory


def test_the_set_follows_its_rules_one_question_per_person_and_attribute() -> None:
    versions, questions = build_changing_facts()
    assert len(questions) == len(PEOPLE) * len(ATTRIBUTES)
    per_pair = Counter((v.person, v.attribute) for v in versions)
    assert sorted(Counter(per_pair.values()).items()) == [(1, 10), (2, 10), (3, 10)]
    assert Counter(v.phrasing for v in versions if v.number) == {p: 5 for p in PHRASINGS}
    for question in questions:
        told = [v.value for v in versions if (v.person, v.attribute) == (question.person, question.attribute)]
        assert (question.current, question.stale) == (told[-1], tuple(told[:-1]))
    assert [v.day for v in versions] == sorted(v.day for v in versions)
    assert build_changing_facts() == (versions, questions)  # deterministic


def test_superseding_puts_every_current_fact_first_and_append_only_does_not() -> None:
    versions, questions = build_changing_facts()
    updates = [q for q in questions if q.is_update]
    scores = {}
    for how in ("append_only", "superseding"):
        memory = HybridMemory()
        ingest(memory, versions, how)
        assert len(memory) == len(versions)
        scores[how] = summarize(evaluate(memory, updates, k=3), k=3)
    assert scores["superseding"] == {"questions": 20, "recall@1": 1.0, "recall@3": 1.0, "stale in top 3": 0.0}
    assert scores["append_only"]["recall@1"] < 0.5 and scores["append_only"]["stale in top 3"] > 0.5


def test_evidence_is_judged_from_the_text_naming_person_and_value() -> None:
    memory = HybridMemory()
    memory.store_many(["Alice's home city is Oslo.", "Bob's home city is Lisbon.", "Alice's home city is Lisbon."])
    question = Question("Where does Alice live?", "Alice", "city", "Lisbon", ("Oslo",))
    (outcome,) = evaluate(memory, [question], k=3)
    assert outcome.current_rank is not None and outcome.stale_recalled
    memory.supersede("mem_0001", "Alice no longer lives in Oslo.")
    assert evaluate(memory, [question], k=3)[0].stale_recalled is True  # mentions Oslo, not Lisbon: still stale


def test_offline_agent_applies_what_its_rules_recognise_and_nothing_it_does_not() -> None:
    versions, _ = build_changing_facts()
    memory = HybridMemory()
    ingest(memory, versions, "offline_agent")
    verdicts = Counter((v.phrasing, verdict) for v, verdict in classify_changes(memory, versions))
    for phrasing in ("from-to", "is-now"):  # the stand-in's change rules
        assert verdicts[(phrasing, "the right fact")] == 5
    for phrasing in ("plain", "these-days"):  # memory_store's conflict check on write, followed by rule
        assert verdicts[(phrasing, "the right fact")] == 5
    assert verdicts[("pronoun", "not superseded")] == 5  # "she has switched to Go" names no subject: stored as new


def test_unknown_ingest_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match="append_only"):
        ingest(HybridMemory(), build_changing_facts()[0], "overwrite")


def test_timeline_rows_run_each_version_from_its_predecessors_end_to_its_own() -> None:
    versions = [MemoryRecord("mem_0001", "Rust", {}, "mem_0008", "2026-03-02"),
                MemoryRecord("mem_0008", "Go", {}, "mem_0009", "2026-06-15", "mem_0001"),
                MemoryRecord("mem_0009", "Zig", {}, supersedes="mem_0008")]
    assert timeline_rows(versions, "2026-01-05", "2026-09-01") == [
        ("mem_0001", "Rust", "2026-01-05", "2026-03-02"), ("mem_0008", "Go", "2026-03-02", "2026-06-15"),
        ("mem_0009", "Zig", "2026-06-15", "2026-09-01")]
    figure = plot_fact_timeline(versions, "2026-01-05", "2026-09-01", "three versions")
    assert figure.axes[0].get_title() == "three versions" and figure.axes[0].get_xlabel()


def test_stretch_answer_searches_what_was_current_on_a_day() -> None:
    memory = HybridMemory()
    seed_memory(memory)
    go = memory.supersede("mem_0001", "Alice's favourite programming language is Go.", at="2026-03-01")
    zig = memory.supersede(go, "Alice's favourite programming language is Zig.", at="2026-06-01")
    query = "Alice's favourite programming language"
    assert [search_as_of(memory, query, day, 1)[0].id for day in ("2026-02-01", "2026-04-01", "2026-07-01")] == [
        "mem_0001", go, zig]
