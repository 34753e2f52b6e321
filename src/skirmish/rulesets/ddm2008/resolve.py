"""One attack against one target: the roll with its modifiers and cover, critical hits and automatic
misses, then the damage and effects of a hit (M08-071..M08-079, M08-093..M08-101, M08-108, M08-123,
M08-128, M08-142).

Every attack goes through ``resolve``: an attack action's, a charge's and an opportunity attack's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.core import geometry
from skirmish.core.coords import Coord, Point
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.conditions import apply_effects
from skirmish.rulesets.ddm2008.damage import deal_attack_damage
from skirmish.rulesets.ddm2008.powers import power_amount, spend_champion
from skirmish.rulesets.ddm2008.sight import combat_advantage
from skirmish.rulesets.ddm2008.stats import card, defense, immune

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


@dataclass(frozen=True, slots=True)
class CoverOrigin:
    """Where cover against a close or area attack is traced from (M08-101): from every corner of
    ``squares`` (a burst's creature, a radius's origin square), else from ``points`` (a cone's or a
    line's origin point, with the square that owns it)."""

    squares: tuple[Coord, ...] = ()
    points: tuple[tuple[Point, Coord | None], ...] = ()


def resolve(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, *, roll_bonus: int = 0,
            charge: bool = False, support: tuple[str, str] | None = None, origins: CoverOrigin | None = None,
            opportunity: bool = False) -> bool:
    """One attack roll against one target and its damage and effects (M08-071..M08-075,
    M08-093, M08-108, M08-123, M08-128, M08-142). Returns whether it hit."""
    state.noisy = True
    mods: list[tuple[str, int]] = []
    if roll_bonus:
        mods.append(("champion power", roll_bonus))
    if charge:
        mods.append(("charge", 1))
    ca = combat_advantage(state, c, t)
    if ca:
        mods.append((f"combat advantage: {ca}", 2))
    if any("sacred_circle" in state.grid.kind(s).tags for s in c.squares):
        mods.append(("sacred circle", 2))
    helpless = t.has("helpless")
    if helpless and spec.kind != "melee":
        mods.append((f"{t.id} is helpless", 4))
    degree = _cover(state, c, t, spec, origins)
    if degree:
        mods.append(("cover", -2))
    roll = state.roll(20, f"{spec.name} of {c.id} against {t.id}", "M08-071")
    total = roll + spec.bonus + sum(v for _, v in mods)
    against = defense(t, spec.vs)
    blood_rock = spec.kind == "melee" and any("blood_rock" in state.grid.kind(s).tags for s in c.squares)
    crit = roll == 20 or (blood_rock and roll >= 19) or (helpless and spec.kind == "melee")
    if crit:
        hit = True
    elif roll == 1:
        hit = False
    else:
        hit = total >= against
    rule = "M08-073" if roll == 20 else ("M08-123" if crit and blood_rock else (
        "M08-142" if crit else ("M08-075" if roll == 1 else "M08-071")))
    parts = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} ({why})" for why, v in mods)
    state.log(Event("attack", f"{c.id} {'charges ' if charge else ''}attacks {t.id} with {spec.name}: "
                              f"{roll} + {spec.bonus}{parts} = {total} vs {spec.vs.upper()} {against}, "
                              f"{'critical hit' if crit and hit else ('hit' if hit else 'miss')}", rule,
                    {"actor": c.id, "target": t.id, "with": spec.name, "roll": roll, "total": total,
                     "against": against, "hit": hit, "critical": crit and hit, "opportunity": opportunity}))
    if not hit:
        return False
    extra: list[tuple[str, int]] = []
    for p in card(c).special_powers:
        if p.kind == "sneak_attack" and ca:
            extra.append((p.name, p.amount))
        if p.kind == "charge_damage" and charge:
            extra.append((p.name, p.amount))
    if support is not None:
        champ = state.creatures[support[0]]
        spend_champion(state, champ, support[1])
        extra.append((f"{support[0]}'s {support[1]}", power_amount(champ, support[1])))
    crit_counts = crit and (blood_rock or not immune(t, "critical_hits"))
    if spec.damage is not None:
        deal_attack_damage(state, c, spec, t, crit_counts, extra)
    if t.on_map:
        apply_effects(state, c, spec, t)
    return True


def _cover(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec, origins: CoverOrigin | None) -> int:
    """Cover of the target against this attack (M08-093..M08-101)."""
    kind = spec.kind
    if origins is None:
        return state.cover_degree(c, t, kind)
    if origins.squares:
        blockers = state.cover_blockers(c, t, kind)
        return geometry.cover(state.grid, state.ruleset.policy, origins.squares, t.squares, kind, blockers)
    return state.cover_degree(c, t, kind, origins=origins.points)
