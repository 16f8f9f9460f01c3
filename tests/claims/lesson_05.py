"""Claims in 05_measuring_memory, each tied to the output that makes it true."""

from aria_kit.bm25 import tokenize
from aria_kit.datasets import load_dataset
from lesson_claims import Claim, Lesson

LESSON = Lesson("05_measuring_memory")


def _five_worst_share_no_word() -> bool:
    chat = {d.id: d.text for d in load_dataset("chitchat").documents}
    queries = {q.text: q for q in load_dataset("chitchat").queries["dev"]}
    rows = [line for line in LESSON.output("failure_table(").splitlines()[3:] if line.strip()]
    for question, query in queries.items():
        if any(line.startswith(question) for line in rows):
            shared = set(tokenize(question, (), False)) & set(tokenize(chat[query.relevant[0]], (), False))
            assert not shared, f"{question!r} shares {sorted(shared)} with its labelled reply"
    return True


def _fanoutqa_documents_are_short_facts() -> bool:
    first = [line for line in LESSON.output("one relevant document").splitlines() if line.startswith("fanoutqa")][0]
    assert "?" not in first, f"the fanoutqa document shown starts with a question: {first!r}"
    return True


CLAIMS = [
    Claim("in every one of the five the labelled reply shares no word with the question", _five_worst_share_no_word),
    Claim("short facts from Wikipedia", _fanoutqa_documents_are_short_facts),
]
EXEMPT: dict[str, str] = {}
