"""What the browser tests share: the server's address, and reading the board the page shows."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@dataclass(frozen=True)
class Server:
    """A running ``skirmish serve``."""

    url: str

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.load(r)

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)



BOARD_JS = """() => {
  const tokens = {};
  for (const t of document.querySelectorAll('[data-testid^="token-"]')) {
    const cid = t.dataset.testid.slice(6);
    const hp = document.querySelector(`[data-testid="hp-${cid}"]`);
    tokens[cid] = {x: Number(t.dataset.x), y: Number(t.dataset.y), hp: hp ? Number(hp.textContent) : null,
                   status: t.dataset.status, down: t.classList.contains('down')};
  }
  const score = {};
  for (const s of document.querySelectorAll('[data-testid^="score-"]')) {
    score[s.dataset.side] = Number(s.querySelector('.vp').textContent);
  }
  const lines = [...document.querySelectorAll('[data-testid="log"] li')].map(li => ({
    type: li.dataset.type, text: li.querySelector('.text').textContent,
    rule: li.querySelector('.rule') ? li.querySelector('.rule').textContent : null,
    shown: getComputedStyle(li).display !== 'none'}));
  return {tokens, score, lines, round: document.querySelector('[data-testid="round"]').textContent};
}"""


def read_board(page: Any) -> dict[str, Any]:
    """What the page shows: every token's square, hit points and status; score, round and log lines."""
    return page.evaluate(BOARD_JS)  # type: ignore[no-any-return]


def assert_board_matches(page: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The page shows exactly the engine's state: creatures, hit points, round, score and log."""
    shown = read_board(page)
    for cid, c in state["creatures"].items():
        if c["on_map"]:
            assert cid in shown["tokens"], f"{cid} is on the map but has no token"
            tok = shown["tokens"][cid]
            assert [tok["x"], tok["y"]] == c["at"], f"{cid} drawn at {tok['x']},{tok['y']}, is at {c['at']}"
            assert tok["hp"] == c["hp"], f"{cid} shows {tok['hp']} HP, has {c['hp']}"
            assert tok["status"] == c["status"]
        elif c["status"] == "removed":
            assert cid not in shown["tokens"], f"{cid} is not on the map but has a token"
    assert shown["round"] == str(state["round"])
    assert shown["score"] == {side: int(v) for side, v in state["score"].items()}
    assert [(line["type"], line["text"], line["rule"]) for line in shown["lines"]] == [
        (e["type"], e["text"], e.get("rule")) for e in state["events"]]
    assert all(line["shown"] == (line["type"] != "roll") for line in shown["lines"]), "dice lines show unasked"
    return shown


def screenshot(page: Any, name: str) -> Path:
    """Save a picture of the page for the documentation (overwritten each run)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path))
    return path
