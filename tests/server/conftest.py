"""Shared fixtures of the API tests: a fresh app per test, and small ddm2008 games."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # newer Starlette warns about the httpx transport; the client works the same
    from fastapi.testclient import TestClient

from skirmish.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"warbands": ["civilization-gatehouse-patrol-100", "borderlands-ashpit-raiders-100"],
         "maps": ["broken-bridge-shrine"]}
"""Two 100-point warbands on one small map: a whole game takes about a second."""
SIDES = ("gatehouse-patrol-100", "ashpit-raiders-100")


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(ROOT / "scenarios"))


@pytest.fixture
def new_game(client: TestClient) -> Callable[..., str]:
    """Start a small game (``players`` and ``seed`` as given) and return its id."""

    def make(players: dict[str, str] | None = None, seed: int = 2, **body: Any) -> str:
        r = client.post("/api/games", json={**SMALL, "players": players or {}, "seed": seed, **body})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    return make


@pytest.fixture
def play_out(client: TestClient) -> Callable[[str], dict[str, Any]]:
    """Let the agents play a game to its end; its final state."""

    def run(gid: str) -> dict[str, Any]:
        for _ in range(100):
            r = client.post(f"/api/games/{gid}/advance")
            assert r.status_code == 200, r.text
            if r.json()["state"]["over"]:
                return dict(r.json()["state"])
        raise AssertionError("the game did not end")

    return run


def agents_only(kind: str = "tactician") -> dict[str, str]:
    return {side: kind for side in SIDES}


@pytest.fixture
def agents() -> Callable[[str], dict[str, str]]:
    return agents_only
