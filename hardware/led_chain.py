"""Turn a frame and the dice into the colour of every LED in the chain, at a moment in time.

The chain is the layout's: each point's LED at its index, then the dice's pips. Drivers that
push colours (WS2812 over SPI, the Pico, the simulated board's drawing) share this.
"""

from __future__ import annotations

import math

from hardware.board_io import OFF, WHITE, Colour, LedFrame, Pattern
from hardware.dice_pips import PIPS_PER_DIE, pip_lights
from wiring.layout import Layout

BLINK_PERIOD = 0.5
PULSE_PERIOD = 1.0


def check_frame(layout: Layout, frame: LedFrame) -> None:
    """Raise ValueError naming the first point of ``frame`` that the layout does not have."""
    for point in frame:
        if point not in layout.points:
            raise ValueError(f"LED frame names point {point!r}, which board {layout.name} lacks")


def scale(colour: Colour, level: float) -> Colour:
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


def level_at(pattern: Pattern, t: float) -> float:
    """How bright a pattern is at time ``t`` (0-1)."""
    if pattern is Pattern.BLINK:
        return 1.0 if (t % BLINK_PERIOD) < BLINK_PERIOD / 2 else 0.0
    if pattern is Pattern.PULSE:
        return 0.15 + 0.85 * (0.5 - 0.5 * math.cos(2 * math.pi * t / PULSE_PERIOD))
    return 1.0


def render(
    layout: Layout,
    frame: LedFrame,
    dice: tuple[int, ...] | None,
    t: float = 0.0,
    dice_colour: Colour = WHITE,
) -> list[Colour]:
    """The colour of each LED in the chain at time ``t``."""
    chain: list[Colour] = [OFF] * layout.led_count
    for point, light in frame.items():
        chain[layout.points[point].led] = scale(light.colour, level_at(light.pattern, t))
    if layout.dice_leds:
        for i, on in enumerate(pip_lights(dice, layout.dice_leds // PIPS_PER_DIE)):
            chain[layout.dice_start + i] = dice_colour if on else OFF
    return chain
