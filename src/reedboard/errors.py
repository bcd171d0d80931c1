"""The controller's error root: every error of the daemon, the CLI, traces, the store and the
dice is a :class:`ControllerError`, itself a :class:`~reedboard.engine.errors.ReedboardError` (the
one
root the command line catches)."""

from __future__ import annotations

from reedboard.engine.errors import ReedboardError


class ControllerError(ReedboardError):
    """Root of every error the controller raises on purpose: one line naming what is wrong."""


class CommandError(ControllerError):
    """A user error of a command that no other error names (a bad card, a game with nothing
    to demo): one line, exit 2."""
