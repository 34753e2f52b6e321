"""Starting a game the way ``skirmish play`` does: its default warbands and maps, a warband by shipped
name or file, and an action in a few words. Shared by the command line and the browser interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skirmish.errors import ContentError

DEFAULT_WARBANDS = "civilization-gatehouse-guard,borderlands-ashpit-warhost"
DEFAULT_MAPS = "ashen-crossroads,gloomwater-cistern"
WARBANDS_FOLDER = Path(__file__).resolve().parent / "rulesets" / "ddm2008" / "content" / "warbands"
"""The shipped ddm2008 warbands."""


def warband(value: str) -> tuple[str, list[str]]:
    """A ddm2008 warband by shipped name or file: (side name, creature names).

    Raises:
        ContentError: no such warband, or a file that is not one.
    """
    from skirmish.rulesets.ddm2008.warband import load_warband_file

    path = Path(value)
    if not path.exists():
        path = WARBANDS_FOLDER / f"{value}.yaml"
        if not path.exists():
            names = sorted(p.stem for p in WARBANDS_FOLDER.glob("*.yaml"))
            raise ContentError(f"no warband {value!r}: give a file or one of {', '.join(names)}")
    wb = load_warband_file(path)
    side = path.stem.split("-", 1)[-1] if "-" in path.stem else path.stem
    return side, list(wb.creatures)


def describe(action: Any) -> str:
    """An action in a few words."""
    step = action.to_step()
    rest = ", ".join(f"{k} {v}" for k, v in step.items() if k not in ("actor", "do"))
    return f"{step['do']}" + (f" ({rest})" if rest else "")
