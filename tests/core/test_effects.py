"""Durations expire on their declared trigger only, count down, and end by saves in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skirmish.core.creatures import Condition, Creature, CreatureTemplate, Duration
from skirmish.core.effects import (
    Expired,
    Trigger,
    advance,
    expire,
    for_rounds,
    until_end_of_controller_turn,
    until_end_of_next_turn,
    until_start_of_next_turn,
)

TRIGGERS = [
    Trigger.turn_start("a"), Trigger.turn_end("a"), Trigger.turn_start("b"), Trigger.turn_end("b"),
    Trigger.side_turn_end("red"), Trigger.side_turn_end("blue"), Trigger.round_end(),
]


def creature(cid: str, side: str, *conditions: Condition) -> Creature:
    return Creature(cid, side, CreatureTemplate(cid, max_hp=10), (0, 0), conditions=list(conditions))


def ends_at(condition: Condition, holder: str = "a") -> list[Trigger]:
    """The triggers, of the usual ones, at which the condition (fresh each time) ends."""
    out = []
    for trigger in TRIGGERS:
        c = creature(holder, "red", condition)
        if expire([c], trigger):
            out.append(trigger)
    return out


def test_m08_068_end_of_next_turn_ends_at_its_owners_turn_end_only() -> None:
    assert ends_at(Condition("dazed", Duration("end_of_next_turn", "a"))) == [Trigger.turn_end("a")]
    assert ends_at(Condition("dazed", Duration("end_of_next_turn", None)), holder="b") == [Trigger.turn_end("b")]


def test_m08_068_put_on_during_its_own_turn_it_lasts_until_the_end_of_the_next() -> None:
    c = creature("a", "red", Condition("slowed", until_end_of_next_turn("a", acting="a"), "orc"))
    assert expire([c], Trigger.turn_end("a")) == []
    assert c.conditions == [Condition("slowed", Duration("end_of_next_turn", "a", 0), "orc")]
    ended = expire([c], Trigger.turn_end("a"))
    assert [e.condition.name for e in ended] == ["slowed"] and c.conditions == []
    assert until_end_of_next_turn("a", acting="b").rounds == 0


def test_m08_135_end_of_controller_turn_ends_at_that_sides_turn_end() -> None:
    assert ends_at(Condition("marked", Duration("end_of_controller_turn", "blue"))) == [Trigger.side_turn_end("blue")]
    c = creature("a", "red", Condition("marked", until_end_of_controller_turn("blue", side_acting="blue")))
    assert expire([c], Trigger.side_turn_end("blue")) == [] and c.has("marked")
    assert len(expire([c], Trigger.side_turn_end("blue"))) == 1


def test_e5_068_start_of_next_turn_ends_at_its_owners_turn_start() -> None:
    assert ends_at(Condition("dodging", until_start_of_next_turn("a"))) == [Trigger.turn_start("a")]
    assert ends_at(Condition("aided", until_start_of_next_turn("b"))) == [Trigger.turn_start("b")]


def test_m08_136_end_of_round_ends_with_the_round() -> None:
    assert ends_at(Condition("blessed", Duration("end_of_round"))) == [Trigger.round_end()]


def test_m08_137_end_of_battle_never_ends() -> None:
    assert ends_at(Condition("cursed", Duration("end_of_battle"))) == []


def test_m08_137_save_ends_without_a_save_hook_never_ends_at_a_turn_end() -> None:
    assert ends_at(Condition("ongoing_5_fire", Duration("save_ends", "a"))) == []


def test_g35_24_rounds_count_down_at_the_owners_turn_start() -> None:
    c = creature("a", "red", Condition("charging", for_rounds(2, owner="b")))
    assert expire([c], Trigger.turn_start("a")) == [] and c.conditions[0].duration.rounds == 2
    assert expire([c], Trigger.turn_start("b")) == [] and c.conditions[0].duration.rounds == 1
    assert [e.condition.name for e in expire([c], Trigger.turn_start("b"))] == ["charging"]


def test_rounds_without_an_owner_count_down_at_round_ends() -> None:
    c = creature("a", "red", Condition("fog", for_rounds(1)))
    assert expire([c], Trigger.turn_start("a")) == []
    assert len(expire([c], Trigger.round_end())) == 1


def test_m08_147_one_save_per_save_ends_condition_in_order_between_other_endings() -> None:
    log: list[str] = []

    def save(c: Creature, cond: Condition) -> bool:
        log.append(f"save {cond.name}")
        return cond.name == "weakened"

    def on_expire(e: Expired) -> None:
        log.append(f"end {e.condition.name}" + (" (saved)" if e.saved else ""))

    c = creature("a", "red",
                 Condition("ongoing_5_fire", Duration("save_ends", "a")),
                 Condition("dazed", Duration("end_of_next_turn", "a")),
                 Condition("weakened", Duration("save_ends", "a")),
                 Condition("cursed", Duration("end_of_battle")))
    ended = expire([c], Trigger.turn_end("a"), save=save, on_expire=on_expire)
    assert log == ["save ongoing_5_fire", "end dazed", "save weakened", "end weakened (saved)"]
    assert [(e.condition.name, e.saved) for e in ended] == [("dazed", False), ("weakened", True)]
    assert c.condition_names() == ["ongoing_5_fire", "cursed"]


def test_saves_are_made_only_at_the_savers_turn_end() -> None:
    calls: list[str] = []
    c = creature("a", "red", Condition("stunned", Duration("save_ends", "a")))
    for trigger in (Trigger.turn_start("a"), Trigger.turn_end("b"), Trigger.round_end()):
        expire([c], trigger, save=lambda cr, cond: calls.append(cond.name) or True)
    assert calls == [] and c.has("stunned")


def test_ds_139_a_save_at_another_time_ends_one_effect_of_that_name() -> None:
    c = creature("a", "red", Condition("bleeding", Duration("save_ends")), Condition("bleeding", Duration("save_ends")),
                 Condition("dazed", Duration("save_ends")))
    ended = expire([c], Trigger.saved("a", "bleeding"))
    assert [(e.creature, e.condition.name, e.saved) for e in ended] == [("a", "bleeding", True)]
    assert c.condition_names() == ["bleeding", "dazed"] and len(c.conditions) == 2
    assert expire([creature("b", "red", Condition("bleeding", Duration("save_ends")))],
                  Trigger.saved("a", "bleeding")) == []


def test_expire_looks_at_every_creature_given_in_order() -> None:
    a = creature("a", "red", Condition("prone", Duration("end_of_round")))
    b = creature("b", "blue", Condition("slowed", Duration("end_of_round")), Condition("x", Duration("end_of_battle")))
    ended = expire([a, b], Trigger.round_end())
    assert [(e.creature, e.condition.name, e.trigger) for e in ended] == [
        ("a", "prone", Trigger.round_end()), ("b", "slowed", Trigger.round_end())]
    assert a.conditions == [] and b.condition_names() == ["x"]


def test_advance_is_pure() -> None:
    cond = Condition("dazed", Duration("end_of_next_turn", "a", 1))
    assert advance("a", cond, Trigger.turn_end("b")) is cond
    assert advance("a", cond, Trigger.turn_end("a")) == Condition("dazed", Duration("end_of_next_turn", "a", 0))
    assert advance("a", Condition("dazed", Duration("end_of_next_turn", "a")), Trigger.turn_end("a")) is None
    assert cond.duration.rounds == 1


# --- the ddm2008 loops of today, as an independent reference ------------------------------------


def ddm2008_end_of_turn(c: Creature, saves: dict[str, bool]) -> list[str]:
    """ddm2008 ``combat.end_of_turn``'s condition loop, with saves read from a table."""
    events = []
    keep = []
    for cond in c.conditions:
        d = cond.duration
        if d.kind == "save_ends":
            events.append(f"save {cond.name}")
            if saves[cond.name]:
                continue
        elif d.kind == "end_of_next_turn" and d.owner == c.id:
            if d.rounds > 0:
                keep.append(Condition(cond.name, Duration(d.kind, d.owner, d.rounds - 1), cond.source))
            else:
                events.append(f"end {cond.name}")
            continue
        keep.append(cond)
    c.conditions = keep
    return events


def ddm2008_end_player_turn(creatures: list[Creature], side: str) -> list[str]:
    """ddm2008 ``state._end_player_turn``."""
    events = []
    for c in creatures:
        keep = []
        for cond in c.conditions:
            d = cond.duration
            if d.kind == "end_of_controller_turn" and d.owner == side:
                if d.rounds > 0:
                    keep.append(Condition(cond.name, Duration(d.kind, d.owner, d.rounds - 1), cond.source))
                else:
                    events.append(f"end {c.id} {cond.name}")
                continue
            keep.append(cond)
        c.conditions = keep
    return events


names = st.sampled_from(["dazed", "slowed", "weakened", "ongoing_5", "marked"])
ddm_durations = st.one_of(
    st.builds(Duration, st.just("end_of_next_turn"), st.just("a"), st.integers(0, 1)),
    st.builds(Duration, st.just("end_of_controller_turn"), st.sampled_from(["red", "blue"]), st.integers(0, 1)),
    st.builds(Duration, st.just("save_ends"), st.just("a")),
    st.builds(Duration, st.sampled_from(["end_of_round", "end_of_battle"])),
)
ddm_conditions = st.lists(st.builds(Condition, names, ddm_durations, st.sampled_from([None, "orc"])), max_size=6)


@given(ddm_conditions, st.dictionaries(names, st.booleans(), min_size=5))
def test_m08_147_turn_end_agrees_with_todays_ddm2008_loop(conditions: list[Condition], saves: dict[str, bool]) -> None:
    ours, theirs = creature("a", "red", *conditions), creature("a", "red", *conditions)
    expected = ddm2008_end_of_turn(theirs, saves)
    log: list[str] = []

    def save(c: Creature, cond: Condition) -> bool:
        log.append(f"save {cond.name}")
        return saves[cond.name]

    def on_expire(e: Expired) -> None:
        if not e.saved:
            log.append(f"end {e.condition.name}")

    expire([ours], Trigger.turn_end("a"), save=save, on_expire=on_expire)
    assert log == expected
    assert ours.conditions == theirs.conditions


@given(ddm_conditions, ddm_conditions, st.sampled_from(["red", "blue"]))
def test_m08_135_side_turn_end_agrees_with_todays_ddm2008_loop(first: list[Condition], second: list[Condition],
                                                               side: str) -> None:
    ours = [creature("a", "red", *first), creature("b", "blue", *second)]
    theirs = [creature("a", "red", *first), creature("b", "blue", *second)]
    expected = ddm2008_end_player_turn(theirs, side)
    ended = expire(ours, Trigger.side_turn_end(side))
    assert [f"end {e.creature} {e.condition.name}" for e in ended] == expected
    assert [c.conditions for c in ours] == [c.conditions for c in theirs]
