"""Claims in 14_going_further_tuning, each tied to the output that makes it true (most numbers are rendered by the cells)."""

import inspect
import re
from functools import partial

from aria_kit.datasets import list_datasets, load_dataset
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.tuning import kit_default, one_factor_steps
from lesson05_figures import heldout_table
from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

LESSON = Lesson("14_going_further_tuning")
LESSON_05 = Lesson("05_measuring_memory")


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", text)]


def _interval(cell: str) -> tuple[float, float, float]:
    mean, low, high = _numbers(cell)
    return mean, low, high


def _pivot(fragment: str, header_start: str) -> dict[str, dict[str, str]]:
    """A table printed with one row per item and one column per header: ``{first cell: {header: cell}}``."""
    text = LESSON.output(fragment)
    assert header_start in text, f"no table with a header starting {header_start!r} in the output of {fragment!r}"
    lines = [line.rstrip() for line in text[text.index(header_start):].splitlines()]
    headers = re.split(r"\s{2,}", lines[0].strip())
    starts = [lines[0].index(h) for h in headers]  # cells may be empty, so cut at the headers' columns
    table = {}
    for line in lines[2:]:
        if line.strip():
            cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
            table[cells[0]] = dict(zip(headers, cells))
    return table


def _threaded() -> list[str]:
    return [name for name in list_datasets() if any("thread" in d.metadata for d in load_dataset(name).documents)]


def _walk(split: str = "dev") -> dict[str, dict[str, str]]:
    fragment = "dev_walk = walk(dev, no_context)" if split == "dev" else "held_walk = walk(heldout"
    return _pivot(fragment, f"{split}: change from the step before")


def _whole_path_verdict() -> str:
    return LESSON.output("whole_path = {name: compare(")


def _leads() -> dict[str, float]:
    """Keyword minus vector, dev capped recall@5, per set, as lesson 05 renders it."""
    text = LESSON_05.output("Keyword search minus vector search")
    return dict(zip(re.findall(r"\*\*(\w+)\*\*", text), _numbers(text)))


def _seed_setting() -> bool:
    source = next(c.source for c in LESSON.notebook.cells if "settings = {" in c.source)
    assert "(RRF(60), False, False)" in source and "thread_window=0" in source
    return True


def _four_settings() -> bool:
    source = next(c.source for c in LESSON.notebook.cells if "settings = {" in c.source)
    labels = re.findall(r'"([^"]+)": \(|"(kit default)": kit_default', source)
    assert [a or b for a, b in labels] == ["vector", "keyword", "seed (RRF 60)", "kit default"], labels
    return True


def _steps_change_one_thing() -> bool:
    assert list(one_factor_steps()) == ["seed (RRF 60, all words)", "+ stems", "− query stop words", "convex(w=0.5)"]
    assert list(_walk()) == [*one_factor_steps(), "+ thread context"], list(_walk())
    return True


def _thread_context_only_where_threads() -> bool:
    row = _walk()["+ thread context"]
    assert [name for name in list_datasets() if row[name]] == _threaded(), row
    return True


def _thread_context_chosen_on(named: list[str]) -> bool:
    """The sets the lesson names for the thread context's choice are the thread sets its sweep script names."""
    docstring = (ROOT / "benchmarks" / "sweep_thread_window.py").read_text().split('"""')[1]
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
    """The rule the lesson states is the one benchmarks/sweep_thread_borrow.py wrote down, and the setting it names ships."""
    from aria_kit.thread_context import THREAD_BORROW, THREAD_WINDOW
    docstring = " ".join((ROOT / "benchmarks" / "sweep_thread_borrow.py").read_text().split('"""')[1].split())
    assert ("among settings whose fused ranking loses on no set to no context, to keyword search or to vector search "
            "(each at that setting), the best mean of the sets' fused recall@5") in docstring, docstring[:300]
    assert (THREAD_BORROW, THREAD_WINDOW) == ("missing words", 1), (THREAD_BORROW, THREAD_WINDOW)
    return _thread_context_chosen_on(["chitchat_turns", "long_turns"])


def _thread_context_helps_short_turns_within_noise_on_long() -> bool:
    row = _walk()["+ thread context"]
    assert _interval(row["chitchat_turns"])[1] > 0, row
    low, high = _interval(row["long_turns"])[1:]
    assert low <= 0 <= high, row
    return True


def _not_every_step_helped_and_stop_words_within_noise() -> bool:
    walk, verdict = _walk(), _whole_path_verdict()
    ahead = verdict.split("is clearly ahead on ", 1)[1].split(";")[0].split(" on dev")[0].split(", ")
    for name in ("chitchat", "fanoutqa"):
        low, high = _interval(walk["− query stop words"][name])[1:]
        assert low <= 0 <= high, (name, walk["− query stop words"][name])
        assert name in ahead, f"the whole path is not clearly ahead of the seed on {name}: {verdict}"
    return True


def _path_can_lead_with_steps_within_noise() -> bool:
    return _not_every_step_helped_and_stop_words_within_noise()


def _best_per_set() -> dict[str, list[str]]:
    rows = [re.split(r"\s{2,}", line.strip()) for line in LESSON.output('title="dev: the best of 64').splitlines()]
    return {row[0]: row for row in rows if row[0] in list_datasets()}


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
    return _key_holds(2)  # a tie goes to 0.5


def _tunes_one_memory_per_winner() -> bool:
    source = next(c.source for c in LESSON.notebook.cells if "tunings, tuned_weights = {}, {}" in c.source)
    assert 'for name in ("fanoutqa", "paraphrase")' in source
    leads = _leads()
    assert leads["fanoutqa"] > 0 > leads["paraphrase"], leads
    return True


def _tune_scores_plain_recall_below_the_capped_figures() -> bool:
    """tune's score is plain mean recall@k, so fanoutqa's (many facts per question) lies below the capped figure."""
    assert "len(wanted & {hits[i].id for i in top}) / len(wanted)" in inspect.getsource(HybridMemory.tune)
    chosen = LESSON.output("chose weight **{weight:g}**")
    plain = float(re.search(r"weight \*\*0\.2\*\* on fanoutqa's dev questions \(mean recall@5 (\d\.\d+)", chosen).group(1))
    best = _best_per_set()["fanoutqa"]
    assert best[1] == "convex(w=0.2) −stop +stem" and plain < float(best[2]), (plain, best)
    return True


def _tuned_weights_are_the_tuned_settings_and_beat_the_default() -> bool:
    chosen = LESSON.output("chose weight **{weight:g}**")
    assert "weight **0.2** on fanoutqa's" in chosen and "weight **1** on paraphrase's" in chosen, chosen
    tuned = LESSON.output("tuned on dev → {setting_label(setting)}")
    assert "fanoutqa: tuned on dev → convex(w=0.2) −stop +stem" in tuned and "paraphrase: tuned on dev → vector\n" in tuned
    assert kit_default()[0].name == "convex(w=0.5)"
    table = heldout_table()
    for name in ("fanoutqa", "paraphrase"):
        assert _interval(table[name]["kit default − tuned on dev"])[2] < 0, table[name]
    return True


def _some_tuned_keep_some_lose() -> bool:
    differences = [_interval(row["kit default − tuned on dev"])[0] for row in heldout_table().values()]
    assert len(differences) == len(list_datasets()) and min(differences) < 0 < max(differences), differences
    return True


def _only_paraphrase_pays_for_a_step_on_held_out() -> bool:
    """The held-out walk: every step whose interval lies wholly below 0 is on paraphrase, and there is one."""
    costs = [(step, name) for step, row in _walk("heldout").items() for name in list_datasets()
             if row[name] not in ("", "—") and _interval(row[name])[2] < 0]
    assert costs and {name for _, name in costs} == {"paraphrase"}, costs
    return _only_paraphrase_played_no_part()


def _held_out_read_in_section_4_only() -> bool:
    cells = LESSON.notebook.cells
    start = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and "## 4." in c.source)
    for cell in cells[:start]:
        if cell.cell_type == "code":
            assert '"heldout"' not in cell.source, f"a cell before section 4 reads the held-out split: {cell.source[:80]!r}"
    return True


_key_holds = partial(quiz_key_holds, "14")  # Q{number}'s computed key is its answer


def _best_of_forty_falls() -> bool:
    """Quiz Q1: 40 equally good settings; the one with the best dev score scores lower on held-out, on average."""
    from aria_kit.solutions.lesson14 import winners_curse

    return winners_curse(40, 50, p=0.6, repeats=500, seed=0) > 0.05


def _rubric_passes_two_rules_and_refuses_choosing_on_heldout() -> bool:
    import contextlib
    import io

    from aria_kit.exercises.lesson14 import check_choose_then_report
    from aria_kit.solutions.lesson14 import best_on_dev, simplest_near_best

    def on_heldout(candidates, dev_score, heldout_score):
        scores = {label: heldout_score(setting) for label, setting in candidates.items()}
        best = max(scores, key=scores.get)
        return best, scores[best]

    with contextlib.redirect_stdout(io.StringIO()):
        assert check_choose_then_report(best_on_dev) and check_choose_then_report(simplest_near_best)
        assert not check_choose_then_report(on_heldout)
    return True


CLAIMS = [
    # the quiz
    Claim("You try 40 settings on the dev questions and keep the one with the highest dev score.", _best_of_forty_falls),
    Claim("lower, most likely: the highest of 40 noisy scores is partly luck", _best_of_forty_falls),
    Claim("A memory holds three notes, and you call memory.tune on two questions", lambda: _key_holds(2)),
    Claim("0.5: on a tie, the weight nearest the middle", lambda: _key_holds(2)),
    Claim("every weight scores 1.0, and tune breaks ties toward 0.5", lambda: _key_holds(2)),
    Claim("a tie is a result, not an error", lambda: _key_holds(2)),
    # header and setup
    Claim("section 1 walks from [the seed]", _seed_setting),
    Claim("Lesson 05's data sets, scored once, and its four settings", _four_settings),
    Claim("the best of many settings on dev looks better than it will on new questions", _some_tuned_keep_some_lose),
    # section 1
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
    # section 2
    Claim("The best setting per set by dev capped recall@5", _top_five_within_a_few_questions),
    Claim("on every set the top five settings lie within a few questions of each other",
          _top_five_within_a_few_questions),
    # exercise 14.1 and section 3
    Claim("`show_solution(\"14.1\")` shows two rules", _rubric_passes_two_rules_and_refuses_choosing_on_heldout),
    Claim("it tries the convex weights 0.0, 0.1, … 1.0, keeps the one", _tune_tries_eleven_weights_at_five),
    Claim("It scores plain recall@5, so fanoutqa's figures lie below section 2's capped ones",
          _tune_scores_plain_recall_below_the_capped_figures),
    Claim("Here it tunes two memories on their dev questions, one per winner", _tunes_one_memory_per_winner),
    # section 4
    Claim("Nothing below feeds back into a choice", _held_out_read_in_section_4_only),
    Claim("some tuned settings keep their lead and some lose", _some_tuned_keep_some_lose),
    Claim("paraphrase, which played no part in any choice, is where a step of the default clearly costs on held-out",
          _only_paraphrase_pays_for_a_step_on_held_out),
    Claim("The weights `tune` chose in section 3 (0.2 on fanoutqa, 1 on paraphrase)",
          _tuned_weights_are_the_tuned_settings_and_beat_the_default),
    # recap
    Claim("a whole path can lead while some of its steps are within noise", _path_can_lead_with_steps_within_noise),
    Claim("the top five lie within a few questions of each other", _top_five_within_a_few_questions),
]

EXEMPT = {
    # objectives and references
    "walk from lesson 04's search to the kit's default one change at a time": "a learning goal (section 1)",
    "search a grid of settings per data set": "a learning goal (section 2)",
    "design a rule that chooses a setting on dev and reads held-out once": "a learning goal (Exercise 14.1)",
    "tune a memory you own with `memory.tune`, then report held-out once": "a learning goal (section 3)",
    "then score the held-out questions once, for the setting chosen": "the protocol, stated before it is applied",
    "Pick one setting per data set by the rule fixed above": "the protocol, stated before it is applied",
    "Without a running kernel the controls do nothing": "about the widget",
    # the exercise's rubric and the stretch's specification
    "the label is one of the candidates'": "the exercise's rubric, checked by check_choose_then_report",
    "held-out is read once": "the exercise's rubric",
    "the choice depends on dev alone": "the exercise's rubric",
    "a candidate ahead of every other by 0.2 or more on dev is chosen": "the exercise's rubric",
    "the best dev score, the simplest setting within a question of the best": "the designs the learner may choose",
    "Write `winners_curse(": "the stretch task's specification",
    "equally good settings, each finding a question's answer with probability": "the stretch task's specification",
    "Walk from the seed to the default changing one thing per step": "the method",
    "On one set the stop-words step reads": "a hypothetical case (transfer), answered by the walk's method",
    "a step is measured against the step before it": "explains the answer from the method",
    "How does the gap grow with the settings tried": "a question to the learner",
    "Choose on dev by a rule fixed in advance; read held-out once": "a summary of the protocol",
    "The gap between the two is the part of your tuning that was luck": "what the gap means, not a measurement",
    "Measure on your own data before you trust a setting": "advice",
    "The same walk from the seed to the default, one change at a time, on held-out": "introduces the table below",
    "Back to the course at lesson 06": "a pointer to other lessons",
    # quiz text: hypotheticals and distractors, each explained
    "0.0: the first weight it tried": "a distractor, explained",
    "1.0: the last weight it tried": "a distractor, explained",
    "none: it raises, since no weight is better": "a distractor, explained",
    "a rule that keeps the first of equal scores would": "explains a distractor",
    "a rule that keeps the last improvement would": "explains a distractor",
    "A walk from a baseline adds stems": "a hypothetical case (transfer), answered by the walk's method",
    "that step is within noise there, after the stems": "the answer to a hypothetical, from the method",
    "dropping stop words hurts on that set": "a distractor, explained",
    "the interval includes 0, and the step was measured after the stems": "explains a distractor",
    "the path's lead must be wrong": "a distractor, explained",
    "dropping stop words helps, since the path": "a distractor, explained",
    "the path's lead says nothing about which step": "explains a distractor",
    "higher: held-out questions are the easier half": "a distractor, explained in its why_not",
    "dev scores carry real information": "explains a distractor",
    "Two ways to report a tuned fusion weight": "the question",
    "B: twice the questions give a narrower interval": "a distractor, explained",
    "report the best held-out score": "a wrong option; its explanation says why",
}
