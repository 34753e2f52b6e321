"""Victory points and the end of a game (M08-153..M08-159): destroyed creatures, victory areas,
the tie-breaker.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from skirmish.core.coords import Coord
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.record import record
from skirmish.rulesets.ddm2008.stats import card

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


def vp_text(state: Ddm2008State) -> str:
    """The score as the events word it: ``blue 20, red 0``."""
    return ", ".join(f"{s} {v}" for s, v in state.vp.items())


def award(state: Ddm2008State, side: str, points: int, why: str, rule: str) -> None:
    """Give victory points to a side."""
    if points <= 0 or side not in state.vp:
        return
    state.vp[side] += points
    state.log(Event("vp", f"{side} scores {points} VP ({why}); VP {vp_text(state)}", rule,
                    {"side": side, "points": points, "vp": dict(state.vp)}))


def target_vp(state: Ddm2008State) -> int:
    """VP needed to win: the warband size (M08-153)."""
    return state.opts.points


def check_victory(state: Ddm2008State) -> None:
    """A side wins on reaching the VP target, or when only its creatures are left on the map (M08-153)."""
    if state.over or state.phase in ("choose_map", "choose_start", "place"):
        return
    for side, points in state.vp.items():
        if points >= target_vp(state):
            finish(state, side, f"{side} reaches {points} VP", "M08-153")
            return
    in_play = state.sides_in_play()
    if len(state.sides()) >= 2 and len(in_play) <= 1:
        if in_play:
            finish(state, in_play[0], f"{in_play[0]} has the only creatures left on the map", "M08-153")
        else:
            best = max(state.vp.values())
            leaders = [s for s, v in state.vp.items() if v == best]
            finish(state, leaders[0] if len(leaders) == 1 else None, "no creature is left on the map", "M08-153")


def finish(state: Ddm2008State, side: str | None, why: str, rule: str | None) -> None:
    """End the game."""
    state.over = True
    state.win = side
    state.phase = "over"
    state.active = None
    state.log(Event("game_over", f"{why}: " + (f"{side} wins" if side else "a draw"), rule,
                    {"winner": side, "vp": dict(state.vp)}))


def destroy(state: Ddm2008State, t: Creature, why: str, rule: str) -> None:
    """Remove a destroyed creature and score it for the other side (M08-004, M08-154, M08-157)."""
    true_side = record(t).true_side
    if true_side:
        t.side = true_side  # a creature controlled by the opponent reverts before VP (GAP-M08-3)
    t.hp = 0  # destroyed and removed: what was left below 0 does not matter (M08-060)
    t.status = "dead"
    state.log(Event("destroyed", f"{t.id} is destroyed ({why})", rule, {"creature": t.id}))
    scenario = state.opts.scenario
    for side in state.vp:
        if side == t.side:
            continue
        if scenario in ("bounty", "combined"):
            award(state, side, max(1, 5 * state.opts.points // 200), f"{t.id} destroyed", "M08-157")
        else:
            award(state, side, card(t).cost, f"{t.id} destroyed, cost", "M08-154")


def in_victory_area(state: Ddm2008State, c: Creature) -> bool:
    """Whether the creature stands in its own side's victory area (M08-155)."""
    letter = state.letters.get(c.side)
    if letter is None:
        return False
    zones = cast("frozenset[Coord]", state.grid.cached(("victory", letter), lambda: frozenset(
        sq for name, sqs in state.grid.zones.items() if name.startswith(f"victory_{letter}") for sq in sqs)))
    return any(s in zones for s in c.squares)


def score_victory_areas(state: Ddm2008State) -> None:
    """End of round: 10 VP (at 200 points) for a side with a creature in its victory area, at most
    10 a round (M08-155); in Uncontested Victory, 5 per area no enemy holds (M08-158)."""
    scale = state.opts.points / 200
    for side, letter in state.letters.items():
        zones = {name: sqs for name, sqs in state.grid.zones.items() if name.startswith(f"victory_{letter}")}
        if not zones:
            continue
        mine = [c for c in state.on_map() if c.side == side]
        theirs = [c for c in state.on_map() if c.side != side]
        if state.opts.scenario in ("uncontested", "combined"):
            for name, sqs in sorted(zones.items()):
                held = any(s in sqs for c in mine for s in c.squares)
                contested = any(s in sqs for c in theirs for s in c.squares)
                if held and not contested:
                    award(state, side, max(1, int(5 * scale)), f"holds {name} uncontested", "M08-158")
        else:
            if any(s in sqs for sqs in zones.values() for c in mine for s in c.squares):
                award(state, side, max(1, int(10 * scale)), "a creature in its victory area", "M08-155")


def tie_breaker(state: Ddm2008State, rule: str | None) -> None:
    """More VP wins; then the creature closest to the map's centre; then the highest-cost creature
    among the closest (M08-156)."""
    sides = list(state.vp)
    best = max(state.vp.values())
    leaders = [s for s in sides if state.vp[s] == best]
    why = "ten rounds without an attack" if rule else f"round {state.round}, the project's round limit"
    if len(leaders) == 1:
        finish(state, leaders[0], f"tie-breaker after {why}: most VP", rule or "M08-156")
        return
    cx, cy = state.grid.width / 2, state.grid.height / 2

    def closeness(c: Creature) -> float:
        x = c.at[0] + c.size / 2
        y = c.at[1] + c.size / 2
        return math.hypot(x - cx, y - cy)

    per_side = {}
    for s in leaders:
        mine = [c for c in state.on_map() if c.side == s]
        if mine:
            d = min(closeness(c) for c in mine)
            cost = max(card(c).cost for c in mine if abs(closeness(c) - d) < 1e-9)
            per_side[s] = (d, -cost)
    if not per_side:
        finish(state, None, f"tie-breaker after {why}: nobody left", rule or "M08-156")
        return
    ranked = sorted(per_side.items(), key=lambda kv: kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        finish(state, None, f"tie-breaker after {why}: equal in every step", rule or "M08-156")
        return
    finish(state, ranked[0][0], f"tie-breaker after {why}: creature closest to the centre", rule or "M08-156")
