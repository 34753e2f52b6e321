"""The browser interface's web app: the JSON API of ``docs/api.md`` and the page's static files.

Every error is a 4xx with ``{"detail": "<what is wrong and what would be right>"}``: 404 for an
unknown game, replay or creature, 409 for an action the rules refuse (with ``rule``), 422 for a
malformed request. A refused action changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from skirmish.errors import ContentError, IllegalActionError, SkirmishError
from skirmish.games import default_lineups, default_maps, warband
from skirmish.server import catalog
from skirmish.server.games import ADVANCE_LIMIT, Game, NotFound, Store
from skirmish.server.views import actions_view, card_view, events_view, state_view

STATIC = Path(__file__).parent / "static"


class NewGame(BaseModel):
    """A new game: two lineups (ddm2008's warbands) and two maps, with setup, for a rule set whose games
    start from lineups (``ruleset``, default the one that does); or a scenario by name."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str | None = None
    warbands: list[str] | None = Field(None, min_length=2, max_length=2)
    maps: list[str] | None = Field(None, min_length=1, max_length=2)
    scenario: str | None = None
    players: dict[str, str] = Field(default_factory=dict)
    seed: int = 1


class ActionChoice(BaseModel):
    """A person's action: an index into the last listed actions, or a scenario step."""

    model_config = ConfigDict(extra="forbid")
    index: int | None = Field(None, ge=0)
    step: dict[str, Any] | None = None


class Advance(BaseModel):
    """How many agent actions to play at most."""

    model_config = ConfigDict(extra="forbid")
    max_actions: int | None = Field(None, ge=0, le=100_000)


class LoadGame(BaseModel):
    """A saved game to go on with."""

    model_config = ConfigDict(extra="forbid")
    replay: dict[str, Any]
    players: dict[str, str] = Field(default_factory=dict)


def create_app(scenarios_dir: Path | None = None) -> FastAPI:
    """The app; scenarios are listed from ``scenarios_dir`` (default ``./scenarios`` if it exists)."""

    app = FastAPI(title="skirmish", description="Play and replay skirmish games in the browser.")
    store = Store()
    folder = scenarios_dir if scenarios_dir is not None else Path("scenarios")
    scenario_list = catalog.scenarios(folder)
    listing = {
        "scenarios": [s.to_json() for s in scenario_list],
        "warbands": catalog.warbands(),
        "maps": catalog.maps(),
        "agents": catalog.agents(),
        "rulesets": catalog.rulesets(),
        "defaults": catalog.defaults(),
    }
    by_name = {s.name: s for s in scenario_list}
    app.state.store = store

    @app.exception_handler(NotFound)
    async def not_found(_: Request, e: NotFound) -> JSONResponse:
        return JSONResponse({"detail": str(e.args[0])}, status_code=404)

    @app.exception_handler(IllegalActionError)
    async def refused(_: Request, e: IllegalActionError) -> JSONResponse:
        return JSONResponse({"detail": str(e), "rule": e.rule}, status_code=409)

    @app.exception_handler(SkirmishError)
    async def bad_content(_: Request, e: SkirmishError) -> JSONResponse:
        return JSONResponse({"detail": str(e)}, status_code=422)

    @app.exception_handler(Exception)
    async def failed(_: Request, e: Exception) -> JSONResponse:
        # A bug, not bad input: still one sentence for the page, not a traceback.
        return JSONResponse({"detail": f"the server failed ({type(e).__name__}: {e}); this is a bug in skirmish"},
                            status_code=500)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _sentence(e.errors())}, status_code=422)

    @app.get("/", include_in_schema=False, response_model=None)
    def index() -> FileResponse | JSONResponse:
        page = STATIC / "index.html"
        if not page.is_file():
            return JSONResponse({"detail": "the page is not installed; the API is under /api"}, status_code=404)
        return FileResponse(page)

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/scenarios")
    def list_scenarios() -> dict[str, Any]:
        """What a game can be made of: scenarios, warbands, maps, agents, rule sets."""
        return listing

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame | None = None) -> dict[str, Any]:
        """Start a game from two lineups and two maps (with setup) or from a scenario."""
        body = body or NewGame()
        if body.scenario is not None:
            if body.warbands is not None or body.maps is not None or body.ruleset is not None:
                raise ContentError("give either a scenario or warbands and maps, not both")
            entry = by_name.get(body.scenario)
            if entry is None:
                names = ", ".join(sorted(by_name)) or "none in this server's scenario folder"
                raise ContentError(f"no scenario {body.scenario!r}; GET /api/scenarios lists them ({names})")
            if not entry.playable:
                raise ContentError(f"{entry.name} is a {entry.ruleset} scenario, and {entry.ruleset} cannot play "
                                   "games yet (only its questions can be asked)")
            source: dict[str, Any] = {"scenario": entry.file}
        else:
            pair = [warband(w, body.ruleset) for w in (body.warbands or default_lineups(body.ruleset))]
            source = {"warbands": pair, "maps": body.maps or default_maps(body.ruleset)}
            if body.ruleset is not None:
                source["ruleset"] = body.ruleset
        game = store.new_game(source, body.seed, body.players)
        with game.lock:
            return {"id": game.id, "state": state_view(game.state, game.extra())}

    @app.get("/api/games")
    def list_games() -> dict[str, Any]:
        """Every game on this server."""
        return {"games": [{"id": g.id, "ruleset": g.state.ruleset.name, "round": g.state.round,
                           "over": g.state.is_over()} for g in list(store.games.values())]}

    @app.post("/api/games/load", status_code=201)
    def load_game(body: LoadGame) -> dict[str, Any]:
        """Go on with a saved game: its actions are replayed, then play goes on."""
        from skirmish.replay import parse_replay

        source, seed, steps = parse_replay(body.replay, "replay")
        game = store.new_game(source, seed, body.players, steps)
        with game.lock:
            return {"id": game.id, "state": state_view(game.state, game.extra())}

    @app.get("/api/games/{gid}")
    def get_game(gid: str) -> dict[str, Any]:
        """The game's state."""
        game = store.game(gid)
        with game.lock:
            return state_view(game.state, game.extra())

    @app.get("/api/games/{gid}/creatures/{cid}")
    def get_creature(gid: str, cid: str) -> dict[str, Any]:
        """A creature's card."""
        game = store.game(gid)
        with game.lock:
            creature = game.state.creatures.get(cid)
            if creature is None:
                raise NotFound(f"no creature {cid!r} in game {gid}; its creatures are "
                               f"{', '.join(game.state.creatures)}")
            return card_view(game.state, creature)

    @app.get("/api/games/{gid}/actions")
    def get_actions(gid: str) -> dict[str, Any]:
        """The legal actions now, numbered for ``POST .../actions {"index": i}``."""
        game = store.game(gid)
        with game.lock:
            return _actions(game)

    @app.post("/api/games/{gid}/actions")
    def post_action(gid: str, body: ActionChoice) -> dict[str, Any]:
        """A person's action, while a person is to act."""
        if (body.index is None) == (body.step is None):
            raise ContentError('give {"index": i} (one of the listed actions) or {"step": {...}}, one of them')
        game = store.game(gid)
        with game.lock:
            before = len(game.state.events)
            game.human_action(body.index, body.step)
            return {"applied": [game.steps[-1]], "events": events_view(game.state, before),
                    "state": state_view(game.state, game.extra())}

    @app.post("/api/games/{gid}/advance")
    def advance(gid: str, body: Advance | None = None) -> dict[str, Any]:
        """Let the agents play until a person must act or the game ends."""
        most = body.max_actions if body is not None and body.max_actions is not None else ADVANCE_LIMIT
        game = store.game(gid)
        with game.lock:
            before = len(game.state.events)
            applied = game.advance(most)
            return {"applied": applied, "events": events_view(game.state, before),
                    "state": state_view(game.state, game.extra())}

    @app.get("/api/games/{gid}/events")
    def get_events(gid: str, since: int = Query(0, ge=0)) -> dict[str, Any]:
        """The game's events from index ``since`` on."""
        game = store.game(gid)
        with game.lock:
            return {"events": events_view(game.state, since), "next": len(game.state.events)}

    @app.get("/api/games/{gid}/replay")
    def get_replay(gid: str) -> dict[str, Any]:
        """The game as a replay (the ``skirmish play --save`` format)."""
        game = store.game(gid)
        with game.lock:
            return game.replay()

    @app.post("/api/replays", status_code=201)
    def new_replay(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's idiom
        """A replay to step through."""
        replay = store.new_replay(body)
        return {"id": replay.id, "steps": replay.steps, "ruleset": replay.ruleset}

    @app.get("/api/replays/{rid}")
    def get_replay_step(rid: str, step: int = Query(0, ge=0)) -> dict[str, Any]:
        """The state after the first ``step`` actions of a replay."""
        replay = store.replay(rid)
        state = replay.state_at(step)
        new = events_view(state, replay.counts[step - 1]) if step > 0 else []
        return state_view(state, {"id": replay.id, "players": {}, "human_to_act": False, "step": step,
                                  "steps": replay.steps, "new_events": new})

    @app.get("/api/replays/{rid}/steps")
    def get_replay_steps(rid: str) -> dict[str, Any]:
        """One line per action of a replay."""
        return {"steps": store.replay(rid).lines}

    return app


def _actions(game: Game) -> dict[str, Any]:
    state = game.state
    over = state.is_over()
    actions = [] if over else game.actions()
    return {"actor": None if over else state.current_actor, "side": None if over else state.current_side,
            "human": game.human_to_act, "actions": actions_view(state, actions)}


def _sentence(errors: Any) -> str:
    """FastAPI's validation errors as one plain sentence."""
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "the body"
        parts.append(f"{where}: {err.get('msg', 'is not valid')}")
    return "malformed request: " + "; ".join(parts)
