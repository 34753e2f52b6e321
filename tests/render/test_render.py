"""The terminal map and the picture of a small hand-built position."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from skirmish.core.creatures import Condition, Creature, CreatureTemplate
from skirmish.core.dice import Dice
from skirmish.core.grid import Grid
from skirmish.core.position import Position
from skirmish.render import labels, print_terminal, render_picture, render_terminal, side_colours
from skirmish.render import picture as picture_module
from skirmish.render.picture import DPI, figure_size
from skirmish.rulesets import find_ruleset

ROWS = "......\n.##...\n..T.O.\n../J..\n"


def make_position() -> Position:
    rs = find_ruleset("ddm2008")()
    grid = Grid.parse(ROWS, rs.legend, None, {"start_a": [(0, 0), (1, 0)]})
    a = Creature("dwarf", "heroes", CreatureTemplate("dwarf", max_hp=30), (0, 0))
    b = Creature("ogre", "monsters", CreatureTemplate("ogre", size=2, max_hp=60), (3, 0), hp=20)
    return Position(grid, rs, [a, b], Dice(0))


def terminal_text(pos: Position, *, highlight: dict[tuple[int, int], str] | None = None,
                  title: str | None = None) -> str:
    console = Console(record=True, width=120)
    console.print(render_terminal(pos, highlight=highlight, title=title))
    return console.export_text()


def map_rows(text: str, height: int) -> list[str]:
    """The map's rows with the row number and its space cut off: two characters a square."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("0 "))
    rows = lines[start:start + height]
    assert [r.split(" ", 1)[0] for r in rows] == [str(y) for y in range(height)]
    return [r[2:] for r in rows]


def square(rows: list[str], x: int, y: int) -> str:
    return rows[y][2 * x:2 * x + 2]


# Terminal.


def test_terminal_shows_terrain_glyphs_where_nothing_stands() -> None:
    pos = make_position()
    rows = map_rows(terminal_text(pos), pos.grid.height)
    occupied = {sq for c in pos.creatures.values() for sq in c.squares}
    for y, row in enumerate(ROWS.split()):
        for x, glyph in enumerate(row):
            if (x, y) not in occupied:
                assert square(rows, x, y)[0] == glyph, (x, y)
    # Rows 2 and 3 have nobody on them: the whole glyph row reads straight off the map.
    assert rows[2][0::2].rstrip() == "..T.O."
    assert rows[3][0::2].rstrip() == "../J.."


def test_terminal_column_numbers_sit_over_squares() -> None:
    text = terminal_text(make_position())
    assert "  0 1 2 3 4 5" in text.splitlines()


def test_terminal_draws_labels_on_footprints() -> None:
    pos = make_position()
    names = labels(pos)
    rows = map_rows(terminal_text(pos), pos.grid.height)
    assert square(rows, 0, 0) == names["dwarf"]
    assert square(rows, 3, 0) == names["ogre"]
    # The rest of the ogre's 2x2 footprint shows a filler, not terrain.
    for sq in [(4, 0), (3, 1), (4, 1)]:
        assert square(rows, *sq) == "··", sq


def test_terminal_tables_legend_hp_and_zones() -> None:
    text = terminal_text(make_position())
    for name in ("floor", "forest", "pit", "wall", "diagonal_wall_nw", "diagonal_wall_se"):
        assert name in text
    assert "difficult" not in text  # only kinds present on the map are listed
    assert "20/60" in text
    assert "30/30" in text
    assert "start_a: 2 squares" in text
    assert "ddm2008 — round 1" in text


def test_terminal_highlight_shows_its_text() -> None:
    pos = make_position()
    rows = map_rows(terminal_text(pos, highlight={(0, 3): "5", (5, 3): "12", (9, 9): "x"}),
                    pos.grid.height)
    assert square(rows, 0, 3) == "5 "
    assert square(rows, 5, 3) == "12"


def test_terminal_omits_dead_creatures_and_lists_them() -> None:
    pos = make_position()
    ogre = pos.creatures["ogre"]
    ogre.status = "dead"
    ogre.hp = 0
    dwarf = pos.creatures["dwarf"]
    dwarf.temp_hp = 4
    dwarf.conditions.append(Condition("dazed"))
    text = terminal_text(pos, title="Custom title")
    rows = map_rows(text, pos.grid.height)
    assert rows[0][0::2].rstrip()[2:] == "....", "terrain shows where the dead ogre stood"
    assert "Custom title" in text
    assert "dead" in text
    assert "30/30 (+4 temp)" in text
    assert "dazed" in text


def test_print_terminal_writes_to_the_given_console() -> None:
    console = Console(record=True, width=100)
    print_terminal(make_position(), console, title="Printed")
    assert "Printed" in console.export_text()


# Shared style.


def test_labels_are_short_unique_and_from_the_id() -> None:
    rs = find_ruleset("ddm2008")()
    grid = Grid.parse("......", rs.legend)
    t = CreatureTemplate("x", max_hp=5)
    ids = ["goblin_1", "goblin_2", "goblin_12", "gnoll", "g", "orc_chief", "orc_archer", "ogre"]
    pos = Position(grid, rs, [Creature(cid, "m", t, (0, 0)) for cid in ids], Dice(0))
    names = labels(pos)
    assert list(names) == ids
    assert len({n.lower() for n in names.values()}) == len(ids)
    assert all(1 <= len(n) <= 2 for n in names.values())
    assert all(n[0] == cid[0].upper() for cid, n in names.items())
    assert names["goblin_1"] == "G1"
    assert names["goblin_2"] == "G2"
    assert names["orc_chief"] == "Oc"
    assert names["orc_archer"] == "Oa"


def test_side_colours_follow_side_order() -> None:
    colours = side_colours(make_position())
    assert list(colours) == ["heroes", "monsters"]
    assert len(set(colours.values())) == 2
    r, _, b = (int(colours["heroes"][i:i + 2], 16) for i in (1, 3, 5))
    assert r > b, "the first side is red-ish"
    r, _, b = (int(colours["monsters"][i:i + 2], 16) for i in (1, 3, 5))
    assert b > r, "the second side is blue-ish"


# Picture.


def test_png_is_written_at_the_figure_size(tmp_path: Path) -> None:
    import matplotlib.image as mpimg

    pos = make_position()
    out = render_picture(pos, tmp_path / "map.png")
    assert out == tmp_path / "map.png"
    assert out.stat().st_size > 0
    image = mpimg.imread(out)
    width_in, height_in = figure_size(pos)
    assert abs(image.shape[1] - width_in * DPI) <= 1
    assert abs(image.shape[0] - height_in * DPI) <= 1
    assert min(width_in, height_in) >= 4
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"], "no temporary file is left"


def test_figure_grows_with_the_map() -> None:
    rs = find_ruleset("ddm2008")()
    small = Position(Grid.parse("..\n..", rs.legend), rs, [], Dice(0))
    big = Position(Grid.parse("\n".join(["." * 30] * 20), rs.legend), rs, [], Dice(0))
    assert figure_size(small) == (4.0, 4.0)
    w, h = figure_size(big)
    assert w >= 30 * 0.45 and h >= 20 * 0.45


def test_svg_is_written(tmp_path: Path) -> None:
    out = render_picture(make_position(), str(tmp_path / "map.svg"), title="A title",
                         highlight={(0, 3): "2"})
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text
    # matplotlib writes each text as glyph paths after a comment holding the text.
    for words in ("A title", "Dw", "Og", "forest", "pit", "wall", "heroes", "monsters", "start_a (2)"):
        assert f"<!-- {words} -->" in text, words


def test_render_replaces_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "map.png"
    target.write_bytes(b"old")
    render_picture(make_position(), target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_suffix_raises_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as info:
        render_picture(make_position(), tmp_path / "map.gif")
    message = str(info.value)
    assert ".gif" in message and ".png" in message and ".svg" in message
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_raises_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        render_picture(make_position(), tmp_path / "missing" / "map.png")
    assert list(tmp_path.iterdir()) == []


def test_failed_render_leaves_the_old_file_and_no_temporary(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "map.png"
    target.write_bytes(b"old")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(picture_module, "_draw", broken)
    with pytest.raises(RuntimeError, match="drawing failed"):
        render_picture(make_position(), target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"]


def test_picture_omits_dead_creatures_and_draws_down_ones(tmp_path: Path) -> None:
    pos = make_position()
    pos.creatures["ogre"].status = "dead"
    pos.creatures["dwarf"].status = "down"
    text = render_picture(pos, tmp_path / "map.svg").read_text(encoding="utf-8")
    assert "<!-- Dw -->" in text
    assert "<!-- Og -->" not in text
    assert "<!-- ddm2008 — round 1 -->" in text
