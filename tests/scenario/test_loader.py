"""The scenario loader: contract keys, defaults, and errors that name the file, the line and the fix."""

from __future__ import annotations

import textwrap

import pytest

from skirmish.errors import ContentError
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

BASE = """\
ruleset: ddm2008
map:
  rows: |
    .....
    .#...
    .....
creatures:
  - {id: a, side: x, at: [0, 0], stats: {speed: 6}}
  - {id: b, side: y, at: [4, 2], stats: {}}
"""


def load(text: str):
    return load_scenario_text(textwrap.dedent(text), "test.yaml")


def error_of(text: str) -> str:
    with pytest.raises(ContentError) as e:
        load(text)
    return str(e.value)


def test_partial_inline_stats_take_documented_defaults():
    s = load(BASE)
    a = s.position.creature("a")
    assert a.template.max_hp == 10 and a.hp == 10
    assert a.template.speed == {"walk": 6}
    assert a.template.size == 1
    assert a.template.attacks == ()


def test_catalog_creature_with_stats_override():
    s = load(BASE.replace("stats: {speed: 6}", "creature: hill-dwarf-axeman, stats: {hp: 50}"))
    a = s.position.creature("a")
    assert a.template.max_hp == 50
    assert a.template.speed == {"walk": 5}
    assert a.template.attack("waraxe") is not None


def test_unknown_top_level_key_names_line_and_near_match():
    msg = error_of(BASE + "creatuers: []\n")
    assert msg.startswith("test.yaml: line 10")
    assert "'creatuers'" in msg and "did you mean 'creatures'" in msg


def test_ragged_rows_are_an_error_with_row_number():
    msg = error_of(BASE.replace("    .#...\n", "    .#..\n"))
    assert "line 3" in msg and "row 1 has 4 squares but row 0 has 5" in msg


def test_unknown_map_character_names_square_and_legend():
    msg = error_of(BASE.replace(".#...", ".#.Q."))
    assert "unknown map character 'Q' at [3, 1]" in msg and "map.legend" in msg


def test_zone_square_off_the_map():
    msg = error_of(BASE.replace("  rows: |", "  zones: {start_a: {squares: [[9, 9]]}}\n  rows: |"))
    assert "zone 'start_a'" in msg and "[9, 9]" in msg and "off the 5x3 map" in msg


def test_creature_on_a_wall_or_off_the_map():
    assert "which is wall" in error_of(BASE.replace("at: [4, 2]", "at: [1, 1]"))
    assert "off the 5x3 map" in error_of(BASE.replace("at: [4, 2]", "at: [5, 2]"))


def test_large_creature_must_fit():
    msg = error_of(BASE.replace("at: [4, 2], stats: {}", "at: [4, 1], stats: {size: large}"))
    assert "2x2" in msg and "off the 5x3 map" in msg


def test_duplicate_ids_and_shared_squares():
    assert "already used" in error_of(BASE.replace("id: b", "id: a"))
    assert "would share square [0, 0]" in error_of(BASE.replace("at: [4, 2]", "at: [0, 0]"))


def test_bad_stat_value_names_its_key_path_and_line():
    msg = error_of(BASE.replace("stats: {speed: 6}", "stats: {speed: fast}"))
    assert "line 8" in msg and "creatures[0].stats.speed" in msg


def test_unknown_stat_field_suggests_the_right_one():
    msg = error_of(BASE.replace("stats: {speed: 6}", "stats: {sped: 6}"))
    assert "creatures[0].stats.sped" in msg and "did you mean 'speed'" in msg


def test_unknown_catalog_creature():
    msg = error_of(BASE.replace("stats: {speed: 6}", "creature: hill-dwarf-axemen"))
    assert "no creature 'hill-dwarf-axemen'" in msg and "hill-dwarf-axeman" in msg


def test_unknown_condition_lists_the_known_ones():
    msg = error_of(BASE.replace("stats: {}", "stats: {}, conditions: [sleepy]"))
    assert "no condition 'sleepy'" in msg and "dazed" in msg


def test_hp_above_maximum():
    assert "above b's maximum of 10" in error_of(BASE.replace("stats: {}", "stats: {}, hp: 11"))


def test_unknown_ruleset_lists_the_five():
    msg = error_of(BASE.replace("ruleset: ddm2008", "ruleset: ddm2009"))
    assert "ddm2003, ddm2008, dnd3, dnd5e, drawsteel" in msg


def test_options_are_checked_by_the_ruleset():
    msg = error_of(BASE.replace("ruleset: ddm2008", "ruleset: dnd3\noptions: {edition: '4.0'}"))
    assert "options.edition" in msg
    s = load(BASE.replace("ruleset: ddm2008", "ruleset: dnd3\noptions: {edition: '3.5'}"))
    assert s.ruleset.options.edition == "3.5"


def test_legend_override_by_name_and_by_definition():
    """M08-133: terrain printed on a map is given in the scenario's legend, by name or defined as data."""
    s = load(BASE.replace("  rows: |", "  legend: {Q: forest, L: {name: lava, move_cost: 3, tags: [damaging]}}\n"
                                        "  rows: |").replace(".#...", ".#QL."))
    assert s.position.grid.kind((2, 1)).name == "forest"
    lava = s.position.grid.kind((3, 1))
    assert lava.name == "lava" and lava.move_cost == 3 and lava.difficult


def test_legend_unknown_terrain_name():
    msg = error_of(BASE.replace("  rows: |", "  legend: {Q: forrest}\n  rows: |").replace(".#...", ".#Q.."))
    assert "no terrain called 'forrest'" in msg and "did you mean 'forest'" in msg


def test_steps_questions_are_checked():
    assert "unknown question 'distanse'" in error_of(BASE + "steps:\n  - {ask: distanse, from: a, to: b}\n")
    assert "needs to:" in error_of(BASE + "steps:\n  - {ask: distance, from: a}\n")
    assert "no creature is called 'c'" in error_of(BASE + "steps:\n  - {ask: distance, from: a, to: c}\n")
    assert "has no attack 'bite'" in error_of(BASE + "steps:\n  - {ask: area, actor: a, with: bite}\n")
    assert "takes no 'bogus'" in error_of(BASE + "steps:\n  - {ask: reachable, actor: a, bogus: 1}\n")


def test_start_block_is_checked():
    assert "no side is called 'z'" in error_of(BASE + "start: {first_side: z}\n")
    assert "has no surprise" in error_of(BASE + "start: {surprised: [a]}\n")


def test_initiative_sets_the_turn():
    s = load(BASE + "start: {initiative: [b, a], round: 2}\n")
    out = run(s)
    assert out["turn"] == "b" and out["round"] == 2


def test_output_has_the_contract_shape():
    s = load(BASE + "steps:\n  - {ask: distance, from: a, to: b}\n")
    out = run(s)
    assert set(out) == {"ruleset", "round", "turn", "creatures", "answers", "events", "score", "winner"}
    assert out["creatures"]["a"] == {"hp": 10, "temp_hp": 0, "at": [0, 0], "conditions": [], "status": "active"}
    assert out["answers"] == [{"ask": "distance", "value": 4}]
    assert out["score"] == {"x": 0, "y": 0} and out["winner"] is None


def test_do_step_is_refused_until_the_ruleset_plays():
    s = load(BASE.replace("ddm2008", "dnd3")
             + "steps:\n  - {ask: distance, from: a, to: b}\n  - {actor: a, do: move, to: [1, 0]}\n")
    with pytest.raises(StepRefused) as e:
        run(s)
    assert e.value.index == 1 and e.value.actor == "a"
    assert "cannot play actions yet" in str(e.value)


def test_status_from_starting_hit_points_per_ruleset():
    """M08-007: destroyed at 0; E5-141 monsters die at 0, heroes go down (E5-131); E35-053/E35-056
    disabled at 0, dead at -10; DS-164/DS-165/DS-166 dying heroes and dead director creatures."""
    def status(ruleset: str, hp: int, hero: bool) -> str:
        text = BASE.replace("ruleset: ddm2008", f"ruleset: {ruleset}").replace(
            "stats: {}", f"stats: {{}}, hp: {hp}, hero: {str(hero).lower()}")
        text = text.replace("stats: {speed: 6}", "stats: {}")
        return run(load(text))["creatures"]["b"]["status"]

    assert status("ddm2008", 0, False) == "dead"
    assert status("dnd5e", 0, False) == "dead"
    assert status("dnd5e", 0, True) == "down"
    assert status("dnd3", 0, True) == "down"
    assert status("dnd3", -9, True) == "down"
    assert status("dnd3", -10, True) == "dead"
    assert status("drawsteel", -4, True) == "down"
    assert status("drawsteel", -5, True) == "dead"
    assert status("drawsteel", 0, False) == "dead"
