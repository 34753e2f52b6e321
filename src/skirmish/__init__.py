"""skirmish: rules engine, player and simulator for tactical combat on a square grid."""

__version__ = "0.1.0"
