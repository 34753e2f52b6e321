"""simulate --save-replays: one replay per game, each replaying to the game's own end; recording
actions changes no result, whatever the executor."""

from __future__ import annotations

import csv
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from skirmish.replay import load_replay, replayed
from skirmish.scenario.loader import load_scenario_file
from skirmish.sim.batch import make_jobs, run_batch

ROOT = Path(__file__).resolve().parents[2]
DUEL = {"scenario": str(ROOT / "scenarios/duel-dnd5e.yaml")}


def end_of(path: Path) -> tuple[str | None, dict[str, int], int]:
    source, seed, steps = load_replay(path)
    *_, (state, _) = replayed(source, seed, steps)
    assert state.is_over()
    return state.winner, dict(state.score), len(steps)


def test_simulate_writes_one_replay_per_game_each_ending_as_the_game_did(tmp_path: Path):
    folder, table = tmp_path / "replays" / "here", tmp_path / "games.csv"
    done = subprocess.run(
        [sys.executable, "-m", "skirmish", "simulate", "--warbands",
         "civilization-gatehouse-patrol-100,borderlands-ashpit-raiders-100", "--maps", "broken-bridge-shrine",
         "-n", "3", "--seed", "4", "--agents", "tactician,random", "--backend", "process", "--workers", "2",
         "--save-replays", str(folder), "--csv", str(table)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["game-0001.json", "game-0002.json", "game-0003.json"]
    rows = list(csv.DictReader(table.open()))
    for row in rows:
        winner, score, _ = end_of(folder / f"game-{int(row['game']) + 1:04d}.json")
        assert (winner or "") == row["winner"]
        assert {side: str(v) for side, v in score.items()} == {
            k.removeprefix("score_"): v for k, v in row.items() if k.startswith("score_")}


def test_the_replay_files_load_in_play_resume(tmp_path: Path):
    done = subprocess.run([sys.executable, "-m", "skirmish", "simulate", "scenarios/duel-dnd5e.yaml", "-n", "1",
                           "--backend", "serial", "--save-replays", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    winner, _, _ = end_of(tmp_path / "game-0001.json")
    again = subprocess.run([sys.executable, "-m", "skirmish", "play", "--resume", str(tmp_path / "game-0001.json"),
                            "--agents", "random,random", "--quiet"], capture_output=True, text=True, cwd=ROOT,
                           timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"{winner or 'nobody'} wins" in again.stdout


def test_recording_changes_no_result_on_any_executor():
    sides = load_scenario_file(DUEL["scenario"]).position.sides()
    jobs = make_jobs(DUEL, sides, ("tactician", "random"), 4, 11, swap=False)
    plain = run_batch(jobs, "serial")
    assert all(r.error is None for r in plain)
    recorded = {b: run_batch([replace(j, record=True) for j in jobs], b, 2) for b in ("serial", "process")}
    for results in recorded.values():
        assert [(r.winner, r.score, r.rounds, r.damage) for r in results] == [
            (r.winner, r.score, r.rounds, r.damage) for r in plain]
        assert all(r.steps for r in results) and all(not r.steps for r in plain)
    assert [r.steps for r in recorded["serial"]] == [r.steps for r in recorded["process"]]
