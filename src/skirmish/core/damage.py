"""Damage: rolling it once, and one pipeline from rolled amounts to hit points lost.

The five rule sets agree on the shape of damage: amounts by damage type, then what the target's
defences make of each type, then temporary hit points, then hit points. They disagree on the
steps and their order: 5e applies other reductions, then resistance (halve), then vulnerability
(double) (E5-124); ddm2008 subtracts resistances and adds vulnerabilities (M08-010); 3e subtracts
damage reduction and energy resistance; Draw Steel adds the highest weakness, then subtracts the
highest immunity (DS-156..DS-159). Here the steps are data (``DamageRules.order``), and what a
target has against one hit is a :class:`Defences` record its rule set reads from the stat block.

The pipeline (:meth:`DamageRules.compute`) changes nothing, so an agent can ask what a hit would
do; :func:`apply_damage` then writes the result. Death, dying, bloodied and winded stay the rule
set's: the result says where the hit points went, and :meth:`DamageResult.crossed` tells whether
a threshold (0, half, -10, the negative winded value) was crossed.

Dice are rolled by :func:`roll_damage` through the game's generator and each die is logged once,
as the rule sets log damage dice: ``d6 for damage of orc1's greataxe: 4`` with the caller's rule id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

from skirmish.core.dice import Dice, DiceExpr, RollResult
from skirmish.core.events import Event

if TYPE_CHECKING:
    from skirmish.core.creatures import Creature
    from skirmish.core.position import Position

DamageType = str | None
"""A damage type in lower case (``"fire"``), or None for untyped damage (DS-153)."""

Amounts = Mapping[DamageType, int]
"""Damage by type, in order of first appearance (``RollResult.by_type``)."""

ALL = "all"
"""The key of a defence that covers every damage, untyped included: ddm2008 ``resist all``, Draw
Steel ``damage immunity N`` and ``damage weakness N`` (DS-154, DS-157), 5e petrified's resistance to
all damage (G5-01)."""

Step = Literal["reduction", "immunity", "halve", "double", "subtract", "add"]
"""One step of the pipeline, applied to every type in turn:

- ``reduction``: a flat amount off the whole hit (an aura's "reduce all damage by 5", E5-125; 3e
  damage reduction), spent on the largest amounts first; no amount goes below 0.
- ``immunity``: the type deals nothing, whatever steps follow.
- ``halve``: the type is halved, rounding down (5e resistance, E5-123, G5-03); several sources count
  once (E5-126).
- ``double``: the type is doubled (5e vulnerability, E5-123).
- ``subtract``: the type loses a number: the larger of its own and the ``ALL`` one (ddm2008
  resistance, 3e energy resistance, Draw Steel immunity N: only the highest applies, DS-156).
- ``add``: the type gains a number, the larger of its own and the ``ALL`` one (ddm2008
  vulnerability, Draw Steel weakness, DS-157, DS-159).

Each type's amount is at least 0 after the last step (E5 Decisions, DS-154).
"""

CriticalDamage = Literal["reroll_dice", "multiply_total", "multiply_first_term", "repeat_roll"]
"""How a critical hit multiplies damage:

- ``reroll_dice``: every die is rolled ``multiplier`` times, flat numbers once (5e, E5-119, E5-120).
- ``multiply_total``: the whole roll, its "+" bonus included, is multiplied (ddm2008, M08-074).
- ``multiply_first_term``: only the first term is; the "+" bonus is not (ddm2003, M03-056).
- ``repeat_roll``: the whole expression is rolled ``multiplier`` times, modifiers each time (3e,
  E35-039, E35-041); extra dice (sneak attack) are rolled once, without ``critical`` (E35-040).
"""


@dataclass(frozen=True, slots=True)
class Defences:
    """What protects (or exposes) a creature against one hit, as its rule set reads the stat block.

    The rule set builds it per hit, so conditions (5e petrified: ``halve={ALL}``) and what the
    attack overcomes (3e damage reduction bypassed by magic) are already taken into account.

    Attributes:
        immune: types that deal nothing; ``ALL`` for every damage.
        halve: types halved (5e resistance); ``ALL`` for every damage.
        double: types doubled (5e vulnerability); ``ALL`` for every damage.
        subtract: a number off a type (ddm2008 resist N, 3e energy resistance, Draw Steel immunity N).
        add: a number onto a type (ddm2008 vulnerable N, Draw Steel weakness N).
        reduction: a flat amount off the whole hit (E5-125's aura, 3e damage reduction).
        reduction_types: the types the reduction applies to (3e DR: physical damage); None for all.
        threshold: a hit that deals less than this after the steps deals nothing (5e damage
            threshold, from outside the seed: the DMG's objects); 0 for none.
    """

    immune: frozenset[str] = frozenset()
    halve: frozenset[str] = frozenset()
    double: frozenset[str] = frozenset()
    subtract: Mapping[str, int] = field(default_factory=dict, hash=False)
    add: Mapping[str, int] = field(default_factory=dict, hash=False)
    reduction: int = 0
    reduction_types: frozenset[DamageType] | None = None
    threshold: int = 0


NO_DEFENCES = Defences()


@dataclass(frozen=True, slots=True)
class TypedDamage:
    """One damage type through the pipeline.

    Attributes:
        type: the damage type (None: untyped).
        rolled: the amount that came in.
        taken: the amount that got through (at least 0; 0 when the hit was below the threshold).
        steps: each step that changed the amount, with the amount after it, in order.
    """

    type: DamageType
    rolled: int
    taken: int
    steps: tuple[tuple[Step, int], ...] = ()


@dataclass(frozen=True, slots=True)
class DamageResult:
    """What one hit does to one creature, computed without changing it.

    Attributes:
        parts: each damage type in order of first appearance.
        total: damage taken after the defences (temporary hit points absorb part of it).
        below_threshold: the hit was below the target's damage threshold and dealt nothing.
        absorbed: what temporary hit points absorbed (E5-143, DS-172).
        hp_lost: what came off hit points (``total - absorbed``).
        hp_before: hit points before.
        hp_after: hit points after (never below the rule set's ``hp_floor``).
        temp_before: temporary hit points before.
        temp_after: temporary hit points after.
    """

    parts: tuple[TypedDamage, ...]
    total: int
    below_threshold: bool
    absorbed: int
    hp_lost: int
    hp_before: int
    hp_after: int
    temp_before: int
    temp_after: int

    @property
    def rolled(self) -> int:
        """The damage that came in, before the defences."""
        return sum(p.rolled for p in self.parts)

    def taken(self, type: DamageType) -> int:
        """The damage of one type that got through."""
        return sum(p.taken for p in self.parts if p.type == type)

    @property
    def overflow(self) -> int:
        """Damage past 0 hit points (5e's instant death, E5-132): what was lost beyond what was left."""
        return max(0, self.hp_lost - max(0, self.hp_before))

    def crossed(self, value: int) -> bool:
        """Whether hit points went from above ``value`` to ``value`` or below: 0 (E5-131, M08-060),
        bloodied at half (M08-061), winded (DS-163), dead at -10 (E35-056)."""
        return self.hp_before > value >= self.hp_after


class Recorder(Protocol):
    """A game position as damage rolling sees it: its dice and its log (``Position`` is one)."""

    dice: Dice

    def log(self, event: Event) -> None:
        """Append an event (or keep none, in a quiet copy)."""
        ...


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """Rolled damage, with the critical rule applied.

    Attributes:
        amounts: damage by type, in order of first appearance (a dict; do not mutate it).
        rolls: every die rolled, in roll order.
        critical: whether the critical rule was applied.
        results: the raw result of each expression rolled (one, or ``multiplier`` for ``repeat_roll``).
    """

    amounts: Mapping[DamageType, int] = field(hash=False)
    rolls: tuple[int, ...]
    critical: bool
    results: tuple[RollResult, ...]

    @property
    def total(self) -> int:
        """The damage rolled, every type together."""
        return sum(self.amounts.values())


def roll_damage(source: Dice | Recorder, expr: DiceExpr, label: str, rule: str | None = None, *,
                critical: CriticalDamage | None = None, multiplier: int = 2, log: bool = True) -> DamageRoll:
    """Roll damage once through the game's generator and log each die once (E5-116, M08-066).

    Each die becomes one ``roll`` event, ``d8 for <label>: 5`` with ``rule``, logged right after
    its expression is rolled; a plain ``Dice`` logs only in its own roll log.

    Args:
        source: the position (events are logged) or bare dice.
        expr: the damage expression.
        label: what the dice are for (``"damage of orc1's greataxe"``).
        rule: the checklist id the dice are logged with.
        critical: the critical rule to apply (see ``CriticalDamage``), or None for a normal hit.
        multiplier: how many times a critical multiplies (3e weapons: x3, x4; G35-09).
        log: False rolls without events, for dice a rule set does not show (keep it True otherwise).

    Returns:
        The amounts by type and every die rolled.

    Raises:
        DiceError: a forced die does not fit the die it would go to.
    """
    dice = source if isinstance(source, Dice) else source.dice
    recorder = None if isinstance(source, Dice) or not log else source

    def one(dice_multiplier: int = 1) -> RollResult:
        result = dice.roll_expr(expr, label, dice_multiplier=dice_multiplier)
        if recorder is not None and result.rolls and dice.keep_log:
            for r in dice.log[-len(result.rolls):]:
                recorder.log(Event("roll", f"d{r.sides} for {r.label}: {r.result}", rule,
                                   {"die": r.sides, "result": r.result, "label": r.label, "forced": r.forced}))
        return result

    results: tuple[RollResult, ...]
    if critical == "reroll_dice":
        results = (one(multiplier),)
    elif critical == "repeat_roll":
        results = tuple(one() for _ in range(multiplier))
    else:
        results = (one(),)
    amounts: dict[DamageType, int] = {}
    for r in results:
        for k, v in r.by_type.items():
            amounts[k] = amounts.get(k, 0) + v
    if critical == "multiply_total":
        amounts = {k: v * multiplier for k, v in amounts.items()}
    elif critical == "multiply_first_term" and expr.terms:
        first = results[0]
        # Everything but the "+" bonus terms is the first term's contribution.
        amounts[expr.terms[0].type] += (first.total - first.bonus_total) * (multiplier - 1)
    rolls = tuple(x for r in results for x in r.rolls)
    return DamageRoll(amounts, rolls, critical is not None, results)


# Amount arithmetic rule sets apply before the pipeline.


def halve(amounts: Amounts) -> dict[DamageType, int]:
    """Each type halved, rounding down (a save for half: E5 spells, M03-123 before its multiple of 5; G5-03)."""
    return {k: v // 2 for k, v in amounts.items()}


def plus(amounts: Amounts, n: int) -> dict[DamageType, int]:
    """``n`` more (or less) damage of the first type: a power's "+10 damage" (M08-076, M08-077)."""
    out = dict(amounts)
    first = next(iter(out), None)
    out[first] = out.get(first, 0) + n
    return out


def merge(amounts: Amounts, more: Amounts) -> dict[DamageType, int]:
    """Two amounts together; the untyped part of ``more`` joins the first type of ``amounts`` (5e:
    extra dice deal the attack's damage type)."""
    out = dict(amounts)
    first = next(iter(out), None)
    for k, v in more.items():
        key = first if k is None else k
        out[key] = out.get(key, 0) + v
    return out


# The pipeline.


def _has(keys: frozenset[str], dtype: DamageType) -> bool:
    return ALL in keys or (dtype is not None and dtype in keys)


def _number(table: Mapping[str, int], dtype: DamageType) -> int:
    own = table.get(dtype, 0) if dtype is not None else 0
    return max(own, table.get(ALL, 0))


class DamageRules:
    """A rule set's damage: the order of the steps and its hooks, each neutral here.

    A rule set subclasses it, sets the class attributes and overrides ``defences``:

    - dnd5e: ``order = ("reduction", "immunity", "halve", "double")`` (E5-124), ``hp_floor = 0``
      (E5-115), ``critical = "reroll_dice"`` (E5-119);
    - ddm2008: ``order = ("immunity", "subtract", "add")``, ``critical = "multiply_total"`` (M08-074);
    - ddm2003: the same with ``critical = "multiply_first_term"`` (M03-056);
    - dnd3: ``order = ("immunity", "subtract", "reduction")``, ``critical = "repeat_roll"`` (E35-039);
    - drawsteel: ``order = ("halve", "add", "immunity", "subtract")`` (DS-155, DS-158).

    Attributes:
        order: the steps, in the order the rule set applies them.
        hp_floor: the lowest hit points damage leaves (5e: 0); None for no floor (ddm2008 and 3e
            go below 0; Draw Steel heroes are dying below 0, DS-164).
        critical: how a critical hit multiplies damage.
        critical_multiplier: how many times (3e weapons say more).
    """

    order: ClassVar[tuple[Step, ...]] = ("reduction", "immunity", "halve", "double", "subtract", "add")
    hp_floor: ClassVar[int | None] = None
    critical: ClassVar[CriticalDamage] = "reroll_dice"
    critical_multiplier: ClassVar[int] = 2

    def defences(self, pos: Position, target: Creature, source: Creature | None) -> Defences:
        """What the target has against damage from ``source`` now (neutral: nothing)."""
        return NO_DEFENCES

    def roll(self, source: Dice | Recorder, expr: DiceExpr, label: str, rule: str | None = None, *,
             critical: bool = False, multiplier: int | None = None, log: bool = True) -> DamageRoll:
        """Roll damage with this rule set's critical rule (see :func:`roll_damage`)."""
        return roll_damage(source, expr, label, rule, critical=self.critical if critical else None,
                           multiplier=multiplier or self.critical_multiplier, log=log)

    def damage(self, pos: Position, target: Creature, amounts: Amounts,
               source: Creature | None = None) -> DamageResult:
        """What ``amounts`` would do to ``target`` now, through its defences; pure."""
        return self.compute(amounts, self.defences(pos, target, source), hp=target.hp, temp_hp=target.temp_hp)

    def compute(self, amounts: Amounts, defences: Defences = NO_DEFENCES, *, hp: int = 0,
                temp_hp: int = 0) -> DamageResult:
        """Run amounts through the steps of ``order``, the threshold, temporary hit points, hit points.

        Args:
            amounts: damage by type.
            defences: what the target has against this hit.
            hp: the target's hit points now.
            temp_hp: its temporary hit points now; they absorb damage first (E5-143, DS-172).

        Returns:
            The result; nothing is changed.
        """
        current = dict(amounts)
        steps: dict[DamageType, list[tuple[Step, int]]] = {k: [] for k in current}
        immune: set[DamageType] = set()
        for step in self.order:
            # An immune type deals nothing, whatever steps come after (M08-010: it is skipped).
            new = self._step(step, {k: v for k, v in current.items() if k not in immune}, defences)
            if step == "immunity":
                immune.update(k for k in new if _has(defences.immune, k))
            for k, v in new.items():
                if v != current[k]:
                    steps[k].append((step, v))
            current.update(new)
        parts = [TypedDamage(k, amounts[k], max(0, v), tuple(steps[k])) for k, v in current.items()]
        total = sum(p.taken for p in parts)
        below = 0 < total < defences.threshold
        if below:
            parts = [TypedDamage(p.type, p.rolled, 0, p.steps) for p in parts]
            total = 0
        absorbed = min(max(0, temp_hp), total)
        lost = total - absorbed
        after = hp - lost
        if self.hp_floor is not None:
            after = max(self.hp_floor, after)
        return DamageResult(tuple(parts), total, below, absorbed, lost, hp, after, temp_hp, temp_hp - absorbed)

    @staticmethod
    def _step(step: Step, amounts: dict[DamageType, int], d: Defences) -> dict[DamageType, int]:
        if step == "reduction":
            out = dict(amounts)
            pool = d.reduction
            # The largest amounts first; equal amounts in order of first appearance (sorted is stable).
            for k, v in sorted(amounts.items(), key=lambda kv: -kv[1]):
                if d.reduction_types is not None and k not in d.reduction_types:
                    continue
                cut = min(pool, max(0, v))
                pool -= cut
                out[k] = max(0, v - cut)
            return out
        if step == "immunity":
            return {k: 0 if _has(d.immune, k) else v for k, v in amounts.items()}
        if step == "halve":
            return {k: v // 2 if _has(d.halve, k) else v for k, v in amounts.items()}
        if step == "double":
            return {k: v * 2 if _has(d.double, k) else v for k, v in amounts.items()}
        if step == "subtract":
            return {k: v - _number(d.subtract, k) for k, v in amounts.items()}
        if step == "add":
            return {k: v + _number(d.add, k) for k, v in amounts.items()}
        raise ValueError(f"unknown damage step {step!r}")


def apply_damage(creature: Creature, result: DamageResult) -> None:
    """Write a result to its creature: temporary hit points, then hit points.

    The creature must be the one (and in the state) the result was computed for; deciding what
    the new hit points mean (destroyed, dying, bloodied) is the rule set's.
    """
    creature.temp_hp = result.temp_after
    creature.hp = result.hp_after
