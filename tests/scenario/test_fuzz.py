"""Random scenario text never produces a traceback: only ``ContentError`` (exit 2) or a refused step."""

from __future__ import annotations

import contextlib
import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.errors import ContentError
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

BASE = {
    "ruleset": "ddm2008",
    "seed": 1,
    "map": {"rows": "......\n.#..~.\n..T...\n", "zones": {"start_a": {"rect": [[0, 0], [1, 1]]}}},
    "creatures": [
        {"id": "a", "side": "x", "at": [0, 0], "stats": {"speed": 6, "attacks": [
            {"name": "blast", "kind": "area", "range": 6, "area": "radius 1"}]}},
        {"id": "b", "side": "y", "at": [5, 2], "creature": "gloomfang-goblin"},
    ],
    "steps": [
        {"ask": "distance", "from": "a", "to": "b"},
        {"ask": "area", "actor": "a", "with": "blast", "at": [3, 1]},
        {"ask": "reachable", "actor": "a"},
    ],
}

values = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text(max_size=8)
    | st.sampled_from(["dnd5e", "drawsteel", "burst 2", "cone small", "line 3", "1d8+2", "F8", "large", "#"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, (*prefix, i))


ALL_PATHS = list(paths(BASE))[1:]


def mutate(data, path, value):
    out = copy.deepcopy(data)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def check(text: str) -> None:
    try:
        scenario = load_scenario_text(text, "fuzz.yaml")
    except ContentError as e:
        assert str(e).startswith("fuzz.yaml")
        return
    with contextlib.suppress(StepRefused, ContentError):
        run(scenario)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(ALL_PATHS), values), min_size=1, max_size=3))
def test_mutated_scenarios_never_raise_anything_but_content_errors(changes):
    data = BASE
    for path, value in changes:
        try:
            data = mutate(data, path, value)
        except (KeyError, IndexError, TypeError):
            continue
    check(yaml.safe_dump(data, sort_keys=False))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_text_never_raises_anything_but_content_errors(text):
    check(text)


def test_base_scenario_is_valid():
    out = run(load_scenario_text(yaml.safe_dump(BASE, sort_keys=False), "fuzz.yaml"))
    assert out["answers"][0] == {"ask": "distance", "value": 5}
