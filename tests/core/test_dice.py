"""Tests of dice expressions, the seeded roller and exact distributions."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.core.dice import Dice, DiceExpr, DiceTerm, Roll
from skirmish.errors import ContentError, DiceError


def dice(count: int, sides: int, sign: int = 1, type: str | None = None, bonus: bool = False) -> DiceTerm:
    return DiceTerm(count=count, sides=sides, value=0, sign=sign, type=type, bonus=bonus)


def flat(value: int, sign: int = 1, type: str | None = None, bonus: bool = True) -> DiceTerm:
    return DiceTerm(count=0, sides=0, value=value, sign=sign, type=type, bonus=bonus)


# --- parsing -----------------------------------------------------------------------------------

PARSED = [
    ("1d8+2", (dice(1, 8), flat(2)), "1d8+2"),
    ("2d4+2 fire", (dice(2, 4, type="fire"), flat(2, type="fire")), "2d4+2 fire"),
    ("15+10 cold", (flat(15, type="cold", bonus=False), flat(10, type="cold")), "15+10 cold"),
    ("2d10+3", (dice(2, 10), flat(3)), "2d10+3"),
    ("10 magic + 5 fire", (flat(10, type="magic", bonus=False), flat(5, type="fire")), "10 magic + 5 fire"),
    ("1d6", (dice(1, 6),), "1d6"),
    ("7", (flat(7, bonus=False),), "7"),
    ("2d6 - 1", (dice(2, 6), flat(1, sign=-1)), "2d6-1"),
    ("1d8+1d6 fire", (dice(1, 8, type="fire"), dice(1, 6, type="fire", bonus=True)), "1d8+1d6 fire"),
    ("d20", (dice(1, 20),), "1d20"),
    ("  2D6 + 3 Fire ", (dice(2, 6, type="fire"), flat(3, type="fire")), "2d6+3 fire"),
    ("-2", (flat(2, sign=-1, bonus=False),), "-2"),
    (
        "1d6 acid + 1d4 + 2 cold - 1",
        (
            dice(1, 6, type="acid"),
            dice(1, 4, type="cold", bonus=True),
            flat(2, type="cold"),
            flat(1, sign=-1),
        ),
        "1d6 acid + 1d4+2 cold - 1",
    ),
    ("1d6 negative_energy", (dice(1, 6, type="negative_energy"),), "1d6 negative_energy"),
]


@pytest.mark.parametrize(("text", "terms", "normalized"), PARSED)
def test_parse_gives_exact_terms_and_normalized_text(
    text: str, terms: tuple[DiceTerm, ...], normalized: str
) -> None:
    expr = DiceExpr.parse(text)
    assert expr.terms == terms
    assert expr.text == normalized
    assert str(expr) == normalized
    assert DiceExpr.parse(expr.text) == expr


BAD = [
    ("", "empty"),
    ("   ", "empty"),
    ("d", "sides"),
    ("2d", "sides"),
    ("0d6", "1..100"),
    ("101d6", "1..100"),
    ("1d1", "2..1000"),
    ("1d0", "2..1000"),
    ("1d1001", "2..1000"),
    ("1d6++2", "expected a number or a die"),
    ("2x6", "unexpected 'x6'"),
    ("1d6+", "ends with '+'"),
    ("1d6 -", "ends with '-'"),
    ("+", "expected a number or a die"),
    ("fire", "expected a number or a die"),
    ("1d6fire", "space"),
    ("2d6 fire cold", "'+' or '-'"),
    ("1d6 * 2", "'+' or '-'"),
    ("1d6 fire2", "'+' or '-'"),
    ("9" * 5000, "out of range"),
]


@pytest.mark.parametrize(("text", "problem"), BAD)
def test_bad_expressions_raise_dice_error_quoting_the_text(text: str, problem: str) -> None:
    with pytest.raises(DiceError) as info:
        DiceExpr.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert problem in message
    assert "e.g. '1d8+2'" in message  # an example of what is right
    assert isinstance(info.value, ContentError)


def test_parse_refuses_non_text() -> None:
    with pytest.raises(DiceError):
        DiceExpr.parse(12)  # type: ignore[arg-type]


def test_constant() -> None:
    assert DiceExpr.constant(5) == DiceExpr.parse("5")
    assert DiceExpr.constant(5, "Fire") == DiceExpr.parse("5 fire")
    assert DiceExpr.constant(-3).min() == -3
    assert DiceExpr.constant(0).distribution() == {0: Fraction(1)}
    with pytest.raises(DiceError):
        DiceExpr.constant(1, "two words")


def test_dice_and_types() -> None:
    expr = DiceExpr.parse("2d6 fire + 1d4 cold + 1d6 fire + 3")
    assert expr.dice() == (6, 6, 4, 6)
    assert expr.types() == ("fire", "cold")
    assert DiceExpr.parse("1d8+2").types() == ()
    assert DiceExpr.parse("7").dice() == ()


# --- exact statistics --------------------------------------------------------------------------


def test_2d6_distribution() -> None:
    dist = DiceExpr.parse("2d6").distribution()
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert list(dist) == list(range(2, 13))
    assert sum(dist.values()) == 1


@pytest.mark.parametrize(
    ("text", "low", "high", "mean"),
    [
        ("1d4+1", 2, 5, Fraction(7, 2)),
        ("2d6-1", 1, 11, Fraction(6)),
        ("1d8+2", 3, 10, Fraction(13, 2)),
        ("15+10 cold", 25, 25, Fraction(25)),
        ("1d6-1d4", -3, 5, Fraction(1)),
        ("-1d4", -4, -1, Fraction(-5, 2)),
    ],
)
def test_min_max_mean(text: str, low: int, high: int, mean: Fraction) -> None:
    expr = DiceExpr.parse(text)
    assert (expr.min(), expr.max(), expr.mean()) == (low, high, mean)
    dist = expr.distribution()
    assert (min(dist), max(dist)) == (low, high)
    assert sum(p * total for total, p in dist.items()) == mean


def test_distribution_with_subtracted_die() -> None:
    dist = DiceExpr.parse("1d4-1d4").distribution()
    assert dist == {d: Fraction(4 - abs(d), 16) for d in range(-3, 4)}


# --- the roller --------------------------------------------------------------------------------


def test_forced_dice_are_used_in_order_then_the_generator() -> None:
    seeded = Dice(seed=5)
    expected_after = [seeded.roll(6, "x") for _ in range(3)]
    roller = Dice(seed=5, forced=[4, 1, 20])
    assert roller.forced_left == 3
    assert roller.roll(6, "a") == 4
    assert roller.roll(6, "b") == 1
    assert roller.d20("c") == 20
    assert roller.forced_left == 0
    assert [roller.roll(6, "x") for _ in range(3)] == expected_after
    assert [r.forced for r in roller.log] == [True, True, True, False, False, False]
    assert roller.log[0] == Roll(sides=6, result=4, label="a", forced=True)


def test_out_of_range_forced_die_names_the_roll() -> None:
    roller = Dice(forced=[7])
    with pytest.raises(DiceError) as info:
        roller.roll(6, "damage of orc1's greataxe")
    assert str(info.value) == (
        "forced die 7 was offered to a d6 roll (damage of orc1's greataxe); it must be 1..6"
    )
    assert roller.forced_left == 1  # a refused die stays queued
    assert roller.log == []


def test_forced_zero_refused_and_non_integers_refused() -> None:
    with pytest.raises(DiceError, match="attack of ogre"):
        Dice(forced=[0]).d20("attack of ogre")
    with pytest.raises(DiceError):
        Dice(forced=[1.5])  # type: ignore[list-item]
    with pytest.raises(DiceError):
        Dice(forced=[True])


def test_roll_expr_checks_all_forced_dice_before_rolling_any() -> None:
    roller = Dice(forced=[3, 9])
    with pytest.raises(DiceError, match=r"d6 roll \(damage of hero\)"):
        roller.roll_expr(DiceExpr.parse("2d6"), "damage of hero")
    assert roller.forced_left == 2
    assert roller.log == []


def test_roll_expr_totals() -> None:
    roller = Dice(forced=[2, 5, 3])
    result = roller.roll_expr(DiceExpr.parse("2d6 fire + 1d4 cold - 1"), "blast")
    assert result.rolls == (2, 5, 3)
    assert result.total == 2 + 5 + 3 - 1
    assert result.by_type == {"fire": 7, "cold": 3, None: -1}
    assert result.bonus_total == 3 - 1
    assert result.expr.text == "2d6 fire + 1d4 cold - 1"
    assert [r.label for r in roller.take_log()] == ["blast"] * 3
    assert roller.log == []
    hash(result)  # hashable although by_type is a dict


def test_roll_expr_total_is_not_clamped() -> None:
    result = Dice(forced=[1]).roll_expr(DiceExpr.parse("1d4-3"), "weak hit")
    assert result.total == -2


def test_dice_multiplier_rolls_every_die_that_many_times() -> None:
    roller = Dice(forced=[1, 2, 3, 6, 2, 4])
    result = roller.roll_expr(DiceExpr.parse("2d6+1d4+3"), "critical", dice_multiplier=2)
    assert result.rolls == (1, 2, 3, 6, 2, 4)
    assert [r.sides for r in roller.log] == [6, 6, 6, 6, 4, 4]
    assert result.total == 18 + 3  # the flat 3 is not doubled
    assert result.bonus_total == 2 + 4 + 3
    with pytest.raises(DiceError):
        roller.roll_expr(DiceExpr.parse("1d6"), "x", dice_multiplier=0)


def test_same_seed_same_rolls_and_different_seed_differs() -> None:
    a, b, c = Dice(seed=42), Dice(seed=42), Dice(seed=43)
    rolls_a = [a.d20("x") for _ in range(50)]
    assert rolls_a == [b.d20("x") for _ in range(50)]
    assert rolls_a != [c.d20("x") for _ in range(50)]
    assert all(1 <= r <= 20 for r in rolls_a)


def test_clone_continues_identically_and_independently() -> None:
    original = Dice(seed=7, forced=[3])
    original.d20("before")
    clone = original.clone()
    assert clone.log == original.log and clone.log is not original.log
    assert clone.forced_left == 0
    original.force([2])
    assert clone.forced_left == 0
    assert original.roll(6, "x") == 2
    future = [original.d20("x") for _ in range(20)]
    assert [clone.d20("x") for _ in range(20)] == future
    assert len(clone.log) == 21
    assert len(original.log) == 22


def test_clone_keeps_forced_queue() -> None:
    original = Dice(seed=1, forced=[5, 6])
    clone = original.clone()
    assert clone.roll(6, "x") == 5
    assert original.forced_left == 2
    assert copy.deepcopy(original).roll(6, "y") == 5


# --- properties --------------------------------------------------------------------------------


@st.composite
def expressions(draw: st.DrawFn) -> str:
    """Valid expression text with small dice, so exact distributions stay cheap."""
    parts: list[str] = []
    for i in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            count = draw(st.integers(1, 4))
            body = f"{draw(st.sampled_from(['', str(count)]))}d{draw(st.integers(2, 12))}"
        else:
            body = str(draw(st.integers(0, 30)))
        op = draw(st.sampled_from(["+", "-", " + ", " - "])) if i else draw(st.sampled_from(["", "-"]))
        kind = draw(st.sampled_from(["", "", " fire", " cold", " Sonic"]))
        parts.append(op + body + kind)
    return "".join(parts)


@given(text=expressions(), seed=st.integers(0, 2**32), multiplier=st.integers(1, 2))
def test_rolled_total_lies_between_min_and_max(text: str, seed: int, multiplier: int) -> None:
    expr = DiceExpr.parse(text)
    assert DiceExpr.parse(expr.text) == expr
    result = Dice(seed=seed).roll_expr(expr, "prop")
    assert expr.min() <= result.total <= expr.max()
    assert result.total in expr.distribution()
    assert sum(result.by_type.values()) == result.total
    doubled = Dice(seed=seed).roll_expr(expr, "prop", dice_multiplier=multiplier)
    assert len(doubled.rolls) == len(expr.dice()) * multiplier


@given(text=expressions())
def test_distribution_sums_to_one_and_matches_mean(text: str) -> None:
    expr = DiceExpr.parse(text)
    dist = expr.distribution()
    assert sum(dist.values()) == 1
    assert min(dist) == expr.min() and max(dist) == expr.max()
    assert sum(p * total for total, p in dist.items()) == expr.mean()


@given(text=st.text() | st.text(alphabet="0123456789dD+- \tfirecold_x"))
def test_garbage_parses_or_raises_dice_error(text: str) -> None:
    try:
        expr = DiceExpr.parse(text)
    except DiceError as error:
        assert repr(text) in str(error)
    else:
        assert DiceExpr.parse(expr.text) == expr
