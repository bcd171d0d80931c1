"""The contract between a board and the daemon (DESIGN.md "hardware").

Every driver (direct GPIO, the Pico bridge, the simulated board) implements :class:`BoardIO`.
Point ids are the layout's strings (``"17"``, ``"e5"``).
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from engine.errors import ReedboardError

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
    STEADY = "steady"
    BLINK = "blink"
    """On half of each 0.5 s period."""
    PULSE = "pulse"
    """Brightness rising and falling once a second."""


@dataclass(frozen=True, slots=True)
class Light:
    colour: Colour
    pattern: Pattern = Pattern.STEADY


LedFrame: TypeAlias = Mapping[str, Light]
"""Point id → what its LED shows; a point left out is dark."""

BUTTONS = ("roll", "undo", "hint", "confirm", "new")


class BoardError(ReedboardError):
    """A board that cannot be opened or does not answer (no Pico on the port, no GPIO): one
    line saying which and why, said before anything else is done."""


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """A reed switch changed: a piece placed (``on``) or lifted at ``point``."""

    point: str
    on: bool
    t: float
    """Seconds on the driver's monotonic clock."""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button was pressed: one of :data:`BUTTONS`."""

    button: str
    t: float


@dataclass(frozen=True, slots=True)
class LinkEvent:
    """The link to the board went down (a USB cable pulled) or came back (``up``)."""

    up: bool
    t: float
    detail: str = ""


BoardEvent: TypeAlias = SensorEvent | ButtonEvent | LinkEvent


class BoardIO(Protocol):
    """What the controller needs of a board."""

    def snapshot(self) -> frozenset[str]:
        """The points whose switches are closed now (after debouncing)."""
        ...

    @property
    def events(self) -> AsyncIterator[BoardEvent]:
        """Sensor and button events, in the order they happened."""
        ...

    def show(self, frame: LedFrame) -> None:
        """Show a whole frame; drivers send only what changed."""
        ...

    def show_dice(self, values: tuple[int, ...] | None) -> None:
        """Show the dice as pips (7 LEDs a die at the end of the chain); None darkens them."""
        ...
