"""Seeded games replay their golden event streams byte for byte (``tools/golden.py`` writes them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("golden", ROOT / "tools" / "golden.py")
assert _spec and _spec.loader
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

CASES = [(ruleset, *game) for ruleset, games in golden.GAMES.items() for game in games]


@pytest.mark.parametrize(("ruleset", "stem", "source", "seed", "agents"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_seeded_game_gives_its_golden_events(ruleset, stem, source, seed, agents):
    expected = golden.path_of(ruleset, stem).read_text().splitlines()
    got = list(golden.play(source, seed, agents))
    for i, (e, g) in enumerate(zip(expected, got, strict=False)):
        assert g == e, f"{ruleset}-{stem}: event {i} differs (python tools/golden.py rewrites the file after a " \
                       "change meant to change outcomes)"
    assert len(got) == len(expected)
