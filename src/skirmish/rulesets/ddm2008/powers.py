"""Special powers that cost an action (M08-149) and champion powers (M08-150, M08-151): which may be
used now, spending their uses, and the heals they give.

A power in play is named ``(creature id, power name)``; uses left are in ``state.uses``, keyed the
same way (``(champion id, "champion")`` for a champion's rating, M08-012).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.errors import IllegalActionError
from skirmish.rulesets.ddm2008.actions import Action, UsePower
from skirmish.rulesets.ddm2008.conditions import BASIC_ONLY
from skirmish.rulesets.ddm2008.damage import heal
from skirmish.rulesets.ddm2008.stats import SpecialPower, card, champion_power, special_power
from skirmish.rulesets.ddm2008.victory import in_victory_area

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State

NO_CHAMPION_POWERS = frozenset(("staggered", "confused", "stunned", "helpless"))
"""Conditions under which a champion uses no champion power (M08-140..M08-144)."""


# Champion powers.

def power_amount(c: Creature, name: str) -> int:
    """The bonus, extra damage or hit points of the creature's champion power ``name`` (M08-150)."""
    p = champion_power(c, name)
    return p.amount if p else 0


def champion_ready(state: Ddm2008State, champ: Creature, name: str) -> bool:
    """A champion may use this power now: enough uses (M08-150), not used this creature's turn
    (M08-151), able to act (M08-140, M08-144; a dazed champion only on its own turn, M08-139)."""
    p = champion_power(champ, name)
    if p is None or not champ.on_map or champ.status != "active":
        return False
    if any(champ.has(x) for x in NO_CHAMPION_POWERS):
        return False
    if champ.has("dazed") and state.active != champ.id:
        return False
    if (champ.id + ":" + name) in state.act.champion_used:
        return False
    return state.uses.get((champ.id, "champion"), 0) >= p.cost


def spend_champion(state: Ddm2008State, champ: Creature, name: str) -> None:
    """Spend the power's cost from the champion's uses, once this creature's turn (M08-150, M08-151)."""
    p = champion_power(champ, name)
    assert p is not None
    state.uses[(champ.id, "champion")] -= p.cost
    state.act.champion_used.add(champ.id + ":" + name)
    state.log(Event("champion_power", f"{champ.id} uses {name} ({state.uses[(champ.id, 'champion')]} uses left)",
                    "M08-150", {"actor": champ.id, "power": name}))


def own_attack_powers(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    """The creature's champion powers that add to its own attack roll now (``own_attack``, M08-150)."""
    return [(c.id, p.name) for p in card(c).champion_powers
            if p.trigger == "own_attack" and champion_ready(state, c, p.name)]


def ally_hit_powers(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    """Allies' champion powers that add damage when this creature hits, in range and ready now
    (``ally_hits``, M08-150, M08-151)."""
    out = []
    for champ in state.on_map():
        if champ is c or not state.ruleset.allies(champ, c):
            continue
        for p in card(champ).champion_powers:
            if p.trigger != "ally_hits" or not champion_ready(state, champ, p.name):
                continue
            d = state.distance(champ, c)
            if d is not None and d <= p.range:
                out.append((champ.id, p.name))
    return out


def end_turn_heals(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    """Allies' champion powers that heal this creature as it ends its turn, in range (and in its
    victory area where the power says so), ready now (``ally_ends_turn``, M08-151)."""
    out: list[tuple[str, str]] = []
    if c.hp >= c.template.max_hp:
        return out
    for champ in state.on_map():
        if not state.ruleset.allies(champ, c) or champ is c:
            continue
        for p in card(champ).champion_powers:
            if p.trigger != "ally_ends_turn" or not champion_ready(state, champ, p.name):
                continue
            if p.in_victory_area and not in_victory_area(state, c):
                continue
            d = state.distance(champ, c)
            if d is not None and d <= p.range:
                out.append((champ.id, p.name))
    return out


def check_end_turn_heal(state: Ddm2008State, c: Creature, power: tuple[str, str]) -> None:
    """Refuse an end-of-turn heal that is not one of ``end_turn_heals`` now (M08-151).

    Raises:
        IllegalActionError: the champion cannot use it on this creature now.
    """
    if power not in end_turn_heals(state, c):
        raise IllegalActionError(f"{power[0]} cannot use {power[1]} on {c.id} now", rule="M08-151")


# Special powers that cost an action.

def power_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """The creature's heals on allies in range that are not at full hit points, with the action they
    cost still free and uses left (M08-149)."""
    out: list[Action] = []
    for p in card(c).special_powers:
        if p.kind != "heal" or not _power_action_free(state, p) or state.uses.get((c.id, p.name), 1) <= 0:
            continue
        if any(c.has(x) for x in BASIC_ONLY):
            continue
        for ally in state.on_map():
            if not state.ruleset.allies(c, ally) or ally.hp >= ally.template.max_hp:
                continue
            d = state.distance(c, ally)
            if d is not None and d <= p.range:
                out.append(UsePower(c.id, power=p.name, target=ally.id))
    return out


def _power_action_free(state: Ddm2008State, p: SpecialPower) -> bool:
    """Whether the action the power costs, a move action or the attack action, is still free (M08-149)."""
    a = state.act
    if p.action == "move":
        return not (a.move_used and a.attack_used) and not a.no_more_moves
    return not a.attack_used


def use_power(state: Ddm2008State, action: UsePower) -> None:
    """A special power that costs an action, on the creature's own turn (M08-149): a heal.

    Raises:
        IllegalActionError: not one of ``power_actions`` now.
    """
    c = state.creature(action.actor)
    if UsePower(c.id, power=action.power, target=action.target) not in power_actions(state, c):
        raise IllegalActionError(f"{c.id} cannot use {action.power!r} on {action.target} now (action, range, "
                                 "uses, or its condition)", rule="M08-149")
    p = special_power(c, action.power)
    assert p is not None
    if p.action == "move":
        state.act.spend_move()
        state.act.moved = False
    else:
        state.act.attack_used = True
    if (c.id, p.name) in state.uses:
        state.uses[(c.id, p.name)] -= 1
    heal(state, state.creature(action.target), p.amount, f"{c.id}'s {p.name}", "M08-149")
