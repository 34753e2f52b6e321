"""A saved game opened in the browser's replay view: scrubbed with the slider, stepped with the
buttons and the arrow keys, the board checked against the API's state at every step shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from browser_helpers import Server, assert_board_matches, screenshot


def write_replay(folder: Path) -> Path:
    """A whole tactician-against-tactician game saved by ``skirmish play``."""
    path = folder / "game.json"
    subprocess.run([sys.executable, "-m", "skirmish", "play", "--agents", "tactician,tactician", "--seed", "3",
                    "--save", str(path), "--quiet"], check=True, capture_output=True, timeout=300)
    return path


def at_step(page: Any, server: Server, rid: str, k: int) -> dict[str, Any]:
    """Wait until the page shows step k, then check it against the API's state after k actions."""
    page.wait_for_selector(f"[data-testid=replay-bar][data-step='{k}']", state="attached")
    page.wait_for_selector("body[data-ui=replay]", state="attached")
    state = server.get(f"/api/replays/{rid}?step={k}")
    assert state["step"] == k
    assert page.locator("[data-testid=replay-slider]").input_value() == str(k)
    assert page.locator("[data-testid=replay-step]").inner_text() == f"{k} / {state['steps']}"
    assert_board_matches(page, state)
    fresh = page.locator("[data-testid=log] li.fresh")
    assert fresh.count() == len(state["new_events"])
    return state


def test_a_replay_is_scrubbed_and_stepped(page: Any, server: Server, tmp_path: Path) -> None:
    path = write_replay(tmp_path)
    total = len(json.loads(path.read_text())["actions"])
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ui=start-ready]", state="attached")
    page.set_input_files("[data-testid=open-replay]", str(path))
    page.wait_for_url("**/#/replay/*")
    rid = str(page.evaluate("location.hash")).rsplit("/", 1)[-1]
    state = at_step(page, server, rid, 0)
    assert state["steps"] == total
    assert page.locator("[data-testid=steps] li").count() == total
    assert page.locator("[data-testid=replay-slider]").get_attribute("max") == str(total)

    # Scrub with the slider: deep into the game, then back to a step before it.
    late = total * 2 // 3
    page.locator("[data-testid=replay-slider]").fill(str(late))
    at_step(page, server, rid, late)
    mid = total // 3
    page.locator("[data-testid=replay-slider]").fill(str(mid))
    at_step(page, server, rid, mid)

    # Step forward and back with the buttons.
    for k in (mid + 1, mid + 2, mid + 3):
        page.click("[data-testid=replay-next]")
        at_step(page, server, rid, k)
    page.click("[data-testid=replay-prev]")
    at_step(page, server, rid, mid + 2)

    # And with the arrow keys.
    page.keyboard.press("ArrowRight")
    at_step(page, server, rid, mid + 3)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at_step(page, server, rid, mid + 1)

    # A line of the step list jumps there; the current step is marked in the list.
    page.click(f"[data-testid=step-{late + 5}]")
    state = at_step(page, server, rid, late + 5)
    assert page.locator("[data-testid=steps] li.current").get_attribute("data-k") == str(late + 5)
    screenshot(page, "replay.png")

    # The last step: the game is over and the result is shown.
    page.click("[data-testid=replay-last]")
    state = at_step(page, server, rid, total)
    assert state["over"]
    assert state["winner"] in page.locator("[data-testid=result]").inner_text()
    page.click("[data-testid=replay-first]")
    at_step(page, server, rid, 0)
