"""The shared walk: it pauses before each square is left and after each is entered, resolves the
reactions the rule set names in its order, and stops when the rule set says so."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from pydantic import BaseModel

from skirmish.core.attack import AttackRoll
from skirmish.core.coords import Coord
from skirmish.core.creatures import Attack, Creature, CreatureTemplate
from skirmish.core.damage import DamageRules, apply_damage
from skirmish.core.dice import Dice, DiceExpr
from skirmish.core.game import NoOptions, Ruleset, RulesetInfo
from skirmish.core.grid import Grid
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import FLOOR, TerrainKind
from skirmish.core.walk import Reaction, Step, WalkRequest, WalkRules, attacks_leaving_reach, walk


class Plain(Ruleset):
    """Rules that only measure: every diagonal 1, distances direct."""

    info: ClassVar[RulesetInfo] = RulesetInfo("plain", "plain test rules", "-", "T")
    base_policy: ClassVar[GeometryPolicy] = GeometryPolicy()
    legend: ClassVar[dict[str, TerrainKind]] = {".": FLOOR}
    stats_model: ClassVar[type[BaseModel]] = NoOptions

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        return CreatureTemplate(name)


BITE = Attack("bite", damage=DiceExpr.parse("2d10"), range=1, bonus=5)
TAIL = Attack("tail", damage=DiceExpr.parse("2d8"), range=3, bonus=5)
CLAW = Attack("claw", damage=DiceExpr.parse("1d6"), range=1, bonus=3)


def position(mover_at: Coord = (2, 2), enemies: Iterable[tuple[str, Coord, tuple[Attack, ...]]] = (),
             forced: Iterable[int] = (), mover_size: int = 1) -> Position:
    grid = Grid.parse("\n".join(["." * 12] * 12), Plain.legend)
    mover = Creature("m", "heroes", CreatureTemplate("m", size=mover_size, max_hp=10), mover_at)
    others = [Creature(cid, "monsters", CreatureTemplate(cid, max_hp=30, attacks=attacks), at)
              for cid, at, attacks in enemies]
    return Position(grid, Plain(), [mover, *others], Dice(0, forced))


class Watching(WalkRules):
    """Records every question the walk asks."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, Coord, Coord, Coord]] = []

    def leaving(self, pos: Position, mover: Creature, step: Step) -> Iterable[Reaction]:
        self.asked.append((step.phase, step.index, step.here, step.there, mover.at))
        return ()

    entering = leaving


PATH = ((3, 2), (4, 2), (5, 2))


def test_walk_pauses_before_leaving_and_after_entering_every_square() -> None:
    pos = position()
    rules = Watching()
    result = walk(pos, WalkRequest("m", PATH), rules)
    assert rules.asked == [
        ("leave", 0, (2, 2), (3, 2), (2, 2)), ("enter", 0, (2, 2), (3, 2), (3, 2)),
        ("leave", 1, (3, 2), (4, 2), (3, 2)), ("enter", 1, (3, 2), (4, 2), (4, 2)),
        ("leave", 2, (4, 2), (5, 2), (4, 2)), ("enter", 2, (4, 2), (5, 2), (5, 2)),
    ]
    assert result.completed and result.entered == PATH and pos.creature("m").at == (5, 2)


def test_m08_115_a_move_that_does_not_provoke_is_not_asked_about_leaving() -> None:
    rules = Watching()
    walk(position(), WalkRequest("m", PATH, provokes=False, kind="shift"), rules)
    assert [phase for phase, *_ in rules.asked] == ["enter", "enter", "enter"]


class Scripted(WalkRules):
    """Reacts as told: per (phase, index), the reactions; per reactor, what its reaction does."""

    def __init__(self, script: dict[tuple[str, int], list[str]], effects: dict[str, Any] | None = None,
                 stop_after: int | None = None) -> None:
        self.script = script
        self.effects = effects or {}
        self.stop_after = stop_after
        self.log: list[str] = []

    def leaving(self, pos: Position, mover: Creature, step: Step) -> Iterator[Reaction]:
        for reactor in self.script.get(("leave", step.index), []):
            self.log.append(f"offer {reactor}")
            yield Reaction(reactor)

    def entering(self, pos: Position, mover: Creature, step: Step) -> Iterator[Reaction]:
        for reactor in self.script.get(("enter", step.index), []):
            self.log.append(f"offer {reactor}")
            yield Reaction(reactor, kind="readied")

    def react(self, pos: Position, mover: Creature, reaction: Reaction, step: Step) -> bool:
        self.log.append(f"{reaction.kind} {reaction.reactor} at {list(mover.at)}")
        effect = self.effects.get(reaction.reactor)
        if effect == "push":
            mover.at = (7, 7)
        return effect != "stop"

    def entered(self, pos: Position, mover: Creature, step: Step) -> None:
        self.log.append(f"entered {list(step.there)}")

    def can_go_on(self, pos: Position, mover: Creature, step: Step) -> bool:
        return self.stop_after is None or step.index < self.stop_after


def test_m08_118_reactions_resolve_one_at_a_time_in_the_rule_sets_order() -> None:
    rules = Scripted({("leave", 1): ["e1", "e2"], ("enter", 2): ["e3"]})
    result = walk(position(), WalkRequest("m", PATH), rules)
    assert rules.log == [
        "entered [3, 2]",
        "offer e1", "opportunity e1 at [3, 2]", "offer e2", "opportunity e2 at [3, 2]",
        "entered [4, 2]", "entered [5, 2]", "offer e3", "readied e3 at [5, 2]",
    ]
    assert [r.reactor for r in result.reactions] == ["e1", "e2", "e3"] and result.completed


def test_e5_098_a_reaction_that_stops_the_mover_stops_it_before_it_leaves() -> None:
    rules = Scripted({("leave", 1): ["e1", "e2"]}, {"e1": "stop"})
    pos = position()
    result = walk(pos, WalkRequest("m", PATH), rules)
    assert (result.stop, result.entered, pos.creature("m").at) == ("reaction", ((3, 2),), (3, 2))
    assert "offer e2" not in rules.log  # asked lazily: nobody after the reaction that stopped it


def test_m08_126_a_mover_put_elsewhere_by_a_reaction_ends_its_move_there() -> None:
    pos = position()
    result = walk(pos, WalkRequest("m", PATH), Scripted({("leave", 0): ["e1"]}, {"e1": "push"}))
    assert (result.stop, result.entered, pos.creature("m").at) == ("moved", (), (7, 7))


def test_g5_01_a_mover_that_cannot_go_on_stops_in_the_square_it_entered() -> None:
    pos = position()
    result = walk(pos, WalkRequest("m", PATH), Scripted({}, stop_after=1))
    assert (result.stop, result.entered, pos.creature("m").at) == ("stopped", ((3, 2), (4, 2)), (4, 2))
    last = walk(position(), WalkRequest("m", PATH), Scripted({}, stop_after=2))
    assert last.stop == "stopped" and not last.completed and last.entered == PATH


def test_a_request_follows_the_path_a_movement_search_found() -> None:
    pos = position()
    request = WalkRequest.along("m", pos.reach(pos.creature("m")), (5, 4))
    assert request.path[-1] == (5, 4) and len(request.path) == 3
    assert walk(pos, request, WalkRules()).completed and pos.creature("m").at == (5, 4)


# --- reach and the attack used ------------------------------------------------------------------


def leaving(pos: Position, there: Coord, attacks: tuple[Attack, ...]) -> tuple[str, ...]:
    mover, dragon = pos.creature("m"), pos.creature("d")
    step = Step(WalkRequest("m", (there,)), 0, mover.at, there, "leave")
    return tuple(a.name for a in attacks_leaving_reach(pos, dragon, mover, step, attacks))


def test_e5_097_every_melee_attacks_reach_counts_a_tail_at_15_feet() -> None:
    """Bite (2d10, 5 ft) hits harder than tail (2d8, 15 ft); a mover leaving the 15-foot reach draws
    the tail, which the bite's reach alone would have missed."""
    pos = position((5, 2), [("d", (2, 2), (BITE, TAIL))])
    assert leaving(pos, (6, 2), (BITE, TAIL)) == ("tail",)
    assert leaving(pos, (4, 2), (BITE, TAIL)) == ()


def test_e5_046_leaving_only_the_bites_reach_is_not_leaving_the_creatures_reach() -> None:
    pos = position((3, 2), [("d", (2, 2), (BITE, TAIL))])
    assert leaving(pos, (4, 2), (BITE, TAIL)) == ()
    near = position((3, 2), [("d", (2, 2), (BITE, CLAW))])
    assert leaving(near, (4, 2), (BITE, CLAW)) == ("bite", "claw")
    assert leaving(near, (3, 3), (BITE, CLAW)) == ()  # still adjacent


def test_a_big_movers_whole_footprint_is_measured() -> None:
    pos = position((3, 2), [("d", (2, 2), (BITE,))], mover_size=2)
    assert leaving(pos, (4, 2), (BITE,)) == ("bite",)
    assert leaving(pos, (3, 3), (BITE,)) == ()  # its square (3, 3) still touches the dragon


# --- a whole opportunity attack through the shared attack roll and damage ------------------------


class Opportunity(WalkRules):
    """Opportunity attacks the 5e way, with the shared roll and damage (E5-097, E5-098)."""

    damage = DamageRules()

    def leaving(self, pos: Position, mover: Creature, step: Step) -> Iterator[Reaction]:
        for e in pos.enemies_of(mover):
            for attack in attacks_leaving_reach(pos, e, mover, step, e.template.attacks)[:1]:
                yield Reaction(e.id, attack, "opportunity", "E5-097")

    def react(self, pos: Position, mover: Creature, reaction: Reaction, step: Step) -> bool:
        assert reaction.attack is not None and reaction.attack.damage is not None
        roll = AttackRoll(bonus=reaction.attack.bonus, defence=12)
        result = roll.roll(pos, f"{reaction.attack.name} of {reaction.reactor} against {mover.id}", "E5-080")
        if result.hit:
            dealt = self.damage.roll(pos, reaction.attack.damage, "damage", "E5-116", critical=result.critical)
            apply_damage(mover, self.damage.compute(dealt.amounts, hp=mover.hp, temp_hp=mover.temp_hp))
            if mover.hp <= 0:
                mover.status = "dead"
        return mover.on_map


def test_e5_098_an_opportunity_attack_that_kills_ends_the_move_before_the_square_is_left() -> None:
    pos = position((3, 2), [("o", (2, 2), (BITE,))], forced=[15, 6, 5])
    result = walk(pos, WalkRequest("m", PATH[1:]), Opportunity())
    assert (result.stop, result.entered, pos.creature("m").at) == ("reaction", (), (3, 2))
    assert [e.text for e in pos.events] == ["d20 for bite of o against m: 15 (forced)", "d10 for damage: 6",
                                            "d10 for damage: 5"]


def test_e5_097_a_missed_opportunity_attack_lets_the_mover_go_on() -> None:
    pos = position((3, 2), [("o", (2, 2), (BITE,))], forced=[2])
    result = walk(pos, WalkRequest("m", PATH[1:]), Opportunity())
    assert result.completed and [r.reactor for r in result.reactions] == ["o"] and pos.creature("m").at == (5, 2)
    assert pos.dice.forced_left == 0
