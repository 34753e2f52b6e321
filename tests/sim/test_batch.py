"""Batches: the same root seed gives the same results whatever the executor; failures keep the rest;
statistics match a duel worked out by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.sim.batch import Job, make_jobs, run_batch, run_job, spawn_seeds
from skirmish.sim.report import Summary
from skirmish.sim.stats import wilson

ROOT = Path(__file__).resolve().parents[2]
DUEL = {"scenario": str(ROOT / "scenarios/duel-dnd5e.yaml")}
MIRROR = {"scenario": str(ROOT / "scenarios/mirror-dnd5e.yaml")}


def outcomes(results):
    return [(r.index, r.seed, r.winner, r.rounds, tuple(sorted(r.score.items()))) for r in results]


def test_seeds_are_spawned_from_one_root_and_do_not_depend_on_the_batch_size():
    assert spawn_seeds(5, 10) == spawn_seeds(5, 10)
    assert spawn_seeds(5, 20)[:10] == spawn_seeds(5, 10)


def test_same_root_seed_same_results_serial_and_process_with_1_and_2_workers():
    jobs = make_jobs(MIRROR, ["blue", "red"], ("random", "random"), 6, 11, swap=True)
    serial = run_batch(jobs, "serial")
    assert outcomes(run_batch(jobs, "process", 1)) == outcomes(serial)
    assert outcomes(run_batch(jobs, "process", 2)) == outcomes(serial)
    assert [r.agents for r in serial][:2] == [{"blue": "random", "red": "random"}] * 2


def test_same_root_seed_same_results_on_a_local_ray_instance():
    pytest.importorskip("ray")
    jobs = make_jobs(DUEL, ["left", "right"], ("tactician", "tactician"), 8, 3, swap=False)
    assert outcomes(run_batch(jobs, "ray", 2)) == outcomes(run_batch(jobs, "serial"))


def test_a_failed_game_is_reported_with_its_seed_and_keeps_the_others():
    good = make_jobs(DUEL, ["left", "right"], ("random", "random"), 3, 1, swap=False)
    bad = Job(3, 99, {"scenario": str(ROOT / "no-such-file.yaml")}, {"left": "random", "right": "random"})
    results = run_batch([*good, bad], "serial")
    assert [r.error is None for r in results] == [True, True, True, False]
    assert results[3].seed == 99 and "no such file" in (results[3].error or "")
    summary = Summary(results, ["left", "right"])
    assert summary.to_json()["games"] == 3 and summary.to_json()["failed"][0]["seed"] == 99


def test_duel_win_rate_lands_in_its_interval_at_the_expected_rate():
    """a strikes first and each hits half the time: P(a wins) = 2/3. Over 30 batches of 60 duels the
    95% Wilson interval should hold 2/3 in about 95% of them (at least 25 of 30 here)."""
    jobs = make_jobs(DUEL, ["left", "right"], ("tactician", "tactician"), 1800, 7, swap=False)
    results = [run_job(j) for j in jobs]
    assert all(r.error is None for r in results)
    held = 0
    for k in range(30):
        batch = results[k * 60:(k + 1) * 60]
        wins = sum(r.winner == "left" for r in batch)
        lo, hi = wilson(wins, len(batch))
        held += lo <= 2 / 3 <= hi
    assert held >= 25
    rate = sum(r.winner == "left" for r in results) / len(results)
    assert abs(rate - 2 / 3) < 0.04


def test_simulate_command_json_has_the_contract_shape(tmp_path: Path):
    csv_path = tmp_path / "games.csv"
    done = subprocess.run([sys.executable, "-m", "skirmish", "simulate", "scenarios/duel-dnd5e.yaml", "-n", "12",
                           "--json", "--workers", "2", "--csv", str(csv_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 12 and set(data["sides"]) == {"left", "right"}
    for side in data["sides"].values():
        assert {"wins", "win_rate", "ci95"} <= set(side) and len(side["ci95"]) == 2
    assert data["draws"] == 12 - sum(s["wins"] for s in data["sides"].values())
    assert len(csv_path.read_text().splitlines()) == 13
