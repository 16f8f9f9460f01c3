"""The request-model check the lessons' claims use passes the agent as built and fails on the older designs."""

from __future__ import annotations

import copy

import pytest

from aria_kit.persona import ARIA
from request_model import QUESTIONS, check_request_model, check_requests, live_context_at, recorded_requests


def test_the_agent_sends_the_request_model_the_lessons_teach():
    assert check_request_model()


def _memories_in_the_system_message(requests):
    for messages in requests:
        at = live_context_at(messages)
        messages[0]["content"] += "\n\n" + messages.pop(at)["content"]
    return requests


def _live_context_before_the_history(requests):
    for messages in requests:
        messages.insert(1, messages.pop(live_context_at(messages)))
    return requests


def _a_changed_system_message(requests):
    requests[1][0]["content"] = requests[1][0]["content"].replace("Be concise.", "Be brief.")
    return requests


@pytest.mark.parametrize("older_design", [_memories_in_the_system_message, _live_context_before_the_history,
                                          _a_changed_system_message])
def test_the_check_fails_on_a_request_built_another_way(older_design):
    requests = older_design(copy.deepcopy(recorded_requests()))
    with pytest.raises(AssertionError):
        check_requests(requests, ARIA, QUESTIONS)
