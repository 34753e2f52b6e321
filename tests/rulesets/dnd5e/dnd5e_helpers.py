"""Shared helpers for the dnd5e rule tests: build a small scenario from Python values, play it through
the scenario runner, catch a refusal, pick events and rolls out of the result."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
import yaml

from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

STRIP = ["........", "........"]
"""The default map: an open 8 x 2 strip."""

SWORD = {"name": "sword", "bonus": 5, "damage": "1d8+3 slashing"}
"""A plain melee weapon: +5 to hit, 1d8+3 slashing, reach 1."""


def cr(cid: str, side: str, at: Iterable[int], *, hero: bool = False, creature: str | None = None,
       hp: int | None = None, max_hp: int | None = None, conditions: list[str] | None = None,
       **stats: Any) -> dict[str, Any]:
    """A creature entry: id, side, square, and inline ``stats`` from the keyword arguments; ``hp`` is the
    current hit points, ``max_hp`` the stat block's."""
    if max_hp is not None:
        stats["hp"] = max_hp
    out: dict[str, Any] = {"id": cid, "side": side, "at": list(at)}
    if creature is not None:
        out["creature"] = creature
    if stats or creature is None:
        out["stats"] = stats
    if hero:
        out["hero"] = True
    if hp is not None:
        out["hp"] = hp
    if conditions:
        out["conditions"] = conditions
    return out


def scenario(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), *,
             rows: list[str] | None = None, dice: list[int] | None = None, start: dict[str, Any] | None = None,
             options: dict[str, Any] | None = None, legend: dict[str, str] | None = None) -> str:
    """The YAML text of a dnd5e scenario (what a user would paste into a bug report)."""
    doc: dict[str, Any] = {"ruleset": "dnd5e"}
    if options:
        doc["options"] = options
    doc["map"] = {"rows": "\n".join(rows or STRIP) + "\n"}
    if legend:
        doc["map"]["legend"] = legend
    doc["creatures"] = creatures
    if dice is not None:
        doc["dice"] = dice
    if start is not None:
        doc["start"] = start
    doc["steps"] = list(steps)
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None)


def play(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), **kw: Any) -> dict[str, Any]:
    """Play a scenario; the ``skirmish run --json`` dict."""
    return run(load_scenario_text(scenario(creatures, steps, **kw)))


def refused(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), **kw: Any) -> StepRefused:
    """Play a scenario that must stop at a refused step; the refusal (``index``, ``actor``, ``rule``)."""
    with pytest.raises(StepRefused) as info:
        play(creatures, steps, **kw)
    return info.value


# Steps.


def move(actor: str, x: int, y: int, **kw: Any) -> dict[str, Any]:
    return {"actor": actor, "do": "move", "to": [x, y], **kw}


def attack(actor: str, target: str, weapon: str = "sword", **kw: Any) -> dict[str, Any]:
    return {"actor": actor, "do": "attack", "with": weapon, "target": target, **kw}


def do(actor: str, verb: str, **kw: Any) -> dict[str, Any]:
    return {"actor": actor, "do": verb, **kw}


def end(actor: str) -> dict[str, Any]:
    return {"actor": actor, "do": "end_turn"}


def ask(question: str, **kw: Any) -> dict[str, Any]:
    return {"ask": question, **kw}


# Reading the result.


def events(out: dict[str, Any], kind: str | None = None, **fields: Any) -> list[dict[str, Any]]:
    """The events of one type (all when ``kind`` is None) whose fields equal ``fields``."""
    return [e for e in out["events"] if (kind is None or e["type"] == kind)
            and all(e.get(k) == v for k, v in fields.items())]


def rolls(out: dict[str, Any], rule: str | None = None) -> list[tuple[str, int]]:
    """(label, result) of every die rolled, or of those rolled under one rule id."""
    return [(e["label"], e["result"]) for e in events(out, "roll") if rule is None or e.get("rule") == rule]


def turns(out: dict[str, Any]) -> list[str]:
    """The creatures whose turns started, in order."""
    return [e["actor"] for e in events(out, "turn")]


def answer(out: dict[str, Any], index: int = 0) -> Any:
    return out["answers"][index]["value"]


def reachable(out: dict[str, Any], index: int = 0) -> dict[tuple[int, int], int]:
    """A ``reachable`` answer as {(x, y): cost}."""
    return {(x, y): cost for (x, y), cost in answer(out, index)}


def legal(out: dict[str, Any], index: int = 0) -> list[dict[str, Any]]:
    return list(answer(out, index))


def legal_verbs(out: dict[str, Any], index: int = 0) -> set[str]:
    return {a["do"] for a in legal(out, index)}


def legal_moves(out: dict[str, Any], index: int = 0) -> set[tuple[int, int]]:
    return {(a["to"][0], a["to"][1]) for a in legal(out, index) if a["do"] == "move"}


def at(out: dict[str, Any], cid: str) -> list[int]:
    return out["creatures"][cid]["at"]


def hp(out: dict[str, Any], cid: str) -> int:
    return out["creatures"][cid]["hp"]


def conditions(out: dict[str, Any], cid: str) -> list[str]:
    return out["creatures"][cid]["conditions"]
