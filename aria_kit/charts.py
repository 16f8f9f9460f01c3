"""Charts for the retrieval lessons (02–04) and lesson 10's fact timeline: each a function returning a Figure.

Every chart is split into a small pure function that computes its data
(``rank_table``, ``score_rows``, ``idf_curves``) — which the tests check — and
a plotting function that only draws it, with a title, axis labels and a legend
where one is needed. End a notebook cell with ``plt.show()`` after calling one.

This is one of the two modules allowed to import matplotlib (the chat widget is
the other), and it imports pyplot only inside the plotting functions, so
``import aria_kit`` stays fast and headless. It computes no rankings of its own:
they come from ``evaluation.rankings``, i.e. from ``HybridMemory.search``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from aria_kit.evaluation import RANKINGS, QueryResult, rankings
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


def _line_colour(i: int):
    import matplotlib

    # tab20 pairs a dark and a light shade; take the ten dark ones first so few lines look alike.
    return matplotlib.colormaps["tab20"]((2 * i) % 20 + (i // 10) % 2)


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
    memory: MemoryBackend, query: str, rrf_k: int | None = None, top_n: int = 5, highlight: Sequence[str] = ()
) -> Figure:
    """A bump chart: each memory's rank under vector, fused and keyword ordering, joined by a line.

    Only memories in the top ``top_n`` of at least one ranking (and those in
    ``highlight``, e.g. the labelled answer, drawn thick and black) are shown,
    and ranks below ``2 · top_n`` share one "> 2·top_n" row, so a large memory
    stays readable. A memory that shares no word with the query sits on the
    "no match" row of the keyword column. Markers not at their exact rank are hollow.
    """
    import matplotlib.pyplot as plt

    table = rank_table(memory, query, rrf_k)
    depth = min(2 * top_n, len(table))
    rows = [r for r in table if min(r.vector, r.fused, r.keyword or math.inf) <= top_n or r.id in highlight]
    beyond = any(max(r.vector, r.fused, r.keyword or 0) > depth for r in rows)
    lower = depth + 1  # the "> depth" row, drawn only when some shown memory ranks that low
    no_match = depth + 1 + beyond
    fig, ax = plt.subplots(figsize=(9.5, 0.38 * no_match + 2))
    for i, row in enumerate(rows):
        ranks = {"vector": row.vector, "fused": row.fused, "keyword": row.keyword}
        ys = [no_match if ranks[c] is None else min(ranks[c], lower) for c in COLUMNS]
        answer = row.id in highlight
        colour = "black" if answer else _line_colour(i)
        label = f"{row.id}  {_short(row.text)}" + ("  ← answer" if answer else "")
        ax.plot(range(3), ys, color=colour, linewidth=3.5 if answer else 1.8, label=label, zorder=4 if answer else 2)
        for x, (column, y) in enumerate(zip(COLUMNS, ys)):
            hollow = y > depth  # not placed at its exact rank: shown hollow
            ax.scatter(x, y, marker=MARKERS[column], s=70, color="white" if hollow else colour,
                       edgecolors=colour, zorder=5)
    ax.set_xticks(range(3), [LABELS[c] for c in COLUMNS])
    labels = [str(r) for r in range(1, depth + 1)] + [f"> {depth}"] * beyond + ["no match"]
    ax.set_yticks(range(1, no_match + 1), labels)
    ax.set_ylim(no_match + 0.5, 0.5)  # rank 1 at the top
    ax.set_xlim(-0.3, 2.3)
    ax.set_ylabel("rank (1 = best)")
    ax.set_xlabel("ranking")
    k = rrf_k if rrf_k is not None else getattr(memory, "rrf_k", "the memory's own")
    ax.set_title(f"How fusion moves memories (RRF k = {k})\nquery: “{query}”")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="memory")
    fig.tight_layout()
    return fig


def plot_score_components(memory: MemoryBackend, query: str, top_k: int = 5) -> Figure:
    """Three bar panels — cosine, BM25 and fused RRF score — for the top hits, in fused order.

    The panels have separate x axes because the three scores live on different
    scales; that difference is exactly why RRF fuses ranks, not scores.
    """
    import matplotlib.pyplot as plt

    rows = score_rows(memory, query, top_k)
    ids = [row[0] for row in rows]
    fig, axes = plt.subplots(1, 3, figsize=(11, 0.5 * len(rows) + 2), sharey=True)
    panels = [("cosine similarity", 1, "vector"), ("BM25 score", 2, "keyword"), ("fused RRF score", 3, "fused")]
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


def plot_evaluation(results: Sequence[QueryResult]) -> Figure:
    """Per labelled query, the rank at which each ranking finds the first relevant memory (dot plot)."""
    import matplotlib.pyplot as plt

    worst = max(r.rank(name) or 0 for r in results for name in RANKINGS)
    not_found = worst + 2  # a column of its own, one step right of the worst rank found
    any_missing = any(r.rank(name) is None for r in results for name in RANKINGS)
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(results) + 2))
    offsets = {"vector": -0.22, "keyword": 0.0, "fused": 0.22}
    for name in RANKINGS:
        xs = [r.rank(name) or not_found for r in results]
        ys = [i + offsets[name] for i in range(len(results))]
        ax.scatter(xs, ys, marker=MARKERS[name], color=COLOURS[name], label=LABELS[name], zorder=3)
    ax.set_yticks(range(len(results)), [f"{_short(r.query.text, 44)}  [{r.query.kind}]" for r in results])
    ax.set_ylim(len(results) - 0.5, -0.5)
    ticks = list(range(1, worst + 1))
    if any_missing:
        ticks.append(not_found)
    ax.set_xticks(ticks, [str(t) if t <= worst else "not found" for t in ticks])
    ax.axvspan(0.5, 3.5, color="tab:green", alpha=0.08, label="top 3 (what the agent recalls)")
    ax.set_xlabel("rank of the first relevant memory (1 = best)")
    ax.set_ylabel("labelled query [kind]")
    ax.set_title("Which ranking finds the answer, and how high")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.5 / fig.get_figheight(), 1, 1))  # leave half an inch for the legend
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
    fig, ax = plt.subplots(figsize=(9, 0.6 * len(rows) + 1.6))
    for i, (memory_id, text, start, end) in enumerate(rows):
        left, right = (mdates.date2num(datetime.fromisoformat(day)) for day in (start, end))
        current = i == len(rows) - 1
        ax.barh(i, right - left, left=left, color="tab:green" if current else "tab:gray", alpha=0.9 if current else 0.5)
        ax.text(left, i, f" {memory_id}: {_short(text, 60)}", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [f"version {i}" for i in range(1, len(rows) + 1)])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
    ax.set_xlabel("date (grey: superseded, kept as history; green: current)")
    ax.set_ylabel("version of the fact")
    ax.set_title(title)
    fig.tight_layout()
    return fig
