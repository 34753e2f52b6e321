"""ddm2008 setup from warbands (M08-022..M08-027) and the Sealed format (M08-160)."""

from __future__ import annotations

import pytest

from skirmish.core.coords import footprint
from skirmish.core.dice import Dice
from skirmish.errors import ContentError, IllegalActionError
from skirmish.rulesets.ddm2008.actions import ChooseMap, ChooseStart, Place
from skirmish.rulesets.ddm2008.setup import new_game, placements, sealed_warband, shipped_maps, start_squares
from skirmish.scenario.catalog import catalog

GUARD = ["warden-of-the-gate", "hill-dwarf-axeman", "hill-dwarf-axeman", "ember-adept"]
RAIDERS = ["gloomfang-goblin", "gloomfang-goblin", "cinder-drake"]
MAPS = ["ashen-crossroads", "gloomwater-cistern"]


def game(seed: int = 3, warbands=None):
    return new_game(warbands or [("guard", GUARD), ("raiders", RAIDERS)], MAPS, seed)


def test_m08_025_setup_roll_champion_rolls_twice_and_keeps_the_higher():
    """M08-025: the warband with the higher-rated champion rolls twice and keeps the higher roll."""
    state = game()
    rolls = [e for e in state.events if e.type == "roll"]
    # guard has a champion (warden, rating 2), raiders none: guard rolls twice, raiders once.
    labels = [r.data["label"] for r in rolls][:3]
    assert labels == ["setup roll of guard", "setup roll of guard (champion's second roll)", "setup roll of raiders"]
    setup = next(e for e in state.events if e.type == "setup")
    best = max(rolls[0].data["result"], rolls[1].data["result"])
    assert setup.data["rolls"]["guard"] == best


def test_m08_025_tie_goes_to_the_higher_champion_rating():
    """M08-025: on equal rolls the higher champion rating wins."""
    import skirmish.rulesets.ddm2008.setup as setup_mod

    state = game()
    # Replay the roll with forced dice: guard 12 (then 5, keeps 12), raiders 12: a tie.
    state.dice = Dice(0, [12, 5, 12])
    assert setup_mod.setup_roll(state) == "guard"


def test_m08_026_winner_chooses_the_map_then_the_opponent_the_start_area():
    """M08-026: the setup-roll winner picks which of the two maps is used; the opponent picks a start
    area; the winner places first, in the other area."""
    state = game()
    winner = state.setup_winner
    other = next(s for s in state.sides() if s != winner)
    assert state.current_side == winner
    assert {a.map for a in state.legal_actions()} == set(MAPS)
    state.apply(ChooseMap(state.current_actor, map="gloomwater-cistern"))
    assert state.grid is shipped_maps()["gloomwater-cistern"].grid
    assert state.current_side == other
    assert {a.area for a in state.legal_actions()} == {"a", "b"}
    state.apply(ChooseStart(state.current_actor, area="a"))
    assert state.letters == {other: "a", winner: "b"}
    assert state.current_side == winner  # the winner places first
    assert all(isinstance(a, Place) for a in state.legal_actions())


def test_m08_027_placement_wholly_inside_the_start_area_never_on_walls_pits_or_statues():
    """M08-027: no wall, pit or statue square; a multi-square creature wholly inside its start area."""
    state = game()
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    while state.phase == "place":
        c = state.creatures[state.current_actor]
        area = start_squares(state.grid, state.letters[c.side])
        options = placements(state, c)
        assert options
        for at in options:
            for sq in footprint(at, c.size):
                assert sq in area
                kind = state.grid.kind(sq)
                assert kind.entry == "all" and "pit" not in kind.tags and "statue" not in kind.tags
        with pytest.raises(IllegalActionError) as e:
            state.apply(Place(c.id, at=(0, 0)))  # (0, 0) is the wall in the map's corner
        assert e.value.rule == "M08-027"
        state.apply(Place(c.id, at=options[0]))
    assert state.phase == "choose_first"  # placed: round 1 starts with initiative (M08-029)
    assert all(c.status == "active" for c in state.creatures.values())


def test_m08_027_a_full_start_area_places_as_near_as_it_can():
    """M08-027: when the start area is full, the creature goes as near to it as it can."""
    many = ["gloomfang-goblin"] * 60
    state = game(warbands=[("guard", GUARD), ("horde", many)])
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    outside = 0
    while state.phase == "place":
        c = state.creatures[state.current_actor]
        area = start_squares(state.grid, state.letters[c.side])
        options = placements(state, c)
        if not any(o in area for o in options):
            outside += 1
        state.apply(Place(c.id, at=options[0]))
    assert outside > 0


def test_m08_160_sealed_warbands_ignore_faction_and_keep_the_point_limit():
    """M08-160: Sealed warbands are built from random boosters within 200 points; no faction or
    alignment limits; the format's count and cost limits still hold."""
    cards = catalog("ddm2008")
    for seed in range(10):
        names = sealed_warband(seed)
        assert names and len(names) <= 10
        assert sum(int(cards[n].stats["cost"]) for n in names) <= 200
        assert all(int(cards[n].stats["cost"]) <= 150 for n in names)
    assert sealed_warband(4) == sealed_warband(4)


def test_m08_113_explicit_decisions_decline_an_opportunity_attack():
    """M08-113 with the scenario format's ``decisions`` list: an allowed opportunity attack is made under
    ``auto`` and not made when the creature's decision is ``decline``."""
    import textwrap

    from skirmish.scenario.loader import load_scenario_text
    from skirmish.scenario.runner import run

    text = textwrap.dedent("""
        ruleset: ddm2008
        start: {first_side: x}
        map: {rows: "....\\n....\\n...."}
        creatures:
          - {id: m, side: x, at: [1, 1], stats: {speed: 4}}
          - {id: g, side: y, at: [2, 1], stats: {attacks: [{name: claw, bonus: 5, damage: "5"}]}}
        steps:
          - {actor: m, do: move, to: [0, 0]}
        dice: [15]
    """)
    auto = run(load_scenario_text(text))
    assert [e["type"] for e in auto["events"]].count("opportunity") == 1
    assert auto["creatures"]["m"]["hp"] == 5
    declined = run(load_scenario_text(text + "decisions:\n  - {actor: g, do: decline}\n"))
    assert [e["type"] for e in declined["events"]].count("opportunity") == 0
    assert declined["creatures"]["m"]["hp"] == 10


def test_m08_051_burrow_is_chosen_before_the_move_and_provokes_nothing():
    """M08-051: with a walking and a burrowing speed, the move names its mode; burrowing past an enemy
    provokes no opportunity attack, walking does."""
    import textwrap

    from skirmish.scenario.loader import load_scenario_text
    from skirmish.scenario.runner import run

    text = textwrap.dedent("""
        ruleset: ddm2008
        start: {first_side: x}
        map: {rows: "....\\n....\\n...."}
        creatures:
          - {id: m, side: x, at: [1, 1], stats: {speed: {walk: 4, burrow: 4}}}
          - {id: g, side: y, at: [2, 1], stats: {attacks: [{name: claw, bonus: 5, damage: "5"}]}}
        steps:
          - {actor: m, do: move, to: [0, 0], mode: MODE}
        dice: [15]
    """)
    walked = run(load_scenario_text(text.replace("MODE", "walk")))
    burrowed = run(load_scenario_text(text.replace("MODE", "burrow")))
    assert walked["creatures"]["m"]["hp"] == 5
    assert burrowed["creatures"]["m"]["hp"] == 10 and burrowed["creatures"]["m"]["at"] == [0, 0]


def test_mirror_match_the_same_warband_on_both_sides_gets_distinct_ids():
    """Mirror matches: sides named alike ("howlpack-1", "howlpack-2") still give every creature
    its own id, each on its own side."""
    names = ["greywood-wolf", "greywood-wolf", "gloomfang-goblin"]
    state = new_game([("howlpack-1", names), ("howlpack-2", names)], ["broken-bridge-shrine"], 1)
    ids = list(state.creatures)
    assert len(ids) == 6 == len(set(ids))
    assert sorted(c.side for c in state.creatures.values()) == ["howlpack-1"] * 3 + ["howlpack-2"] * 3
    assert "howlpack-1-greywood-wolf-1" in ids and "howlpack-2-gloomfang-goblin" in ids


def test_two_sides_with_one_name_are_refused():
    with pytest.raises(ContentError, match="different names"):
        new_game([("pack", ["greywood-wolf"]), ("pack", ["greywood-wolf"])], ["broken-bridge-shrine"], 1)
