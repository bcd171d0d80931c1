"""Latency through the Pico link over a pty, with the real firmware on a simulated board:

- switch change -> the Pi's event: from a switch closing on the simulated matrix to the
  SensorEvent on the Pi's side; the firmware's debounce window (5 ms) is part of it, so the
  figure that matters is what the link adds to it (goal: under 2 ms at p99);
- LED command -> applied: from the Pi's show() to the firmware putting the frame on the chain.

Run: .venv/bin/python benchmarks/bridge.py [--samples N] [--interpreter micropython|cpython]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.link import PicoBoard
from firmware_bridge.simulator import SimulatedPico
from hardware.board_io import GREEN, RED, Light, SensorEvent
from wiring.layout import load_layout

STABLE_MS = 5


async def measure(interpreter: str, samples: int) -> tuple[list[float], list[float]]:
    layout = load_layout("cross33")
    rows, cols = layout.matrix
    pico = SimulatedPico(interpreter, rows * cols, layout.led_count, scan_hz=1000)
    board = PicoBoard(pico.port, layout, brightness=1.0, max_milliamps=10_000)
    await board.start()
    loop = asyncio.get_running_loop()
    switch: list[float] = []
    leds: list[float] = []
    points = list(layout.points.values())
    try:
        await asyncio.sleep(0.5)
        for k in range(samples):
            point = points[k % len(points)]
            on = point.id not in board.snapshot()
            t0 = time.perf_counter()
            pico.set(point.row * cols + point.col, on)
            async with asyncio.timeout(5):
                while True:
                    event = await anext(board.events)
                    if isinstance(event, SensorEvent) and event.point == point.id:
                        break
            switch.append(time.perf_counter() - t0)
            while not pico.leds.empty():
                pico.leds.get()
            t0 = time.perf_counter()
            board.show({point.id: Light(GREEN if k % 2 else RED)})  # a new frame every time
            await loop.run_in_executor(None, pico.next_leds)
            leds.append(time.perf_counter() - t0)
            await asyncio.sleep(0.01)
    finally:
        board.close()
        pico.close()
    return switch, leds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--interpreter", choices=["micropython", "cpython"], action="append")
    args = parser.parse_args()
    for interpreter in args.interpreter or ["micropython", "cpython"]:
        switch, leds = asyncio.run(measure(interpreter, args.samples))
        s, led = statistics.quantiles(switch, n=100), statistics.quantiles(leds, n=100)
        added = [x - STABLE_MS / 1000 for x in switch]
        a = statistics.quantiles(added, n=100)
        print(f"{interpreter}: {len(switch)} samples")
        print(
            f"  switch -> Pi event     p50 {s[49] * 1e3:6.2f} ms   p99 {s[98] * 1e3:6.2f} ms"
            f"   (incl. the {STABLE_MS} ms debounce window)"
        )
        print(
            f"  added to the window    p50 {a[49] * 1e3:6.2f} ms   p99 {a[98] * 1e3:6.2f} ms"
            "   (goal: p99 < 2 ms)"
        )
        print(f"  LED command -> applied p50 {led[49] * 1e3:6.2f} ms   p99 {led[98] * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
