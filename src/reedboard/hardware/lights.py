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
# The colours are Okabe and Ito's palette, told apart with every common colour blindness; each
# meaning is also its own pattern (docs/design.md "LEDs"), and the web view draws it as a shape.
GREEN: Colour = (0, 158, 115)
"""Okabe-Ito bluish green, steady: a legal landing point."""
AMBER: Colour = (230, 159, 0)
"""Okabe-Ito orange: a hint (steady), a move to confirm (blinking)."""
BLUE: Colour = (0, 114, 178)
"""Okabe-Ito blue: the computer's move, from and to."""
RED: Colour = (213, 94, 0)
"""Okabe-Ito vermillion. Steady: the Brier Patch. Blinking: remove a piece here. Pulsing: a
switch that may be broken."""
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
