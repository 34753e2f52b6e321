"""The skirmish command: exit statuses, JSON on standard output, errors as one line, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "scenarios").glob("sample-*.yaml"))


def skirmish(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skirmish", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_run_json_answers_every_sample(sample: Path):
    done = skirmish("run", str(sample), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ruleset"] == sample.stem.removeprefix("sample-")
    assert len(out["answers"]) > 0


def test_run_without_json_draws_and_explains():
    done = skirmish("run", str(ROOT / "scenarios/sample-ddm2008.yaml"))
    assert done.returncode == 0, done.stderr
    assert "Questions" in done.stdout and "flank" in done.stdout


def test_bad_file_exits_2_with_one_line_and_no_output(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: ddm2008\nmap: {rows: \"..\\n.\"}\n")
    done = skirmish("run", str(bad), "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "bad.yaml" in done.stderr and "Traceback" not in done.stderr


def test_missing_file_exits_2():
    done = skirmish("validate", "no/such/file.yaml")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_do_step_exits_3_naming_step_and_actor(tmp_path: Path):
    f = tmp_path / "act.yaml"
    f.write_text("ruleset: dnd3\nmap: {rows: \"...\"}\ncreatures:\n  - {id: a, side: x, at: [0, 0], stats: {}}\n"
                 "steps:\n  - {actor: a, do: dash}\n")
    done = skirmish("run", str(f), "--json")
    assert done.returncode == 3
    assert done.stdout == ""
    assert "steps[0] (a)" in done.stderr


def test_validate_ok_and_render_picture(tmp_path: Path):
    sample = str(ROOT / "scenarios/sample-ddm2008.yaml")
    done = skirmish("validate", sample)
    assert done.returncode == 0 and "ok" in done.stdout
    out = tmp_path / "map.svg"
    done = skirmish("render", sample, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_render_refuses_unknown_picture_type(tmp_path: Path):
    out = tmp_path / "map.gif"
    done = skirmish("render", str(ROOT / "scenarios/sample-ddm2008.yaml"), "--out", str(out))
    assert done.returncode == 2 and not out.exists()
