"""The battle map: terrain per square, elevation and zones, with per-map tables built once.

A ``Grid`` is immutable once built and is shared by every game played on it; the tables
it computes on demand (masks for each kind of line, sight between squares, distance
fields, step tables) are cached on it, so the second question about a map costs far less
than the first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from skirmish.core.coords import Coord
from skirmish.core.lines import Mask
from skirmish.core.terrain import TerrainKind
from skirmish.errors import ContentError

if TYPE_CHECKING:
    from skirmish.core.policy import GeometryPolicy


class Grid:
    """A rectangular map of terrain kinds.

    Attributes:
        width: squares per row.
        height: number of rows.
        rows: the map text, one string per row.
        kinds: the terrain kind of each square, by index ``y * width + x``.
        elevation: ground height of each square, in squares.
        zones: named sets of squares (start areas, victory areas, exits).
        legend: the character-to-kind table the map was read with.
    """

    __slots__ = ("_cache", "elevation", "height", "kinds", "legend", "rows", "width", "zones")

    def __init__(
        self,
        rows: list[str],
        legend: Mapping[str, TerrainKind],
        elevation: list[int] | None = None,
        zones: Mapping[str, frozenset[Coord]] | None = None,
    ) -> None:
        self.rows = list(rows)
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        self.legend = dict(legend)
        self.kinds: tuple[TerrainKind, ...] = tuple(legend[ch] for row in rows for ch in row)
        self.elevation = tuple(elevation) if elevation is not None else (0,) * (self.width * self.height)
        self.zones = {name: frozenset(squares) for name, squares in (zones or {}).items()}
        self._cache: dict[object, object] = {}

    # Construction.

    @classmethod
    def parse(
        cls,
        rows_text: str,
        legend: Mapping[str, TerrainKind],
        elevation_text: str | None = None,
        zones: Mapping[str, Iterable[Coord]] | None = None,
        *,
        file: str | None = None,
        where: str = "map",
    ) -> Grid:
        """Read a map from the ``rows`` text of a scenario.

        Raises:
            ContentError: ragged rows, an unknown character, an elevation of the wrong
                shape, or a zone square off the map; the message names row and column.
        """
        rows = [line for line in rows_text.split("\n") if line.strip("\r") != ""]
        rows = [r.rstrip("\r") for r in rows]
        if not rows:
            raise ContentError("the map has no rows; give at least one line of squares", file=file,
                               where=f"{where}.rows")
        width = len(rows[0])
        for y, row in enumerate(rows):
            if len(row) != width:
                raise ContentError(
                    f"row {y} has {len(row)} squares but row 0 has {width}; every row must be "
                    "the same length (pad with '.' or '#')", file=file, where=f"{where}.rows")
            for x, ch in enumerate(row):
                if ch not in legend:
                    known = " ".join(repr(k) for k in sorted(legend))
                    raise ContentError(
                        f"unknown map character {ch!r} at [{x}, {y}]; the legend knows {known} "
                        "(add it under map.legend)", file=file, where=f"{where}.rows")
        elevation: list[int] | None = None
        if elevation_text is not None:
            erows = [r.rstrip("\r") for r in elevation_text.split("\n") if r.strip() != ""]
            if len(erows) != len(rows):
                raise ContentError(
                    f"elevation has {len(erows)} rows but the map has {len(rows)}; give one digit "
                    "per square", file=file, where=f"{where}.elevation")
            elevation = []
            for y, erow in enumerate(erows):
                if len(erow) != width:
                    raise ContentError(
                        f"elevation row {y} has {len(erow)} digits but the map is {width} wide",
                        file=file, where=f"{where}.elevation")
                for x, ch in enumerate(erow):
                    if not ch.isdigit():
                        raise ContentError(
                            f"elevation {ch!r} at [{x}, {y}] is not a digit 0-9", file=file,
                            where=f"{where}.elevation")
                    elevation.append(int(ch))
        grid = cls(rows, legend, elevation)
        checked: dict[str, frozenset[Coord]] = {}
        for name, squares in (zones or {}).items():
            squares = frozenset(squares)
            for sq in sorted(squares):
                if not grid.inside(sq):
                    raise ContentError(
                        f"zone {name!r} holds square [{sq[0]}, {sq[1]}], which is off the "
                        f"{grid.width}x{grid.height} map (x 0..{grid.width - 1}, y 0..{grid.height - 1})",
                        file=file, where=f"{where}.zones.{name}")
            checked[name] = squares
        grid.zones = checked
        return grid

    # Squares.

    def inside(self, sq: Coord) -> bool:
        """Whether a square is on the map."""
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def index(self, sq: Coord) -> int:
        """The flat index of a square."""
        return sq[1] * self.width + sq[0]

    def square(self, index: int) -> Coord:
        """The square of a flat index."""
        return (index % self.width, index // self.width)

    def kind(self, sq: Coord) -> TerrainKind:
        """The terrain kind of an on-map square."""
        return self.kinds[sq[1] * self.width + sq[0]]

    def height_at(self, sq: Coord) -> int:
        """Ground height of a square."""
        return self.elevation[sq[1] * self.width + sq[0]]

    def squares(self) -> Iterable[Coord]:
        """Every square, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def zones_of(self, sq: Coord) -> list[str]:
        """Names of the zones a square belongs to."""
        return sorted(name for name, squares in self.zones.items() if sq in squares)

    # Per-map tables.

    def cached(self, key: object, build: object) -> object:
        """Return the per-map table ``key``, building it once with ``build()``."""
        try:
            return self._cache[key]
        except KeyError:
            value = build()  # type: ignore[operator]
            self._cache[key] = value
            return value

    def mask(self, question: str) -> Mask:
        """Per-square solid kinds for one kind of line.

        ``question`` is ``"sight"``, ``"effect"``, ``"move"`` (what a step may not cross: walls
        and the solid halves of diagonal walls) or ``"cover:<attack kind>"``.
        """
        key = ("mask", question)
        found = self._cache.get(key)
        if found is None:
            found = tuple(_mask_value(k, question) for k in self.kinds)
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def cache_key(self, policy: GeometryPolicy) -> tuple[object, ...]:
        """The policy fields per-map tables depend on."""
        return (policy.diagonal, policy.distance, policy.count_past_corners)


def _mask_value(kind: TerrainKind, question: str) -> str | None:
    if question == "sight":
        if kind.sight == "block":
            return kind.shape
        if kind.sight == "opposite_sides":
            return "opposite_sides"
        return None
    if question == "effect":
        return kind.shape if kind.blocks_effect else None
    if question == "move":
        return kind.shape if kind.shape != "full" or kind.entry == "none" else None
    if question.startswith("cover:"):
        return kind.shape if question[6:] in kind.cover_against else None
    raise ValueError(f"unknown line question {question!r}")
