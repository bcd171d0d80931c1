"""Lights a game wants on its board whatever the play (:meth:`Position.marks`): named groups of
points, steady or blinking. The engine names them; the controller picks their colours
(docs/design.md "LEDs": red steady = the Brier Patch, blinking while a rabbit throws to escape)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class MarkStyle(enum.Enum):
    """How a mark is shown."""

    STEADY = "steady"
    """Always lit (the Brier Patch)."""
    BLINK = "blink"
    """Blinking, to draw the eye while it matters (the Brier Patch during an escape throw)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A named group of board points a game lights: ``brier-patch`` on ``e5 d5 f5 e4 e6``."""

    name: str
    points: frozenset[str]
    style: MarkStyle = MarkStyle.STEADY
