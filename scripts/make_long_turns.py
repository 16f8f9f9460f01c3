"""Write the kit's own long-turn conversational set: 18 chats of about 90 paragraph-long user turns each.

Authored for Aria Kit (MIT, like the rest of the repository), not cut from an upstream file: the
sentences are in ``long_turns_text.py`` and this script assembles them with one seeded generator
(``SEED``), so every run writes the same bytes. Each chat is one person writing to an assistant
over weeks about six topics (a kitchen job, a trip, a puppy...); only the person's turns are stored,
one memory per turn, with ``thread`` (the chat), ``turn`` (its place) and ``date`` in the metadata.
A topic's anchor (the builder's or the dog's name) is unique in the set, and every question names it.

Questions: a *fact* question asks for a value stated in exactly one turn (checked below); a
*follow-up* question's evidence is a short reply ("The second. Decision made.") whose topic is in the
turn before it; an *update* pair asks for a value that changed (the newer turn) and for what it was
before (the older turn), marked ``"update": {"asks", "newer", "older"}``.

Split first: ``SEED`` puts 9 of the 18 chats in ``dev`` before any text is drawn.
Not here: any search or scoring (the set is written and frozen before a rule is tuned on it).

Run: ``python scripts/make_long_turns.py aria_kit/data/long_turns``.
"""

from __future__ import annotations

import datetime
import random
import sys
from collections import Counter
from pathlib import Path

from cutting import write_jsonl  # scripts/cutting.py: the byte-stable writer, shared
from long_turns_text import CITIES, DAYS, KINDS, LIFE, LIFE_CLOSERS, NAMES, OPENERS

SEED = 28
CHATS, TURNS, TOPICS = 18, 90, 6
FACTS_PER_TOPIC, UPDATES_PER_CHAT, FOLLOWUPS_PER_CHAT, ACKS_PER_CHAT = 4, 4, 2, 3
MIN_WORDS, MAX_WORDS, MODE_WORDS = 60, 210, 65
MIN_UPDATE_GAP = 15  # turns between a value and its change
MARKERS = ["Honestly, ", "Also, ", "Oh, and ", "On top of that, ", "Meanwhile, ", "Otherwise, ", "Separately, ",
           "To be fair, ", "In other news, ", "For the record, "]
JOINS = [", and ", "; ", " — ", ", but "]
LOWERABLE = {"The", "There", "My", "Our", "It", "It's", "Every", "Everyone", "Everybody", "Some", "Someone", "She",
             "He", "We", "We're", "We've", "Half", "This", "That", "Today"}
KEEP = {"I", "I'm", "I've", "I'd", "I'll"}
TAILS = [", as usual.", ", to be fair.", ", apparently.", " (don't ask).", ", for what it's worth.", ", if I'm honest.",
         ", of course.", ", which I did not expect.", ", which is something.", ", at least for now."]
ACKS = ["Thanks, that's really helpful.", "Ha, fair point.", "Okay, noted. Talk later.", "Perfect, thank you!",
        "Hmm, let me think about that.", "Good shout."]


def _lower_first(sentence: str, names: set[str]) -> str | None:
    """``sentence`` as it reads after a comma (first letter lowered, unless it is "I" or a name); None if it can't."""
    first = sentence.split()[0]
    if first in LOWERABLE:
        return sentence[0].lower() + sentence[1:]
    return sentence if first in KEEP or first.rstrip("'s") in names else None


def _capital(sentence: str) -> str:
    return sentence[0].upper() + sentence[1:]


class Chat:
    """One conversation: its persona, topics and turns, drawn from the shared generator ``rng``."""

    def __init__(self, rng: random.Random, thread: str, kinds: list[dict], anchors: dict[str, list[str]]) -> None:
        self.rng, self.thread = rng, thread
        p, f, s, b = rng.sample(NAMES, 4)
        self.persona = {"P": p, "F": f, "S": s, "B": b, "C": rng.choice(CITIES)}
        self.topics = [{"kind": kind, "A": anchors[kind["key"]].pop()} for kind in kinds]
        self.uses: Counter[str] = Counter()

    def fill(self, template: str, topic: dict | None = None, capital: bool = True, **values: str) -> str:
        """``template`` with the persona, the topic's anchor or a reference to it, and ``values`` filled in."""
        names = dict(self.persona, day=self.rng.choice(DAYS), **values)
        if topic:
            kind = topic["kind"]
            named = kind.get("named", "{A}").format(A=topic["A"])
            names.update(A=topic["A"], R=named if self.rng.random() < 0.5 else self.rng.choice(kind["refs"]))
        for key, value in list(names.items()):  # values may hold the persona's placeholders ("{F}")
            names[key] = value.format(**{k: v for k, v in names.items() if k != key and "{" not in v})
        text = template.format(**names)
        return _capital(text) if capital else text

    def pick(self, pool: list[str], taken: set[str]) -> str:
        """A template from ``pool`` used least so far in this chat and not yet in this turn (ties drawn at random)."""
        fresh = [t for t in pool if t not in taken]
        least = min(self.uses[t] for t in fresh)
        template = self.rng.choice([t for t in fresh if self.uses[t] == least])
        self.uses[template] += 1
        taken.add(template)
        return template

    def filler(self, pool: list[str], topic: dict | None, taken: set[str]) -> str:
        """A sentence from ``pool``: sometimes after a discourse marker, joined to a second one, or with a tail."""
        names = set(self.persona.values()) | {t["A"].split()[0] for t in self.topics}
        sentence = self.fill(self.pick(pool, taken), topic)
        roll = self.rng.random()
        if roll < 0.2 and (low := _lower_first(sentence, names)):
            sentence = self.rng.choice(MARKERS) + low
        elif roll < 0.45:
            second = self.fill(self.pick(pool, taken), topic)
            if low := _lower_first(second, names):
                sentence = sentence.rstrip(".!?") + self.rng.choice(JOINS) + low
            else:
                sentence = f"{sentence} {second}"
        if self.rng.random() < 0.15 and sentence.endswith(".") and "," not in sentence and ")" not in sentence:
            sentence = sentence[:-1] + self.rng.choice(TAILS)
        return sentence

    def paragraph(self, core: list[str], topic: dict | None) -> str:
        """A turn of MIN_WORDS..MAX_WORDS words: ``core`` somewhere near the start, filler around it."""
        rng = self.rng
        target = rng.triangular(MIN_WORDS, MAX_WORDS, MODE_WORDS)
        topical = topic["kind"]["filler"] if topic else rng.choice(self.topics)["kind"]["filler"]
        sentences: list[str] = []
        taken: set[str] = set()
        count = lambda: sum(len(s.split()) for s in sentences + core)  # noqa: E731
        while count() < target:
            pool = topical if rng.random() < (0.7 if topic else 0.25) else LIFE
            candidate = self.filler(pool, topic, taken)
            if count() + len(candidate.split()) > MAX_WORDS and count() >= MIN_WORDS:
                break
            sentences.append(candidate)
        at = rng.choice([0, 0, 1, 1, 2])
        sentences[at:at] = core
        if rng.random() < 0.35:
            sentences.insert(0, rng.choice(OPENERS))
        if rng.random() < 0.5:
            closers = topic["kind"]["closers"] if topic and rng.random() < 0.7 else LIFE_CLOSERS
            sentences.append(self.fill(rng.choice(closers), topic))
        text = " ".join(sentences)
        while len(text.split()) > MAX_WORDS + 15:  # a long core plus a long opener: drop filler from the end
            sentences.pop(-1 if sentences[-1] not in core else -2)
            text = " ".join(sentences)
        return text


def _events(chat: Chat) -> list[list[dict]]:
    """Each topic's events in order (intro, facts, follow-up, background, the older and newer value of an update)."""
    rng = chat.rng
    with_update = set(rng.sample(range(TOPICS), UPDATES_PER_CHAT))
    with_followup = set(rng.sample(range(TOPICS), FOLLOWUPS_PER_CHAT))
    structural = TOPICS + TOPICS * FACTS_PER_TOPIC + 2 * UPDATES_PER_CHAT + 2 * FOLLOWUPS_PER_CHAT + ACKS_PER_CHAT
    spare = TURNS - structural
    life = spare // 4
    per_topic = [(spare - life) // TOPICS + (1 if i < (spare - life) % TOPICS else 0) for i in range(TOPICS)]
    sequences = []
    for i, topic in enumerate(chat.topics):
        kind = topic["kind"]
        middle = [{"type": "fact", "topic": topic, "fact": fact} for fact in rng.sample(kind["facts"], FACTS_PER_TOPIC)]
        middle += [{"type": "background", "topic": topic} for _ in range(per_topic[i])]
        if i in with_followup:
            middle.append({"type": "followup", "topic": topic, "followup": kind["followup"]})
        rng.shuffle(middle)
        sequence = [{"type": "intro", "topic": topic}] + middle
        if i in with_update:
            update = rng.choice(kind["updates"])
            sequence.insert(rng.choice([1, 2]), {"type": "older", "topic": topic, "update": update})
            sequence.append({"type": "newer", "topic": topic, "update": update})
        sequences.append(sequence)
    sequences.append([{"type": "life", "topic": None} for _ in range(life)] +
                     [{"type": "ack", "topic": None} for _ in range(ACKS_PER_CHAT)])
    rng.shuffle(sequences[-1])
    return sequences


def _interleave(rng: random.Random, sequences: list[list[dict]]) -> list[dict]:
    """The events merged into one chat, each topic's in order, every update's values MIN_UPDATE_GAP turns apart."""
    while True:
        queues = [list(s) for s in sequences]
        merged = []
        while any(queues):
            weights = [len(q) for q in queues]
            merged.append(rng.choices(queues, weights)[0].pop(0))
        # a follow-up is two turns: the setup and the short reply
        turns = sum(2 if e["type"] == "followup" else 1 for e in merged)
        place, at = {}, 0
        for event in merged:
            place[id(event)] = at
            at += 2 if event["type"] == "followup" else 1
        gaps = [place[id(n)] - place[id(o)] for seq in sequences for o in seq if o["type"] == "older"
                for n in seq if n["type"] == "newer"]
        if turns == TURNS and min(gaps) >= MIN_UPDATE_GAP and merged[0]["type"] in ("intro", "life"):
            return merged


def _write_chat(chat: Chat, split: str, start: datetime.date) -> tuple[list[dict], list[dict]]:
    """The chat's documents and its questions (without ids)."""
    rng = chat.rng
    documents, asked = [], []
    olders: dict[tuple[int, int], tuple[str, str]] = {}
    date = start
    checks: list[tuple[str, str]] = []  # (value, doc id) that must be stated in that turn only

    def add(text: str) -> str:
        nonlocal date
        doc_id = f"{chat.thread}-t{len(documents):03d}"
        documents.append({"id": doc_id, "text": text,
                          "metadata": {"thread": chat.thread, "turn": len(documents), "date": date.isoformat()}})
        date += datetime.timedelta(days=rng.choice([0, 0, 1, 1, 1, 2, 3]))
        return doc_id

    def ask(templates: list[str], topic: dict, relevant: str, **extra) -> None:
        asked.append({"text": chat.fill(rng.choice(templates), topic), "relevant": [relevant], "split": split, **extra})

    for event in _interleave(rng, _events(chat)):
        topic, kind = event["topic"], event["topic"] and event["topic"]["kind"]
        if event["type"] == "intro":
            add(chat.paragraph([chat.fill(rng.choice(kind["intro"]), topic)], topic))
        elif event["type"] == "background":
            add(chat.paragraph([], topic))
        elif event["type"] == "life":
            add(chat.paragraph([], None))
        elif event["type"] == "ack":
            add(rng.choice(ACKS))
        elif event["type"] == "fact":
            fact = event["fact"]
            value = chat.fill(rng.choice(fact["values"]), topic, capital=False)
            doc = add(chat.paragraph([chat.fill(rng.choice(fact["say"]), topic, v=value)], topic))
            checks.append((value, doc))
            ask(fact["ask"], topic, doc)
        elif event["type"] == "followup":
            followup = event["followup"]
            options = [chat.fill(o, topic, capital=False) for o in rng.choice(followup["pairs"])]
            pick = rng.randrange(2)
            add(chat.paragraph([chat.fill(rng.choice(followup["setup"]), topic, o1=options[0], o2=options[1])], topic))
            reply = chat.fill(rng.choice(followup["reply"]), topic, ch=options[pick], pos=("first", "second")[pick])
            ask(followup["ask"], topic, add(reply))
        else:  # the older or newer statement of a changing value
            update = event["update"]
            key = (id(update), id(topic))
            if event["type"] == "older":
                old, new = rng.choice(update["pairs"])
                olders[key] = (add(chat.paragraph([chat.fill(rng.choice(update["old"]), topic, v=old)], topic)), new)
                checks.append((old, olders[key][0]))
            else:
                older, new = olders[key]
                newer = add(chat.paragraph([chat.fill(rng.choice(update["new"]), topic, v=new)], topic))
                checks.append((new, newer))
                ask(update["cur"], topic, newer, update={"asks": "current", "newer": newer, "older": older})
                ask(update["past"], topic, older, update={"asks": "past", "newer": newer, "older": older})
    for value, doc in checks:  # each value stated in exactly one turn of its chat, and no question gives it away
        holders = [d["id"] for d in documents if value.lower() in d["text"].lower()]
        assert holders == [doc], f"{chat.thread}: {value!r} is in {holders}, expected only {doc}"
        assert not any(value.lower() in q["text"].lower() for q in asked), value
    return documents, asked


def build() -> tuple[list[dict], list[dict]]:
    """Documents and queries (lists of dicts) for every chat, split by chat before anything else is drawn."""
    rng = random.Random(SEED)
    threads = [f"lt{n:02d}" for n in range(1, CHATS + 1)]
    dev = set(rng.sample(threads, CHATS // 2))
    for kind in KINDS:
        for template in [q for f in kind["facts"] for q in f["ask"]] + kind["followup"]["ask"] + \
                [q for u in kind["updates"] for q in u["cur"] + u["past"]]:
            assert "{A}" in template, f"{kind['key']}: every question names its anchor: {template!r}"
    anchors = {kind["key"]: rng.sample(kind["anchors"], len(kind["anchors"])) for kind in KINDS}
    uses = {kind["key"]: 0 for kind in KINDS}
    documents, queries = [], []
    for thread in threads:
        kinds = sorted(KINDS, key=lambda k: (uses[k["key"]], rng.random()))[:TOPICS]  # spread kinds evenly over chats
        for kind in kinds:
            uses[kind["key"]] += 1
        chat = Chat(rng, thread, kinds, anchors)
        start = datetime.date(2026, 1, 5) + datetime.timedelta(days=rng.randrange(60))
        docs, asked = _write_chat(chat, "dev" if thread in dev else "heldout", start)
        documents += docs
        queries += asked
    queries = [{"id": f"lq{n:04d}", **q} for n, q in enumerate(queries, 1)]
    return documents, queries


def main(out_dir: str) -> None:
    documents, queries = build()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "documents.jsonl", documents)
    write_jsonl(out / "queries.jsonl", queries)
    print(f"{len(documents)} documents, {len(queries)} queries "
          f"({sum(q['split'] == 'dev' for q in queries)} dev) -> {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "aria_kit/data/long_turns")
