"""Balance sweeps: every warband against every other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from skirmish.cli.play import _warband
from skirmish.sim.sweep import heat_map, sweep

ROOT = Path(__file__).resolve().parents[2]
BANDS = ["civilization-gatehouse-patrol-100", "borderlands-ashpit-raiders-100"]


def test_sweep_matrix_is_consistent_and_drawn(tmp_path: Path):
    bands = [_warband(b) for b in BANDS]
    m = sweep(bands, ["broken-bridge-shrine"], 3, 5, "random", "serial", 1)
    assert m.games == [[0, 3], [3, 0]]
    assert m.wins[0][1] + m.wins[1][0] <= 3
    assert 0 <= m.rate(0, 1) <= 1
    data = m.to_json()
    assert data["win_rate"][0][0] is None and data["ci95"][0][1][0] <= data["win_rate"][0][1]
    picture = heat_map(m, tmp_path / "sweep.svg", "test")
    assert "<svg" in picture.read_text()


def test_sweep_command_json():
    done = subprocess.run([sys.executable, "-m", "skirmish", "simulate", "--sweep", "--warbands", ",".join(BANDS),
                           "--maps", "broken-bridge-shrine", "-n", "2", "--agents", "random", "--json",
                           "--workers", "1"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["warbands"] == ["gatehouse-patrol-100", "ashpit-raiders-100"]
    assert data["games"] == [[0, 2], [2, 0]]
