"""The attack roll: one object that the rules roll and the agents ask, for all five rule sets.

Every rule set rolls dice for a *natural*, adds a bonus and named modifiers, and reads the total
against a defence (the d20 games) or into tiers (Draw Steel). What differs between them is a hook,
the :class:`RollMode` (one d20, 5e advantage and disadvantage, the Draw Steel power roll), and data
on the :class:`AttackRoll` (which naturals hit, miss or are critical; a 3e confirmation roll).

An ``AttackRoll`` is a frozen value built from the position without changing it, so an agent can
ask :meth:`AttackRoll.chance` (exact, from the dice distributions) of the very object the rules
then :meth:`AttackRoll.roll`. Rolling goes through the game's one generator in a fixed order, the
order the rule sets have always used:

1. the mode's dice, in order (a d20; two d20s for advantage, the second labelled
   ``"<label> (advantage)"``; the two d10s of a power roll), each with the roll's rule id;
2. the dice of rolled modifiers (5e's bless d4), modifier by modifier, each labelled with the
   modifier's name and its rule id;
3. only for a critical threat that needs confirming (3e, E35-043): steps 1 and 2 again, labelled
   ``"<label> (confirmation)"``.

The same object serves saving throws and checks: a DC as the defence, and no automatic naturals.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

from skirmish.core.dice import Dice, DiceExpr

if TYPE_CHECKING:
    from skirmish.core.creatures import Attack, Creature
    from skirmish.core.position import Position

D20_FACES = frozenset(range(1, 21))
"""Every natural of a d20: the ``hits`` and ``criticals`` of an attack that cannot miss and
always crits (ddm2008 melee against a helpless creature, M08-142)."""


class Roller(Protocol):
    """Anything that rolls one die and logs it with a rule id: ``Position.roll`` is one.

    A plain :class:`~skirmish.core.dice.Dice` is accepted wherever a ``Roller`` is (it logs the
    roll in its own log, without an event).
    """

    def roll(self, sides: int, label: str, rule: str | None = None) -> int:
        """Roll one die of ``sides`` sides for ``label``."""
        ...


def roll_die(source: Dice | Roller, sides: int, label: str, rule: str | None) -> int:
    """Roll one die through a game's roller (forced dice first), or through bare dice."""
    if isinstance(source, Dice):
        return source.roll(sides, label)
    return source.roll(sides, label, rule)


def roll_dice_expr(source: Dice | Roller, expr: DiceExpr, label: str, rule: str | None) -> int:
    """The signed total of an expression, rolled die by die through ``source`` (terms left to right),
    so that each die is one logged roll, as ``Position.roll`` logs it."""
    total = 0
    for term in expr.terms:
        if term.is_flat:
            total += term.sign * term.value
        else:
            total += term.sign * sum(roll_die(source, term.sides, label, rule) for _ in range(term.count))
    return total


# Modifiers.


@dataclass(frozen=True, slots=True)
class Modifier:
    """One named part of a roll's total or of a defence, with the rule that grants it.

    Attributes:
        name: why it applies, as an explanation shows it (``"combat advantage: orc1 flanks elf2"``).
            The dice of a rolled modifier are logged under this name (``"bless die of pc1"``).
        value: the flat amount; negative for a penalty (cover's -2 in ddm2008, M08-093).
        rule: the checklist id of the rule that grants it.
        dice: dice rolled and added to ``value`` each time the roll is made (5e bless: ``1d4``,
            G5-12), or None for a flat modifier.
    """

    name: str
    value: int = 0
    rule: str | None = None
    dice: DiceExpr | None = None

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of each amount the modifier can add."""
        if self.dice is None:
            return {self.value: Fraction(1)}
        return {self.value + k: p for k, p in self.dice.distribution().items()}

    def __str__(self) -> str:
        amount = f"{self.value:+d}" if self.dice is None else f"+{self.dice}" + (
            f"{self.value:+d}" if self.value else "")
        return f"{amount} ({self.name})"


# Roll modes: the rule set's hook.


class RollMode(ABC):
    """How a roll's dice make its natural and, for a tiered roll, how its total reads as a tier.

    The three modes below cover the five rule sets; a rule set with another way of rolling
    (a d20 rolled three times, keep the middle) subclasses this with a frozen dataclass (a mode
    must be hashable: distributions and chances are remembered per mode).

    Attributes:
        tiered: the roll has tiers (Draw Steel) instead of hit or miss against a defence.
    """

    __slots__ = ()
    tiered: ClassVar[bool] = False

    @property
    @abstractmethod
    def dice(self) -> tuple[int, ...]:
        """The sides of each die, in roll order."""

    @abstractmethod
    def natural(self, faces: Sequence[int]) -> int:
        """The natural the faces of ``dice`` make (the kept d20, the sum of the d10s)."""

    def labels(self, label: str) -> tuple[str, ...]:
        """The label each die is logged with, in roll order."""
        return (label,) * len(self.dice)

    def modifiers(self) -> tuple[Modifier, ...]:
        """Named amounts the mode adds to the total (a Draw Steel edge's +2, G-02)."""
        return ()

    def tier(self, total: int, critical: bool) -> int:
        """The tier (1..3) of a tiered roll's total; ``critical``: its natural is a critical one.

        Raises:
            TypeError: the mode is not tiered.
        """
        raise TypeError(f"{type(self).__name__} rolls are read against a defence, not in tiers")

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of each natural, by enumerating the faces (remembered per mode)."""
        return dict(_natural_distribution(self))

    def explain(self) -> str:
        """Words for explanations: how the natural was made, or the empty string."""
        return ""


@lru_cache(maxsize=256)
def _natural_distribution(mode: RollMode) -> tuple[tuple[int, Fraction], ...]:
    counts: dict[int, int] = {}
    outcomes = 0
    for faces in itertools.product(*(range(1, sides + 1) for sides in mode.dice)):
        n = mode.natural(faces)
        counts[n] = counts.get(n, 0) + 1
        outcomes += 1
    return tuple((n, Fraction(c, outcomes)) for n, c in sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class D20(RollMode):
    """One d20; the natural is the die (M08-071, M03-054, E35-021, E5-080)."""

    @property
    def dice(self) -> tuple[int, ...]:
        return (20,)

    def natural(self, faces: Sequence[int]) -> int:
        return faces[0]


@dataclass(frozen=True, slots=True)
class Advantage(RollMode):
    """5e advantage or disadvantage: two d20s, keep the higher or the lower; neither: one d20 (G5-02).

    Attributes:
        level: above 0 for advantage, below 0 for disadvantage, 0 for neither (only its sign counts:
            several sources still give one advantage).
        reasons: why, for explanations (``"advantage: elf2 is prone"``).
    """

    level: int = 0
    reasons: tuple[str, ...] = ()

    @classmethod
    def from_sources(cls, advantages: Iterable[str], disadvantages: Iterable[str]) -> Advantage:
        """Advantage or disadvantage from their sources: one of each cancels, however many of
        either there are (G5-02). The reasons read ``"advantage: ..."`` and ``"disadvantage: ..."``."""
        adv, dis = list(advantages), list(disadvantages)
        level = 1 if adv and not dis else -1 if dis and not adv else 0
        return cls(level, tuple(f"advantage: {x}" for x in adv) + tuple(f"disadvantage: {x}" for x in dis))

    @property
    def dice(self) -> tuple[int, ...]:
        return (20,) if self.level == 0 else (20, 20)

    def labels(self, label: str) -> tuple[str, ...]:
        if self.level == 0:
            return (label,)
        return (label, label + (" (advantage)" if self.level > 0 else " (disadvantage)"))

    def natural(self, faces: Sequence[int]) -> int:
        if self.level == 0:
            return faces[0]
        return max(faces) if self.level > 0 else min(faces)

    def distribution(self) -> dict[int, Fraction]:
        # Reasons do not change the dice: share one table per level.
        return dict(_natural_distribution(Advantage((self.level > 0) - (self.level < 0))))

    def explain(self) -> str:
        return "; ".join(self.reasons)


@dataclass(frozen=True, slots=True)
class PowerRoll(RollMode):
    """Draw Steel's power roll: 2d10, the natural is their sum; edges and banes; three tiers (G-01, G-02).

    Edges and banes are counted at most two each and cancel as G-02's table says: one net edge adds
    2 to the total, a net double edge raises the tier by one (at most tier 3); banes the other way.
    A critical natural (19-20: the roll's ``criticals``) is always tier 3, a double bane
    notwithstanding (G-02's suggested default).

    Attributes:
        edges: edges on the roll.
        banes: banes on the roll.
        automatic: a tier an effect imposes, or None; it overrides edges, banes, bonuses, penalties
            and the critical natural (G-01: "you still roll to see whether a critical hit happens").
        tier2: the lowest total of tier 2 (12).
        tier3: the lowest total of tier 3 (17).
    """

    tiered: ClassVar[bool] = True
    edges: int = 0
    banes: int = 0
    automatic: int | None = None
    tier2: int = 12
    tier3: int = 17

    def __post_init__(self) -> None:
        if self.automatic not in (None, 1, 2, 3):
            raise ValueError(f"an automatic tier is 1, 2 or 3, not {self.automatic!r}")

    @property
    def dice(self) -> tuple[int, ...]:
        return (10, 10)

    def natural(self, faces: Sequence[int]) -> int:
        return sum(faces)

    @property
    def net(self) -> int:
        """2 for a double edge, 1 for an edge, 0, -1 for a bane, -2 for a double bane (G-02's table)."""
        e, b = min(self.edges, 2), min(self.banes, 2)
        if e == b:
            return 0
        if e > b:
            return 2 if b == 0 and e == 2 else 1
        return -2 if e == 0 and b == 2 else -1

    def modifiers(self) -> tuple[Modifier, ...]:
        if self.net == 1:
            return (Modifier("edge", 2, "G-02"),)
        if self.net == -1:
            return (Modifier("bane", -2, "G-02"),)
        return ()

    def tier(self, total: int, critical: bool) -> int:
        if self.automatic is not None:
            return self.automatic
        if critical:
            return 3
        tier = 1 if total < self.tier2 else 2 if total < self.tier3 else 3
        if self.net == 2:
            tier += 1
        elif self.net == -2:
            tier -= 1
        return min(3, max(1, tier))

    def explain(self) -> str:
        words = {2: "double edge", -2: "double bane"}.get(self.net, "")
        if self.automatic is not None:
            words = f"automatic tier {self.automatic}"
        return words


# The roll.


@dataclass(frozen=True, slots=True)
class Chance:
    """The exact outcome probabilities of a roll.

    Attributes:
        hit: a hit, critical hits included. A tiered roll always lands (its tier says how well):
            ``hit`` is 1 and ``miss`` 0; read ``tiers``.
        critical: a critical hit (confirmed, where a threat needs confirming).
        miss: a miss.
        tiers: for a tiered roll, the chance of tier 1, 2 and 3; empty otherwise.
    """

    hit: Fraction
    critical: Fraction
    miss: Fraction
    tiers: tuple[Fraction, ...] = ()


Automatic = Literal["hit", "miss"]


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """One roll, ready to be rolled or asked about: d20 (or dice) + bonus + modifiers vs a defence.

    A natural in ``hits`` hits and one in ``misses`` misses whatever the total (a natural in both
    hits: an effect that makes a roll critical also makes it hit, M08-073); otherwise the total hits
    when it is at least the defence (M08-005, M03-054, E35-021, E5-080). A hit whose natural is in
    ``criticals`` is critical, or with ``confirm`` a threat that a second roll must confirm (E35-043).
    Examples: 5e's natural 20 (E5-085) and 1 (E5-086) are the defaults; ddm2008 on blood rock has
    ``hits = criticals = {19, 20}`` (M08-123); a 5e hit on a paralysed target within 5 feet is
    critical: ``criticals = D20_FACES`` (G5-01); a 3e longsword's hit on a natural 19 or 20 is a
    threat to confirm (only the 20 hits whatever the total): ``criticals = {19, 20}, confirm = 0``;
    a 5e saving throw has no
    automatic naturals: ``hits = misses = criticals = frozenset()``.

    Attributes:
        bonus: the attack's own bonus (the card's or stat block's +N; Draw Steel's characteristic).
        defence: the defence the total is read against (AC, DEF, a save's DC); None for a tiered roll.
        defence_name: how explanations name the defence (``"AC"``, ``"DEF"``, ``"DC"``).
        modifiers: named parts added to the total, in order; rolled ones are rolled in this order.
        defence_modifiers: named flat parts added to the defence (5e cover +2, E5-112; 3e charge -2).
        mode: the rule set's hook: ``D20()``, ``Advantage(...)``, ``PowerRoll(...)``.
        hits: naturals that hit whatever the total.
        misses: naturals that miss whatever the total.
        criticals: naturals that make a hit critical (for a tiered roll: critical, and tier 3).
        confirm: None, or the extra bonus of the roll that confirms a critical threat (3e: 0).
    """

    bonus: int = 0
    defence: int | None = None
    defence_name: str = "AC"
    modifiers: tuple[Modifier, ...] = ()
    defence_modifiers: tuple[Modifier, ...] = ()
    mode: RollMode = field(default_factory=D20)
    hits: frozenset[int] = frozenset((20,))
    misses: frozenset[int] = frozenset((1,))
    criticals: frozenset[int] = frozenset((20,))
    confirm: int | None = None

    def __post_init__(self) -> None:
        if self.mode.tiered:
            if self.defence is not None or self.defence_modifiers or self.confirm is not None:
                raise ValueError("a tiered roll reads its total in tiers: give it no defence and no confirmation")
        elif self.defence is None:
            raise ValueError("a roll that hits or misses needs a defence (AC, DEF or DC)")
        for m in self.defence_modifiers:
            if m.dice is not None:
                raise ValueError(f"defence modifier {m.name!r} must be a flat number, not dice")

    @classmethod
    def power(cls, characteristic: int, *, edges: int = 0, banes: int = 0, automatic: int | None = None,
              modifiers: Sequence[Modifier] = ()) -> AttackRoll:
        """A Draw Steel power roll: 2d10 + a characteristic + bonuses, read in tiers; natural 19-20
        is a critical and always tier 3 (G-01, G-02)."""
        return cls(bonus=characteristic, modifiers=tuple(modifiers),
                   mode=PowerRoll(edges=edges, banes=banes, automatic=automatic),
                   hits=frozenset(), misses=frozenset(), criticals=frozenset((19, 20)))

    # Pure derivations: a rule set builds the roll step by step without touching the game.

    def plus(self, *modifiers: Modifier) -> AttackRoll:
        """The same roll with more modifiers on its total."""
        return replace(self, modifiers=self.modifiers + modifiers)

    def against_plus(self, *modifiers: Modifier) -> AttackRoll:
        """The same roll with more flat modifiers on its defence."""
        return replace(self, defence_modifiers=self.defence_modifiers + modifiers)

    def with_mode(self, mode: RollMode) -> AttackRoll:
        """The same roll made another way (with advantage, say)."""
        return replace(self, mode=mode)

    @property
    def against(self) -> int:
        """The number the total must reach: the defence with its modifiers (0 for a tiered roll)."""
        return (self.defence or 0) + sum(m.value for m in self.defence_modifiers)

    @property
    def all_modifiers(self) -> tuple[Modifier, ...]:
        """The roll's modifiers, then the mode's (an edge)."""
        return self.modifiers + self.mode.modifiers()

    def judge(self, natural: int, total: int) -> tuple[bool, bool, Automatic | None]:
        """Hit, critical (or threat, before confirmation) and what decided it, for one natural and total."""
        auto: Automatic | None
        if self.mode.tiered:
            return True, natural in self.criticals, None
        if natural in self.hits:
            hit, auto = True, "hit"
        elif natural in self.misses:
            hit, auto = False, "miss"
        else:
            hit, auto = total >= self.against, None
        return hit, hit and natural in self.criticals, auto

    # Chance.

    def _added(self) -> dict[int, Fraction]:
        """Distribution of everything added to the natural: bonus and every modifier."""
        out = {self.bonus: Fraction(1)}
        for m in self.all_modifiers:
            out = _convolve(out, m.distribution())
        return out

    def chance(self) -> Chance:
        """The exact chance of each outcome, from the distributions of the dice it would roll
        (remembered per roll: agents ask the same question many times).

        Returns:
            Hit, critical and miss (a tiered roll: tiers), as fractions summing to 1.
        """
        return _chance(self)

    def _chance(self) -> Chance:
        naturals = self.mode.distribution()
        added = self._added()
        hit = critical = Fraction(0)
        tiers = [Fraction(0)] * 3
        confirmed = self._confirm_chance(naturals, added) if self.confirm is not None else Fraction(1)
        for n, pn in naturals.items():
            for a, pa in added.items():
                p = pn * pa
                is_hit, threat, _ = self.judge(n, n + a)
                if self.mode.tiered:
                    tiers[self.mode.tier(n + a, threat) - 1] += p
                if is_hit:
                    hit += p
                    if threat:
                        critical += p * confirmed
        if self.mode.tiered:
            return Chance(Fraction(1), critical, Fraction(0), tuple(tiers))
        return Chance(hit, critical, 1 - hit)

    def _confirm_chance(self, naturals: Mapping[int, Fraction], added: Mapping[int, Fraction]) -> Fraction:
        extra = self.confirm or 0
        return sum((pn * pa for n, pn in naturals.items() for a, pa in added.items()
                    if self.judge(n, n + a + extra)[0]), Fraction(0))

    # Rolling.

    def roll(self, source: Dice | Roller, label: str, rule: str | None = None) -> AttackResult:
        """Roll it through the game's generator (forced dice first), in the order the module docstring gives.

        Args:
            source: the position (each die is logged as a ``roll`` event with ``rule``) or bare dice.
            label: what the roll is for (``"greataxe of orc1 against elf2"``); it labels the mode's dice.
            rule: the checklist id the mode's dice are logged with (``"E5-080"``, ``"M08-071"``).

        Returns:
            The result: dice, natural, total, hit and critical, or tier.

        Raises:
            DiceError: a forced die does not fit the die it is offered to.
        """
        faces, natural, parts, total = self._once(source, label, rule)
        hit, threat, auto = self.judge(natural, total)
        critical = threat
        confirm_total: int | None = None
        confirm_natural: int | None = None
        if threat and self.confirm is not None:
            _, confirm_natural, _, confirm_total = self._once(source, f"{label} (confirmation)", rule)
            confirm_total += self.confirm
            critical = self.judge(confirm_natural, confirm_total)[0]
        tier = self.mode.tier(total, threat) if self.mode.tiered else None
        return AttackResult(self, faces, natural, parts, total, hit, critical, threat, auto,
                            confirm_natural, confirm_total, tier)

    def _once(self, source: Dice | Roller, label: str, rule: str | None
              ) -> tuple[tuple[int, ...], int, tuple[tuple[Modifier, int], ...], int]:
        faces = tuple(roll_die(source, sides, lab, rule) for sides, lab in zip(
            self.mode.dice, self.mode.labels(label), strict=True))
        natural = self.mode.natural(faces)
        parts: list[tuple[Modifier, int]] = []
        for m in self.all_modifiers:
            amount = m.value + (roll_dice_expr(source, m.dice, m.name, m.rule) if m.dice is not None else 0)
            parts.append((m, amount))
        total = natural + self.bonus + sum(amount for _, amount in parts)
        return faces, natural, tuple(parts), total


@lru_cache(maxsize=4096)
def _chance(roll: AttackRoll) -> Chance:
    return roll._chance()


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


@dataclass(frozen=True, slots=True)
class AttackResult:
    """What a roll gave.

    Attributes:
        roll: the roll that was made.
        faces: every die of the mode, in roll order (both d20s of advantage).
        natural: the natural the faces made.
        parts: each modifier with the amount it added this time (a rolled modifier's dice included).
        total: natural + bonus + every part.
        hit: whether it hit (always True for a tiered roll).
        critical: a critical hit (confirmed, where confirmation is needed).
        threat: the natural was in ``criticals`` and the roll hit (a 3e threat; equals
            ``critical`` when nothing needs confirming).
        automatic: ``"hit"`` or ``"miss"`` when the natural decided, None when the total did.
        confirm_natural: the natural of the confirmation roll, if one was made.
        confirm_total: its total, confirmation bonus included.
        tier: the tier of a tiered roll; None otherwise.
    """

    roll: AttackRoll
    faces: tuple[int, ...]
    natural: int
    parts: tuple[tuple[Modifier, int], ...]
    total: int
    hit: bool
    critical: bool
    threat: bool
    automatic: Automatic | None
    confirm_natural: int | None = None
    confirm_total: int | None = None
    tier: int | None = None

    @property
    def against(self) -> int:
        """The number the total had to reach."""
        return self.roll.against

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """The modifiers that applied, in order."""
        return tuple(m for m, _ in self.parts)

    def with_defence(self, *modifiers: Modifier) -> AttackResult:
        """The same dice read against a defence raised after the roll (5e shield's +5, E5-027):
        hit, critical and threat are read again; no die is rolled."""
        roll = self.roll.against_plus(*modifiers)
        hit, threat, auto = roll.judge(self.natural, self.total)
        critical = threat
        if threat and self.confirm_natural is not None and self.confirm_total is not None:
            critical = roll.judge(self.confirm_natural, self.confirm_total)[0]
        return replace(self, roll=roll, hit=hit, critical=critical and hit, threat=threat, automatic=auto)

    def explain(self) -> str:
        """One line: ``"13/17 -> 17 + 5 + 2 (combat advantage) = 24 vs AC 20, hit"``."""
        dice = "/".join(map(str, self.faces))
        head = f"{dice} -> {self.natural}" if len(self.faces) > 1 else dice
        text = f"{head} + {self.roll.bonus}" + "".join(
            f" {'+' if v >= 0 else '-'} {abs(v)} ({m.name})" for m, v in self.parts) + f" = {self.total}"
        how = self.roll.mode.explain()
        if self.tier is not None:
            return text + (f" [{how}]" if how else "") + f", tier {self.tier}" + (
                " (critical)" if self.critical else "")
        text += f" vs {self.roll.defence_name} {self.against}" + "".join(
            f" ({m.name} {m.value:+d})" for m in self.roll.defence_modifiers)
        if how:
            text += f" [{how}]"
        return text + (", critical hit" if self.critical else ", hit" if self.hit else ", miss")


class AttackRules(Protocol):
    """The hook through which a rule set builds its attack rolls, so its rules and its agents use one object.

    A rule set implements it (on its ``Ruleset`` or a helper) and calls it both when it plays an
    attack and when an agent weighs one.
    """

    def attack_roll(self, pos: Position, attacker: Creature, attack: Attack, target: Creature) -> AttackRoll:
        """The roll ``attacker`` would make with ``attack`` against ``target`` now.

        It must be pure: read the position, change nothing (no marks spent, no dice rolled); what
        the attack uses up (5e's Help, E5-070) is spent when the attack is played.
        """
        ...
