"""A ddm2008 game played by clicking in the browser, human against the tactician.

After every step the board, hit points, round, score and log the page shows are checked against
the engine's state from the API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_helpers import Server, assert_board_matches, read_board, screenshot

PLACED_BY_CLICK = 3
ACTIVATIONS = 4


def wait_for_human(page: Any) -> None:
    """Until the agents have answered and the page waits for the person (or the game is over)."""
    page.wait_for_selector("body[data-ui=human], body[data-ui=over]", state="attached")


def game_id(page: Any) -> str:
    return str(page.evaluate("location.hash")).rsplit("/", 1)[-1]


def pick(page: Any, x: int, y: int) -> None:
    """Click a highlighted square (a small menu answers with its first choice when the square is ambiguous)."""
    page.click(f"[data-testid=square-{x}-{y}]")
    menu = page.locator("[data-testid=menu]")
    if menu.is_visible():
        menu.locator("button").first.click()


def start_game(page: Any, server: Server) -> str:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ui=start-ready]", state="attached")
    page.select_option("[data-testid=warband-0]", "civilization-gatehouse-guard")
    page.select_option("[data-testid=warband-1]", "borderlands-ashpit-warhost")
    page.select_option("[data-testid=player-0]", "human")
    page.select_option("[data-testid=player-1]", "tactician")
    page.fill("[data-testid=seed]", "2")
    page.click("[data-testid=start]")
    page.wait_for_url("**/#/game/*")
    wait_for_human(page)
    gid = game_id(page)
    state = server.get(f"/api/games/{gid}")
    assert state["players"] == {"gatehouse-guard": "human", "ashpit-warhost": "tactician"}
    assert state["human_to_act"]
    return gid


def setup_by_clicking(page: Any, server: Server, gid: str) -> None:
    """Choices by their buttons, the first placements by clicking squares, the rest by "place for me"."""
    clicked = 0
    for _ in range(40):
        state = server.get(f"/api/games/{gid}")
        assert_board_matches(page, state)
        if state["phase"] in ("activate", "act"):
            return
        actions = server.get(f"/api/games/{gid}/actions")["actions"]
        if state["phase"] == "place":
            waiting = [c for c in state["creatures"].values()
                       if c["side"] == state["current_side"] and not c["on_map"] and c["status"] == "removed"]
            assert f"({len(waiting)})" in page.locator("[data-testid=to-place]").inner_text()
            if clicked < PLACED_BY_CLICK:
                actor = actions[0]["step"]["actor"]
                x, y = actions[len(actions) // 3]["step"]["at"]
                highlighted = page.locator(".sq.reachable").count()
                assert highlighted == len({tuple(a["step"]["at"]) for a in actions})
                pick(page, x, y)
                wait_for_human(page)
                assert server.get(f"/api/games/{gid}")["creatures"][actor]["at"] == [x, y]
                assert read_board(page)["tokens"][actor]["x"] == x
                clicked += 1
            else:
                page.click("[data-testid=auto-place]")
                page.wait_for_function(
                    "() => document.body.dataset.ui === 'human' && document.body.dataset.phase !== 'place'")
        else:
            page.click(f"[data-testid=action-{actions[0]['index']}]")
            wait_for_human(page)
    raise AssertionError("setup did not end")


def nearest_enemy_distance(state: dict[str, Any], sq: list[int], side: str) -> int:
    return min((max(abs(c["at"][0] - sq[0]), abs(c["at"][1] - sq[1]))
                for c in state["creatures"].values() if c["side"] != side and c["on_map"]), default=0)


def test_a_game_is_played_by_clicking(page: Any, server: Server, tmp_path: Path) -> None:
    gid = start_game(page, server)
    setup_by_clicking(page, server, gid)
    attacked = answered = area_hovered = 0
    for _ in range(ACTIVATIONS):
        state = server.get(f"/api/games/{gid}")
        assert_board_matches(page, state)
        if state["over"]:
            break
        side = state["current_side"]
        # Select: click one of the ringed creatures.
        selectable = page.locator("[data-testid^=selectable-]")
        assert selectable.count() > 0
        ids = [str(t).removeprefix("selectable-") for t in
               selectable.evaluate_all("els => els.map(e => e.dataset.testid)")]
        # An ember adept when one is ready: its flame ring is an area attack.
        cid = next((c for c in ids if c.startswith("ember-adept")), ids[0])
        page.click(f"[data-testid=token-{cid}]")
        wait_for_human(page)
        state = server.get(f"/api/games/{gid}")
        assert state["turn"] == cid
        assert page.locator("[data-testid=card-name]").inner_text() == state["creatures"][cid]["name"]
        actions = server.get(f"/api/games/{gid}/actions")["actions"]
        # Hovering an area attack's square shows the squares it would hit.
        areas = [a for a in actions if a["area"] and "at" in a["step"]]
        if areas:
            enemies = [c["at"] for c in state["creatures"].values() if c["side"] != side and c["on_map"]]
            aim = max(areas, key=lambda a: sum(sq in a["area"] for sq in enemies))
            x, y = aim["step"]["at"]
            page.hover(f"[data-testid=square-{x}-{y}]")
            shown_area = page.locator("[data-testid^=area-]").evaluate_all(
                "els => els.map(e => e.dataset.testid)")
            assert sorted(shown_area) == sorted(f"area-{ax}-{ay}" for ax, ay in aim["area"])
            if not area_hovered:
                screenshot(page, "game.png")
            area_hovered += 1
        # Move: click the highlighted square nearest the enemy; its cost is written in it.
        moves = [a for a in actions if a["do"] == "move"]
        assert moves, f"{cid} has nowhere to move"
        best = min(moves, key=lambda a: (nearest_enemy_distance(state, a["to"], side), -a["cost"]))
        x, y = best["to"]
        cheapest = min(a["cost"] for a in actions if a["to"] == [x, y] and a["cost"] is not None)
        assert page.locator(f"[data-testid=cost-{x}-{y}]").text_content() == str(cheapest)
        page.hover(f"[data-testid=square-{x}-{y}]")
        page.wait_for_selector(".move-path", state="attached")
        pick(page, x, y)
        wait_for_human(page)
        state = server.get(f"/api/games/{gid}")
        assert state["creatures"][cid]["at"] == [x, y]
        assert_board_matches(page, state)
        # Attack: click a marked target when one is in range.
        marks = page.locator("[data-testid^=target-]")
        if marks.count() and not state["over"]:
            target = str(marks.first.get_attribute("data-testid")).removeprefix("target-")
            before = len(state["events"])
            page.click(f"[data-testid=token-{target}]", force=True)
            menu = page.locator("[data-testid=menu]")
            if menu.is_visible():
                menu.locator("button").first.click()
            wait_for_human(page)
            state = server.get(f"/api/games/{gid}")
            new = state["events"][before:]
            assert any(e["type"] == "attack" and e.get("target") == target for e in new), new
            shown = assert_board_matches(page, state)
            if state["creatures"][target]["on_map"]:
                assert shown["tokens"][target]["hp"] == state["creatures"][target]["hp"]
            attacked += 1
        # End the turn; the tactician answers and the page waits for the next decision.
        state = server.get(f"/api/games/{gid}")
        if not state["over"] and state["turn"] == cid and state["human_to_act"]:
            before = len(state["events"])
            page.click("[data-testid=end-turn]")
            wait_for_human(page)
            state = server.get(f"/api/games/{gid}")
            answered += sum(1 for e in state["events"][before:]
                            if e["type"] == "activate" and state["creatures"][e["actor"]]["side"] != side)
            assert_board_matches(page, state)
            assert state["human_to_act"] or state["over"]
    assert attacked >= 1, "no attack was ever in range"
    assert answered >= 1, "the agent never answered"
    assert area_hovered >= 1, "no area attack was offered"
    state = server.get(f"/api/games/{gid}")
    assert_board_matches(page, state)
    # Dice lines appear when asked for.
    page.check("[data-testid=show-dice]")
    shown = read_board(page)
    assert all(line["shown"] for line in shown["lines"])
    page.uncheck("[data-testid=show-dice]")
    # Save the game (a replay file), load it back: the same position, still the person's move.
    with page.expect_download() as download:
        page.click("[data-testid=save]")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text()) == server.get(f"/api/games/{gid}/replay")
    page.set_input_files("[data-testid=load-file]", str(saved))
    page.wait_for_function(f"() => location.hash.startsWith('#/game/') && !location.hash.endsWith('/{gid}')")
    wait_for_human(page)
    loaded = server.get(f"/api/games/{game_id(page)}")
    assert loaded["creatures"] == state["creatures"]
    assert loaded["round"] == state["round"]
    assert_board_matches(page, loaded)
