"""Shared helpers for the ddm2008 rule tests: play a scenario's YAML text, catch a refusal, pick events."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run


def play(text: str) -> dict[str, Any]:
    """Run a scenario (YAML text, indentation removed) and return the ``skirmish run --json`` dict."""
    return run(load_scenario_text(textwrap.dedent(text)))


def refused(text: str) -> StepRefused:
    """Run a scenario that must stop at a refused step; return the refusal."""
    with pytest.raises(StepRefused) as info:
        play(text)
    return info.value


def events(out: dict[str, Any], kind: str | None = None, **fields: Any) -> list[dict[str, Any]]:
    """The events of one type (all when ``kind`` is None) whose fields equal ``fields``."""
    return [e for e in out["events"] if (kind is None or e["type"] == kind)
            and all(e.get(k) == v for k, v in fields.items())]


def activations(out: dict[str, Any]) -> list[str]:
    """The ids of the creatures activated, in order."""
    return [e["actor"] for e in events(out, "activate")]


def verbs(out: dict[str, Any], index: int = 0) -> set[str]:
    """The verbs of a ``legal_actions`` answer."""
    return {a["do"] for a in out["answers"][index]["value"]}


def at(out: dict[str, Any], cid: str) -> list[int]:
    """Where a creature stands at the end."""
    return out["creatures"][cid]["at"]


def hp(out: dict[str, Any], cid: str) -> int:
    return out["creatures"][cid]["hp"]
