"""Writing files so that a failure never leaves a half-written one: a temporary file in the same
folder, then an atomic rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

PICTURES = (".png", ".svg")


def atomic_write(path: Path, write: Callable[[str], None], suffix: str = ".tmp") -> Path:
    """Call ``write(temporary path)`` and move the result over ``path``; on any error nothing is left."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes owner-only files; a saved game is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: Path, text: str) -> Path:
    """Write a text file atomically."""

    def write(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write(text)

    return atomic_write(path, write)


def check_picture(path: Path) -> None:
    """A picture is a PNG or an SVG file.

    Raises:
        ValueError: any other suffix.
    """
    if path.suffix.lower() not in PICTURES:
        raise ValueError(f"pictures are .png or .svg, not {path.suffix or 'no suffix'!r}")


def save_figure(fig: Any, path: Path) -> Path:
    """Save a matplotlib figure as PNG or SVG, atomically."""
    check_picture(path)
    return atomic_write(path, lambda tmp: fig.savefig(tmp, format=path.suffix[1:].lower()), path.suffix)
