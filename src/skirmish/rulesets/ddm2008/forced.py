"""Forced movement on a hit: push, pull and slide (M08-115), a pit's second attack (M08-126, M08-127),
and putting a creature back on the nearest legal square (M08-044).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core import geometry
from skirmish.core.coords import Coord, footprint
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.stats import defense
from skirmish.rulesets.ddm2008.victory import destroy

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


def forced_move(state: Ddm2008State, c: Creature, t: Creature, kind: str, n: int, spec: AttackSpec) -> None:
    """Push, pull or slide (M08-115: no opportunity attacks). The attacker's choice is made for it:
    into a pit when one can be reached (then the second attack of M08-126), otherwise as far as it
    goes in the push or pull direction; a slide that reaches no pit stays put."""
    path = _forced_path(state, c, t, kind, n)
    if not path:
        return
    state.log(Event("forced_move", f"{c.id} {kind}es {t.id} to {list(path[-1])}", "M08-115",
                    {"actor": c.id, "target": t.id, "kind": kind, "to": list(path[-1])}))
    t.at = path[-1]
    if any("pit" in state.grid.kind(s).tags for s in t.squares) and "fly" not in t.template.speed:
        pit_attack(state, c, t, spec)


def _forced_path(state: Ddm2008State, c: Creature, t: Creature, kind: str, n: int) -> list[Coord]:
    """The squares of a push (each farther from the attacker), a pull (each nearer) or a slide of up
    to ``n`` squares through free squares, pits included (M08-115, M08-126): the first that ends in
    a pit, else the first path of the longest push or pull, else none."""
    occupancy = state.occupancy()

    def free(at: Coord) -> bool:
        for s in footprint(at, t.size):
            if not state.grid.inside(s):
                return False
            k = state.grid.kind(s)
            if k.entry == "none" or not (k.occupiable or "pit" in k.tags):
                return False
            o = occupancy.get(state.grid.index(s))
            if o is not None and o is not t:
                return False
        return True

    def dist(at: Coord) -> int:
        return geometry.direct_distance(state.ruleset.policy, c.squares, footprint(at, t.size))

    best: list[Coord] = []
    frontier: list[list[Coord]] = [[]]
    for _ in range(n):
        nxt = []
        for path in frontier:
            here = path[-1] if path else t.at
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                sq = (here[0] + dx, here[1] + dy)
                if sq in path or sq == t.at or not free(sq):
                    continue
                if kind == "push" and dist(sq) <= dist(here):
                    continue
                if kind == "pull" and dist(sq) >= dist(here):
                    continue
                nxt.append([*path, sq])
        for path in nxt:
            if any("pit" in state.grid.kind(s).tags for s in footprint(path[-1], t.size)):
                return path
        if not nxt:
            break
        frontier = nxt[:64]
        if kind != "slide":
            best = frontier[0]
    if best and any("pit" in state.grid.kind(s).tags for s in footprint(best[-1], t.size)):
        return best
    return [] if kind == "slide" else best


def pit_attack(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec) -> None:
    """Forced into a pit: a second attack; a hit destroys the target, a miss puts it on the nearest
    legal square; a Large target gets +1 for each of its squares outside the pit (M08-126, M08-127)."""
    outside = sum(1 for s in t.squares if "pit" not in state.grid.kind(s).tags)
    roll = state.roll(20, f"pit attack of {c.id} against {t.id}", "M08-126")
    against = defense(t, spec.vs) + outside
    total = roll + spec.bonus
    hit = roll == 20 or (roll != 1 and total >= against)
    state.log(Event("attack", f"{c.id}'s second attack to drop {t.id} into the pit: {roll} + {spec.bonus} = "
                              f"{total} vs {against}{' (+' + str(outside) + ' for squares outside)' if outside else ''}"
                              f", {'hit' if hit else 'miss'}", "M08-126",
                    {"actor": c.id, "target": t.id, "roll": roll, "total": total, "against": against, "hit": hit}))
    if hit:
        destroy(state, t, "thrown into a pit", "M08-126")
        return
    place_nearest_legal(state, t)


def place_nearest_legal(state: Ddm2008State, t: Creature) -> None:
    """Its owner puts it on the nearest legal square (M08-044); the engine picks the nearest, then the
    top-left-most."""
    occupancy = state.occupancy()
    best = None
    for sq in state.grid.squares():
        ok = True
        for s in footprint(sq, t.size):
            if not state.grid.inside(s):
                ok = False
                break
            k = state.grid.kind(s)
            o = occupancy.get(state.grid.index(s))
            if not k.occupiable or k.entry != "all" or (o is not None and o is not t):
                ok = False
                break
        if not ok:
            continue
        d = geometry.direct_distance(state.ruleset.policy, t.squares, footprint(sq, t.size))
        if best is None or (d, sq[1], sq[0]) < best[0]:
            best = ((d, sq[1], sq[0]), sq)
    if best is not None:
        t.at = best[1]
        state.log(Event("move", f"{t.id} is put on the nearest legal square, {list(t.at)}", "M08-044",
                        {"actor": t.id, "to": list(t.at)}))
