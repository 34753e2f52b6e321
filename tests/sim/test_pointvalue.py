"""ddm2008 point-value estimates: the monotone fit, the 50% crossing and a real measurement."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.errors import ContentError, SkirmishError
from skirmish.rulesets.ddm2008.setup import new_game
from skirmish.sim.pointvalue import Step, crossing, decreasing_fit, estimate, plot_steps, point_value

ROOT = Path(__file__).resolve().parents[2]


def test_decreasing_fit_pools_the_violators():
    assert decreasing_fit([0.9, 0.5, 0.7, 0.2], [1, 1, 1, 1]) == pytest.approx([0.9, 0.6, 0.6, 0.2])
    # Weighted: the heavier step pulls the pooled mean towards itself.
    assert decreasing_fit([0.4, 0.8], [3, 1]) == pytest.approx([0.5, 0.5])
    assert decreasing_fit([0.8, 0.4], [1, 1]) == [0.8, 0.4]


def test_crossing_interpolates_and_says_when_out_of_range():
    assert crossing([0, 6, 12], [0.9, 0.6, 0.3]) == pytest.approx(8.0)
    assert crossing([6, 12], [0.4, 0.1]) == 6  # already below at the first step
    assert crossing([0, 6], [0.9, 0.7]) is None  # never gets there


def test_estimate_reads_the_fit_and_the_band():
    steps = [Step(0, 0, 18, 20), Step(1, 10, 10, 20), Step(2, 20, 2, 20)]
    value, (lo, hi) = estimate(steps)
    assert value == pytest.approx(10.0)  # exactly 50% at the second step
    assert lo is not None and hi is not None and lo < 10.0 < hi


def test_walkover_is_a_known_point_at_zero():
    value, _ = estimate([Step(1, 6, 6, 12), Step(2, 12, 0, 12)], walkover=True)
    assert value == pytest.approx(6.0)
    value, _ = estimate([Step(1, 6, 3, 12), Step(2, 12, 0, 12)], walkover=True)
    assert value == pytest.approx(4.0)  # 1.0 at 0 points, 0.25 at 6: 50% two thirds of the way


def test_a_creature_measured_in_itself_is_worth_its_own_cost(tmp_path: Path):
    """One goblin against one, two, three goblins: a fair price is one goblin's cost."""
    pv = point_value("gloomfang-goblin", "gloomfang-goblin", [], ["broken-bridge-shrine"], 12, 3, "tactician",
                     most=3)
    assert [s.count for s in pv.steps] == [1, 2, 3] and all(s.games == 12 for s in pv.steps)
    assert not pv.failed
    assert pv.steps[0].rate > pv.steps[2].rate
    lo, hi = pv.interval
    assert pv.estimate is not None and lo is not None and hi is not None
    assert lo <= 6 <= hi and lo <= pv.estimate <= hi
    assert "<svg" in plot_steps(pv, tmp_path / "worth.svg").read_text()


def test_without_most_the_steps_go_on_until_the_creature_surely_loses():
    pv = point_value("gloomfang-goblin", "gloomfang-goblin", [], ["broken-bridge-shrine"], 12, 3, "tactician")
    counts = [s.count for s in pv.steps]
    assert counts == list(range(1, len(counts) + 1)) and len(counts) >= 2  # at least twice its own cost
    assert pv.steps[-1].ci95[1] < 0.5
    assert all(s.ci95[1] >= 0.5 for s in pv.steps[1:-1])  # it stopped at the first sure loss past the plan
    assert pv.to_json()["interrupted"] is False


def test_point_value_refuses_what_it_cannot_measure():
    with pytest.raises(SkirmishError, match="no creature 'nope'"):
        point_value("nope", "gloomfang-goblin", [], ["broken-bridge-shrine"], 1, 0, "random")
    with pytest.raises(SkirmishError, match="unique"):
        point_value("gloomfang-goblin", "oakheart-guardian", [], ["broken-bridge-shrine"], 1, 0, "random")


def test_an_empty_warband_is_a_clear_error():
    with pytest.raises(ContentError, match="'b' has no creatures"):
        new_game([("a", ["gloomfang-goblin"]), ("b", [])], ["broken-bridge-shrine"])


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skirmish", "simulate", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_point_value_command_json():
    done = _simulate("--point-value", "greywood-wolf", "--reference", "gloomfang-goblin", "--base",
                     "hillfort-spearman", "--maps", "broken-bridge-shrine", "--most", "1", "-n", "2",
                     "--agents", "random", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["creature"] == "greywood-wolf" and data["reference_cost"] == 6
    assert [s["count"] for s in data["steps"]] == [0, 1] and [s["games"] for s in data["steps"]] == [2, 2]


def test_simulate_checks_the_picture_name_before_playing(tmp_path: Path):
    done = _simulate("--point-value", "greywood-wolf", "-n", "2", "--plot", str(tmp_path / "x.gif"))
    said = " ".join(done.stderr.split())  # rich wraps long lines
    assert done.returncode == 2 and "png or .svg" in said and "Traceback" not in said
    done = _simulate("scenarios/duel-dnd5e.yaml", "-n", "2", "--csv", str(tmp_path / "no" / "x.csv"))
    assert done.returncode == 2 and "does not exist" in " ".join(done.stderr.split())
