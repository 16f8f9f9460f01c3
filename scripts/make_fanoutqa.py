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

import hashlib
import json
import sys
from pathlib import Path


def answer_text(answer: object) -> str:
    """An upstream answer (str, number, list or dict) as plain text."""
    if isinstance(answer, list):
        return ", ".join(answer_text(item) for item in answer)
    if isinstance(answer, dict):
        return "; ".join(f"{key}: {answer_text(value)}" for key, value in answer.items())
    return str(answer)


def split_of(question_id: str) -> str:
    """``dev`` or ``heldout``, fixed by the question id alone."""
    return "dev" if int(hashlib.sha256(question_id.encode()).hexdigest()[0], 16) % 2 == 0 else "heldout"


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


def write_jsonl(path: Path, rows: list[dict]) -> None:
    """One JSON object per line, UTF-8, keys in a fixed order: byte-identical on every run."""
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def main(source: str, out_dir: str) -> None:
    documents, queries = cut(json.loads(Path(source).read_text(encoding="utf-8")))
    out = Path(out_dir)
    write_jsonl(out / "documents.jsonl", documents)
    write_jsonl(out / "queries.jsonl", queries)
    print(f"{len(documents)} documents, {len(queries)} queries "
          f"({sum(q['split'] == 'dev' for q in queries)} dev) -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
