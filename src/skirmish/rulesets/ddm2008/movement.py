"""Movement (M08-036..M08-059, M08-131): the move and shift actions, teleporters, explicit paths,
and the walk that stops square by square for opportunity attacks (M08-113..M08-120).

Where a creature can go is ``Position.reach`` (the core's search, with this rule set's
``movements`` and ``passage``); this module checks and plays the moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, NoReturn

from skirmish.core.coords import DIRECTIONS_8, Coord, footprint
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.core.game import Movement
from skirmish.core.pathing import MoveRequest, Passage, Reach, path_cost, reachable, unit_steps
from skirmish.errors import IllegalActionError
from skirmish.rulesets.ddm2008.actions import Action, Move, Shift, Teleport
from skirmish.rulesets.ddm2008.conditions import INACTIVE
from skirmish.rulesets.ddm2008.opportunity import opportunity_attack, provoked_by_leaving, takes_opportunity

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


# Move actions.

def speed(state: Ddm2008State, c: Creature) -> int:
    """The best speed of its movement modes now (M08-037, M08-143, M08-146)."""
    return max(state.ruleset.speeds(state, c).values(), default=0)


def can_move(state: Ddm2008State, c: Creature) -> bool:
    """A move action is left, the creature has not moved then attacked (M08-039), and can move."""
    a = state.act
    if a.no_actions or a.no_more_moves or c.has("immobilized"):
        return False
    return not (a.move_used and a.attack_used)


def move_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """A move to every square the creature can end a move on now, one per movement mode when it has
    several (M08-037, M08-051); the rest of a move begun before a teleporter (M08-131)."""
    if c.has("immobilized") or speed(state, c) <= 0:
        return []
    budget = state.act.continue_budget if state.act.continue_budget > 0 else None
    if budget is None and not can_move(state, c):
        return []
    movements = state.ruleset.movements(state, c)
    if len(movements) == 1:
        reach = state.reach(c, budget=budget)
        return [Move(c.id, to=sq, path=tuple(reach.path(sq))) for sq in reach]
    out: list[Action] = []
    for mv in movements:  # several speeds: each mode is its own choice (M08-051)
        reach = reach_mode(state, c, mv if budget is None else replace(mv, budget=budget))
        out.extend(Move(c.id, to=sq, path=tuple(reach.path(sq)), mode=mv.mode) for sq in reach)
    return out


def move(state: Ddm2008State, action: Move) -> None:
    """A move action (M08-037): up to its speed, along its path or the cheapest one, in one mode
    (M08-051).

    Raises:
        IllegalActionError: it cannot move, has no move left, has no such mode, or cannot end or
            take that path.
    """
    c = state.creature(action.actor)
    if c.has("immobilized") or speed(state, c) <= 0:
        raise IllegalActionError(f"{c.id} cannot move (speed 0)", rule="M08-143")
    continuing = state.act.continue_budget > 0
    if not continuing and not can_move(state, c):
        rule = state.act.no_more_moves_rule if state.act.no_more_moves else "M08-036"
        raise IllegalActionError(f"{c.id} has no move left this turn", rule=rule)
    budget = state.act.continue_budget if continuing else None
    if action.mode is not None:
        # The mode is chosen before the move starts (M08-051): only that mode's squares.
        modes = [m for m in state.ruleset.movements(state, c) if m.mode == action.mode]
        if not modes:
            raise IllegalActionError(f"{c.id} has no {action.mode} speed", rule="M08-051")
        mv = modes[0] if budget is None else replace(modes[0], budget=budget)
        reach = reach_mode(state, c, mv)
    else:
        reach = state.reach(c, budget=budget)
    if action.path:
        path = list(action.path)
        if path != (reach.path(action.to) if action.to in reach else None):
            check_path(state, c, path, budget)
    else:
        if action.to not in reach:
            raise IllegalActionError(f"{c.id} cannot end a move at {list(action.to)}", rule="M08-042")
        path = reach.path(action.to)
    mode = action.mode or _mode_for(state, c, action.to)
    spent = reach.cost(action.to) if action.to in reach else len(path)
    if continuing:
        state.act.continue_budget = 0  # the rest of the move begun before the teleporter (M08-131)
    else:
        state.act.spend_move()
    state.act.move_left = max(0, (budget if budget is not None else speed(state, c)) - spent)
    state.log(Event("move", f"{c.id} moves to {list(action.to)}", "M08-037",
                    {"actor": c.id, "to": list(action.to), "path": [list(s) for s in path]}))
    walk(state, c, path, mode)


def _mode_for(state: Ddm2008State, c: Creature, to: Coord) -> str:
    """The movement mode that reaches ``to`` cheapest (walking when that is the only mode)."""
    modes = state.ruleset.movements(state, c)
    if all(m.mode == "walk" for m in modes):
        return "walk"  # whatever the searches found
    best = None
    for m in modes:
        single = reach_mode(state, c, m)
        if to in single and (best is None or single.cost(to) < best[0]):
            best = (single.cost(to), m.mode)
    return best[1] if best else "walk"


def reach_mode(state: Ddm2008State, c: Creature, mv: Movement) -> Reach:
    """Where the creature can end a move in one movement mode (M08-051)."""
    occupancy = state.occupancy()
    occupied: dict[int, Passage] = {i: state.ruleset.passage(state, c, o, mv)
                                    for i, o in occupancy.items() if o is not c}
    req = MoveRequest(at=c.at, size=c.size, budget=mv.budget, mode=mv.mode, occupied=occupied,
                      ignore_terrain=mv.ignore_terrain, through_walls=mv.through_walls, flying=mv.flying,
                      extra_per_square=mv.extra_per_square, min_one_square=mv.min_one_square)
    return reachable(state.grid, state.ruleset.policy, req)


def check_path(state: Ddm2008State, c: Creature, path: list[Coord], budget: int | None = None) -> None:
    """An explicit path must be one the creature could take in one of its movement modes: each step
    to an adjacent square (M08-040), not through an enemy (M08-046), not round a wall's corner
    (M08-048), ending where it may stop (M08-042), within its speed (M08-037).

    Raises:
        IllegalActionError: no movement mode takes it, with the rule that forbids it.
    """
    occupancy = state.occupancy()
    for mv in state.ruleset.movements(state, c):
        occupied = {i: state.ruleset.passage(state, c, o, mv) for i, o in occupancy.items() if o is not c}
        limit = mv.budget if budget is None else budget
        req = MoveRequest(at=c.at, size=c.size, budget=limit, mode=mv.mode, occupied=occupied,
                          ignore_terrain=mv.ignore_terrain, through_walls=mv.through_walls,
                          flying=mv.flying, extra_per_square=mv.extra_per_square)
        cost = path_cost(state.grid, state.ruleset.policy, req, path)
        if cost is not None and (cost <= limit or (mv.min_one_square and len(path) == 1)):
            return
    _path_fault(state, c, path, occupancy)


def _path_fault(state: Ddm2008State, c: Creature, path: list[Coord], occupancy: dict[int, Creature]) -> NoReturn:
    """Why a walking path fails, worded with the rule that forbids it.

    Raises:
        IllegalActionError: always.
    """
    steps = unit_steps(state.grid)
    prev = c.at
    for sq in path:
        d = (sq[0] - prev[0], sq[1] - prev[1])
        if d not in DIRECTIONS_8:
            raise IllegalActionError(f"{list(prev)} -> {list(sq)} is not a step to an adjacent square",
                                     rule="M08-040")
        for s in footprint(sq, c.size):
            if not state.grid.inside(s) or state.grid.kind(s).entry == "none":
                raise IllegalActionError(f"{list(s)} is a wall", rule="M08-132")
            other = occupancy.get(state.grid.index(s))
            if other is not None and other is not c and not state.ruleset.allies(c, other):
                raise IllegalActionError(f"{c.id} cannot move through {other.id}, an enemy", rule="M08-046")
        if d[0] and d[1] and not all(steps[state.grid.index(s)][DIRECTIONS_8.index(d)]
                                     for s in footprint(prev, c.size)):
            raise IllegalActionError(f"{list(prev)} -> {list(sq)} cuts a wall's corner", rule="M08-048")
        prev = sq
    if not legal_end(state, c, path[-1]):
        raise IllegalActionError(f"{c.id} may not end its move at {list(path[-1])}", rule="M08-042")
    raise IllegalActionError("the path costs more squares than its speed", rule="M08-037")


# The walk.

def walk(state: Ddm2008State, c: Creature, path: Iterable[Coord], mode: str = "walk", provoke: bool = True) -> None:
    """Move a creature square by square, resolving opportunity attacks before each square it
    leaves (M08-114, M08-118); a creature stopped in an illegal square goes back to the last
    legal one it passed (M08-043)."""
    last_legal = c.at
    first = True
    for sq in path:
        if provoke and mode != "burrow":
            for enemy in provoked_by_leaving(state, c, mode, first):
                if not takes_opportunity(state, enemy, c):
                    continue
                before = c.at
                opportunity_attack(state, enemy, c)
                if not c.on_map:
                    return
                if c.at != before:
                    return  # pushed or pulled off its path: the move ends where it was put
                if c.has("immobilized") or any(c.has(x) for x in INACTIVE):
                    _settle(state, c, last_legal)
                    return
        c.at = sq
        first = False
        if legal_end(state, c, sq):
            last_legal = sq
        if "teleporter" in state.grid.kind(sq).tags and c.id == state.active:
            state.act.on_teleporter = True
    if not legal_end(state, c, c.at):
        _settle(state, c, last_legal)


def _settle(state: Ddm2008State, c: Creature, square: Coord) -> None:
    """Put a creature stopped in an illegal square back on the last legal one it passed (M08-043)."""
    if c.at != square:
        state.log(Event("move", f"{c.id} goes back to {list(square)}, the last legal square it passed",
                        "M08-043", {"actor": c.id, "to": list(square)}))
        c.at = square


def legal_end(state: Ddm2008State, c: Creature, at: Coord) -> bool:
    """Whether the creature may end a move at ``at``: inside the map, on squares it may stop on,
    a pit only when flying, no other creature there (M08-042, M08-125, M08-132)."""
    occupancy = state.occupancy()
    for s in footprint(at, c.size):
        if not state.grid.inside(s):
            return False
        kind = state.grid.kind(s)
        if not kind.occupiable or kind.entry == "none":
            return False
        if kind.entry == "flyers" and "fly" not in c.template.speed:
            return False
        other = occupancy.get(state.grid.index(s))
        if other is not None and other is not c:
            return False
    return True


# Shifting.

def shift_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """A shift to each square ``shift_squares`` allows, while a move is left (M08-055)."""
    if not can_move(state, c) or speed(state, c) <= 0:
        return []
    return [Shift(c.id, to=sq) for sq in shift_squares(state, c)]


def shift_squares(state: Ddm2008State, c: Creature) -> list[Coord]:
    """One adjacent square it can reach, none of whose new squares is difficult terrain (M08-055)."""
    reach = state.reach(c, budget=1)
    out = []
    for sq in reach:
        if max(abs(sq[0] - c.at[0]), abs(sq[1] - c.at[1])) != 1:
            continue
        new = set(footprint(sq, c.size)) - set(c.squares)
        if any(state.grid.kind(s).difficult for s in new):
            continue
        out.append(sq)
    return out


def shift(state: Ddm2008State, action: Shift) -> None:
    """A shift: a move action of one square that provokes no opportunity attack (M08-055).

    Raises:
        IllegalActionError: no move left, or not a square it may shift to.
    """
    c = state.creature(action.actor)
    if not can_move(state, c):
        raise IllegalActionError(f"{c.id} has no move left this turn", rule="M08-039")
    if action.to not in shift_squares(state, c):
        raise IllegalActionError(f"{c.id} cannot shift to {list(action.to)}: one adjacent, unobstructed "
                                 "square that is not difficult terrain", rule="M08-055")
    state.act.spend_move()
    state.log(Event("shift", f"{c.id} shifts to {list(action.to)}", "M08-055", {"actor": c.id,
                                                                                "to": list(action.to)}))
    walk(state, c, [action.to], provoke=False)


# Teleporters.

def teleport_squares(state: Ddm2008State, c: Creature) -> list[Coord]:
    """The unoccupied teleporters a Medium or smaller creature on a teleporter it entered or started on
    can step to, once a round (M08-131)."""
    if not state.act.on_teleporter or c.id in state.teleported or c.size != 1:
        return []
    if "teleporter" not in state.grid.kind(c.at).tags:
        return []
    occupancy = state.occupancy()
    return [sq for sq in state.grid.squares() if sq != c.at and "teleporter" in state.grid.kind(sq).tags
            and state.grid.index(sq) not in occupancy]


def teleport_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """A teleport to each of ``teleport_squares`` (M08-131)."""
    return [Teleport(c.id, to=sq) for sq in teleport_squares(state, c)]


def teleport(state: Ddm2008State, action: Teleport) -> None:
    """Step from a teleporter to another, at no action; a move begun before it goes on from there
    (M08-131).

    Raises:
        IllegalActionError: not one of ``teleport_squares``.
    """
    c = state.creature(action.actor)
    if action.to not in teleport_squares(state, c):
        raise IllegalActionError(f"{c.id} cannot teleport to {list(action.to)}: it must stand on a teleporter "
                                 "it entered or started on, once a round, to an unoccupied one", rule="M08-131")
    state.teleported.add(c.id)
    if state.act.last == "move" and state.act.move_left > 0:
        state.act.continue_budget = state.act.move_left  # the move goes on from the far teleporter
    c.at = action.to
    state.log(Event("teleport", f"{c.id} steps through the teleporter to {list(action.to)}", "M08-131",
                    {"actor": c.id, "to": list(action.to)}))
