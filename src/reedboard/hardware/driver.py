"""What every driver shares: the LED compositor in front of its LEDs, and the lifecycle.

A driver subclasses :class:`Driver`, hands it the layout and its LED sink, and implements
``snapshot``, ``events`` and, when it has anything to start or free, ``open`` and ``close``.
``show`` and ``show_dice`` go to the compositor (``board.leds``), which animates; a driver
never keeps a clock of its own for its LEDs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Self

from reedboard.hardware.compositor import Compositor
from reedboard.hardware.lights import LedFrame, LedSink, Light
from reedboard.wiring.layout import Layout


class Driver:
    layout: Layout

    def __init__(
        self, layout: Layout, sink: LedSink, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.layout = layout
        self._compositor = Compositor(layout, sink, clock)

    @property
    def leds(self) -> Compositor:
        return self._compositor

    # -- the LEDs ----------------------------------------------------------------------------

    def show(self, frame: LedFrame) -> None:
        """Show a whole frame (refused, naming the point, if it lights a point not on the
        board)."""
        self._compositor.show(frame)

    def show_dice(self, values: tuple[int, ...] | None) -> None:
        """Show the dice as pips; None darkens them (refused if no die shows a value)."""
        self._compositor.show_dice(values)

    @property
    def frame(self) -> dict[str, Light]:
        """The frame last shown."""
        return self._compositor.frame

    @property
    def dice(self) -> tuple[int, ...] | None:
        """The dice last shown."""
        return self._compositor.dice

    # -- the lifecycle -----------------------------------------------------------------------

    def open(self) -> None:
        """Start reading the board; calling it again does nothing."""

    def close(self) -> None:
        """Stop reading the board and free what it holds; calling it again does nothing."""

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self.__enter__()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
