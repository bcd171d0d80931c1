"""Turn a frame and the dice into the colour of every LED in the chain, at a moment of the
animation, and say when that picture next changes.

The chain is the layout's: each point's LED at its index, then the dice's pips. The times here
are the animation's: seconds since the compositor's clock last started the frame's animated
lights (reedboard/hardware/compositor.py), so a light that starts blinking starts lit.
"""

from __future__ import annotations

import math

from reedboard.hardware.dice_pips import PIPS_PER_DIE, pip_lights
from reedboard.hardware.lights import OFF, WHITE, Colour, LedFrame, Pattern
from reedboard.wiring.layout import Layout

BLINK_PERIOD = 0.5
"""A blink: lit for the first half, dark for the second."""
PULSE_PERIOD = 1.0
PULSE_STEP = 0.04
"""How often a pulsing light is redrawn (25 Hz); blinks and the sweep are redrawn only when
they change."""
SWEEP_SECONDS = 1.2
"""How long the game-over sweep takes to cross the board (once)."""
EPSILON = 1e-9
"""Times are nudged by this before they are cut into steps, so a tick at a step's boundary
(sums of floats) lands in the step it starts."""


def check_frame(layout: Layout, frame: LedFrame) -> None:
    """Raise ValueError naming the first point of ``frame`` that the layout does not have."""
    for point in frame:
        if point not in layout.points:
            raise ValueError(f"LED frame names point {point!r}, which board {layout.name} lacks")


def scale(colour: Colour, level: float) -> Colour:
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


def level_at(pattern: Pattern, t: float) -> float:
    """How bright a light of ``pattern`` is ``t`` seconds into its animation (0-1). The sweep
    depends on the point as well: :func:`sweep_column`."""
    t += EPSILON
    if pattern is Pattern.BLINK:
        return 1.0 if (t % BLINK_PERIOD) < BLINK_PERIOD / 2 else 0.0
    if pattern is Pattern.PULSE:
        return 0.15 + 0.85 * (0.5 + 0.5 * math.cos(2 * math.pi * t / PULSE_PERIOD))
    return 1.0


def sweep_column(layout: Layout, t: float) -> int | None:
    """The column (a point's ``x``) the game-over sweep lights ``t`` seconds in; None once it
    has crossed the board."""
    t += EPSILON
    if t >= SWEEP_SECONDS:
        return None
    return int(t / SWEEP_SECONDS * layout.size[0])


def next_change(layout: Layout, patterns: set[Pattern], t: float) -> float | None:
    """When (in animation time, after ``t``) lights of these patterns next look different;
    None if they never will."""
    t += EPSILON
    due: list[float] = []
    if Pattern.BLINK in patterns:
        half = BLINK_PERIOD / 2
        due.append((math.floor(t / half) + 1) * half)
    if Pattern.PULSE in patterns:
        due.append(t + PULSE_STEP)
    if Pattern.SWEEP in patterns and t < SWEEP_SECONDS:
        step = SWEEP_SECONDS / layout.size[0]
        due.append(min((math.floor(t / step) + 1) * step, SWEEP_SECONDS))
    return min(due) if due else None


def render(
    layout: Layout,
    frame: LedFrame,
    dice: tuple[int, ...] | None,
    t: float = 0.0,
    dice_colour: Colour = WHITE,
) -> list[Colour]:
    """The colour of each LED in the chain ``t`` seconds into the frame's animation."""
    points = layout.points
    chain: list[Colour] = [OFF] * (len(points) + layout.dice_leds)
    column: int | None = -1
    levels: dict[Pattern, float] = {}
    for point, light in frame.items():
        pattern = light.pattern
        if pattern is _STEADY:
            chain[points[point].led] = light.colour
        elif pattern is _SWEEP:
            if column == -1:
                column = sweep_column(layout, t)
            p = points[point]
            if p.x == column:
                chain[p.led] = light.colour
        else:
            level = levels.get(pattern)
            if level is None:
                level = levels[pattern] = level_at(pattern, t)
            if level == 1.0:
                chain[points[point].led] = light.colour
            elif level:
                chain[points[point].led] = scale(light.colour, level)
    if dice is not None and layout.dice_leds:
        start = len(points)
        for i, on in enumerate(pip_lights(dice, layout.dice_leds // PIPS_PER_DIE)):
            if on:
                chain[start + i] = dice_colour
    return chain


_STEADY, _SWEEP = Pattern.STEADY, Pattern.SWEEP
