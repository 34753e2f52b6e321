"""Drawing a position: a rich renderable for the terminal and a PNG or SVG picture.

Both renderers take creature labels and side colours from ``skirmish.render.style``, so
the same creature reads the same in the terminal and in a picture.
"""

from __future__ import annotations

from skirmish.render.picture import render_picture
from skirmish.render.style import labels, side_colours
from skirmish.render.terminal import print_terminal, render_terminal

__all__ = ["labels", "print_terminal", "render_picture", "render_terminal", "side_colours"]
