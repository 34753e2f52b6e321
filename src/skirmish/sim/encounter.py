"""Encounter deadliness by simulation: play a fight many times and report how it goes.

Works on any rule set whose creatures can be heroes (``hero: true``): the party is the side
holding the heroes. Each fight gets its own seed, spawned from one root seed, so the same
command gives the same report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from skirmish.core.dice import Dice
from skirmish.sim.charts import outcome_chart
from skirmish.sim.stats import mean_ci, quartiles, stdev, wilson


@dataclass(slots=True)
class FightResult:
    """One simulated fight, as plain data."""

    seed: int
    party_won: bool
    rounds: int
    downed: int
    died: int
    hp_left: float


@dataclass(slots=True)
class EncounterReport:
    """What the simulations say, with 95% intervals."""

    fights: list[FightResult] = field(default_factory=list)
    party: str = ""

    @property
    def n(self) -> int:
        return len(self.fights)

    def win(self) -> tuple[float, float, float]:
        w = sum(f.party_won for f in self.fights)
        lo, hi = wilson(w, self.n)
        return (w / self.n if self.n else 0.0, lo, hi)

    def death(self) -> tuple[float, float, float]:
        d = sum(f.died > 0 for f in self.fights)
        lo, hi = wilson(d, self.n)
        return (d / self.n if self.n else 0.0, lo, hi)

    def downed(self) -> tuple[float, float, float]:
        return mean_ci([f.downed for f in self.fights])

    def rounds(self) -> tuple[float, float, float]:
        return mean_ci([f.rounds for f in self.fights])

    def hp_left(self) -> tuple[float, float, float]:
        m, lo, hi = mean_ci([f.hp_left for f in self.fights])
        return (m, max(0.0, lo), min(1.0, hi))

    def to_json(self) -> dict[str, Any]:
        rounds = [f.rounds for f in self.fights]
        return {
            "fights": self.n,
            "party": self.party,
            "party_wins": dict(zip(("rate", "low", "high"), self.win(), strict=True)),
            "character_dies": dict(zip(("rate", "low", "high"), self.death(), strict=True)),
            "characters_downed": dict(zip(("mean", "low", "high"), self.downed(), strict=True)),
            "rounds": {**dict(zip(("mean", "low", "high"), self.rounds(), strict=True)), "stdev": stdev(rounds),
                       "quartiles": list(quartiles(rounds))},
            "party_hp_left": dict(zip(("mean", "low", "high"), self.hp_left(), strict=True)),
        }


def fight_seeds(root: int, n: int) -> list[int]:
    """Per-fight seeds spawned from one root seed (numpy's SeedSequence)."""
    children = np.random.SeedSequence(root).spawn(n)
    return [int(c.generate_state(1)[0]) for c in children]


def simulate(scenario: Any, n: int, seed: int = 0, agents: tuple[str, str] = ("tactician", "tactician"),
             progress: Callable[[int], None] | None = None) -> EncounterReport:
    """Play the scenario's fight ``n`` times, the party's side with ``agents[0]``."""
    from skirmish.agents import find_agent, play_game

    ruleset = scenario.ruleset
    sides = scenario.position.sides()
    heroes = [c for c in scenario.position.creatures.values() if c.hero]
    party = heroes[0].side if heroes else sides[0]
    report = EncounterReport(party=party)
    for i, s in enumerate(fight_seeds(seed, n)):
        pos = scenario.position.clone()
        pos.dice = Dice(s)
        state: Any = ruleset.new_state(pos)  # a state and a position (``State``)
        players = {side: find_agent(agents[0] if side == party else agents[1], ruleset.name, s + k)
                   for k, side in enumerate(sides)}
        play_game(state, players)  # plays ``state`` to its end
        party_ids = {c.id for c in state.creatures.values() if c.side == party}
        downed = {e.data.get("creature") for e in state.events if e.type in ("down", "dead")} & party_ids
        died = sum(1 for c in state.creatures.values() if c.side == party and c.status == "dead")
        max_hp = sum(c.template.max_hp for c in state.creatures.values() if c.side == party) or 1
        left = sum(max(0, c.hp) for c in state.creatures.values() if c.side == party and c.status != "dead")
        report.fights.append(FightResult(s, state.winner == party, state.round, len(downed), died, left / max_hp))
        if progress is not None:
            progress(i + 1)
    return report


def plot(report: EncounterReport, path: Path, title: str) -> Path:
    """Outcome rates with their intervals and the distribution of rounds, as PNG or SVG."""
    bars = [("party wins", *report.win()), ("a character dies", *report.death())]
    return outcome_chart(path, title, bars, "chance (95% interval)", [f.rounds for f in report.fights], "fights")
