"""Agents that choose actions through the game interface only: ``random`` and per rule set ``tactician``."""

from skirmish.agents.base import AGENTS, Agent, RandomAgent, find_agent, play_game

__all__ = ["AGENTS", "Agent", "RandomAgent", "find_agent", "play_game"]
