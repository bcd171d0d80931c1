"""The engine's exceptions: one root, and each also a built-in so callers may catch `ValueError`."""

from __future__ import annotations


class EngineError(Exception):
    """Root of every error the engine raises."""


class InvalidMoveError(EngineError, ValueError):
    """A move's text is not of the game's move syntax (``9-10``, ``9x25x11``, ``WR a1-c6``)."""


class IllegalMoveError(EngineError, ValueError):
    """A well-formed move that the rules do not allow in the position; the message names both."""


class InvalidPositionError(EngineError, ValueError):
    """A position's text form is malformed or describes a state the game cannot reach."""


class UnknownGameError(EngineError, LookupError):
    """No game is registered under the id."""

    def __str__(self) -> str:  # LookupError would quote the message like a key
        return str(self.args[0]) if self.args else ""


class InvalidOptionError(EngineError, ValueError):
    """A game option is unknown or has a value the game cannot use; the message names the key."""
