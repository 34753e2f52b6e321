"""The shared attack roll: exact chances against enumeration and sampling, forced dice, every mode."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.core.attack import (
    D20,
    D20_FACES,
    Advantage,
    AttackResult,
    AttackRoll,
    Modifier,
    PowerRoll,
    RollMode,
)
from skirmish.core.dice import Dice, DiceExpr

D4 = DiceExpr.parse("1d4")


class Recorder:
    """A roller like ``Position.roll``: it rolls from dice and remembers (sides, label, rule)."""

    def __init__(self, forced: list[int]) -> None:
        self.dice = Dice(0, forced)
        self.calls: list[tuple[int, str, str | None]] = []

    def roll(self, sides: int, label: str, rule: str | None = None) -> int:
        self.calls.append((sides, label, rule))
        return self.dice.roll(sides, label)


def forced(roll: AttackRoll, *faces: int) -> tuple[AttackResult, Dice]:
    dice = Dice(0, faces)
    return roll.roll(dice, "test"), dice


# --- exact chances ------------------------------------------------------------------------------


def enumerate_outcomes(roll: AttackRoll, prefix: tuple[int, ...] = (), p: Fraction = Fraction(1)
                       ) -> list[tuple[AttackResult, Fraction]]:
    """Every way the dice can fall, found by forcing every face of each die ``roll()`` asks for in
    turn: an oracle built on ``roll()`` alone, independent of ``chance()``."""
    dice = Dice(0, prefix)
    result = roll.roll(dice, "enumerated")
    if all(r.forced for r in dice.log):
        return [(result, p)]
    sides = dice.log[len(prefix)].sides
    out: list[tuple[AttackResult, Fraction]] = []
    for face in range(1, sides + 1):
        out.extend(enumerate_outcomes(roll, (*prefix, face), p / sides))
    return out


naturals = st.frozensets(st.integers(1, 20), max_size=4)


@st.composite
def d20_rolls(draw: st.DrawFn) -> AttackRoll:
    mode: RollMode = draw(st.sampled_from([D20(), Advantage(1), Advantage(-1), Advantage(0)]))
    confirm = draw(st.none() | st.integers(-2, 4)) if isinstance(mode, D20) else None
    rolled = draw(st.booleans()) and confirm is None
    mods = [Modifier("flat", draw(st.integers(-3, 3)))]
    if rolled:
        mods.append(Modifier("bless die", 0, "G5-12", D4))
    return AttackRoll(
        bonus=draw(st.integers(-5, 15)), defence=draw(st.integers(1, 30)), modifiers=tuple(mods),
        defence_modifiers=(Modifier("cover", draw(st.integers(0, 5))),), mode=mode,
        hits=draw(naturals), misses=draw(naturals), criticals=draw(naturals), confirm=confirm)


@st.composite
def power_rolls(draw: st.DrawFn) -> AttackRoll:
    mods = [Modifier("skill", draw(st.integers(-2, 2)))]
    if draw(st.booleans()):
        mods.append(Modifier("surge", 0, None, D4))
    return AttackRoll.power(draw(st.integers(-5, 5)), edges=draw(st.integers(0, 3)), banes=draw(st.integers(0, 3)),
                            automatic=draw(st.none() | st.integers(1, 3)), modifiers=mods)


def tally(outcomes: list[tuple[AttackResult, Fraction]]) -> tuple[Fraction, Fraction, list[Fraction]]:
    hit = sum((p for r, p in outcomes if r.hit), Fraction(0))
    crit = sum((p for r, p in outcomes if r.critical), Fraction(0))
    tiers = [sum((p for r, p in outcomes if r.tier == t), Fraction(0)) for t in (1, 2, 3)]
    return hit, crit, tiers


@settings(max_examples=40, deadline=None)
@given(d20_rolls())
def test_chance_equals_enumeration_of_every_forced_die(roll: AttackRoll) -> None:
    outcomes = enumerate_outcomes(roll)
    assert sum(p for _, p in outcomes) == 1
    hit, crit, _ = tally(outcomes)
    chance = roll.chance()
    assert (chance.hit, chance.critical, chance.miss) == (hit, crit, 1 - hit)
    assert chance.tiers == ()


@settings(max_examples=25, deadline=None)
@given(power_rolls())
def test_g01_power_roll_chance_equals_enumeration(roll: AttackRoll) -> None:
    outcomes = enumerate_outcomes(roll)
    _, crit, tiers = tally(outcomes)
    chance = roll.chance()
    assert chance.tiers == tuple(tiers)
    assert sum(chance.tiers) == 1
    assert chance.critical == crit == Fraction(3, 100)  # natural 19 or 20 on 2d10 (G-01)
    assert (chance.hit, chance.miss) == (1, 0)


def test_m08_071_chance_by_hand() -> None:
    """d20 + 5 vs 15: naturals 10..20 hit (11 in 20); only 20 crits (M08-071, M08-073)."""
    chance = AttackRoll(bonus=5, defence=15).chance()
    assert (chance.hit, chance.critical, chance.miss) == (Fraction(11, 20), Fraction(1, 20), Fraction(9, 20))


def test_e5_080_natural_1_misses_even_when_the_total_would_hit() -> None:
    """A +30 attack against AC 10 still misses on a natural 1 (E5-086): 19 in 20."""
    assert AttackRoll(bonus=30, defence=10).chance().hit == Fraction(19, 20)


def test_g5_02_advantage_chance_by_hand() -> None:
    """Advantage misses only when both d20s miss: 1 - (9/20)^2 against needing 10 or more (G5-02)."""
    assert AttackRoll(bonus=5, defence=15, mode=Advantage(1)).chance().hit == 1 - Fraction(9, 20) ** 2
    assert AttackRoll(bonus=5, defence=15, mode=Advantage(-1)).chance().hit == Fraction(11, 20) ** 2


def test_g01_power_roll_tiers_by_hand() -> None:
    """2d10 + 2: tier 1 is 2d10 <= 9 (36 in 100), tier 3 is 2d10 >= 15 (21 in 100) (G-01)."""
    chance = AttackRoll.power(2).chance()
    assert chance.tiers == (Fraction(36, 100), Fraction(43, 100), Fraction(21, 100))


@pytest.mark.parametrize("roll", [
    AttackRoll(bonus=4, defence=16, mode=Advantage(1), modifiers=(Modifier("bless die", 0, "G5-12", D4),)),
    AttackRoll(bonus=7, defence=18, criticals=frozenset((19, 20)), confirm=0),
    AttackRoll.power(1, edges=1, banes=0),
])
def test_a_large_seeded_sample_of_roll_agrees_with_chance(roll: AttackRoll) -> None:
    n = 20000
    dice = Dice(12345)
    results = [roll.roll(dice, "sample") for _ in range(n)]
    chance = roll.chance()
    observed = [(sum(r.hit for r in results), chance.hit), (sum(r.critical for r in results), chance.critical)]
    observed += [(sum(r.tier == t for r in results), p) for t, p in zip((1, 2, 3), chance.tiers, strict=False)]
    for count, p in observed:
        sd = math.sqrt(n * float(p) * (1 - float(p))) or 1.0
        assert abs(count - n * float(p)) < 5 * sd, (count, n * float(p))


# --- forced dice give exact outcomes ------------------------------------------------------------


def test_m08_071_forced_die_gives_exact_total_and_hit() -> None:
    mods = (Modifier("combat advantage: a flanks b", 2, "M08-108"), Modifier("cover", -2, "M08-093"))
    roll = AttackRoll(bonus=5, defence=22, defence_name="DEF", modifiers=mods)
    result, dice = forced(roll, 17)
    assert (result.natural, result.total, result.hit, result.critical, result.automatic) == (17, 22, True, False, None)
    assert dice.forced_left == 0
    miss, _ = forced(roll, 16)
    assert (miss.total, miss.hit) == (21, False)
    assert result.explain() == "17 + 5 + 2 (combat advantage: a flanks b) - 2 (cover) = 22 vs DEF 22, hit"


def test_m08_073_natural_20_hits_any_defence_and_is_critical() -> None:
    result, _ = forced(AttackRoll(bonus=0, defence=40), 20)
    assert (result.hit, result.critical, result.automatic) == (True, True, "hit")


def test_m08_075_natural_1_misses_any_defence() -> None:
    result, _ = forced(AttackRoll(bonus=50, defence=2), 1)
    assert (result.hit, result.critical, result.automatic) == (False, False, "miss")


def test_m08_123_blood_rock_19_hits_and_crits() -> None:
    roll = AttackRoll(bonus=0, defence=40, hits=frozenset((19, 20)), criticals=frozenset((19, 20)))
    assert forced(roll, 19)[0].critical
    assert not forced(roll, 18)[0].hit


def test_m08_142_melee_against_helpless_hits_and_crits_even_on_a_1() -> None:
    roll = AttackRoll(bonus=0, defence=40, hits=D20_FACES, criticals=D20_FACES)
    result, _ = forced(roll, 1)
    assert (result.hit, result.critical) == (True, True)
    assert roll.chance().critical == 1


def test_g5_01_hit_on_paralysed_within_5_feet_is_critical_but_must_hit() -> None:
    roll = AttackRoll(bonus=3, defence=15, criticals=D20_FACES)
    assert forced(roll, 12)[0].critical
    assert not forced(roll, 11)[0].hit and not forced(roll, 11)[0].critical
    assert not forced(roll, 1)[0].critical


def test_e5_135_saving_throw_has_no_automatic_naturals() -> None:
    save = AttackRoll(bonus=2, defence=25, defence_name="DC", hits=frozenset(), misses=frozenset(),
                      criticals=frozenset())
    assert not forced(save, 20)[0].hit
    assert forced(AttackRoll(bonus=9, defence=10, hits=frozenset(), misses=frozenset()), 1)[0].hit


# --- advantage and rolled modifiers: dice in today's order ---------------------------------------


def test_g5_02_advantage_consumes_two_d20s_and_keeps_the_higher() -> None:
    roller = Recorder([5, 17, 3])
    result = AttackRoll(bonus=4, defence=15, mode=Advantage(1)).roll(roller, "scimitar of gob1 against pc1", "E5-080")
    assert (result.faces, result.natural, result.total, result.hit) == ((5, 17), 17, 21, True)
    assert roller.dice.forced_left == 1
    assert roller.calls == [(20, "scimitar of gob1 against pc1", "E5-080"),
                            (20, "scimitar of gob1 against pc1 (advantage)", "E5-080")]


def test_g5_02_advantage_and_cover_show_in_the_explanation() -> None:
    roll = AttackRoll(bonus=4, defence=15, mode=Advantage.from_sources(["pc1 is prone"], []),
                      defence_modifiers=(Modifier("half cover", 2, "E5-112"),))
    result, _ = forced(roll, 5, 17)
    assert result.explain() == ("5/17 -> 17 + 4 = 21 vs AC 17 (half cover +2) [advantage: pc1 is prone], hit")
    assert str(Modifier("bless", 0, "G5-12", D4)) == "+1d4 (bless)" and str(Modifier("cover", -2)) == "-2 (cover)"


def test_g5_02_disadvantage_keeps_the_lower() -> None:
    roller = Recorder([5, 17])
    result = AttackRoll(bonus=4, defence=15, mode=Advantage(-1)).roll(roller, "x", "E5-080")
    assert (result.natural, result.hit) == (5, False)
    assert roller.calls[1][1] == "x (disadvantage)"


def test_g5_02_one_advantage_and_any_number_of_disadvantages_cancel() -> None:
    mode = Advantage.from_sources(["pc1 cannot see gob1"], ["gob1 is prone", "gob1 is poisoned"])
    assert mode.level == 0 and mode.dice == (20,)
    assert mode.reasons[0] == "advantage: pc1 cannot see gob1"
    assert Advantage.from_sources(["a", "b"], []).level == 1


def test_g5_12_bless_die_is_rolled_after_the_d20s_with_its_own_label_and_rule() -> None:
    roller = Recorder([12, 8, 3])
    bless = Modifier("bless die of pc1", 0, "G5-12", D4)
    result = AttackRoll(bonus=5, defence=20, mode=Advantage(1), modifiers=(bless,)).roll(roller, "x", "E5-080")
    assert roller.calls == [(20, "x", "E5-080"), (20, "x (advantage)", "E5-080"), (4, "bless die of pc1", "G5-12")]
    assert (result.natural, result.total, result.parts, result.hit) == (12, 20, ((bless, 3),), True)


def test_chance_does_not_touch_any_dice_and_rolling_consumes_only_what_today_consumes() -> None:
    roll = AttackRoll(bonus=5, defence=15)
    roll.chance()
    _, dice = forced(roll, 11, 4, 4)
    assert dice.forced_left == 2  # one d20 and nothing else


def test_e5_027_shield_raises_ac_after_the_roll_without_new_dice() -> None:
    result, _ = forced(AttackRoll(bonus=5, defence=15), 12)
    assert result.hit
    shielded = result.with_defence(Modifier("shield", 5, "E5-027"))
    assert (shielded.hit, shielded.critical, shielded.against, shielded.total) == (False, False, 20, 17)
    natural_20, _ = forced(AttackRoll(bonus=5, defence=15), 20)
    assert natural_20.with_defence(Modifier("shield", 5, "E5-027")).critical


# --- 3e confirmation ----------------------------------------------------------------------------


def test_e35_043_threat_is_critical_only_when_the_confirmation_roll_hits() -> None:
    roll = AttackRoll(bonus=5, defence=15, criticals=frozenset((19, 20)), confirm=0)
    confirmed, dice = forced(roll, 19, 12)
    assert (confirmed.hit, confirmed.threat, confirmed.critical, confirmed.confirm_total) == (True, True, True, 17)
    assert dice.forced_left == 0
    unconfirmed, _ = forced(roll, 19, 5)
    assert (unconfirmed.hit, unconfirmed.threat, unconfirmed.critical) == (True, True, False)


def test_e35_043_a_threat_that_misses_asks_for_no_confirmation() -> None:
    roll = AttackRoll(bonus=0, defence=25, criticals=frozenset((19, 20)), confirm=0)
    result, dice = forced(roll, 19, 20)
    assert (result.hit, result.threat) == (False, False)
    assert dice.forced_left == 1


# --- Draw Steel power rolls ----------------------------------------------------------------------


@pytest.mark.parametrize(("faces", "tier"), [((5, 6), 1), ((6, 6), 2), ((8, 8), 2), ((8, 9), 3)])
def test_g01_power_roll_tiers_at_11_12_16_17(faces: tuple[int, int], tier: int) -> None:
    result, dice = forced(AttackRoll.power(0), *faces)
    assert (result.total, result.tier, result.critical, result.hit) == (sum(faces), tier, False, True)
    assert dice.forced_left == 0


def test_g01_natural_19_and_20_are_critical_and_tier_3_whatever_the_banes() -> None:
    result, _ = forced(AttackRoll.power(-5, banes=2), 9, 10)
    assert (result.natural, result.total, result.tier, result.critical) == (19, 14, 3, True)
    eighteen, _ = forced(AttackRoll.power(0, banes=2), 9, 9)
    assert (eighteen.tier, eighteen.critical) == (2, False)


@pytest.mark.parametrize(("edges", "banes", "faces", "tier", "total"), [
    (1, 0, (5, 5), 2, 12),   # an edge: +2, 10 -> 12
    (2, 0, (5, 6), 2, 11),   # a double edge: tier 1 -> 2, no +2
    (3, 0, (9, 9), 3, 18),   # a double edge cannot go past tier 3
    (0, 1, (7, 7), 2, 12),   # a bane: -2, 14 -> 12
    (0, 2, (8, 9), 2, 17),   # a double bane: tier 3 -> 2
    (2, 1, (5, 5), 2, 12),   # double edge and a bane: an edge
    (1, 2, (7, 7), 2, 12),   # an edge and a double bane: a bane
    (2, 2, (5, 6), 1, 11),   # they cancel
])
def test_g02_edges_and_banes(edges: int, banes: int, faces: tuple[int, int], tier: int, total: int) -> None:
    result, _ = forced(AttackRoll.power(0, edges=edges, banes=banes), *faces)
    assert (result.tier, result.total) == (tier, total)


def test_g01_automatic_tier_overrides_the_total() -> None:
    result, _ = forced(AttackRoll.power(5, edges=2, automatic=1), 10, 10)
    assert (result.tier, result.critical) == (1, True)


def test_power_roll_explains_its_tier() -> None:
    result, _ = forced(AttackRoll.power(2, edges=1), 4, 6)
    assert result.explain() == "4/6 -> 10 + 2 + 2 (edge) = 14, tier 2"
    assert PowerRoll(edges=1).net == 1


def test_a_roll_without_its_defence_or_a_tiered_roll_with_one_is_refused() -> None:
    with pytest.raises(ValueError, match="needs a defence"):
        AttackRoll(bonus=1)
    with pytest.raises(ValueError, match="tiered"):
        AttackRoll(bonus=1, defence=10, mode=PowerRoll())
    with pytest.raises(ValueError, match="1, 2 or 3"):
        PowerRoll(automatic=4)
    with pytest.raises(ValueError, match="flat"):
        AttackRoll(bonus=1, defence=10, defence_modifiers=(Modifier("luck", 0, None, D4),))
