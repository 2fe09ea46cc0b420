"""The pictures of a balance report, drawn with matplotlib as PNG and SVG: the win rates
with their 95 % intervals, the histogram of game lengths, and a curve for each sweep.

Same report, same files: the SVG's ids come from a fixed salt and neither format carries a
date or the library's version."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402 - after the back end is chosen
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..engine.places import write_atomically  # noqa: E402

#: pixels an inch of the PNGs (modest files for docs)
DPI = 80
_META = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}
COLOURS = ("#3b6fb6", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#7f8c8d")


def draw(report: Mapping[str, Any], folder: Path) -> list[Path]:
    """Write the report's plots into ``folder`` (made if needed); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    # the style (the SVG ids' fixed salt among it), written here where matplotlib checks
    # its keys
    with plt.rc_context({"svg.hashsalt": "warpress", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False}):
        written += _save(_win_rates(report), folder / "win-rates")
        written += _save(_lengths(report["length"]["histogram"], report["game"]),
                         folder / "lengths")
        for sweep in report["sweeps"]:
            name = "sweep-" + "".join(c if c.isalnum() or c in "-_" else "-"
                                      for c in sweep["key"])
            written += _save(_sweep(sweep, report["sides"]), folder / name)
    return written


def _save(figure: Figure, stem: Path) -> list[Path]:
    out = []
    for fmt in ("png", "svg"):
        path = stem.with_suffix(f".{fmt}")
        temporary = stem.with_suffix(f".{fmt}.part")
        figure.savefig(temporary, format=fmt, dpi=DPI, metadata=_META[fmt],
                       bbox_inches="tight")
        write_atomically(path, temporary.read_bytes(), shared=True)
        temporary.unlink()
        out.append(path)
    plt.close(figure)
    return out


def _bars(axes: Axes, labels: Sequence[str], rates: Sequence[Mapping[str, Any]]) -> None:
    values = [100 * r["rate"] for r in rates]
    below = [100 * (r["rate"] - r["low"]) for r in rates]
    above = [100 * (r["high"] - r["rate"]) for r in rates]
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(labels))]
    axes.bar(labels, values, color=colours, yerr=[below, above], capsize=6)
    for i, v in enumerate(values):
        axes.annotate(f"{v:.1f} %", (i, v), textcoords="offset points", xytext=(12, 3),
                      fontsize=8)
    axes.set_ylim(0, 108)  # room above 100 % for the label of a full bar
    axes.set_yticks(range(0, 101, 20))
    axes.set_ylabel("share of games (%)")


def _win_rates(report: Mapping[str, Any]) -> Figure:
    out = report["outcome"]
    labels = [f"{s} wins" for s in out["wins"]] + ["draws"]
    rates = [*out["wins"].values(), out["draws"]]
    if out.get("undecided", {}).get("count"):  # games stopped by a cap, a stall or an error
        labels.append("not decided")
        rates.append(out["undecided"])
    figure, axes = plt.subplots(figsize=(5, 3.2))
    _bars(axes, labels, rates)
    agents = ", ".join(f"{s} {a}" for s, a in report["agents"].items())
    axes.set_title(f"{report['game']}: {report['games']} games ({agents}), 95 % intervals",
                   fontsize=9)
    return figure


def _lengths(histogram: Sequence[Sequence[int]], game: str) -> Figure:
    """``histogram``: [steps, games] pairs."""
    figure, axes = plt.subplots(figsize=(5, 3.2))
    if histogram:
        low, high = histogram[0][0], histogram[-1][0]
        width = max(1, (high - low + 1) // 30)
        bins = list(range(low, high + width + 1, width))
        axes.hist([s for s, _ in histogram], bins=bins, weights=[n for _, n in histogram],
                  color=COLOURS[0], edgecolor="white")
    axes.set_xlabel("game length (decisions made)")
    axes.set_ylabel("games")
    axes.set_title(f"{game}: game length", fontsize=9)
    return figure


def _sweep(sweep: Mapping[str, Any], sides: Sequence[str]) -> Figure:
    figure, axes = plt.subplots(figsize=(5, 3.2))
    points = sweep["points"]
    xs = list(range(len(points)))
    for i, side in enumerate([*sides, "draws"]):
        rates = [p["draws"] if side == "draws" else p["wins"][side] for p in points]
        values = [100 * r["rate"] for r in rates]
        colour = COLOURS[i % len(COLOURS)] if side != "draws" else "#7f8c8d"
        axes.plot(xs, values, marker="o", color=colour, label=side)
        axes.fill_between(xs, [100 * r["low"] for r in rates], [100 * r["high"] for r in rates],
                          color=colour, alpha=0.15, linewidth=0)
    axes.set_xticks(xs, [str(p["value"]) for p in points])
    axes.set_ylim(0, 100)
    axes.set_xlabel(sweep["key"])
    axes.set_ylabel("share of games (%)")
    axes.set_title(f"sweep of {sweep['key']}: win rates, 95 % intervals", fontsize=9)
    axes.legend(fontsize=8, frameon=False)
    return figure
