"""Charts are checked for their data (what is drawn where), not their pixels."""

from __future__ import annotations

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # headless: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402

from aria_kit.bm25 import BM25Index  # noqa: E402
from aria_kit.charts import (  # noqa: E402
    COLUMNS,
    idf_curves,
    memory_colours,
    plot_recall_curves,
    plot_wins_losses,
    plot_idf,
    plot_rank_shift,
    plot_score_components,
    plot_similarity,
    rank_table,
    score_rows,
    short_label,
    shown_rows,
)
from aria_kit.demo_data import SHOWDOWN_QUERIES, seed_memory  # noqa: E402
from aria_kit.evaluation import build_eval_memory, rankings  # noqa: E402
from aria_kit.fusion import RRF, reciprocal_rank_fusion  # noqa: E402
from aria_kit.hybrid_memory import HybridMemory  # noqa: E402


@pytest.fixture(scope="module")
def demo():
    memory = HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)  # the seed's mode, as lesson 04 uses it
    seed_memory(memory)
    return memory


@pytest.fixture(scope="module")
def eval_memory():
    return build_eval_memory()


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _labelled(ax) -> None:
    assert ax.get_xlabel() and ax.get_ylabel()


# ---------------------------------------------------------------- data


@pytest.mark.parametrize("query", SHOWDOWN_QUERIES)
def test_rank_table_lists_every_memory_once_with_its_three_ranks_from_the_search_hits(demo, query):
    rows = rank_table(demo, query)
    hits = demo.search(query, top_k=len(demo))
    assert [row.id for row in rows] == [hit.id for hit in hits]  # fused order is search's order
    assert [row.fused for row in rows] == list(range(1, len(hits) + 1))
    for row, hit in zip(rows, hits):
        assert (row.vector, row.keyword, row.text) == (hit.vector_rank, hit.keyword_rank, hit.text)
    assert sorted(row.vector for row in rows) == list(range(1, len(rows) + 1))


def test_rank_table_with_another_k_refuses_with_reciprocal_rank_fusion(eval_memory):
    query = "What does she drink in the morning?"
    ranked = rankings(eval_memory, query)
    for k in (0, 1, 60, 500):
        expected = [item for item, _ in reciprocal_rank_fusion([ranked["vector"], ranked["keyword"]], k=k)]
        assert [row.id for row in rank_table(eval_memory, query, rrf_k=k)] == expected
    at_60 = [row.id for row in rank_table(eval_memory, query)]
    assert [row.id for row in rank_table(eval_memory, query, rrf_k=1)] != at_60


def test_score_rows_are_the_hits_scores_in_fused_order(demo):
    query = SHOWDOWN_QUERIES[0]
    hits = demo.search(query, top_k=4)
    assert score_rows(demo, query, top_k=4) == [(h.id, h.cosine, h.bm25, h.score) for h in hits]


@pytest.mark.parametrize("n_docs", [2, 7, 10])
def test_idf_curves_match_bm25index_and_rank_bm25s_own_idf(n_docs):
    curves = idf_curves(n_docs)
    # One corpus per n: the term "t" in exactly n of n_docs documents.
    for n in range(1, n_docs + 1):
        corpus = [["t", "x"] if i < n else ["y", "x"] for i in range(n_docs)]
        index = BM25Index()
        for doc in corpus:
            index.add(doc)
        assert curves["lucene"][n - 1] == pytest.approx(index.idf("t"))
        okapi = BM25Okapi(corpus)
        if curves["okapi"][n - 1] >= 0:  # rank_bm25 keeps these as they are …
            assert curves["okapi"][n - 1] == pytest.approx(okapi.idf["t"])
        else:  # … and replaces negative ones by epsilon · mean idf
            assert okapi.idf["t"] == pytest.approx(okapi.epsilon * okapi.average_idf)
    assert (curves["lucene"] > 0).all()
    if n_docs % 2 == 0:
        assert curves["okapi"][n_docs // 2 - 1] == pytest.approx(0.0)


# ---------------------------------------------------------------- what the charts draw


def _lines_by_memory(ax) -> dict:
    return {line.get_gid(): line for line in ax.get_lines() if line.get_gid()}


def test_rank_shift_draws_one_line_per_memory_through_its_vector_fused_and_keyword_ranks(demo):
    query = SHOWDOWN_QUERIES[2]
    fig = plot_rank_shift(demo, query, top_n=len(demo))
    ax = fig.axes[0]
    rows = {row.id: row for row in rank_table(demo, query)}
    no_match = len(demo) + 1  # the deepest rank shown is the last memory's, so "no match" follows it
    drawn = {memory_id: list(line.get_ydata()) for memory_id, line in _lines_by_memory(ax).items()}
    assert set(drawn) == set(rows)
    for memory_id, ys in drawn.items():
        row = rows[memory_id]
        assert ys == [row.vector, row.fused, row.keyword or no_match]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["vector (cosine)", "fused (RRF)", "keyword (BM25)"]
    assert len(COLUMNS) == 3 and "RRF k = 60" in ax.get_title() and query in ax.get_title()
    assert ax.get_legend() is not None
    _labelled(ax)
    assert ax.yaxis_inverted()  # rank 1 at the top
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(r) for r in range(1, len(demo) + 1)] + ["no match"]


def test_rank_shift_names_memories_by_their_first_words_not_only_their_ids(demo):
    fig = plot_rank_shift(demo, SHOWDOWN_QUERIES[0], top_n=3)
    texts = {record.id: record.text for record in demo.list_all()}
    for memory_id, line in _lines_by_memory(fig.axes[0]).items():
        assert line.get_label().startswith(short_label(texts[memory_id]))
    assert short_label("Alice drinks her coffee black and dislikes meetings") == "Alice drinks her coffee black …"
    assert short_label("Jepsen") == "Jepsen"


def test_rank_shift_shows_every_rank_as_it_is_with_no_bucket_for_deep_ones(eval_memory):
    query = "What does she drink in the morning?"
    fig = plot_rank_shift(eval_memory, query, top_n=3, highlight=["mem_0015"])
    ax = fig.axes[0]
    rows = shown_rows(eval_memory, query, None, 3, ["mem_0015"])
    expected = {r.id for r in rank_table(eval_memory, query) if min(r.vector, r.fused, r.keyword or 99) <= 3}
    lines = _lines_by_memory(ax)
    assert set(lines) == expected | {"mem_0015"} == {r.id for r in rows}
    answer = lines["mem_0015"]
    assert "answer" in answer.get_label() and answer.get_linewidth() > max(
        line.get_linewidth() for key, line in lines.items() if key != "mem_0015")
    fused_rank = next(r.fused for r in rows if r.id == "mem_0015")
    assert fused_rank > 10 and answer.get_ydata()[1] == fused_rank  # drawn where it really is
    deepest = max(max(r.vector, r.fused, r.keyword or 0) for r in rows)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[-1] == "no match" and str(deepest) in labels and not any(">" in label for label in labels)
    # every marker not on the "no match" row carries its rank as text
    annotated = sorted(int(t.get_text()) for t in ax.texts)
    placed = sorted(y for r in rows for y in (r.vector, r.fused, r.keyword) if y is not None)
    assert annotated == placed


def test_memory_colours_give_each_memory_one_colour_across_charts(eval_memory):
    queries = ["5190", "What does she drink in the morning?"]
    ids = [row.id for q in queries for row in shown_rows(eval_memory, q, None, 3)]
    colours = memory_colours(ids)
    assert len(set(colours.values())) == len(colours) == len(set(ids))  # distinct while there are few
    for query in queries:
        fig = plot_rank_shift(eval_memory, query, top_n=3, colours=colours)
        for memory_id, line in _lines_by_memory(fig.axes[0]).items():
            assert matplotlib.colors.to_rgba(line.get_color()) == colours[memory_id]
    assert len(set(memory_colours([f"m{i}" for i in range(25)]).values())) == 25


def test_score_components_draw_cosine_bm25_and_fused_for_the_same_hits(demo):
    query = SHOWDOWN_QUERIES[0]
    fig = plot_score_components(demo, query, top_k=5)
    rows = score_rows(demo, query, top_k=5)
    assert len(fig.axes) == 3
    for column, ax in enumerate(fig.axes, start=1):
        widths = [patch.get_width() for patch in ax.patches]
        assert widths == pytest.approx([row[column] for row in rows])
        assert ax.get_xlabel()
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [row[0] for row in rows]
    assert fig.axes[0].get_ylabel() and query in fig._suptitle.get_text()


def test_recall_curves_draw_one_line_per_method_and_panel_per_data_set():
    curves = {"set A": {"vector": [0.1, 0.2, 0.3], "keyword": [0.2, 0.25, 0.3], "rrf(k=60)": [0.15, 0.3, 0.35]},
              "set B": {"vector": [0.5, 0.6, 0.7], "keyword": [0.4, 0.5, 0.6], "rrf(k=60)": [0.5, 0.65, 0.7]}}
    fig = plot_recall_curves(curves)
    assert len(fig.axes) == 2
    for ax, (name, methods) in zip(fig.axes, curves.items()):
        lines = {line.get_label(): line for line in ax.get_lines()}
        assert set(lines) == set(methods) and ax.get_title() == name
        for method, recall in methods.items():
            assert list(lines[method].get_xdata()) == [1, 2, 3]
            assert list(lines[method].get_ydata()) == recall
        _labelled(ax)
    assert matplotlib.colors.to_hex(lines["vector"].get_color()) == matplotlib.colors.to_hex("tab:blue")
    assert fig.axes[0].get_legend() is not None and fig._suptitle.get_text()


def test_wins_losses_draw_wins_right_losses_left_and_the_interval_around_the_difference():
    comparisons = [("fused vs vector", {"wins": 12, "losses": 5, "ties": 40, "difference": 0.03, "low": -0.01,
                                        "high": 0.07}),
                   ("fused vs keyword", {"wins": 3, "losses": 9, "ties": 45, "difference": -0.04, "low": -0.08,
                                         "high": -0.01})]
    fig = plot_wins_losses(comparisons, "recall@5")
    left, right = fig.axes
    widths = [patch.get_width() for patch in left.patches]
    assert widths == [12, 3, -5, -9]  # wins first, then losses drawn to the left
    assert [t.get_text() for t in left.get_yticklabels()] == ["fused vs vector", "fused vs keyword"]
    assert "40 tied" in [t.get_text() for t in left.texts]
    dots = right.lines[0]
    assert list(dots.get_xdata()) == pytest.approx([0.03, -0.04])
    segments = right.collections[0].get_segments()  # the error bars: from low to high
    assert [tuple(np.round(seg[:, 0], 6)) for seg in segments] == [(-0.01, 0.07), (-0.08, -0.01)]
    _labelled(left)
    assert right.get_xlabel() and "recall@5" in fig._suptitle.get_text()


def test_the_wins_losses_legend_covers_no_count():
    # Issue 20: inside the axes the legend hid a loss count's first digit (13 read as 3).
    pairs = [(name, other) for name in ("chitchat", "fanoutqa") for other in ("vector", "keyword", "seed (RRF 60)")]
    counts = [(15, 4), (7, 0), (14, 2), (65, 7), (12, 18), (45, 13)]  # lesson 05's dev comparisons
    comparisons = [(f"{name}: kit default vs {other}",
                    {"wins": w, "losses": n, "ties": 100, "difference": 0.0, "low": -0.1, "high": 0.1})
                   for (name, other), (w, n) in zip(pairs, counts)]
    fig = plot_wins_losses(comparisons)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    left = fig.axes[0]
    legend = left.get_legend().get_window_extent(renderer)
    counts = [text for text in left.texts if text.get_text().isdigit()]
    assert len(counts) == 2 * len(comparisons)
    assert not [t.get_text() for t in counts if legend.overlaps(t.get_window_extent(renderer))]
    labels = [axes.xaxis.label.get_window_extent(renderer) for axes in fig.axes]
    assert not labels[0].overlaps(labels[1]), "the two x-axis labels run into each other"


def test_idf_and_similarity_charts_plot_their_data_with_titles_and_labels():
    fig = plot_idf(7)
    lucene, okapi = fig.axes[0].get_lines()[:2]
    assert list(lucene.get_ydata()) == pytest.approx(list(idf_curves(7)["lucene"]))
    assert list(okapi.get_ydata()) == pytest.approx(list(idf_curves(7)["okapi"]))
    assert fig.axes[0].get_legend() is not None and fig.axes[0].get_title()
    _labelled(fig.axes[0])

    scores = np.array([[0.9, -0.0001], [0.2, 0.5]])
    fig = plot_similarity(scores, ["q1", "q2"], ["m1", "m2"])
    ax = fig.axes[0]
    assert np.array_equal(ax.images[0].get_array(), scores)
    assert [t.get_text() for t in ax.texts] == ["0.90", "0.00", "0.20", "0.50"]  # no "-0.00"
    assert ax.get_title()
    _labelled(ax)


def test_importing_the_kit_or_the_charts_module_does_not_load_pyplot():
    code = ("import sys, aria_kit.charts, aria_kit.evaluation, aria_kit.tables; "
            "print('matplotlib.pyplot' in sys.modules, 'matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
