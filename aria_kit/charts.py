"""Charts for the retrieval lessons (02–05) and lesson 10's fact timeline: each a function returning a Figure.

Every chart is split into a small pure function that computes its data
(``rank_table``, ``shown_rows``, ``score_rows``, ``idf_curves``; lesson 05's
curves and comparisons come from ``tuning`` and ``measuring``) — which the
tests check — and a plotting function that only draws it, with a title, axis labels and a legend
where one is needed. End a notebook cell with ``plt.show()`` after calling one.

This is the only module that imports matplotlib (as ``chat_widget.py`` is the
only one that imports ipywidgets), and it imports pyplot only inside the plotting functions, so
``import aria_kit`` stays fast and headless. It computes no rankings of its own:
they come from ``evaluation.rankings``, i.e. from ``HybridMemory.search``. Lesson 04's
bump charts name memories by their first words (``short_label``) and take one colour per
memory from ``memory_colours``, so a memory looks the same in every chart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from aria_kit.evaluation import RANKINGS, rankings
from aria_kit.interfaces import MemoryBackend, MemoryRecord
from aria_kit.tables import format_cell

if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLUMNS = ("vector", "fused", "keyword")  # fused in the middle: you see it pulled between the two
LABELS = {"vector": "vector (cosine)", "keyword": "keyword (BM25)", "fused": "fused (RRF)"}
MARKERS = {"vector": "o", "keyword": "s", "fused": "D"}
COLOURS = {"vector": "tab:blue", "keyword": "tab:orange", "fused": "tab:green"}  # the same in every chart


def _short(text: str, limit: int = 38) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_label(text: str, words: int = 5) -> str:
    """The first few words of a memory's text, so a chart names memories by what they say, not by id."""
    head = text.split()
    return " ".join(head[:words]) + (" …" if len(head) > words else "")


def memory_colours(ids: Sequence[str]) -> dict[str, tuple[float, float, float, float]]:
    """One colour per memory id, distinct for up to 25 ids (in the order given); pass the same dict to every chart.

    The saturated qualitative palettes come first (tab10, then Dark2, then Set1), so even
    the twentieth memory gets a colour that reads on white; beyond 25 ids colours repeat.
    """
    import matplotlib

    palette = [*matplotlib.colormaps["tab10"].colors, *matplotlib.colormaps["Dark2"].colors,
               *matplotlib.colormaps["Set1"].colors]
    # Set1's yellow and tab10's grey read badly as thin lines on white; drop them.
    palette = [c for c in palette if c not in (matplotlib.colormaps["Set1"].colors[5],
                                               matplotlib.colormaps["tab10"].colors[7])]
    return {item: (*palette[i % len(palette)][:3], 1.0) for i, item in enumerate(dict.fromkeys(ids))}


# ------------------------------------------------------------------ data


@dataclass(frozen=True)
class RankRow:
    """Where one memory lands in each ranking for a query (keyword ``None`` = shares no word with it)."""

    id: str
    text: str
    vector: int
    keyword: int | None
    fused: int


def rank_table(memory: MemoryBackend, query: str, rrf_k: int | None = None) -> list[RankRow]:
    """Every memory's vector, keyword and fused rank for ``query``, in fused order.

    The ranks come from ``evaluation.rankings`` (the memory's own hits); with
    ``rrf_k`` the fused column is recomputed with that RRF constant.
    """
    ranked = rankings(memory, query, rrf_k)
    position = {name: {item: rank for rank, item in enumerate(ranked[name], start=1)} for name in RANKINGS}
    texts = {record.id: record.text for record in memory.list_all()}
    return [RankRow(item, texts[item], position["vector"][item], position["keyword"].get(item), rank)
            for rank, item in enumerate(ranked["fused"], start=1)]


def shown_rows(
    memory: MemoryBackend, query: str, rrf_k: int | None = None, top_n: int = 5, highlight: Sequence[str] = ()
) -> list[RankRow]:
    """The rows of ``rank_table`` a bump chart draws: in the top ``top_n`` of some ranking, or highlighted."""
    return [r for r in rank_table(memory, query, rrf_k)
            if min(r.vector, r.fused, r.keyword or math.inf) <= top_n or r.id in highlight]


def score_rows(memory: MemoryBackend, query: str, top_k: int = 5) -> list[tuple[str, float, float, float]]:
    """``(id, cosine, bm25, fused score)`` of the top ``top_k`` hits for ``query``, best fused first."""
    return [(hit.id, hit.cosine, hit.bm25, hit.score) for hit in memory.search(query, top_k=top_k)]


def idf_curves(n_docs: int) -> dict[str, np.ndarray]:
    """For a corpus of ``n_docs`` documents and a term in n = 1 … n_docs of them: both IDF formulas.

    ``"lucene"`` is ``ln(1 + (N − n + 0.5)/(n + 0.5))`` (``aria_kit.bm25``, never
    negative); ``"okapi"`` is rank_bm25's raw ``ln((N − n + 0.5)/(n + 0.5))``
    before it floors negative values, which is 0 at n = N/2 and negative above.
    """
    n = np.arange(1, n_docs + 1, dtype=np.float64)
    ratio = (n_docs - n + 0.5) / (n + 0.5)
    return {"n": n, "lucene": np.log1p(ratio), "okapi": np.log(ratio)}


# ------------------------------------------------------------------ charts


def plot_rank_shift(
    memory: MemoryBackend, query: str, rrf_k: int | None = None, top_n: int = 5, highlight: Sequence[str] = (),
    colours: Mapping[str, object] | None = None,
) -> Figure:
    """A bump chart: each memory's rank under vector, fused and keyword ordering, joined by a line.

    Only memories in the top ``top_n`` of at least one ranking (and those in
    ``highlight``, e.g. the labelled answer, drawn thick) are shown. Every
    marker sits at its real rank and is labelled with it, and the rank axis runs
    down to the deepest rank shown, so no rank hides in a bucket. A memory that
    shares no word with the query sits on the "no match" row of the keyword
    column. Lines are named by the memory's first words; ``colours`` (from
    ``memory_colours``) keeps one colour per memory across charts.
    """
    import matplotlib.pyplot as plt

    rows = shown_rows(memory, query, rrf_k, top_n, highlight)
    colours = colours if colours is not None else memory_colours([r.id for r in rows])
    depth = max(max(r.vector, r.fused, r.keyword or 0) for r in rows)
    no_match = depth + 1
    fig, ax = plt.subplots(figsize=(10, max(4.0, 0.2 * no_match + 2.2)))
    for row in rows:
        ranks = {"vector": row.vector, "fused": row.fused, "keyword": row.keyword}
        ys = [no_match if ranks[c] is None else ranks[c] for c in COLUMNS]
        answer = row.id in highlight
        colour = colours.get(row.id, "grey")
        label = f"{short_label(row.text)}  ({row.id})" + ("  ← answer" if answer else "")
        (line,) = ax.plot(range(3), ys, color=colour, linewidth=4 if answer else 1.8, label=label,
                          zorder=4 if answer else 2)
        line.set_gid(row.id)  # lets a test find each memory's line
        for x, (column, y) in enumerate(zip(COLUMNS, ys)):
            ax.scatter(x, y, marker=MARKERS[column], s=90 if answer else 60, color=colour,
                       edgecolors="black" if answer else colour, zorder=5)
            if y != no_match:  # the real rank, beside its marker: left of the vector column, right elsewhere
                # Lines leave the fused column on both sides, so a bare label there is crossed by them
                # (16/17/18 unreadable, one hidden under the answer's thick line at k = 1): each label
                # gets an opaque box drawn above every line.
                ax.annotate(str(y), (x, y), xytext=(-9 if x == 0 else 9, 0), textcoords="offset points",
                            ha="right" if x == 0 else "left", va="center", fontsize=8, color=colour,
                            fontweight="bold" if answer else "normal", zorder=6,
                            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                  "alpha": 0.9})
    ax.set_xticks(range(3), [LABELS[c] for c in COLUMNS])
    ticks = sorted({1, *range(5, depth + 1, 5), depth}) if depth > 12 else list(range(1, depth + 1))
    ax.set_yticks([*ticks, no_match], [*map(str, ticks), "no match"])
    ax.set_ylim(no_match + 0.7, 0.3)  # rank 1 at the top
    ax.set_xlim(-0.35, 2.35)
    ax.set_ylabel("rank (1 = best)")
    ax.set_xlabel("ranking")
    k = rrf_k if rrf_k is not None else getattr(memory, "rrf_k", "the memory's own")
    ax.set_title(f"How fusion moves memories (RRF k = {k})\nquery: “{query}”")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="memory (first words)")
    fig.tight_layout()
    return fig


def plot_score_components(memory: MemoryBackend, query: str, top_k: int = 5) -> Figure:
    """Three bar panels — cosine, BM25 and the fused score (whatever the memory's fusion made) — for the top hits, in fused order.

    The panels have separate x axes because the three scores live on different
    scales; that difference is exactly why RRF fuses ranks, not scores.
    """
    import matplotlib.pyplot as plt

    rows = score_rows(memory, query, top_k)
    ids = [row[0] for row in rows]
    fig, axes = plt.subplots(1, 3, figsize=(11, 0.5 * len(rows) + 2), sharey=True)
    panels = [("cosine similarity", 1, "vector"), ("BM25 score", 2, "keyword"), ("fused score", 3, "fused")]
    for ax, (label, column, ranking) in zip(axes, panels):
        values = [row[column] for row in rows]
        ax.barh(range(len(rows)), values, color=COLOURS[ranking])
        for y, value in enumerate(values):
            ax.text(value, y, f" {value:.4f}" if ranking == "fused" else f" {value:.3f}", va="center", fontsize=8)
        ax.set_xlabel(label)
        ax.set_xlim(min(0.0, min(values)), max(values) * 1.35 or 1.0)
        ax.axvline(0, color="grey", linewidth=0.8)
    axes[0].set_yticks(range(len(rows)), ids)
    axes[0].set_ylim(len(rows) - 0.5, -0.5)  # best hit on top
    axes[0].set_ylabel("hit (fused order)")
    fig.suptitle(f"Score components of the top {len(rows)} hits\nquery: “{query}”")
    fig.tight_layout()
    return fig


def _method_style(name: str, i: int) -> dict:
    """Vector, keyword and fused keep lesson 04's colours; other methods take the next ones, dashed."""
    import matplotlib

    known = {"vector": COLOURS["vector"], "keyword": COLOURS["keyword"]}
    if name in known:
        return {"color": known[name], "marker": MARKERS[name], "linestyle": "-"}
    others = ["tab:green", "tab:purple", "tab:red", "tab:brown", "tab:pink"]
    colour = others[i % len(others)] if i < len(others) else matplotlib.colormaps["tab10"](i % 10)
    return {"color": colour, "marker": "D", "linestyle": "-" if i == 0 else "--"}


def plot_recall_curves(curves: Mapping[str, Mapping[str, Sequence[float]]], split: str = "dev") -> Figure:
    """One panel per data set: mean capped recall@k against k = 1, 2, …, one line per method.

    ``curves[data set][method]`` lists the mean capped recall@1, @2, … of that
    method (as ``AblationRow.recall`` holds them). Methods other than vector and
    keyword are drawn in the order given: the first solid, the rest dashed.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curves), figsize=(5.2 * len(curves), 4.2), squeeze=False)
    for ax, (dataset, methods) in zip(axes[0], curves.items()):
        others = 0
        for name, recall in methods.items():
            style = _method_style(name, others)
            others += name not in ("vector", "keyword")
            ks = range(1, len(recall) + 1)
            ax.plot(ks, recall, label=name, markersize=4, **style)
        ax.set_xticks(list(ks))
        ax.set_xlabel("k (memories recalled)")
        ax.set_ylabel(f"mean capped recall@k on {split}")
        ax.set_title(dataset)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8, loc="lower right")
    fig.suptitle("How many labelled memories each method finds in its top k")
    fig.tight_layout()
    return fig


def plot_wins_losses(comparisons: Sequence[tuple[str, Mapping[str, float]]],
                     metric: str = "capped recall@5") -> Figure:
    """Paired comparisons, one row each: per-query wins and losses, and the mean difference with its 95% interval.

    ``comparisons`` holds ``(label, result)`` with ``result`` as ``measuring``'s
    ``Evaluation.compare`` returns it (``wins``, ``losses``, ``ties``,
    ``difference``, ``low``, ``high``). Left panel: losses drawn left of 0, wins
    right, the number of ties written beside. Right panel: the mean difference as a
    dot, its bootstrap interval as a bar; a bar that crosses 0 means "no clear difference".
    """
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.55 * len(comparisons) + 1.9), sharey=True,
                                      gridspec_kw={"width_ratios": [1.3, 1]})
    ys = range(len(comparisons))
    wins = [result["wins"] for _, result in comparisons]
    losses = [result["losses"] for _, result in comparisons]
    left.barh(ys, wins, color="tab:green", label="first method better")
    left.barh(ys, [-n for n in losses], color="tab:red", label="first method worse")
    reach = max([*wins, *losses, 1])
    for y, (_, result) in zip(ys, comparisons):
        left.text(result["wins"] + 0.02 * reach, y, f"{result['wins']}", va="center", fontsize=8)
        left.text(-result["losses"] - 0.02 * reach, y, f"{result['losses']}", va="center", ha="right", fontsize=8)
        left.text(1.02, y, f"{result['ties']} tied", va="center", fontsize=8, transform=left.get_yaxis_transform())
    left.axvline(0, color="grey", linewidth=0.8)
    left.set_xlim(-1.25 * reach, 1.25 * reach)
    left.set_xlabel(f"questions where {metric} differs\n(losses ← → wins)")
    left.set_ylabel("comparison (first vs second)")
    left.set_yticks(list(ys), [label for label, _ in comparisons])
    left.set_ylim(len(comparisons) - 0.5, -0.5)
    # Above the bars, not over them: a legend inside the axes hid the first digits of a loss count (13 read as 3).
    left.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    diffs = [result["difference"] for _, result in comparisons]
    lows = [result["difference"] - result["low"] for _, result in comparisons]
    highs = [result["high"] - result["difference"] for _, result in comparisons]
    right.errorbar(diffs, list(ys), xerr=[lows, highs], fmt="o", color="black", capsize=4)
    right.axvline(0, color="grey", linewidth=0.8)
    right.set_xlabel(f"mean difference in {metric}\n(95% bootstrap interval)")
    right.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Paired comparison per query ({metric})")
    fig.tight_layout()
    return fig


def plot_idf(n_docs: int) -> Figure:
    """Both IDF formulas against the number of documents containing the term (see ``idf_curves``)."""
    import matplotlib.pyplot as plt

    curves = idf_curves(n_docs)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(curves["n"], curves["lucene"], marker="o", label="aria_kit / Lucene: ln(1 + (N−n+0.5)/(n+0.5))")
    ax.plot(curves["n"], curves["okapi"], marker="s", label="rank_bm25 before its floor: ln((N−n+0.5)/(n+0.5))")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(f"documents containing the term (n, of N = {n_docs})")
    ax.set_ylabel("IDF")
    ax.set_title("IDF: common words weigh less — but should never weigh less than nothing")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_similarity(scores: np.ndarray, row_labels: Sequence[str], column_labels: Sequence[str],
                    title: str = "Cosine similarity") -> Figure:
    """A heatmap of a (queries × texts) cosine matrix, each cell labelled with its value."""
    import matplotlib.pyplot as plt

    scores = np.asarray(scores, dtype=float)
    fig, ax = plt.subplots(figsize=(1.1 * len(column_labels) + 4, 0.55 * len(row_labels) + 2))
    # Scale colours to the data: real cosines between texts rarely come near 1, and the colour bar shows the range.
    low, high = min(0.0, float(scores.min())), max(float(scores.max()), 1e-9)
    image = ax.imshow(scores, cmap="viridis", vmin=low, vmax=high, aspect="auto")
    for (y, x), value in np.ndenumerate(scores):
        ax.text(x, y, format_cell(value, 2), ha="center", va="center", fontsize=8,
                color="black" if value > low + 0.6 * (high - low) else "white")
    ax.set_xticks(range(len(column_labels)), column_labels)
    ax.set_yticks(range(len(row_labels)), [_short(label, 48) for label in row_labels])
    ax.set_xlabel("memory")
    ax.set_ylabel("query")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="cosine")
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ lesson 10: a fact's versions over time


def timeline_rows(versions: Sequence[MemoryRecord], first_day: str, today: str) -> list[tuple[str, str, str, str]]:
    """(id, text, from, until) per version, oldest first: each is current from its predecessor's end until its own.

    The first version's start is not stored (a memory records when it stopped
    being current, not when it was told), so ``first_day`` supplies it; the
    current version runs until ``today``.
    """
    starts = [first_day] + [v.superseded_at or today for v in versions[:-1]]
    return [(v.id, v.text, start, v.superseded_at or today) for v, start in zip(versions, starts)]


def plot_fact_timeline(versions: Sequence[MemoryRecord], first_day: str, today: str, title: str) -> Figure:
    """One horizontal bar per version of a fact, from when it became current to when it was superseded."""
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt
    from datetime import datetime

    rows = timeline_rows(versions, first_day, today)
    fig, ax = plt.subplots(figsize=(9, 0.6 * len(rows) + 1.8))
    days = []
    for i, (memory_id, text, start, end) in enumerate(rows):
        left, right = (mdates.date2num(datetime.fromisoformat(day)) for day in (start, end))
        current = i == len(rows) - 1
        ax.barh(i, right - left, left=left, color="tab:green" if current else "tab:gray", alpha=0.9 if current else 0.5)
        days += [left, right]
    # The text goes beside the axis, not on the bars: a short version's bar cannot hold a sentence.
    # the end of the text, where a fact's value usually is ("…language is Go.")
    labels = [f"{memory_id}: {text if len(text) <= 34 else '…' + text[-33:]}" for memory_id, text, _, _ in rows]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xticks(sorted(set(days)))  # ticks on the days something changed, so each one can be read off
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %d"))
    ax.set_xlabel("date of each change (grey: superseded, kept as history; green: current)")
    ax.set_ylabel("version of the fact")
    ax.set_title(title)
    fig.tight_layout()
    return fig
