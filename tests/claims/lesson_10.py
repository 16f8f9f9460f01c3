"""Claims in 10_memory_that_changes_its_mind, each tied to the output that makes it true."""

from lesson_claims import Claim, Lesson

LESSON = Lesson("10_memory_that_changes_its_mind")


def _ranked_first(fragment: str, section: str) -> str:
    """The id of the first hit printed after ``section`` in the output of the cell holding ``fragment``."""
    after = LESSON.output(fragment).split(section, 1)[1]
    return after.split("[", 1)[1].split("]", 1)[0]


CLAIMS = [
    # c5: with history searched, the older version must come first for "the older one wins the tie" to hold
    Claim("the older one wins the tie",
          lambda: _ranked_first("include_history=True", "with history:") == "mem_0001" or (_ for _ in ()).throw(
              AssertionError(f"with history, {_ranked_first('include_history=True', 'with history:')} ranks first, "
                             "not the older mem_0001"))),
    # c1: the agent of section 1 is lesson 9's (make_agent, with memory_update)
    Claim("The agent you finished in lesson 9",
          lambda: "make_agent" in LESSON.cell(2).source or (_ for _ in ()).throw(
              AssertionError("section 1 builds AutonomousAgent(..., default_tools(memory)): no memory_update, "
                             "so it is not lesson 9's make_agent"))),
    # recap: append-only current fact at rank 1 in 4 of 20 update questions
    Claim("moved the current fact from rank 1 in 4 of 20",
          lambda: "append_only    update     4/20" in LESSON.output("ingest(memories[how]") or (_ for _ in ()).throw(
              AssertionError("the table says append_only update: " +
                             LESSON.output("ingest(memories[how]").split("append_only    update")[1].split()[0]))),
]
EXEMPT: dict[str, str] = {}
