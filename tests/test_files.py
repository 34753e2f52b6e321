"""Atomic file writing: never a half-written file, and an ordinary file when it succeeds."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from skirmish.files import atomic_write, check_picture, write_text


def test_written_file_has_ordinary_permissions(tmp_path: Path):
    mask = os.umask(0o022)
    try:
        path = write_text(tmp_path / "game.json", "{}")
    finally:
        os.umask(mask)
    assert path.read_text() == "{}"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_a_failed_write_leaves_the_old_file_and_no_leftovers(tmp_path: Path):
    path = write_text(tmp_path / "game.json", "old")

    def boom(tmp: str) -> None:
        Path(tmp).write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        atomic_write(path, boom)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_pictures_are_png_or_svg():
    check_picture(Path("a.PNG"))
    with pytest.raises(ValueError, match=r"not '\.gif'"):
        check_picture(Path("a.gif"))
