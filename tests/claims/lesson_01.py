"""Claims in 01_interfaces, each tied to the output or the package default that makes it true."""

import re
from functools import partial

from lesson_claims import Claim, Lesson, quiz_key_holds
from request_model import check_request_model

from aria_kit.demo_data import DEMO_FACTS
from aria_kit.interfaces import Embedder, LLMProvider, MemoryBackend, Tool

LESSON = Lesson("01_interfaces")
CONTRACTS = "for contract in (Embedder, MemoryBackend, LLMProvider, Tool)"
TWO_MEMORIES = 'for question in ["What hardware did she buy?"'
LETTERS = "letters = HybridMemory(embedder=LetterCountEmbedder())"


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))  # the toy's words(), as cell 8 defines it


def _contract_rows() -> list[str]:
    return [line.split()[0] for line in LESSON.output(CONTRACTS).splitlines()[3:] if line.strip()]


def _four_contracts() -> bool:
    assert sorted(set(_contract_rows())) == ["Embedder", "LLMProvider", "MemoryBackend", "Tool"], _contract_rows()
    return True


def _memory_has_four_methods() -> bool:
    assert sorted(MemoryBackend.__abstractmethods__) == ["delete", "list_all", "search", "store"]
    return _contract_rows().count("MemoryBackend") == 4


def _tie_between_raft_and_rust() -> bool:
    question = "What is the DB's replication protocol?"
    rust, raft = DEMO_FACTS[0][0], DEMO_FACTS[2][0]
    assert _words(question) & _words(raft) == {"the", "replication"}, _words(question) & _words(raft)
    assert _words(question) & _words(rust) == {"is", "s"}, _words(question) & _words(rust)
    row = next(line for line in LESSON.output(TWO_MEMORIES).splitlines() if "protocol?" in line and " toy " in line)
    return "mem_0001" in row  # the older of the two tied memories wins


def _letter_cosines() -> tuple[float, float, float, float]:
    rows = [line.split() for line in LESSON.output(LETTERS).splitlines() if line.startswith("mem_")]
    return float(rows[0][-2]), float(rows[1][-2]), float(rows[0][-1]), float(rows[1][-1])


def _cosines_almost_equal() -> bool:
    first, second, _, _ = _letter_cosines()
    assert abs(first - second) < 0.01, (first, second)
    return True


def _keyword_half_widens() -> bool:
    first, second, bm25_first, bm25_second = _letter_cosines()
    top = LESSON.output(LETTERS).splitlines()[3].split()
    assert top[0] == "mem_0003" and top[-3] == "1", top  # the letter counts alone rank it 1st
    assert round(first - second, 3) == 0.003 and bm25_first > 0 == bm25_second
    return True


def _toy_and_hybrid_differ() -> bool:
    top = {}
    for line in LESSON.output(TWO_MEMORIES).splitlines():
        for name in (" toy ", " hybrid "):
            if name in line:
                top.setdefault(line.split(name)[0].strip(), {})[name.strip()] = line.split(name)[1].split()[0]
    assert len(top) == 2 and all(row["toy"] != row["hybrid"] for row in top.values()), top
    return True


def _four_tools() -> bool:
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import default_tools

    return len(default_tools(HybridMemory())) == 4


def _make_agent_adds_memory_update() -> bool:
    from aria_kit.demo import make_agent
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import default_tools

    standard = {tool.name for tool in default_tools(HybridMemory())}
    assert set(make_agent().tools) - standard == {"memory_update"}, sorted(make_agent().tools)
    return True


def _optional_fields() -> bool:
    """The Hit table: exactly the two ranks and the two supersede links (lesson 10) are optional."""
    rows = [line.split() for line in LESSON.output("dataclasses.fields(Hit)").splitlines()[3:] if line.strip()]
    optional = sorted(row[0] for row in rows if row[-1] == "optional")
    assert optional == ["keyword_rank", "superseded_by", "supersedes", "vector_rank"], optional
    return True


def _spec_example() -> bool:
    from aria_kit.solutions.lesson01 import MyMemory

    memory = MyMemory()
    memory.store("Alice likes Rust.")
    memory.store("Bob likes Go.")
    return [hit.id for hit in memory.search("Who likes Rust?")] == ["mem_0001", "mem_0002"]


def _recall_before_the_model() -> bool:
    from aria_kit.demo import make_agent

    agent = make_agent()
    agent.chat("What did Alice order?")
    kinds = [step.kind for step in agent.last_turn.steps]
    assert kinds[:2] == ["recall", "model"] and "tool" in kinds, kinds
    return check_request_model()


_key_holds = partial(quiz_key_holds, "01")  # Q{number}'s computed key is its answer


CLAIMS = [
    Claim("The agent calls `search` to recall memories before it asks the model", _recall_before_the_model),
    Claim("gives `mem_0001` (two shared words)", _spec_example),
    Claim("- read the four contracts", _four_contracts),
    Claim("holds four of them", _four_contracts),
    Claim("The agent depends on four small contracts", _four_contracts),
    Claim("A memory backend is four methods", _memory_has_four_methods),
    Claim("the cell below only names the four methods", _memory_has_four_methods),
    Claim("the loop depends on four methods", _memory_has_four_methods),
    Claim("calls only the four contract methods", _memory_has_four_methods),
    Claim("reports 0; the ranks and lesson 10's links are optional", _optional_fields),
    Claim("it reports what Reciprocal Rank Fusion", lambda: "0.0164" in LESSON.output("toy.search(question)")),
    Claim("here 1/61 = 0.0164 for the first", lambda: round(1 / 61, 4) == 0.0164
          and '"fused": 0.0164, "cosine": 0.0, "bm25": 0.0}' in LESSON.output('step.kind == "tool"').splitlines()[1]),
    Claim("Step 3's tool result, in full, is what the model read",
          lambda: LESSON.output("turn = toy_agent.last_turn").splitlines()[5].split()[:2] == ["3", "tool"]),
    Claim("the toy and HybridMemory recall different facts for the same questions (section 4)", _toy_and_hybrid_differ),
    Claim("the agent's recall and the memory tools do, through the same four methods", _memory_has_four_methods),
    Claim("the four standard tools", _four_tools),
    Claim("`make_agent` adds lesson 10's `memory_update`", _make_agent_adds_memory_update),
    Claim("Store the seven demo facts in both memories and ask two questions",
          lambda: len(DEMO_FACTS) == 7 and LESSON.output(TWO_MEMORIES).count("?") == 4),
    Claim("The second shares two words with the Raft fact", _tie_between_raft_and_rust),
    Claim("the two cosines are almost equal", _cosines_almost_equal),
    Claim("The letter counts do rank the right fact first, but by 0.003", _keyword_half_widens),
    Claim("which scores only that fact, widens that 0.003 into a clear margin", _keyword_half_widens),
    # The quiz's predict questions: each key is what the kit does on the question's case.
    Claim("mem_0003: one more than the number of memories it now holds.", lambda: _key_holds(3)),
    Claim("both share one word with the query, and on a tie the newest memory comes first", lambda: _key_holds(4)),
    Claim("'tom' is a shared word: it is enough for a score of one.", lambda: _key_holds(4)),
]

EXEMPT = {
    "say what each one promises": "'each one' is a pronoun, not a count",
    "changing one line": "the lesson shows it: cell 17 changes only the line that creates the memory",
    "Swapping a part is a one-line change.": "the lesson shows it: cell 17 changes only the line that creates the memory",
    "swapping is a one-line change": "the lesson shows it: cell 17 changes only the line that creates the memory",
    "lacks one of the abstract methods": "'one of' names no count; cell 6 shows the refusal",
    "Two details matter.": "announces the two details that follow",
    "The same holds for models": "names lessons; no count",
    "share at least one word with the query": "the exercise's specification, checked by check_memory_backend",
    "the hit at rank $r$ the score 1/(60 + $r$)": "the exercise's specification, checked by check_memory_backend",
    "a scripted test double)": "'double' names a test double, not a count",
    "from section 2 may help": "a section number",
    "the same two messages as in section 3": "refers to cell 11's two messages, sent again by cell 26",
    "refuses a `capacity` below 1": "the stretch task's specification, checked by check_bounded_memory",
    "and a wrong one says why": "'a wrong one' is a pronoun, not a count",
    "while one is left, the class cannot be instantiated": "'while one is left' is a pronoun (an abstract method)",
    "A random id such as a UUID, so that no two ids can ever collide.": "a wrong option; 'no two' is not a count",
    "both share one word, and on a tie the older memory comes first": "a wrong option; the computed key rules it out",
    "chess is a game one plays": "a wrong option; 'a game one plays' is a pronoun",
}
