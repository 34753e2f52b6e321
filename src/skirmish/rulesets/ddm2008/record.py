"""What ddm2008 remembers of each creature beyond the core's fields: its ``Creature.rules`` record.

``Ddm2008State.from_position`` gives every creature one; a state's ``clone`` copies it with the
creature, and a refused action puts it back with the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skirmish.core.creatures import Creature


@dataclass(slots=True)
class Ddm2008Record:
    """One creature's own ddm2008 state.

    Attributes:
        true_side: the side a confused creature belongs to while its opponent controls it for its
            turn (M08-144, GAP-M08-3); None otherwise.
    """

    true_side: str | None = None

    def copy(self) -> Ddm2008Record:
        return Ddm2008Record(self.true_side)


def record(c: Creature) -> Ddm2008Record:
    """The creature's ddm2008 record (every creature of a ``Ddm2008State`` has one)."""
    r = c.rules
    assert isinstance(r, Ddm2008Record), f"{c.id} has no ddm2008 record"
    return r
