"""Declared state fields: how each field of a game state is copied, restored and compared.

A state declares its fields once (``__slots__`` and a ``fields`` table naming how each one is
copied); ``clone``, the rollback of a refused action and equality all follow from that table,
so a new field cannot be forgotten by one of them (python-chess keeps its board a plain class
with an explicit copy for the same reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, cast


class Copy(Enum):
    """How a declared field is carried into a copy of its state."""

    SHARE = "share"
    """Immutable, or shared by every copy (the map, the rule set, an int, a string, a frozen value)."""
    COPY = "copy"
    """A container (dict, set, list, deque) copied one level deep: its items are immutable."""
    RECORD = "record"
    """One mutable record with its own ``copy()`` (or None)."""
    RECORDS = "records"
    """A dict or list of mutable records (or plain dicts), each copied with its own ``copy()``."""
    SCRATCH = "scratch"
    """A cache worked out from the rest: a copy starts without it (None) and equality ignores it."""
    LOG = "log"
    """The dice, the event log and the action history: ``Position`` carries them itself, kept or
    dropped by a copy's ``record``."""


def copy_value(how: Copy, value: Any) -> Any:
    """``value`` as a copy of its state carries it."""
    if how is Copy.SHARE or value is None:
        return value
    if how is Copy.COPY:
        return value.copy()
    if how is Copy.RECORD:
        return value.copy()
    if how is Copy.RECORDS:
        if isinstance(value, dict):
            return {k: v.copy() for k, v in value.items()}
        return type(value)(v.copy() for v in value)
    return None


def declared(cls: type) -> Mapping[str, Copy]:
    """Every declared field of a state class with how it is copied, base classes first.

    Raises:
        TypeError: a class in its ancestry has slots without a ``fields`` entry, or the reverse,
            or instances would carry an undeclared ``__dict__``.
    """
    cached = cls.__dict__.get("_declared")
    if cached is not None:
        return cast("Mapping[str, Copy]", cached)
    plan: dict[str, Copy] = {}
    for klass in reversed(cls.__mro__):
        own = klass.__dict__.get("fields")
        slots = klass.__dict__.get("__slots__", ())
        slots = (slots,) if isinstance(slots, str) else tuple(slots)
        if own is None:
            if slots:
                raise TypeError(f"{klass.__name__} has slots {sorted(slots)} but no 'fields' table")
            continue
        if set(own) != set(slots):
            raise TypeError(f"{klass.__name__}: 'fields' names {sorted(set(own) ^ set(slots))} that are not "
                            "in its __slots__, or the reverse; declare each field in both")
        plan.update(own)
    if cls.__dictoffset__:
        raise TypeError(f"{cls.__name__} instances carry a __dict__: every class in its ancestry needs __slots__")
    type.__setattr__(cls, "_declared", plan)
    return plan
