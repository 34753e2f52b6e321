"""Errors of the engine: every one is a ``ValueError`` with a message a user can act on.

Content errors (a bad scenario, stat block or map) and rules errors (an action the
rules forbid) are kept apart so the command line can map them to its exit statuses:
2 for bad input, 3 for a step the rules refuse.
"""

from __future__ import annotations


class SkirmishError(ValueError):
    """Base class of every error the engine raises on purpose."""


class ContentError(SkirmishError):
    """Bad input: a scenario, map, stat block or dice expression that cannot be read.

    Attributes:
        file: the file the content came from, if known.
        where: a line number or key path inside it, if known.
    """

    def __init__(self, message: str, *, file: str | None = None, where: str | None = None) -> None:
        self.file = file
        self.where = where
        self.detail = message
        prefix = ""
        if file and where:
            prefix = f"{file}: {where}: "
        elif file:
            prefix = f"{file}: "
        elif where:
            prefix = f"{where}: "
        super().__init__(prefix + message)


class DiceError(ContentError):
    """A dice expression that cannot be parsed, or a forced die outside its die's range."""


class InvalidActionError(SkirmishError):
    """An action that is malformed: unknown actor, unknown attack, a square off the map."""


class IllegalActionError(SkirmishError):
    """An action that is well formed but forbidden by the rules here and now.

    Attributes:
        rule: the checklist id of the rule that forbids it, if one does.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)


class NotPlayableError(SkirmishError):
    """The rule set answers geometry questions but cannot play actions yet."""
