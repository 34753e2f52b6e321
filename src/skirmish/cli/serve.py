"""``skirmish serve``: play and replay games in the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console


def serve(
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    scenarios: Annotated[Path | None, typer.Option(help="Folder of scenarios to offer (default ./scenarios).")]
        = None,
) -> None:
    """Serve the browser interface: start games against the agents, play them, step through replays."""
    import uvicorn

    from skirmish.server.app import create_app

    if scenarios is not None and not scenarios.is_dir():
        Console(stderr=True).print(f"[bold red]error:[/] --scenarios {scenarios}: no such folder")
        raise typer.Exit(2)
    Console(highlight=False).print(f"skirmish: open http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(create_app(scenarios), host=host, port=port, log_level="warning")
