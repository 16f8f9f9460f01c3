"""A labelled set of facts that change, and answer-evidence recall on it (lesson 10).

No shipped conversational data set has knowledge-update questions yet, so this
module builds one **by rule**, with nothing picked by hand: six people, five
attributes, and for the pair number ``i`` (in a fixed order) ``1 + i % 3``
versions of the fact, each value taken in turn from that attribute's list.
Every version after the first is *said* in a conversation, in one of six
phrasings used in rotation: three the offline stand-in's change rules recognise
("… has switched to X", "… moved from A to B", "… is now X"), two that only
``memory_store``'s conflict check on write catches (the new fact stated plainly,
"… these days"), and one neither does ("she/he has switched to X").
Each pair gets one question ("What is Alice's favourite programming language?")
whose answer evidence is a memory naming the person and the *current* value;
a memory naming the person and an older value only is *stale* evidence.

``ingest`` fills a memory in one of three ways — ``append_only`` (every version
stored as a new memory: the "before"), ``superseding`` (every later version
supersedes the one before it: the ideal "after") or ``offline_agent`` (the
utterances go through the offline agent, which supersedes what its rules and
the conflict check on write recognise: the realistic "after") — and ``evaluate`` reports, per question, the
rank of the first current evidence and whether stale evidence came back in
the top k. Evidence is judged from the texts, so all three memories are scored
by the same rule. Everything here is deterministic; nothing is timed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aria_kit.bm25 import tokenize
from aria_kit.interfaces import MemoryBackend

PEOPLE = ("Alice", "Bruno", "Chiara", "Dmitri", "Esi", "Farid")
PRONOUN = {"Alice": "She", "Bruno": "He", "Chiara": "She", "Dmitri": "He", "Esi": "She", "Farid": "He"}
# attribute -> (fact template, question template, values); every value is a word no other text uses
ATTRIBUTES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "language": ("{p}'s favourite programming language is {v}.", "What is {p}'s favourite programming language?",
                 ("Rust", "Go", "Zig", "Kotlin", "Haskell", "Elixir", "OCaml")),
    "city": ("{p}'s home city is {v}.", "Where does {p} live?",
             ("Lisbon", "Oslo", "Nairobi", "Kyoto", "Denver", "Tallinn", "Porto")),
    "editor": ("{p}'s code editor is {v}.", "Which code editor does {p} use?",
               ("Vim", "Emacs", "Helix", "Zed", "Kakoune", "Sublime", "Nano")),
    "team": ("{p}'s team is the {v} team.", "Which team does {p} work in?",
             ("storage", "platform", "billing", "search", "security", "payments", "mobile")),
    "database": ("The database of {p}'s project is {v}.", "Which database does {p}'s project use?",
                 ("PostgreSQL", "SQLite", "DuckDB", "Cassandra", "Redis", "MariaDB", "ClickHouse")),
}
PHRASINGS = ("switched", "from-to", "is-now", "plain", "pronoun", "these-days")
RECOGNISED = {"switched", "from-to", "is-now"}  # what offline_updates.py has rules for
CAUGHT_ON_WRITE = {"plain", "these-days"}  # what write_conflicts.py flags when the fact is stored


@dataclass(frozen=True)
class Version:
    """One version of one person's attribute: its value, the fact as a sentence, and how the change was said."""

    person: str
    attribute: str
    number: int  # 0 = the first time the fact is told
    value: str
    fact: str
    utterance: str  # what the user says in the conversation
    phrasing: str  # "first" for version 0, else one of PHRASINGS
    day: int  # the day of the conversation, counted from 0


@dataclass(frozen=True)
class Question:
    """A question about one person's attribute, with the current and the stale values."""

    text: str
    person: str
    attribute: str
    current: str
    stale: tuple[str, ...]

    @property
    def is_update(self) -> bool:
        """True when the fact changed at least once: a knowledge-update question."""
        return bool(self.stale)


def _utterance(phrasing: str, person: str, template: str, old: str, new: str) -> str:
    fact = template.format(p=person, v=new)
    if phrasing == "switched":
        return f"{person} has switched to {new}."
    if phrasing == "from-to":
        return f"{person} moved from {old} to {new}."
    if phrasing == "is-now":
        return fact.replace(" is ", " is now ", 1)
    if phrasing == "plain":
        return fact
    if phrasing == "pronoun":
        return f"{PRONOUN[person]} has switched to {new}."
    return fact.rstrip(".") + " these days."


def _lower_first(text: str) -> str:
    return text if text.startswith(PEOPLE) else text[:1].lower() + text[1:]


def build_changing_facts() -> tuple[list[Version], list[Question]]:
    """The versions in the order they are told (day by day) and one question per person and attribute."""
    versions, questions, changes = [], [], 0
    for i, (person, attribute) in enumerate((p, a) for p in PEOPLE for a in ATTRIBUTES):
        template, question, values = ATTRIBUTES[attribute]
        chosen = [values[(i + j) % len(values)] for j in range(1 + i % 3)]
        for number, value in enumerate(chosen):
            phrasing = "first" if number == 0 else PHRASINGS[changes % len(PHRASINGS)]
            changes += number > 0
            said = template.format(p=person, v=value) if number == 0 else "Note that " + _lower_first(_utterance(
                phrasing, person, template, chosen[number - 1], value))
            versions.append(Version(person, attribute, number, value, template.format(p=person, v=value), said,
                                    phrasing, day=10 * number + i % 10))
        questions.append(Question(question.format(p=person), person, attribute, chosen[-1], tuple(chosen[:-1])))
    return sorted(versions, key=lambda v: (v.day, v.number)), questions


def ingest(memory: MemoryBackend, versions: Sequence[Version], how: str) -> None:
    """Fill ``memory``: "append_only", "superseding" or "offline_agent" (see the module docstring)."""
    if how == "offline_agent":
        from aria_kit.demo import make_agent  # lesson 10 builds on the capstone; imported only for this mode
        from aria_kit.offline import OfflineProvider

        agent = make_agent(memory=memory, llm=OfflineProvider(), verbose=False)
        for version in versions:
            if version.number == 0:
                memory.store(version.fact, {"category": version.attribute})
            else:
                agent.chat(version.utterance)
        return
    latest: dict[tuple[str, str], str] = {}
    for version in versions:
        key, at = (version.person, version.attribute), f"2026-01-{1 + version.day:02d}"
        if how == "superseding" and key in latest:
            latest[key] = memory.supersede(latest[key], version.fact, at=at)
        elif how in ("append_only", "superseding"):
            latest[key] = memory.store(version.fact, {"category": version.attribute})
        else:
            raise ValueError(f"how must be 'append_only', 'superseding' or 'offline_agent', not {how!r}")


def _mentions(text: str, person: str, value: str) -> bool:
    words = set(tokenize(text))
    return set(tokenize(person)) <= words and set(tokenize(value)) <= words


@dataclass(frozen=True)
class Outcome:
    """Where the current evidence ranked for one question, and whether stale evidence was recalled."""

    question: Question
    current_rank: int | None  # 1 = first; None = not in the top k
    stale_recalled: bool


def evaluate(memory: MemoryBackend, questions: Sequence[Question], k: int = 3) -> list[Outcome]:
    """Search each question (default search: current memories only, where the backend keeps history)."""
    outcomes = []
    for question in questions:
        hits = memory.search(question.text, top_k=k)
        ranks = [r for r, h in enumerate(hits, 1) if _mentions(h.text, question.person, question.current)]
        stale = any(_mentions(h.text, question.person, old) and not _mentions(h.text, question.person, question.current)
                    for h in hits for old in question.stale)
        outcomes.append(Outcome(question, ranks[0] if ranks else None, stale))
    return outcomes


def summarize(outcomes: Sequence[Outcome], k: int = 3) -> dict[str, float]:
    """recall@1, recall@k of current evidence and the share of questions with stale evidence in the top k."""
    n = len(outcomes) or 1
    return {
        "questions": len(outcomes),
        "recall@1": round(sum(o.current_rank == 1 for o in outcomes) / n, 3),
        f"recall@{k}": round(sum(o.current_rank is not None for o in outcomes) / n, 3),
        f"stale in top {k}": round(sum(o.stale_recalled for o in outcomes) / n, 3),
    }


def classify_changes(memory: MemoryBackend, versions: Sequence[Version]) -> list[tuple[Version, str]]:
    """For each stated change: did a memory supersede "the right fact", "a wrong fact", or was it "not superseded"?

    The new version is a memory naming the person and the new value that
    supersedes another; the pick was right when the superseded memory holds the
    same attribute (its category, as ``ingest`` stored it).
    """
    records = memory.list_all()
    verdicts = []
    for version in (v for v in versions if v.number > 0):
        made = [r for r in records if r.supersedes and _mentions(r.text, version.person, version.value)]
        old = memory.get(made[0].supersedes) if made else None
        verdict = "not superseded" if old is None else (
            "the right fact" if old.category == version.attribute else "a wrong fact")
        verdicts.append((version, verdict))
    return verdicts
