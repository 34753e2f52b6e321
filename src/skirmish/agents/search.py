"""The search agent: sampled expectimax over ``clone()``, with the rule set's tactician as its policy.

At each decision with a choice, it takes the tactician's best few actions (and the best of each
other kind of action, so that a move is weighed against an attack), and for each plays several
futures on quiet clones: the action, then both sides as the tactician would play them, until the
play has passed from one creature to another ``horizon`` times (or from one side to the other
``sides`` times). The dice of those futures are its
own: each clone's generator is reseeded from the agent's seeded generator, one seed per future and
the same seeds for every candidate (common random numbers, so candidates are compared on the same
luck), so the search never sees the game's own next rolls. Each future ends in an evaluation: the
win or loss if the game is over, else material (each creature's worth, by ``Ruleset.worth``, scaled
by its hit points left) and score, both sides' difference over everything in play. The action with
the best mean wins; ties go to the tactician's order. Leaving the tactician's first choice takes a
second look: the two play more futures on fresh dice, and those alone decide (the first means are
flattered by the luck that made one of them the best).

Everything goes through the game interface (``legal_actions``, ``apply``, ``clone``, ``is_over``,
``winner``, ``score``, ``current_side``, ``current_actor``) and the tactician's ``ranked``, so it
plays every rule set that has a tactician.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from skirmish.core.game import State
from skirmish.errors import SkirmishError

if TYPE_CHECKING:
    from skirmish.core.position import Position

WIN = 10.0
"""The value of a won game, against material and score differences that stay within -2..2."""


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much the search looks at per decision.

    Attributes:
        width: the tactician's best actions looked at.
        kinds: also look at the best action of up to this many other kinds (move, attack, ...).
        samples: futures played per candidate (same dice seeds for every candidate).
        horizon: a future ends once play has passed from one creature to another this many times.
        sides: if not 0, a future ends instead once the side to decide has changed this many times
            (for games where a side's turn holds several creatures' activations, as in ddm2008, so
            that the future holds the foe's whole reply).
        max_steps: a future ends after this many actions at most.
        confirm: when another candidate beats the tactician's first choice, both play this many
            more futures on fresh dice, and the other is taken only if it wins those too
            (0: take the best mean at once).
    """

    width: int = 3
    kinds: int = 2
    samples: int = 4
    horizon: int = 2
    sides: int = 0
    max_steps: int = 40
    confirm: int = 8

    @classmethod
    def parse(cls, text: str, defaults: Mapping[str, int] | None = None) -> SearchBudget:
        """A budget from ``width=4:samples=8`` (the part after ``search:`` in an agent name; colons,
        since commas separate the agents of the sides); fields it does not name come from
        ``defaults`` (a rule set's ``search_budget``), then from the class.

        Raises:
            SkirmishError: an unknown field or a value that is not a whole number of at least 1.
        """
        values: dict[str, int] = {}
        fields = cls.__dataclass_fields__
        for part in filter(None, (p.strip() for p in text.split(":"))):
            key, _, value = part.partition("=")
            key = key.strip()
            if key not in fields:
                raise SkirmishError(f"search budget: unknown {key!r}; use {', '.join(fields)} "
                                    "(as search:width=4:samples=8)")
            try:
                number = int(value)
            except ValueError:
                number = 0
            least = 0 if key in ("sides", "confirm") else 1
            if number < least or not value.strip().isdigit():
                raise SkirmishError(f"search budget: {key} must be a whole number of at least {least}, got {value!r}")
            values[key] = number
        return cls(**{**(defaults or {}), **values})


def evaluate(state: State, side: str) -> float:
    """How good the state is for ``side``: ``WIN``/``-WIN`` once decided (0 for a draw), else the
    difference of material and of score between the side and its foes, over everything in play."""
    if state.is_over():
        winner = state.winner
        return 0.0 if winner is None else (WIN if winner == side else -WIN)
    pos = cast("Position", state)  # a concrete state is also a position (``State``)
    worth = pos.ruleset.worth
    mine = theirs = total = 0.0
    for c in pos.creatures.values():
        w = worth(c)
        total += w
        if c.status == "active":
            left = w * (0.5 + 0.5 * max(0, c.hp) / max(1, c.template.max_hp))
        elif c.status == "down":
            left = 0.2 * w  # dying, not yet lost: it may be healed
        else:
            continue
        if c.side == side:
            mine += left
        else:
            theirs += left
    score = state.score
    ours = score.get(side, 0)
    best_other = max((v for s, v in score.items() if s != side), default=0)
    return (mine - theirs + ours - best_other) / max(1.0, total)


class SearchAgent:
    """Sampled expectimax over the tactician's candidates (module docstring)."""

    name = "search"

    def __init__(self, ruleset: str, seed: int = 0, budget: SearchBudget | None = None) -> None:
        from skirmish.agents.base import find_agent

        self.rng = random.Random(seed)
        self.budget = budget or SearchBudget()
        self.policy = find_agent("tactician", ruleset, seed)
        if not hasattr(self.policy, "ranked"):
            raise SkirmishError(f"the {ruleset} tactician cannot rank actions, so search cannot use it")

    def choose(self, state: State, actions: Sequence[Any]) -> Any:
        if len(actions) == 1:
            return actions[0]
        ranked = self.policy.ranked(state, actions)  # type: ignore[attr-defined]
        candidates = self.candidates(ranked)
        if len(candidates) == 1:
            return candidates[0]
        side = state.current_side
        assert side is not None
        seeds = [self.rng.getrandbits(62) for _ in range(self.budget.samples)]
        best, best_value = candidates[0], float("-inf")
        for action in candidates:
            value = sum(self.future(state, action, side, s) for s in seeds)
            if value > best_value + 1e-9:
                best, best_value = action, value
        if best is candidates[0] or not self.budget.confirm:
            return best
        # The best of several noisy means is flattered by its luck: before leaving the tactician's
        # first choice, the two meet again on fresh dice, and only those futures decide.
        fresh = [self.rng.getrandbits(62) for _ in range(self.budget.confirm)]
        gain = sum(self.future(state, best, side, s) - self.future(state, candidates[0], side, s) for s in fresh)
        return best if gain > 1e-9 else candidates[0]

    def candidates(self, ranked: Sequence[Any]) -> list[Any]:
        """The tactician's best ``width`` actions, then the best of each other kind, ``kinds`` at most."""
        out = list(ranked[: self.budget.width])
        seen = {_kind(a) for a in out}
        for a in ranked[self.budget.width:]:
            if len(out) >= self.budget.width + self.budget.kinds:
                break
            kind = _kind(a)
            if kind not in seen:
                seen.add(kind)
                out.append(a)
        return out

    def future(self, state: State, action: Any, side: str, seed: int) -> float:
        """One sampled future of ``action``: played on a quiet clone with reseeded dice, then judged."""
        sim = state.clone(record=False)
        sim.dice.reseed(seed)  # type: ignore[attr-defined]
        sim.apply(action)
        by_side = self.budget.sides > 0
        limit = self.budget.sides if by_side else self.budget.horizon
        who = sim.current_side if by_side else sim.current_actor
        passes = 0
        for _ in range(self.budget.max_steps):
            if sim.is_over():
                break
            now = sim.current_side if by_side else sim.current_actor
            if now != who:
                who = now
                passes += 1
                if passes >= limit:
                    break
            options = sim.legal_actions()
            if not options:
                break
            sim.apply(self.policy.choose(sim, options))
        return evaluate(sim, side)


def _kind(action: Any) -> str:
    """What kind of action it is, for variety among the candidates: its class and what it does (its verb,
    ``Action.verb``)."""
    return f"{type(action).__name__}:{getattr(action, 'verb', '')}"
