"""The direct-GPIO board: the Pi scans the matrix, reads the buttons and drives the LEDs itself.

Hardware callbacks (the scanning thread, gpiozero's button threads) reach the asyncio loop
only through ``EventQueue.put_threadsafe``. The LEDs are a sink (a WS2812 chain over SPI, or
single-colour LEDs on a gpiozero LEDBoard) that the compositor writes colours to; the board
itself animates nothing. The pins are claimed when the board is made; :meth:`open` starts
scanning.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from reedboard.hardware.board_io import ButtonEvent, SensorEvent
from reedboard.hardware.buttons import Buttons
from reedboard.hardware.driver import Driver
from reedboard.hardware.events import EventQueue
from reedboard.hardware.ledboard import LedBoardLeds
from reedboard.hardware.lights import Colour, LedSink
from reedboard.hardware.matrix import MatrixScanner
from reedboard.hardware.ws2812 import SpiLedChain
from reedboard.wiring.build import Build


class NoLeds:
    """A build without LEDs (``[leds] driver = "none"``): colours go nowhere."""

    def write(self, colours: Sequence[Colour]) -> None:
        pass

    def close(self) -> None:
        pass


class GpioBoard(Driver):
    def __init__(
        self,
        build: Build,
        *,
        pin_factory: Any = None,
        spi: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if build.driver != "gpio":
            raise ValueError(f"build {build.name} is for the {build.driver} driver, not gpio")
        self.build = build
        self.layout = build.layout
        self._clock = clock
        self._events = EventQueue()
        self._open = False
        self._closed = False
        m = build.matrix
        self._scanner = MatrixScanner(
            m.rows,
            m.cols,
            self.layout.switch_map(),
            self._switch_changed,
            active_low=m.active_low,
            scan_hz=m.scan_hz,
            stable_ms=m.stable_ms,
            pin_factory=pin_factory,
            clock=clock,
        )
        self._buttons = Buttons(
            build.buttons,
            self._button_pressed,
            bounce_ms=build.bounce_ms,
            pin_factory=pin_factory,
            clock=clock,
        )
        leds = build.leds
        self.sink: SpiLedChain | LedBoardLeds | NoLeds
        try:
            if leds.driver == "ws2812-spi":
                self.sink = SpiLedChain(
                    self.layout.led_count,
                    bus=leds.spi_bus,
                    device=leds.spi_device,
                    brightness=leds.brightness,
                    max_milliamps=leds.max_milliamps,
                    order=leds.order,
                    spi=spi,
                )
            elif leds.driver == "ledboard":
                self.sink = LedBoardLeds(leds.pins, pin_factory=pin_factory)
            else:
                self.sink = NoLeds()
        except BaseException:  # no LEDs (SPI off): the pins taken so far are freed
            self._scanner.close()
            self._buttons.close()
            raise
        sink: LedSink = self.sink
        super().__init__(self.layout, sink, clock)

    # -- callbacks from other threads --------------------------------------------------------

    def _switch_changed(self, point: str, on: bool, t: float) -> None:
        self._events.put_threadsafe(SensorEvent(point, on, t))

    def _button_pressed(self, name: str, t: float) -> None:
        self._events.put_threadsafe(ButtonEvent(name, t))

    # -- BoardIO -----------------------------------------------------------------------------

    def open(self) -> None:
        """Start scanning the matrix (the buttons report from the start)."""
        if self._open or self._closed:
            return
        self._open = True
        self._scanner.start()

    def snapshot(self) -> frozenset[str]:
        return self._scanner.snapshot()

    @property
    def events(self) -> EventQueue:
        return self._events

    def close(self) -> None:
        """Stop scanning and free every pin and the SPI device (a closed board stays closed)."""
        if self._closed:
            return
        self._closed = True
        self._scanner.close()
        self._buttons.close()
        self.sink.close()
