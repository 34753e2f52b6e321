"""A creature's activation: what it has done this turn (M08-036..M08-039), and what happens as its
turn starts and ends (M08-125, M08-137, M08-141, M08-144, M08-147, M08-148, M08-151).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.conditions import INACTIVE, end_of_creature_turn
from skirmish.rulesets.ddm2008.damage import after_damage, heal, take_damage
from skirmish.rulesets.ddm2008.powers import power_amount, spend_champion
from skirmish.rulesets.ddm2008.record import record
from skirmish.rulesets.ddm2008.stats import card
from skirmish.rulesets.ddm2008.victory import destroy

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


@dataclass(slots=True)
class Activation:
    """What the creature being activated has done this turn (M08-036..M08-039).

    Attributes:
        move_used: its move action is spent.
        attack_used: its attack action is spent (or taken as a second move, M08-038).
        moved: it has moved this turn.
        no_more_moves: it may not move again (moved then attacked, M08-039; charged, M08-106).
        no_actions: it takes no action this turn (inactive, M08-141; confused, M08-144).
        controller: the side that decides for it this turn (its own, or the opponent's, M08-144).
        on_teleporter: it entered or started on a teleporter (M08-131).
        oa_taken: creatures that have made their opportunity attack this turn (M08-117).
        champion_used: ``champion:power`` used this creature's turn (M08-151).
        no_more_moves_rule: the rule to name when a move is refused for ``no_more_moves``.
        move_left: squares left of its last move, for a teleporter (M08-131).
        continue_budget: squares of a move begun before a teleporter that may still be walked.
        last: the verb of its last action.
    """

    move_used: bool = False
    attack_used: bool = False
    moved: bool = False
    no_more_moves: bool = False
    no_actions: bool = False
    controller: str = ""
    on_teleporter: bool = False
    oa_taken: set[str] = field(default_factory=set)
    champion_used: set[str] = field(default_factory=set)
    no_more_moves_rule: str = "M08-039"
    move_left: int = 0
    continue_budget: int = 0
    last: str = ""

    def copy(self) -> Activation:
        return Activation(self.move_used, self.attack_used, self.moved, self.no_more_moves, self.no_actions,
                          self.controller, self.on_teleporter, set(self.oa_taken), set(self.champion_used),
                          self.no_more_moves_rule, self.move_left, self.continue_budget, self.last)

    def spend_move(self) -> None:
        """Spend a move action: the move action, else the attack action taken as one (M08-038)."""
        if not self.move_used:
            self.move_used = True
        else:
            self.attack_used = True
        self.moved = True


def start_of_turn(state: Ddm2008State, c: Creature) -> None:
    """Ongoing damage (M08-137), regeneration (M08-148), inactivity (M08-141) and the confusion roll
    (M08-144, GAP-M08-3)."""
    for cond in list(c.conditions):
        if cond.name.startswith("ongoing_"):
            parts = cond.name.split("_")
            amount = int(parts[1])
            dtype = parts[2] if len(parts) > 2 else None
            taken = take_damage(state, c, {dtype: amount}, None)
            state.log(Event("damage", f"{c.id} takes {taken} ongoing damage; {max(c.hp, 0)} HP left", "M08-137",
                            {"target": c.id, "amount": taken, "hp": c.hp}))
            after_damage(state, c, None)
            if not c.on_map:
                return
    for p in card(c).special_powers:
        if p.kind == "regeneration" and 0 < c.hp < c.template.max_hp:
            heal(state, c, p.amount, p.name, "M08-148")
    if any(c.has(x) for x in INACTIVE):
        state.act.no_actions = True
        state.log(Event("inactive", f"{c.id} is inactive and takes no actions", "M08-141", {"creature": c.id}))
        return
    if c.has("confused"):
        roll = state.roll(20, f"confusion of {c.id}", "M08-144")
        if roll <= 5:
            text = f"{c.id} is confused ({roll}): its own player controls it"
        elif roll <= 15:
            state.act.no_actions = True
            text = f"{c.id} is confused ({roll}): it takes no action"
        else:
            other = next((s for s in state.sides() if s != c.side), c.side)
            record(c).true_side = c.side
            c.side = other
            c.team = other
            state.act.controller = other
            text = f"{c.id} is confused ({roll}): {other} controls it this turn"
        state.log(Event("confused", text, "M08-144", {"creature": c.id, "roll": roll}))


def end_of_turn(state: Ddm2008State, c: Creature, power: tuple[str, str] | None) -> None:
    """A champion's end-of-turn heal (M08-151); a pit destroys a creature that ends its turn in it
    (M08-125); saving throws and the effects that end with its turn (``end_of_creature_turn``); a
    confused creature goes back to its own side (M08-144)."""
    if power is not None:
        champ = state.creatures[power[0]]
        spend_champion(state, champ, power[1])
        heal(state, c, power_amount(champ, power[1]), f"{champ.id}'s {power[1]}", "M08-151")
    if c.on_map and any(state.grid.kind(s).end_turn == "destroyed" for s in c.squares):
        destroy(state, c, "ended its turn in a pit", "M08-125")
    if c.on_map:
        end_of_creature_turn(state, c)
    r = record(c)
    true_side, r.true_side = r.true_side, None
    if true_side:
        c.side = true_side
        c.team = true_side
