"""Cut the shipped entity-fact set from the FanOutQA dev set (CC BY-SA 4.0).

Upstream: ``fanoutqa/data/fanout-final-dev.json`` inside the PyPI wheel ``fanoutqa==1.1.1``
(Andrew Zhu, Alyssa Hwang, Liam Dugan, Chris Callison-Burch: "FanOutQA: A Multi-Hop, Multi-Document Question Answering
Benchmark for Large Language Models", ACL 2024; https://github.com/zhudotexe/fanoutqa).
Each record is a question about several Wikipedia entities ("What is the batting hand of each of
the first five picks in the 1998 MLB draft?") with a human-written decomposition into
sub-questions, each with its answer and the Wikipedia article it was read from.

The cut (by rule):
- documents: one short fact per node of every decomposition (nested ones included), written as
  ``"{sub-question} {answer} (Wikipedia: {article title})"``; a list answer is joined with ", ",
  a dict answer as "key: value; …". Id = the upstream node id; metadata ``article`` and ``question``
  (the id of the top-level question it belongs to);
- queries: every top-level question; its relevant documents are all nodes of its decomposition;
- split: ``dev`` when the first hex digit of the SHA-256 of the question id is even, else ``heldout``.

So each query has several relevant facts (nDCG and recall@k are meaningful), and the words that
find them are mostly names, years and titles: an entity- and keyword-heavy set, unlike the chats.

Run: ``python scripts/make_fanoutqa.py path/to/fanout-final-dev.json aria_kit/data/fanoutqa``.
"""

from __future__ import annotations

import sys

from cutting import run, split_of  # scripts/cutting.py: the split rule and the writer, shared


def answer_text(answer: object) -> str:
    """An upstream answer (str, number, list or dict) as plain text."""
    if isinstance(answer, list):
        return ", ".join(answer_text(item) for item in answer)
    if isinstance(answer, dict):
        return "; ".join(f"{key}: {answer_text(value)}" for key, value in answer.items())
    return str(answer)



def _nodes(decomposition: list[dict]):
    for node in decomposition:
        yield node
        yield from _nodes(node.get("decomposition") or [])


def cut(records: list[dict]) -> tuple[list[dict], list[dict]]:
    """Documents and queries (lists of dicts, in upstream order) from upstream ``records``."""
    documents, queries, seen = [], [], set()
    for record in records:
        relevant = []
        for node in _nodes(record["decomposition"]):
            relevant.append(node["id"])
            if node["id"] in seen:
                continue
            seen.add(node["id"])
            title = node["evidence"]["title"] if node.get("evidence") else ""
            text = f"{node['question'].strip()} {answer_text(node['answer'])}"
            documents.append({"id": node["id"], "text": f"{text} (Wikipedia: {title})" if title else text,
                              "metadata": {"article": title, "question": record["id"]}})
        if relevant:
            queries.append({"id": record["id"], "text": record["question"].strip(), "relevant": relevant,
                            "split": split_of(record["id"])})
    return documents, queries


if __name__ == "__main__":
    run(cut, *sys.argv[1:3])
