"""Every LED pattern, on any board: one scenario that each driver's test runs against what its
LEDs really show (SPI bytes, gpiozero pin states, the firmware's chain, the simulated list).

The board's compositor runs on a virtual clock here: the scenario moves the clock and ticks,
and ``seen`` is given the chain every LED should show (full-scale colours, points then pips);
each driver's test turns that into what its LEDs would show and checks it (or waits for it).
"""

from __future__ import annotations

from collections.abc import Callable

from reedboard.hardware.board_io import BoardIO
from reedboard.hardware.dice_pips import PIPS_PER_DIE, pip_lights
from reedboard.hardware.led_chain import BLINK_PERIOD, SWEEP_SECONDS, scale
from reedboard.hardware.lights import AMBER, BLUE, GREEN, OFF, RED, WHITE, Colour, Light, Pattern
from reedboard.wiring.layout import Layout

Seen = Callable[[list[Colour]], None]


class VirtualClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def chain_of(
    layout: Layout, lit: dict[str, Colour], dice: tuple[int, ...] | None = None
) -> list[Colour]:
    """The chain that shows ``lit`` (points at full scale) and the dice."""
    chain: list[Colour] = [OFF] * layout.led_count
    for point, colour in lit.items():
        chain[layout.points[point].led] = colour
    if layout.dice_leds:
        for i, on in enumerate(pip_lights(dice, layout.dice_leds // PIPS_PER_DIE)):
            chain[layout.dice_start + i] = WHITE if on else OFF
    return chain


def every_pattern(board: BoardIO, layout: Layout, clock: VirtualClock, seen: Seen) -> list[str]:
    """Steady, blink, pulse, the sweep and the dice's pips, each checked through ``seen`` at
    every step of its animation; returns the steps' names (so a test knows all ran)."""
    leds = board.leds
    ids = sorted(layout.points, key=lambda p: layout.points[p].led)
    a, b = ids[0], ids[-1]
    done: list[str] = []

    def at(t: float) -> None:
        clock.t = t
        leds.tick(t)

    # steady: shown at once, and nothing more to do until something else is shown
    board.show({a: Light(GREEN), b: Light(RED)})
    seen(chain_of(layout, {a: GREEN, b: RED}))
    assert leds.next_tick() is None
    renders = leds.renders
    at(clock.t + 5.0)
    assert leds.renders == renders  # a steady frame costs nothing while it stands
    done.append("steady")

    # blink: lit at once, dark after half a period, lit again; a steady light changing
    # beside it does not restart it
    start = clock.t
    board.show({a: Light(RED, Pattern.BLINK), b: Light(GREEN)})
    seen(chain_of(layout, {a: RED, b: GREEN}))
    assert leds.next_tick() == start + BLINK_PERIOD / 2
    at(start + BLINK_PERIOD / 2)
    seen(chain_of(layout, {b: GREEN}))
    at(start + BLINK_PERIOD)
    seen(chain_of(layout, {a: RED, b: GREEN}))
    clock.t = start + BLINK_PERIOD * 1.2
    board.show({a: Light(RED, Pattern.BLINK), b: Light(AMBER)})
    seen(chain_of(layout, {a: RED, b: AMBER}))
    at(start + BLINK_PERIOD * 1.5)
    seen(chain_of(layout, {b: AMBER}))
    done.append("blink")

    # pulse: full, at its lowest half a period later, full again
    start = clock.t
    board.show({a: Light(BLUE, Pattern.PULSE)})
    seen(chain_of(layout, {a: BLUE}))
    at(start + 0.5)
    seen(chain_of(layout, {a: scale(BLUE, 0.15)}))
    at(start + 1.0)
    seen(chain_of(layout, {a: BLUE}))
    done.append("pulse")

    # the game-over sweep: every column lit in turn, left to right, then dark for good
    start = clock.t
    board.show({p: Light(WHITE, Pattern.SWEEP) for p in layout.points})
    width = layout.size[0]
    step = SWEEP_SECONDS / width
    for column in range(width):
        at(start + (column + 0.5) * step)
        seen(chain_of(layout, {p.id: WHITE for p in layout.points.values() if p.x == column}))
    at(start + SWEEP_SECONDS)
    seen(chain_of(layout, {}))
    assert leds.next_tick() is None
    done.append("sweep")

    # the dice's pips (on a board that has them)
    if layout.dice_leds:
        board.show({})
        board.show_dice((3, 5))
        seen(chain_of(layout, {}, (3, 5)))
        board.show_dice((6,))
        seen(chain_of(layout, {}, (6,)))
        board.show_dice(None)
        seen(chain_of(layout, {}))
        done.append("dice")
    return done
