"""ddm2008 rule tests: rounds and turns, activation, movement, opportunity attacks, teleporters and victory.

Every test plays a small scenario (YAML text) through the scenario runner and checks the exact
answers, events, hit points, positions and refusals; each test names its checklist ids
(``shared/rules/ddm2008.md``).
"""

from __future__ import annotations

import pytest
from ddm_helpers import activations, at, events, hp, play, refused, verbs

# Two creatures a side on an open strip; nobody can reach anybody.
FOUR = """
ruleset: ddm2008
map:
  rows: |
    ........
    ........
creatures:
  - {id: r1, side: red, at: [0, 0], stats: {CHAMP_R}}
  - {id: r2, side: red, at: [0, 1], stats: {}}
  - {id: b1, side: blue, at: [7, 0], stats: {CHAMP_B}}
  - {id: b2, side: blue, at: [7, 1], stats: {}}
"""


def four(champ_r: str = "", champ_b: str = "", tail: str = "") -> str:
    return FOUR.replace("CHAMP_R", champ_r).replace("CHAMP_B", champ_b) + tail


def initiative(out: dict) -> dict:
    return events(out, "initiative")[0]


def rolls(out: dict) -> list[tuple[str, int]]:
    return [(e["label"], e["result"]) for e in events(out, "roll") if e["rule"] == "M08-029"]


# ---------------------------------------------------------------------------------------------
# Initiative (M08-028, M08-029, M08-030)


def test_m08_029_higher_champion_side_rolls_twice_and_keeps_the_better() -> None:
    """M08-029: red (champion 2 vs 1) rolls a d20, then its second d20 at once; blue rolls one."""
    out = play(four("champion: 2", "champion: 1", "dice: [5, 12, 9]\n"))
    assert rolls(out) == [("initiative of red", 5), ("initiative of red (champion's second roll)", 12),
                          ("initiative of blue", 9)]
    assert initiative(out)["winner"] == "red"
    assert initiative(out)["rolls"] == {"red": 12, "blue": 9}


def test_m08_029_second_roll_belongs_to_the_later_side_when_it_has_the_higher_champion() -> None:
    """M08-029: the second d20 follows the first d20 of the side with the higher champion, here blue."""
    out = play(four("champion: 1", "champion: 3", "dice: [15, 4, 16]\n"))
    assert rolls(out) == [("initiative of red", 15), ("initiative of blue", 4),
                          ("initiative of blue (champion's second roll)", 16)]
    assert initiative(out)["winner"] == "blue"
    assert initiative(out)["rolls"] == {"red": 15, "blue": 16}


def test_m08_029_no_champions_one_roll_each() -> None:
    """M08-029: with equal champion ratings (none) each side rolls once; the higher roll wins."""
    out = play(four(tail="dice: [3, 11]\n"))
    assert rolls(out) == [("initiative of red", 3), ("initiative of blue", 11)]
    assert initiative(out)["winner"] == "blue"


def test_m08_029_tie_goes_to_the_higher_champion_without_a_reroll() -> None:
    """M08-029: a tie (10 to 10) goes to the side with the higher champion rating; no die is rerolled."""
    out = play(four("champion: 1", "champion: 2", "dice: [10, 4, 10, 20, 20]\n"))
    assert initiative(out)["winner"] == "blue"
    assert initiative(out)["rolls"] == {"red": 10, "blue": 10}
    assert len(rolls(out)) == 3


def test_m08_029_tie_with_equal_champions_is_rerolled() -> None:
    """M08-029: a tie with equal champion ratings is rolled again: 8-8, then 3-15."""
    out = play(four("champion: 1", "champion: 1", "dice: [8, 8, 3, 15]\n"))
    assert [r for _, r in rolls(out)] == [8, 8, 3, 15]
    assert initiative(out)["winner"] == "blue"
    assert initiative(out)["rolls"] == {"red": 3, "blue": 15}


def test_m08_029_stunned_champion_does_not_count() -> None:
    """M08-029, M08-141: red's only champion is stunned (inactive): no second roll for red, and a tie
    is rerolled, not won by red's rating."""
    text = FOUR.replace("{id: r1, side: red, at: [0, 0], stats: {CHAMP_R}}",
                        "{id: r1, side: red, at: [0, 0], stats: {champion: 3}, conditions: [stunned]}")
    out = play(text.replace("CHAMP_B", "") + "dice: [9, 9, 2, 6]\n")
    assert rolls(out) == [("initiative of red", 9), ("initiative of blue", 9), ("initiative of red", 2),
                          ("initiative of blue", 6)]
    assert initiative(out)["winner"] == "blue"


def test_m08_029_confused_champion_does_not_count() -> None:
    """M08-029, M08-144: a confused champion adds no rating: blue's lower champion now rolls twice."""
    text = FOUR.replace("{id: r1, side: red, at: [0, 0], stats: {CHAMP_R}}",
                        "{id: r1, side: red, at: [0, 0], stats: {champion: 3}, conditions: [confused]}")
    out = play(text.replace("CHAMP_B", "champion: 1") + "dice: [14, 2, 17]\n")
    assert rolls(out) == [("initiative of red", 14), ("initiative of blue", 2),
                          ("initiative of blue (champion's second roll)", 17)]
    assert initiative(out)["winner"] == "blue"


def test_m08_029_dazed_champion_still_counts() -> None:
    """M08-029, M08-139: a dazed champion is not inactive, so its rating still gives the second roll."""
    text = FOUR.replace("{id: r1, side: red, at: [0, 0], stats: {CHAMP_R}}",
                        "{id: r1, side: red, at: [0, 0], stats: {champion: 1}, conditions: [dazed]}")
    out = play(text.replace("CHAMP_B", "") + "dice: [4, 13, 12]\n")
    assert initiative(out)["winner"] == "red"
    assert initiative(out)["rolls"] == {"red": 13, "blue": 12}


DESTROYED_CHAMPION = """
ruleset: ddm2008
map:
  rows: |
    ......
creatures:
  - {id: champ, side: red, at: [0, 0], stats: {champion: 2, hp: 5}}
  - {id: r2, side: red, at: [5, 0], stats: {}}
  - {id: killer, side: blue, at: [1, 0], stats: {attacks: [{name: axe, bonus: 5, damage: "10"}]}}
start: {first_side: blue}
dice: [15, 9, 9, 3, 11]
steps:
  - {actor: killer, do: attack, with: axe, target: champ}
  - {actor: killer, do: end_turn}
  - {actor: r2, do: end_turn}
"""


def test_m08_029_destroyed_champion_does_not_count() -> None:
    """M08-029: red's champion is destroyed in round 1; in round 2 red rolls one die, and the 9-9 tie
    is rerolled (3 to 11) instead of going to red."""
    out = play(DESTROYED_CHAMPION)
    assert out["creatures"]["champ"]["status"] == "dead"
    assert out["round"] == 2
    assert rolls(out) == [("initiative of red", 9), ("initiative of blue", 9), ("initiative of red", 3),
                          ("initiative of blue", 11)]
    assert events(out, "initiative")[-1]["winner"] == "blue"


def test_m08_028_initiative_is_rolled_again_each_round() -> None:
    """M08-028: when every creature has been activated once, a new round starts with a new initiative roll."""
    out = play(four(tail="""\
start: {first_side: red}
dice: [6, 18]
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: r2, do: end_turn}
"""))
    assert out["round"] == 2
    assert activations(out) == ["r1", "b1", "b2", "r2"]
    round_end = events(out, "round_end")
    assert [e["round"] for e in round_end] == [1]
    assert rolls(out) == [("initiative of red", 6), ("initiative of blue", 18)]
    assert events(out, "initiative")[-1]["winner"] == "blue"
    assert out["answers"] == []


def test_m08_030_initiative_winner_chooses_either_side() -> None:
    """M08-030: the winner (red) is asked to choose; choosing blue makes blue's creature act first."""
    out = play(four(tail="""\
dice: [17, 2]
steps:
  - {ask: legal_actions, actor: r1}
  - {actor: r1, do: choose_first, side: blue}
  - {ask: legal_actions, actor: b1}
  - {ask: legal_actions, actor: r1}
"""))
    assert out["answers"][0]["value"] == [{"actor": "r1", "do": "choose_first", "side": "red"},
                                          {"actor": "r1", "do": "choose_first", "side": "blue"}]
    assert out["answers"][1]["value"] == [{"actor": "b1", "do": "activate"}]
    assert out["answers"][2]["value"] == []
    assert events(out, "initiative")[-1]["first_side"] == "blue"
    assert events(out, "initiative")[-1]["rule"] == "M08-030"


def test_m08_030_auto_decision_winner_goes_first() -> None:
    """M08-030: without a choose_first step the winner (blue) goes first; red acting first is refused."""
    err = refused(four(tail="""\
dice: [2, 17]
steps:
  - {actor: r1, do: end_turn}
"""))
    assert (err.index, err.rule) == (0, "M08-031")


def test_m08_030_only_the_winner_chooses() -> None:
    """M08-030: red won the initiative; a blue creature may not make red's choice."""
    err = refused(four(tail="""\
dice: [17, 2]
steps:
  - {actor: b1, do: choose_first, side: blue}
"""))
    assert (err.index, err.rule) == (0, "M08-030")


# ---------------------------------------------------------------------------------------------
# Turns of activations (M08-031, M08-032, M08-034, M08-035)

SIX = """
ruleset: ddm2008
map:
  rows: |
    ........
    ........
    ........
creatures:
  - {id: r1, side: red, at: [0, 0], stats: {}}
  - {id: r2, side: red, at: [0, 1], stats: {}}
  - {id: r3, side: red, at: [0, 2], stats: {}}
  - {id: b1, side: blue, at: [7, 0], stats: {}}
  - {id: b2, side: blue, at: [7, 1], stats: {}}
  - {id: b3, side: blue, at: [7, 2], stats: {}}
start: {first_side: red}
"""


def test_m08_031_m08_032_one_activation_first_then_two_a_turn() -> None:
    """M08-031, M08-032: red goes first with one activation, then blue two, red two, blue its last."""
    out = play(SIX + """\
dice: [20, 1]
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: r2, do: end_turn}
  - {actor: r3, do: end_turn}
  - {actor: b3, do: end_turn}
""")
    assert activations(out) == ["r1", "b1", "b2", "r2", "r3", "b3"]
    assert out["round"] == 2


@pytest.mark.parametrize(("steps", "index"), [
    # the first player's first turn is one activation: r2 after r1 is refused (M08-032)
    (["r1", "r2"], 1),
    # blue's turn is two activations: red may not come back after one (M08-031)
    (["r1", "b1", "r2"], 2),
    # after red's two, blue's turn: red's third creature waits (M08-031)
    (["r1", "b1", "b2", "r2", "r3", "r1"], 5),
])
def test_m08_031_m08_032_acting_out_of_turn_is_refused(steps: list[str], index: int) -> None:
    """M08-031, M08-032: a creature of the side not to act is refused, naming the turn rule."""
    text = SIX + "steps:\n" + "".join(f"  - {{actor: {s}, do: end_turn}}\n" for s in steps)
    err = refused(text)
    assert err.index == index
    assert err.rule in ("M08-031", "M08-032")


def test_m08_031_first_creature_finishes_before_the_second_starts() -> None:
    """M08-031: while r1 is acting, red's other creature cannot be activated."""
    out = play(SIX.replace("first_side: red", "first_side: blue") + """\
steps:
  - {actor: b1, do: end_turn}
  - {actor: r1, do: move, to: [1, 0]}
  - {ask: legal_actions, actor: r2}
""")
    assert out["answers"][0]["value"] == []
    err = refused(SIX.replace("first_side: red", "first_side: blue") + """\
steps:
  - {actor: b1, do: end_turn}
  - {actor: r1, do: move, to: [1, 0]}
  - {actor: r2, do: activate}
""")
    assert (err.index, err.rule) == (2, "M08-031")


def test_m08_032_first_player_has_one_activation_in_every_round() -> None:
    """M08-032: in round 2 the first player (red again) again activates only one creature first."""
    out = play(SIX + """\
dice: [20, 1]
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: r2, do: end_turn}
  - {actor: r3, do: end_turn}
  - {actor: b3, do: end_turn}
  - {actor: r3, do: end_turn}
  - {ask: legal_actions, actor: b2}
  - {ask: legal_actions, actor: r1}
""")
    assert out["round"] == 2
    assert activations(out)[6:] == ["r3"]
    assert out["answers"][0]["value"] == [{"actor": "b2", "do": "activate"}]
    assert out["answers"][1]["value"] == []


def test_m08_028_a_creature_is_activated_once_a_round() -> None:
    """M08-028: r1 acted this round; when red's turn comes again it must activate r2 or r3."""
    err = refused(SIX + """\
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: r1, do: activate}
""")
    assert (err.index, err.rule) == (3, "M08-028")


MANY_VS_ONE = """
ruleset: ddm2008
map:
  rows: |
    ........
    ........
creatures:
  - {id: r1, side: red, at: [0, 0], stats: {}}
  - {id: r2, side: red, at: [0, 1], stats: {}}
  - {id: r3, side: red, at: [1, 0], stats: {}}
  - {id: r4, side: red, at: [1, 1], stats: {}}
  - {id: b1, side: blue, at: [7, 0], stats: {}}
start: {first_side: red}
dice: [20, 1]
"""


def test_m08_034_side_with_creatures_left_activates_them_all() -> None:
    """M08-034: blue's only creature ends blue's turn; red then activates its three others in one turn."""
    out = play(MANY_VS_ONE + """\
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: r2, do: end_turn}
  - {actor: r3, do: end_turn}
  - {ask: legal_actions, actor: r4}
  - {actor: r4, do: end_turn}
""")
    assert activations(out) == ["r1", "b1", "r2", "r3", "r4"]
    assert out["answers"][0]["value"] == [{"actor": "r4", "do": "activate"}]
    assert out["round"] == 2
    assert [e["round"] for e in events(out, "round_end")] == [1]


def test_m08_034_one_creature_left_ends_the_turn_after_it() -> None:
    """M08-034: red (2) against blue (3), red first: r1 | b1 b2 | r2 (its last, the turn ends) | b3."""
    text = SIX.replace("  - {id: r3, side: red, at: [0, 2], stats: {}}\n", "")
    out = play(text + """\
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: r2, do: end_turn}
  - {ask: legal_actions, actor: b3}
  - {actor: b3, do: end_turn}
""")
    assert activations(out) == ["r1", "b1", "b2", "r2", "b3"]
    assert out["answers"][0]["value"] == [{"actor": "b3", "do": "activate"}]
    assert out["round"] == 2


def test_m08_035_a_creature_can_be_activated_and_do_nothing() -> None:
    """M08-035: activating and ending the turn at once is legal; the creature counts as activated."""
    out = play(SIX + """\
steps:
  - {actor: r1, do: activate}
  - {ask: legal_actions, actor: r1}
  - {actor: r1, do: end_turn}
""")
    assert activations(out) == ["r1"]
    assert at(out, "r1") == [0, 0]
    assert "end_turn" in verbs(out, 0)
    assert events(out, "activate")[0]["rule"] == "M08-031"


def test_m08_035_no_creature_can_be_skipped() -> None:
    """M08-035: while a side is to act its only choices are activations; it cannot pass its turn."""
    out = play(SIX + """\
steps:
  - {actor: r1, do: end_turn}
  - {ask: legal_actions, actor: b1}
  - {ask: legal_actions, actor: b2}
  - {ask: legal_actions, actor: b3}
  - {ask: legal_actions, actor: r2}
""")
    assert [a["value"] for a in out["answers"]] == [
        [{"actor": "b1", "do": "activate"}], [{"actor": "b2", "do": "activate"}],
        [{"actor": "b3", "do": "activate"}], []]


# ---------------------------------------------------------------------------------------------
# Activation: a move action and an attack action (M08-036..M08-039)

# The hero (speed 2, a melee sword) against a dummy with no attacks, so nothing provokes.
DUEL = """
ruleset: ddm2008
map:
  rows: |
    ........
    ........
creatures:
  - {id: hero, side: red, at: [HERO], stats: {speed: 2, attacks: [{name: sword, bonus: 5, damage: "5"}]}}
  - {id: dummy, side: blue, at: [4, 0], stats: {hp: 20}}
start: {first_side: red}
dice: [15, 15]
steps:
"""


def duel(hero: str, steps: str) -> str:
    return DUEL.replace("HERO", hero) + steps


def test_m08_036_move_then_attack() -> None:
    """M08-036: move 2 squares, then attack the dummy that is now adjacent."""
    out = play(duel("1, 0", """\
  - {actor: hero, do: move, to: [3, 0]}
  - {actor: hero, do: attack, with: sword, target: dummy}
"""))
    assert at(out, "hero") == [3, 0]
    attack = events(out, "attack")[0]
    assert (attack["roll"], attack["total"], attack["hit"]) == (15, 20, True)
    assert hp(out, "dummy") == 15


def test_m08_036_m08_039_attack_then_move() -> None:
    """M08-036, M08-039: attacking first and moving afterwards is allowed."""
    out = play(duel("3, 0", """\
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {actor: hero, do: move, to: [1, 1]}
"""))
    assert hp(out, "dummy") == 15
    assert at(out, "hero") == [1, 1]
    assert [e["type"] for e in events(out) if e["type"] in ("attack", "move")] == ["attack", "move"]


def test_m08_036_attack_then_move_then_no_second_move() -> None:
    """M08-036: after attacking and moving, both actions are spent: a further move is refused."""
    err = refused(duel("3, 0", """\
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {actor: hero, do: move, to: [2, 1]}
  - {actor: hero, do: move, to: [0, 1]}
"""))
    assert err.index == 2
    assert err.rule in ("M08-036", "M08-038")


def test_m08_036_one_attack_action() -> None:
    """M08-036: a second attack in the same activation is refused."""
    err = refused(duel("3, 0", """\
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {actor: hero, do: attack, with: sword, target: dummy}
"""))
    assert (err.index, err.rule) == (1, "M08-036")


def test_m08_037_shift_is_a_move_action() -> None:
    """M08-037, M08-055: shifting one square spends the move action: attack after it, then no move."""
    out = play(duel("2, 1", """\
  - {actor: hero, do: shift, to: [3, 1]}
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {ask: legal_actions, actor: hero}
"""))
    assert at(out, "hero") == [3, 1]
    assert events(out, "shift")[0]["rule"] == "M08-055"
    assert hp(out, "dummy") == 15
    assert verbs(out) == {"end_turn"}


def test_m08_037_shift_is_one_square_only() -> None:
    """M08-037, M08-055: a shift of two squares is refused."""
    err = refused(duel("0, 0", "  - {actor: hero, do: shift, to: [2, 0]}\n"))
    assert (err.index, err.rule) == (0, "M08-055")


def test_m08_038_attack_action_taken_as_a_second_move() -> None:
    """M08-038: two moves of 2 squares (the attack action used as a move); then no attack is left."""
    out = play(duel("0, 1", """\
  - {actor: hero, do: move, to: [2, 1]}
  - {actor: hero, do: move, to: [3, 0]}
  - {ask: legal_actions, actor: hero}
"""))
    assert at(out, "hero") == [3, 0]
    assert verbs(out) == {"end_turn"}
    err = refused(duel("0, 1", """\
  - {actor: hero, do: move, to: [2, 1]}
  - {actor: hero, do: move, to: [3, 0]}
  - {actor: hero, do: attack, with: sword, target: dummy}
"""))
    assert (err.index, err.rule) == (2, "M08-036")


def test_m08_038_no_third_move() -> None:
    """M08-036, M08-038: a move action plus the attack action as a move: a third move is refused."""
    err = refused(duel("0, 1", """\
  - {actor: hero, do: move, to: [1, 1]}
  - {actor: hero, do: move, to: [2, 1]}
  - {actor: hero, do: move, to: [3, 1]}
"""))
    assert err.index == 2
    assert err.rule in ("M08-036", "M08-038")


@pytest.mark.parametrize("verb", ["move", "shift"])
def test_m08_039_no_move_after_move_then_attack(verb: str) -> None:
    """M08-039: after moving and then attacking, neither a move nor a shift is allowed."""
    err = refused(duel("1, 0", f"""\
  - {{actor: hero, do: move, to: [3, 0]}}
  - {{actor: hero, do: attack, with: sword, target: dummy}}
  - {{actor: hero, do: {verb}, to: [3, 1]}}
"""))
    assert (err.index, err.rule) == (2, "M08-039")


def test_m08_039_attack_then_shift_allowed() -> None:
    """M08-039: attack first, then shift away."""
    out = play(duel("3, 0", """\
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {actor: hero, do: shift, to: [2, 0]}
"""))
    assert at(out, "hero") == [2, 0]
    assert hp(out, "dummy") == 15


def test_legal_actions_through_an_activation() -> None:
    """M08-036..M08-039: the verbs offered at each moment of an activation."""
    out = play(duel("2, 0", """\
  - {actor: hero, do: activate}
  - {ask: legal_actions, actor: hero}
  - {actor: hero, do: move, to: [3, 1]}
  - {ask: legal_actions, actor: hero}
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {ask: legal_actions, actor: hero}
  - {ask: legal_actions, actor: dummy}
"""))
    assert verbs(out, 0) == {"move", "shift", "end_turn"}
    assert verbs(out, 1) == {"move", "shift", "attack", "end_turn"}
    assert {"actor": "hero", "do": "attack", "with": "sword", "target": "dummy"} in out["answers"][1]["value"]
    assert verbs(out, 2) == {"end_turn"}
    assert out["answers"][3]["value"] == []


def test_legal_actions_after_attack_first() -> None:
    """M08-039: after an attack the creature may still move or shift, and nothing else but end its turn."""
    out = play(duel("3, 0", """\
  - {actor: hero, do: attack, with: sword, target: dummy}
  - {ask: legal_actions, actor: hero}
"""))
    assert verbs(out) == {"move", "shift", "end_turn"}
    moves = [a["to"] for a in out["answers"][0]["value"] if a["do"] == "move"]
    assert [5, 1] in moves and [1, 0] in moves and [0, 0] not in moves


# ---------------------------------------------------------------------------------------------
# Movement (M08-040..M08-050)


def mover(rows: str, mover_at: str, stats: str = "{}", others: str = "", steps: str = "", extra: str = "") -> str:
    """A red mover on a small map, optionally with other creatures; a blue dummy far away keeps blue in play."""
    body = "".join(f"    {r}\n" for r in rows.split())
    return (f"ruleset: ddm2008\nmap:\n  rows: |\n{body}creatures:\n"
            f"  - {{id: m, side: red, at: [{mover_at}], stats: {stats}}}\n{others}"
            f"start: {{first_side: red}}\n{extra}steps:\n{steps}")


def reach(out: dict, index: int = 0) -> dict[tuple[int, int], int]:
    return {tuple(sq): cost for sq, cost in out["answers"][index]["value"]}


FAR = "  - {id: far, side: blue, at: [FAR], stats: {}}\n"


def test_m08_040_diagonal_costs_one() -> None:
    """M08-040: on open ground every square within 3 king's moves is reachable with speed 3, at that cost."""
    out = play(mover("..... ..... ..... ..... ....#", "0, 0", "{speed: 3}", FAR.replace("FAR", "4, 3"),
                     "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [3, 3]}\n"))
    costs = reach(out)
    assert costs[(3, 3)] == 3
    assert costs[(1, 1)] == 1
    assert costs[(2, 1)] == 2
    assert (4, 4) not in costs and (4, 0) not in costs
    assert len(costs) == 15  # the 4x4 block minus its own square
    assert at(out, "m") == [3, 3]


def test_m08_040_beyond_speed_is_refused() -> None:
    """M08-040, M08-037: four squares away (diagonally) is beyond speed 3."""
    err = refused(mover("..... ..... ..... ..... .....", "0, 0", "{speed: 3}", FAR.replace("FAR", "4, 0"),
                        "  - {actor: m, do: move, to: [4, 4]}\n"))
    assert err.index == 0
    assert err.rule in ("M08-037", "M08-042")


def test_m08_041_fewer_squares_than_speed() -> None:
    """M08-041: speed 6, move one square and stop."""
    out = play(mover("......", "0, 0", "{speed: 6}", FAR.replace("FAR", "5, 0"),
                     "  - {actor: m, do: move, to: [1, 0]}\n"))
    assert at(out, "m") == [1, 0]
    assert events(out, "move")[0]["path"] == [[1, 0]]


@pytest.mark.parametrize(("rows", "to", "rules"), [
    ("..#...", "2, 0", ("M08-042", "M08-132")),        # a wall
    ("..I...", "2, 0", ("M08-042", "M08-130")),        # a statue: crossed, never held
    ("..O...", "2, 0", ("M08-042", "M08-125")),        # a pit: flyers only
])
def test_m08_042_illegal_end_square(rows: str, to: str, rules: tuple[str, ...]) -> None:
    """M08-042: a move may not end on a wall, a statue or (for a walker) a pit."""
    err = refused(mover(rows, "0, 0", "{speed: 6}", FAR.replace("FAR", "5, 0"),
                        f"  - {{actor: m, do: move, to: [{to}]}}\n"))
    assert err.index == 0
    assert err.rule in rules


def test_m08_042_m08_046_no_stopping_in_an_ally() -> None:
    """M08-042, M08-046: the mover may not end its move in an ally's square."""
    err = refused(mover("......", "0, 0", "{speed: 6}", "  - {id: pal, side: red, at: [2, 0], stats: {}}\n"
                        + FAR.replace("FAR", "5, 0"), "  - {actor: m, do: move, to: [2, 0]}\n"))
    assert err.index == 0
    assert err.rule in ("M08-042", "M08-046")


def test_m08_046_through_an_ally() -> None:
    """M08-046: along a one-row corridor the mover passes its ally's square and ends beyond it."""
    out = play(mover("......", "0, 0", "{speed: 6}", "  - {id: pal, side: red, at: [1, 0], stats: {}}\n"
                     + FAR.replace("FAR", "5, 0"), "  - {ask: reachable, actor: m}\n"
                     "  - {actor: m, do: move, to: [3, 0]}\n"))
    assert reach(out) == {(2, 0): 2, (3, 0): 3, (4, 0): 4}
    assert at(out, "m") == [3, 0]
    assert events(out, "move")[0]["path"] == [[1, 0], [2, 0], [3, 0]]


def test_m08_046_not_through_an_enemy() -> None:
    """M08-046: along a one-row corridor an enemy's square blocks the way: nothing beyond it is reachable."""
    text = mover("......", "0, 0", "{speed: 6}", "  - {id: foe, side: blue, at: [2, 0], stats: {}}\n",
                 "  - {ask: reachable, actor: m}\n")
    assert reach(play(text)) == {(1, 0): 1}
    err = refused(text + "  - {actor: m, do: move, path: [[1, 0], [2, 0], [3, 0]]}\n")
    assert err.index == 1
    assert err.rule == "M08-046"


IMMOBILIZER = ("  - {id: pal, side: red, at: [1, 0], stats: {}}\n"
               "  - {id: foe, side: blue, at: [2, 1], stats: {attacks: [{name: net, bonus: 5, damage: '5', "
               "effects: [immobilized]}]}}\n")


def test_m08_043_m08_120_stopped_in_an_illegal_square_goes_back() -> None:
    """M08-043, M08-120: the mover passes through its ally's square; leaving it provokes foe, whose net
    immobilizes it there: it goes back to the last legal square it passed, its start."""
    out = play(mover("..... .....", "0, 0", "{speed: 6, hp: 20}", IMMOBILIZER,
                     "  - {actor: m, do: move, path: [[1, 0], [2, 0], [3, 0]]}\n", extra="dice: [15]\n"))
    assert at(out, "m") == [0, 0]
    assert at(out, "pal") == [1, 0]
    assert hp(out, "m") == 15
    assert "immobilized" in out["creatures"]["m"]["conditions"]
    assert [e["actor"] for e in events(out, "opportunity")] == ["foe"]
    back = events(out, "move")[-1]
    assert back["rule"] == "M08-043"
    assert back["to"] == [0, 0]


def test_m08_045_always_one_square_into_difficult_terrain() -> None:
    """M08-045: with speed 1 the creature still steps into a difficult square (cost 2), diagonals too."""
    out = play(mover("~~. ~.. ...", "1, 1", "{speed: 1}", FAR.replace("FAR", "2, 2"),
                     "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [0, 0]}\n"))
    costs = reach(out)
    # all of its movement is spent on the step (the engine reports the speed, 1, as the cost)
    assert all(costs.get(sq) in (1, 2) for sq in [(0, 0), (1, 0), (0, 1)])
    assert costs[(2, 1)] == 1
    assert len(costs) == 7
    assert at(out, "m") == [0, 0]


def test_m08_045_one_square_does_not_pass_walls_or_cut_corners() -> None:
    """M08-045, M08-048: the one-square minimum neither enters a wall nor cuts a wall's corner."""
    out = play(mover(".#. ... ...", "0, 0", "{speed: 1}", FAR.replace("FAR", "2, 2"),
                     "  - {ask: reachable, actor: m}\n"))
    assert reach(out) == {(0, 1): 1}


def test_m08_045_no_minimum_when_movement_is_prevented() -> None:
    """M08-045, M08-143: an immobilized creature cannot move even one square."""
    text = mover("...", "0, 0", "{speed: 6}", FAR.replace("FAR", "2, 0"),
                 "  - {actor: m, do: move, to: [1, 0]}\n").replace(
        "stats: {speed: 6}}", "stats: {speed: 6}, conditions: [immobilized]}")
    err = refused(text)
    assert err.index == 0
    assert err.rule in ("M08-143", "M08-045")


def test_m08_045_slowed_still_one_square() -> None:
    """M08-045, M08-146: slowed (speed 2) next to difficult terrain: one step in for 2, no further."""
    text = mover(".~~~", "0, 0", "{speed: 6}", FAR.replace("FAR", "3, 0"),
                 "  - {ask: reachable, actor: m}\n").replace(
        "stats: {speed: 6}}", "stats: {speed: 6}, conditions: [slowed]}")
    assert reach(play(text)) == {(1, 0): 2}


def test_m08_048_no_diagonal_past_a_wall_corner() -> None:
    """M08-048: from [0, 0] to [1, 1] beside the wall at [1, 0] costs 2 (round the corner); the diagonal
    step itself is refused."""
    text = mover(".#. ... ...", "0, 0", "{speed: 6}", FAR.replace("FAR", "2, 2"),
                 "  - {ask: reachable, actor: m}\n")
    out = play(text + "  - {actor: m, do: move, to: [1, 1]}\n")
    assert reach(out)[(1, 1)] == 2
    assert events(out, "move")[0]["path"] == [[0, 1], [1, 1]]
    err = refused(text + "  - {actor: m, do: move, path: [[1, 1]]}\n")
    assert err.index == 1
    assert err.rule == "M08-048"


@pytest.mark.parametrize("glyph", ["J", "/"])
def test_m08_049_diagonal_past_a_diagonal_walls_corner(glyph: str) -> None:
    """M08-049: with a diagonal wall at [1, 0] (its corner at the point [1, 1]) the diagonal step from
    [0, 0] to [1, 1] is allowed and costs 1."""
    text = mover(f".{glyph}. ... ...", "0, 0", "{speed: 6}", FAR.replace("FAR", "2, 2"),
                 "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, path: [[1, 1]]}\n")
    out = play(text)
    assert reach(out)[(1, 1)] == 1
    assert at(out, "m") == [1, 1]


def test_m08_050_m08_121_difficult_terrain_costs_two_and_can_be_ended_in() -> None:
    """M08-050, M08-121: along a corridor, the difficult square costs 2; the mover may stop on it."""
    text = mover("..~...", "0, 0", "{speed: 3}", FAR.replace("FAR", "5, 0"),
                 "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [2, 0]}\n")
    out = play(text)
    assert reach(out) == {(1, 0): 1, (2, 0): 3}
    assert at(out, "m") == [2, 0]


def test_m08_132_walls_block_movement_and_distance_goes_round() -> None:
    """M08-132, M08-090: a wall can't be crossed; the way round is counted (4 squares)."""
    text = mover(".#. .#. ...", "0, 0", "{speed: 3}", FAR.replace("FAR", "2, 0"),
                 "  - {ask: reachable, actor: m}\n  - {ask: distance, from: m, to: far}\n")
    out = play(text)
    assert (2, 1) not in reach(out)
    assert reach(out)[(1, 2)] == 3  # (0, 1), (0, 2), (1, 2): no corner cutting
    assert out["answers"][1]["value"] == 4
    err = refused(text + "  - {actor: m, do: move, path: [[1, 0], [2, 1]]}\n")
    assert err.index == 2
    assert err.rule in ("M08-132", "M08-042", "M08-048")


# ---------------------------------------------------------------------------------------------
# Special movement (M08-051..M08-056)

CLUB = "{attacks: [{name: club, bonus: 5, damage: '5'}]}"


def opportunity_attackers(out: dict) -> list[str]:
    return [e["actor"] for e in events(out, "opportunity")]


def test_m08_051_burrow_passes_enemies_ignores_terrain_and_provokes_nothing() -> None:
    """M08-051, M08-056: a burrower (walk 1, burrow 5) beside an enemy burrows through it and over
    difficult terrain, 5 squares for 5, without an opportunity attack."""
    text = mover(".~~~..", "0, 0", "{speed: {walk: 1, burrow: 5}, hp: 20}",
                 f"  - {{id: foe, side: blue, at: [1, 0], stats: {CLUB}}}\n",
                 "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [5, 0]}\n", extra="dice: [15]\n")
    out = play(text)
    assert reach(out) == {(2, 0): 2, (3, 0): 3, (4, 0): 4, (5, 0): 5}
    assert at(out, "m") == [5, 0]
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


def test_m08_052_flight_over_non_flying_enemy_unslowed() -> None:
    """M08-052, M08-056: a flyer (F4) crosses a non-flying enemy and difficult terrain at 1 a square."""
    out = play(mover(".~.~..", "0, 0", "{speed: F4}", "  - {id: foe, side: blue, at: [2, 0], stats: {}}\n",
                     "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [4, 0]}\n"))
    assert reach(out) == {(1, 0): 1, (3, 0): 3, (4, 0): 4}
    assert at(out, "m") == [4, 0]


def test_m08_052_flight_not_over_flying_enemy_nor_through_walls() -> None:
    """M08-052: a flying enemy blocks a flyer; so does a wall."""
    text = mover("..#...", "0, 0", "{speed: F6}", "  - {id: foe, side: blue, at: [5, 0], stats: {speed: F6}}\n",
                 "  - {ask: reachable, actor: m}\n")
    assert reach(play(text)) == {(1, 0): 1}
    text = mover("......", "0, 0", "{speed: F6}", "  - {id: foe, side: blue, at: [2, 0], stats: {speed: F6}}\n",
                 "  - {ask: reachable, actor: m}\n")
    assert reach(play(text)) == {(1, 0): 1}


FLIGHT_OAS = (f"  - {{id: walker1, side: blue, at: [0, 1], stats: {CLUB}}}\n"
              f"  - {{id: walker2, side: blue, at: [3, 1], stats: {CLUB}}}\n"
              "  - {id: wyvern, side: blue, at: [6, 1], stats: {speed: F6, attacks: [{name: bite, bonus: 5, "
              "damage: '5'}]}}\n")


def test_m08_053_flight_provokes_non_flyers_only_on_its_first_square() -> None:
    """M08-053, M08-115: flying along the top row, the flyer provokes walker1 when it takes off, not walker2
    later, but the flying wyvern when it leaves a square beside it."""
    out = play(mover(".......... ..........", "0, 0", "{speed: F8, hp: 30}", FLIGHT_OAS,
                     "  - {actor: m, do: move, path: [[1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0], [7, 0], "
                     "[8, 0]]}\n", extra="dice: [15, 15]\n"))
    assert opportunity_attackers(out) == ["walker1", "wyvern"]
    assert at(out, "m") == [8, 0]
    assert hp(out, "m") == 20


def test_m08_054_phasing_passes_enemies_and_still_provokes() -> None:
    """M08-054: a phasing creature moves through the enemy beside it (and over difficult terrain at 1 a
    square), but leaving the enemy's side provokes."""
    out = play(mover("..~...", "0, 0", "{speed: 4, hp: 20, abilities: {phasing: true}}",
                     f"  - {{id: foe, side: blue, at: [1, 0], stats: {CLUB}}}\n",
                     "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [4, 0]}\n", extra="dice: [15]\n"))
    assert reach(out) == {(2, 0): 2, (3, 0): 3, (4, 0): 4}
    assert at(out, "m") == [4, 0]
    assert opportunity_attackers(out) == ["foe"]
    assert hp(out, "m") == 15


def test_m08_054_phasing_must_end_in_a_legal_square() -> None:
    """M08-054, M08-042: a phasing creature may not end its move on the enemy."""
    err = refused(mover("......", "0, 0", "{speed: 4, abilities: {phasing: true}}",
                        "  - {id: foe, side: blue, at: [2, 0], stats: {}}\n",
                        "  - {actor: m, do: move, to: [2, 0]}\n"))
    assert err.index == 0
    assert err.rule in ("M08-042", "M08-054")


def test_m08_055_shift_provokes_nothing() -> None:
    """M08-055, M08-115: shifting away from an adjacent enemy provokes no opportunity attack."""
    out = play(mover("... ...", "1, 0", "{hp: 20}", f"  - {{id: foe, side: blue, at: [2, 0], stats: {CLUB}}}\n",
                     "  - {actor: m, do: shift, to: [0, 1]}\n", extra="dice: [15]\n"))
    assert at(out, "m") == [0, 1]
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


def test_m08_055_shift_not_into_difficult_terrain() -> None:
    """M08-055: the shift squares leave out difficult terrain, walls and occupied squares."""
    text = mover("~.# ..~ ...", "1, 1", "{}", "  - {id: pal, side: red, at: [0, 2], stats: {}}\n"
                 + FAR.replace("FAR", "2, 2"), "  - {actor: m, do: activate}\n  - {ask: legal_actions, actor: m}\n")
    out = play(text)
    shifts = sorted(a["to"] for a in out["answers"][0]["value"] if a["do"] == "shift")
    assert shifts == [[0, 1], [1, 0], [1, 2]]
    err = refused(text + "  - {actor: m, do: shift, to: [2, 1]}\n")
    assert (err.index, err.rule) == (2, "M08-055")


def test_m08_055_m08_048_shift_not_round_a_wall_corner() -> None:
    """M08-055, M08-048: the shift square must be unobstructed: not diagonally past a wall's corner."""
    err = refused(mover(".#. ...", "0, 0", "{}", FAR.replace("FAR", "2, 0"), "  - {actor: m, do: shift, to: [1, 1]}\n"))
    assert err.index == 0
    assert err.rule in ("M08-055", "M08-048")


# ---------------------------------------------------------------------------------------------
# Large creatures (M08-057..M08-059)

BIG = "{size: large, speed: 6}"


def test_m08_057_large_footprint_may_not_pass_an_enemy() -> None:
    """M08-057: on a 3-row strip every 2x2 footprint reaching column 3 holds [3, 1]: an enemy there stops
    the large creature; an ally there does not."""
    blocked = play(mover("...... ...... ......", "0, 0", BIG, "  - {id: foe, side: blue, at: [3, 1], stats: {}}\n",
                         "  - {ask: reachable, actor: m}\n"))
    assert max(x for x, _ in reach(blocked)) == 1
    passed = play(mover("...... ...... ......", "0, 0", BIG, "  - {id: pal, side: red, at: [3, 1], stats: {}}\n"
                        + FAR.replace("FAR", "5, 0").replace("[5, 0]", "[0, 2]"),
                        "  - {ask: reachable, actor: m}\n  - {actor: m, do: move, to: [4, 0]}\n"))
    assert reach(passed)[(4, 0)] == 4
    assert at(passed, "m") == [4, 0]


def test_m08_058_large_leaving_difficult_terrain_ignores_its_start_squares() -> None:
    """M08-058: a 2x2 creature on two difficult squares moves one square right into clear squares: cost 1.
    The seed's figure lost its coordinates (GAP-M08-9): these satisfy its caption."""
    out = play(mover("~~.. ~~.. ....", "0, 0", BIG, FAR.replace("FAR", "3, 2"), "  - {ask: reachable, actor: m}\n"))
    assert reach(out)[(1, 0)] == 1
    assert reach(out)[(2, 0)] == 2


def test_m08_059_large_entering_difficult_terrain_is_slowed() -> None:
    """M08-059: a 2x2 creature stepping right so that one new square is difficult pays 2."""
    out = play(mover("..~. .... ....", "0, 0", BIG, FAR.replace("FAR", "3, 2"), "  - {ask: reachable, actor: m}\n"))
    assert reach(out)[(1, 0)] == 2
    assert reach(out)[(0, 1)] == 1


# ---------------------------------------------------------------------------------------------
# Opportunity attacks (M08-113..M08-120, M08-080, M08-083, M08-087, M08-139..M08-142)

GUARD = ("{hp: 30, attacks: [{name: club, bonus: 5, damage: '5'}, {name: maul, bonus: 10, damage: '25'}]}")
SHOOTER = ("{hp: 20, attacks: [{name: stab, bonus: 5, damage: '5'}, {name: bolt, kind: ranged, range: 10, bonus: 5, "
           "damage: '5'}, {name: fireball, kind: area, range: 10, area: radius 1, bonus: 5, damage: '5'}, "
           "{name: nova, kind: close, area: burst 1, bonus: 5, damage: '5'}]}")


def oa(rows: str, mover_at: str, others: str, steps: str, dice: str = "[15, 15, 15, 15]",
       stats: str = "{hp: 20}") -> dict:
    return play(mover(rows, mover_at, stats, others, steps, extra=f"dice: {dice}\n"))


def test_m08_113_m08_114_leaving_an_adjacent_square_provokes_a_free_basic_attack() -> None:
    """M08-113, M08-114: moving away from the guard provokes its basic attack (the club, not the maul)."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [0, 1]}\n")
    assert opportunity_attackers(out) == ["guard"]
    assert events(out, "opportunity")[0]["rule"] == "M08-113"
    attack = events(out, "attack")[0]
    assert (attack["actor"], attack["with"], attack["opportunity"], attack["total"]) == ("guard", "club", True, 20)
    assert hp(out, "m") == 15
    assert at(out, "m") == [0, 1]


def test_m08_113_the_opportunity_attack_costs_no_action() -> None:
    """M08-113: the guard made an opportunity attack in red's turn; in its own turn it still attacks."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n", """\
  - {actor: m, do: move, to: [1, 1]}
  - {actor: m, do: end_turn}
  - {actor: guard, do: attack, with: maul, target: m}
""")
    assert [e["with"] for e in events(out, "attack")] == ["club", "maul"]
    assert out["creatures"]["m"]["status"] == "dead"


def test_m08_114_moving_from_one_adjacent_square_to_another_provokes() -> None:
    """M08-114: leaving [1, 0] for [1, 1], both next to the guard at [2, 0], still leaves an adjacent square."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [1, 1]}\n")
    assert opportunity_attackers(out) == ["guard"]


def test_m08_114_approaching_does_not_provoke() -> None:
    """M08-114: moving up to the guard leaves no square adjacent to it: no opportunity attack."""
    out = oa("......", "0, 0", f"  - {{id: guard, side: blue, at: [3, 0], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [2, 0]}\n")
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


@pytest.mark.parametrize("condition", ["dazed", "stunned", "helpless", "confused"])
def test_m08_139_to_m08_142_disabled_creatures_make_no_opportunity_attacks(condition: str) -> None:
    """M08-114, M08-139, M08-141, M08-142 (and confused, GAP-M08-3): no opportunity attack from such a guard."""
    out = oa("..... .....", "1, 0",
             f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}, conditions: [{condition}]}}\n",
             "  - {actor: m, do: move, to: [0, 1]}\n")
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


def test_m08_115_push_provokes_nothing() -> None:
    """M08-115: m hits foe and pushes it 1 square away from m and from m's ally: no opportunity attacks."""
    pusher = "{attacks: [{name: shove, bonus: 5, damage: '5', effects: [push 1]}]}"
    out = oa("..... .....", "0, 0", f"  - {{id: pal, side: red, at: [1, 1], stats: {GUARD}}}\n"
             f"  - {{id: foe, side: blue, at: [1, 0], stats: {{hp: 20}}}}\n",
             "  - {actor: m, do: attack, with: shove, target: foe}\n", stats=pusher)
    assert at(out, "foe") in ([2, 0], [2, 1])
    assert events(out, "forced_move")[0]["rule"] == "M08-115"
    assert opportunity_attackers(out) == []
    assert hp(out, "foe") == 15


@pytest.mark.parametrize(("attack", "target", "provokes"), [
    ("bolt", "target: far", True),              # ranged: M08-081, M08-116
    ("fireball", "at: [4, 1]", True),           # area: M08-087, M08-116
    ("nova", "", False),                        # close: M08-083
    ("stab", "target: guard", False),           # melee: M08-080
])
def test_m08_116_ranged_and_area_attacks_provoke_close_and_melee_do_not(attack: str, target: str,
                                                                        provokes: bool) -> None:
    """M08-080, M08-083, M08-087, M08-116: attacking while next to the guard."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n"
             "  - {id: far, side: blue, at: [4, 1], stats: {hp: 20}}\n",
             f"  - {{actor: m, do: attack, with: {attack}{', ' + target if target else ''}}}\n", stats=SHOOTER)
    assert opportunity_attackers(out) == (["guard"] if provokes else [])
    assert hp(out, "m") == (15 if provokes else 20)


def test_m08_119_opportunity_attack_resolves_before_the_ranged_attack() -> None:
    """M08-119: the guard's opportunity attack is rolled before m's bolt."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n"
             "  - {id: far, side: blue, at: [4, 1], stats: {hp: 20}}\n",
             "  - {actor: m, do: attack, with: bolt, target: far}\n", dice="[15, 12]", stats=SHOOTER)
    assert [(e["actor"], e["roll"]) for e in events(out, "attack")] == [("guard", 15), ("m", 12)]
    assert hp(out, "far") == 15


def test_m08_119_provoker_destroyed_makes_no_attack() -> None:
    """M08-119, M08-154: the opportunity attack destroys m; its bolt is never rolled; blue scores m's cost."""
    stats = SHOOTER.replace("{hp: 20,", "{hp: 5, cost: 12,")
    out = oa("..... .....", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n"
             "  - {id: far, side: blue, at: [4, 1], stats: {hp: 20}}\n"
             "  - {id: pal, side: red, at: [0, 1], stats: {}}\n",
             "  - {actor: m, do: attack, with: bolt, target: far}\n  - {ask: legal_actions, actor: guard}\n",
             dice="[15, 12]", stats=stats)
    assert out["creatures"]["m"]["status"] == "dead"
    assert [e["actor"] for e in events(out, "attack")] == ["guard"]
    assert hp(out, "far") == 20
    assert out["score"] == {"red": 0, "blue": 12}
    assert out["answers"][0]["value"] == [{"actor": "guard", "do": "activate"}]


def test_m08_118_mover_destroyed_stops_where_it_was() -> None:
    """M08-118: the opportunity attack comes before m leaves its square; m is destroyed there."""
    out = oa("...... ......", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [5, 1]}\n", stats="{hp: 5, cost: 20}")
    assert out["creatures"]["m"]["status"] == "dead"
    assert at(out, "m") == [1, 0]
    assert out["score"]["blue"] == 20
    assert [e["type"] for e in events(out) if e["type"] in ("opportunity", "attack", "destroyed")] == [
        "opportunity", "attack", "destroyed"]


def test_m08_118_mover_survives_and_goes_on() -> None:
    """M08-118: a missed opportunity attack; the move goes on to its end."""
    out = oa("...... ......", "1, 0", f"  - {{id: guard, side: blue, at: [2, 0], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [5, 1]}\n", dice="[2]")
    assert events(out, "attack")[0]["hit"] is False
    assert at(out, "m") == [5, 1]


def test_m08_117_one_opportunity_attack_per_other_creatures_turn() -> None:
    """M08-117: m leaves squares next to the guard three times and then shoots beside it: one opportunity
    attack. In pal's later turn the guard may attack again."""
    out = oa("...... ...... ......", "1, 1", f"  - {{id: pal, side: red, at: [3, 2], stats: {{hp: 20}}}}\n"
             f"  - {{id: guard, side: blue, at: [2, 1], stats: {GUARD}}}\n"
             "  - {id: far, side: blue, at: [5, 0], stats: {hp: 20}}\n", """\
  - {actor: m, do: move, path: [[1, 0], [2, 0], [3, 0]]}
  - {actor: m, do: attack, with: bolt, target: far}
  - {actor: m, do: end_turn}
  - {actor: guard, do: end_turn}
  - {actor: far, do: end_turn}
  - {actor: pal, do: move, to: [4, 2]}
""", dice="[15, 15, 15]", stats=SHOOTER)
    assert opportunity_attackers(out) == ["guard", "guard"]
    assert [e["target"] for e in events(out, "opportunity")] == ["m", "pal"]
    assert at(out, "m") == [3, 0]
    assert hp(out, "m") == 15 and hp(out, "pal") == 15


def test_m08_117_each_enemy_may_make_its_own() -> None:
    """M08-117: leaving two guards at once provokes both."""
    out = oa("..... .....", "1, 0", f"  - {{id: guard1, side: blue, at: [2, 0], stats: {GUARD}}}\n"
             f"  - {{id: guard2, side: blue, at: [0, 1], stats: {GUARD}}}\n",
             "  - {actor: m, do: move, to: [4, 1]}\n")
    assert sorted(opportunity_attackers(out)) == ["guard1", "guard2"]
    assert hp(out, "m") == 10


def test_m08_120_no_line_of_sight_no_opportunity_attack() -> None:
    """M08-120: the guard at [0, 0] and m at [1, 1] touch only at the point where two walls meet: no
    line of sight, so leaving provokes nothing."""
    text = mover(".#.. #... ....", "1, 1", "{hp: 20}", f"  - {{id: guard, side: blue, at: [0, 0], stats: {GUARD}}}\n",
                 "  - {ask: line_of_sight, from: guard, to: m}\n  - {actor: m, do: move, to: [3, 2]}\n",
                 extra="dice: [15]\n")
    out = play(text)
    assert out["answers"][0]["value"] is False
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


def test_m08_120_melee_cover_does_not_prevent_opportunity_attacks() -> None:
    """M08-120, M08-091, M08-093: round the wall corner m has cover from the guard, yet leaving provokes;
    the attack takes the -2 for cover (15 + 5 - 2 = 18)."""
    text = mover(".#.. .... ....", "1, 1", "{hp: 20}", f"  - {{id: guard, side: blue, at: [0, 0], stats: {GUARD}}}\n",
                 "  - {ask: cover, from: guard, to: m, kind: melee}\n  - {actor: m, do: move, to: [3, 1]}\n",
                 extra="dice: [15]\n")
    out = play(text)
    assert out["answers"][0]["value"] == "cover"
    assert opportunity_attackers(out) == ["guard"]
    assert events(out, "attack")[0]["total"] == 18
    assert hp(out, "m") == 15


# ---------------------------------------------------------------------------------------------
# Teleporters (M08-131)

# Teleporters at [0, 0], [5, 0] and [5, 2]; a dummy at [4, 1] next to the far ones.
PORTS = "@....@ ...... .....@"
DUMMY = "  - {id: dummy, side: blue, at: [4, 1], stats: {hp: 20}}\n"
SWORD = "{speed: 2, attacks: [{name: sword, bonus: 5, damage: '5'}]}"


def test_m08_131_move_onto_a_teleporter_then_teleport_and_attack() -> None:
    """M08-131: m walks onto the teleporter, steps to another at no action, and still attacks."""
    out = play(mover(PORTS, "1, 0", SWORD, DUMMY, """\
  - {actor: m, do: move, to: [0, 0]}
  - {ask: legal_actions, actor: m}
  - {actor: m, do: teleport, to: [5, 0]}
  - {actor: m, do: attack, with: sword, target: dummy}
""", extra="dice: [15]\n"))
    teleports = sorted(a["to"] for a in out["answers"][0]["value"] if a["do"] == "teleport")
    assert teleports == [[5, 0], [5, 2]]
    assert events(out, "teleport")[0]["rule"] == "M08-131"
    assert at(out, "m") == [5, 0]
    assert hp(out, "dummy") == 15


def test_m08_131_start_on_a_teleporter() -> None:
    """M08-131: a creature that starts its turn on a teleporter may teleport, then still move and attack."""
    out = play(mover(PORTS, "0, 0", SWORD, DUMMY, """\
  - {actor: m, do: teleport, to: [5, 2]}
  - {actor: m, do: move, to: [4, 2]}
  - {actor: m, do: attack, with: sword, target: dummy}
""", extra="dice: [15]\n"))
    assert at(out, "m") == [4, 2]
    assert hp(out, "dummy") == 15


def test_m08_131_only_to_an_unoccupied_teleporter() -> None:
    """M08-131: the teleporter at [5, 2] is held by an ally: it is not offered and is refused."""
    text = mover(PORTS, "0, 0", SWORD, DUMMY + "  - {id: pal, side: red, at: [5, 2], stats: {}}\n", """\
  - {actor: m, do: activate}
  - {ask: legal_actions, actor: m}
  - {actor: m, do: teleport, to: [5, 2]}
""")
    err = refused(text)
    assert (err.index, err.rule) == (2, "M08-131")
    out = play(text.rsplit("  - {actor: m, do: teleport", 1)[0])
    assert [a["to"] for a in out["answers"][0]["value"] if a["do"] == "teleport"] == [[5, 0]]


def test_m08_131_not_from_an_ordinary_square() -> None:
    """M08-131: teleporting needs the creature on a teleporter."""
    err = refused(mover(PORTS, "1, 0", SWORD, DUMMY, "  - {actor: m, do: teleport, to: [5, 0]}\n"))
    assert (err.index, err.rule) == (0, "M08-131")


def test_m08_131_once_per_round() -> None:
    """M08-131: after one teleport m stands on another teleporter but may not teleport again this round;
    in the next round it may."""
    steps = """\
  - {actor: m, do: teleport, to: [5, 0]}
  - {ask: legal_actions, actor: m}
  - {actor: m, do: end_turn}
  - {actor: dummy, do: end_turn}
  - {actor: m, do: teleport, to: [0, 0]}
"""
    out = play(mover(PORTS, "0, 0", SWORD, DUMMY, steps, extra="dice: [20, 1]\n"))
    assert "teleport" not in verbs(out)
    assert out["round"] == 2
    assert at(out, "m") == [0, 0]
    err = refused(mover(PORTS, "0, 0", SWORD, DUMMY, "  - {actor: m, do: teleport, to: [5, 0]}\n"
                        "  - {actor: m, do: teleport, to: [0, 0]}\n"))
    assert (err.index, err.rule) == (1, "M08-131")


def test_m08_131_once_per_round_even_after_walking_onto_another() -> None:
    """M08-131: teleported once, m walks off and onto the third teleporter: no second teleport."""
    err = refused(mover(PORTS, "0, 0", SWORD, DUMMY, """\
  - {actor: m, do: teleport, to: [5, 0]}
  - {actor: m, do: move, path: [[5, 1], [5, 2]]}
  - {actor: m, do: teleport, to: [0, 0]}
"""))
    assert (err.index, err.rule) == (2, "M08-131")


def test_m08_131_teleport_during_a_move_and_carry_on() -> None:
    """M08-131 (seed: 傳送可以在移動當中發生, 不會取代生物的攻擊): speed 4; one square onto the
    teleporter, teleport, the remaining squares of the same move, then the attack."""
    out = play(mover("@....@ ...... ......", "1, 0", "{speed: 4, attacks: [{name: sword, bonus: 5, damage: '5'}]}",
                     "  - {id: dummy, side: blue, at: [3, 2], stats: {hp: 20}}\n", """\
  - {actor: m, do: move, to: [0, 0]}
  - {actor: m, do: teleport, to: [5, 0]}
  - {actor: m, do: move, path: [[4, 1]]}
  - {actor: m, do: attack, with: sword, target: dummy}
""", extra="dice: [15]\n"))
    assert at(out, "m") == [4, 1]
    assert hp(out, "dummy") == 15


# ---------------------------------------------------------------------------------------------
# Victory points and victory (M08-153..M08-158)

AXE = "{attacks: [{name: axe, bonus: 5, damage: '50'}]}"


def arena(creatures: str, steps: str, options: str = "", zones: str = "", dice: str = "[15]",
          rows: str = "...... ......") -> str:
    body = "".join(f"    {r}\n" for r in rows.split())
    zones = zones or "    victory_a: {squares: [[0, 0], [1, 0]]}\n    victory_b: {squares: [[5, 1]]}\n"
    opts = f"options: {options}\n" if options else ""
    return (f"ruleset: ddm2008\n{opts}map:\n  rows: |\n{body}  zones:\n{zones}creatures:\n{creatures}"
            f"start: {{first_side: red}}\ndice: {dice}\nsteps:\n{steps}")


ONE_EACH_TURN = "  - {actor: r1, do: end_turn}\n  - {actor: b1, do: end_turn}\n"


def vp_events(out: dict) -> list[tuple[str, int, str]]:
    return [(e["side"], e["points"], e["rule"]) for e in events(out, "vp")]


def test_m08_155_ten_vp_at_the_end_of_the_round_not_before() -> None:
    """M08-155: red stands in its victory area; nothing is scored when its turn ends, 10 VP when the round ends."""
    creatures = "  - {id: r1, side: red, at: [0, 0], stats: {}}\n  - {id: b1, side: blue, at: [3, 1], stats: {}}\n"
    mid = play(arena(creatures, "  - {actor: r1, do: end_turn}\n"))
    assert mid["score"] == {"red": 0, "blue": 0}
    out = play(arena(creatures, ONE_EACH_TURN))
    assert out["score"] == {"red": 10, "blue": 0}
    assert vp_events(out) == [("red", 10, "M08-155")]
    kinds = [e["type"] for e in out["events"]]
    assert kinds.index("vp") < kinds.index("round_end")


def test_m08_155_at_most_ten_a_round() -> None:
    """M08-155: two red creatures in two victory areas of red's still score 10 a round; blue in its own 10."""
    creatures = ("  - {id: r1, side: red, at: [0, 0], stats: {}}\n  - {id: r2, side: red, at: [5, 0], stats: {}}\n"
                 "  - {id: b1, side: blue, at: [5, 1], stats: {}}\n")
    zones = ("    victory_a1: {squares: [[0, 0]]}\n    victory_a2: {squares: [[5, 0]]}\n"
             "    victory_b: {squares: [[5, 1]]}\n")
    out = play(arena(creatures, ONE_EACH_TURN + "  - {actor: r2, do: end_turn}\n", zones=zones))
    assert out["score"] == {"red": 10, "blue": 10}
    assert sorted(vp_events(out)) == [("blue", 10, "M08-155"), ("red", 10, "M08-155")]


def test_m08_155_any_square_of_a_big_creature_counts() -> None:
    """M08-155: one of the large creature's four squares is in the area: it counts."""
    creatures = ("  - {id: r1, side: red, at: [1, 0], stats: {size: large}}\n"
                 "  - {id: b1, side: blue, at: [4, 0], stats: {}}\n")
    zones = "    victory_a: {squares: [[2, 1]]}\n"
    out = play(arena(creatures, ONE_EACH_TURN, zones=zones, rows="...... ...... ......"))
    assert out["score"] == {"red": 10, "blue": 0}


def test_m08_155_only_your_own_area_scores() -> None:
    """M08-155, M08-024: red in blue's area (victory_b) scores nothing."""
    creatures = "  - {id: r1, side: red, at: [5, 1], stats: {}}\n  - {id: b1, side: blue, at: [3, 0], stats: {}}\n"
    out = play(arena(creatures, ONE_EACH_TURN))
    assert out["score"] == {"red": 0, "blue": 0}
    assert vp_events(out) == []


def test_m08_155_sides_option_names_the_areas() -> None:
    """M08-155, option sides: with red as player b, victory_b is red's area."""
    creatures = "  - {id: r1, side: red, at: [5, 1], stats: {}}\n  - {id: b1, side: blue, at: [0, 0], stats: {}}\n"
    out = play(arena(creatures, ONE_EACH_TURN, options="{sides: {a: blue, b: red}}"))
    assert out["score"] == {"red": 10, "blue": 10}


def test_m08_155_smaller_game_scores_in_proportion() -> None:
    """M08-155 (10 VP at 200 points), option points: 100: 5 VP a round."""
    creatures = "  - {id: r1, side: red, at: [0, 0], stats: {}}\n  - {id: b1, side: blue, at: [3, 1], stats: {}}\n"
    out = play(arena(creatures, ONE_EACH_TURN, options="{points: 100}"))
    assert out["score"] == {"red": 5, "blue": 0}


UNCONTESTED_ZONES = ("    victory_a1: {squares: [[0, 0]]}\n    victory_a2: {squares: [[5, 0], [5, 1]]}\n"
                     "    victory_b: {squares: [[3, 1]]}\n")


def test_m08_158_five_per_uncontested_area_adding_up() -> None:
    """M08-158: red holds both its areas with no enemy in them: 5 + 5."""
    creatures = ("  - {id: r1, side: red, at: [0, 0], stats: {}}\n  - {id: r2, side: red, at: [5, 0], stats: {}}\n"
                 "  - {id: b1, side: blue, at: [3, 0], stats: {}}\n")
    out = play(arena(creatures, ONE_EACH_TURN + "  - {actor: r2, do: end_turn}\n",
                     options="{scenario: uncontested}", zones=UNCONTESTED_ZONES))
    assert out["score"] == {"red": 10, "blue": 0}
    assert vp_events(out) == [("red", 5, "M08-158"), ("red", 5, "M08-158")]


def test_m08_158_a_contested_area_scores_nothing() -> None:
    """M08-158: blue stands in red's second area too: red scores only the first, 5."""
    creatures = ("  - {id: r1, side: red, at: [0, 0], stats: {}}\n  - {id: r2, side: red, at: [5, 0], stats: {}}\n"
                 "  - {id: b1, side: blue, at: [5, 1], stats: {}}\n")
    out = play(arena(creatures, ONE_EACH_TURN + "  - {actor: r2, do: end_turn}\n",
                     options="{scenario: uncontested}", zones=UNCONTESTED_ZONES))
    assert out["score"] == {"red": 5, "blue": 0}


KILL = ("  - {id: r1, side: red, at: [0, 0], stats: " + AXE + "}\n"
        "  - {id: b1, side: blue, at: [1, 0], stats: {cost: 37}}\n"
        "  - {id: b2, side: blue, at: [5, 1], stats: {}}\n")


def test_m08_154_a_kill_scores_its_cost() -> None:
    """M08-154, M08-004: destroying a 37-point creature scores 37 VP."""
    out = play(arena(KILL, "  - {actor: r1, do: attack, with: axe, target: b1}\n"))
    assert out["creatures"]["b1"]["status"] == "dead"
    assert out["score"] == {"red": 37, "blue": 0}
    assert vp_events(out) == [("red", 37, "M08-154")]
    assert out["winner"] is None


def test_m08_157_bounty_a_kill_scores_five() -> None:
    """M08-157: in Bounty the same kill scores 5 VP."""
    out = play(arena(KILL, "  - {actor: r1, do: attack, with: axe, target: b1}\n", options="{scenario: bounty}"))
    assert out["score"] == {"red": 5, "blue": 0}
    assert vp_events(out) == [("red", 5, "M08-157")]


def test_m08_153_first_to_the_warband_size_wins() -> None:
    """M08-153: at 100 points, killing a 100-point creature wins at once; no step is taken afterwards."""
    text = arena(KILL.replace("cost: 37", "cost: 100"), "  - {actor: r1, do: attack, with: axe, target: b1}\n",
                 options="{points: 100}")
    out = play(text)
    assert out["winner"] == "red"
    assert out["score"] == {"red": 100, "blue": 0}
    over = events(out, "game_over")[0]
    assert (over["winner"], over["rule"]) == ("red", "M08-153")
    err = refused(text + "  - {actor: r1, do: end_turn}\n")
    assert (err.index, err.rule) == (1, "M08-153")


def test_m08_153_victory_area_vp_can_reach_the_target() -> None:
    """M08-153, M08-155: at 100 points a 95-point kill and then 5 VP for the victory area at the round's end."""
    steps = ("  - {actor: r1, do: attack, with: axe, target: b1}\n  - {actor: r1, do: end_turn}\n"
             "  - {actor: b2, do: end_turn}\n")
    out = play(arena(KILL.replace("cost: 37", "cost: 95"), steps, options="{points: 100}"))
    assert out["score"] == {"red": 100, "blue": 5}  # b2 stands in blue's area
    assert out["winner"] == "red"
    assert events(out, "game_over")[0]["rule"] == "M08-153"


def test_side_with_no_creature_left_loses_at_once() -> None:
    """M08-153 (and M08-162's "last player with surviving creatures"): blue's only creature is destroyed;
    red wins with 37 VP, far below the target."""
    out = play(arena(KILL.replace("  - {id: b2, side: blue, at: [5, 1], stats: {}}\n", ""),
                     "  - {actor: r1, do: attack, with: axe, target: b1}\n"))
    assert out["winner"] == "red"
    assert out["score"] == {"red": 37, "blue": 0}
    assert out["turn"] is None


# The tie-breaker: 1 against 1 on a 9 x 3 map whose centre is the middle of square [4, 1]; red wins every
# initiative from round 2 on (20 to 1) and goes first; every creature just ends its turn.


def quiet_rounds(creatures: str, rounds: int, first_steps: str = "", zones: str = "", dice: str = "") -> str:
    steps = first_steps or ONE_EACH_TURN
    steps += ONE_EACH_TURN * (rounds - 1)
    rolls = ", ".join(["20, 1"] * rounds)
    return arena(creatures, steps, zones=zones or "    victory_a: {squares: [[8, 2]]}\n",
                 dice=f"[{dice}{rolls}]", rows="......... ......... .........")


def test_m08_156_ten_quiet_rounds_more_vp_wins() -> None:
    """M08-156: red holds its victory area for ten rounds without an attack (100 VP to 0); after round 10
    the tie-breaker gives red the game."""
    creatures = "  - {id: r1, side: red, at: [8, 2], stats: {}}\n  - {id: b1, side: blue, at: [4, 1], stats: {}}\n"
    nine = play(quiet_rounds(creatures, 9))
    assert nine["winner"] is None and nine["round"] == 10
    out = play(quiet_rounds(creatures, 10))
    assert out["score"] == {"red": 100, "blue": 0}
    assert out["winner"] == "red"
    over = events(out, "game_over")[0]
    assert (over["winner"], over["rule"]) == ("red", "M08-156")


def test_m08_156_equal_vp_nearest_the_centre_wins() -> None:
    """M08-156: 0 VP each; blue stands one square from the centre square, red three: blue wins."""
    creatures = "  - {id: r1, side: red, at: [1, 1], stats: {}}\n  - {id: b1, side: blue, at: [5, 1], stats: {}}\n"
    out = play(quiet_rounds(creatures, 10))
    assert out["score"] == {"red": 0, "blue": 0}
    assert out["winner"] == "blue"
    assert events(out, "game_over")[0]["rule"] == "M08-156"


def test_m08_156_equally_near_the_highest_cost_wins() -> None:
    """M08-156: both one square from the centre; red's creature costs more: red wins."""
    creatures = ("  - {id: r1, side: red, at: [3, 1], stats: {cost: 30}}\n"
                 "  - {id: b1, side: blue, at: [5, 1], stats: {cost: 20}}\n")
    out = play(quiet_rounds(creatures, 10))
    assert out["winner"] == "red"
    assert events(out, "game_over")[0]["rule"] == "M08-156"


def test_m08_156_an_attack_roll_restarts_the_count() -> None:
    """M08-156: red rolls an attack (a miss) in round 1, so rounds 2..11 are the ten quiet rounds."""
    creatures = ("  - {id: r1, side: red, at: [3, 1], stats: {cost: 30, attacks: [{name: axe, damage: '5'}]}}\n"
                 "  - {id: b1, side: blue, at: [4, 2], stats: {cost: 20}}\n")
    first = "  - {actor: r1, do: attack, with: axe, target: b1}\n" + ONE_EACH_TURN
    ten = play(quiet_rounds(creatures, 10, first, dice="2, "))
    assert events(ten, "attack")[0]["hit"] is False
    assert ten["winner"] is None and ten["round"] == 11
    out = play(quiet_rounds(creatures, 11, first, dice="2, "))
    assert out["winner"] == "red"
    assert out["round"] == 11


# ---------------------------------------------------------------------------------------------
# More turn order, teleporter and legal-action cases


def test_m08_030_m08_032_the_chosen_side_has_the_single_first_activation() -> None:
    """M08-030, M08-032: red wins and sends blue first: blue activates one creature, then red two."""
    out = play(SIX.replace("start: {first_side: red}\n", "") + """\
dice: [17, 2]
steps:
  - {actor: r1, do: choose_first, side: blue}
  - {actor: b1, do: end_turn}
  - {ask: legal_actions, actor: b2}
  - {actor: r1, do: end_turn}
  - {actor: r2, do: end_turn}
  - {ask: legal_actions, actor: b2}
""")
    assert activations(out) == ["b1", "r1", "r2"]
    assert out["answers"][0]["value"] == []
    assert out["answers"][1]["value"] == [{"actor": "b2", "do": "activate"}]


def test_m08_034_first_player_runs_out_first() -> None:
    """M08-034: red's only creature acts first; blue then activates all three in one turn."""
    text = SIX.replace("  - {id: r2, side: red, at: [0, 1], stats: {}}\n  - {id: r3, side: red, at: [0, 2], "
                       "stats: {}}\n", "")
    out = play(text + """\
dice: [20, 1]
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {actor: b3, do: end_turn}
""")
    assert activations(out) == ["r1", "b1", "b2", "b3"]
    assert out["round"] == 2


def test_m08_034_unactivated_creatures_destroyed_leave_the_other_side_to_go_on() -> None:
    """M08-034, M08-028: blue destroys red's last unactivated creature; red has nothing left to activate
    this round, so blue's turn goes on through b3 and the round ends."""
    text = """
ruleset: ddm2008
map:
  rows: |
    ........
    ........
creatures:
  - {id: r1, side: red, at: [0, 0], stats: {}}
  - {id: r2, side: red, at: [3, 1], stats: {hp: 5}}
  - {id: b1, side: blue, at: [4, 1], stats: {attacks: [{name: axe, bonus: 5, damage: '10'}]}}
  - {id: b2, side: blue, at: [7, 0], stats: {}}
  - {id: b3, side: blue, at: [7, 1], stats: {}}
start: {first_side: red}
dice: [15, 20, 1]
steps:
  - {actor: r1, do: end_turn}
  - {actor: b1, do: attack, with: axe, target: r2}
  - {actor: b1, do: end_turn}
  - {actor: b2, do: end_turn}
  - {ask: legal_actions, actor: b3}
  - {actor: b3, do: end_turn}
"""
    out = play(text)
    assert out["creatures"]["r2"]["status"] == "dead"
    assert activations(out) == ["r1", "b1", "b2", "b3"]
    assert out["answers"][0]["value"] == [{"actor": "b3", "do": "activate"}]
    assert out["round"] == 2


def test_m08_131_m08_115_teleporting_away_provokes_nothing() -> None:
    """M08-131, M08-115: standing on a teleporter beside the guard, m teleports away: no opportunity attack."""
    out = play(mover(PORTS, "0, 0", "{hp: 20}", f"  - {{id: guard, side: blue, at: [1, 0], stats: {GUARD}}}\n",
                     "  - {actor: m, do: teleport, to: [5, 2]}\n", extra="dice: [15]\n"))
    assert at(out, "m") == [5, 2]
    assert opportunity_attackers(out) == []
    assert hp(out, "m") == 20


LEGAL = """
ruleset: ddm2008
map:
  rows: |
    @.....
    .....@
creatures:
  - {id: m, side: red, at: [0, 0], stats: {speed: 6, attacks: [{name: sword, bonus: 5, damage: '5'}]}, COND}
  - {id: near, side: blue, at: [1, 1], stats: {}}
  - {id: away, side: blue, at: [5, 0], stats: {}}
start: {first_side: red}
steps:
  - {actor: m, do: activate}
  - {ask: legal_actions, actor: m}
"""


def test_legal_actions_fresh_activation() -> None:
    """M08-036, M08-037, M08-038, M08-131: on a teleporter, next to one enemy and in sight of another, the
    creature may move, shift, attack, charge, teleport or end its turn."""
    out = play(LEGAL.replace(", COND", ""))
    assert verbs(out) == {"move", "shift", "attack", "charge", "teleport", "end_turn"}
    value = out["answers"][0]["value"]
    assert {"actor": "m", "do": "attack", "with": "sword", "target": "near"} in value
    assert not any(a["do"] == "attack" and a.get("target") == "away" for a in value)
    assert all(a["target"] == "away" for a in value if a["do"] == "charge")
    assert {"actor": "m", "do": "end_turn"} in value
    assert [a["to"] for a in value if a["do"] == "teleport"] == [[5, 1]]


@pytest.mark.parametrize(("condition", "expected"), [
    ("stunned", {"end_turn"}),                          # M08-141: no actions
    ("helpless", {"end_turn"}),                         # M08-142: as stunned
    ("immobilized", {"attack", "end_turn"}),            # M08-143: no move, shift or charge
    ("dazed", {"move", "shift", "attack", "charge", "teleport", "end_turn"}),  # M08-139: acts on its turn
])
def test_legal_actions_under_conditions(condition: str, expected: set[str]) -> None:
    """M08-139, M08-141..M08-143: what the creature may still do under a condition."""
    out = play(LEGAL.replace("COND", f"conditions: [{condition}]"))
    if condition == "immobilized":  # whether it may still use the teleporter is not settled by the seed
        assert verbs(out) - {"teleport"} == expected
    else:
        assert verbs(out) == expected
