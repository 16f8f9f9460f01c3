"""Cut the turn-level conversational set ``chitchat_turns`` from the BYU Chit-Chat dataset (MIT licence).

Upstream: ``chitchat_dataset/dataset.json`` inside the PyPI wheel ``chitchat-dataset==0.9.0``, as for
``make_chitchat.py``, and the same person: ``USER`` (the sender with the third-most conversations).

The cut (all by rule, nothing hand-picked):
- documents: one memory per turn the user wrote (a turn's messages joined by a space), in turn order,
  as a chat log keeps what one person said; id ``<session>-t<NNN>`` (the turn's index in the
  conversation), metadata ``thread`` (first 8 characters of the conversation id) and ``turn``. The
  partner's turns are not stored: the queries are the partner's own questions, and a log holding them
  would hold each query verbatim. (On dev, storing the partner's turns too, minus the questions used as
  queries, gave a lower recall@5 with and without thread context: 0.104 and 0.055, against 0.135 and 0.092);
- queries: as in ``make_chitchat.py``, a partner message that starts with a wh-word, ends with "?",
  has three words and a word outside ``STOP``, directly followed by a user turn of five words or
  more; the evidence is that user turn (one memory). The same question (case and punctuation
  folded) asked in several sessions is one query whose evidence is every answer;
- split: ``dev`` when the first hex digit of the SHA-256 of the query's first session id is even,
  else ``heldout`` (``cutting.split_of``).

Run: ``python scripts/make_chitchat_turns.py path/to/dataset.json aria_kit/data/chitchat_turns``.
"""

from __future__ import annotations

import sys

from cutting import run, split_of  # scripts/cutting.py: the split rule and the writer, shared
from make_chitchat import STOP, USER, WH, _fold  # the same person and the same question rule


def _is_question(text: str) -> bool:
    words = _fold(text).split()
    return bool(WH.match(text)) and text.endswith("?") and len(words) >= 3 and any(w not in STOP for w in words)


def _joined(messages: list[dict]) -> str:
    return " ".join(m["text"].strip() for m in messages if m["text"].strip())


def cut(conversations: dict) -> tuple[list[dict], list[dict]]:
    """Documents and queries (lists of dicts, in a fixed order) from upstream ``conversations``."""
    documents, questions = [], {}
    sessions = sorted((c["start"], cid) for cid, c in conversations.items()
                      if any(m["sender"] == USER for turn in c["messages"] for m in turn))
    for _, cid in sessions:
        turns = conversations[cid]["messages"]
        for index, turn in enumerate(turns):
            text = _joined(turn)
            if turn[0]["sender"] == USER and text:
                documents.append({"id": f"{cid[:8]}-t{index:03d}", "text": text,
                                  "metadata": {"thread": cid[:8], "turn": index}})
        for index, turn in enumerate(turns[:-1]):
            answer = turns[index + 1]
            if turn[0]["sender"] == USER or answer[0]["sender"] != USER or len(_joined(answer).split()) < 5:
                continue
            for message in turn:
                text = message["text"].strip()
                if _is_question(text):
                    entry = questions.setdefault(_fold(text), {"text": text, "sessions": [], "relevant": []})
                    entry["sessions"].append(cid)
                    entry["relevant"].append(f"{cid[:8]}-t{index + 1:03d}")
    queries = [{"id": f"q{number:04d}", "text": q["text"], "relevant": sorted(set(q["relevant"])),
                "split": split_of(q["sessions"][0])}
               for number, q in enumerate(questions.values(), start=1)]
    return documents, queries


if __name__ == "__main__":
    run(cut, *sys.argv[1:3])
