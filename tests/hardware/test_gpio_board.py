"""The direct-GPIO board end to end on gpiozero's MockFactory: real scanning thread, real
gpiozero Buttons, events reaching the asyncio loop from other threads; every LED pattern on
the WS2812 chain (the spidev stand-in's bytes) and on single-colour LEDs (the pins' states)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from reedboard.hardware.board_io import ButtonEvent, SensorEvent
from reedboard.hardware.gpio_board import GpioBoard
from reedboard.hardware.ledboard import lit
from reedboard.hardware.lights import GREEN, RED, Colour, Light, Pattern
from reedboard.hardware.ws2812 import RESET_BYTES, decode, limit
from reedboard.wiring.build import load_build
from tests.hardware.fake_spidev import FakeSpiDev
from tests.hardware.led_patterns import VirtualClock, every_pattern
from tests.hardware.matrix_wires import MatrixWires


def test_switches_and_buttons_reach_the_loop_from_their_threads(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)

    async def scenario() -> list[object]:
        got: list[object] = []
        async with GpioBoard(build, pin_factory=mock_factory, spi=FakeSpiDev()) as board:
            p = build.layout.points["17"]
            # the wire changes from a thread of its own, like a hand on the board
            threading.Thread(target=wires.close, args=(p.row, p.col)).start()
            async with asyncio.timeout(5):
                got.append(await anext(board.events))
            roll = mock_factory.pin(build.buttons["roll"])
            threading.Thread(target=roll.drive_low).start()
            async with asyncio.timeout(5):
                got.append(await anext(board.events))
            assert board.snapshot() == {"17"}
        return got

    sensor, button = asyncio.run(scenario())
    assert isinstance(sensor, SensorEvent) and (sensor.point, sensor.on) == ("17", True)
    assert isinstance(button, ButtonEvent) and button.button == "roll"


def test_frames_and_dice_go_down_the_spi_chain(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    spi = FakeSpiDev()
    with GpioBoard(build, pin_factory=mock_factory, spi=spi, clock=lambda: 0.0) as board:
        board.show({"17": Light(GREEN), "1": Light(RED, Pattern.BLINK)})
        board.show_dice((3, 4))
        colours = decode(spi.writes[-1][RESET_BYTES:])
        layout = build.layout
        assert len(colours) == layout.led_count
        level = build.leds.brightness
        assert colours[layout.points["17"].led] == tuple(int(c * level) for c in GREEN)
        assert colours[layout.points["1"].led] == tuple(int(c * level) for c in RED)  # blink: on
        assert sum(1 for c in colours[layout.dice_start :] if c != (0, 0, 0)) == 7
        writes = len(spi.writes)
        board.show({"17": Light(GREEN), "1": Light(RED, Pattern.BLINK)})
        assert len(spi.writes) == writes  # nothing changed, nothing sent
    assert spi.closed  # the board closed its SPI device with itself


TINY_LAYOUT = """
name = "tiny"
games = []
size = [2, 2]
matrix = [2, 2]
dice_leds = 0

[points]
a = { x = 0, y = 0, row = 0, col = 0, led = 0 }
b = { x = 1, y = 0, row = 0, col = 1, led = 1 }
c = { x = 0, y = 1, row = 1, col = 0, led = 2 }
d = { x = 1, y = 1, row = 1, col = 1, led = 3 }
"""

TINY_BUILD = """
layout = "tiny.toml"
driver = "gpio"

[matrix]
rows = ["GPIO4", "GPIO5"]
cols = ["GPIO6", "GPIO12"]

[buttons]
roll = "GPIO13"
undo = "GPIO16"
hint = "GPIO17"
confirm = "GPIO18"

[leds]
driver = "ledboard"
pins = ["GPIO19", "GPIO20", "GPIO21", "GPIO22"]
"""


def test_a_small_single_colour_build_lights_its_leds(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    (tmp_path / "tiny.toml").write_text(TINY_LAYOUT)
    (tmp_path / "tiny-build.toml").write_text(TINY_BUILD)
    build = load_build(tmp_path / "tiny-build.toml")
    board = GpioBoard(build, pin_factory=mock_factory)
    try:
        board.show({"a": Light(GREEN), "c": Light(RED, Pattern.BLINK)})
        led_pins = [mock_factory.pin(p) for p in build.leds.pins]
        assert [pin.state for pin in led_pins[:2]] == [True, False]
        assert led_pins[3].state is False
        board.show({"a": Light(GREEN), "c": Light(RED, Pattern.BLINK)})
        board.show({})
        assert not any(pin.state for pin in (led_pins[0], led_pins[1], led_pins[3]))
    finally:
        board.close()


def test_every_pattern_on_the_ws2812_chain(mock_factory: MockFactory) -> None:
    """Steady, blink, pulse, the sweep and the pips, as the bytes down the SPI wire show
    them at each step of the compositor's clock (the board keeps none of its own)."""
    build = load_build("pi-cross33")
    spi = FakeSpiDev()
    clock = VirtualClock()
    leds = build.leds

    def seen(chain: list[Colour]) -> None:
        want = limit(chain, leds.brightness, leds.max_milliamps)
        assert decode(spi.writes[-1][RESET_BYTES:], leds.order) == want

    with GpioBoard(build, pin_factory=mock_factory, spi=spi, clock=clock) as board:
        done = every_pattern(board, build.layout, clock, seen)
    assert done == ["steady", "blink", "pulse", "sweep", "dice"]


TINY_DICE_BUILD = """
layout = "tiny.toml"
driver = "gpio"

[pi]
interfaces = []

[matrix]
rows = ["GPIO4", "GPIO5"]
cols = ["GPIO6", "GPIO7"]

[buttons]
roll = "GPIO8"
undo = "GPIO9"
hint = "GPIO10"
confirm = "GPIO11"

[leds]
driver = "ledboard"
pins = [%s]
"""


def test_every_pattern_on_single_colour_leds(mock_factory: MockFactory, tmp_path: Path) -> None:
    """A gpiozero LEDBoard with a pin for each point and each pip: an LED is on while its
    light is at half brightness or more, so a blink blinks, a pulse blinks slowly, the sweep
    moves, and the compositor times all of it (gpiozero's own blink thread is not used)."""
    (tmp_path / "tiny.toml").write_text(TINY_LAYOUT.replace("dice_leds = 0", "dice_leds = 14"))
    pins = [f"GPIO{n}" for n in (2, 3, *range(12, 28))]  # 18: every pin the rest leave
    (tmp_path / "b.toml").write_text(TINY_DICE_BUILD % ", ".join(f'"{p}"' for p in pins))
    build = load_build(tmp_path / "b.toml")
    clock = VirtualClock()
    with GpioBoard(build, pin_factory=mock_factory, clock=clock) as board:
        led_pins = [mock_factory.pin(p) for p in build.leds.pins]

        def seen(chain: list[Colour]) -> None:
            assert [pin.state for pin in led_pins] == [lit(c) for c in chain]

        done = every_pattern(board, build.layout, clock, seen)
    assert done == ["steady", "blink", "pulse", "sweep", "dice"]
