"""Point-value estimates for a rule set whose lineups are bought with points (ddm2008's warbands): what
is one creature worth, in points of a reference creature?

Side A fields a base warband plus the creature; side B the same base plus ``k`` copies of the
reference, for ``k = 0, 1, 2, ...`` (up to ``most``, or by default until A surely loses). A's
score (a win counts 1, a draw one half) falls as ``k`` grows; the estimate is the reference
points ``k * cost`` at which it crosses 50%, read off a monotone (pool-adjacent-violators) fit
and interpolated between steps. The interval is where the 95% Wilson bounds, each made
monotone the conservative way, cross 50%.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skirmish.errors import SkirmishError
from skirmish.files import check_picture, save_figure
from skirmish.sim.batch import GameResult, make_jobs, run_batch
from skirmish.sim.stats import wilson


@dataclass(slots=True)
class Step:
    """A's results against ``count`` copies of the reference."""

    count: int
    points: int
    score: float = 0.0
    games: int = 0

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.5

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.score, self.games)  # half-wins are fine in the formula


@dataclass(slots=True)
class PointValue:
    """The steps played, the estimate in reference points and its 95% interval (None: beyond the
    last step)."""

    creature: str
    stated_cost: int
    reference: str
    reference_cost: int
    steps: list[Step] = field(default_factory=list)
    estimate: float | None = None
    interval: tuple[float | None, float | None] = (None, None)
    failed: list[GameResult] = field(default_factory=list)
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "creature": self.creature, "stated_cost": self.stated_cost,
            "reference": self.reference, "reference_cost": self.reference_cost,
            "estimate": self.estimate, "ci95": list(self.interval),
            "interrupted": self.interrupted,
            "failed": [{"seed": r.seed, "error": (r.error or "").splitlines()[0]} for r in self.failed],
            "steps": [{"count": s.count, "points": s.points, "games": s.games, "score": s.score,
                       "rate": s.rate, "ci95": list(s.ci95)} for s in self.steps],
        }


def decreasing_fit(values: Sequence[float], weights: Sequence[float]) -> list[float]:
    """The weighted least-squares non-increasing fit (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, max(w, 1e-12), 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out: list[float] = []
    for mean, _, length in blocks:
        out.extend([mean] * int(length))
    return out


def crossing(xs: Sequence[float], ys: Sequence[float], level: float = 0.5) -> float | None:
    """Where a non-increasing curve through ``(xs, ys)`` first falls to ``level``, interpolated
    linearly; ``xs[0]`` when it starts at or below, None when it never gets there."""
    if ys[0] <= level:
        return xs[0]
    for i in range(1, len(xs)):
        if ys[i] <= level:
            span = ys[i - 1] - ys[i]
            t = (ys[i - 1] - level) / span if span > 0 else 1.0
            return xs[i - 1] + t * (xs[i] - xs[i - 1])
    return None


def estimate(steps: list[Step], walkover: bool = False) -> tuple[float | None, tuple[float | None, float | None]]:
    """The 50% crossing of A's score and of its 95% band. ``walkover``: the steps start at one
    copy because A faces an empty side at none, which A wins for certain (a known point at 0)."""
    xs = [float(s.points) for s in steps]
    rates = [s.rate for s in steps]
    weights = [float(s.games) for s in steps]
    lows = [s.ci95[0] for s in steps]
    highs = [s.ci95[1] for s in steps]
    if walkover:
        xs, rates, lows, highs = [0.0, *xs], [1.0, *rates], [1.0, *lows], [1.0, *highs]
        weights = [1e9, *weights]  # certain, so the fit never pools it down
    fit = decreasing_fit(rates, weights)
    # Conservative monotone envelopes: the lower bound never rises again, the upper never falls early.
    low_env = [min(lows[: i + 1]) for i in range(len(lows))]
    high_env = [max(highs[i:]) for i in range(len(highs))]
    return crossing(xs, fit), (crossing(xs, low_env), crossing(xs, high_env))


def point_value(creature: str, reference: str, base: list[str], maps: list[str], n: int, seed: int,
                agent: str, backend: str = "serial", workers: int = 1, most: int | None = None,
                on_result: Callable[[GameResult], None] | None = None) -> PointValue:
    """Play ``n`` games at each step and estimate ``creature``'s worth in ``reference`` points.
    Games that fail are kept in ``failed`` with their seeds and left out of the scores.

    Raises:
        SkirmishError: an unknown creature, a unique reference, or a reference with no cost.
    """
    from skirmish.games import lineup_ruleset

    ruleset = lineup_ruleset()
    cards = ruleset.catalog()
    for name in (creature, reference, *base):
        if name not in cards.creatures:
            raise SkirmishError(f"the {ruleset.name} catalog has no creature {name!r}")
    if reference in cards.unique:
        raise SkirmishError(f"{reference} is unique; the reference must be a creature a warband can field many times")
    ref_cost = cards.costs.get(reference, 0)
    if ref_cost <= 0:
        raise SkirmishError(f"{reference} has no point cost to measure in")
    cost = cards.costs.get(creature, 0)
    # Without ``most``: at least twice the stated cost, then on until the measured side's score is
    # surely under 50% (its interval's top below it), or at the cap.
    planned = most if most is not None else max(2, math.ceil(2 * cost / ref_cost))
    cap = most if most is not None else max(12, 3 * planned)
    result = PointValue(creature, cost, reference, ref_cost)
    sides = ["measured", "reference"]
    k = 0 if base else 1  # with no base, no copies would be a walkover, not a game
    while k <= cap:
        source = {"warbands": [[sides[0], [*base, creature]], [sides[1], [*base, *[reference] * k]]],
                  "maps": maps}
        step = Step(k, k * ref_cost)
        jobs = make_jobs(source, sides, (agent, agent), n, seed + 7919 * k, swap=False)
        results = run_batch(jobs, backend, workers, on_result=on_result)  # type: ignore[arg-type]
        for r in results:
            if r.error is not None:
                result.failed.append(r)
                continue
            step.games += 1
            step.score += 1.0 if r.winner == sides[0] else 0.5 if r.winner is None else 0.0
        result.steps.append(step)
        if len(results) < len(jobs):
            result.interrupted = True  # Ctrl-C: keep what finished
            break
        if k >= planned and most is None and step.games and step.ci95[1] < 0.5:
            break
        k += 1
    result.estimate, result.interval = estimate(result.steps, walkover=not base)
    return result


def plot_steps(pv: PointValue, path: Path) -> Path:
    """A's score at each step with its interval, the 50% line and the estimate, as PNG or SVG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    check_picture(path)
    fig = Figure(figsize=(6.4, 4.2), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    xs = [s.points for s in pv.steps]
    ax.errorbar(xs, [s.rate for s in pv.steps],
                yerr=[[s.rate - s.ci95[0] for s in pv.steps], [s.ci95[1] - s.rate for s in pv.steps]],
                fmt="o", capsize=3, label=f"{pv.creature}'s score")
    ax.plot(xs, decreasing_fit([s.rate for s in pv.steps], [s.games for s in pv.steps]), "-", label="monotone fit")
    ax.axhline(0.5, color="grey", linestyle=":")
    if pv.estimate is not None:
        ax.axvline(pv.estimate, color="tab:red", label=f"worth ≈ {pv.estimate:.1f}")
    lo, hi = pv.interval
    if lo is not None:
        ax.axvspan(lo, hi if hi is not None else xs[-1], color="tab:red", alpha=0.12, label="95% interval")
    ax.axvline(pv.stated_cost, color="tab:green", linestyle="--", label=f"stated cost {pv.stated_cost}")
    ax.set_xlabel(f"points of {pv.reference} on the other side")
    ax.set_ylabel("score (win 1, draw ½)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title(f"What is {pv.creature} worth?")
    fig.tight_layout()
    return save_figure(fig, path)
