"""What both renderers share: creature labels, side and zone colours, colour arithmetic.

Kept apart from the renderers so the terminal map and the picture of the same position
label and colour every creature identically, and so neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from string import ascii_lowercase, digits

from skirmish.core.grid import Grid
from skirmish.core.position import Position

SIDE_PALETTE: tuple[str, ...] = (
    "#d1495b",  # red: the first side
    "#2f6fb3",  # blue: the second side
    "#8e5cb8",  # purple: before green, which the forest colour is close to
    "#3a9a4f",  # green
    "#e08a1e",  # orange
    "#1f9e9e",  # teal
    "#a0653a",  # brown
    "#d45fa8",  # pink
)
"""Side colours in the order sides first appear; cycled when there are more sides."""

ZONE_PALETTE: tuple[str, ...] = (
    "#e6a100",  # amber
    "#00a3a3",  # cyan
    "#c2185b",  # magenta
    "#6a8f00",  # olive
    "#5c6bc0",  # indigo
    "#ef6c00",  # dark orange
)
"""Zone colours in the order the map lists its zones; chosen away from the side colours."""

HIGHLIGHT_COLOUR = "#ffd75f"
"""Background of highlighted squares (reachable squares, areas)."""


def side_colours(pos: Position) -> dict[str, str]:
    """A colour for each side, in the order sides first appear in the position.

    Args:
        pos: the position whose sides to colour.

    Returns:
        Side name to ``#rrggbb`` colour; the first side is red, the second blue.
    """
    return {side: SIDE_PALETTE[i % len(SIDE_PALETTE)] for i, side in enumerate(pos.sides())}


def zone_colours(grid: Grid) -> dict[str, str]:
    """A colour for each zone of a map, in the order the map lists them."""
    return {name: ZONE_PALETTE[i % len(ZONE_PALETTE)] for i, name in enumerate(grid.zones)}


def default_title(pos: Position) -> str:
    """The heading both renderers use when none is given: rule set and round."""
    return f"{pos.ruleset.name} — round {pos.round}"


def labels(pos: Position) -> dict[str, str]:
    """A short, unique label for every creature (dead ones too, so tables stay stable).

    A label is one or two characters taken from the creature's id: its first letter in
    upper case, then a trailing digit, a later word's initial or another letter of the
    id, whichever first makes it unique (``goblin_2`` -> ``G2``, ``orc_chief`` -> ``Oc``,
    ``dwarf`` -> ``Dw``). Uniqueness ignores case, so labels stay distinct when read aloud.

    Args:
        pos: the position whose creatures to label.

    Returns:
        Creature id to label, in the position's creature order.
    """
    taken: set[str] = set()
    out: dict[str, str] = {}
    for cid in pos.creatures:
        label = next((c for c in _candidates(cid) if c.lower() not in taken), "??")
        taken.add(label.lower())
        out[cid] = label
    return out


def _candidates(cid: str) -> Iterator[str]:
    chars = [ch for ch in cid if ch.isalnum()]
    if not chars:
        chars = ["?"]
    first = chars[0].upper()
    if len(chars) == 1:
        yield first
    trailing = re.search(r"(\d+)$", cid)
    if trailing and len(chars) > len(trailing.group(1)):
        yield first + trailing.group(1)[-1]
    words = [w for w in re.split(r"[^0-9A-Za-z]+", cid) if w]
    for word in words[1:]:
        yield first + word[0].lower()
    for ch in chars[1:]:
        yield first + ch.lower()
    yield first
    for ch in digits[1:] + ascii_lowercase:
        yield first + ch
    # Every first letter is used up: fall back to any free pair.
    for a in ascii_lowercase:
        for b in digits + ascii_lowercase:
            yield a.upper() + b


def hex_rgb(colour: str) -> tuple[float, float, float]:
    """A ``#rrggbb`` (or ``#rgb``) colour as three floats in 0..1."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def rgb_hex(rgb: tuple[float, float, float]) -> str:
    """Three floats in 0..1 as ``#rrggbb``."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


def is_dark(colour: str) -> bool:
    """Whether light text reads better than dark text on this colour (WCAG luminance)."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in hex_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.25


def ink(colour: str) -> str:
    """Text colour for writing on ``colour``: near-white on dark, near-black on light."""
    return "#f5f5f5" if is_dark(colour) else "#1e1e1e"


def shade(colour: str, amount: float) -> str:
    """``colour`` moved toward its ink by ``amount`` (0..1): a quiet mark on that background."""
    base, target = hex_rgb(colour), hex_rgb(ink(colour))
    mixed = (
        base[0] + (target[0] - base[0]) * amount,
        base[1] + (target[1] - base[1]) * amount,
        base[2] + (target[2] - base[2]) * amount,
    )
    return rgb_hex(mixed)
