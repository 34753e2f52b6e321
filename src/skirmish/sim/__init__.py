"""Simulation: many games through the game interface, and the statistics of their results."""
