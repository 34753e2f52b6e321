"""A position: the map, the creatures on it, the dice and the log, with the geometry questions.

Every rule set's state is a position plus a turn structure. The questions here are the
ones ``skirmish run`` answers (scenario format, ``ask``) and the ones the rules ask all
the time; they route the rule set's policy and hooks into the core's geometry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from skirmish.core import areas as area_shapes
from skirmish.core import geometry
from skirmish.core.coords import Coord, Point, centre, corners
from skirmish.core.creatures import AreaSpec, Attack, Creature
from skirmish.core.dice import Dice
from skirmish.core.events import Event
from skirmish.core.fields import Copy, copy_value, declared
from skirmish.core.grid import Grid
from skirmish.core.pathing import MoveRequest, Passage, Reach, reachable
from skirmish.errors import IllegalActionError, InvalidActionError

if TYPE_CHECKING:
    from skirmish.core.game import Ruleset


class Position:
    """The map, the creatures, one seeded generator and the event log.

    Attributes:
        grid: the shared, immutable map.
        ruleset: the rule set (policy and hooks).
        creatures: creatures by id, in scenario order.
        dice: the only random generator of this game (with its forced-dice queue).
        events: the log.
        round: the round number.
        turn: the creature whose turn it is, when known.
        start: the scenario's ``start`` block (first side, initiative, surprised).
        recording: whether events are kept; a search's quiet clone plays the same rules without
            keeping (or copying) a log nobody reads.
    """

    __slots__ = ("creatures", "dice", "events", "grid", "history", "recording", "round", "ruleset", "start",
                 "turn")
    fields: ClassVar[Mapping[str, Copy]] = {
        "grid": Copy.SHARE, "ruleset": Copy.SHARE, "creatures": Copy.RECORDS, "round": Copy.SHARE,
        "turn": Copy.SHARE, "start": Copy.COPY,
        "dice": Copy.LOG, "events": Copy.LOG, "history": Copy.LOG, "recording": Copy.LOG,
    }

    def __init__(self, grid: Grid, ruleset: Ruleset, creatures: Iterable[Creature], dice: Dice,
                 *, round: int = 1, turn: str | None = None, start: dict[str, Any] | None = None) -> None:
        self.grid = grid
        self.ruleset = ruleset
        self.creatures: dict[str, Creature] = {c.id: c for c in creatures}
        self.dice = dice
        self.events: list[Event] = []
        self.history: list[Any] = []
        self.recording = True
        self.round = round
        self.turn = turn
        self.start = dict(start or {})

    def clone(self, *, record: bool = True) -> Position:
        """An independent copy: creatures and dice copied, map and templates shared.

        Args:
            record: keep the event log; a quiet copy (``False``) starts with none and keeps none.
        """
        other = Position.__new__(type(self))
        self._copy_into(other, record)
        return other

    def _copy_into(self, other: Position, record: bool = True) -> None:
        """Copy every field that ``other``'s class and this position share, as each is declared
        (``fields``); the log, the history and the dice's log only when recording."""
        plan = declared(type(other)) if type(other) is type(self) else Position.fields
        for name, how in plan.items():
            if how is not Copy.LOG:
                setattr(other, name, copy_value(how, getattr(self, name)))
        record = record and self.recording
        other.dice = self.dice.clone(keep_log=record)
        other.events = list(self.events) if record else []
        other.history = list(self.history) if record else []
        other.recording = record

    def _rollback(self, before: Position, events: int, rolls: int) -> None:
        """Put back what ``before`` (a quiet copy taken before an action) held, keeping the log as long
        as it was then: a refused action leaves no trace. Creatures are restored in place, so that
        a caller's reference to one stays good."""
        for name, how in declared(type(self)).items():
            if how is Copy.LOG:
                continue
            if name == "creatures":
                mine = self.creatures
                restored: dict[str, Creature] = {}
                for cid, c in before.creatures.items():
                    if cid in mine:
                        mine[cid].restore(c)
                        restored[cid] = mine[cid]
                    else:
                        restored[cid] = c
                self.creatures = restored
            else:
                setattr(self, name, getattr(before, name))
        log = self.dice.log[:rolls]
        self.dice = before.dice
        self.dice.keep_log = self.recording
        self.dice.log = log if self.recording else []
        del self.events[events:]

    def same_as(self, other: Position, *, log: bool = True) -> bool:
        """Whether two positions are the same game: every declared field but caches equal, the dice
        about to roll the same, and (with ``log``) the same events."""
        if type(self) is not type(other):
            return False
        for name, how in declared(type(self)).items():
            if how in (Copy.SCRATCH, Copy.LOG):
                continue
            if getattr(self, name) != getattr(other, name):
                return False
        return self.dice.same_stream(other.dice) and (not log or self.events == other.events)

    # Creatures.

    def creature(self, cid: str) -> Creature:
        """The creature with that id.

        Raises:
            InvalidActionError: no creature has that id.
        """
        try:
            return self.creatures[cid]
        except KeyError:
            known = ", ".join(self.creatures) or "none"
            raise InvalidActionError(f"no creature is called {cid!r} (creatures: {known})") from None

    def on_map(self) -> list[Creature]:
        """Creatures still on the map."""
        return [c for c in self.creatures.values() if c.on_map]

    def sides(self) -> list[str]:
        """Side names, in the order their first creature appears."""
        out: list[str] = []
        for c in self.creatures.values():
            if c.side not in out:
                out.append(c.side)
        return out

    def occupancy(self) -> dict[int, Creature]:
        """Per square index, the creature standing there."""
        w = self.grid.width
        out: dict[int, Creature] = {}
        for c in self.creatures.values():
            if c.on_map:
                for x, y in c.squares:
                    out[y * w + x] = c
        return out

    def enemies_of(self, creature: Creature) -> list[Creature]:
        """Creatures on the map that are not its allies."""
        return [c for c in self.on_map() if not self.ruleset.allies(creature, c)]

    def log(self, event: Event) -> None:
        """Append an event (unless this is a quiet copy)."""
        if self.recording:
            self.events.append(event)

    def roll(self, sides: int, label: str, rule: str | None = None) -> int:
        """Roll one die from the position's generator (forced dice first) and log it as an event.

        Raises:
            DiceError: a forced die does not fit this die.
        """
        result = self.dice.roll(sides, label)
        if not self.recording:
            return result
        forced = self.dice.log[-1].forced
        self.events.append(Event(
            "roll", f"d{sides} for {label}: {result}" + (" (forced)" if forced else ""), rule,
            {"die": sides, "result": result, "label": label, "forced": forced}))
        return result

    # Geometry questions.

    def distance(self, a: Creature, b: Creature) -> int | None:
        """Squares between two creatures as the rule set counts them."""
        return geometry.distance(self.grid, self.ruleset.policy, a.squares, b.squares)

    def line_of_sight(self, a: Creature, b: Creature) -> bool:
        """Line of sight between two creatures, corner to corner."""
        return geometry.line_of_sight(self.grid, a.squares, b.squares)

    def line_of_effect(self, a: Creature, b: Creature) -> bool:
        """Line of effect between two creatures, corner to corner."""
        return geometry.line_of_effect(self.grid, a.squares, b.squares)

    def cover_blockers(self, attacker: Creature, target: Creature, kind: str) -> frozenset[int]:
        """Square indices of the creatures that give cover against this attack."""
        w = self.grid.width
        out: set[int] = set()
        for c in self.on_map():
            if c is attacker or c is target:
                continue
            if self.ruleset.gives_cover(self, attacker, c, kind):
                out.update(y * w + x for x, y in c.squares)
        return frozenset(out)

    def cover_degree(self, attacker: Creature, target: Creature, kind: str | None = None,
                     origins: Iterable[tuple[Point, Coord | None]] | None = None) -> int:
        """The target's cover degree against an attack of ``kind`` (geometry.NONE...TOTAL)."""
        kind = kind or self.ruleset.cover_kind(self, attacker, target)
        blockers = self.cover_blockers(attacker, target, kind)
        return geometry.cover(self.grid, self.ruleset.policy, attacker.squares, target.squares, kind,
                              blockers, origins)

    def cover(self, attacker: Creature, target: Creature, kind: str | None = None) -> str:
        """The target's cover as the rule set words it (scenario format, ``cover``)."""
        return self.ruleset.cover_words[self.cover_degree(attacker, target, kind)]

    def flanking(self, attacker: Creature, target: Creature) -> bool:
        """Whether an ally of the attacker stands opposite it across the target (M08-109..111)."""
        rule = self.ruleset.policy.flanking
        if rule == "off" or not self.ruleset.can_flank(self, attacker):
            return False
        if self.ruleset.allies(attacker, target):
            return False
        if not self._threatens(attacker, target, rule):
            return False
        for ally in self.on_map():
            if ally is attacker or ally is target or not self.ruleset.allies(attacker, ally):
                continue
            if not self.ruleset.can_flank(self, ally) or not self._threatens(ally, target, rule):
                continue
            if self.ruleset.policy.flank_from == "spaces":
                if geometry.spaces_flank(attacker.at, attacker.size, ally.at, ally.size, target.at, target.size):
                    return True
            elif geometry.footprints_flank(attacker.squares, ally.squares, target.squares):
                return True
        return False

    def _threatens(self, a: Creature, target: Creature, rule: str) -> bool:
        if rule == "adjacent":
            return geometry.adjacent(a.squares, target.squares)
        d = self.distance(a, target)
        return d is not None and 1 <= d <= a.template.melee_reach

    def reach(self, actor: Creature, budget: int | None = None) -> Reach:
        """Where ``actor`` can end a move now, over all its movement modes, with cost and path."""
        best: Reach | None = None
        occupancy = self.occupancy()
        for move in self.ruleset.movements(self, actor):
            occupied: dict[int, Passage] = {}
            for i, other in occupancy.items():
                if other is not actor:
                    occupied[i] = self.ruleset.passage(self, actor, other, move)
            req = MoveRequest(
                at=actor.at, size=actor.size, budget=move.budget if budget is None else budget,
                mode=move.mode, occupied=occupied, ignore_terrain=move.ignore_terrain,
                through_walls=move.through_walls, flying=move.flying,
                extra_per_square=move.extra_per_square, min_one_square=move.min_one_square,
            )
            found = reachable(self.grid, self.ruleset.policy, req)
            best = found if best is None else best.merged(found)
        if best is None:
            return Reach(actor.at, {}, {}, {})
        return best

    def reach_now(self, actor: Creature) -> Reach:
        """Where ``actor`` could end a move now; a rule set's state counts the movement already spent."""
        return self.reach(actor)

    def nearest(self, actor: Creature, candidates: Iterable[Creature]) -> list[Creature]:
        """Of the candidates in line of sight, those nearest the actor (M08-082 "nearest")."""
        seen: list[tuple[int, Creature]] = []
        for c in candidates:
            if c is not actor and self.line_of_sight(actor, c):
                d = self.distance(actor, c)
                if d is not None:
                    seen.append((d, c))
        if not seen:
            return []
        low = min(d for d, _ in seen)
        return [c for d, c in seen if d == low]

    def area(self, actor: Creature, attack: Attack, at: Coord | None = None,
             origin: Point | None = None) -> list[str]:
        """Ids of the creatures an attack's area would affect (scenario format, ``area``).

        Raises:
            IllegalActionError: the origin is out of range or out of line of effect, or a
                ``nearest`` area does not hold the nearest enemy (M08-088, M08-089).
            InvalidActionError: the attack has no area, or the area needs ``at``.
        """
        spec = attack.area
        if spec is None:
            raise InvalidActionError(f"{attack.name!r} has no area; give it one such as 'burst 1'")
        squares, origin_check = self.area_squares(actor, attack, spec, at, origin)
        hit: list[str] = []
        for c in self.on_map():
            if not any(s in squares for s in c.squares):
                continue
            if origin_check(c):
                hit.append(c.id)
        if attack.range == "nearest":
            enemies = self.nearest(actor, self.enemies_of(actor))
            if enemies and not any(e.id in hit for e in enemies):
                raise IllegalActionError(
                    f"{attack.name} targets the nearest creature, and the area at {list(at or ())} "
                    f"misses {enemies[0].id}, the nearest", rule=_rule(self, "area.nearest"))
        return hit

    def area_squares(self, actor: Creature, attack: Attack, spec: AreaSpec, at: Coord | None,
                     origin: Point | None) -> tuple[set[Coord], Any]:
        """The squares of an area and the line-of-effect test for creatures in it."""
        grid, policy = self.grid, self.ruleset.policy
        mask = grid.mask("effect")
        if spec.shape == "burst":
            size = int(spec.size)
            squares = area_shapes.burst(grid, policy, actor.squares, size)
            return squares, lambda c: c is not actor and geometry.line_of_effect(grid, actor.squares, c.squares)
        if at is None:
            raise InvalidActionError(f"{attack.name} ({spec}) needs an origin square: give at: [x, y]")
        if not grid.inside(at):
            raise InvalidActionError(f"square {list(at)} is off the {grid.width}x{grid.height} map")
        if spec.shape == "radius":
            self._check_origin_square(actor, attack, at)
            squares = area_shapes.radius(grid, policy, at, int(spec.size))
            return squares, lambda c: geometry.line_of_effect(grid, [at], c.squares)
        if spec.shape in ("blast", "cube"):
            size = int(spec.size)
            squares = area_shapes.block(grid, at, size)
            if spec.shape == "blast":
                block_fp = sorted(squares)
                if set(block_fp) & set(actor.squares) or not geometry.adjacent(actor.squares, block_fp):
                    raise IllegalActionError(
                        f"a blast must lie next to its user: the {size}x{size} block at {list(at)} does "
                        f"not touch {actor.id} without overlapping it", rule=_rule(self, "area.close"))
                return squares, lambda c: geometry.line_of_effect(grid, actor.squares, c.squares)
            self._check_origin_square(actor, attack, at)
            cube = sorted(squares)
            return squares, lambda c: geometry.line_of_effect(grid, cube, c.squares)
        owner: Coord | None  # the square whose corner an area starts from, where that matters
        if spec.shape == "cone":
            length = policy.cone_length(str(spec.size)) if not isinstance(spec.size, int) else spec.size
            if length is None:
                raise InvalidActionError(f"this rule set has no {spec.size!r} cone")
            squares, apex, owner = area_shapes.cone(grid, actor.squares, at, length)
            return squares, lambda c: any(geometry.point_sees_square(grid, "effect", apex, s, owner)
                                          for s in c.squares)
        if spec.shape == "line":
            if spec.width != 1:
                raise InvalidActionError(
                    f"{attack.name} is a {spec}: lines wider than one square are not drawn yet; "
                    "give it a width of 1")
            length = int(spec.size)
            d = geometry.distance(grid, policy, actor.squares, [at])
            if d is None or d > length:
                raise IllegalActionError(
                    f"line {length} cannot reach {list(at)}: it is {d} squares from {actor.id}",
                    rule=_rule(self, "area.line"))
            if origin is None:
                start, owner = area_shapes.nearest_corner(actor.squares, centre(at))
            else:
                start, owner = origin, None
                if start not in {c for s in actor.squares for c in corners(s)}:
                    raise InvalidActionError(f"a line's origin {list(origin)} must be a corner of "
                                             f"{actor.id}'s squares")
            end = area_shapes.far_corner(at, start)
            path = area_shapes.line_squares(grid, start, end, mask, owner)
            squares = set(path) - set(actor.squares)
            return squares, lambda c: True
        raise InvalidActionError(f"unknown area shape {spec.shape!r}")

    def _check_origin_square(self, actor: Creature, attack: Attack, at: Coord) -> None:
        """An area's origin must be in line of effect (M08-088), and for ``sight`` and ``range X``
        in line of sight, within X squares for ``range X`` (M08-089)."""
        grid = self.grid
        if not geometry.line_of_effect(grid, actor.squares, [at]):
            raise IllegalActionError(
                f"{actor.id} has no line of effect to the origin square {list(at)}", rule=_rule(self, "area.effect"))
        if attack.range == "nearest":
            return
        if not geometry.line_of_sight(grid, actor.squares, [at]):
            raise IllegalActionError(f"{actor.id} cannot see the origin square {list(at)}",
                                     rule=_rule(self, "area.origin"))
        if attack.range == "sight":
            return
        limit = attack.reach
        d = geometry.distance(grid, self.ruleset.policy, actor.squares, [at])
        if d is None or d > limit:
            raise IllegalActionError(
                f"the origin square {list(at)} is {d} squares from {actor.id}; {attack.name} reaches {limit}",
                rule=_rule(self, "area.origin"))


def _rule(pos: Position, what: str) -> str | None:
    return pos.ruleset.rule_ids.get(what)
