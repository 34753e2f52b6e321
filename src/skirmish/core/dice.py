"""Dice: expressions, the seeded roller with its forced-dice queue, and exact distributions.

A dice expression is a sum of terms such as ``2d4+2 fire`` or ``10 magic + 5 fire``. Every
game state owns one :class:`Dice`: a ``random.Random`` seeded once, with a queue of forced
results in front of it so that tests and replays can dictate the next rolls. Nothing else in
the program draws random numbers, so a seed and the list of actions replay a game exactly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from skirmish.errors import DiceError

MAX_COUNT = 100
"""Most dice one term may roll (``100d6``)."""

MAX_SIDES = 1000
"""Most sides a die may have."""

MAX_FLAT = 1_000_000
"""Largest flat number a term may hold; far beyond any stat block, it only stops absurd input."""

_EXAMPLES = "e.g. '1d8+2', '2d4+2 fire' or '10 magic + 5 fire'"
_SPACES = " \t"
_DIGITS = "0123456789"
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One term of a dice expression: ``count`` dice of ``sides`` sides, or the flat ``value``.

    Attributes:
        count: number of dice; 0 for a flat number.
        sides: sides of each die; 0 for a flat number.
        value: the flat number; 0 for dice.
        sign: +1 or -1.
        type: damage type in lower case, or None when untyped.
        bonus: True for every term after the first. Rule sets need the "+" part apart: a
            critical hit doubles it in the 2008 miniatures game and not in the 2003 game.
    """

    count: int
    sides: int
    value: int
    sign: int
    type: str | None
    bonus: bool

    @property
    def is_flat(self) -> bool:
        """True for a flat number, False for dice."""
        return self.count == 0

    def min(self) -> int:
        """The smallest signed contribution of the term."""
        low, high = self._bounds()
        return low if self.sign > 0 else -high

    def max(self) -> int:
        """The largest signed contribution of the term."""
        low, high = self._bounds()
        return high if self.sign > 0 else -low

    def mean(self) -> Fraction:
        """The exact mean signed contribution of the term."""
        if self.is_flat:
            return Fraction(self.sign * self.value)
        return Fraction(self.sign * self.count * (self.sides + 1), 2)

    def body(self) -> str:
        """The term without sign or type: ``2d6`` or ``7``."""
        return str(self.value) if self.is_flat else f"{self.count}d{self.sides}"

    def _bounds(self) -> tuple[int, int]:
        if self.is_flat:
            return self.value, self.value
        return self.count, self.count * self.sides


@lru_cache(maxsize=4096)
def _mean(terms: tuple[DiceTerm, ...]) -> Fraction:
    return sum((term.mean() for term in terms), Fraction(0))


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed dice expression.

    Attributes:
        terms: the terms, left to right.
        text: the normalized text; ``DiceExpr.parse(expr.text) == expr``.
    """

    terms: tuple[DiceTerm, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Parse a dice expression such as ``1d8+2``, ``2d4+2 fire`` or ``10 magic + 5 fire``.

        Terms are ``NdM``, ``dM`` (one die) or a whole number ``N``, joined by ``+`` or ``-``;
        the first term may carry a ``-``. A damage-type word after a term (separated by a
        space) types that term and every untyped term before it back to the previous typed one,
        so ``2d4+2 fire`` is all fire while ``1d8+2`` stays untyped.

        Args:
            text: the expression.

        Returns:
            The expression with its normalized text.

        Raises:
            DiceError: the text is not a dice expression; the message quotes it, says what is
                wrong and shows what would be right.
        """
        if not isinstance(text, str):
            raise DiceError(f"a dice expression must be text, got {text!r}; write {_EXAMPLES}")
        return cls._build(_Parser(text).parse())

    @classmethod
    def constant(cls, n: int, type: str | None = None) -> DiceExpr:
        """A flat number as an expression, e.g. ``DiceExpr.constant(5, "fire")`` is ``5 fire``."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise DiceError(f"a constant dice expression needs a whole number, got {n!r}")
        if abs(n) > MAX_FLAT:
            raise DiceError(f"the number {n} is out of range for dice; it must be at most {MAX_FLAT}")
        if type is not None:
            type = type.lower()
            if not type or not set(type) <= _WORD_CHARS:
                raise DiceError(f"damage type {type!r} must be letters and underscores, e.g. 'fire'")
        term = DiceTerm(count=0, sides=0, value=abs(n), sign=-1 if n < 0 else 1, type=type, bonus=False)
        return cls._build((term,))

    @classmethod
    def _build(cls, terms: tuple[DiceTerm, ...]) -> DiceExpr:
        return cls(terms=terms, text=_normalize(terms))

    def __str__(self) -> str:
        return self.text

    def min(self) -> int:
        """The smallest total the expression can roll (before any rule set clamps it)."""
        return sum(term.min() for term in self.terms)

    def max(self) -> int:
        """The largest total the expression can roll."""
        return sum(term.max() for term in self.terms)

    def mean(self) -> Fraction:
        """The exact mean total (remembered: agents ask for it in every decision)."""
        return _mean(self.terms)

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of every possible total, by convolution of the dice.

        Returns:
            Total -> probability, in increasing order of total, zero-probability totals omitted.
        """
        low, counts = _distribution_counts(self.terms)
        outcomes = 1
        for sides in self.dice():
            outcomes *= sides
        return {low + i: Fraction(c, outcomes) for i, c in enumerate(counts) if c}

    def dice(self) -> tuple[int, ...]:
        """The sides of every die in roll order: terms left to right, each term's dice in turn."""
        return tuple(term.sides for term in self.terms for _ in range(term.count))

    def types(self) -> tuple[str, ...]:
        """The distinct damage types in order of first appearance; untyped terms add none."""
        seen: dict[str, None] = {}
        for term in self.terms:
            if term.type is not None:
                seen.setdefault(term.type)
        return tuple(seen)


def _normalize(terms: tuple[DiceTerm, ...]) -> str:
    """The canonical text of some terms: ``1d8+2``, ``2d4+2 fire``, ``10 magic + 5 fire``."""
    parts: list[str] = []
    after_type = False
    for i, term in enumerate(terms):
        if i == 0:
            parts.append(("-" if term.sign < 0 else "") + term.body())
        else:
            op = "+" if term.sign > 0 else "-"
            # Spaces around the operator keep a type word from reading as part of the next term.
            parts.append((f" {op} " if after_type else op) + term.body())
        last_of_group = i == len(terms) - 1 or terms[i + 1].type != term.type
        after_type = term.type is not None and last_of_group
        if after_type:
            parts.append(f" {term.type}")
    return "".join(parts)


@lru_cache(maxsize=256)
def _distribution_counts(terms: tuple[DiceTerm, ...]) -> tuple[int, tuple[int, ...]]:
    """The lowest total and the number of dice outcomes giving each total from there up.

    Adding a die of M sides to a count vector is a sliding-window sum of width M, so each die
    costs time linear in the support rather than support times sides.
    """
    low = 0
    counts = [1]
    for term in terms:
        if term.is_flat:
            low += term.sign * term.value
            continue
        sides = term.sides
        for _ in range(term.count):
            # Values of the die are 1..M, or -M..-1 when subtracted: a run of M either way.
            low += 1 if term.sign > 0 else -sides
            new: list[int] = []
            window = 0
            size = len(counts)
            for j in range(size + sides - 1):
                if j < size:
                    window += counts[j]
                if j >= sides:
                    window -= counts[j - sides]
                new.append(window)
            counts = new
    return low, tuple(counts)


class _Parser:
    """A hand-written scanner: it knows where the text went wrong, which a regex does not."""

    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, problem: str) -> DiceError:
        return DiceError(f"dice expression {self.text!r} is not valid: {problem}; write {_EXAMPLES}")

    def skip_spaces(self) -> bool:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _SPACES:
            self.pos += 1
        return self.pos > start

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def digits(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        return self.text[start : self.pos]

    def number(self, digits: str, what: str, low: int, high: int) -> int:
        # Length first: int() of thousands of digits is slow and, past 4300, refused.
        if len(digits) > len(str(high)) + 1 or not low <= int(digits) <= high:
            raise self.fail(f"{what} {digits} is out of range; it must be {low}..{high}")
        return int(digits)

    def parse(self) -> tuple[DiceTerm, ...]:
        if not self.text.strip():
            raise self.fail("it is empty")
        terms: list[DiceTerm] = []
        untyped_from = 0  # first term of the current run of untyped terms
        self.skip_spaces()
        sign = 1
        if self.peek() == "-":
            sign = -1
            self.pos += 1
            self.skip_spaces()
        while True:
            count, sides, value = self.term("at the start" if not terms else f"after {terms[-1].body()!r}")
            terms.append(DiceTerm(count, sides, value, sign, None, bonus=bool(terms)))
            spaced = self.skip_spaces()
            char = self.peek()
            if char and char in _WORD_CHARS:
                rest = self.text[self.pos :]
                word = self.word()
                if not spaced:
                    raise self.fail(
                        f"unexpected {rest!r} right after {terms[-1].body()!r}; dice are written NdM "
                        f"like '2d6', and a damage type needs a space before it like '2d6 fire'"
                    )
                kind = word.lower()
                for i in range(untyped_from, len(terms)):
                    old = terms[i]
                    terms[i] = DiceTerm(old.count, old.sides, old.value, old.sign, kind, old.bonus)
                untyped_from = len(terms)
                self.skip_spaces()
                char = self.peek()
            if not char:
                return tuple(terms)
            if char not in "+-":
                rest = self.text[self.pos :]
                raise self.fail(
                    f"unexpected {rest!r} at character {self.pos + 1}; join terms with '+' or '-'"
                )
            op = char
            sign = 1 if op == "+" else -1
            self.pos += 1
            self.skip_spaces()
            if not self.peek():
                raise self.fail(f"it ends with {op!r}; a number or a die must follow it")

    def term(self, place: str) -> tuple[int, int, int]:
        """Read ``NdM``, ``dM`` or ``N`` and return ``(count, sides, value)``."""
        start = self.pos
        count_digits = self.digits()
        if self.peek() in ("d", "D"):
            self.pos += 1
            sides_digits = self.digits()
            if not sides_digits:
                written = self.text[start : self.pos]
                raise self.fail(f"{written!r} needs the number of sides after 'd', like '{written}6'")
            count = self.number(count_digits, "the number of dice", 1, MAX_COUNT) if count_digits else 1
            sides = self.number(sides_digits, "the number of sides", 2, MAX_SIDES)
            return count, sides, 0
        if count_digits:
            return 0, 0, self.number(count_digits, "the number", 0, MAX_FLAT)
        found = self.text[self.pos :]
        raise self.fail(f"expected a number or a die like 'd6' {place}, found {found!r}")

    def word(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _WORD_CHARS:
            self.pos += 1
        return self.text[start : self.pos]


@dataclass(frozen=True, slots=True)
class Roll:
    """One die rolled.

    Attributes:
        sides: sides of the die.
        result: what it showed, 1..sides.
        label: what the roll was for, e.g. ``damage of orc1's greataxe``.
        forced: True when the result came from the forced-dice queue.
    """

    sides: int
    result: int
    label: str
    forced: bool


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of rolling a dice expression.

    ``by_type`` is a dict for easy look-up; it is left out of the hash (and only of the hash)
    so a result stays hashable. Do not mutate it.

    Attributes:
        total: the raw signed total; rule sets clamp it (e.g. to at least 1) if their rules say so.
        by_type: signed total per damage type (None for untyped), in order of first appearance.
        rolls: every die result in roll order.
        bonus_total: the signed contribution of the bonus terms (every term after the first).
        expr: the expression rolled.
    """

    total: int
    by_type: dict[str | None, int] = field(hash=False)
    rolls: tuple[int, ...]
    bonus_total: int
    expr: DiceExpr


class Dice:
    """The dice of one game state: a seeded generator with a forced-dice queue in front of it.

    Attributes:
        log: every die rolled so far, oldest first (see :meth:`take_log`).
    """

    __slots__ = ("_forced", "_rng", "keep_log", "log")

    def __init__(self, seed: int = 0, forced: Iterable[int] = ()) -> None:
        """Create the roller.

        Args:
            seed: seed of the generator.
            forced: results handed out, in roll order, before the generator is used.

        Raises:
            DiceError: a forced value is not a whole number.
        """
        self._rng = random.Random(seed)
        self._forced: deque[int] = deque()
        self.log: list[Roll] = []
        self.keep_log = True
        self.force(forced)

    def force(self, values: Iterable[int]) -> None:
        """Queue more forced results behind those already queued.

        Raises:
            DiceError: a value is not a whole number (range is checked when it is rolled).
        """
        values = list(values)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                raise DiceError(f"forced dice must be whole numbers, got {value!r}")
        self._forced.extend(values)

    @property
    def forced_left(self) -> int:
        """How many forced results are still queued."""
        return len(self._forced)

    def roll(self, sides: int, label: str) -> int:
        """Roll one die: the next forced result if one is queued, else the generator.

        Args:
            sides: sides of the die, at least 1.
            label: what the roll is for; it names the roll in errors and in the log.

        Returns:
            The result, 1..sides.

        Raises:
            DiceError: the next forced result does not fit the die; it stays queued.
        """
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
            raise DiceError(f"a die needs at least 1 side, got {sides!r} ({label})")
        if self._forced:
            value = self._forced[0]
            self._check_forced(value, sides, label)
            self._forced.popleft()
            forced = True
        else:
            value = self._rng.randrange(sides) + 1
            forced = False
        if self.keep_log:
            self.log.append(Roll(sides=sides, result=value, label=label, forced=forced))
        return value

    def d20(self, label: str) -> int:
        """Roll a d20."""
        return self.roll(20, label)

    def roll_expr(self, expr: DiceExpr, label: str, dice_multiplier: int = 1) -> RollResult:
        """Roll a dice expression.

        All or nothing: the forced results it would take are checked before any die is rolled.

        Args:
            expr: the expression.
            label: what the roll is for; every die is logged with it.
            dice_multiplier: how many times each die is rolled (2 for a critical hit that
                rolls the damage dice twice). Flat numbers are never multiplied: rule sets that
                multiply them do so themselves, using ``bonus_total``.

        Returns:
            The raw result; nothing is clamped.

        Raises:
            DiceError: a queued forced result does not fit the die it would go to.
        """
        if isinstance(dice_multiplier, bool) or not isinstance(dice_multiplier, int) or dice_multiplier < 1:
            raise DiceError(f"dice_multiplier must be a whole number >= 1, got {dice_multiplier!r} ({label})")
        needed = [term.sides for term in expr.terms for _ in range(term.count * dice_multiplier)]
        for sides, value in zip(needed, self._forced, strict=False):
            self._check_forced(value, sides, label)
        total = 0
        bonus_total = 0
        by_type: dict[str | None, int] = {}
        rolls: list[int] = []
        for term in expr.terms:
            if term.is_flat:
                part = term.value
            else:
                results = [self.roll(term.sides, label) for _ in range(term.count * dice_multiplier)]
                rolls.extend(results)
                part = sum(results)
            part *= term.sign
            total += part
            if term.bonus:
                bonus_total += part
            by_type[term.type] = by_type.get(term.type, 0) + part
        return RollResult(
            total=total, by_type=by_type, rolls=tuple(rolls), bonus_total=bonus_total, expr=expr
        )

    def clone(self, *, keep_log: bool = True) -> Dice:
        """An independent copy that will roll exactly what this one would roll next; without
        ``keep_log`` it starts with an empty log and keeps none."""
        other = Dice.__new__(Dice)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._forced = deque(self._forced)
        other.keep_log = keep_log and self.keep_log
        other.log = list(self.log) if other.keep_log else []
        return other

    def same_stream(self, other: Dice) -> bool:
        """Whether the two will roll the same from now on (same generator state, same forced dice)."""
        return self._rng.getstate() == other._rng.getstate() and self._forced == other._forced

    def reseed(self, seed: int) -> None:
        """Roll from a new generator from now on (forced dice still first): a search's sampled future
        must not be the game's own."""
        self._rng = random.Random(seed)

    def __copy__(self) -> Dice:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Dice:
        return self.clone()

    def take_log(self) -> list[Roll]:
        """Return the rolls logged so far and clear the log."""
        log, self.log = self.log, []
        return log

    def __repr__(self) -> str:
        return f"Dice(forced_left={len(self._forced)}, logged={len(self.log)})"

    @staticmethod
    def _check_forced(value: int, sides: int, label: str) -> None:
        if not 1 <= value <= sides:
            raise DiceError(
                f"forced die {value} was offered to a d{sides} roll ({label}); it must be 1..{sides}"
            )
