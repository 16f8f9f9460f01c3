"""conversation_search's speaker and days filters: exact at any log size, days as instants (issue 30, 1 and 7)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from test_conversation_log import NOW, Clock

from aria_kit.conversation_log import ConversationLog
from aria_kit.embeddings import default_embedder
from aria_kit.hybrid_memory import HybridMemory

INDIA = timezone(timedelta(hours=5, minutes=30))
CATS = [f"Cats sleep about {hours} hours a day; cats nap, cats purr, cats hunt at dusk." for hours in range(60)]


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def filtered_by_hand(log: ConversationLog, query: str, top_k: int, role: str | None, since: datetime | None) -> list:
    """The reference: rank every message, then filter, then cut (what "exact" means)."""
    every = log.memory.search(query, top_k=len(log.memory))
    kept = [h for h in every if (role is None or h.metadata["role"] == role)
            and (since is None or datetime.fromisoformat(h.metadata["at"]) >= since)]
    return [h.id for h in kept[:top_k]]


def test_speaker_user_finds_the_two_user_messages_below_sixty_assistant_replies_about_cats(embedder) -> None:
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=Clock(NOW))
    for reply in CATS:
        log.record(" ", reply)  # a blank user side is not stored: 60 assistant replies
    log.record("My dog Rex chews the sofa.", " ")
    log.record("The garden fence needs paint.", " ")
    hits = log.search("cats", top_k=3, role="user")
    assert sorted(h.text for h in hits) == ["My dog Rex chews the sofa.", "The garden fence needs paint."]
    assert [h.id for h in hits] == filtered_by_hand(log, "cats", 3, "user", None)
    found = log.search_tool().run("cats", top_k=3, speaker="user")
    assert found.startswith("Found 2 user messages") and "Rex" in found


def test_days_1_finds_todays_message_below_sixty_older_replies_about_cats(embedder) -> None:
    clock = Clock(NOW - timedelta(days=10))
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=clock)
    for reply in CATS:
        log.record("Tell me about cats.", reply)
    clock.at = NOW
    log.record("The garden fence needs paint.", " ")
    hits = log.search("cats", top_k=3, days=1)
    assert [h.text for h in hits] == ["The garden fence needs paint."]
    assert [h.id for h in hits] == filtered_by_hand(log, "cats", 3, None, NOW - timedelta(days=1))


def test_days_past_what_the_calendar_reaches_means_every_message(embedder) -> None:
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=Clock(NOW))
    log.record("I adopted a cat called Tom.", "Congratulations on Tom!")
    answer = log.search_tool().run("cat", top_k=3, days=999_999_999)
    assert answer.startswith("Found 2 messages of the last 999999999 days") and "Tom" in answer


def test_a_day_is_24_hours_whatever_the_utc_offset_the_message_was_written_with(embedder) -> None:
    clock = Clock(datetime(2026, 12, 1, 15, 30, tzinfo=INDIA))  # 10:00 UTC
    log = ConversationLog(HybridMemory(embedder), session="s1", clock=clock)
    log.record("Old: the cat is at the vet.", " ")
    clock.at = datetime(2026, 12, 2, 10, 0, tzinfo=INDIA)  # 04:30 UTC the next day
    log.record("New: the cat is back home.", " ")
    clock.at = datetime(2026, 12, 2, 11, 30, tzinfo=timezone.utc)  # 25.5 h after the first, 7 h after the second
    assert [h.text for h in log.search("cat", top_k=5, days=1)] == ["New: the cat is back home."]
