"""Lesson 04's bump chart: every rank label can be read, whatever k, wherever the lines run.

Issue 20 found the fused column's labels 16, 17 and 18 drawn under the lines that leave them, and
one label hidden under the answer's thick line at k = 1. The checks are geometric: the labels'
boxes, as rendered, do not overlap one another, and each label sits on an opaque background
above every line, so no line can run through it.
"""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")  # headless: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from aria_kit.charts import plot_rank_shift, shown_rows  # noqa: E402
from aria_kit.evaluation import build_eval_memory  # noqa: E402

QUERY, ANSWER = "What does she drink in the morning?", "mem_0015"  # lesson 04's slider chart


@pytest.fixture(scope="module")
def eval_memory():
    return build_eval_memory()


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("k", [60, 20, 5, 1])
def test_every_rank_label_is_drawn_above_the_lines_on_its_own_background_and_apart_from_the_others(eval_memory, k):
    fig = plot_rank_shift(eval_memory, QUERY, rrf_k=k, top_n=3, highlight=[ANSWER])
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = list(ax.texts)
    rows = shown_rows(eval_memory, QUERY, k, 3, [ANSWER])
    assert len(labels) == sum(y is not None for r in rows for y in (r.vector, r.fused, r.keyword))
    top_line = max(line.get_zorder() for line in ax.get_lines())
    for label in labels:
        patch = label.get_bbox_patch()
        assert patch is not None and patch.get_facecolor()[3] > 0.5, (
            f"rank label {label.get_text()} has no opaque background: a line crossing it makes it unreadable")
        assert label.get_zorder() > top_line, f"rank label {label.get_text()} is drawn below a line"
    boxes = [(label.get_text(), label.get_window_extent(renderer)) for label in labels]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        assert not box_a.overlaps(box_b), f"at k = {k} the rank labels {a} and {b} overlap"
