"""A dnd5e scenario started from the start screen and played by clicks: a ranged attack on a marked
target, then the end of the turn; the board is checked against the engine's state."""

from __future__ import annotations

from typing import Any

from browser_helpers import Server, assert_board_matches


def test_a_scenario_is_played_by_clicking(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ui=start-ready]", state="attached")
    page.check("[data-testid=mode-scenario]")
    page.select_option("[data-testid=scenario]", "dnd5e/goblin-ambush")
    page.select_option("[data-testid=scenario-player-0]", "human")
    page.select_option("[data-testid=scenario-player-1]", "tactician")
    page.click("[data-testid=start]")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("body[data-ui=human]", state="attached")
    gid = str(page.evaluate("location.hash")).rsplit("/", 1)[-1]
    state = server.get(f"/api/games/{gid}")
    assert state["ruleset"] == "dnd5e"
    assert state["players"] == {"party": "human", "monsters": "tactician"}
    assert_board_matches(page, state)

    listed = server.get(f"/api/games/{gid}/actions")
    targeted = [a for a in listed["actions"] if a["targets"] and a["do"] == "attack"]
    assert targeted, "the scenario's first creature has nobody to shoot"
    target = targeted[0]["targets"][0]
    tag = page.locator(f"[data-testid=target-{target['id']}] .target-text").text_content()
    assert (target["cover"] == "none" and "no cover" in tag) or target["cover"].replace("_", " ") in tag
    assert ("CA" in tag) == any(t["combat_advantage"] for a in targeted for t in a["targets"]
                                if t["id"] == target["id"])
    before = len(state["events"])
    page.click(f"[data-testid=token-{target['id']}]", force=True)
    menu = page.locator("[data-testid=menu]")
    if menu.is_visible():
        menu.locator(f"[data-testid=menu-{targeted[0]['index']}]").click()
    page.wait_for_selector("body[data-ui=human], body[data-ui=over]", state="attached")
    state = server.get(f"/api/games/{gid}")
    assert any(e.get("target") == target["id"] for e in state["events"][before:])
    assert_board_matches(page, state)
    actor = listed["actor"]
    if state["turn"] == actor and state["human_to_act"]:
        page.click("[data-testid=end-turn]")
        page.wait_for_selector("body[data-ui=human], body[data-ui=over]", state="attached")
        state = server.get(f"/api/games/{gid}")
        assert state["turn"] != actor or state["round"] > 1
        assert_board_matches(page, state)
