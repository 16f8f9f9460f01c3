"""Claims in 07_persona, each tied to the output that makes it true."""

from lesson_claims import Claim, Lesson

from aria_kit.exercises import lesson07
from aria_kit.persona import ARIA
from aria_kit.solutions.lesson07 import violations

LESSON = Lesson("07_persona")


def _diff_lines(sign: str) -> list[str]:
    diff = LESSON.output('print("\\n".join(diff))').splitlines()
    return [line for line in diff if line.startswith(sign) and not line.startswith(sign * 3)]


def _recalled() -> list[str]:
    return [line for line in LESSON.output("recalled = memory.search(message, top_k=3)").splitlines()
            if line.startswith("mem_")]


def _traits_table() -> list[str]:
    return [line for line in LESSON.output("Changing the traits, offline").splitlines() if "  same  " in line
            or "different" in line]


def _measured(persona: str) -> tuple[int, int]:
    row = next(line for line in LESSON.output("measure(OfflineProvider)").splitlines() if line.startswith(persona))
    containing, prompts = row.split()[-2:]
    return int(containing), int(prompts)


CLAIMS = [
    Claim("Two fields changed, so two lines of the prompt changed", lambda: len(_diff_lines("-")) == len(_diff_lines("+"))
          == 2),
    Claim("puts the top 3 hits into the last section of the prompt", lambda: len(_recalled()) == 3),
    Claim("Only the top 3 are recalled", lambda: len(_recalled()) == 3),
    Claim("The meeting comes first here, but the next two hits", lambda: [line.split()[0] for line in _recalled()]
          == ["mem_0004", "mem_0001", "mem_0006"]),
    Claim("the same four questions, asked of Aria", lambda: len(_traits_table()) == 4),
    Claim("All four answers are identical", lambda: all("  same  " in line for line in _traits_table())
          and len(_traits_table()) == 4),
    Claim("the regex makes it 0 with the rule", lambda: _measured("with Never say")[0] == 0
          and _measured("without the rule") == (6, 6)),
    Claim("It asks the model 12 questions (6 prompts", lambda: 2 * _measured("without the rule")[1] == 12),
    Claim("on five personas (Aria, one with one trait and three goals",
          lambda: len(lesson07.PERSONAS) == 5 and any(len(p.traits) == 1 and len(p.goals) == 3
                                                      for p in lesson07.PERSONAS)),
    Claim("\"As an AI language model, I cannot say.\" gives",
          lambda: violations(ARIA, "As an AI language model, I cannot say.") == ["I cannot", "As an AI language model"]
          and violations(ARIA, "Raft replicates the log [mem_0003].") == []),
    Claim("Exactly one of them reads the persona", lambda: "def _scrub" in LESSON.output("OfflineProvider._scrub")),
]
EXEMPT = {
    "measure how often a model breaks a \"Never say\" rule": "a learning objective",
    "lessons 04 (hybrid memory) and 06 (tools)": "prerequisites, naming lessons",
    "last comes the live context, which is filled in for each message (section 4)": "names a section",
    "Aria's prompt above is one example": "'one' as a pronoun",
    "put yours next to the kit's on a persona of your own": "an instruction to the learner",
    "plus the live context, which section 4 fills in": "names a section",
    "Here we swap \"curious\" for \"playful\" and forbid one more phrase": "describes the code of the next cell",
    "Each memory is one line of JSON with its **id**": "the format printed in cell 18 (one JSON object a line), "
                                                       "and rule 4 names a rule",
    "Only the hits change from one message to the next": "'one' as a pronoun",
    "The forbidden phrases are the one thing the stand-in reacts to": "cell 21 prints the only persona-reading rule "
                                                                      "(claimed above: Exactly one of them)",
    "A real model told never to say \"DDR5\" would not leave a gap": "DDR5 is a name; a statement about real models",
    "The prompts invite the word, the last two quite hard": "describes the PROMPTS list written in the next cell",
    "`violations` enforces one kind of rule": "'one' as a pronoun",
    "Rule 4 of the prompt": "names a rule; the other rules are examples of the learner's choice",
    "one sentence the model reads": "a specification of the exercise",
    "at least two replies each that keep and that break the rule": "a specification, enforced by check_persona_rule",
    "The live context puts the top memories for *this* message": "recap; the count is claimed in section 4",
    "The hits come best first, so the lowest-ranked memories go first": "a specification of the stretch task",
    "The check uses four recalled memories": "describes the stretch check (aria_kit/exercises/lesson07.py _fit_test)",
    "the compiled text is as long as a hand-written one": "quiz explanation; 'one' as a pronoun",
    "Offline, forbidding \"DDR5\" blanks it out of the answer": "claimed by the table in cell 25 (DDR5 becomes …); "
                                                                  "DDR5 is a name",
    "That a real model will never say DDR5 either": "a wrong option (a misconception)",
    "The same \"Never say\" line repeated three times in the prompt": "a wrong option (a misconception)",
}
