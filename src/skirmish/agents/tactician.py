"""The tacticians' shared skeleton, for the agents: it lives in the core (``skirmish.core.tactics``) so
that each rule set's own tactician can build on it; ``find_agent`` finds that tactician through
``Ruleset.tactician``."""

from skirmish.core.tactics import Tactician

__all__ = ["Tactician"]
