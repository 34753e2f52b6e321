"""The position as a rich renderable: a coloured map with numbered rows and columns, then tables.

Each square is two characters wide so the map looks roughly square in a terminal. What a
square shows, first match wins: a creature's label (or a filler on the rest of a big
creature's footprint), a highlight's text, the terrain glyph with a zone marker, the
terrain glyph. The plain text (``Console.export_text``) stays readable without colour:
glyphs sit on the first character of each square, under the column's ones digit.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from skirmish.core.coords import Coord
from skirmish.core.creatures import Creature
from skirmish.core.position import Position
from skirmish.core.terrain import TerrainKind
from skirmish.render.style import (
    HIGHLIGHT_COLOUR,
    default_title,
    ink,
    labels,
    shade,
    side_colours,
    zone_colours,
)

FILLER = "··"
"""What the squares of a big creature other than its top-left one show."""

ZONE_MARK = "·"
"""Second character of a zone square with nothing else on it."""

__all__ = ["labels", "print_terminal", "render_terminal", "side_colours"]


def render_terminal(
    pos: Position,
    *,
    highlight: dict[Coord, str] | None = None,
    title: str | None = None,
) -> RenderableType:
    """The map and its tables as one rich renderable.

    Args:
        pos: the position to draw.
        highlight: squares to mark with a short text (a move cost, an area), at most two
            characters shown; squares off the map are ignored.
        title: heading above the map; defaults to the rule set and round.

    Returns:
        A ``rich.console.Group``: title, map, terrain legend, creatures table, zones.
    """
    names = labels(pos)
    sides = side_colours(pos)
    zcols = zone_colours(pos.grid)
    parts: list[RenderableType] = [
        Text(title if title is not None else default_title(pos), style="bold"),
        _map_text(pos, names, sides, zcols, highlight or {}),
        _legend_table(pos),
        _creature_table(pos, names, sides),
    ]
    if pos.grid.zones:
        parts.append(_zone_text(pos, zcols))
    return Group(*parts)


def print_terminal(pos: Position, console: Console | None = None, **kw: Any) -> None:
    """Print ``render_terminal(pos, **kw)`` to ``console`` (a new console on stdout by default)."""
    (console or Console()).print(render_terminal(pos, **kw))


# The map.


def _map_text(
    pos: Position,
    names: dict[str, str],
    sides: dict[str, str],
    zcols: dict[str, str],
    highlight: dict[Coord, str],
) -> Text:
    grid = pos.grid
    margin = len(str(max(grid.height - 1, 0))) + 1
    text = Text(no_wrap=True, overflow="crop")
    # A tens row only when there are two-digit columns: "10" over two squares would misread.
    if grid.width > 10:
        tens = "".join(f"{(x // 10) % 10} " if x % 10 == 0 and x else "  " for x in range(grid.width))
        text.append(" " * margin + tens.rstrip() + "\n", style="dim")
    ones = "".join(f"{x % 10} " for x in range(grid.width))
    text.append(" " * margin + ones.rstrip() + "\n", style="dim")

    cells = _creature_cells(pos, names, sides, highlight)
    zone_of = {sq: name for name, squares in pos.grid.zones.items() for sq in squares}
    for y in range(grid.height):
        text.append(f"{y:>{margin - 1}} ", style="dim")
        for x in range(grid.width):
            sq = (x, y)
            kind = grid.kind(sq)
            if sq in cells:
                text.append(*cells[sq])
            elif sq in highlight:
                text.append(f"{highlight[sq][:2]:<2}", style=f"bold #1e1e1e on {HIGHLIGHT_COLOUR}")
            elif sq in zone_of:
                text.append(kind.glyph, style=_terrain_style(kind) + Style(underline=True))
                zone_style = Style(color=zcols[zone_of[sq]], bgcolor=kind.colour, bold=True, underline=True)
                text.append(ZONE_MARK, style=zone_style)
            else:
                text.append(kind.glyph + " ", style=_terrain_style(kind))
        if y < grid.height - 1:
            text.append("\n")
    return text


def _terrain_style(kind: TerrainKind) -> Style:
    # The glyph a shade off its background: readable, but the colour carries the map.
    return Style(color=shade(kind.colour, 0.55), bgcolor=kind.colour)


def _creature_cells(
    pos: Position,
    names: dict[str, str],
    sides: dict[str, str],
    highlight: dict[Coord, str],
) -> dict[Coord, tuple[str, Style]]:
    cells: dict[Coord, tuple[str, Style]] = {}
    for c in pos.creatures.values():
        if not c.on_map:
            continue
        colour = sides[c.side]
        for sq in c.squares:
            if not pos.grid.inside(sq):
                continue
            body = f"{names[c.id]:<2}" if sq == c.at else FILLER
            if sq in highlight:
                # Keep the side colour readable and show the highlight behind it.
                style = Style(color=colour, bgcolor=HIGHLIGHT_COLOUR, bold=True)
            elif c.status == "down":
                # Hollow: side colour as ink on the terrain, so a fallen creature reads as such.
                style = Style(color=colour, bgcolor=pos.grid.kind(sq).colour, bold=True, italic=True)
            else:
                style = Style(color=ink(colour), bgcolor=colour, bold=sq == c.at)
            cells[sq] = (body, style)
    return cells


# The tables.


def _legend_table(pos: Position) -> Table:
    table = Table(title="Terrain", title_justify="left", show_edge=False, box=None, pad_edge=False)
    table.add_column("glyph")
    table.add_column("terrain")
    seen: set[str] = set()
    for kind in pos.grid.kinds:
        if kind.name in seen:
            continue
        seen.add(kind.name)
        table.add_row(Text(f" {kind.glyph} ", style=_terrain_style(kind)), kind.name)
    return table


def _creature_table(pos: Position, names: dict[str, str], sides: dict[str, str]) -> Table:
    table = Table(title="Creatures", title_justify="left", show_edge=False, box=None, pad_edge=False)
    for col in ("", "id", "side", "at", "hp", "conditions", "status"):
        table.add_column(col)
    for c in pos.creatures.values():
        colour = sides[c.side]
        label = Text(f"{names[c.id]:<2}", style=Style(color=ink(colour), bgcolor=colour, bold=True))
        row_style = "" if c.on_map else "dim"
        table.add_row(
            label,
            c.id,
            Text(c.side, style=Style(color=colour)),
            _where(c),
            _hp(c),
            ", ".join(c.condition_names()) or "—",
            c.status,
            style=row_style,
        )
    return table


def _where(c: Creature) -> str:
    where = f"[{c.at[0]}, {c.at[1]}]"
    return f"{where} {c.size}x{c.size}" if c.size > 1 else where


def _hp(c: Creature) -> str:
    hp = f"{c.hp}/{c.template.max_hp}"
    return f"{hp} (+{c.temp_hp} temp)" if c.temp_hp else hp


def _zone_text(pos: Position, zcols: dict[str, str]) -> Text:
    text = Text("Zones: ", style="bold")
    for i, (name, squares) in enumerate(pos.grid.zones.items()):
        if i:
            text.append("  ")
        text.append(ZONE_MARK, style=Style(color=zcols[name], bold=True))
        n = len(squares)
        text.append(f" {name}: {n} square{'' if n == 1 else 's'}")
    return text
