"""Golden event streams: seeded games of each playable rule set, played to the end, every event.

A change that must not change outcomes (a refactor, a speed-up) keeps these files byte for byte;
``python tools/golden.py`` rewrites them after a change that is meant to change an outcome, and the
diff shows which. ``tests/test_golden.py`` plays the same games and compares.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"

# (file stem, source, seed, agents by side order): small enough to play in a few seconds in all.
GAMES: dict[str, list[tuple[str, dict[str, Any], int, tuple[str, str]]]] = {
    "ddm2008": [
        ("random-1", {"warbands": ["civilization-gatehouse-guard", "wild-howlpack"],
                      "maps": ["ashen-crossroads", "gloomwater-cistern"]}, 1, ("random", "random")),
        ("tactician-2", {"warbands": ["underdark-web-court", "borderlands-hillfort-company"],
                         "maps": ["gloomwater-cistern", "broken-bridge-shrine"]}, 2, ("tactician", "tactician")),
    ],
    "dnd5e": [
        ("orc-raid-random-1", {"scenario": "scenarios/dnd5e/orc-raid.yaml"}, 1, ("random", "random")),
        ("goblin-ambush-tactician-2", {"scenario": "scenarios/dnd5e/goblin-ambush.yaml"}, 2,
         ("tactician", "tactician")),
        ("mirror-tactician-3", {"scenario": "scenarios/mirror-dnd5e.yaml"}, 3, ("tactician", "random")),
    ],
}


def start(source: dict[str, Any], seed: int) -> Any:
    """A new seeded game from a scenario path (from the project's root) or two shipped warbands and maps."""
    from skirmish.games import warband
    from skirmish.sim.batch import build_state

    src = dict(source)
    if "scenario" in src:
        src["scenario"] = str(ROOT / src["scenario"])
    else:
        src["warbands"] = [list(warband(name)) for name in src["warbands"]]
    return build_state(src, seed)


def play(source: dict[str, Any], seed: int, agents: tuple[str, str]) -> Iterator[str]:
    """Every event of one seeded game, as JSON lines, and the result last."""
    from skirmish.agents import find_agent, play_game

    state = start(source, seed)
    players = {side: find_agent(name, state.ruleset.name, seed + k)
               for k, (side, name) in enumerate(zip(state.sides(), agents, strict=False))}
    state = play_game(state, players)
    for event in state.events:
        yield json.dumps(event.to_json(), sort_keys=True, default=str)
    yield json.dumps({"winner": state.winner, "score": state.score, "round": state.round}, sort_keys=True)


def path_of(ruleset: str, stem: str) -> Path:
    return GOLDEN / f"{ruleset}-{stem}.jsonl"


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for ruleset, games in GAMES.items():
        for stem, source, seed, agents in games:
            text = "\n".join(play(source, seed, agents)) + "\n"
            path = path_of(ruleset, stem)
            changed = not path.exists() or path.read_text() != text
            path.write_text(text)
            print(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines{' (changed)' if changed else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
