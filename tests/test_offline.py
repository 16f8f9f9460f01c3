"""The offline stand-in follows general rules, not the demo's sentences."""

import json

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.offline import OfflineProvider
from aria_kit.persona import ARIA, AgentPersona
from aria_kit.tools import default_tools
from toy_memory import ToyMemory

SCHEMAS = [{"type": "function", "function": {"name": n, "parameters": {}}}
           for n in ("memory_store", "memory_search", "calculator", "web_search")]


def plan(message):
    reply = OfflineProvider().complete([{"role": "system", "content": ARIA.instructions()}, {"role": "user", "content": message}], SCHEMAS)
    return [(c.name, json.loads(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    "message, fact, category",
    [
        ("Please remember that my favourite editor is Vim", "My favourite editor is Vim.", "user_pref"),
        ("Remember: the dentist appointment is on Tuesday at 9 am.", "The dentist appointment is on Tuesday at 9 am.", "calendar"),
        ("Bob ordered two monitors — note that.", "Bob ordered two monitors.", "order"),
        ("Keep in mind that we switched the CI to GitHub Actions", "We switched the CI to GitHub Actions.", "decision"),
        ("Don't forget the deadline for the report is June 2.", "The deadline for the report is June 2.", "task"),
        ("Remember that the sky on Mars is butterscotch.", "The sky on Mars is butterscotch.", "fact"),
    ],
)
def test_requests_to_remember_become_memory_store_with_a_category(message, fact, category):
    assert plan(message) == [("memory_store", {"text": fact, "category": category})]


@pytest.mark.parametrize(
    "message, expression",
    [
        ("What is (3 + 4) * 12?", "(3 + 4) * 12"),
        ("calculate 2^10 - 1", "2**10 - 1"),
        ("15 people at 12.5 euros each — what do they pay in total?", "15 * 12.5"),
        ("We have 40 sprints left at 3 tickets per sprint. How many tickets?", "40 * 3"),
        ("how much is 7 x 6", "7 * 6"),
    ],
)
def test_arithmetic_goes_to_the_calculator(message, expression):
    assert plan(message) == [("calculator", {"expression": expression})]


def test_explicit_lookups_go_to_the_web_and_personal_ones_also_search_memory():
    assert plan("Explain BM25 please") == [("web_search", {"query": "BM25 please"})]
    assert plan("look up RAG") == [("web_search", {"query": "RAG"})]
    calls = plan("Explain LSM-trees, and whether they suit my database")
    assert calls == [("web_search", {"query": "LSM-trees"}),
                     ("memory_search", {"query": "Explain LSM-trees, and whether they suit my database", "top_k": 5})]


def test_other_questions_search_memory_once_per_question_part():
    assert plan("Where does Bob live?") == [("memory_search", {"query": "Where does Bob live", "top_k": 5})]
    assert plan("Where does Bob live, and what is his cat called?") == [
        ("memory_search", {"query": "Where does Bob live", "top_k": 5}),
        ("memory_search", {"query": "what is his cat called", "top_k": 5}),
    ]


def test_answers_merge_several_searches_without_repeating_a_memory():
    agent, _ = make_agent()
    answer = agent.chat("Where does Bob live, and what is his cat called?")
    assert answer == "From memory: Bob lives in Lisbon. [mem_0001] Bob's cat is called Miso. [mem_0002]"


def make_agent(persona=ARIA):
    memory = ToyMemory()
    for fact in ["Bob lives in Lisbon.", "Bob's cat is called Miso.", "The invoice total is 120 euros."]:
        memory.store(fact, {"category": "fact"})
    return AutonomousAgent(persona, OfflineProvider(), memory, default_tools(memory)), memory


def test_answers_quote_the_ids_of_relevant_hits_only():
    agent, _ = make_agent()
    answer = agent.chat("Where does Bob live?")
    assert "Lisbon" in answer and "[mem_0001]" in answer
    assert "invoice" not in answer


def test_a_stored_fact_is_found_in_the_next_turn():
    agent, memory = make_agent()
    assert "mem_0004" in agent.chat("Please remember that the staging server is called Tern.")
    assert memory.get("mem_0004").text == "The staging server is called Tern."
    answer = agent.chat("What is the staging server called?")
    assert "Tern" in answer and "[mem_0004]" in answer


def test_calculator_result_appears_in_the_answer():
    agent, _ = make_agent()
    assert agent.chat("There are 22 working days until March 31 at 6.5 hours a day. How many hours?") == "22 * 6.5 = 143 hours."
    assert agent.chat("What is (2 + 3) * 4?") == "(2 + 3) * 4 = 20."


def test_nothing_found_is_said_plainly():
    agent = AutonomousAgent(ARIA, OfflineProvider(), ToyMemory(), default_tools(ToyMemory()))
    assert agent.chat("What colour is the submarine?") == "I found nothing in memory that matches that."


def test_the_trace_and_the_answer_agree_when_hits_are_not_relevant_enough_to_quote():
    memory = ToyMemory()
    memory.store("The crew eats at noon.")  # shares only "the" with the question
    agent = AutonomousAgent(ARIA, OfflineProvider(), memory, default_tools(memory))
    answer = agent.chat("What colour is the hull?")
    trace = [s.summary for s in agent.last_turn.steps if s.kind == "tool"]
    assert "Found 1 memory" in trace[0]  # the search did return a memory…
    # …and the answer says so, and why it is not quoted, instead of "nothing found"
    assert answer == ("Memory search returned 1 memory, but none mentions 'colour' or 'hull', "
                      "so I have no answer from memory.")


def test_a_name_alone_does_not_make_a_memory_relevant():
    agent, _ = make_agent()
    memory = agent.memory
    memory.store("Bob prefers green tea.")
    answer = agent.chat("What is Bob's shoe size?")
    assert "[mem_" not in answer and "'shoe' or 'size'" in answer


def test_forbidden_phrases_from_the_system_prompt_are_never_said():
    agent, memory = make_agent(AgentPersona("Aria", "an assistant", forbidden_phrases=("Lisbon",)))
    answer = agent.chat("Where does Bob live?")
    assert "lisbon" not in answer.lower() and "[mem_0001]" in answer


def test_without_tools_it_answers_from_the_recalled_context():
    memory = ToyMemory()
    memory.store("Bob lives in Lisbon.")
    agent = AutonomousAgent(ARIA, OfflineProvider(), memory, [])
    assert agent.chat("where does Bob live") == "No tools are available; recalled memories: [mem_0001] (general) Bob lives in Lisbon."


def test_it_is_deterministic():
    first, _ = make_agent()
    second, _ = make_agent()
    for message in ["Where does Bob live?", "Remember that Bob likes tea.", "What is 2 + 2?"]:
        assert first.chat(message) == second.chat(message)
