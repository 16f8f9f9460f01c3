"""The exercise checks of lesson 07 pass the worked solutions and answer typical wrong answers.

Each wrong answer below is a mistake a learner could really make, so a check
that stopped checking something would turn one of these tests red.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from aria_kit.exercises import lesson07
from aria_kit.persona import ARIA, AgentPersona
from aria_kit.solutions import lesson07 as sol07
from aria_kit.solutions.lesson07 import compile_persona, fit_live_context, violations
from exercise_checks import assert_refused, check_tests, unwritten, verdict

CHECKS = [
    (lesson07.check_compile_persona, compile_persona),
    (lesson07.check_violations, violations),
    (lesson07.check_fit_live_context, fit_live_context),
]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- lesson 07


def _hard_coded_aria(persona):
    return dataclasses.replace(persona, name="Aria", role="a precise research assistant").instructions() \
        if persona.name == "Aria" else compile_persona(dataclasses.replace(persona, traits=()))


def _always_a_traits_line(persona):
    text = compile_persona(persona)
    return text if persona.traits else text.replace("\n\nRules:", "\n\nTraits: .\n\nRules:", 1)


def _phrases_without_quotes(persona):
    return compile_persona(persona).replace('", "', ", ").replace('Never say: "', "Never say: ").replace('".', ".")


def _rules_from_zero(persona):
    import re
    return re.sub(r"^(\d)\. ", lambda m: f"{int(m.group(1)) - 1}. ", compile_persona(persona), flags=re.M)


@pytest.mark.parametrize("wrong", [
    lambda persona: compile_persona(persona) + "\n",
    _hard_coded_aria,
    _always_a_traits_line,
    _phrases_without_quotes,
    _rules_from_zero,
    lambda persona: compile_persona(persona).replace("\n\nGoals:", "\nGoals:"),
], ids=["trailing-newline", "only-aria-right", "empty-traits-line", "unquoted-phrases", "rules-from-zero",
        "missing-blank-line"])
def test_compile_persona_check_rejects_typical_wrong_compilers(wrong, capsys):
    assert lesson07.check_compile_persona(wrong) is False
    assert verdict(capsys) == "✗"


def test_compile_persona_check_names_the_first_differing_line(capsys):
    lesson07.check_compile_persona(lambda persona: compile_persona(persona) + "\n")
    assert "no trailing newline" in capsys.readouterr().out


def _cut_mid_entry(hits, max_chars):
    return AgentPersona.live_context(hits)[:max_chars]


def _drops_the_best_first(hits, max_chars):
    for start in range(len(hits) + 1):
        context = AgentPersona.live_context(hits[start:])
        if len(context) <= max_chars:
            return context
    return AgentPersona.live_context([])


def _never_raises(hits, max_chars):
    try:
        return fit_live_context(hits, max_chars)
    except ValueError:
        return AgentPersona.live_context([])


def _budgets_the_whole_prompt(hits, max_chars):  # counts the system message, which never changes, against the budget
    for keep in range(len(hits), -1, -1):
        if len(ARIA.instructions() + "\n\n" + AgentPersona.live_context(hits[:keep])) <= max_chars:
            return AgentPersona.live_context(hits[:keep])
    raise ValueError("over budget")


@pytest.mark.parametrize("wrong", [_cut_mid_entry, _drops_the_best_first, _never_raises, _budgets_the_whole_prompt])
def test_fit_live_context_check_rejects_budgets_met_the_wrong_way(wrong, capsys):
    assert lesson07.check_fit_live_context(wrong) is False
    assert verdict(capsys) == "✗"


def _case_sensitive(persona: AgentPersona, text: str) -> list[str]:
    return [p for p in persona.forbidden_phrases if p in text]


def _substring(persona: AgentPersona, text: str) -> list[str]:  # the first idea: "just" is found in "adjust"
    return [p for p in persona.forbidden_phrases if p.lower() in text.lower()]


def _exact_spacing(persona: AgentPersona, text: str) -> list[str]:  # whole words, but one space only
    return [p for p in persona.forbidden_phrases if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text, re.I)]


def _in_text_order(persona: AgentPersona, text: str) -> list[str]:  # in the order they occur in the text
    found = [(m.start(), phrase) for phrase in persona.forbidden_phrases
             for m in [re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, re.I)] if m]
    return [phrase for _, phrase in sorted(found)]


def _first_sentence_only(persona: AgentPersona, text: str) -> list[str]:  # reads the opening, where phrases usually sit
    return violations(persona, re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0])


@pytest.mark.parametrize(("wrong", "idea"), [(_case_sensitive, "ignores upper and lower case"),
                                             (_substring, "whole words only"),
                                             (_exact_spacing, "any run of spaces"),
                                             (_in_text_order, "the persona's order"),
                                             (_first_sentence_only, "cannot depend on what surrounds it")])
def test_violations_check_answers_a_typical_mistake_with_its_case_and_idea(wrong, idea, capsys):
    assert_refused(lesson07.check_violations(wrong), capsys, idea)


# ---------------------------------------------------------------- exercise 07.3: a rule and its check


def test_rule_check_accepts_the_worked_design(capsys):
    assert lesson07.check_persona_rule(sol07.RULE, sol07.breaks_rule, sol07.GOOD, sol07.BAD) is True
    assert verdict(capsys) == "✓"


def test_rule_check_reports_the_untouched_stub_as_not_done_yet(capsys):
    assert lesson07.check_persona_rule("", unwritten, [], []) is False
    out = capsys.readouterr().out
    assert out.startswith("○") and 'show_solution("07.3")' in out, out


@pytest.mark.parametrize(("breaks_rule", "good", "bad", "hint"), [
    (lambda reply: True, sol07.GOOD, sol07.BAD, "cries wolf"),                     # flags every reply
    (lambda reply: False, sol07.GOOD, sol07.BAD, "is not caught"),                 # flags none
    (lambda reply: "[mem_" not in reply, sol07.GOOD, sol07.BAD, "cries wolf"),     # forgets replies not from memory
    (lambda reply: reply.split()[0] == "From", sol07.GOOD, sol07.BAD, "return True or False"),  # crashes on ""
    (sol07.breaks_rule, sol07.GOOD[:1], sol07.BAD, "at least two"),               # too few cases to convince
    (lambda reply: reply in sol07.BAD, sol07.GOOD, sol07.BAD, "not look it up"),  # knows only its own replies
    (lambda reply: sol07.breaks_rule(reply.encode("ascii").decode()), sol07.GOOD, sol07.BAD,
     "did not think of"),                                                          # crashes on a reply it never saw
    (lambda reply: bool(sol07.breaks_rule(reply)) if len(reply) < 1000 else None, sol07.GOOD, sol07.BAD,
     "return True or False"),                                                      # no verdict on a long reply
], ids=["flags-everything", "flags-nothing", "ignores-non-memory-replies", "crashes-on-empty", "one-good-case",
        "looks-replies-up", "crashes-on-non-ascii", "none-on-a-long-reply"])
def test_rule_check_answers_a_typical_wrong_design_with_a_hint(breaks_rule, good, bad, hint, capsys):
    assert_refused(lesson07.check_persona_rule(sol07.RULE, breaks_rule, good, bad), capsys, hint)


def test_the_rule_check_runs_the_detector_on_the_offline_answers_of_the_lesson():
    answers = lesson07.offline_answers()
    assert len(answers) == len(lesson07.LESSON_QUESTIONS) == 5
    assert "From memory: Order #4821 was placed by Alice for 32 GB of DDR5 RAM modules. [mem_0007]" in answers
    seen = []
    lesson07.check_persona_rule(sol07.RULE, lambda reply: seen.append(reply) or sol07.breaks_rule(reply),
                                sol07.GOOD, sol07.BAD)
    assert set(answers) | set(lesson07.UNSEEN_REPLIES) <= set(seen)


def test_the_offline_answers_the_073_check_reads_are_what_the_stand_in_says_now():
    # lesson07 may not import lesson 08's stand-in, so it writes the answers out; this keeps them true.
    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.exercises.lesson07 import LESSON_QUESTIONS, OFFLINE_ANSWERS
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.offline import OfflineProvider
    from aria_kit.persona import ARIA

    answers = []
    for question in LESSON_QUESTIONS:
        memory = HybridMemory()
        seed_memory(memory)
        answers.append(make_agent(memory=memory, llm=OfflineProvider(), persona=ARIA).chat(question))
    assert tuple(answers) == OFFLINE_ANSWERS


def test_the_quiz_reads_what_the_stand_ins_blanking_makes_of_a_hyphenated_phrase():
    import dataclasses

    from aria_kit.exercises.lesson07 import STAND_IN_BLANKS_DDR_DASH_5
    from aria_kit.offline import OfflineProvider
    from aria_kit.persona import ARIA

    persona = dataclasses.replace(ARIA, forbidden_phrases=ARIA.forbidden_phrases + ("DDR5",))
    assert OfflineProvider._scrub("Order 4821 is 32 GB of DDR-5 RAM.", persona.instructions()) == \
        STAND_IN_BLANKS_DDR_DASH_5
