"""Lesson 01's checks pass the worked solutions, and answer typical wrong memories with the failing case.

Each wrong answer is a mistake a learner could really make (a reused id, the toy's tie rule,
an aliased list, a delete that raises, …); a check that stopped checking one of them would
turn its test red. A memory built another way (a dict, not a list) passes: the check tests
behaviour, not the shape of the code. The last test runs the lesson with the solutions in place.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from exercise_checks import assert_refused, check_tests, unwritten
from solved_lessons import run_solved

from aria_kit.exercises import lesson01
from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord
from aria_kit.solutions import lesson01 as s01


class _Unwritten(MemoryBackend):
    """The lesson-01 stub as the notebook gives it: every method still raises NotImplementedError."""

    def store(self, text, metadata=None):
        raise NotImplementedError

    def search(self, query, top_k=3):
        raise NotImplementedError

    def list_all(self):
        raise NotImplementedError

    def delete(self, memory_id):
        raise NotImplementedError


CHECKS = [
    (lesson01.check_memory_backend, s01.MyMemory, _Unwritten),
    (lesson01.check_bounded_memory, s01.BoundedMemory, unwritten),
]
test_every_check_accepts_the_worked_solution, test_an_untouched_stub_reads_as_not_done_yet = check_tests(CHECKS)


class _DictMemory(MemoryBackend):
    """Another correct design: a dict keyed by id, ranked with a (shared words, -age) key."""

    def __init__(self):
        self.by_id, self.count = {}, 0

    def store(self, text, metadata=None):
        self.count += 1
        memory_id = f"mem_{self.count:04d}"
        self.by_id[memory_id] = MemoryRecord(memory_id, text, {"category": "general"} | dict(metadata or {}))
        return memory_id

    def search(self, query, top_k=3):
        shared = {i: len(s01.words(query) & s01.words(r.text)) for i, r in self.by_id.items()}
        order = sorted((i for i in shared if shared[i]), key=lambda i: (-shared[i], -int(i[4:])))[:top_k]
        return [Hit(i, self.by_id[i].text, self.by_id[i].metadata, 1 / (60 + r), 0.0, 0.0)
                for r, i in enumerate(order, 1)]

    def list_all(self):
        return list(self.by_id.values())

    def delete(self, memory_id):
        return self.by_id.pop(memory_id, None) is not None


def test_a_memory_built_another_way_passes(capsys):
    assert lesson01.check_memory_backend(_DictMemory) is True


class _ReusesIds(s01.MyMemory):
    def store(self, text, metadata=None):
        self.next_number = len(self.records) + 1  # the lesson's toy did this: an id comes back after a delete
        return super().store(text, metadata)


class _OldestFirstOnTies(s01.MyMemory):
    def search(self, query, top_k=3):
        scored = [(len(s01.words(query) & s01.words(r.text)), r) for r in self.records]
        scored = sorted([p for p in scored if p[0] > 0], key=lambda p: -p[0])
        return [Hit(r.id, r.text, r.metadata, 1 / (60 + rank), 0.0, 0.0)
                for rank, (_, r) in enumerate(scored[:top_k], start=1)]


class _SharedWordsAsScore(s01.MyMemory):
    def search(self, query, top_k=3):
        return [dataclasses.replace(h, score=float(len(s01.words(query) & s01.words(h.text))))
                for h in super().search(query, top_k)]


class _ListAllAliases(s01.MyMemory):
    def list_all(self):
        return self.records


class _DeleteRaises(s01.MyMemory):
    def delete(self, memory_id):
        index = [r.id for r in self.records].index(memory_id)  # ValueError for an unknown id
        del self.records[index]
        return True


class _NoDefaultCategory(s01.MyMemory):
    def store(self, text, metadata=None):
        record = MemoryRecord(f"mem_{self.next_number:04d}", text, metadata or {})
        self.next_number += 1
        self.records.append(record)
        return record.id


class _IgnoresTopK(s01.MyMemory):
    def search(self, query, top_k=3):
        return super().search(query, top_k=100)


class _ListAllByText(s01.MyMemory):
    def list_all(self):
        return sorted(self.records, key=lambda r: r.text)  # oldest first only while texts happen to sort that way


class _Abstract(MemoryBackend):
    def store(self, text, metadata=None):
        return "mem_0001"


class _KeepsNoCapacity(s01.BoundedMemory):
    def store(self, text, metadata=None):
        return self.inner.store(text, metadata)  # forgot to forget


class _ForgetsNewest(s01.BoundedMemory):
    def store(self, text, metadata=None):
        new_id = self.inner.store(text, metadata)
        records = self.inner.list_all()
        for record in records[self.capacity:]:
            self.inner.delete(record.id)
        return new_id


class _NoCapacityCheck(s01.BoundedMemory):
    def __init__(self, inner, capacity):
        self.inner, self.capacity = inner, capacity


WRONG = [
    (lesson01.check_memory_backend, _ReusesIds, "never be reused"),
    (lesson01.check_memory_backend, _OldestFirstOnTies, "newest first on a tie"),
    (lesson01.check_memory_backend, _SharedWordsAsScore, "1/(60 + r)"),
    (lesson01.check_memory_backend, _ListAllAliases, "return a copy"),
    (lesson01.check_memory_backend, _DeleteRaises, "your code raised ValueError"),
    (lesson01.check_memory_backend, _NoDefaultCategory, "'category': 'general'"),
    (lesson01.check_memory_backend, _IgnoresTopK, "at most top_k"),
    (lesson01.check_memory_backend, _Abstract, "lacks delete, list_all, search"),
    (lesson01.check_memory_backend, _ListAllByText, "list_all gives"),
    (lesson01.check_bounded_memory, _KeepsNoCapacity, "three newest should remain"),
    (lesson01.check_bounded_memory, _ForgetsNewest, "three newest should remain"),
    (lesson01.check_bounded_memory, _NoCapacityCheck, "should raise ValueError"),
]


@pytest.mark.parametrize(("check", "wrong", "hint"), WRONG, ids=[w.__name__ for _, w, _ in WRONG])
def test_a_typical_wrong_answer_fails_with_a_hint(check, wrong, hint, capsys):
    assert_refused(check(wrong), capsys, hint)


def test_the_stretch_checks_inner_memory_never_reuses_ids_and_ranks_by_shared_words():
    inner = lesson01._ListMemory()
    ids = [inner.store(t) for t in ("a b", "b c")]
    assert inner.delete(ids[0]) and inner.store("c d") == "mem_0003"
    assert [h.id for h in inner.search("c")] == ["mem_0002", "mem_0003"]


def test_with_the_solutions_in_place_every_check_passes_and_the_agent_uses_the_learners_memory():
    text = run_solved("01_interfaces", {"MyMemory": "from aria_kit.solutions.lesson01 import MyMemory",
                                        "BoundedMemory": "from aria_kit.solutions.lesson01 import BoundedMemory"})
    verdicts = re.findall(r"^([✓✗○]) (?:Exercise|Stretch)", text, flags=re.M)
    assert verdicts and set(verdicts) == {"✓"}, f"check verdicts with the solutions in place: {verdicts}"
    assert "not done yet" not in text and "Finish Exercise" not in text
