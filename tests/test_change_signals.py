"""How people announce that a fact changed (issue 29, item 5): the markers, words and phrases ``change_signals``
reads, and that it reads them in linear time. The sentences here are written for these tests, not taken from
the labelled sets; ``tests/test_write_conflicts.py`` checks what the check on write and the stand-in do with them.
"""

from __future__ import annotations

import time

import pytest

from aria_kit.change_signals import adds_to, announces_change, names_no_subject, old_value, without_marker


@pytest.mark.parametrize("said, rest", [
    ("Quick update: the offsite is in Madrid now.", "the offsite is in Madrid now."),
    ("Small update on the move: we're in Leeds.", "we're in Leeds."),
    ("Heads-up — the printer code is 4417.", "the printer code is 4417."),
    ("FYI, my dentist is Dr. Osei.", "my dentist is Dr. Osei."),
    ("Sorry, I got that wrong: the invoice is due on the 10th.", "the invoice is due on the 10th."),
    ("Scratch that, lunch is at one.", "lunch is at one."),
    ("ok so, quick update: the budget is 9k.", "the budget is 9k."),
    ("From now on, the standup is at ten.", "the standup is at ten."),
    ("Starting next week the gym opens at 7.", "the gym opens at 7."),
])
def test_a_marker_in_front_of_the_news_is_dropped(said, rest):
    assert without_marker(said) == rest


@pytest.mark.parametrize("fact", ["Sofia works at ASML.", "Ohio is far.", "Nowhere is open late.",
                                  "Updates ship Fridays.", "Actually."])
def test_a_word_that_only_starts_like_a_marker_is_kept(fact):
    assert without_marker(fact) == fact


@pytest.mark.parametrize("said", [
    "We switched CI from Jenkins to Buildkite.", "Priya no longer works at Google.",
    "The review has been pushed to May.",
    "Sam used to drive a Fiat.", "I'm not vegan anymore.", "The repo lives on Codeberg now.", "Heads up, lunch is at one.",
    "They renamed the channel to #ops.", "Our rent went up to 1,200."])
def test_change_verbs_phrases_and_markers_announce_a_change(said):
    assert announces_change(said)


@pytest.mark.parametrize("said", ["Dave likes tea.", "I live in New York.", "The printer code is 4417.",
                                  "Lena plays the violin."])
def test_a_plain_statement_announces_nothing(said):
    assert not announces_change(said)


def test_also_too_and_as_well_add_a_fact_beside_the_known_ones():
    assert all(map(adds_to, ["We also got a cat.", "Tom speaks German too.", "I use Vim as well."]))
    assert not adds_to("Tom speaks German now.")


def test_a_change_about_a_pronoun_names_no_subject_and_from_a_to_b_names_the_old_value():
    assert names_no_subject("Heads up: she has switched to Go.") and not names_no_subject("Shelly switched to Go.")
    assert old_value("We switched CI from Jenkins to Buildkite.") == "Jenkins"
    assert old_value("We replaced Jenkins with Buildkite.") == "Jenkins"
    assert old_value("From now on, call me Sasha.") == ""


N = 100_000
HOSTILE = ["quick update: " * (N // 14), "from " * (N // 5) + "to x", "heads up, " * (N // 10), " " * N + "now",
           "replaced " * (N // 9), "update on " + "x" * N, "new " * (N // 4)]


def test_each_reading_of_a_100_kb_hostile_message_stays_linear():
    start = time.process_time()
    for text in HOSTILE:
        without_marker(text), announces_change(text), adds_to(text), old_value(text), names_no_subject(text)
    assert time.process_time() - start < 3.0


def test_soft_signs_count_only_in_a_fact_someone_asked_to_store_and_a_hedge_is_no_news():
    assert announces_change("The wiki lives on Notion now.") and not announces_change("The wiki lives on Notion now.",
                                                                                        firmly=True)
    assert announces_change("Heads up, the wiki lives on Notion.", firmly=True)
    assert not announces_change("I think we switched the wiki to Notion.", firmly=True)
    assert not announces_change("Ok so the wiki lives on Notion.", firmly=True)  # chatter in front, not news
