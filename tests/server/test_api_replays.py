"""Replays through the API: loading one, stepping to any action and back, the step list; a replay
ends as the game it came from."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

GAME_KEYS = ("ruleset", "round", "turn", "creatures", "events", "score", "winner", "phase", "current_side",
             "over", "map", "sides")


def same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a[k] == b[k] for k in GAME_KEYS)


@pytest.fixture
def finished(client: TestClient, new_game: Callable[..., str], agents: Callable[[str], dict[str, str]],
             play_out: Callable[[str], dict]) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A finished game between agents: its final state, its replay and the loaded replay's id."""
    gid = new_game(agents("random"), seed=7)
    final = play_out(gid)
    replay = client.get(f"/api/games/{gid}/replay").json()
    r = client.post("/api/replays", json=replay)
    assert r.status_code == 201, r.text
    assert r.json()["steps"] == len(replay["actions"]) and r.json()["ruleset"] == "ddm2008"
    return final, replay, str(r.json()["id"])


def test_the_last_step_is_the_game_as_it_ended(client: TestClient, finished: tuple[dict, dict, str]):
    final, replay, rid = finished
    n = len(replay["actions"])
    end = client.get(f"/api/replays/{rid}", params={"step": n}).json()
    assert same_game(end, final) and end["over"] and end["winner"] == final["winner"]
    assert end["step"] == n and end["steps"] == n and end["id"] == rid and end["human_to_act"] is False


def test_step_zero_is_the_fresh_game(client: TestClient, finished: tuple[dict, dict, str],
                                     new_game: Callable[..., str]):
    _, _, rid = finished
    start = client.get(f"/api/replays/{rid}").json()
    assert start["step"] == 0 and start["new_events"] == []
    fresh = client.get(f"/api/games/{new_game(seed=7)}").json()
    assert same_game(start, fresh)


def test_stepping_forward_and_back_gives_the_same_states(client: TestClient, finished: tuple[dict, dict, str]):
    _, replay, rid = finished
    n = len(replay["actions"])
    forward = [client.get(f"/api/replays/{rid}", params={"step": k}).json() for k in range(min(n, 40) + 1)]
    for k in range(1, len(forward)):
        made = forward[k]["events"][len(forward[k - 1]["events"]):]
        assert [{key: v for key, v in e.items() if key != "n"} for e in forward[k]["new_events"]] == made
        assert [e["n"] for e in forward[k]["new_events"]] == list(range(len(forward[k - 1]["events"]),
                                                                       len(forward[k]["events"])))
    back = [client.get(f"/api/replays/{rid}", params={"step": k}).json() for k in reversed(range(len(forward)))]
    assert back[::-1] == forward
    for k in random.Random(1).sample(range(len(forward)), 12):
        assert client.get(f"/api/replays/{rid}", params={"step": k}).json() == forward[k]


def test_step_list(client: TestClient, finished: tuple[dict, dict, str]):
    _, replay, rid = finished
    steps = client.get(f"/api/replays/{rid}/steps").json()["steps"]
    assert [s["k"] for s in steps] == list(range(1, len(replay["actions"]) + 1))
    assert [s["actor"] for s in steps] == [a["actor"] for a in replay["actions"]]
    assert all(s["text"].startswith(f"{s['actor']}: {a['do']}") for s, a in zip(steps, replay["actions"], strict=True))


def test_bad_steps_and_unknown_replays(client: TestClient, finished: tuple[dict, dict, str]):
    _, replay, rid = finished
    n = len(replay["actions"])
    r = client.get(f"/api/replays/{rid}", params={"step": n + 1})
    assert r.status_code == 422 and f"give 0 to {n}" in r.json()["detail"]
    assert client.get(f"/api/replays/{rid}", params={"step": -1}).status_code == 422
    assert client.get(f"/api/replays/{rid}", params={"step": "last"}).status_code == 422
    for path in ("/api/replays/nope", "/api/replays/nope/steps"):
        r = client.get(path)
        assert r.status_code == 404 and "no replay 'nope'" in r.json()["detail"]


@pytest.mark.parametrize(("change", "words"), [
    ({"skirmish_replay": 2}, "not a skirmish replay"),
    ({"source": {"somewhere": 1}}, "source"),
    ({"source": {"warbands": [["a"]], "maps": 5}}, "source"),
    ({"source": {"scenario": 5}}, "source"),
    ({"actions": "all of them"}, "actions"),
    ({"source": {"scenario": "no-such-file.yaml"}}, "no-such-file.yaml"),
])
def test_bad_replays_are_422(client: TestClient, finished: tuple[dict, dict, str], change: dict, words: str):
    _, replay, _ = finished
    r = client.post("/api/replays", json=replay | change)
    assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_a_replay_with_a_refused_action_is_422(client: TestClient, finished: tuple[dict, dict, str]):
    _, replay, _ = finished
    actions = list(replay["actions"])
    actions[3] = {"actor": actions[3]["actor"], "do": "move", "to": [0, 0]}
    r = client.post("/api/replays", json=replay | {"actions": actions})
    assert r.status_code == 422 and "actions[3]" in r.json()["detail"]
    r = client.post("/api/replays", json=replay | {"actions": [*replay["actions"], replay["actions"][-1]]})
    assert r.status_code == 422 and "after the game ended" in r.json()["detail"]


def test_scenario_replay(client: TestClient, play_out: Callable[[str], dict]):
    sides = client.get("/api/scenarios").json()["scenarios"]
    sides = next(s["sides"] for s in sides if s["name"] == "duel-dnd5e")
    gid = client.post("/api/games", json={"scenario": "duel-dnd5e", "seed": 3,
                                          "players": dict.fromkeys(sides, "random")}).json()["id"]
    final = play_out(gid)
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["ruleset"] == "dnd5e" and replay["source"]["scenario"].endswith("duel-dnd5e.yaml")
    rid = client.post("/api/replays", json=replay).json()["id"]
    end = client.get(f"/api/replays/{rid}", params={"step": len(replay["actions"])}).json()
    assert same_game(end, final)
