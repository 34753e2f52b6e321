"""Replays: a game as its source, seed and actions, and the game rebuilt from them.

A replay is JSON: ``{"skirmish_replay": 1, "ruleset", "seed", "source", "actions"}``, where
``source`` says where the game came from (a scenario file, or two warbands and two maps, the
batch runner's recipe) and every action is a scenario step. Rebuilding the game and applying
the actions gives the same events, since the dice live in the state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeGuard

from skirmish.errors import ContentError, SkirmishError
from skirmish.files import write_text

REPLAY_VERSION = 1


def build_game(source: dict[str, Any], seed: int) -> Any:
    """A fresh game from a replay's ``source`` (the batch runner's own recipe); two warbands of the
    same side name are told apart as ``side-1`` and ``side-2``."""
    from skirmish.sim.batch import build_state

    if "warbands" in source:
        warbands = [(side, list(names)) for side, names in source["warbands"]]
        if warbands[0][0] == warbands[1][0]:
            source = {**source, "warbands": [(f"{warbands[0][0]}-1", warbands[0][1]),
                                             (f"{warbands[1][0]}-2", warbands[1][1])]}
    return build_state(source, seed)


def replay_data(source: dict[str, Any], seed: int, ruleset: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay object of a game."""
    return {"skirmish_replay": REPLAY_VERSION, "ruleset": ruleset, "seed": seed, "source": source,
            "actions": list(steps)}


def save_replay(path: Path, source: dict[str, Any], seed: int, ruleset: str, steps: list[dict[str, Any]]) -> None:
    """Write a replay file atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(replay_data(source, seed, ruleset, steps), indent=1))


def is_replay(data: Any) -> bool:
    """Whether parsed JSON is a replay (it has the ``skirmish_replay`` key)."""
    return isinstance(data, dict) and "skirmish_replay" in data


def parse_replay(data: Any, file: str | None = None) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    """A replay's source, seed and action steps.

    Raises:
        ContentError: not a replay this version can read.
    """
    if not isinstance(data, dict) or data.get("skirmish_replay") != REPLAY_VERSION:
        raise ContentError(f"not a skirmish replay (version {REPLAY_VERSION}): a replay is an object with "
                           f'"skirmish_replay": {REPLAY_VERSION}, "seed", "source" and "actions"', file=file)
    source, seed, actions = data.get("source"), data.get("seed"), data.get("actions")
    if not _good_source(source):
        raise ContentError('a replay\'s "source" is {"scenario": "<file>"} or {"warbands": [[side, [creature, '
                           '...]], [side, [...]]], "maps": ["<map>", ...]}', file=file)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ContentError(f'a replay\'s "seed" is a whole number, not {seed!r}', file=file)
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise ContentError('a replay\'s "actions" is a list of steps ({"actor", "do", ...})', file=file)
    return source, seed, list(actions)


def _good_source(source: Any) -> TypeGuard[dict[str, Any]]:
    """Whether a replay's source has the shape ``build_game`` reads."""
    if not isinstance(source, dict):
        return False
    if "scenario" in source:
        return isinstance(source["scenario"], str)
    bands, maps = source.get("warbands"), source.get("maps", [])
    return (isinstance(bands, list) and len(bands) == 2
            and all(isinstance(b, list) and len(b) == 2 and isinstance(b[0], str) and isinstance(b[1], list)
                    and all(isinstance(n, str) for n in b[1]) for b in bands)
            and isinstance(maps, list) and all(isinstance(m, str) for m in maps)
            and isinstance(source.get("options") or {}, dict)
            and isinstance(source.get("ruleset", ""), str))


def load_replay(path: Path) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    """Read a replay file.

    Raises:
        ContentError: no such file, or not a replay this version can read.
    """
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ContentError("no such file", file=str(path)) from None
    except (OSError, ValueError) as e:
        raise ContentError(f"not a replay file ({e})", file=str(path)) from None
    return parse_replay(data, str(path))


def replayed(source: dict[str, Any], seed: int, steps: list[dict[str, Any]],
             file: str | None = None) -> Iterator[tuple[Any, Any]]:
    """The game rebuilt from a replay: first ``(state, None)``, then ``(state, action)`` after each
    action is applied (the same state object, changed in place).

    Raises:
        ContentError: the game cannot be built, a step is malformed or illegal, or the replay goes
            on after the game ended.
    """
    state = build_game(source, seed)
    yield state, None
    for i, step in enumerate(steps):
        if state.is_over():
            raise ContentError(f"actions[{i}]: the replay goes on after the game ended", file=file)
        try:
            action = state.ruleset.parse_action(step)
            state.apply(action)
        except SkirmishError as e:
            raise ContentError(f"actions[{i}] ({step.get('actor')} {step.get('do')}): {e}", file=file) from None
        yield state, action
