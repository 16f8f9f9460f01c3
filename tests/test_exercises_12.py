"""The exercise checks of lesson 12 pass the worked solutions and fail plausible wrong answers.

The solutions are also compared with the references they imitate: ``to_point_id``
with the point ids ``QdrantMemory`` really writes (and with its own parser), and
BM25's term-frequency part with the sparse vectors ``QdrantMemory`` stores and with
``BM25Index``; both migrations of exercise 12.2 into a ``QdrantMemory``; the stretch's ``top3_agreement`` with the agreement the lesson's own
table shows between ``QdrantMemory`` and its like-for-like ``HybridMemory``. Those comparisons need qdrant-client (in requirements-dev.txt);
the checks themselves do not, because the lesson's exercises run on Binder too.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.demo_data import CONVERSATION, DEMO_FACTS, SHOWDOWN_QUERIES, seed_memory
from aria_kit.exercises import lesson12
from aria_kit.memory_rules import make_memory_id
from exercise_checks import assert_refused, check_tests, verdict
from aria_kit.fusion import RRF
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.solutions.lesson12 import facts_in_one_batch, replay, to_point_id, top3_agreement

try:  # an optional extra; only the comparisons with QdrantMemory need it
    from aria_kit import qdrant_memory
except ImportError:
    qdrant_memory = None
needs_qdrant = pytest.mark.skipif(qdrant_memory is None, reason="needs qdrant-client: pip install -e '.[qdrant]'")

CHECKS = [(lesson12.check_to_point_id, to_point_id), (lesson12.check_migrate, replay),
          (lesson12.check_top3_agreement, top3_agreement)]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


# ---------------------------------------------------------------- exercise 12.1: memory id -> point id


def _split_on_underscore(text):  # trusts every string: "mem_42" and "mem_00042" both become 42
    return int(text.split("_")[1])


def _split_or_none(text):  # catches the crash, but still accepts ids the kit never writes
    try:
        return int(text.split("_")[1])
    except (AttributeError, IndexError, ValueError):
        return None


def _strip_prefix(text):  # returns the digits as a string: Qdrant wants an integer
    return text[4:] if isinstance(text, str) and text.startswith("mem_") else None


def _accepts_zero(text):  # point 0 is QdrantMemory's ledger; memory numbers start at 1
    if not isinstance(text, str) or not text.startswith("mem_") or not text[4:].isdigit() or len(text) < 8:
        return None
    number = int(text[4:])
    return number if f"mem_{number:04d}" == text else None


@pytest.mark.parametrize("wrong", [_split_on_underscore, _split_or_none, _strip_prefix, _accepts_zero])
def test_point_id_check_rejects_a_plausible_mistake(wrong, capsys):
    assert lesson12.check_to_point_id(wrong) is False
    assert verdict(capsys) == "✗"


@given(st.integers(min_value=1, max_value=10**7))
def test_to_point_id_reads_back_every_id_the_kit_writes(number):
    assert to_point_id(make_memory_id(number)) == number


@needs_qdrant
@given(st.one_of(st.text(max_size=12), st.from_regex(r"mem_[0-9]{1,7}", fullmatch=True), st.integers(), st.none()))
def test_to_point_id_agrees_with_qdrant_memory_on_any_input(text):
    assert to_point_id(text) == qdrant_memory.seq_of(text)  # the parser QdrantMemory uses


@needs_qdrant
def test_to_point_id_names_the_points_qdrant_memory_stores():
    memory = qdrant_memory.QdrantMemory(location=":memory:")
    ids = seed_memory(memory)
    points = memory.engine.scroll(qdrant_memory.LEDGER, 100)  # every point but the ledger
    stored = {point.id: point.payload["memory_id"] for point in points}
    assert stored == {to_point_id(i): i for i in ids}
    memory.close()


# ---------------------------------------------------------------- exercise 12.2: move a memory (design)


def _store_only(source, target):
    """Copies texts and metadata, not history: every old version comes back current."""
    return {r.id: target.store(r.text, r.metadata) for r in source.list_all()}


def _same_ids(source, target):
    """Replays the writes but assumes the ids survive: deletes left gaps the target does not have."""
    replay(source, target)
    return {r.id: r.id for r in source.list_all()}


def _current_only(source, target):
    """Moves what search would find, and loses every superseded version."""
    return {r.id: target.store(r.text, r.metadata) for r in source.list_all() if r.is_current}


def _text_only(source, target):
    """Forgets the metadata: every memory arrives as category 'general'."""
    moved = {}
    for r in source.list_all():
        older = source.get(r.supersedes) if r.supersedes else None
        moved[r.id] = (target.supersede(moved[older.id], r.text, {}, at=older.superseded_at) if older
                       else target.store(r.text))
    return moved


def _moment_lost(source, target):
    """Supersedes without `at`: each old version seems to have stopped being current today."""
    moved = {}
    for r in source.list_all():
        moved[r.id] = (target.supersede(moved[r.supersedes], r.text, r.metadata) if r.supersedes
                       else target.store(r.text, r.metadata))
    return moved


def _moves_and_deletes(source, target):
    """A move rather than a copy: empties the source as it goes."""
    moved = facts_in_one_batch(source, target)
    for r in source.list_all():
        if r.is_current:
            source.forget(r.id)
    return moved


def _refuses_too_late(source, target):
    """Writes, then notices the target was not empty."""
    was_empty = len(target) == 0
    moved = facts_in_one_batch(source, target)
    if not was_empty:
        raise ValueError("the target was not empty")
    return moved


@pytest.mark.parametrize(("wrong", "hint"), [
    (_store_only, "a history link must point to the moved version"),
    (_same_ids, "the mapping points to"),
    (_current_only, "every source id as a key"),
    (_text_only, "its metadata is"),
    (_moment_lost, "its superseded_at is"),
    (_moves_and_deletes, "changed: a migration only reads it"),
    (_refuses_too_late, "refuse first"),
], ids=["store-only", "same-ids", "current-only", "text-only", "moment-lost", "moves-and-deletes", "refuses-too-late"])
def test_migrate_check_refuses_a_migration_that_breaks_a_property(wrong, hint, capsys):
    assert_refused(lesson12.check_migrate(wrong), capsys, hint)


def test_migrate_check_says_what_each_design_does_with_a_target_that_is_not_empty(capsys):
    assert lesson12.check_migrate(replay) and "not empty: refused" in capsys.readouterr().out
    assert lesson12.check_migrate(facts_in_one_batch) and "not empty: merged" in capsys.readouterr().out


@needs_qdrant
@pytest.mark.parametrize("migrate", [replay, facts_in_one_batch])
def test_both_migrations_move_a_memory_with_history_into_qdrant_memory(migrate):
    source = lesson12._source(__import__("random").Random(7), 8)
    target = qdrant_memory.QdrantMemory(location=":memory:")
    assert lesson12._moved_problem(source, target, [], migrate(source, target)) is None
    target.close()


def _bm25_weight(tf, doc_len, avgdl):
    """BM25's term-frequency part (k1 = 1.5, b = 0.75): what a sparse vector stores; the IDF comes at query time."""
    return tf * 2.5 / (tf + 1.5 * (1 - 0.75 + 0.75 * doc_len / avgdl))


def test_bm25_weight_times_idf_is_bm25_index_score_on_the_demo_facts():
    """With the corpus's real average length, weight · IDF is exactly what HybridMemory's BM25 scores."""
    documents = [tokenize(text) for text, _ in DEMO_FACTS]
    index = BM25Index()
    for tokens in documents:
        index.add(tokens)
    avgdl = sum(map(len, documents)) / len(documents)
    for term in ["alice", "velocitydb", "order", "4821"]:
        expected = index.scores([term])
        for slot, tokens in enumerate(documents):
            weight = _bm25_weight(tokens.count(term), len(tokens), avgdl) if term in tokens else 0.0
            assert weight * index.idf(term) == pytest.approx(expected[slot], rel=1e-12, abs=1e-12)


@needs_qdrant
def test_bm25_weight_is_what_qdrant_memory_stores_in_its_sparse_vectors():
    for text, _ in DEMO_FACTS:
        tokens = tokenize(text)
        vector = qdrant_memory.document_vector(tokens)
        expected = {qdrant_memory.term_index(t): _bm25_weight(tokens.count(t), len(tokens), qdrant_memory.AVGDL)
                    for t in set(tokens)}
        assert dict(zip(vector.indices, vector.values)) == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- stretch 12: top-3 agreement


def _set_overlap(a, b, queries):  # counts shared memories, wherever they rank in the two top 3s
    return sum(len({h.id for h in a.search(q, top_k=3)} & {h.id for h in b.search(q, top_k=3)}) for q in queries)


def _first_place_only(a, b, queries):  # compares rank 1 alone
    return sum(a.search(q, top_k=1)[0].id == b.search(q, top_k=1)[0].id for q in queries)


def _top_five(a, b, queries):  # the stand-in's search depth, not the top 3 the agent recalls
    return sum(x.id == y.id for q in queries for x, y in zip(a.search(q, top_k=5), b.search(q, top_k=5)))


@pytest.mark.parametrize("wrong", [_set_overlap, _first_place_only, _top_five])
def test_agreement_check_rejects_a_plausible_mistake(wrong, capsys):
    assert lesson12.check_top3_agreement(wrong) is False
    assert verdict(capsys) == "✗"


@needs_qdrant
def test_qdrant_memory_agrees_more_with_its_like_for_like_hybrid_memory_than_with_the_default():
    """The lesson's premise: RRF(60) with every query word as written is the set-up QdrantMemory reproduces."""
    qdrant = qdrant_memory.QdrantMemory(location=":memory:")
    like, default = HybridMemory(fusion=RRF(60), stopwords=(), stemming=False), HybridMemory()
    for memory in (qdrant, like, default):
        seed_memory(memory)
    queries = [*SHOWDOWN_QUERIES, *CONVERSATION]
    assert top3_agreement(qdrant, like, queries) > top3_agreement(qdrant, default, queries)
    qdrant.close()


def _any_unicode_digits(text):  # \d and int() accept Arabic-Indic digits: "mem_٠٠٤٢" would become point 42
    match = re.fullmatch(r"mem_(\d{4,})", text) if isinstance(text, str) else None
    if match is None:
        return None
    digits = match.group(1)
    number = int(digits)
    return number if number >= 1 and (len(digits) == 4 or not digits.startswith("0")) else None


def test_point_id_check_refuses_an_id_spelled_in_other_digits(capsys):
    assert _any_unicode_digits("mem_0042") == 42 and _any_unicode_digits("mem_\u0660\u0660\u0664\u0662") == 42
    out = assert_refused(lesson12.check_to_point_id(_any_unicode_digits), capsys, "ASCII digits")
    assert "mem_\u0660\u0660\u0664\u0662" in out
