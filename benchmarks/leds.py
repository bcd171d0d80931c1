"""CPU per tick of the LED compositor (reedboard/hardware/compositor.py), into each kind of LED
sink.

For each board: a tick with nothing due (what the daemon's LED task costs while a frame
stands), and a tick that renders every point blinking plus the dice into the sink: the
simulated board's list, the WS2812 chain over SPI (the bytes encoded; the SPI device is a
stand-in that drops them), and the Pico link (the brightness cap and the changed LEDs'
lines, without the port). Then what a second of blinking (4 renders) and of pulsing (25)
costs, as a share of one core. CPU time of this thread only.

Run: .venv/bin/python benchmarks/leds.py [--ticks N]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from reedboard.bridge.frames import LedSync
from reedboard.hardware.compositor import Compositor
from reedboard.hardware.led_chain import BLINK_PERIOD, PULSE_STEP
from reedboard.hardware.lights import GREEN, RED, Colour, LedSink, Light, Pattern
from reedboard.hardware.ws2812 import SpiLedChain, limit
from reedboard.wiring.layout import Layout, load_layout


class DropSpi:
    """spidev's SpiDev as far as SpiLedChain uses it; the bytes go nowhere."""

    max_speed_hz = 0
    mode = 0

    def writebytes2(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


class ListSink:
    def write(self, colours: Sequence[Colour]) -> None:
        self.chain = list(colours)


class PicoLines:
    """What PicoBoard does with a chain before the port: the cap, then the changed LEDs."""

    def __init__(self) -> None:
        self.sync = LedSync()
        self.lines: list[str] = []

    def write(self, colours: Sequence[Colour]) -> None:
        self.lines = self.sync.update(limit(colours, 0.5, 2000))


SINKS: dict[str, Callable[[Layout], LedSink]] = {
    "simulated": lambda layout: ListSink(),
    "ws2812-spi": lambda layout: SpiLedChain(layout.led_count, spi=DropSpi()),
    "pico link": lambda layout: PicoLines(),
}


def per_tick(leds: Compositor, clock: list[float], ticks: int, step: float) -> float:
    """The median CPU time of a tick, in microseconds, ticking every ``step`` seconds."""
    took = []
    for _ in range(ticks):
        clock[0] += step
        c0 = time.thread_time_ns()
        leds.tick(clock[0])
        took.append(time.thread_time_ns() - c0)
    return statistics.median(took) / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=2000, help="ticks measured per figure")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; median CPU per tick, {args.ticks} ticks each")
    print(
        f"{'board':12} {'sink':11} {'LEDs':>5} {'idle':>8} {'render':>8}"
        f" {'blink/s':>9} {'pulse/s':>9}"
    )
    for name in ("cross33", "brier9", "parchesi101"):
        layout = load_layout(name)
        for sink_name, make in SINKS.items():
            clock = [0.0]
            leds = Compositor(layout, make(layout), functools.partial(clock.__getitem__, 0))
            leds.show({p: Light(GREEN) for p in layout.points})
            idle = per_tick(leds, clock, args.ticks, 0.001)
            blink = {
                p: Light(RED if i % 2 else GREEN, Pattern.BLINK)
                for i, p in enumerate(layout.points)
            }
            leds.show(blink)
            leds.show_dice((6, 5) if layout.dice_leds else None)
            render = per_tick(leds, clock, args.ticks, BLINK_PERIOD / 2)
            blink_share = render * (2 / BLINK_PERIOD) / 1e6 * 100
            pulse_share = render / PULSE_STEP / 1e6 * 100
            print(
                f"{name:12} {sink_name:11} {layout.led_count:>5} {idle:>6.2f}us {render:>6.1f}us"
                f" {blink_share:>8.3f}% {pulse_share:>8.3f}%"
            )
    print("idle: a tick with nothing due; render: a frame of every point blinking, and the dice")
    print("blink/s, pulse/s: one core's share for a second of blinking (4 renders), pulsing (25)")


if __name__ == "__main__":
    main()
