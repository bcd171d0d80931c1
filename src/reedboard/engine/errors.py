"""The project's one error root, and the engine's exceptions under it.

:class:`ReedboardError` is the root of every error reedboard raises on purpose: each package
has its own subclass (the engine's :class:`EngineError`; ``reedboard.wiring.tomlfile.WiringError``,
``reedboard.hardware.board_io.BoardError``, ``reedboard.errors.ControllerError``), so the command
line
catches the root and prints one line. It lives here because the engine is the bottom package:
it imports nothing of ours, and every other package may import it.

Each engine error also inherits a built-in (as gpiozero's ``BadPinFactory(GPIOZeroError,
ImportError)``), so callers may catch ``ValueError``.
"""

from __future__ import annotations


class ReedboardError(Exception):
    """Root of every error reedboard raises on purpose: one line that names what is wrong."""


class EngineError(ReedboardError):
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


class SolverError(EngineError, ValueError):
    """A question a solver cannot answer: a position or options it does not take, or one too
    large; the message says which."""


class TableError(EngineError, ValueError):
    """A table assistant's argument is not one it answers (a card, the dice, a price)."""
