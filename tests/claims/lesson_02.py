"""Claims in 02_embeddings, each tied to the output that makes it true or computed with aria_kit."""

import json
import re
from functools import cache, partial

import numpy as np
from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import EVAL_MEMORIES
from aria_kit.solutions.lesson02 import cosine as _cosine_of

LESSON = Lesson("02_embeddings")
QUERIES = ["Which coding language does she like?", "memory purchase", "When is the release due?",
           "Who replicates the data, and how?"]  # the heatmap's, cell 23


@cache
def _embedder():
    from aria_kit.embeddings import default_embedder

    return default_embedder()


def _heatmap_cell() -> str:
    return next(c.source for c in LESSON.notebook.cells if c.cell_type == "code" and "plot_similarity(" in c.source)


def _heatmap() -> np.ndarray:
    assert all(f'"{q}"' in _heatmap_cell() for q in QUERIES), "the heatmap's queries changed"
    facts = _embedder().embed([text for text, _ in DEMO_FACTS])
    return _embedder().embed(QUERIES) @ facts.T


def _each_query_finds_its_fact() -> bool:
    best = [f"mem_{i + 1:04d}" for i in _heatmap().argmax(axis=1)]
    assert best == ["mem_0001", "mem_0007", "mem_0005", "mem_0003"], best
    # the takeaway names them by their words (Rust, the DDR5 order, the March 31 deadline, Raft)
    texts = [DEMO_FACTS[int(i[4:]) - 1][0] for i in best]
    assert all(word in text for word, text in zip(["Rust", "DDR5", "March 31", "Raft"], texts)), texts
    return True


def _four_new_pairs() -> bool:
    """The predict table holds four pairs, none of them an example the lesson gave before it."""
    rows = [line for line in LESSON.output('title="Cosine similarity")').splitlines() if line.startswith("[")]
    assert len(rows) == 4, rows
    shown_before = "\n".join(c.source for c in LESSON.notebook.cells[:13])  # before the predict cell
    pairs = [(a, b) for a, b, *_ in (row.split("  ") for row in rows)]
    assert not any(a in shown_before and b in shown_before for a, b in pairs), pairs
    return True


def _margins() -> bool:
    scores = _heatmap()
    pairs = [tuple(round(float(x), 2) for x in sorted(row, reverse=True)[:2]) for row in scores]
    assert pairs[2:] == [(0.21, 0.18), (0.18, 0.13)], pairs
    assert all(a - b > 0.1 for a, b in pairs[:2]), pairs  # clear for the first two
    return True


def _top_k_example() -> bool:
    """Exercise 02.3's example: over the seven demo facts, the worked top_k puts index 0 (the Rust fact) first."""
    from aria_kit.solutions.lesson02 import top_k_by_cosine

    assert len(DEMO_FACTS) == 7 and "Rust" in DEMO_FACTS[0][0]
    facts = _embedder().embed([text for text, _ in DEMO_FACTS])
    return top_k_by_cosine(_embedder().embed(["which coding language does she like"])[0], facts, 3)[0] == 0


def _ingest_rate() -> bool:
    runs = [r for r in json.loads((ROOT / "benchmarks" / "scale.json").read_text()) if r["engine"] == "hybrid"]
    rates = [r["size"] / r["ingest_s"] for r in runs]
    assert runs and all(17_000 <= rate <= 23_000 for rate in rates), [round(rate) for rate in rates]
    return True


def _one_memory_each() -> bool:
    memories = _embedder().embed([text for text, _ in EVAL_MEMORIES])
    for name in ("lindqvist", "jepsen"):
        holding = [i for i, (text, _) in enumerate(EVAL_MEMORIES) if name in text.lower()]
        assert len(holding) == 1, (name, holding)
        tokenizer = _embedder()._model.tokenizer  # WordLlama's own word pieces, not the lesson's words
        pieces = tokenizer.encode(name.capitalize(), add_special_tokens=False).tokens
        for piece in pieces:
            sharing = [i for i, (text, _) in enumerate(EVAL_MEMORIES)
                       if piece in tokenizer.encode(text, add_special_tokens=False).tokens]
            assert sharing == holding, (name, piece, sharing)
        best = int(np.argmax(memories @ _embedder().embed([name.capitalize()])[0]))
        assert best == holding[0], f"vector search for {name!r} ranks memory {best} first, not {holding[0]}"
    return True


def _embedders_return_unit_rows() -> bool:
    """Both of the kit's embedders end in normalize(): WordLlama's is run here, the server one read."""
    import inspect

    from aria_kit import openai_embedder

    lengths = np.linalg.norm(_embedder().embed(["a", "a much longer text about Rust and Raft", "5190"]), axis=1)
    assert np.allclose(lengths, 1, atol=1e-5), lengths
    assert "normalize(" in inspect.getsource(openai_embedder.OpenAIEmbedder.embed)
    return True


def _unit_table() -> list[str]:
    return [line for line in LESSON.output("raw = np.array([[3.0, 4.0]").splitlines() if line.startswith("[")]


def _spec_examples() -> bool:
    from aria_kit.solutions.lesson02 import to_unit_length

    assert np.allclose(to_unit_length(np.array([[3.0, 4.0]])), [[0.6, 0.8]])
    assert np.allclose(to_unit_length(np.array([[0.5, 0], [-2, 2]])), [[1, 0], [-0.7071, 0.7071]], atol=1e-4)
    examples = [([3, 4], [6, 8], 1.0), ([1, 0], [0, 2], 0.0), ([3, 4], [4, 3], 0.96)]
    assert all(abs(_cosine_of(np.array(a, float), np.array(b, float)) - want) < 1e-12 for a, b, want in examples)
    return True


_key_holds = partial(quiz_key_holds, "02")  # Q{number}'s computed key is its answer


def _dot_two_cosine_one() -> bool:
    rows, query = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([1.0, 0.0])
    assert list(rows @ query) == [1.0, 2.0]
    return all(abs(_cosine_of(row, query) - 1) < 1e-12 for row in rows)


CLAIMS = [
    Claim("`[[3, 4]]` becomes `[[0.6, 0.8]]`", _spec_examples),
    Claim("`cosine([3, 4], [6, 8])` is `1.0`", _spec_examples),
    Claim("a learned vector of 256 numbers", lambda: "(3, 256)" in LESSON.output("vectors = embedder.embed(texts)")),
    Claim("stores about 20,000 short memories a second", _ingest_rate),
    Claim("on three small vectors", lambda: len(_unit_table()) == 3),
    Claim("has length 5 and becomes", lambda: re.match(r"\[3\.0, 4\.0\]\s+5\.0000\s+\[0\.6, 0\.8\]", _unit_table()[0])),
    Claim("Every `Embedder` in the kit returns rows of length 1",
          lambda: "[1. 1. 1.]" in LESSON.output("np.linalg.norm(vectors, axis=1)")),
    Claim("each query scores highest on the fact that answers it", _each_query_finds_its_fact),
    Claim("But the margins differ", _margins),
    Claim("the seven demo facts plus 24 more", lambda: len(EVAL_MEMORIES) == 31 and EVAL_MEMORIES[:7] == DEMO_FACTS),
    Claim("Seven facts make an easy test.", lambda: len(DEMO_FACTS) == 7),
    Claim("The same search over the seven demo facts",
          lambda: len(DEMO_FACTS) == 7 and LESSON.output("def vector_search").count("mem_0") == 3),
    Claim("shows every cosine between a few queries and the seven facts", lambda: _heatmap().shape == (4, 7)),
    Claim("So the kit's embedders scale every vector to length 1", _embedders_return_unit_rows),
    Claim("fare better: their word pieces occur in one of the 31 memories only", _one_memory_each),
    Claim("every arrangement of the same digits, or of the same words, gets the *same* vector",
          lambda: LESSON.output("probe_vectors = embedder.embed(probe)").count("1.0000") == 4),
    Claim("every text already gets 256 numbers", lambda: _embedder().dim == 256),
    Claim("Predict: what is cosine([3, 4], [-6, -8])?",
          lambda: abs(_cosine_of([3.0, 4], [-6.0, -8]) + 1) < 1e-12),
    Claim("is −2 × [3, 4]", lambda: np.array_equal(np.array([-6, -8]), -2 * np.array([3, 4]))),
    Claim("−1.0: they point in opposite directions.",
          lambda: abs(_cosine_of([3.0, 4], [-6.0, -8]) + 1) < 1e-12),
    Claim("−50.0: the dot product", lambda: 3 * -6 + 4 * -8 == -50),
    Claim("1.0: the two texts hold the same tokens", lambda: _key_holds(3)),
    Claim("a plain average gives exactly 1", lambda: _key_holds(3)),
    Claim("top_k_by_cosine(query=[1, 0], matrix=[[1, 0], [2, 0], [0, 1]], k=2)", lambda: _key_holds(4)),
    Claim("[0, 1]: rows 0 and 1 both have cosine 1", lambda: _key_holds(4)),
    Claim("so [2, 0] ties with [1, 0]; a stable sort keeps the earlier row first", lambda: _key_holds(4)),
    Claim("that is the dot product talking (2 against 1)", _dot_two_cosine_one),
    Claim("is an order's number, and it occurs in one memory only",
          lambda: sum("5190" in text for text, _ in EVAL_MEMORIES) == 1 and "order" in
          next(text for text, _ in EVAL_MEMORIES if "5190" in text).lower()),
    Claim("The next table puts the kit's cosine next to yours on four pairs you have not seen", _four_new_pairs),
    Claim("Over the seven demo facts of the table below", _top_k_example),
    Claim("divides it by both lengths (5 × 10)",
          lambda: (np.linalg.norm([3, 4]), np.linalg.norm([-6, -8])) == (5.0, 10.0)),
]

EXEMPT = {
    "- write top-k vector search with a rule for ties": "names the exercise; 'top-k' is a name",
    "A vector has a **direction** and a **length**": "a definition (the formula)",
    "in which every **row** points the way it did and has length 1": "the exercise's specification, checked by check_unit_length",
    "from a single row up to many random rows": "describes the check (aria_kit/exercises/lesson02.py)",
    "instead of dividing by 0": "names the division the kit avoids; cell 7 shows the zero row",
    "which is 1 for the same direction": "the definition of the cosine",
    "How alike are two directions?": "'two directions' is the question's subject, not a count",
    "the dot product $a \\cdot b": "a definition",
    "the formula's value for two 1-d arrays": "'1-d' names a shape",
    "When both vectors have length 1, the denominator": "a definition, shown equal in cell 16",
    "comparing a query with every memory takes one matrix–vector product": "describes cell 21's code: one `@`",
    "Vector search is three steps": "describes the recipe of cell 21",
    "It returns a list of the indices of the `k` rows": "the exercise's specification, checked by check_top_k",
    "The rows need **not** have length 1.": "the exercise's specification",
    "When two rows have exactly the same cosine": "the exercise's specification, checked by check_top_k",
    "Against a stable sort of the cosines": "describes the check (aria_kit/exercises/lesson02.py)",
    "the line above the table shows its three best rows": "describes cell 21, which asks for top 3",
    "Each row is one query;": "describes how the heatmap is drawn",
    "- write row normalisation and cosine similarity yourself from their formulas":
        "an objective; the catalogue (aria_kit/exercises/lesson02.py) says 02.1 and 02.2 are warm-ups",
    "write the four cosines you expect in `my_prediction`": "an instruction; the four pairs are claimed above",
    "in place of `default_embedder()` in section 1": "an instruction naming a line and a section",
    "rows of length 1 (a zero row stays zero)": "recap of the definition shown in cells 7–9",
    "search is one matrix–vector product and a stable sort": "recap of cell 21's code",
    "which matches exact words and weighs them by how rare they are": "announces lesson 03, which measures it",
    "\"memory purchase\" must still find the DDR5 order": "the stretch's specification; DDR5 is a name",
    "and \"4812\" from \"4821\"": "the stretch's specification; the numbers are cell 33's probe strings",
    "There are many ways (features that depend on order": "'choose one' is an instruction",
    "One answer, with the reasoning, is in": "'one answer' names the worked solution",
    "and a wrong one says why": "'a wrong one' is a pronoun, not a count",
    "Why does the kit scale every embedding to length 1": "a question about the definition",
    "with unit rows searching is one matrix–vector product": "recap of cell 21's code",
    "So that the cosine of two different texts can never be negative.": "a wrong option; its explanation says why",
    "a unit vector has just as many float32 numbers as any other": "true by construction: scaling keeps the shape",
    "two opposite directions still have cosine −1": "the definition of the cosine",
    "1.0: the two vectors lie on the same line": "a wrong option; the claim on the prompt computes the answer",
    "0.0: they share no positive component.": "a wrong option; the claim on the prompt computes the answer",
    "0 means at right angles": "the definition of the cosine",
    "About 0.5: the words are the same, but half of them are in other places.": "a wrong option; the computed key "
    "rules it out",
    "Below 0: the two sentences mean opposite things.": "a wrong option; the computed key rules it out",
    "Just under 1, such as 0.95": "a wrong option; the computed key rules it out",
    "so moving words around cannot lower the cosine": "why a wrong option fails; 'lower' is not a comparison of outputs",
    "[1, 0]: row 1 is longer, so it is more similar to the query.": "a wrong option; the computed key rules it out",
    "[0, 2]: row 1 points the same way as row 0": "a wrong option; the computed key rules it out",
    "[0, 1] on some runs and [1, 0] on others": "a wrong option; the computed key rules it out",
    "top-k returns the k best rows by cosine": "the definition of top-k search ('best' is a name)",
}
