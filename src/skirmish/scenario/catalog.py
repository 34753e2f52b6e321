"""Each rule set's creature catalog by rule set name: ``Ruleset.creatures()``, the YAML files under
``rulesets/<id>/content/`` read once (``skirmish.core.catalog``)."""

from __future__ import annotations

from collections.abc import Mapping

from skirmish.core.catalog import CatalogEntry
from skirmish.rulesets import find_ruleset


def catalog(ruleset: str) -> Mapping[str, CatalogEntry]:
    """The creatures of a rule set's catalog, by name.

    Raises:
        ContentError: no rule set has that name.
    """
    return find_ruleset(ruleset)().creatures()


__all__ = ["CatalogEntry", "catalog"]
