"""The contract between a board and the daemon (DESIGN.md "hardware").

Every driver (direct GPIO, the Pico bridge, the simulated board) implements :class:`BoardIO`,
most of it by inheriting :class:`reedboard.hardware.driver.Driver`. Point ids are the layout's
strings
(``"17"``, ``"e5"``).

LEDs: a frame of :class:`Light` s is what the daemon *wants* shown (a colour and a pattern a
point). The board's :class:`~reedboard.hardware.compositor.Compositor` (``board.leds``) owns the one
animation clock: it turns the frame and the dice into each LED's colour at every tick and
writes them to the driver's :class:`LedSink`, which only puts colours on its LEDs.
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    from typing import Self

    from reedboard.hardware.compositor import Compositor

from reedboard.engine.errors import ReedboardError

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


class LedSink(Protocol):
    """A board's LEDs as the compositor drives them: no clock, no patterns."""

    def write(self, colours: Sequence[Colour]) -> object:
        """Show these colours, one an LED index (the layout's points, then the dice's pips),
        at full scale: the sink applies its own brightness cap. The compositor writes only
        chains that differ from the last one. What it returns is not used."""
        ...


class BoardIO(Protocol):
    """What the controller needs of a board. A board is a context manager: ``with board:``
    (or ``async with board:``) opens it (scanning, the serial link) and closes it."""

    @property
    def leds(self) -> Compositor:
        """The LEDs' compositor: ``show`` and ``show_dice`` hand it what to show; its
        ``tick(now)`` (or ``run()`` on the loop) animates it."""
        ...

    def open(self) -> None:
        """Start reading the board (and keeping its link); BoardError if it is not there.
        Calling it again does nothing."""
        ...

    def close(self) -> None:
        """Stop reading and free the pins or the port (the LEDs keep what they show); calling
        it again does nothing."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def snapshot(self) -> frozenset[str]:
        """The points whose switches are closed now (after debouncing)."""
        ...

    @property
    def events(self) -> AsyncIterator[BoardEvent]:
        """Sensor and button events, in the order they happened."""
        ...

    def show(self, frame: LedFrame) -> None:
        """Show a whole frame (handed to :attr:`leds`); only changed LEDs are sent."""
        ...

    def show_dice(self, values: tuple[int, ...] | None) -> None:
        """Show the dice as pips (7 LEDs a die at the end of the chain); None darkens them."""
        ...
