"""Games through the API: making them, their state, creatures' cards, events, agents playing,
bad requests, and several games at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

RUN_KEYS = {"ruleset", "round", "turn", "creatures", "answers", "events", "score", "winner"}


def game_state(state: dict[str, Any]) -> dict[str, Any]:
    """A state without its id: what two equal games share."""
    return {k: v for k, v in state.items() if k != "id"}


def test_default_game_is_the_play_commands_game(client: TestClient):
    r = client.post("/api/games", json={})
    assert r.status_code == 201
    state = r.json()["state"]
    assert state["id"] == r.json()["id"]
    assert set(state) >= RUN_KEYS and state["answers"] == [] and state["ruleset"] == "ddm2008"
    assert state["players"] == {"gatehouse-guard": "human", "ashpit-warhost": "tactician"}
    assert state["phase"] == "choose_map" and state["title"] == "D&D Miniatures Game (2008)"
    assert state["human_to_act"] == (state["players"][state["current_side"]] == "human")
    assert [s["name"] for s in state["sides"]] == ["gatehouse-guard", "ashpit-warhost"]
    assert all(s["colour"].startswith("#") for s in state["sides"])


def test_state_has_the_map_and_what_the_page_draws(client: TestClient, new_game: Callable[..., str],
                                                   agents: Callable[[str], dict[str, str]]):
    gid = new_game(agents("tactician"))
    client.post(f"/api/games/{gid}/advance", json={"max_actions": 40})
    state = client.get(f"/api/games/{gid}").json()
    m = state["map"]
    assert len(m["rows"]) == m["height"] and all(len(row) == m["width"] for row in m["rows"])
    assert {ch for row in m["rows"] for ch in row} == set(m["terrain"])
    assert m["terrain"]["#"] == {"name": "wall", "colour": "#3b3b3b", "blocks_sight": True, "difficult": False}
    assert m["elevation"] is None or len(m["elevation"]) == m["height"]
    for zone in m["zones"].values():
        assert zone["colour"].startswith("#") and all(len(sq) == 2 for sq in zone["squares"])
    labels = set()
    for cid, c in state["creatures"].items():
        assert {"hp", "temp_hp", "at", "conditions", "status", "name", "side", "size", "max_hp", "label",
                "on_map"} <= set(c), cid
        assert c["side"] in state["players"] and c["size"] >= 1 and c["hp"] <= c["max_hp"]
        assert c["on_map"] == (c["status"] in ("active", "down"))
        labels.add(c["label"])
    assert len(labels) == len(state["creatures"])
    assert any(c["on_map"] for c in state["creatures"].values())


def test_scenario_game_with_players(client: TestClient):
    r = client.post("/api/games", json={"scenario": "sample-dnd5e", "players": {"heroes": "random"}, "seed": 4})
    assert r.status_code == 201, r.text
    state = r.json()["state"]
    assert state["ruleset"] == "dnd5e" and state["players"] == {"heroes": "random", "orcs": "tactician"}
    assert state["map"]["width"] > 0 and state["phase"] is None


def test_games_are_listed(client: TestClient, new_game: Callable[..., str]):
    a, b = new_game(), new_game()
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == [a, b]
    assert games[0] == {"id": a, "ruleset": "ddm2008", "round": games[0]["round"], "over": False}


def test_creature_card(client: TestClient, new_game: Callable[..., str]):
    gid = new_game()
    state = client.get(f"/api/games/{gid}").json()
    cid, creature = next(iter(state["creatures"].items()))
    card = client.get(f"/api/games/{gid}/creatures/{cid}").json()
    assert card["id"] == cid and card["name"] == creature["name"] and card["side"] == creature["side"]
    assert card["hp"] == creature["hp"] and card["max_hp"] == creature["max_hp"]
    labels = [line["label"] for line in card["lines"]]
    assert "speed" in labels and "ac" in labels and "defense" in labels
    assert all(isinstance(line["text"], str) and line["text"] for line in card["lines"])


@pytest.mark.parametrize("path", ["/api/games/nope", "/api/games/nope/actions", "/api/games/nope/events",
                                  "/api/games/nope/replay", "/api/games/nope/creatures/x"])
def test_unknown_game_is_404(client: TestClient, path: str):
    r = client.get(path)
    assert r.status_code == 404 and "no game 'nope'" in r.json()["detail"]


def test_unknown_creature_is_404(client: TestClient, new_game: Callable[..., str]):
    r = client.get(f"/api/games/{new_game()}/creatures/nobody")
    assert r.status_code == 404 and "no creature 'nobody'" in r.json()["detail"]


@pytest.mark.parametrize(("body", "words"), [
    ({"warbands": ["civilization-gatehouse-guard"]}, "warbands"),
    ({"warbands": ["nobody", "civilization-gatehouse-guard"]}, "no warband 'nobody'"),
    ({"maps": ["nowhere"]}, "no ddm2008 map 'nowhere'"),
    ({"players": {"gatehouse-guard": "genius"}}, "unknown agent 'genius'"),
    ({"players": {"elves": "random"}}, "no side 'elves'"),
    ({"scenario": "nothing"}, "no scenario 'nothing'"),
    ({"scenario": "sample-drawsteel"}, "cannot play"),
    ({"scenario": "sample-dnd5e", "warbands": ["a", "b"]}, "either a scenario or warbands"),
    ({"seed": "one"}, "seed"),
    ({"colour": "red"}, "colour"),
])
def test_bad_new_game_is_422_with_a_reason(client: TestClient, body: dict[str, Any], words: str):
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert isinstance(r.json()["detail"], str) and words in r.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


def test_advance_plays_agents_until_a_person_must_act(client: TestClient, new_game: Callable[..., str]):
    gid = new_game({"gatehouse-patrol-100": "human"})
    while True:
        r = client.post(f"/api/games/{gid}/advance").json()
        if r["state"]["human_to_act"] or r["state"]["over"]:
            break
        assert r["applied"], "advance stopped without reason"
    state = r["state"]
    assert state["current_side"] == "gatehouse-patrol-100" and state["human_to_act"]
    again = client.post(f"/api/games/{gid}/advance").json()
    assert again["applied"] == [] and again["events"] == [] and again["state"] == state


def test_advance_respects_max_actions_and_reports_new_events(client: TestClient, new_game: Callable[..., str],
                                                             agents: Callable[[str], dict[str, str]]):
    gid = new_game(agents("random"))
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/advance", json={"max_actions": 3}).json()
    assert len(r["applied"]) == 3
    assert [e["n"] for e in r["events"]] == list(range(len(before["events"]), len(r["state"]["events"])))
    assert client.post(f"/api/games/{gid}/advance", json={"max_actions": -1}).status_code == 422


def test_events_since(client: TestClient, new_game: Callable[..., str], agents: Callable[[str], dict[str, str]]):
    gid = new_game(agents("random"))
    client.post(f"/api/games/{gid}/advance", json={"max_actions": 20})
    every = client.get(f"/api/games/{gid}/events").json()
    assert every["next"] == len(every["events"]) and [e["n"] for e in every["events"]] == list(range(every["next"]))
    tail = client.get(f"/api/games/{gid}/events", params={"since": 5}).json()
    assert tail["events"] == every["events"][5:] and tail["next"] == every["next"]
    state = client.get(f"/api/games/{gid}").json()
    assert [{k: v for k, v in e.items() if k != "n"} for e in every["events"]] == state["events"]
    assert client.get(f"/api/games/{gid}/events", params={"since": -1}).status_code == 422


def test_a_whole_game_between_agents(client: TestClient, new_game: Callable[..., str],
                                     agents: Callable[[str], dict[str, str]], play_out: Callable[[str], dict]):
    gid = new_game(agents("tactician"))
    final = play_out(gid)
    assert final["over"] and not final["human_to_act"] and final["current_side"] is None
    assert final["winner"] in (*final["players"], None)
    actions = client.get(f"/api/games/{gid}/actions").json()
    assert actions == {"actor": None, "side": None, "human": False, "actions": []}
    assert client.get("/api/games").json()["games"][0]["over"] is True


def test_two_games_at_once_do_not_interfere(client: TestClient, new_game: Callable[..., str],
                                            agents: Callable[[str], dict[str, str]]):
    first, second, alone = (new_game(agents("tactician")) for _ in range(3))
    untouched = client.get(f"/api/games/{second}").json()
    client.post(f"/api/games/{first}/advance", json={"max_actions": 30})
    assert client.get(f"/api/games/{second}").json() == untouched

    # Played side by side in two threads, in small bites, each ends as the same game played alone.
    def play(gid: str) -> None:
        for _ in range(40):
            client.post(f"/api/games/{gid}/advance", json={"max_actions": 7})

    threads = [threading.Thread(target=play, args=(gid,)) for gid in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client.post(f"/api/games/{alone}/advance", json={"max_actions": 30})
    play(alone)
    a, c = (client.get(f"/api/games/{g}").json() for g in (first, alone))
    assert game_state(a) == game_state(c)
    client.post(f"/api/games/{second}/advance", json={"max_actions": 30})
    assert game_state(client.get(f"/api/games/{second}").json()) == game_state(a)


def test_replay_round_trip_gives_the_same_game(client: TestClient, new_game: Callable[..., str],
                                               agents: Callable[[str], dict[str, str]],
                                               play_out: Callable[[str], dict]):
    gid = new_game(agents("tactician"), seed=5)
    client.post(f"/api/games/{gid}/advance", json={"max_actions": 60})
    midway = client.get(f"/api/games/{gid}").json()
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert set(replay) == {"skirmish_replay", "ruleset", "seed", "source", "actions"}
    assert replay["skirmish_replay"] == 1 and replay["seed"] == 5 and len(replay["actions"]) == 60
    r = client.post("/api/games/load", json={"replay": replay, "players": agents("tactician")})
    assert r.status_code == 201, r.text
    loaded = r.json()["id"]
    assert game_state(r.json()["state"]) == game_state(midway)
    # ... and goes on from there (the agents start afresh, so not necessarily as the first game goes on).
    final = play_out(loaded)
    assert final["over"] and len(client.get(f"/api/games/{loaded}/replay").json()["actions"]) > 60


def test_load_refuses_what_is_not_a_good_replay(client: TestClient, new_game: Callable[..., str],
                                                agents: Callable[[str], dict[str, str]]):
    gid = new_game(agents("random"))
    client.post(f"/api/games/{gid}/advance", json={"max_actions": 5})
    replay = client.get(f"/api/games/{gid}/replay").json()
    for bad, words in ((replay | {"skirmish_replay": 7}, "not a skirmish replay"),
                       (replay | {"actions": [*replay["actions"], {"actor": "nobody", "do": "activate"}]},
                        "actions[5]"),
                       (replay | {"seed": "x"}, "seed")):
        r = client.post("/api/games/load", json={"replay": bad})
        assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert client.post("/api/games/load", json={}).status_code == 422


def test_an_unexpected_failure_is_one_sentence(monkeypatch: pytest.MonkeyPatch):
    from skirmish.server.app import create_app
    from skirmish.server.games import Store

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Store, "new_game", broken)
    r = TestClient(create_app(), raise_server_exceptions=False).post("/api/games", json={})
    assert r.status_code == 500 and r.json() == {"detail": "the server failed (RuntimeError: a bug); this is a bug in "
                                                           "skirmish"}
