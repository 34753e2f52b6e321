"""A person's actions through the API: the listing (squares, paths, costs, targets, areas), playing one
by index or as a step, and refusals that change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skirmish.rulesets import find_ruleset

ACTION_KEYS = {"index", "step", "do", "text", "squares", "to", "cost", "path", "targets", "area",
               "square", "mark", "select", "highlight", "fold", "ends_turn"}
HUMAN_SIDE = "gatehouse-patrol-100"


def to_human(client: TestClient, gid: str) -> dict[str, Any]:
    """Let the agents play until the person must act; the actions listed then."""
    for _ in range(50):
        r = client.post(f"/api/games/{gid}/advance").json()
        assert not r["state"]["over"]
        if r["state"]["human_to_act"]:
            return dict(client.get(f"/api/games/{gid}/actions").json())
    raise AssertionError("the person was never asked")


def to_activation(client: TestClient, gid: str, want: Callable[[list[dict[str, Any]]], bool]) -> list[dict]:
    """Play the person's side with its first listed action until the listing has what ``want`` asks for."""
    for _ in range(400):
        listing = to_human(client, gid)
        if want(listing["actions"]):
            return list(listing["actions"])
        # Prefer ending an activation after the first move, so many creatures get their turn.
        pick = next((a for a in listing["actions"] if a["do"] == "activate"), listing["actions"][0])
        assert client.post(f"/api/games/{gid}/actions", json={"index": pick["index"]}).status_code == 200
    raise AssertionError("no such actions came up")


@pytest.fixture
def gid(new_game: Callable[..., str]) -> str:
    return new_game({HUMAN_SIDE: "human", "ashpit-raiders-100": "tactician"}, seed=3)


def test_listing_says_who_acts_and_numbers_the_actions(client: TestClient, gid: str):
    listing = to_human(client, gid)
    assert listing["human"] is True and listing["side"] == HUMAN_SIDE and isinstance(listing["actor"], str)
    assert [a["index"] for a in listing["actions"]] == list(range(len(listing["actions"])))
    for a in listing["actions"]:
        assert set(a) == ACTION_KEYS
        assert a["do"] == a["step"]["do"] and a["step"]["actor"] and a["text"].startswith(a["step"]["actor"])


def test_play_by_index(client: TestClient, gid: str):
    listing = to_human(client, gid)
    chosen = listing["actions"][-1]
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/actions", json={"index": chosen["index"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["applied"] == [chosen["step"]]
    assert [e["n"] for e in body["events"]] == list(range(len(before["events"]), len(body["state"]["events"])))
    assert body["state"] == client.get(f"/api/games/{gid}").json()
    assert client.get(f"/api/games/{gid}/replay").json()["actions"][-1] == chosen["step"]


def test_play_by_step_as_the_listing_gives_it(client: TestClient, gid: str, new_game: Callable[..., str]):
    twin = new_game({HUMAN_SIDE: "human", "ashpit-raiders-100": "tactician"}, seed=3)
    listing, twin_listing = to_human(client, gid), to_human(client, twin)
    chosen = listing["actions"][0]
    by_step = client.post(f"/api/games/{gid}/actions", json={"step": chosen["step"]})
    by_index = client.post(f"/api/games/{twin}/actions", json={"index": twin_listing["actions"][0]["index"]})
    assert by_step.status_code == by_index.status_code == 200
    same = [{k: v for k, v in r.json()["state"].items() if k != "id"} for r in (by_step, by_index)]
    assert same[0] == same[1]


def test_moves_show_path_cost_and_squares(client: TestClient, gid: str):
    actions = to_activation(client, gid, lambda acts: any(a["do"] == "move" for a in acts))
    moves = [a for a in actions if a["do"] == "move"]
    for m in moves:
        assert m["to"] == m["step"]["to"] and m["path"][-1] == m["to"]
        assert m["to"] in m["squares"] and all(sq in m["squares"] for sq in m["path"])
        assert isinstance(m["cost"], int) and m["cost"] >= 1
        assert m["targets"] == [] and m["area"] is None
    # Entering difficult terrain costs more than a square a step, so some cost exceeds the path's length,
    # or every path is over plain floor; either way no cost is below the number of squares entered.
    assert all(m["cost"] >= len(m["path"]) for m in moves)


def test_attacks_show_targets_with_cover_and_combat_advantage(client: TestClient, gid: str):
    actions = to_activation(client, gid, lambda acts: any(a["targets"] for a in acts))
    words = set(find_ruleset("ddm2008").cover_words)
    for a in (a for a in actions if a["targets"]):
        for t in a["targets"]:
            assert t["cover"] in words and isinstance(t["combat_advantage"], bool)
        step_targets = a["step"].get("targets") or [a["step"].get("target")]
        assert [t["id"] for t in a["targets"]] == step_targets


def test_area_attacks_show_their_squares(client: TestClient, gid: str):
    actions = to_activation(client, gid, lambda acts: any(a["area"] for a in acts))
    for a in (a for a in actions if a["area"]):
        assert a["do"] == "attack" and all(len(sq) == 2 for sq in a["area"])
        if "at" in a["step"]:
            assert a["step"]["at"] in a["squares"]


def test_placement_shows_its_square(client: TestClient, gid: str):
    actions = to_activation(client, gid, lambda acts: any(a["do"] == "place" for a in acts))
    for a in (a for a in actions if a["do"] == "place"):
        assert a["squares"] == [a["step"]["at"]] and a["to"] is None and a["cost"] is None


@pytest.mark.parametrize(("body", "words"), [
    ({"index": 100_000}, "index 100000 is not one of the"),
    ({}, 'give {"index": i}'),
    ({"index": 0, "step": {"actor": "x", "do": "end_turn"}}, 'give {"index": i}'),
    ({"step": {"actor": "x", "do": "fly"}}, "no action 'fly'"),
    ({"index": "first"}, "index"),
])
def test_malformed_actions_are_422_and_change_nothing(client: TestClient, gid: str, body: dict[str, Any],
                                                      words: str):
    to_human(client, gid)
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/actions", json=body)
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert client.get(f"/api/games/{gid}").json() == before


def test_illegal_actions_are_409_with_the_rule_and_change_nothing(client: TestClient, gid: str):
    actions = to_activation(client, gid, lambda acts: any(a["do"] == "move" for a in acts))
    mover = next(a for a in actions if a["do"] == "move")["step"]["actor"]
    before = client.get(f"/api/games/{gid}").json()
    enemy = next(cid for cid, c in before["creatures"].items() if c["side"] != HUMAN_SIDE)
    wall = next([x, y] for y, row in enumerate(before["map"]["rows"]) for x, ch in enumerate(row) if ch == "#")
    for step in ({"actor": mover, "do": "move", "to": wall}, {"actor": enemy, "do": "end_turn"},
                 {"actor": mover, "do": "attack", "with": "nothing", "target": enemy}):
        r = client.post(f"/api/games/{gid}/actions", json={"step": step})
        assert r.status_code in (409, 422), r.text
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]
        if r.status_code == 409:
            assert "rule" in r.json()
        assert client.get(f"/api/games/{gid}").json() == before
        assert client.get(f"/api/games/{gid}/actions").json()["actions"] == actions
    r = client.post(f"/api/games/{gid}/actions", json={"step": {"actor": mover, "do": "move", "to": wall}})
    assert r.status_code == 409


def test_actions_only_while_a_person_is_to_act(client: TestClient, new_game: Callable[..., str],
                                               agents: Callable[[str], dict[str, str]]):
    gid = new_game(agents("random"))
    before = client.get(f"/api/games/{gid}").json()
    listing = client.get(f"/api/games/{gid}/actions").json()
    assert listing["human"] is False and listing["actions"]
    r = client.post(f"/api/games/{gid}/actions", json={"index": 0})
    assert r.status_code == 409 and "no person is to act" in r.json()["detail"] and r.json()["rule"] is None
    assert client.get(f"/api/games/{gid}").json() == before


def test_dnd5e_actions_are_listed_the_same_way(client: TestClient):
    r = client.post("/api/games", json={"scenario": "sample-dnd5e", "players": {"heroes": "human"}, "seed": 2})
    gid = r.json()["id"]
    listing = to_human(client, gid) if not r.json()["state"]["human_to_act"] else client.get(
        f"/api/games/{gid}/actions").json()
    moves = [a for a in listing["actions"] if a["do"] == "move"]
    assert moves and all(m["cost"] >= 1 and m["path"][-1] == m["to"] for m in moves)
    attacks = [a for a in listing["actions"] if a["targets"]]
    assert attacks and all(t["cover"] in find_ruleset("dnd5e").cover_words for a in attacks for t in a["targets"])
    r = client.post(f"/api/games/{gid}/actions", json={"index": moves[0]["index"]})
    assert r.status_code == 200 and r.json()["state"]["creatures"][moves[0]["step"]["actor"]]["at"] == moves[0]["to"]
