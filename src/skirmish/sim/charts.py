"""The picture every simulation report draws: outcome rates with their 95% intervals beside the
distribution of rounds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from skirmish.files import check_picture, save_figure

COLORS = ("#4c78a8", "#e45756", "#9d9d9d")


def outcome_chart(path: Path, title: str, bars: Sequence[tuple[str, float, float, float]], ylabel: str,
                  rounds: Sequence[int], unit: str) -> Path:
    """Bars of ``(name, rate, low, high)`` with their intervals, and a histogram of ``rounds``
    counted in ``unit`` (games, fights), as PNG or SVG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    check_picture(path)
    fig = Figure(figsize=(9, 3.6), dpi=110)
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    ax1.bar([b[0] for b in bars], [b[1] for b in bars], color=list(COLORS[: len(bars)]),
            yerr=[[b[1] - b[2] for b in bars], [b[3] - b[1] for b in bars]], capsize=6)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel(ylabel)
    ax2.hist(list(rounds), bins=range(1, max(rounds, default=1) + 2), color="#72b7b2", edgecolor="white",
             align="left")
    ax2.set_xlabel("rounds")
    ax2.set_ylabel(unit)
    fig.suptitle(title)
    fig.tight_layout()
    return save_figure(fig, path)
