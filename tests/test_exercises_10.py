"""The exercise checks of lesson 10 pass the worked solutions and answer typical wrong answers with a hint.

Each wrong answer is a mistake a learner could make: following one link instead of
all of them, returning the record instead of its id, ignoring an unknown id;
calling every fact about the same subject a replacement, calling every different
text a replacement, forgetting that a repeat is no change; searching only current
memories for a past day, calling two versions (or none) current on a change day,
comparing superseded_at's hour with a day (so one change day goes one way and the
next the other), or ranking the past in an order of one's own.
"""

from __future__ import annotations

import pytest

from aria_kit.exercises import lesson10
from aria_kit.solutions.lesson10 import follow_to_current, replaces, search_as_of, search_as_of_by_walking
from aria_kit.write_conflicts import split_fact, words
from exercise_checks import assert_refused, check_tests, verdict

CHECKS = [(lesson10.check_follow_to_current, follow_to_current), (lesson10.check_replaces, replaces),
          (lesson10.check_search_as_of, search_as_of)]

test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


def _one_step(memory, memory_id):
    record = memory.get(memory_id)
    return record.superseded_by or record.id


def _returns_the_record(memory, memory_id):
    record = memory.get(memory_id)
    while record.superseded_by:
        record = memory.get(record.superseded_by)
    return record


def _ignores_unknown_ids(memory, memory_id):
    record = memory.get(memory_id)
    while record is not None and record.superseded_by:
        record = memory.get(record.superseded_by)
    return record.id if record is not None else memory_id


@pytest.mark.parametrize("wrong, says", [
    (_one_step, "keep following the links"), (_returns_the_record, "return the current version's id"),
    (_ignores_unknown_ids, "raise ValueError")])
def test_follow_to_current_answers_each_wrong_walk_with_its_hint(wrong, says, capsys):
    assert_refused(lesson10.check_follow_to_current(wrong), capsys, says)


def _same_subject(old, new):  # "same first word" is the naive subject test
    return words(old)[0] == words(new)[0] and old != new


def _any_difference(old, new):
    return words(old) != words(new)


def _forgets_filler(old, new):  # the kit's rule, but "now" / "these days" count as part of the value
    a, b = split_fact(old), split_fact(new)
    return bool(a and b and a[0] == b[0]) and words(old) != words(new)


@pytest.mark.parametrize("wrong, says", [
    (_same_subject, "holds many values at once"), (_any_difference, "holds many values at once"),
    (_forgets_filler, "is a repeat")])
def test_replaces_answers_each_wrong_rule_with_the_case_and_the_idea(wrong, says, capsys):
    assert_refused(lesson10.check_replaces(wrong), capsys, says)


def test_replaces_accepts_another_correct_design(capsys):
    cases = {(old, new): expected for old, new, expected, _ in lesson10.CASES}
    assert lesson10.check_replaces(lambda old, new: cases[(old, new)]) is True  # a lookup is a design too
    assert verdict(capsys) == "✓"


def _current_only(memory, query, day, top_k=3):
    return memory.search(query, top_k=top_k)


def _both_on_change_day(memory, query, day, top_k=3):  # both ends inclusive: two versions current on a change day
    kept = []
    for hit in memory.search(query, top_k=len(memory), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        started = before.superseded_at if before is not None else ""
        ended = memory.get(hit.id).superseded_at
        if started[:10] <= day and (ended is None or day <= ended[:10]):
            kept.append(hit)
    return kept[:top_k]


def _neither_on_change_day(memory, query, day, top_k=3):  # both ends exclusive: no version current on a change day
    kept = []
    for hit in memory.search(query, top_k=len(memory), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        started = before.superseded_at if before is not None else ""
        ended = memory.get(hit.id).superseded_at
        if started[:10] < day and (ended is None or day < ended[:10]):
            kept.append(hit)
    return kept[:top_k]


def _compares_the_hour(memory, query, day, top_k=3):  # superseded_at compared whole: "09:30" sorts after the day
    kept = []
    for hit in memory.search(query, top_k=len(memory), include_history=True):
        before = memory.get(hit.supersedes) if hit.supersedes else None
        started = before.superseded_at if before is not None else ""
        ended = memory.get(hit.id).superseded_at
        if started <= day and (ended is None or day < ended):
            kept.append(hit)
    return kept[:top_k]


def _own_order(memory, query, day, top_k=3):  # the right memories, newest first instead of best first
    return sorted(search_as_of(memory, query, day, top_k), key=lambda hit: hit.id, reverse=True)


def _writes_while_searching(memory, query, day, top_k=3):
    memory.store(f"Searched for {query} on {day}.")
    return search_as_of(memory, query, day, top_k)


@pytest.mark.parametrize("wrong, says", [(_current_only, "include_history=True sees only today"), (_both_on_change_day, "never both"),
                                         (_neither_on_change_day, "never neither"),
                                         (_compares_the_hour, "pick one rule for a change day"),
                                         (_own_order, "in the order search"),
                                         (_writes_while_searching, "a search only reads")])
def test_search_as_of_answers_each_wrong_answer_with_the_day_it_fails(wrong, says, capsys):
    assert_refused(lesson10.check_search_as_of(wrong), capsys, says)


@pytest.mark.parametrize("design, rule", [(search_as_of, "new"), (search_as_of_by_walking, "old")])
def test_search_as_of_accepts_either_design_and_says_which_rule_it_chose(design, rule, capsys):
    assert lesson10.check_search_as_of(design) is True
    assert f"a change day belongs to the {rule} version" in capsys.readouterr().out
