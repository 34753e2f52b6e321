"""What a batch of games says: win, loss and draw rates with Wilson intervals, rounds, scores and
per-creature damage, kills and survival; as a table, JSON, CSV and a picture."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skirmish.sim.batch import GameResult
from skirmish.sim.charts import outcome_chart
from skirmish.sim.stats import mean_ci, quartiles, wilson


@dataclass(slots=True)
class Summary:
    """The results of a batch, by side and by agent."""

    results: list[GameResult]
    sides: list[str]

    @property
    def finished(self) -> list[GameResult]:
        return [r for r in self.results if r.error is None]

    @property
    def failed(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def side_wins(self, side: str) -> int:
        return sum(1 for r in self.finished if r.winner == side)

    def draws(self) -> int:
        return sum(1 for r in self.finished if r.winner is None)

    def agent_wins(self) -> dict[str, tuple[int, int]]:
        """Per agent label (agent@side order), wins and games."""
        out: dict[str, list[int]] = {}
        for r in self.finished:
            for side, agent in r.agents.items():
                w = out.setdefault(agent, [0, 0])
                w[1] += 1
                w[0] += r.winner == side
        return {k: (v[0], v[1]) for k, v in out.items()}

    def ci_width(self, side: str) -> float:
        lo, hi = wilson(self.side_wins(side), len(self.finished))
        return hi - lo

    def to_json(self) -> dict[str, Any]:
        n = len(self.finished)
        sides = {}
        for side in self.sides:
            w = self.side_wins(side)
            lo, hi = wilson(w, n)
            scores = [r.score.get(side, 0) for r in self.finished]
            sides[side] = {"wins": w, "win_rate": w / n if n else 0.0, "ci95": [lo, hi],
                           "losses": sum(1 for r in self.finished if r.winner not in (None, side)),
                           "score": dict(zip(("mean", "low", "high"), mean_ci(scores), strict=True))}
        rounds = [r.rounds for r in self.finished]
        creatures: dict[str, dict[str, Any]] = {}
        for r in self.finished:
            for cid, side in r.sides.items():
                row = creatures.setdefault(cid, {"side": side, "damage": 0.0, "kills": 0.0, "survival": 0.0})
                row["damage"] += r.damage.get(cid, 0) / n
                row["kills"] += r.kills.get(cid, 0) / n
                row["survival"] += r.survived.get(cid, False) / n
        agents = {}
        for agent, (w, games) in self.agent_wins().items():
            lo, hi = wilson(w, games)
            agents[agent] = {"wins": w, "games": games, "win_rate": w / games if games else 0.0, "ci95": [lo, hi]}
        return {
            "games": n,
            "draws": self.draws(),
            "sides": sides,
            "agents": agents,
            "rounds": {**dict(zip(("mean", "low", "high"), mean_ci(rounds), strict=True)),
                       "quartiles": list(quartiles(rounds))},
            "creatures": creatures,
            "failed": [{"index": r.index, "seed": r.seed, "error": r.error} for r in self.failed],
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game", "seed", "winner", "rounds", *[f"score_{s}" for s in self.sides],
                         *[f"agent_{s}" for s in self.sides], "error"])
        for r in self.results:
            writer.writerow([r.index, r.seed, r.winner or "", r.rounds, *[r.score.get(s, 0) for s in self.sides],
                             *[r.agents.get(s, "") for s in self.sides], (r.error or "").splitlines()[0] if r.error
                             else ""])
        return out.getvalue()


def plot(summary: Summary, path: Path, title: str) -> Path:
    """Outcome rates with intervals and the distribution of rounds, as PNG or SVG."""
    data = summary.to_json()
    draws = data["draws"] / max(1, data["games"])
    bars = [(s, data["sides"][s]["win_rate"], *data["sides"][s]["ci95"]) for s in summary.sides]
    bars.append(("draw", draws, draws, draws))
    return outcome_chart(path, title, bars, "win rate (95% interval)", [r.rounds for r in summary.finished],
                         "games")
