"""Claims in 05_measuring_memory, each tied to the output that makes it true (most numbers are rendered by the cells)."""

import inspect
import re

from aria_kit.bm25 import STOPWORDS
from aria_kit.datasets import DATA_DIR, list_datasets, load_dataset
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import capped_recall_at_k, query_clusters, recall_at_k
from aria_kit.tuning import compare, kit_default, one_factor_steps, recall_curve, setting_label
from lesson05_figures import heldout_table
from lesson_claims import ROOT, Claim, Lesson

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


def _tunes_one_memory_per_winner() -> bool:
    source = next(c.source for c in LESSON.notebook.cells if "tunings, tuned_weights = {}, {}" in c.source)
    assert 'for name in ("fanoutqa", "paraphrase")' in source
    leads = _leads()
    assert leads["fanoutqa"] > 0 > leads["paraphrase"], leads
    return True


def _tune_moved_paraphrase_to_vector() -> bool:
    assert "chose weight **1** on paraphrase's dev questions" in LESSON.output("chose weight **{weight:g}**")
    assert kit_default()[0].name == "convex(w=0.5)"
    return True


def _tuned_weights_are_the_tuned_settings_and_beat_the_default() -> bool:
    chosen = LESSON.output("chose weight **{weight:g}**")
    assert "weight **0.2** on fanoutqa's" in chosen and "weight **1** on paraphrase's" in chosen, chosen
    tuned = LESSON.output("tuned on dev → {setting_label(setting)}")
    assert "fanoutqa: tuned on dev → convex(w=0.2) −stop +stem" in tuned and "paraphrase: tuned on dev → vector\n" in tuned
    table = heldout_table()
    for name in ("fanoutqa", "paraphrase"):
        assert _interval(table[name]["kit default − tuned on dev"])[2] < 0, table[name]
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


def _dev_only_until_section_8() -> bool:
    cells = LESSON.notebook.cells
    end = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and "## 8." in c.source)
    for cell in cells[:end]:
        if cell.cell_type == "code":
            source = cell.source.replace('len(data.queries["heldout"])', "")  # counting questions reads no score
            assert '"heldout"' not in source, f"a cell before section 8 reads the held-out split: {cell.source[:80]!r}"
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


def _walk(split: str = "dev") -> dict[str, dict[str, str]]:
    fragment = "dev_walk = walk(dev, no_context)" if split == "dev" else "held_walk = walk(heldout"
    return _pivot(fragment, f"{split}: change from the step before")


def _steps_change_one_thing() -> bool:
    assert list(one_factor_steps()) == ["seed (RRF 60, all words)", "+ stems", "− query stop words", "convex(w=0.5)"]
    assert list(_walk()) == [*one_factor_steps(), "+ thread context"], list(_walk())
    return True


def _thread_context_only_where_threads() -> bool:
    row = _walk()["+ thread context"]
    assert [name for name in list_datasets() if row[name]] == _threaded(), row
    assert kit_default()[0].name == "convex(w=0.5)"
    return True


def _whole_path(name: str) -> tuple[float, float, float]:
    return _interval(_pivot('ties = [r["ties"]', "dev, capped recall@5")[name]["kit default − seed (RRF 60)"])


def _thread_context_chosen_on(named: list[str]) -> bool:
    """The sets the lesson names for the thread context's choice are the thread sets its sweep script names."""
    sweep = (ROOT / "benchmarks" / "sweep_thread_window.py").read_text()
    docstring = sweep.split('"""')[1]
    assert [name for name in _threaded() if name in docstring] == named, docstring[:300]
    return True


def _default_chosen_on_chitchat_fanoutqa_and_thread_sets() -> bool:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "chosen on the dev splits of the two data sets shipped then (chitchat and fanoutqa)" in readme
    return _thread_context_chosen_on(["chitchat_turns", "long_turns"])


def _only_paraphrase_played_no_part() -> bool:
    _default_chosen_on_chitchat_fanoutqa_and_thread_sets()
    chosen_on = {"chitchat", "fanoutqa", *_threaded()}
    assert [name for name in list_datasets() if name not in chosen_on] == ["paraphrase"], list_datasets()
    return True


def _thread_context_chosen_by_the_sweeps_rule() -> bool:
    docstring = " ".join((ROOT / "benchmarks" / "sweep_thread_window.py").read_text().split('"""')[1].split())
    assert "the best mean of the sets' fused recall@5, among settings that lose to no context on no set's" in docstring
    return _thread_context_chosen_on(["chitchat_turns", "long_turns"])


def _thread_context_helps_short_turns_within_noise_on_long() -> bool:
    row = _walk()["+ thread context"]
    assert _interval(row["chitchat_turns"])[1] > 0, row
    low, high = _interval(row["long_turns"])[1:]
    assert low <= 0 <= high, row
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


def _not_every_step_helped_and_stop_words_within_noise() -> bool:
    walk = _walk()
    for name in ("chitchat", "fanoutqa"):
        low, high = _interval(walk["− query stop words"][name])[1:]
        assert low <= 0 <= high, (name, walk["− query stop words"][name])
        assert _whole_path(name)[1] > 0, f"the whole path is not clearly ahead of the seed on {name}"
    return True


def _best_per_set() -> dict[str, list[str]]:
    return {row[0]: row for row in _rows('title="dev: the best of 64', "")
            if row[0] in list_datasets()}


def _top_five_within_a_few_questions() -> bool:
    rows = _best_per_set()
    assert len(rows) == len(list_datasets()), rows
    assert all(float(row[2]) >= float(row[3]) and float(row[4]) <= 5 for row in rows.values()), rows
    assert len({row[1] for row in rows.values()}) >= 3, "the sets want the same setting"
    return True


def _tune_tries_eleven_weights_at_five() -> bool:
    parameters = inspect.signature(HybridMemory.tune).parameters
    assert parameters["k"].default == 5
    assert tuple(parameters["weights"].default) == tuple(w / 10 for w in range(11))
    return True


def _some_tuned_keep_some_lose() -> bool:
    differences = [_interval(row["kit default − tuned on dev"])[0] for row in heldout_table().values()]
    assert len(differences) == len(list_datasets()) and min(differences) < 0 < max(differences), differences
    return True


def _key_holds(number: int) -> bool:
    """Quiz question ``number``'s computed key is its answer (the kit run on the question's case)."""
    from aria_kit.exercises.lesson05 import QUIZ

    question = QUIZ.questions[number - 1]
    assert question.compute() == question.answer, f"Q{number}: the kit makes {question.compute()!r} true"
    return True


def _best_of_forty_falls() -> bool:
    """Quiz Q1: 40 equally good settings; the one with the best dev score scores lower on held-out, on average."""
    import numpy as np

    rng = np.random.default_rng(0)
    dev = rng.binomial(50, 0.6, size=(500, 40)) / 50  # 500 repetitions of 40 settings on 50 dev questions
    held_out = rng.binomial(50, 0.6, size=(500, 40)) / 50
    best = dev.argmax(axis=1)
    rows = np.arange(500)
    return float((dev[rows, best] - held_out[rows, best]).mean()) > 0.05


def _bootstrap_units() -> bool:
    from aria_kit.measuring import bootstrap_interval

    assert inspect.signature(bootstrap_interval).parameters["resamples"].default == 2000
    return 30 * 4 == 120 and _key_holds(3)


CLAIMS = [
    # The quiz: predict keys computed by the kit, and the figures of their explanations.
    Claim("You try 40 settings on the dev questions and keep the one with the highest dev score.", _best_of_forty_falls),
    Claim("lower, most likely: the highest of 40 noisy scores is partly luck", _best_of_forty_falls),
    Claim("A question has 2 labelled facts, and a search ranks them 2nd and 5th", lambda: _key_holds(2)),
    Claim("What are its recall@5 and its reciprocal rank", lambda: _key_holds(2)),
    Claim("so recall@5 is 2/2; the reciprocal rank looks only at the first relevant hit, 1/2", lambda: _key_holds(2)),
    Claim("recall@5 1.0 and reciprocal rank 0.5", lambda: _key_holds(2)),
    Claim("0.35 is the mean of 1/2 and 1/5", lambda: abs((1 / 2 + 1 / 5) / 2 - 0.35) < 1e-12 and _key_holds(2)),
    Claim("1/5 is the rank of the last relevant hit", lambda: _key_holds(2)),
    Claim("A test set holds 30 sessions of 4 questions", lambda: _key_holds(3)),
    Claim("there are 30 independent units of evidence, not 120", _bootstrap_units),
    Claim("each of the 2,000 resamples still has a mean", _bootstrap_units),
    Claim("so it *shows* the case where meaning beats words", _meaning_beats_words_on_paraphrase),
    Claim("On paraphrase vector search leads by far", _vector_leads_by_far_on_paraphrase),
    Claim("The paraphrase set asks two questions about each memory, so those two are resampled together",
          _two_questions_per_memory_resampled_together),
    Claim("Here it tunes two memories on their dev questions, one per winner", _tunes_one_memory_per_winner),
    Claim("On paraphrase the default weight gives the misleading words half the say", _tune_moved_paraphrase_to_vector),
    Claim("The kit ships five small ones: three cut by a fixed rule from public data", _five_sets_two_authored),
    Claim("Read the scores of the two written sets as demonstrations", _five_sets_two_authored),
    Claim("four consecutive turns per memory", _four_turns_per_chitchat_memory),
    Claim("one turn per memory, each memory tagged with its conversation", _every_turn_has_a_thread),
    Claim("Eighteen chats in which one person writes to an assistant over weeks", _long_turns_as_described),
    Claim("Only chitchat_turns and long_turns have threads", _only_two_sets_have_threads),
    Claim("a turn's keyword score borrows a share of its neighbours' keyword scores, a smaller share for a long",
          _long_turns_get_a_smaller_share),
    Claim("Assembled from templates, it too shows a case", _long_turns_assembled_from_templates),
    Claim("so it *shows* the case where meaning beats words", _meaning_beats_words_on_paraphrase),
    Claim("Everything until section 8 uses dev only", _dev_only_until_section_8),
    Claim("Most fanoutqa questions have more than five relevant facts", _most_fanoutqa_questions_have_more_than_five),
    Claim("On a question with one answer the two are equal", _capped_equals_plain_with_one_answer),
    Claim("Aria recalls the top 3 into its prompt", _recalls_three),
    Claim("Four settings to start", _four_settings),
    Claim("what lesson 04 built, RRF with $k = 60$, every query word kept", _seed_setting),
    Claim("what `HybridMemory()` does with no arguments", _kit_default_is_a_plain_memory),
    Claim("The kit default was chosen on the dev questions of some of these sets",
          _default_chosen_on_chitchat_fanoutqa_and_thread_sets),
    Claim("Keyword search leads on every set but paraphrase, by the most on fanoutqa",
          _keyword_leads_everywhere_but_paraphrase_most_on_fanoutqa),
    Claim("On paraphrase vector search leads by far", _vector_leads_by_far_on_paraphrase),
    Claim("without the sub-questions keyword search loses its lead over vector search, and both find far less",
          _answers_only_costs_keyword_its_lead),
    Claim("the capped recall@k curves show every $k$ from 1 to 10", _curves_to_ten),
    Claim("the chitchat dev split has 163 questions from 71 sessions", _163_from_71),
    Claim("The paraphrase set asks two questions about each memory, so those two are resampled together",
          _two_questions_per_memory_resampled_together),
    Claim("pairs two settings on capped recall@5 and resamples sessions", _compare_on_capped_recall_by_session),
    Claim("Below are the five chitchat questions", _five_worst),
    Claim("keyword search ranks none of the five labelled replies at all", _worst_share_only_stop_words),
    Claim("changes several things at once: stems, stop words, the fusion, thread context", _steps_change_one_thing),
    Claim("The last step, thread context, applies only to the sets with threads", _thread_context_only_where_threads),
    Claim("So the default is not a list of steps that each helped", _not_every_step_helped_and_stop_words_within_noise),
    Claim("Its stems, stop words and convex mix were chosen together, on the dev splits of chitchat and fanoutqa",
          _default_chosen_on_chitchat_fanoutqa_and_thread_sets),
    Claim("dropping the query's stop words is within noise on both, yet the whole path leads the seed clearly",
          _not_every_step_helped_and_stop_words_within_noise),
    Claim("Its thread context was chosen on the dev splits of chitchat_turns and long_turns, as the best mean",
          _thread_context_chosen_by_the_sweeps_rule),
    Claim("it helps the short turns and is within noise on the long ones",
          _thread_context_helps_short_turns_within_noise_on_long),
    Claim("Only paraphrase played no part in any choice", _only_paraphrase_played_no_part),
    Claim("The best setting per set by dev capped recall@5", _top_five_within_a_few_questions),
    Claim("on every set the top five settings lie within a few questions of each other",
          _top_five_within_a_few_questions),
    Claim("it tries the convex weights 0.0, 0.1, … 1.0, keeps the one", _tune_tries_eleven_weights_at_five),
    Claim("Here it tunes two memories on their dev questions, one per winner", _tunes_one_memory_per_winner),
    Claim("some tuned settings keep their lead and some lose it", _some_tuned_keep_some_lose),
    Claim("The kit's default weight is a compromise across the sets",
          _tuned_weights_are_the_tuned_settings_and_beat_the_default),
    Claim("the weights `tune` chose in section 7 (0.2 on fanoutqa, 1 on paraphrase)",
          _tuned_weights_are_the_tuned_settings_and_beat_the_default),
    Claim("On paraphrase the default weight gives the misleading words half the say", _tune_moved_paraphrase_to_vector),
    Claim("keyword search on every set but paraphrase, vector search on paraphrase", _each_set_has_its_winner),
    Claim("and keyword search loses its lead over vector search (section 3)", _answers_only_costs_keyword_its_lead),
    Claim("BM25 still scores the cut documents", _answers_only_costs_keyword_its_lead),
]

EXEMPT = {
    "recall@5 1.0 and reciprocal rank 0.35": "a wrong option; the computed key rules it out",
    "recall@5 0.4 and reciprocal rank 0.5": "a wrong option; the computed key rules it out",
    "recall@5 1.0 and reciprocal rank 0.2": "a wrong option; the computed key rules it out",
    "recall divides the facts found by the facts labelled (2)": "the definition of recall (measuring.recall_at_k)",
    "report the best held-out score": "a wrong option; its explanation says why",
    # objectives and references
    "Lesson 04 showed fusion lifting one answer": "refers to lesson 04's example",
    "define a recall@k a perfect answer always scores 1 on": "a learning goal (the definition follows)",
    "over five labelled data sets (three cut from real data, two written for": "a learning goal; section 1 claims it",
    "with a bootstrap interval that respects chat sessions": "a learning goal",
    "one change at a time, and see which change did what": "a learning goal",
    "Short memories about a person's circle": "quotes memories of the set ('at six' is a quoted distractor's words)",
    "A search returns a ranking, document ids best first": "a definition",
    "This lesson calls it *the seed*": "a definition of the name",
    # definitions and the exercises' specifications
    "the share of $R$ found among the first $k$": "a definition",
    "the same count divided by $\\min(k, |R|)$": "a definition",
    "where $r$ is the rank of the first relevant id": "a definition",
    "It cares only about the first hit": "what the definition implies",
    "every relevant id in the top $k$ earns": "a definition",
    "Divide by the DCG of the best possible ranking": "a definition",
    "the result lies in $[0, 1]$": "the exercise's specification",
    "an id listed twice, in `relevant` or in `ranking`": "the exercise's specification",
    "`k = 1` gives 0.0": "a worked example of the specification, checked by check_capped_recall",
    "The one formula to copy out in this lesson": "an instruction",
    "Mind a question with more relevant ids than $k$": "an instruction about an edge case",
    "contain the mean, and give `(c, c)`": "the exercise's specification",
    "when each session's questions always agree": "the exercise's specification",
    "Write `cluster_bootstrap_interval(": "the exercise's specification",
    # method statements (names with digits, and intervals described)
    "scores every question against every document once": "describes score_dataset; 'BM25' is a name (test_tuning "
                                                          "checks it)",
    "prints every metric of these settings on every set": "a pointer to the benchmark that prints them",
    "The brackets are 95% intervals": "says what the brackets are; summary_table computes 95% intervals",
    "They are honest for the first three settings": "the selection-bias caveat, not a measurement",
    "so on those sets its dev interval is": "the selection-bias caveat, not a measurement",
    "Two means that differ by 0.02 may differ by luck": "a hypothetical illustration",
    "Two habits make a comparison honest": "introduces the list",
    "on how many does A beat B, lose, or tie": "a question, not a claim",
    "keep the middle 95% of those means": "the definition of the percentile bootstrap",
    "If the interval includes 0, the data cannot tell": "what an interval means",
    "How much the sessions matter, on the kit default's dev scores": "introduces the rendered line below it",
    "Below, the kit default against each single ranking": "introduces the chart and the caveat of section 3",
    "To know what each one does, walk from the seed": "the method",
    "Without a running kernel the controls do nothing": "about the widget",
    "section 8 reads the held-out questions once": "a pointer to a section",
    "Section 8 walks the same path on held-out": "a pointer to a section",
    "Pick one setting per data set by the rule fixed above": "the protocol, stated before it is applied",
    "Measure on your own data before you trust a setting": "advice",
    "The same walk from the seed to the default, one change at a time, on the held-out": "introduces the table below",
    # recap and stretch: summaries of what the sections above showed (claimed there) and the task's specification
    "each answer a different question: found at all": "a summary of the definitions",
    "One mean is not a result: compare settings": "a summary of section 4's method",
    "Change one thing at a time to learn": "a summary of section 6's method",
    "The gap between the two is the part of your tuning that was luck": "what the gap means, not a measurement",
    "If two settings were equally good": "the stretch task's hypothesis",
    "Write `sign_flip_p_value(": "the stretch task's specification",
    # quiz text: hypotheticals and distractors, each explained
    "higher: held-out questions are the easier half": "a distractor, explained in its why_not",
    "dev scores carry real information": "explains a distractor",
    "what happens to the 95% interval": "the question",
    "Two ways to report a tuned fusion weight": "the question",
    "B: twice the questions give a narrower interval": "a distractor, explained",
    "a human wrote each sub-question from the question": "explains the answer; 'BM25' is a name",
    "BM25 cannot score short documents": "a distractor, explained",
}
