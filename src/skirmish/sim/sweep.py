"""Balance sweeps: every warband against every other, as a win-rate matrix with intervals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skirmish.files import check_picture, save_figure
from skirmish.sim.batch import GameResult, make_jobs, run_batch
from skirmish.sim.stats import wilson


@dataclass(slots=True)
class Matrix:
    """``wins[i][j]`` of ``games[i][j]``: how often warband i beat warband j."""

    names: list[str]
    wins: list[list[int]] = field(default_factory=list)
    games: list[list[int]] = field(default_factory=list)

    def rate(self, i: int, j: int) -> float:
        return self.wins[i][j] / self.games[i][j] if self.games[i][j] else 0.5

    def to_json(self) -> dict[str, Any]:
        n = len(self.names)
        return {
            "warbands": self.names,
            "win_rate": [[None if i == j else self.rate(i, j) for j in range(n)] for i in range(n)],
            "ci95": [[None if i == j else list(wilson(self.wins[i][j], self.games[i][j])) for j in range(n)]
                     for i in range(n)],
            "games": self.games,
        }


def sweep(warbands: list[tuple[str, list[str]]], maps: list[str], n: int, seed: int, agent: str,
          backend: str, workers: int, on_result: Callable[[GameResult], None] | None = None) -> Matrix:
    """Play ``n`` games for every pair of warbands (the setup roll decides who picks map and side)."""
    k = len(warbands)
    m = Matrix([name for name, _ in warbands], [[0] * k for _ in range(k)], [[0] * k for _ in range(k)])
    for i in range(k):
        for j in range(i + 1, k):
            a, b = warbands[i], warbands[j]
            sides = [f"{a[0]}", f"{b[0]}" if b[0] != a[0] else f"{b[0]}-2"]
            source = {"warbands": [[sides[0], a[1]], [sides[1], b[1]]], "maps": maps}
            jobs = make_jobs(source, sides, (agent, agent), n, seed + 1000 * i + j, swap=False)
            for r in run_batch(jobs, backend, workers, on_result=on_result):  # type: ignore[arg-type]
                if r.error is not None:
                    continue
                m.games[i][j] += 1
                m.games[j][i] += 1
                if r.winner == sides[0]:
                    m.wins[i][j] += 1
                elif r.winner == sides[1]:
                    m.wins[j][i] += 1
    return m


def heat_map(m: Matrix, path: Path, title: str) -> Path:
    """The matrix as a heat map (row beats column), as PNG or SVG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    check_picture(path)
    k = len(m.names)
    fig = Figure(figsize=(2 + 0.9 * k, 1.5 + 0.8 * k), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    data = [[m.rate(i, j) if i != j else float("nan") for j in range(k)] for i in range(k)]
    image = ax.imshow(data, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), m.names, rotation=40, ha="right")
    ax.set_yticks(range(k), m.names)
    for i in range(k):
        for j in range(k):
            if i != j:
                ax.text(j, i, f"{m.rate(i, j):.0%}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="row's win rate")
    ax.set_title(title)
    fig.tight_layout()
    return save_figure(fig, path)
