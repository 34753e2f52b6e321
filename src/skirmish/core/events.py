"""Events: what happened, in one readable sentence, with the rule that decided it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a game's log.

    Attributes:
        type: what kind of thing happened (``roll``, ``move``, ``attack``, ``damage``...).
        text: one readable sentence.
        rule: the checklist id of the rule that decided it, where one did.
        data: the event's fields for machines (actor, target, roll, total, ...).
    """

    type: str
    text: str
    rule: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The event as ``skirmish run`` prints it: type, data fields, rule, text."""
        out: dict[str, Any] = {"type": self.type}
        out.update(self.data)
        if self.rule:
            out["rule"] = self.rule
        out["text"] = self.text
        return out
