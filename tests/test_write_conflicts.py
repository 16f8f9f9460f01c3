"""The conflict check on write (lesson 10): candidates found by the memory, the decision left to the agent.

``find_conflicts`` is checked on small cases of each kind (a new value for the
same subject and attribute, compatible facts about one subject, exact and
near repeats); ``memory_store`` on what it tells the model; the offline
stand-in on following that advice by rule; and lesson 11's scenario end to end,
through the chat widget, down to the struck-through row in its memory panel.
"""

from __future__ import annotations

import json

import pytest

from aria_kit.chat_widget import ChatWidget
from aria_kit.demo import make_agent, seed_memory
from aria_kit.exercises.lesson11 import Rendered
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.offline import OfflineProvider
from aria_kit.tools import CheckedMemoryStoreTool, MemoryStoreTool, MemoryUpdateTool, default_tools
from aria_kit.write_conflicts import find_conflicts, load_sequences, update_call

VIM, HELIX = "My favourite editor is Vim.", "My favourite editor is Helix."


def memory_with(*texts: str) -> HybridMemory:
    memory = HybridMemory()
    for text in texts:
        memory.store(text)
    return memory


@pytest.mark.parametrize("old, new", [
    (VIM, HELIX),
    (VIM, "My favourite editor is Helix now."),
    ("The deadline for the Orion release is May 3.", "The deadline for the Orion release is June 10."),
    ("Dave lives in Leeds.", "Dave lives in York."),
    ("Our car is a blue Skoda.", "Our car is a grey Tesla these days."),
])
def test_a_new_value_for_the_same_subject_and_attribute_is_a_replacement_candidate(old, new):
    memory = memory_with(old, "I like green tea.", "Alice is working on VelocityDB.")
    conflicts = find_conflicts(memory, new)
    assert [(c.kind, c.id, c.text) for c in conflicts] == [("replaces", "mem_0001", old)]


@pytest.mark.parametrize("old, new", [
    ("Dave likes tea.", "Dave likes chess."),
    ("Lena is allergic to peanuts.", "Lena is allergic to shellfish."),  # one subject, many values
    ("The design review is on Thursday.", "The budget review is on Friday."),  # another subject
    ("The billing service uses PostgreSQL.", "The billing service uses Redis for caching."),
])
def test_compatible_facts_about_one_subject_are_not_flagged(old, new):
    assert find_conflicts(memory_with(old), new) == []


@pytest.mark.parametrize("new", [VIM, "my favourite editor is vim", "My favourite editor is Vim!"])
def test_an_exact_or_near_repeat_is_a_duplicate(new):
    conflicts = find_conflicts(memory_with("I like green tea.", VIM), new)
    assert [(c.kind, c.id) for c in conflicts] == [("duplicate", "mem_0002")]


def test_superseded_memories_are_not_candidates():
    memory = memory_with(VIM)
    memory.supersede("mem_0001", HELIX)
    assert [(c.kind, c.id) for c in find_conflicts(memory, "My favourite editor is Zed.")] == [("replaces", "mem_0002")]


def test_an_exact_repeat_is_not_stored_again_and_the_result_names_the_existing_memory():
    memory = memory_with("I like green tea.")
    result = MemoryStoreTool(memory).run("I like green tea.")
    assert len(memory) == 1
    assert result.startswith("Not stored:") and "mem_0001" in result


def test_memory_store_names_the_memory_it_may_replace_and_the_exact_call_that_replaces_it():
    memory = memory_with(VIM)
    result = CheckedMemoryStoreTool(memory).run(HELIX, "user_pref")
    call = update_call("mem_0001", HELIX)
    assert call == 'memory_update(memory_id="mem_0001", new_text="My favourite editor is Helix.")'
    assert call in result and VIM in result
    assert len(memory) == 1, "the write waits for the agent's decision"
    # the call, made as written, does what the result says
    assert MemoryUpdateTool(memory).invoke({"memory_id": "mem_0001", "new_text": HELIX}).startswith("Updated")
    assert [r.text for r in memory.list_all() if r.is_current] == [HELIX]


def test_keep_both_stores_a_fact_the_agent_judged_compatible():
    memory = memory_with(VIM)
    result = CheckedMemoryStoreTool(memory).run(HELIX, keep_both=True)
    assert result.startswith("Stored as mem_0002") and len(memory) == 2


def test_without_an_update_tool_the_store_suggests_nothing_and_stores():
    memory = memory_with(VIM)
    store = next(t for t in default_tools(memory) if t.name == "memory_store")
    assert "memory_update" not in store.run(HELIX) and len(memory) == 2


def test_the_update_call_quotes_text_as_json_so_quotes_cannot_break_it():
    call = update_call("mem_0001", 'She said "hi" \\ bye')
    assert json.loads(call[call.index("new_text=") + 9:-1]) == 'She said "hi" \\ bye'


def test_the_offline_agent_follows_the_result_with_memory_update():
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.memory.store(VIM, {"category": "user_pref"})
    agent.chat("Remember that my favourite editor is Helix")
    names = [s.detail["call"].name for s in agent.last_turn.steps if s.kind == "tool"]
    assert names == ["memory_store", "memory_update"]
    assert [r.text for r in agent.memory.list_all() if r.is_current] == [HELIX]


def test_the_offline_agent_keeps_compatible_facts_side_by_side():
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.chat("Remember that Dave likes tea")
    agent.chat("Remember that Dave likes chess")
    assert sorted(r.text for r in agent.memory.list_all() if r.is_current) == ["Dave likes chess.", "Dave likes tea."]


def test_lesson_11_scenario_one_current_answer_and_the_old_fact_struck_through():
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    seed_memory(agent.memory)
    chat = ChatWidget(agent)
    chat.send("Please remember that my favourite editor is Vim")
    chat.send("Remember that my favourite editor is Helix")
    answer = chat.send("What is my favourite editor?")
    assert "Helix" in answer and "Vim" not in answer
    panel = Rendered(chat.memory_panel.value)
    assert "My favourite editor is Vim." in panel.text
    struck = [row for row in chat.memory_panel.value.split("<tr")[1:] if "aria-memory-superseded" in row]
    assert len(struck) == 1 and "<s " in struck[0] and "My favourite editor is Vim." in struck[0]


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_the_labelled_sets_load_and_every_label_points_back(split):
    sequences = load_sequences(split)
    assert len(sequences) >= 10
    for sequence in sequences:
        for i, write in enumerate(sequence.writes):
            assert write.label in {"new", "replaces", "duplicate"}
            assert (write.of is None) == (write.label == "new") and (write.of is None or 0 <= write.of < i)


def test_a_flag_naming_the_wrong_memory_counts_against_precision_and_recall():
    from aria_kit.write_conflicts import WriteSequence, Write, flag_counts
    # labelled: the second write replaces nothing and the third replaces the first; the rule flags both
    sequence = WriteSequence("toy", (Write(VIM, "new"), Write("My favourite editor is Zed.", "new"),
                                Write(HELIX, "replaces", 0)))
    right, flagged, labelled = flag_counts([sequence])
    assert (flagged, labelled) == (2, 1) and right <= 1


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_the_figures_in_benchmarks_readme_are_what_flag_counts_measures(split):
    from pathlib import Path

    from aria_kit.write_conflicts import flag_counts
    readme = (Path(__file__).resolve().parents[1] / "benchmarks" / "README.md").read_text()
    # The write-conflict table is the one whose header names replacement precision; other tables have dev rows too.
    table = readme[readme.index("| split | writes | replacement precision"):]
    row = next(line for line in table.splitlines() if line.startswith(f"| {split} | "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    right, flagged, labelled = flag_counts(load_sequences(split))
    assert cells[2].startswith(f"{right}/{flagged} ") and cells[3].startswith(f"{right}/{labelled} ")
    right, flagged, labelled = flag_counts(load_sequences(split), "duplicate")
    assert cells[4].startswith(f"{right}/{flagged} ") and cells[5].startswith(f"{right}/{labelled} ")


def test_the_offline_agent_says_it_already_has_a_repeated_fact_and_stores_it_once():
    agent = make_agent(memory=HybridMemory(), llm=OfflineProvider(), verbose=False)
    agent.chat("Remember that I like green tea")
    answer = agent.chat("Please remember that I like green tea.")
    assert answer.startswith("I already have that.") and "mem_0001" in answer
    assert len(agent.memory) == 1


def test_a_model_can_act_on_the_result_either_way_through_the_agent_loop():
    from aria_kit.scripted import ScriptedProvider, call_tool, say
    from aria_kit.write_conflicts import read_update_call

    memory = memory_with(VIM)
    replace = ScriptedProvider([call_tool("memory_store", {"text": HELIX}),
                                call_tool("memory_update", {"memory_id": "mem_0001", "new_text": HELIX}, call_id="c2"),
                                say("Replaced.")])
    agent = make_agent(memory=memory, llm=replace, verbose=False)
    agent.chat("My favourite editor is Helix now.")
    held_back = next(s.detail["result"] for s in agent.last_turn.steps if s.kind == "tool")
    assert read_update_call(held_back) == ("mem_0001", HELIX)  # the call the model made is the one it was shown
    assert [r.text for r in memory.list_all() if r.is_current] == [HELIX]
    replace.assert_all_used()

    both = ScriptedProvider([call_tool("memory_store", {"text": "My favourite editor is Zed."}),
                             call_tool("memory_store", {"text": "My favourite editor is Zed.", "keep_both": True},
                                       call_id="c2"),
                             say("Kept both.")])
    make_agent(memory=memory, llm=both, verbose=False).chat("I also love Zed.")
    assert sorted(r.text for r in memory.list_all() if r.is_current) == [HELIX, "My favourite editor is Zed."]
    both.assert_all_used()
