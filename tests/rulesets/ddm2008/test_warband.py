"""ddm2008 warband building (M08-014..M08-021, M08-153, M08-159, M08-160): the checks, the file
format and ``skirmish validate`` on warband files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.errors import ContentError
from skirmish.rulesets.ddm2008.warband import (
    Problem,
    Warband,
    check_warband,
    is_warband_data,
    limits,
    load_warband_file,
    read_warband_file,
    read_warband_text,
)

ROOT = Path(__file__).resolve().parents[3]
WARBANDS = ROOT / "src/skirmish/rulesets/ddm2008/content/warbands"
SHIPPED = sorted(WARBANDS.glob("*.yaml")) if WARBANDS.is_dir() else []

# A small catalog of our own, so the rule tests do not depend on the shipped one.
CATALOG: dict[str, dict[str, object]] = {
    "wolf": {"cost": 10, "alignment": "unaligned", "factions": ["wild"]},
    "druid": {"cost": 20, "alignment": "good", "factions": ["wild"]},
    "hag": {"cost": 30, "alignment": "evil", "factions": ["wild", "borderlands"]},
    "ranger": {"cost": 12, "alignment": "good", "factions": ["borderlands", "wild"]},
    "knight": {"cost": 25, "alignment": "good", "factions": ["civilization"]},
    "drake": {"cost": 45, "alignment": "unaligned", "factions": ["wild"]},
    "dragon": {"cost": 140, "alignment": "evil", "factions": ["wild"], "size": "large"},
    "treant": {"cost": 60, "alignment": "good", "factions": ["wild"], "size": "huge", "unique": True},
    "titan": {"cost": 90, "alignment": "unaligned", "factions": ["wild"], "size": "gargantuan"},
    "queen": {"cost": 40, "alignment": "unaligned", "factions": ["wild"], "unique": True},
    "wyrm": {"cost": 150, "alignment": "evil", "factions": ["wild"], "epic": True},
    "stray": {"cost": 5},
}


def band(*creatures: str, faction: str = "wild", points: int = 200, format: str = "standard") -> Warband:
    return Warband(name="test", faction=faction, points=points, format=format, creatures=list(creatures))


def errors(warband: Warband) -> list[Problem]:
    return [p for p in check_warband(warband, catalog=CATALOG) if p.severity == "error"]


def rules(problems: list[Problem]) -> list[str | None]:
    return [p.rule for p in problems]


def test_m08_014_to_021_a_legal_warband_has_no_problems():
    assert check_warband(band("wolf", "wolf", "druid", "ranger", "drake", "queen"), catalog=CATALOG) == []


# Limits (M08-017, GAP-M08-1; M08-159 for 250 points).

def test_m08_017_limits_table_rows_and_scaled_sizes():
    assert limits(200) == (10, 150)
    assert limits(100) == (5, 60)
    assert limits(250) == (12, 185)  # M08-159's combined variant
    assert limits(150) == (7, 110)
    assert limits(400) == (20, 300)
    with pytest.raises(ValueError):
        limits(0)


# Faction (M08-014).

def test_m08_014_creature_outside_the_faction_is_an_error():
    problems = errors(band("wolf", "knight"))
    assert rules(problems) == ["M08-014"]
    assert problems[0].path == ("creatures", 1)
    assert "creatures[1] knight" in problems[0].message and "wild" in problems[0].message


def test_m08_014_multi_faction_creature_joins_any_of_its_factions():
    assert errors(band("ranger", "wolf", faction="wild")) == []
    assert errors(band("hag", faction="borderlands")) == []
    assert errors(band("ranger", faction="borderlands")) == []


def test_m08_014_factionless_creature_joins_no_warband():
    problems = errors(band("stray"))
    assert rules(problems) == ["M08-014"] and "no faction" in problems[0].message


# Alignment (M08-015).

def test_m08_015_good_and_evil_may_not_mix_and_the_minority_is_named():
    problems = errors(band("druid", "ranger", "hag", "wolf"))
    assert rules(problems) == ["M08-015"]
    assert problems[0].path == ("creatures", 2)
    assert "creatures[2] hag is evil" in problems[0].message and "creatures[0] druid is good" in problems[0].message


def test_m08_015_unaligned_joins_good_or_evil():
    assert errors(band("wolf", "hag")) == []
    assert errors(band("wolf", "druid")) == []


# Total cost (M08-016).

def test_m08_016_total_cost_within_points():
    problems = errors(band("dragon", "drake", "druid"))  # 140 + 45 + 20 = 205
    assert rules(problems) == ["M08-015", "M08-016"]
    total = problems[-1]
    assert total.path == ("creatures",)
    assert "205" in total.message and "at most 200" in total.message and "5 over" in total.message


def test_m08_016_spending_exactly_the_limit_is_legal():
    assert errors(band("dragon", "wolf", "wolf", points=200, faction="wild")) == []  # 160 of 200
    assert errors(band("drake", "drake", "wolf", points=100)) == []  # 100 of 100


# Count and most expensive (M08-017).

def test_m08_017_no_creature_costs_more_than_the_limit():
    problems = errors(band("wolf", "drake", "queen", "titan", points=100))  # titan 90 > 60
    assert rules(problems) == ["M08-017", "M08-021", "M08-016"]
    assert problems[0].message == "creatures[3] titan costs 90; with 100 points no creature may cost more than 60"


def test_m08_017_wyrm_at_150_is_allowed_at_200_points():
    assert "M08-017" not in rules(errors(band("wyrm", points=200)))


def test_m08_017_too_many_creatures():
    problems = errors(band(*["wolf"] * 11))
    assert rules(problems) == ["M08-017"]
    assert "11 creatures" in problems[0].message and "at most 10" in problems[0].message
    assert "creatures[10] wolf" in problems[0].message


# Half-size maps (M08-018): a note, not an error.

def test_m08_018_note_for_100_points_or_fewer():
    problems = check_warband(band("wolf", points=100), catalog=CATALOG)
    assert [(p.rule, p.severity) for p in problems] == [("M08-018", "note")]
    assert check_warband(band("wolf", points=101), catalog=CATALOG) == []


# Unique (M08-020, M08-160).

def test_m08_020_one_copy_of_a_unique_creature():
    problems = errors(band("queen", "wolf", "queen"))
    assert rules(problems) == ["M08-020"]
    assert problems[0].path == ("creatures", 2)
    assert "already at creatures[0]" in problems[0].message


def test_m08_160_sealed_allows_duplicate_uniques_and_ignores_faction_and_alignment():
    assert errors(band("queen", "queen", "knight", "druid", "hag", format="sealed")) == []


# Huge and larger (M08-021, M08-153).

def test_m08_021_no_huge_or_gargantuan_in_standard_assault():
    problems = errors(band("treant", "titan"))
    assert rules(problems) == ["M08-021", "M08-021"]
    assert "creatures[0] treant is huge" in problems[0].message
    assert "creatures[1] titan is gargantuan" in problems[1].message
    assert errors(band("dragon")) == []  # large is fine


# Epic in sealed play (M08-160).

def test_m08_160_epic_card_in_sealed_is_an_error_naming_the_standard_version():
    problems = errors(band("wolf", "wyrm", format="sealed"))
    assert rules(problems) == ["M08-160"]
    assert "creatures[1] wyrm" in problems[0].message and "standard" in problems[0].message
    assert errors(band("wolf", "wyrm")) == []  # epic is fine in the standard format


def test_m08_014_to_021_every_problem_is_reported_not_just_the_first():
    problems = errors(band("knight", "titan", "treant", "treant", "hag", "wyrm", "wyrm", points=100))
    assert set(rules(problems)) == {"M08-014", "M08-015", "M08-016", "M08-017", "M08-020", "M08-021"}


def test_m08_014_unknown_name_in_a_hand_made_warband_is_a_problem():
    problems = errors(band("wolf", "wolff"))
    assert rules(problems) == [None] and "did you mean 'wolf'" in problems[0].message


# Reading files.

NESTED = """\
warband:
  name: Pack
  faction: wild
  points: 100
  creatures:
    - wolf
    - knight
"""

FLAT = """\
name: Pack
faction: wild
points: 100
creatures:
  - wolf
  - knight
"""


@pytest.mark.parametrize(("text", "line"), [(NESTED, 7), (FLAT, 6)], ids=["nested", "flat"])
def test_m08_014_both_file_forms_read_with_lines_relative_to_the_warband(text: str, line: int):
    read = read_warband_text(text, "w.yaml", catalog=CATALOG)
    assert read.warband.creatures == ["wolf", "knight"]
    assert read.warband.format == "standard"
    problems = check_warband(read.warband, catalog=CATALOG, file=read.file, lines=read.lines)
    assert [(p.rule, p.severity) for p in problems] == [("M08-014", "error"), ("M08-018", "note")]
    assert str(problems[0]).startswith(f"w.yaml: line {line}, creatures[1]: creatures[1] knight belongs to ")
    assert str(problems[0]).endswith("[M08-014]")


def test_m08_016_defaults_200_points_standard_format():
    read = read_warband_text("name: x\nfaction: wild\ncreatures: [wolf]\n", catalog=CATALOG)
    assert (read.warband.points, read.warband.format) == (200, "standard")


@pytest.mark.parametrize(("text", "where", "says"), [
    ("name: x\nfaction: wildd\ncreatures: [wolf]\n", "line 2, faction", "did you mean 'wild'"),
    ("name: x\nfaction: wild\ncreatures: [wolff]\n", "line 3, creatures[0]", "did you mean 'wolf'"),
    ("warband:\n  name: x\n  faction: wild\n  pionts: 100\n  creatures: [wolf]\n", "line 4, warband.pionts",
     "did you mean 'points'"),
    ("name: x\nfaction: wild\nformat: seeled\ncreatures: [wolf]\n", "line 3, format", "did you mean 'sealed'"),
    ("name: x\nfaction: wild\ncreatures: []\n", "line 3, creatures", "at least one creature"),
    ("faction: wild\ncreatures: [wolf]\n", "line 1, name", "name is required"),
    ("warband: [wolf]\n", "line 1, warband", "must be a mapping"),
    ("warband: {name: x, faction: wild, creatures: [wolf]}\nmap: 1\n", "line 2, map", "unknown top-level key"),
    ("name: x\nfaction: wild\npoints: 5\ncreatures: [wolf]\n", "line 3, points", "20 to 100000"),
])
def test_m08_014_format_errors_name_file_line_and_fix(text: str, where: str, says: str):
    with pytest.raises(ContentError) as caught:
        read_warband_text(text, "w.yaml", catalog=CATALOG)
    assert caught.value.file == "w.yaml"
    assert caught.value.where == where
    assert says in caught.value.detail


def test_m08_014_missing_file_is_a_content_error(tmp_path: Path):
    with pytest.raises(ContentError, match="no such file"):
        load_warband_file(tmp_path / "none.yaml", catalog=CATALOG)


def test_m08_014_is_warband_data_tells_warbands_from_scenarios():
    assert is_warband_data({"warband": {}})
    assert is_warband_data({"faction": "wild", "creatures": ["wolf"]})
    assert not is_warband_data({"ruleset": "ddm2008", "creatures": [{"id": "a"}]})
    assert not is_warband_data({"creatures": ["wolf"]})


# The shipped warbands (another person writes them).

NO_SHIPPED = pytest.param(None, marks=pytest.mark.skip(reason="no shipped warbands yet under "
                                                             "rulesets/ddm2008/content/warbands (being written)"))


@pytest.mark.parametrize("path", SHIPPED or [NO_SHIPPED], ids=lambda p: p.stem if p else "none")
def test_m08_014_to_021_shipped_warband_is_legal(path: Path):
    read = read_warband_file(path)
    problems = check_warband(read.warband, file=read.file, lines=read.lines)
    assert [str(p) for p in problems if p.severity == "error"] == []


def test_m08_014_to_021_there_are_shipped_warbands():
    if not SHIPPED:
        pytest.skip(f"no shipped warbands yet under {WARBANDS.relative_to(ROOT)} (being written)")
    assert {load_warband_file(p).faction for p in SHIPPED} <= {"borderlands", "civilization", "underdark", "wild"}


# The command line.

def skirmish(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": "src"}
    return subprocess.run([sys.executable, "-m", "skirmish", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def test_m08_017_cli_validate_bad_warband_exits_2_listing_every_problem(tmp_path: Path):
    f = tmp_path / "bad.yaml"
    f.write_text("warband:\n  name: Bad\n  faction: wild\n  points: 100\n  creatures:\n"
                 "    - greywood-wolf\n    - hill-dwarf-axeman\n    - stormcrown-wyrm\n")
    done = skirmish("validate", str(f))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert f"{f}: line 7, creatures[1]: creatures[1] hill-dwarf-axeman belongs to " in done.stderr
    assert any(line.startswith(f"{f}: line 8, creatures[2]: creatures[2] stormcrown-wyrm costs ")
               and "no creature may cost more than 60" in line and line.endswith("[M08-017]") for line in lines)
    assert any(line.endswith("[M08-021]") for line in lines)
    assert any(line.startswith("note: ") and line.endswith("[M08-018]") for line in lines)


def test_m08_014_cli_validate_unknown_creature_exits_2_with_near_match(tmp_path: Path):
    f = tmp_path / "typo.yaml"
    f.write_text("name: T\nfaction: wild\ncreatures: [greywood-wolff]\n")
    done = skirmish("validate", str(f))
    assert done.returncode == 2
    assert f"{f}: line 3, creatures[0]" in done.stderr and "greywood-wolf'?" in done.stderr
    assert "Traceback" not in done.stderr


def test_m08_016_cli_validate_good_warband_exits_0(tmp_path: Path):
    f = tmp_path / "good.yaml"
    f.write_text("name: Pack\nfaction: wild\ncreatures: [greywood-wolf, greywood-wolf]\n")
    done = skirmish("validate", str(f))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ok: {f}: Pack, wild, 2 creatures, ")
    assert "points of 200" in done.stdout


def test_m08_016_cli_validate_shipped_warband_exits_0():
    if not SHIPPED:
        pytest.skip(f"no shipped warbands yet under {WARBANDS.relative_to(ROOT)} (being written)")
    done = skirmish("validate", str(SHIPPED[0].relative_to(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: ")


def test_m08_014_cli_validate_still_checks_scenarios():
    done = skirmish("validate", "scenarios/sample-ddm2008.yaml")
    assert done.returncode == 0, done.stderr
    assert "map" in done.stdout
