"""GET /api/scenarios, the OpenAPI description, the page's routes and the serve command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from skirmish.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_scenarios_lists_scenarios_warbands_maps_agents_and_rulesets(client: TestClient):
    r = client.get("/api/scenarios")
    assert r.status_code == 200
    data = r.json()
    by_name = {s["name"]: s for s in data["scenarios"]}
    sample = by_name["sample-ddm2008"]
    assert sample["file"].endswith("scenarios/sample-ddm2008.yaml")
    assert sample["ruleset"] == "ddm2008" and sample["playable"] and len(sample["sides"]) == 2
    assert isinstance(sample["title"], str) and sample["title"]
    assert by_name["sample-drawsteel"]["playable"] is False
    assert by_name["dnd5e/bugbear-den"]["ruleset"] == "dnd5e"
    guard = next(w for w in data["warbands"] if w["name"] == "civilization-gatehouse-guard")
    assert guard["side"] == "gatehouse-guard" and 0 < guard["points"] <= 200
    assert "warden-of-the-gate" in guard["creatures"]
    assert {"name": "ashen-crossroads", "ruleset": "ddm2008"}.items() <= next(
        m for m in data["maps"] if m["name"] == "ashen-crossroads").items()
    assert {"random", "tactician", "search"} <= set(data["agents"]) and data["agents"][-1] == "human"
    rulesets = {r["name"]: r for r in data["rulesets"]}
    assert rulesets["ddm2008"]["playable"] and not rulesets["dnd3"]["playable"] and rulesets["dnd5e"]["title"]


def test_scenarios_from_another_folder_or_none(tmp_path: Path):
    (tmp_path / "one.yaml").write_text((ROOT / "scenarios" / "duel-dnd5e.yaml").read_text())
    (tmp_path / "broken.yaml").write_text("ruleset: nothing\n")
    names = [s["name"] for s in TestClient(create_app(tmp_path)).get("/api/scenarios").json()["scenarios"]]
    assert names == ["one"]
    assert TestClient(create_app(tmp_path / "missing")).get("/api/scenarios").json()["scenarios"] == []


def test_openapi_describes_every_endpoint(client: TestClient):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/scenarios", "/api/games", "/api/games/load", "/api/games/{gid}", "/api/games/{gid}/actions",
                 "/api/games/{gid}/advance", "/api/games/{gid}/events", "/api/games/{gid}/replay",
                 "/api/games/{gid}/creatures/{cid}", "/api/replays", "/api/replays/{rid}",
                 "/api/replays/{rid}/steps"):
        assert path in paths, path


def test_unknown_routes_are_404_with_a_reason(client: TestClient):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and isinstance(r.json()["detail"], str)


def test_serve_command_is_registered():
    done = subprocess.run([sys.executable, "-m", "skirmish", "serve", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout and "--scenarios" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "skirmish", "serve", "--scenarios", "no-such-folder"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and "no such folder" in bad.stderr


def test_serve_answers_over_http():
    import socket
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "skirmish", "serve", "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/api/scenarios", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert r.status_code == 200 and "sample-ddm2008" in {s["name"] for s in r.json()["scenarios"]}
        created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={}, timeout=30)
        assert created.status_code == 201 and created.json()["state"]["ruleset"] == "ddm2008"
    finally:
        server.terminate()
        server.wait(timeout=30)
