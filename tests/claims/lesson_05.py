"""Claims in 05_measuring_memory, each tied to the output that makes it true (most numbers are rendered by the cells)."""

import inspect
import re
from functools import partial

from aria_kit.bm25 import STOPWORDS
from aria_kit.datasets import DATA_DIR, list_datasets, load_dataset
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import capped_recall_at_k, query_clusters, recall_at_k
from aria_kit.tuning import compare, kit_default, recall_curve, setting_label
from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

LESSON = Lesson("05_measuring_memory")


def _rows(fragment: str, first: str) -> list[list[str]]:
    """The table rows of one cell's output that start with ``first``, split on runs of 2+ spaces."""
    return [re.split(r"\s{2,}", line.strip()) for line in LESSON.output(fragment).splitlines() if line.startswith(first)]


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", text)]


def _pivot(fragment: str, header_start: str) -> dict[str, dict[str, str]]:
    """A table printed with one row per item and one column per header: ``{first cell: {header: cell}}``."""
    text = LESSON.output(fragment)
    assert header_start in text, f"no table with a header starting {header_start!r} in the output of {fragment!r}"
    lines, at = [line.rstrip() for line in text[text.index(header_start):].splitlines()], 0
    headers = re.split(r"\s{2,}", lines[at].strip())
    starts = [lines[at].index(h) for h in headers]  # cells may be empty, so cut at the headers' columns
    table = {}
    for line in lines[at + 2:]:
        if not line.strip():
            continue
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        table[cells[0]] = dict(zip(headers, cells))
    return table


def _interval(cell: str) -> tuple[float, float, float]:
    mean, low, high = _numbers(cell)
    return mean, low, high


def _authored() -> list[str]:
    return [name for name in list_datasets() if "Written for this project" in load_dataset(name).description
            or "Written for this project" in (DATA_DIR / name / "README.md").read_text()]


def _threaded() -> list[str]:
    return [name for name in list_datasets() if any("thread" in d.metadata for d in load_dataset(name).documents)]


def _five_sets_two_authored() -> bool:
    assert list_datasets() == ["chitchat", "chitchat_turns", "fanoutqa", "long_turns", "paraphrase"], list_datasets()
    assert _authored() == ["long_turns", "paraphrase"], _authored()
    return True


def _four_turns_per_chitchat_memory() -> bool:
    chat, turns = load_dataset("chitchat"), load_dataset("chitchat_turns")
    first = [d.text for d in turns.documents if d.metadata["thread"] == "eedcb640"][:4]
    assert chat.documents[0].text == " ".join(first), "the first chitchat memory is not its session's first 4 turns"
    return True


def _every_turn_has_a_thread() -> bool:
    turns = load_dataset("chitchat_turns")
    assert all("thread" in d.metadata for d in turns.documents)
    return True


def _long_turns_as_described() -> bool:
    data = load_dataset("long_turns")
    threads = [d.metadata.get("thread") for d in data.documents]
    assert None not in threads and len(set(threads)) == 18, len(set(threads))
    lengths = sorted(len(d.text.split()) for d in data.documents)
    assert lengths[len(lengths) // 2] >= 60, f"the median turn has {lengths[len(lengths) // 2]} words"
    queries = [q for split in data.queries.values() for q in split]
    assert all(len(q.relevant) == 1 for q in queries), "a long_turns question with more than one evidence turn"
    asks = {q.update.asks for q in queries if q.update is not None}
    assert asks == {"current", "past"} and sum(q.update is None for q in queries) > len(queries) / 2, asks
    return True


def _long_turns_assembled_from_templates() -> bool:
    readme = " ".join((DATA_DIR / "long_turns" / "README.md").read_text().split())
    assert "The text is assembled from templates" in readme and "long_turns" in _authored()
    return True


def _only_two_sets_have_threads() -> bool:
    assert _threaded() == ["chitchat_turns", "long_turns"], _threaded()
    return True


def _leads() -> dict[str, float]:
    """Keyword minus vector, dev capped recall@5, per set, as cell 'Keyword search minus vector search' renders it."""
    text = LESSON.output("Keyword search minus vector search")
    return dict(zip(re.findall(r"\*\*(\w+)\*\*", text), _numbers(text)))


def _keyword_leads_everywhere_but_paraphrase_most_on_fanoutqa() -> bool:
    leads = _leads()
    others = {name: lead for name, lead in leads.items() if name != "paraphrase"}
    assert sorted(leads) == list_datasets() and min(others.values()) > 0, leads
    assert max(others, key=others.get) == "fanoutqa", leads
    return True


def _vector_leads_by_far_on_paraphrase() -> bool:
    assert _leads()["paraphrase"] < -0.3, _leads()
    return True


def _each_set_has_its_winner() -> bool:
    return _keyword_leads_everywhere_but_paraphrase_most_on_fanoutqa() and _vector_leads_by_far_on_paraphrase()


def _dev_table() -> dict[str, dict[str, str]]:
    return _pivot('table_of("dev"', "data set")


def _meaning_beats_words_on_paraphrase() -> bool:
    row = _dev_table()["paraphrase"]
    assert _interval(row["vector"])[0] > _interval(row["keyword"])[0], row
    return _vector_leads_by_far_on_paraphrase()


def _two_questions_per_memory_resampled_together() -> bool:
    paraphrase = load_dataset("paraphrase")
    topic = {d.id: d.metadata["topic"] for d in paraphrase.documents}
    for split in ("dev", "heldout"):
        queries = [q for q in paraphrase.queries[split] if len(q.relevant) == 1]
        labels = query_clusters(paraphrase, queries)
        assert labels == [topic[q.relevant[0]] for q in queries]
        assert all(labels.count(label) == 2 for label in labels), "a memory not asked for exactly twice"
    return True


def _most_fanoutqa_questions_have_more_than_five() -> bool:
    queries = [q for split in ("dev", "heldout") for q in load_dataset("fanoutqa").queries[split]]
    share = sum(len(set(q.relevant)) > 5 for q in queries) / len(queries)
    assert share > 0.5, f"{share:.0%} have more than five relevant facts"
    return True


def _capped_equals_plain_with_one_answer() -> bool:
    ranking = ["a", "b", "c", "d"]
    assert all(capped_recall_at_k(ranking, [r], k) == recall_at_k(ranking, [r], k) for r in "az" for k in (1, 3, 9))
    return True


def _recalls_three() -> bool:
    from aria_kit.agent import AutonomousAgent
    assert inspect.signature(AutonomousAgent.__init__).parameters["recall_k"].default == 3
    return True


def _dev_only() -> bool:
    for cell in LESSON.notebook.cells:
        if cell.cell_type == "code":
            source = cell.source.replace('len(data.queries["heldout"])', "")  # counting questions reads no score
            assert '"heldout"' not in source, f"a cell of lesson 05 reads the held-out split: {cell.source[:80]!r}"
    return True

def _four_settings() -> bool:
    headers = re.split(r"\s{2,}", next(line for line in LESSON.output('table_of("dev"').splitlines()
                                       if line.startswith("data set")).strip())
    assert headers == ["data set", "vector", "keyword", "seed (RRF 60)", "kit default"], headers
    return True


def _seed_setting() -> bool:
    assert "(RRF(60), False, False)" in next(c.source for c in LESSON.notebook.cells if "settings = {" in c.source)
    return True


def _kit_default_is_a_plain_memory() -> bool:
    plain, (fusion, stopwords, stemming) = HybridMemory(), kit_default()
    assert repr(plain.fusion) == repr(fusion) and bool(plain.stopwords) == stopwords and plain.stemming == stemming
    assert f"kit default: {setting_label(kit_default())} " in LESSON.output('table_of("dev"')
    return True


def _answers_only_costs_keyword_its_lead() -> bool:
    rows = {row[0]: [float(x) for x in row[1:]] for row in _rows("answers_only = LabelledSet", "")
            if row[0] in ("vector", "keyword", "kit default")}
    assert rows["keyword"][0] > rows["vector"][0] and rows["keyword"][1] < rows["vector"][1], rows
    assert all(cut < shipped for shipped, cut in rows.values()), rows
    assert rows["keyword"][1] > 0, "BM25 still finds something in the cut documents"
    return True


def _curves_to_ten() -> bool:
    assert inspect.signature(recall_curve).parameters["max_k"].default == 10
    return True


def _163_from_71() -> bool:
    chat = load_dataset("chitchat")
    labels = query_clusters(chat, chat.queries["dev"])
    assert (len(labels), len(set(labels))) == (163, 71), (len(labels), len(set(labels)))
    return True


def _compare_on_capped_recall_by_session() -> bool:
    assert inspect.signature(compare).parameters["metric"].default == "capped recall@5"
    assert "clusters=split.clusters" in inspect.getsource(compare)
    return True


def _five_worst() -> bool:
    rows = _rows("failure_table(", "")[2:]  # after the title and the header
    rows = [row for row in rows if not set(row[0]) <= set("- ")]
    assert len(rows) == 5, rows
    return True


def _worst_share_only_stop_words() -> bool:
    rows = [row for row in _rows("failure_table(", "")[3:] if not set(row[0]) <= set("- ")]
    for question, _, shared, rank, vector, keyword, _ in rows:
        assert keyword == "—", f"{question!r}: keyword search ranks its reply ({keyword})"
        assert shared == "—" or set(shared.split()) <= STOPWORDS, f"{question!r} shares {shared!r}"
        assert int(vector) > 1000, f"{question!r}: vector search ranks its reply at {vector}"
    return True


def _long_turns_get_a_smaller_share() -> bool:
    import numpy as np

    from aria_kit.thread_context import THREAD_LENGTH, THREAD_WEIGHT, THREAD_WINDOW, shares, with_context
    short, long = shares(np.array([5, 10 * THREAD_LENGTH]), THREAD_WEIGHT, THREAD_LENGTH)
    assert short > long > 0 and THREAD_WINDOW >= 1 and HybridMemory().thread_window == THREAD_WINDOW
    # turn 1 shares no word with the query, turn 0 does: turn 1 borrows a share of turn 0's score
    borrowed = with_context(np.array([2.0, 0.0, 0.0]), np.array([1]), np.array([0]), np.array([short] * 3))
    assert borrowed[1] == 2.0 * short and borrowed[0] == 2.0, borrowed
    return True


def _option(number: int, letter: str) -> str:
    from aria_kit.exercises.lesson05 import QUIZ

    return QUIZ.questions[number - 1].options[letter]


_key_holds = partial(quiz_key_holds, "05")  # Q{number}'s computed key is its answer


def _bootstrap_units() -> bool:
    from aria_kit.measuring import bootstrap_interval

    assert inspect.signature(bootstrap_interval).parameters["resamples"].default == 2000
    return 30 * 4 == 120 and _key_holds(3)


def _default_chosen_on_some_dev_sets() -> bool:
    """The kit default's provenance, as the README and the thread-context sweep state it (lesson 14 says which)."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "chosen on the dev splits of the two data sets shipped then (chitchat and fanoutqa)" in readme
    docstring = (ROOT / "benchmarks" / "sweep_thread_window.py").read_text().split('"""')[1]
    assert all(name in docstring for name in ("chitchat_turns", "long_turns")), docstring[:300]
    return True


def _rubric_passes_the_three_metrics_and_not_plain_recall() -> bool:
    """Exercise 05.1's rubric: capped recall, reciprocal rank and nDCG keep it; plain recall breaks rule 2."""
    import contextlib
    import io

    from aria_kit.exercises.lesson05 import _score_problem, check_ranking_score
    from aria_kit.solutions import lesson05 as solved

    with contextlib.redirect_stdout(io.StringIO()):
        assert all(check_ranking_score(fn) for fn in (solved.capped_recall_at_k, solved.reciprocal_rank_at_k,
                                                       solved.ndcg_at_k))
    problem = _score_problem(lambda r, rel, k: recall_at_k(r, rel, k), ["d1"], ["d1", "d2"], 1)
    assert problem is not None and "Rule 2" in problem, problem
    ranking = ["x", "d1", "d2"]  # the three disagree on one ranking
    scores = {solved.capped_recall_at_k(ranking, ["d1", "d2"], 3), solved.reciprocal_rank_at_k(ranking, ["d1", "d2"], 3),
              solved.ndcg_at_k(ranking, ["d1", "d2"], 3)}
    assert len(scores) == 3, scores
    return True


def _five_sets_three_cut_two_written() -> bool:
    assert _five_sets_two_authored()
    return "five" in LESSON.output("Table([(name, len(data.documents)").lower() or len(list_datasets()) == 5


CLAIMS = [
    # The quiz: predict keys computed by the kit, and the figures of their explanations.
    Claim("A question has 2 labelled facts, and a search ranks them 2nd and 5th", lambda: _key_holds(1)),
    Claim("What are its recall@5 and its reciprocal rank", lambda: _key_holds(1)),
    Claim("so recall@5 is 2/2; the reciprocal rank looks only at the first relevant hit, 1/2", lambda: _key_holds(1)),
    Claim("recall@5 1.0 and reciprocal rank 0.5", lambda: _key_holds(1)),
    Claim("0.35 is the mean of 1/2 and 1/5", lambda: abs((1 / 2 + 1 / 5) / 2 - 0.35) < 1e-12 and _key_holds(1)),
    Claim("1/5 is the rank of the last relevant hit", lambda: _key_holds(1)),
    Claim("A question has one labelled answer, and a search ranks it 3rd", lambda: _key_holds(2)),
    Claim("the answer earns 1/log2(3 + 1) = 1/2", lambda: _key_holds(2)),
    Claim("What is the question's nDCG@10?", lambda: _key_holds(2)),
    Claim("0.5", lambda: _option(2, "b") == "0.5" and _key_holds(2)),
    Claim("1/3 is its reciprocal rank", lambda: _key_holds(2)),
    Claim("1.0 is its recall@10", lambda: recall_at_k(["x1", "x2", "a"], ["a"], 10) == 1.0 and _key_holds(2)),
    Claim("1/log2(3) is the gain of rank 2", lambda: _key_holds(2)),
    Claim("A test set holds 30 sessions of 4 questions", lambda: _key_holds(3)),
    Claim("there are 30 independent units of evidence, not 120", _bootstrap_units),
    Claim("each of the 2,000 resamples still has a mean", _bootstrap_units),
    Claim("and keyword search loses its lead over vector search (section 3)", _answers_only_costs_keyword_its_lead),
    Claim("BM25 still scores the cut documents", _answers_only_costs_keyword_its_lead),
    # section 1
    Claim("The kit ships five small ones: three cut by a fixed rule from public data", _five_sets_two_authored),
    Claim("four consecutive turns per memory", _four_turns_per_chitchat_memory),
    Claim("one turn per memory, each memory tagged with its conversation", _every_turn_has_a_thread),
    Claim("eighteen chats of paragraph-long turns, one turn per memory", _long_turns_as_described),
    Claim("**long_turns** (written, from templates)", _long_turns_assembled_from_templates),
    Claim("Read the written sets as demonstrations", _five_sets_two_authored),
    Claim("Only chitchat_turns and long_turns have threads", _only_two_sets_have_threads),
    Claim("a turn's keyword score borrows a share of its neighbours' keyword scores, a smaller share for a long",
          _long_turns_get_a_smaller_share),
    Claim("This lesson uses dev only", _dev_only),
    # section 2 and exercise 05.1
    Claim("Aria recalls the top 3 for each request", _recalls_three),
    Claim("even though most fanoutqa questions have more than five relevant facts",
          _most_fanoutqa_questions_have_more_than_five),
    Claim("On a question with one answer the two are equal", _capped_equals_plain_with_one_answer),
    Claim("Plain recall breaks rule 2; capped recall, reciprocal rank and nDCG keep it, and disagree",
          _rubric_passes_the_three_metrics_and_not_plain_recall),
    # section 3
    Claim("Four settings", _four_settings),
    Claim("lesson 04's search, RRF with $k = 60$, every query word kept", _seed_setting),
    Claim("what `HybridMemory()` does with no arguments", _kit_default_is_a_plain_memory),
    Claim("The kit default was chosen on some of these sets' dev questions", _default_chosen_on_some_dev_sets),
    Claim("On the mean, keyword search leads on every set but paraphrase, by the most on fanoutqa",
          _keyword_leads_everywhere_but_paraphrase_most_on_fanoutqa),
    Claim("on paraphrase vector search leads by far", _vector_leads_by_far_on_paraphrase),
    Claim("without the sub-questions keyword search loses its lead over vector search, and both find far less",
          _answers_only_costs_keyword_its_lead),
    Claim("Capped recall@k for every $k$ from 1 to 10", _curves_to_ten),
    # section 4
    Claim("the chitchat dev split has 163 questions from 71 sessions", _163_from_71),
    Claim("The paraphrase set asks two questions about each memory, so those two are resampled together",
          _two_questions_per_memory_resampled_together),
    Claim("pairs two settings on capped", _compare_on_capped_recall_by_session),
    # section 5
    Claim("Below are the five chitchat questions", _five_worst),
    Claim("keyword search ranks none of the five labelled replies at all", _worst_share_only_stop_words),
    Claim("Which ranking wins depends on the data", _each_set_has_its_winner),
]

EXEMPT = {
    "recall@5 1.0 and reciprocal rank 0.35": "a wrong option; the computed key rules it out",
    "recall@5 0.4 and reciprocal rank 0.5": "a wrong option; the computed key rules it out",
    "recall@5 1.0 and reciprocal rank 0.2": "a wrong option; the computed key rules it out",
    "0.33": "a wrong option (the reciprocal rank); the computed key rules it out",
    "1.0": "a wrong option (the recall@10); the computed key rules it out",
    "0.63": "a wrong option (the gain of rank 2); the computed key rules it out",
    "recall divides the facts found by the facts labelled (2)": "the definition of recall (measuring.recall_at_k)",
    # objectives and references
    "Lesson 04 showed fusion lifting one answer": "refers to lesson 04's example",
    "compare vector, keyword and fused search on five labelled data sets": "a learning goal; section 1 claims it",
    "with a bootstrap interval that respects sessions": "a learning goal",
    "A search returns a ranking, document ids best first": "a definition",
    "design a score for one ranking and test it against a rubric": "a learning goal (Exercise 05.1)",
    "read the worst failures to see why a search misses": "a learning goal (section 5)",
    "it never falls when a relevant id moves up past an irrelevant one": "the exercise's rubric",
    "*the seed* that lesson 14 walks from": "a definition of the name",
    # definitions, the rubric and the exercises' specifications
    "the share of $R$ found among the first $k$": "a definition",
    "the same count divided by $\\min(k, |R|)$": "a definition",
    "where $r$ is the rank of the first relevant id": "a definition",
    "every relevant id in the top $k$ earns": "a definition",
    "it is 1 when the top $\\min(k, |R|)$ places": "the exercise's rubric, checked by check_ranking_score",
    "it is 0 when no relevant id is in the top $k$": "the exercise's rubric, checked by check_ranking_score",
    "it lies in $[0, 1]$": "the exercise's rubric",
    "an id listed twice, in `ranking` or in `relevant`": "the exercise's rubric",
    "Which fits a memory that recalls three?": "a question to the learner",
    "contain the mean, give `(c, c)`": "the exercise's specification",
    "when each session's questions always agree": "the exercise's specification",
    "with one value per session, agree with": "the exercise's specification",
    "Write `cluster_bootstrap_interval(": "the exercise's specification",
    # method statements
    "Brackets are 95% intervals": "says what the brackets are; summary_table computes 95% intervals",
    "keeps the middle 95% of those means": "the definition of the percentile bootstrap",
    "If the interval includes 0, the data cannot tell": "what an interval means",
    "Count on how many questions A beats B, loses or ties": "the method",
    "The kit default against each single ranking and against the seed": "introduces the chart below",
    # recap and stretch
    "Recall, capped recall, MRR and nDCG ask": "a summary of the definitions",
    "an interval that includes 0 means": "a summary of section 4's method",
    "Write `sign_flip_p_value(": "the stretch task's specification",
    "Does it agree with section 4's intervals?": "a question to the learner",
    # quiz text
    "what happens to the 95% interval": "the question",
    "a human wrote each sub-question from the question": "explains the answer; 'BM25' is a name",
    "BM25 cannot score short documents": "a distractor, explained",
}
