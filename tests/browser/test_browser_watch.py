"""Two agents playing while the page watches: each action shown in turn, paused and resumed."""

from __future__ import annotations

from typing import Any

from browser_helpers import Server, assert_board_matches


def test_agents_play_and_the_page_pauses(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ui=start-ready]", state="attached")
    page.select_option("[data-testid=player-0]", "tactician")
    page.select_option("[data-testid=player-1]", "random")
    page.click("[data-testid=start]")
    page.wait_for_url("**/#/game/*")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length >= 30")
    page.click("[data-testid=pause]")
    page.wait_for_selector("body[data-ui=waiting]", state="attached")
    assert page.locator("[data-testid=pause]").inner_text() == "Resume"
    gid = str(page.evaluate("location.hash")).rsplit("/", 1)[-1]
    paused = server.get(f"/api/games/{gid}")
    assert not paused["human_to_act"] and not paused["over"]
    assert_board_matches(page, paused)
    page.wait_for_timeout(600)
    assert server.get(f"/api/games/{gid}")["events"] == paused["events"], "the agents went on while paused"
    page.click("[data-testid=pause]")
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=log] li').length > {len(paused['events'])}")
    page.click("[data-testid=pause]")
    page.wait_for_selector("body[data-ui=waiting]", state="attached")
    assert_board_matches(page, server.get(f"/api/games/{gid}"))
