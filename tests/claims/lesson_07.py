"""Claims in 07_persona, each tied to the output that makes it true."""

import inspect
from functools import partial

from lesson_claims import Claim, Lesson, quiz_key_holds
from request_model import check_request_model

from aria_kit.exercises import lesson07
from aria_kit.offline import OfflineProvider
from aria_kit.persona import ARIA, BEHAVIOUR_RULES, LIVE_CONTEXT_HEADING
from aria_kit.solutions.lesson07 import compile_persona, violations

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


def _agent_turn():
    from aria_kit.demo import make_agent
    agent = make_agent()
    agent.chat("What did Alice order?")
    return agent.last_turn


def _measured(persona: str) -> tuple[int, int]:
    row = next(line for line in LESSON.output("measure(OfflineProvider)").splitlines() if line.startswith(persona))
    containing, prompts = row.split()[-2:]
    return int(containing), int(prompts)


def _request_rows() -> dict[int, list[tuple[str, str]]]:
    """The table "The messages of two requests": request number -> [(role, what it holds)] in order."""
    rows: dict[int, list[tuple[str, str]]] = {}
    for line in LESSON.output('title="The messages of two requests"').splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) == 4 and parts[0].isdigit() and parts[1].isdigit():
            rows.setdefault(int(parts[0]), []).append((parts[2], parts[3]))
    return rows


def _system_first_and_the_same_on_both() -> bool:
    rows = _request_rows()
    assert sorted(rows) == [1, 2], f"the table shows requests {sorted(rows)}"
    for number, messages in rows.items():
        assert messages[0][0] == "system" and messages[0][1].startswith("ARIA.instructions(), "), (
            f"request {number}'s first message is {messages[0]}, not the system message ARIA.instructions()")
        assert sum(role == "system" for role, _ in messages) == 1
    return check_request_model()  # and on requests made here: the same bytes every time, no memory inside


def _live_context_after_the_history() -> bool:
    rows = _request_rows()
    for number, messages in rows.items():
        live = [i for i, (_, what) in enumerate(messages) if what.startswith("live context: ")]
        assert live == [len(messages) - 2] and messages[live[0]][0] == "user", (
            f"request {number}: the live context is not one user message just before the question: {messages}")
    assert rows[1][1][1] == "live context: " + ", ".join(line.split()[0] for line in _recalled()), (
        "request 1's live context is not the top 3 recalled by hand in section 4")
    assert len(rows[1][1][1].split(", ")) == 3
    return check_request_model()


def _request_one_is_three_messages() -> bool:
    first = _request_rows()[1]
    assert len(first) == 3, first
    assert [role for role, _ in first] == ["system", "user", "user"] and first[2][1] == LESSON.output(
        "recalled = memory.search(message, top_k=3)").splitlines()[0].removeprefix("Recalled for: "), first
    return _live_context_after_the_history()


def _request_two_repeats_and_adds() -> bool:
    first, second = _request_rows()[1], _request_rows()[2]
    assert second[0] == first[0], "request 2's system message differs from request 1's"
    assert [role for role, _ in second] == ["system", "user", "assistant", "user", "user"], second
    assert second[1] == first[2], "request 2's history does not start with request 1's question"
    assert second[3][1] != first[1][1], "the new question's live context is the old one's"
    return check_request_model()


def _rules_the_same_for_every_persona() -> bool:
    for persona in lesson07.PERSONAS:
        text = persona.instructions()
        assert all(f"{i}. {rule}" in text for i, rule in enumerate(BEHAVIOUR_RULES, start=1)), persona.name
    return True


def _replaces_only_on_an_update() -> bool:
    from aria_kit.demo import seed_memory
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.interfaces import Hit

    memory = HybridMemory()
    seed_memory(memory)
    assert all(record.supersedes is None for record in memory.list_all()), "a demo memory replaces another"
    plain = Hit("mem_0002", "Alice likes Go.", {"category": "user_pref"}, 1.0, 0.5, 1.0)
    update = Hit("mem_0002", "Alice likes Go.", {"category": "user_pref"}, 1.0, 0.5, 1.0, supersedes="mem_0001")
    assert '"replaces"' not in ARIA.live_context([plain]).splitlines()[-1]
    assert '"replaces": "mem_0001"' in ARIA.live_context([update])
    return "replaces" in LESSON.output("print(ARIA.live_context(recalled))")


def _scrub_reads_the_system_message() -> bool:
    assert "Never say" in inspect.getsource(OfflineProvider._scrub)
    assert 'if m.get("role") == "system"' in inspect.getsource(OfflineProvider.complete)
    return True


def _only_scrub_reads_the_system_message() -> bool:
    """The stand-in passes the system message (the persona) to ``_scrub`` and to nothing else; the lesson prints it."""
    import re

    uses = [line for line in inspect.getsource(OfflineProvider.complete).splitlines()
            if re.search(r'(?<!["\w])system(?!["\w])', line) and "system =" not in line]
    assert uses and all("self._scrub(" in line for line in uses), f"the system message is read outside _scrub: {uses}"
    return "def _scrub" in LESSON.output("OfflineProvider._scrub")


def _two_turns_one_tool_call():
    """The requests of two turns, the first calling memory_search once, and the schemas of the agent's tools."""
    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.scripted import ScriptedProvider, call_tool, say

    memory = HybridMemory()
    seed_memory(memory)
    llm = ScriptedProvider([call_tool("memory_search", {"query": "order"}), say("Order 4821 [mem_0007]."),
                            say("Rust [mem_0001].")])
    agent = make_agent(memory=memory, llm=llm, persona=ARIA)
    agent.chat("What did Alice order?")
    agent.chat("Which language does Alice like?")
    llm.assert_all_used()
    return llm.requests, [tool.schema() for tool in agent.tools.values()]


def _every_request_carries_the_tool_schemas() -> bool:
    requests, schemas = _two_turns_one_tool_call()
    assert len(requests) == 3 and schemas and all(request["tools"] == schemas for request in requests), (
        "a request does not carry the schemas of every tool the agent has")
    return check_request_model()


def _history_is_questions_and_answers() -> bool:
    """Turn 2's history is turn 1's question and answer: not its live context, not its tool call or result."""
    requests, _ = _two_turns_one_tool_call()
    messages = requests[2]["messages"]
    at = next(i for i, m in enumerate(messages) if str(m.get("content") or "").startswith(LIVE_CONTEXT_HEADING))
    assert messages[1:at] == [{"role": "user", "content": "What did Alice order?"},
                              {"role": "assistant", "content": "Order 4821 [mem_0007]."}], messages[1:at]
    return check_request_model()


def _tool_rounds_follow_the_message() -> bool:
    """Round 2 of a turn is round 1's messages, then the model's tool call and the tool's result."""
    requests, _ = _two_turns_one_tool_call()
    first, second = requests[0]["messages"], requests[1]["messages"]
    assert first[-1] == {"role": "user", "content": "What did Alice order?"}, first[-1]
    assert second[:len(first)] == first, "round 2 does not repeat round 1's messages"
    call, result = second[len(first):]
    assert call["role"] == "assistant" and call["tool_calls"][0]["function"]["name"] == "memory_search", call
    assert result["role"] == "tool" and result["tool_call_id"] == call["tool_calls"][0]["id"], result
    return True


def _prefix_holds_until_the_budget_drops() -> bool:
    """With the default budget each request starts with the last one's system + history; a tiny budget breaks it."""
    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.scripted import ScriptedProvider, say

    memory = HybridMemory()
    seed_memory(memory)
    llm = ScriptedProvider([say("Answer one."), say("Answer two."), say("Answer three.")])
    agent = make_agent(memory=memory, llm=llm, persona=ARIA)
    agent.history_chars = 100  # room for one exchange, not two
    for question in ("When is Alice's meeting with the infrastructure team?",
                     "Which programming language does Alice like?", "What did Alice order?"):
        agent.chat(question)
    second, third = (request["messages"] for request in llm.requests[1:])
    before = second[:next(i for i, m in enumerate(second) if m["content"].startswith(LIVE_CONTEXT_HEADING))]
    assert len(before) == 3 and third[:len(before)] != before, "the dropped exchange should break the prefix"
    return check_request_model()


def _live_context_stays_short() -> bool:
    """The live context holds the top 3 recalled memories, on the demo memory and on one 40 times its size."""
    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.memory_rules import read_quoted_entries
    from aria_kit.scripted import ScriptedProvider, say

    sizes = []
    for extra in (0, 273):
        memory = HybridMemory()
        seed_memory(memory)
        for n in range(extra):
            memory.store(f"Note {n}: Alice reviewed pull request {n} on the infrastructure team's meeting day.")
        llm = ScriptedProvider([say("Friday.")])
        make_agent(memory=memory, llm=llm, persona=ARIA).chat("When is Alice's meeting with the infrastructure team?")
        live = next(m["content"] for m in llm.requests[0]["messages"] if m["content"].startswith(LIVE_CONTEXT_HEADING))
        sizes.append((len(memory), len(read_quoted_entries(live))))
    assert sizes == [(7, 3), (280, 3)], sizes
    return len(_recalled()) == 3


CLAIMS = [
    Claim("Two fields changed, so two lines of the system message changed", lambda: len(_diff_lines("-"))
          == len(_diff_lines("+")) == 2),
    Claim("The memories recalled for a message travel in a message of their own, the **live context**",
          _live_context_after_the_history),
    Claim("the agent searches its memory *with the message itself* and sends the top 3 hits",
          _live_context_after_the_history),
    Claim("the **system message**, the persona's instructions (`persona.instructions()`), the same bytes on every "
          "request", _system_first_and_the_same_on_both),
    Claim("the **live context**, the memories recalled for this message, in a `user` message of its own after the "
          "history", _live_context_after_the_history),
    Claim('A `"replaces"` field, which the note mentions, appears only on a memory that updated an older',
          _replaces_only_on_an_update),
    Claim("This text is the system message of every request the agent sends (lesson 08), the same bytes every time",
          _system_first_and_the_same_on_both),
    Claim("The **system message** is the first message of every request", _system_first_and_the_same_on_both),
    Claim("The system message decides who the agent is", _system_first_and_the_same_on_both),
    Claim("turns a persona into its system message, equal to the kit's character for character",
          lambda: all(compile_persona(p) == p.instructions() for p in lesson07.PERSONAS)
          and _system_first_and_the_same_on_both()),
    Claim("Equal to `persona.instructions()`, the system message, character for character",
          _system_first_and_the_same_on_both),
    Claim("compiled deterministically into the system message", lambda: all(
        compile_persona(p) == p.instructions() == p.instructions() for p in lesson07.PERSONAS)),
    Claim("then the **rules**, the same for every persona", _rules_the_same_for_every_persona),
    Claim("so a running agent's system message cannot shift behind its back",
          lambda: "FrozenInstanceError: cannot assign to field 'traits'" in LESSON.output("ARIA.traits = (")),
    Claim("Now ask the agent two questions through a stand-in model that records every request",
          lambda: sorted(_request_rows()) == [1, 2]),
    Claim("Request 1 is three messages", _request_one_is_three_messages),
    Claim("Request 2 starts with the same system message, byte for byte", _request_two_repeats_and_adds),
    Claim("The recalled memories come after the history, never inside the system message", _request_two_repeats_and_adds),
    Claim("The system message is the same bytes on every request; the memories recalled for *this* message",
          _live_context_after_the_history),
    Claim("The system message cannot shrink (it is the same bytes on every request)",
          _system_first_and_the_same_on_both),
    Claim("It finds the `Never say:` line in the system message", _scrub_reads_the_system_message),
    Claim("the **agent loop**, which recalls memories, asks the model, runs its tools",
          lambda: [step.kind for step in _agent_turn().steps][:2] == ["recall", "model"]),
    Claim("The live context stays short however large the memory grows", _live_context_stays_short),
    Claim("besides the tool schemas (lesson 06), every request the agent sends holds",
          _every_request_carries_the_tool_schemas),
    Claim("the history: earlier questions and their answers, without their live contexts or tool calls",
          _history_is_questions_and_answers),
    Claim("then this turn's tool calls and their results", _tool_rounds_follow_the_message),
    Claim("until the history budget drops an old exchange", _prefix_holds_until_the_budget_drops),
    Claim("the meeting comes first here, but the next two hits", lambda: [line.split()[0] for line in _recalled()]
          == ["mem_0004", "mem_0001", "mem_0006"]),
    Claim("the same four questions, asked of Aria", lambda: len(_traits_table()) == 4),
    Claim("All four answers are identical", lambda: all("  same  " in line for line in _traits_table())
          and len(_traits_table()) == 4),
    Claim("the regex makes it 0 with the rule", lambda: _measured("with Never say")[0] == 0
          and _measured("without the rule") == (6, 6)),
    Claim("It asks the model 12 questions (6 prompts", lambda: 2 * _measured("without the rule")[1] == 12),
    Claim("on five personas, Aria among them", lambda: len(lesson07.PERSONAS) == 5 and ARIA in lesson07.PERSONAS),
    Claim("\"As an AI language model, I cannot say.\" gives",
          lambda: violations(ARIA, "As an AI language model, I cannot say.") == ["I cannot", "As an AI language model"]
          and violations(ARIA, "Raft replicates the log [mem_0003].") == []),
    Claim("has exactly one rule that reads the persona", _only_scrub_reads_the_system_message),
]
EXEMPT = {
    "Small local models have small context windows": "the stretch task's motivation, about models in general",
    "measure how often a model breaks a \"Never say\" rule": "a learning objective",
    "lessons 04 (hybrid memory) and 06 (tools)": "prerequisites, naming lessons",
    "Each memory is one JSON line with its **id**": "the format printed in cell 18 (one JSON object a line), "
                                                    "and rule 4 names a rule",
    "A real model told never to say \"DDR5\" would rephrase": "DDR5 and 32 GB quote the answer; a statement about "
                                                              "real models",
    "The prompts invite the word, the last two quite hard": "describes the PROMPTS list written in the next cell",
    "Design a rule Aria should follow": "names rule 4; the other rules are examples of the learner's choice",
    "one sentence the model reads": "a specification of the exercise",
    "at least two replies each that keep and that break the rule": "a specification, enforced by check_persona_rule",
    "the hits come best first, so the lowest-ranked are dropped first": "a specification of the stretch task",
    "The check uses four recalled memories": "describes the stretch check (aria_kit/exercises/lesson07.py _fit_test)",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "07")  # Q{number}'s computed key is its answer


def _sections_follow_the_fields() -> bool:
    from aria_kit.persona import AgentPersona
    import dataclasses
    defaults = {f.name: f.default for f in dataclasses.fields(AgentPersona) if f.name not in ("name", "role")}
    assert defaults == {"traits": (), "goals": (), "forbidden_phrases": ()}, defaults
    assert all(all(rule in p.instructions() for rule in BEHAVIOUR_RULES) for p in lesson07.PERSONAS)
    return True


def _system_message_with_memories_changes() -> bool:
    """The teammate's design, the memories appended to the system message: it differs whenever they do."""
    hits = lesson07._hits(["Bob likes tea.", "Bob likes chess."])
    one, two = (ARIA.instructions() + "\n\n" + ARIA.live_context(recalled) for recalled in (hits[:1], hits[1:]))
    assert one != two and one.startswith(ARIA.instructions()) and two.startswith(ARIA.instructions())
    return check_request_model()


CLAIMS += [
    Claim("the rules are BEHAVIOUR_RULES, written into every persona's system", _sections_follow_the_fields),
    Claim("the fields default to empty tuples, not to Aria's values", _sections_follow_the_fields),
    Claim('recalled memories travel in a message of their own after the history',
          lambda: _key_holds(2) and check_request_model()),
    Claim('In the live context message, as the "text" of one quoted JSON line', lambda: _key_holds(2)),
    Claim("the system message is the persona's instructions, the same bytes on", check_request_model),
    Claim('the system message stays the same bytes on every request so that', check_request_model),
    Claim('The system message differs on every request, so a prompt cache reuses', _system_message_with_memories_changes),
]
EXEMPT.update({
    "Aria's Never say: line, since a persona without forbidden phrases":
        'a wrong option; the computed key rules it out',
    'As a new line at the end of the system message, where instructions':
        'a wrong option; the computed key rules it out',
    'In the live context message, as a bare line of its own, so the model':
        'a wrong option; the computed key rules it out',
    'A teammate proposes appending the recalled memories to the end of the':
        "the question's premise: a proposal the options judge",
    'The request gets cheaper: one message fewer for the provider to':
        'a wrong option (a misconception); its explanation says why',
    'Answers get more accurate, because models follow the system message':
        'a wrong option (a misconception); its explanation says why',
    "a model reads a message's role as well as its words: text in the": 'why a wrong option fails',
    'the words are the same, so the tokens are the same; what changes is': 'why a wrong option fails',
})
EXEMPT.update({
    "Your detector must tell your good replies from your bad ones, keep its verdict":
        "describes check_persona_rule (tests/test_exercises_07.py tries each part on a wrong detector)",
    "Aria's persona forbids \"DDR5\" (a Never say line, as in section 5)": "the question's premise; its key is computed",
    "A real model replies \"Order 4821 is 32 GB of DDR-5 RAM.\"": "the question's case; its key is computed",
})
EXEMPT.update({
    "**Predict, then run.** How many messages will request 2 hold":
        "a question to the learner; the table of cell 22 and the claims on cell 23 answer it",
})
