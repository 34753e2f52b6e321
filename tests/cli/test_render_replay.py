"""skirmish render of a replay: the game after K actions, in the terminal or as a picture."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from skirmish.agents import RandomAgent, play_game
from skirmish.render import print_terminal
from skirmish.replay import build_game, replayed, save_replay

ROOT = Path(__file__).resolve().parents[2]
SOURCE = {"scenario": str(ROOT / "scenarios/duel-dnd5e.yaml")}


def skirmish(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skirmish", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env={**os.environ, "COLUMNS": "100"})


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    state = build_game(SOURCE, 9)
    steps: list[dict] = []
    play_game(state, {side: RandomAgent(i) for i, side in enumerate(state.sides())},
              on_action=lambda _, a: steps.append(a.to_step()))
    path = tmp_path_factory.mktemp("replay") / "duel.json"
    save_replay(path, SOURCE, 9, state.ruleset.name, steps)
    return path, steps


def terminal(k: int, steps: list[dict], title: str) -> str:
    *_, (state, _) = replayed(SOURCE, 9, steps[:k])
    console = Console(record=True, width=100, file=open(os.devnull, "w"))  # noqa: SIM115 - closed with the console
    print_terminal(state, console, title=title)
    return console.export_text()


def test_terminal_map_after_k_actions(replay_file: tuple[Path, list[dict]]):
    path, steps = replay_file
    n = len(steps)
    shown = {}
    for k in (0, n // 2, n):
        done = skirmish("render", str(path), "--step", str(k))
        assert done.returncode == 0, done.stderr
        title = f"duel: after {k} of {n} actions"
        assert title in done.stdout
        *_, (state, _) = replayed(SOURCE, 9, steps[:k])
        expected = terminal(k, steps, f"{title}, round {state.round}")
        assert [line.rstrip() for line in done.stdout.splitlines()] == [line.rstrip() for line in
                                                                      expected.splitlines()]
        shown[k] = done.stdout
    assert shown[0] != shown[n]
    assert skirmish("render", str(path)).stdout == shown[n]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_picture_after_k_actions(replay_file: tuple[Path, list[dict]], tmp_path: Path, suffix: str):
    path, steps = replay_file
    out = tmp_path / f"step{suffix}"
    done = skirmish("render", str(path), "--step", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 1000
    if suffix == ".svg":
        assert f"after 2 of {len(steps)} actions" in out.read_text()


def test_bad_steps_and_scenarios(replay_file: tuple[Path, list[dict]], tmp_path: Path):
    path, steps = replay_file
    done = skirmish("render", str(path), "--step", str(len(steps) + 1))
    assert done.returncode == 2 and f"give 0 to {len(steps)}" in done.stderr and "Traceback" not in done.stderr
    done = skirmish("render", "scenarios/duel-dnd5e.yaml", "--step", "1")
    assert done.returncode == 2 and "--step is for replay files" in done.stderr
    broken = tmp_path / "broken.json"
    broken.write_text(path.read_text().replace('"actions": [', '"actions": [{"actor": "nobody", "do": "dash"}, ', 1))
    done = skirmish("render", str(broken), "--step", "1")
    assert done.returncode == 2 and "actions[0]" in done.stderr and "Traceback" not in done.stderr
