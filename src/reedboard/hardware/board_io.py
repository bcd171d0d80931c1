"""The contract between a board and the daemon (docs/design.md "hardware").

Every driver (direct GPIO, the Pico bridge, the simulated board) implements :class:`BoardIO`,
most of it by inheriting :class:`reedboard.hardware.driver.Driver`. Point ids are the layout's
strings (``"17"``, ``"e5"``).

LEDs (:mod:`reedboard.hardware.lights`): a frame of lights is what the daemon *wants* shown (a
colour and a pattern a point). The board's compositor (``board.leds``) owns the one animation
clock: it turns the frame and the dice into each LED's colour at every tick and writes them to
the driver's LED sink, which only puts colours on its LEDs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    from typing import Self

    from reedboard.hardware.compositor import Compositor

from reedboard.engine.errors import ReedboardError
from reedboard.hardware.lights import LedFrame

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
