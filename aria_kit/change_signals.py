"""How people say that a known fact changed (lesson 10): markers, change verbs, "no longer", "now".

``without_marker`` drops what a person puts in front of news ("Quick update: ", "Heads up, ", "FYI ",
"Sorry, I got that wrong: ", "Scratch that, ", "From now on, "), so the rest compares with stored facts.
``announces_change`` says whether a sentence reads as a change to something already known: a marker of
news, a change verb ("switched", "moved", "replaced", "pushed", "renamed" …), "no longer", "used to",
"anymore", "has been assigned", "got promoted"; and, in a fact a person asked to store, softer words
("now", "instead", "not", "isn't"). ``adds_to`` spots what adds a fact beside the old one ("also", "too",
"as well", "another"); ``content_words`` are what two facts must share to be about the same thing. Surface
rules written from the dev sets in ``data/write_conflicts`` (how people announce change, not their
sentences): they do not know that a barn near Frome is a wedding venue, and a model judges what they miss.
Each pattern is a bounded phrase matched at the start of the text, or a lookup of words: linear time.
"""

from __future__ import annotations

import re

from aria_kit.bm25 import STOPWORDS, stem, tokenize

_TIME = r"(?:today|tomorrow|now|this \w{1,12}|next \w{1,12}|monday|tuesday|wednesday|thursday|friday|the \w{1,12})"
NEWS = (r"(?:a |one |another |just an? )?(?:quick |small |big |little )?update"
        r"(?: (?:from|on|about) [^:,;.!?—–]{1,40})?"
        r"|heads[ -]up|fyi|just so you know|for (?:the record|your information)|correction|i got that wrong"
        r"|(?:sorry|oops)(?:,? i got that wrong)?|my (?:mistake|bad)|actually|scratch that|forget (?:what i said|that)"
        r"|never ?mind(?: what i said)?|nvm|ignore (?:that|what i said)"
        rf"|guess what|did i mention(?: that)?|as of {_TIME}|starting {_TIME}|from now on|going forward")
CHATTER = r"ok(?:ay)?(?: so)?|so|oh|lol|btw|by the way|these days|nowadays|lately|now"  # said in front of anything
MARKER = re.compile(rf"(?:(?P<news>{NEWS})|{CHATTER})(?![\w'])[\s,:;.!—–-]*", re.I)
MAX_MARKERS = 3  # "ok so, quick update: …": a few in a row, never a loop over the whole text
# Words that, anywhere in a statement, say its value replaces an earlier one (tokens as ``tokenize`` cuts them):
# change verbs and phrases firmly; "now", "not" and the like only in a fact a person asked to store.
CHANGE_VERBS = frozenset("""switched switch changed change moved move migrated replaced bumped pushed postponed
rescheduled renamed cancelled canceled upgraded downgraded promoted quit retired joined anymore longer""".split())
CHANGE_PHRASES = (("used", "to"), ("any", "more"), ("went", "up"), ("went", "down"), ("as", "of"),
                  ("from", "now"), ("going", "forward"), ("starting", "next"), ("down", "to"), ("up", "to"))
SOFT_WORDS = frozenset("now instead lately nowadays not isn aren wasn doesn don".split())
SOFT_PHRASES = (("these", "days"),)
CHANGE_WORDS = CHANGE_VERBS | SOFT_WORDS
HEDGES = frozenset("maybe perhaps probably thanks".split())  # "I'm not sure about the deadline" is no news
HEDGE_PHRASES = (("i", "think"), ("not", "sure"), ("i", "guess"), ("i", "wonder"), ("thank", "you"))
ADDING = frozenset("also too additionally another".split())
ADDING_PHRASES = (("as", "well"), ("in", "addition"))
# Words that carry the change, not the subject: two facts that share only these are not about one thing.
NOT_CONTENT = frozenset(stem(w) for w in CHANGE_WORDS | ADDING | set("""new update heads up fyi record correction
sorry wrong mistake actually scratch forget said mind nvm ignore ok okay lol btw guess mention know just
quick small big got get gets going forward starting since used went today week month year last next days day
please remember note thing things re ve ll""".split())) | STOPWORDS


PERSON_FIRST = re.compile(r"(?:she|he|they)\b", re.I)  # "She has switched to Go": who? No named subject
FROM_A = re.compile(r"\b(?:from|replaced) (?P<old>[^,;:.!?]{1,40}?) (?:to|with) ", re.I)


def old_value(text: str) -> str:
    """The A of "… from A to B" or "replaced A with B" (at most 40 characters), or "" when the text names none."""
    found = FROM_A.search(text)
    return "" if found is None or found.group("old").lower().startswith("now") else found.group("old")


def names_no_subject(text: str) -> bool:
    """Whether ``text`` (its marker aside) starts with a person's pronoun: a change about someone unnamed."""
    return PERSON_FIRST.match(without_marker(text)) is not None


def without_marker(text: str) -> str:
    """``text`` without the markers in front of it ("Quick update: the standup is at 9:30." → "the standup …")."""
    start = 0
    for _ in range(MAX_MARKERS):
        found = MARKER.match(text, start)
        if found is None or found.end() == start:
            break
        start = found.end()
    return text[start:] if text[start:].strip() else text


def _has_phrase(tokens: list[str], phrases: tuple[tuple[str, str], ...]) -> bool:
    return any(pair in phrases for pair in zip(tokens, tokens[1:]))


def adds_to(text: str) -> bool:
    """Whether ``text`` says it adds a fact beside the known ones ("we also adopted a cat", "German too")."""
    tokens = tokenize(text)
    return bool(ADDING.intersection(tokens)) or _has_phrase(tokens, ADDING_PHRASES)


def announces_change(text: str, firmly: bool = False) -> bool:
    """Whether ``text`` reads as news that replaces something known: a marker of news in front, a change verb or
    phrase in it, or (unless ``firmly``) a softer word such as "now" or "not". ``firmly`` is for a message
    nobody asked to store, where a hedge ("I think", "not sure", "thanks") also says it is no news."""
    tokens = tokenize(text)
    if firmly and (HEDGES.intersection(tokens) or _has_phrase(tokens, HEDGE_PHRASES)):
        return False
    if _news_marker(text) or CHANGE_VERBS.intersection(tokens) or _has_phrase(tokens, CHANGE_PHRASES):
        return True
    # "has been assigned", "got promoted", "got moved": something happened to the fact
    if any(a in ("been", "got", "gets") and b.endswith("ed") and len(b) > 4 for a, b in zip(tokens, tokens[1:])):
        return True
    return not firmly and (bool(SOFT_WORDS.intersection(tokens)) or _has_phrase(tokens, SOFT_PHRASES))


def _news_marker(text: str) -> bool:
    """Whether one of the markers in front of ``text`` announces news ("Heads up", not just "ok so")."""
    start = 0
    for _ in range(MAX_MARKERS):
        found = MARKER.match(text, start)
        if found is None or found.end() == start:
            return False
        if found.group("news"):
            return True
        start = found.end()
    return False


def content_words(text: str) -> set[str]:
    """The stems that say what ``text`` is about: no function words, markers or change words."""
    return {t for t in tokenize(text, stem=True) if t not in NOT_CONTENT and len(t) > 1}
