"""The base of every rule set's actions: small immutable values, each pasteable as a scenario step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: the creature (or, for side decisions, the side) that takes it.
    ``to_step()`` gives the scenario-format form (``{actor, do, ...}``)."""

    actor: str

    verb = "action"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb}
