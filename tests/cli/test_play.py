"""skirmish play: a whole game between agents, saved, resumed to the same end; bad input exits 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def skirmish(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skirmish", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def test_play_a_whole_half_size_game_save_and_replay(tmp_path: Path):
    save = tmp_path / "game.json"
    args = ["play", "--warbands", "civilization-gatehouse-patrol-100,borderlands-ashpit-raiders-100",
            "--maps", "broken-bridge-shrine", "--agents", "tactician,random", "--seed", "2", "--quiet"]
    done = skirmish(*args, "--save", str(save))
    assert done.returncode == 0, done.stderr
    assert "wins after" in done.stdout
    replay = json.loads(save.read_text())
    assert replay["ruleset"] == "ddm2008" and replay["actions"]
    again = skirmish("play", "--resume", str(save), "--agents", "tactician,random", "--quiet")
    assert again.returncode == 0, again.stderr
    first = re.search(r"\S+ wins after .*?VP\)", " ".join(done.stdout.split()))
    second = re.search(r"\S+ wins after .*?VP\)", " ".join(again.stdout.split()))
    assert first and second and first.group(0) == second.group(0)


def test_play_refuses_unknown_warband_and_agent():
    done = skirmish("play", "--warbands", "nobody,nothing", "--quiet")
    assert done.returncode == 2 and "no warband 'nobody'" in done.stderr
    done = skirmish("play", "--agents", "genius,random", "--quiet")
    assert done.returncode == 2 and "unknown agent 'genius'" in done.stderr
