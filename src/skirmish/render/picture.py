"""The position as a picture (PNG or SVG), drawn with matplotlib.

The layout is fixed in inches, not left to matplotlib: every square is ``SQUARE`` inches
wide, the legend sits in a column to the right of the map, and the figure is exactly
``figure_size(pos)``, so a picture of a bigger map is bigger rather than more cramped and
the saved image has the size its figure says. matplotlib is imported inside
``render_picture`` so importing this module stays cheap.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skirmish.core.coords import Coord
from skirmish.core.position import Position
from skirmish.core.terrain import FLOOR, TerrainKind
from skirmish.render.style import (
    HIGHLIGHT_COLOUR,
    default_title,
    ink,
    labels,
    shade,
    side_colours,
    zone_colours,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SQUARE = 0.45
"""Inches per square."""
MIN_SIDE = 4.0
"""Smallest figure width and height, in inches."""
DPI = 110
FORMATS = {".png": "png", ".svg": "svg"}

# Margins and legend metrics, in inches.
_LEFT, _RIGHT, _TOP, _BOTTOM, _GAP = 0.45, 0.25, 0.72, 0.3, 0.35
_ROW, _HEADER, _SECTION = 0.23, 0.28, 0.14
_CHAR, _SWATCH = 0.072, 0.36

# Triangles of diagonal walls, as corners of the unit square (y grows downward).
_TRIANGLES: dict[str, tuple[tuple[int, int], ...]] = {
    "nw": ((0, 0), (1, 0), (0, 1)),
    "ne": ((0, 0), (1, 0), (1, 1)),
    "sw": ((0, 0), (1, 1), (0, 1)),
    "se": ((1, 0), (1, 1), (0, 1)),
}
# The corner opposite each diagonal wall's solid one: open floor.
_OPEN_CORNER: dict[str, tuple[int, int]] = {"nw": (1, 1), "ne": (0, 1), "sw": (1, 0), "se": (0, 0)}


def render_picture(
    pos: Position,
    path: str | Path,
    *,
    title: str | None = None,
    highlight: dict[Coord, str] | None = None,
) -> Path:
    """Draw the position and write it as PNG or SVG, chosen by the path's suffix.

    The file is written atomically: the picture goes to a temporary file in the same
    folder, which then replaces ``path``; a failed render leaves no file behind and an
    existing file untouched.

    Args:
        pos: the position to draw.
        path: where to write; its suffix (``.png`` or ``.svg``) picks the format.
        title: heading above the map; defaults to the rule set and round.
        highlight: squares to tint, with a short text (a move cost) written in them.

    Returns:
        The path written.

    Raises:
        ValueError: the suffix is neither ``.png`` nor ``.svg``.
        OSError: the folder does not exist or cannot be written.
    """
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(
            f"cannot write a picture as {path.suffix or '(no suffix)'!r} ({path.name}); "
            "use a .png or .svg file name")

    # A Figure with its own Agg canvas, not pyplot: no global backend switch (which would
    # close a caller's open pyplot figures) and nothing left registered after the call.
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # Create the temporary file first, so a missing folder fails before any drawing.
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies, as for open()
    fig = Figure(figsize=figure_size(pos), dpi=DPI)
    FigureCanvasAgg(fig)
    try:
        with os.fdopen(fd, "wb") as out:
            _draw(fig, pos, title if title is not None else default_title(pos), highlight or {})
            # A fixed salt and no date: the same position gives the same SVG bytes.
            with matplotlib.rc_context({"svg.hashsalt": "skirmish"}):
                metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {}
                fig.savefig(out, format=fmt, dpi=DPI, metadata=metadata)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        fig.clear()
    return path


def figure_size(pos: Position) -> tuple[float, float]:
    """The picture's size in inches, (width, height): the map, its margins and the legend."""
    map_w, map_h = pos.grid.width * SQUARE, pos.grid.height * SQUARE
    legend_w, legend_h = _legend_size(_legend_entries(pos))
    width = max(MIN_SIDE, _LEFT + map_w + _GAP + legend_w + _RIGHT)
    height = max(MIN_SIDE, _TOP + max(map_h, legend_h) + _BOTTOM)
    return (round(width, 4), round(height, 4))


# Drawing.


def _draw(fig: Figure, pos: Position, title: str, highlight: dict[Coord, str]) -> None:
    grid = pos.grid
    fig_w, fig_h = fig.get_size_inches()
    map_w, map_h = grid.width * SQUARE, grid.height * SQUARE
    entries = _legend_entries(pos)
    legend_w, legend_h = _legend_size(entries)
    # Centre the map-and-legend block in the figure, whose sides may be the 4-inch minimum.
    left = max(_LEFT, (fig_w - (map_w + _GAP + legend_w)) / 2)
    top = max(_TOP, _TOP + (fig_h - _TOP - _BOTTOM - max(map_h, legend_h)) / 2)

    fig.text(0.5, 1 - 0.18 / fig_h, title, ha="center", va="top", fontsize=12, fontweight="bold")
    ax = fig.add_axes((left / fig_w, 1 - (top + map_h) / fig_h, map_w / fig_w, map_h / fig_h))
    ax.set_xlim(0, grid.width)
    ax.set_ylim(grid.height, 0)
    ax.set_xticks([x + 0.5 for x in range(grid.width)], [str(x) for x in range(grid.width)])
    ax.set_yticks([y + 0.5 for y in range(grid.height)], [str(y) for y in range(grid.height)])
    ax.xaxis.tick_top()
    ax.tick_params(length=0, labelsize=7, pad=3, colors="#555555")
    for spine in ax.spines.values():
        spine.set_color("#777777")
        spine.set_linewidth(0.8)

    names = labels(pos)
    sides = side_colours(pos)
    occupied = {sq for c in pos.creatures.values() if c.on_map for sq in c.squares}
    _draw_terrain(ax, pos, occupied)
    _draw_highlight(ax, pos, highlight, occupied)
    _draw_zones(ax, pos)
    _draw_creatures(ax, pos, names, sides)

    lax = fig.add_axes((
        (left + map_w + _GAP) / fig_w, 1 - (top + legend_h) / fig_h, legend_w / fig_w, legend_h / fig_h))
    _draw_legend(lax, entries, legend_w, legend_h, _floor_colour(pos))


def _floor_colour(pos: Position) -> str:
    floor = pos.ruleset.legend.get(".")
    return floor.colour if floor is not None else FLOOR.colour


def _draw_terrain(ax: Axes, pos: Position, occupied: set[Coord]) -> None:
    from matplotlib.collections import LineCollection, PolyCollection

    grid = pos.grid
    floor = _floor_colour(pos)
    polys: list[list[tuple[int, int]]] = []
    colours: list[str] = []
    triangles: list[list[tuple[int, int]]] = []
    triangle_colours: list[str] = []
    for x, y in grid.squares():
        kind = grid.kind((x, y))
        polys.append([(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)])
        if kind.shape == "full":
            colours.append(kind.colour)
        else:
            # The open half is floor; the solid triangle holds the named corner.
            colours.append(floor)
            triangles.append([(x + dx, y + dy) for dx, dy in _TRIANGLES[kind.shape]])
            triangle_colours.append(kind.colour)
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="none", zorder=1))
    if triangles:
        ax.add_collection(
            PolyCollection(triangles, facecolors=triangle_colours, edgecolors="none", zorder=1.1))

    lines = [[(x, 0), (x, grid.height)] for x in range(1, grid.width)]
    lines += [[(0, y), (grid.width, y)] for y in range(1, grid.height)]
    ax.add_collection(LineCollection(lines, colors=[(0, 0, 0, 0.18)], linewidths=0.5, zorder=2))

    for x, y in grid.squares():
        kind = grid.kind((x, y))
        # A faint glyph on special terrain, so kinds read apart without relying on colour.
        if _marked(kind) and (x, y) not in occupied:
            ax.text(x + 0.5, y + 0.52, kind.glyph, ha="center", va="center", fontsize=8,
                    color=shade(kind.colour, 0.45), zorder=2.5)
        height = grid.height_at((x, y))
        if height > 0:
            # Top-right, or on a diagonal wall the open corner, so the digit sits on one colour.
            cx, cy = _OPEN_CORNER.get(kind.shape, (1, 0))
            ax.text(x + (0.94 if cx else 0.06), y + (0.95 if cy else 0.05), str(height),
                    ha="right" if cx else "left", va="bottom" if cy else "top", fontsize=6,
                    color=ink(floor if kind.shape != "full" else kind.colour), zorder=6)


def _marked(kind: TerrainKind) -> bool:
    return kind.shape == "full" and kind.name not in ("floor", "wall")


def _draw_highlight(ax: Axes, pos: Position, highlight: dict[Coord, str], occupied: set[Coord]) -> None:
    from matplotlib.patches import Rectangle

    for (x, y), note in highlight.items():
        if not pos.grid.inside((x, y)):
            continue
        ax.add_patch(Rectangle((x + 0.04, y + 0.04), 0.92, 0.92, facecolor=HIGHLIGHT_COLOUR, alpha=0.5,
                               edgecolor="none", zorder=3))
        if note and (x, y) not in occupied:
            ax.text(x + 0.5, y + 0.52, note[:3], ha="center", va="center", fontsize=7, fontweight="bold",
                    color="#1e1e1e", zorder=3.1)


def _draw_zones(ax: Axes, pos: Position) -> None:
    from matplotlib.collections import LineCollection, PolyCollection

    for name, colour in zone_colours(pos.grid).items():
        squares = pos.grid.zones[name]
        cells = [[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)] for x, y in squares]
        ax.add_collection(PolyCollection(cells, facecolors=colour, alpha=0.14, edgecolors="none", zorder=3.5))
        # Only edges with no zone square on the other side: the outline of the region.
        edges: list[list[tuple[int, int]]] = []
        for x, y in squares:
            if (x, y - 1) not in squares:
                edges.append([(x, y), (x + 1, y)])
            if (x, y + 1) not in squares:
                edges.append([(x, y + 1), (x + 1, y + 1)])
            if (x - 1, y) not in squares:
                edges.append([(x, y), (x, y + 1)])
            if (x + 1, y) not in squares:
                edges.append([(x + 1, y), (x + 1, y + 1)])
        ax.add_collection(LineCollection(edges, colors=colour, linewidths=2.2, alpha=0.85, zorder=3.6,
                                         capstyle="projecting"))


def _draw_creatures(ax: Axes, pos: Position, names: dict[str, str], sides: dict[str, str]) -> None:
    from matplotlib.patches import Circle, FancyBboxPatch, Rectangle

    for c in pos.creatures.values():
        if not c.on_map:
            continue
        x, y = c.at
        s = c.size
        colour = sides[c.side]
        down = c.status == "down"
        style: dict[str, Any] = {
            "facecolor": colour, "edgecolor": shade(colour, 0.5), "linewidth": 1.2,
            "alpha": 0.5 if down else 1.0, "linestyle": "--" if down else "-", "zorder": 4,
        }
        if s == 1:
            ax.add_patch(Circle((x + 0.5, y + 0.44), 0.35, **style))
            cy = y + 0.44
        else:
            ax.add_patch(FancyBboxPatch((x + 0.12, y + 0.1), s - 0.24, s - 0.34,
                                        boxstyle=f"round,pad=0,rounding_size={0.22 * s}", **style))
            cy = y + 0.1 + (s - 0.34) / 2
        ax.text(x + s / 2, cy, names[c.id], ha="center", va="center", fontsize=8 + 3 * (s - 1),
                fontweight="bold", color=ink(colour), zorder=5)

        # The hp bar: red-to-green by the fraction left, temporary hp in blue after it.
        top, height = y + s - 0.13, 0.085
        x0, span = x + 0.12, s - 0.24
        max_hp = max(c.template.max_hp, 1)
        left = max(0.0, min(1.0, c.hp / max_hp))
        extra = max(0.0, min(1.0 - left, c.temp_hp / max_hp))
        ax.add_patch(Rectangle((x0, top), span, height, facecolor="#3a3a3a", edgecolor="none", zorder=5))
        ax.add_patch(Rectangle((x0, top), span * left, height, facecolor=_hp_colour(left), edgecolor="none",
                               zorder=5.1))
        if extra:
            ax.add_patch(Rectangle((x0 + span * left, top), span * extra, height, facecolor="#6ec6ff",
                                   edgecolor="none", zorder=5.1))


def _hp_colour(fraction: float) -> str:
    if fraction > 0.5:
        return "#4caf50"
    if fraction > 0.25:
        return "#f0a020"
    return "#e53935"


# The legend: terrain kinds present, sides, zones, in a column right of the map.


def _legend_entries(pos: Position) -> list[tuple[str, Any]]:
    entries: list[tuple[str, Any]] = [("header", "Terrain")]
    seen: set[str] = set()
    for kind in pos.grid.kinds:
        if kind.name not in seen:
            seen.add(kind.name)
            entries.append(("terrain", kind))
    colours = side_colours(pos)
    if colours:
        entries.append(("header", "Sides"))
        entries += [("side", (side, colour)) for side, colour in colours.items()]
    zones = zone_colours(pos.grid)
    if zones:
        entries.append(("header", "Zones"))
        entries += [("zone", (name, colour, len(pos.grid.zones[name]))) for name, colour in zones.items()]
    return entries


def _entry_text(kind: str, payload: Any) -> str:
    if kind == "header":
        return str(payload)
    if kind == "terrain":
        return str(payload.name)
    if kind == "side":
        return str(payload[0])
    return f"{payload[0]} ({payload[2]})"


def _legend_size(entries: list[tuple[str, Any]]) -> tuple[float, float]:
    width = max(1.3, _SWATCH + _CHAR * max(len(_entry_text(k, p)) for k, p in entries))
    height = 0.0
    for i, (kind, _) in enumerate(entries):
        height += (_HEADER + (_SECTION if i else 0)) if kind == "header" else _ROW
    return (width, height)


def _draw_legend(lax: Axes, entries: list[tuple[str, Any]], width: float, height: float, floor: str) -> None:
    from matplotlib.patches import Circle, Polygon, Rectangle

    lax.set_xlim(0, width)
    lax.set_ylim(height, 0)
    lax.axis("off")
    y = 0.0
    for i, (kind, payload) in enumerate(entries):
        if kind == "header":
            y += _SECTION if i else 0
            lax.text(0, y + _HEADER / 2, payload, ha="left", va="center", fontsize=8.5, fontweight="bold")
            y += _HEADER
            continue
        mid = y + _ROW / 2
        sw, sh = 0.24, 0.17
        if kind == "terrain":
            terrain: TerrainKind = payload
            if terrain.shape == "full":
                lax.add_patch(Rectangle((0, mid - sh / 2), sw, sh, facecolor=terrain.colour,
                                        edgecolor="#777777", linewidth=0.5))
            else:
                lax.add_patch(Rectangle((0, mid - sh / 2), sw, sh, facecolor=floor, edgecolor="#777777",
                                        linewidth=0.5))
                tri = [(dx * sw, mid - sh / 2 + dy * sh) for dx, dy in _TRIANGLES[terrain.shape]]
                lax.add_patch(Polygon(tri, closed=True, facecolor=terrain.colour, edgecolor="none"))
        elif kind == "side":
            lax.add_patch(Circle((sw / 2, mid), 0.085, facecolor=payload[1], edgecolor=shade(payload[1], 0.5),
                                 linewidth=0.8))
        else:
            colour = payload[1]
            lax.add_patch(Rectangle((0.02, mid - sh / 2 + 0.01), sw - 0.04, sh - 0.02, facecolor=colour,
                                    alpha=0.2, edgecolor="none"))
            lax.add_patch(Rectangle((0.02, mid - sh / 2 + 0.01), sw - 0.04, sh - 0.02, facecolor="none",
                                    edgecolor=colour, linewidth=1.8, alpha=0.85))
        lax.text(_SWATCH, mid, _entry_text(kind, payload), ha="left", va="center", fontsize=8)
        y += _ROW
