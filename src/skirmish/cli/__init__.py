"""The ``skirmish`` command (typer + rich); commands are thin and call the library."""

from skirmish.cli.main import app, main

__all__ = ["app", "main"]
