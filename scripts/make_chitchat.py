"""Cut the shipped conversational memory set from the BYU Chit-Chat dataset (MIT licence).

Upstream: ``chitchat_dataset/dataset.json`` inside the PyPI wheel ``chitchat-dataset==0.9.0``
(BYU Perception, Control & Cognition lab, https://github.com/BYU-PCCL/chitchat-dataset).
Every conversation is a list of turns; a turn is a list of messages by one sender, and senders
keep the same anonymous id across conversations, so one person's chats form many sessions.

The cut (all by rule, nothing hand-picked):
- the *user* is ``USER`` (the sender with the third-most conversations, 347 sessions);
- documents: the turns the user wrote (a turn's messages joined by a space), grouped per session into
  memories of ``CHUNK`` = 4 consecutive user turns (the last chunk of a session may be shorter), as a
  chat memory stores stretches of a conversation; id ``<session>-c<NN>``, metadata ``session`` (first
  8 characters of the conversation id), ``first_turn`` (index of the chunk's first turn), ``start``;
- queries: a message by the user's partner that starts with a wh-word (what, which, who, where,
  when, why, how) and ends with "?", has at least three words and one word outside ``STOP``, and is followed directly
  by a user turn of at least five words. The memory holding that next turn is the evidence. The same question text
  (case and punctuation folded) asked in several sessions becomes one query whose evidence is every
  answer the user gave to it;
- split: a query goes to ``dev`` when the first hex digit of the SHA-256 of its first session id is
  even, else to ``heldout``; dev is for tuning, heldout is reported once.

Run: ``python scripts/make_chitchat.py path/to/dataset.json aria_kit/data/chitchat``.
"""

from __future__ import annotations

import re
import sys

from cutting import run, split_of  # scripts/cutting.py: the split rule and the writer, shared

USER = "720840be-e522-47ba-9e9f-143f66372673"
CHUNK = 4  # user turns per memory
WH = re.compile(r"^\W*(what|which|who|where|when|why|how)\b", re.IGNORECASE)
WORD = re.compile(r"[a-z0-9']+")
STOP = set("""a about am an and any are as at be been but by can could did do does doing for from
get going got had has have how hows i if im in is it its just like me my of on or so that the them
then there they this to today up was we were what whats when where which who why will with would you
your youre""".split())


def _fold(text: str) -> str:
    return " ".join(WORD.findall(text.casefold()))



def cut(conversations: dict) -> tuple[list[dict], list[dict]]:
    """Documents and queries (lists of dicts, in a fixed order) from upstream ``conversations``."""
    documents, questions, chunk_of = [], {}, {}
    sessions = sorted((c["start"], cid) for cid, c in conversations.items()
                      if any(m["sender"] == USER for turn in c["messages"] for m in turn))
    for start, cid in sessions:
        turns = conversations[cid]["messages"]
        mine = [(index, " ".join(m["text"].strip() for m in turn if m["text"].strip()))
                for index, turn in enumerate(turns) if turn[0]["sender"] == USER]
        mine = [(index, text) for index, text in mine if text]
        for number, first in enumerate(range(0, len(mine), CHUNK)):
            chunk = mine[first:first + CHUNK]
            doc_id = f"{cid[:8]}-c{number:02d}"
            documents.append({"id": doc_id, "text": " ".join(text for _, text in chunk),
                              "metadata": {"session": cid[:8], "first_turn": chunk[0][0], "start": start}})
            chunk_of.update({(cid, index): doc_id for index, _ in chunk})
        for index, turn in enumerate(turns[:-1]):
            answer = turns[index + 1]
            if turn[0]["sender"] == USER or (cid, index + 1) not in chunk_of:
                continue
            if len(" ".join(m["text"] for m in answer).split()) < 5:
                continue
            for message in turn:
                text = message["text"].strip()
                words = _fold(text).split()
                if WH.match(text) and text.endswith("?") and len(words) >= 3 and any(w not in STOP for w in words):
                    entry = questions.setdefault(_fold(text), {"text": text, "sessions": [], "relevant": []})
                    entry["sessions"].append(cid)
                    entry["relevant"].append(chunk_of[(cid, index + 1)])
    queries = []
    for number, (_, q) in enumerate(questions.items(), start=1):
        queries.append({"id": f"q{number:04d}", "text": q["text"], "relevant": sorted(set(q["relevant"])),
                        "split": split_of(q["sessions"][0])})
    return documents, queries


if __name__ == "__main__":
    run(cut, *sys.argv[1:3])
