"""What a board's LEDs show: colours, the patterns the compositor animates, a light (a colour
and a pattern), a frame (a light a point), and the sink a driver gives the compositor."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias

Colour: TypeAlias = tuple[int, int, int]
"""Red, green, blue, 0-255 each."""

OFF: Colour = (0, 0, 0)
GREEN: Colour = (0, 255, 0)
"""A legal landing point."""
AMBER: Colour = (255, 150, 0)
"""A hint."""
BLUE: Colour = (0, 60, 255)
"""The computer's move, from and to."""
RED: Colour = (255, 0, 0)
"""Steady: the Brier Patch. Blinking: remove a piece here."""
WHITE: Colour = (255, 255, 255)
"""Blinking: place a piece here. Also the dice pips."""


class Pattern(enum.Enum):
    """How a light changes over time; the compositor's clock starts every animated light of a
    frame together, lit, when the frame's animated lights change."""

    STEADY = "steady"
    BLINK = "blink"
    """On the first half of each 0.5 s period, off the second."""
    PULSE = "pulse"
    """Brightness falling and rising again once a second (15 % at its lowest)."""
    SWEEP = "sweep"
    """The game-over sweep: lit while a column of light, crossing the board once from left
    to right in 1.2 s, passes the point; dark after."""


@dataclass(frozen=True, slots=True)
class Light:
    colour: Colour
    pattern: Pattern = Pattern.STEADY


LedFrame: TypeAlias = Mapping[str, Light]
"""Point id → what its LED shows; a point left out is dark."""


class LedSink(Protocol):
    """A board's LEDs as the compositor drives them: no clock, no patterns."""

    def write(self, colours: Sequence[Colour]) -> object:
        """Show these colours, one an LED index (the layout's points, then the dice's pips),
        at full scale: the sink applies its own brightness cap. The compositor writes only
        chains that differ from the last one. What it returns is not used."""
        ...
