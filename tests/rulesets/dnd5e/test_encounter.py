"""Encounter deadliness: the XP thresholds, and the simulation's report and command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from skirmish.rulesets.dnd5e.encounter import difficulty
from skirmish.scenario.loader import load_scenario_file
from skirmish.sim.encounter import fight_seeds, simulate

ROOT = Path(__file__).resolve().parents[3]


def test_xp_thresholds_four_level_1_characters_against_four_goblins_is_deadly():
    """DMG encounter building (from outside the seed): 4 x 50 XP = 200, x2 for 3-6 monsters = 400,
    against thresholds 100/200/300/400: deadly."""
    d = difficulty([1, 1, 1, 1], ["1/4"] * 4)
    assert (d.xp, d.adjusted_xp, d.thresholds, d.rating) == (200, 400, (100, 200, 300, 400), "deadly")
    assert difficulty([3, 3, 3, 3], ["1/2"]).rating == "trivial"
    assert difficulty([1, 1], ["1/4"]).adjusted_xp == 75  # fewer than three characters: the next multiplier


def test_fight_seeds_are_spawned_from_one_root():
    assert fight_seeds(7, 5) == fight_seeds(7, 5)
    assert fight_seeds(7, 5) != fight_seeds(8, 5)
    assert len(set(fight_seeds(7, 50))) == 50


def test_simulation_report_is_reproducible_and_consistent():
    scenario = load_scenario_file(ROOT / "scenarios/dnd5e/goblin-ambush.yaml")
    a = simulate(scenario, 6, seed=3, agents=("random", "random"))
    b = simulate(scenario, 6, seed=3, agents=("random", "random"))
    assert [f.party_won for f in a.fights] == [f.party_won for f in b.fights]
    assert a.n == 6 and a.party == "party"
    rate, lo, hi = a.win()
    assert lo <= rate <= hi
    data = a.to_json()
    assert data["fights"] == 6 and 0 <= data["party_hp_left"]["low"] <= data["party_hp_left"]["high"] <= 1


def test_encounter_command_json_and_picture(tmp_path: Path):
    picture = tmp_path / "enc.png"
    done = subprocess.run([sys.executable, "-m", "skirmish", "encounter", "scenarios/dnd5e/goblin-ambush.yaml",
                           "-n", "4", "--json", "--agents", "random,random", "--plot", str(picture)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["fights"] == 4 and data["difficulty"]["rating"] in ("trivial", "easy", "medium", "hard", "deadly")
    assert picture.stat().st_size > 0
