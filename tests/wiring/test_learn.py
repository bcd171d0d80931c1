"""`reedboard wiring learn` on boards wired in a shuffled order: through gpiozero's
MockFactory and through the firmware on a pty, a hand that finds each named point and each
lit LED by the board's true (shuffled) wiring; the layout written loads and equals the truth.
A ghost (two switches under one magnet) and a dead switch are problems, and nothing is written."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico
from reedboard.cli.main import main
from reedboard.hardware.gpio_board import GpioBoard
from reedboard.hardware.ws2812 import RESET_BYTES, decode
from reedboard.wiring.build import load_build
from reedboard.wiring.layout import Layout, WiringError, load_layout
from reedboard.wiring.learn import Learned, learn_wiring, probe_layout, write_learned
from tests.hardware.fake_spidev import FakeSpiDev
from tests.hardware.matrix_wires import MatrixWires
from tests.wiring.hands import FirmwareMatrix, Switch
from tests.wiring.test_wiring_check import fast

Truth = dict[str, tuple[int, int, int]]


def shuffled(layout: Layout, seed: int) -> Truth:
    """A board wired in another order: each point a random switch place of the matrix (the
    places the layout leaves unused included) and a random LED."""
    rng = random.Random(seed)
    rows, cols = layout.matrix
    places = rng.sample([(r, c) for r in range(rows) for c in range(cols)], len(layout.points))
    leds = rng.sample(range(len(layout.points)), len(layout.points))
    return {p: (*places[i], leds[i]) for i, p in enumerate(layout.points)}


class Hand:
    """Puts the magnet where asked: on the named point, or on the point whose LED is lit
    (read off the LEDs by ``lit``), by the board's true wiring."""

    def __init__(self, truth: Truth, wires: MatrixWires | FirmwareMatrix) -> None:
        self.truth, self.wires = truth, wires
        self.ghost: dict[str, Switch] = {}
        self.dead: set[str] = set()
        self.closed: list[Switch] = []
        self.lit: object = None

    def switches(self, point: str) -> list[Switch]:
        if point in self.dead:
            return []
        r, c, _ = self.truth[point]
        return [(r, c), *([self.ghost[point]] if point in self.ghost else [])]

    def put(self, point: str) -> None:
        self.closed = self.switches(point)
        for r, c in self.closed:
            self.wires.close(r, c)

    def off(self, what: str | None) -> None:
        for r, c in self.closed:
            self.wires.open(r, c)
        self.closed = []

    def on_lit(self, index: int) -> None:
        self.put(next(p for p, (_, _, led) in self.truth.items() if led == index))


def lit_index(chain: list[tuple[int, int, int]]) -> int | None:
    lit = [i for i, colour in enumerate(chain) if any(colour)]
    return lit[0] if len(lit) == 1 else None


def learn_gpio(
    factory: MockFactory, truth: Truth, hand_setup: Callable[[Hand], None] | None = None
) -> tuple[Learned, Layout]:
    build = load_build("pi-cross33")
    layout = build.layout
    wires = MatrixWires(factory, build.matrix.rows, build.matrix.cols)
    hand = Hand(truth, wires)
    if hand_setup:
        hand_setup(hand)
    spi = FakeSpiDev()

    def on(what: str | None) -> None:
        if what is not None:
            hand.put(what)
            return
        index = lit_index(decode(spi.writes[-1][RESET_BYTES:]))
        assert index is not None
        hand.on_lit(index)

    async def scenario() -> Learned:
        probe = replace(fast(build), layout=probe_layout(layout))
        async with GpioBoard(probe, pin_factory=factory, spi=spi) as board:
            return await learn_wiring(
                board,
                layout,
                lambda s: None,
                timeout=0.5,
                settle=0.02,
                on_magnet_wanted=on,
                on_magnet_off_wanted=hand.off,
            )

    return asyncio.run(scenario()), layout


def assert_recovered(layout: Layout, learned: Learned, truth: Truth, out: Path) -> None:
    assert learned.problems == []
    assert learned.complete(layout)
    write_learned(layout, learned, out)
    new = load_layout(out)  # the loader's every check passes
    assert {p.id: (p.row, p.col, p.led) for p in new.points.values()} == truth
    assert {p.id: (p.x, p.y) for p in new.points.values()} == {
        p.id: (p.x, p.y) for p in layout.points.values()
    }
    assert (new.games, new.matrix, new.dice_leds, new.marks) == (
        layout.games,
        layout.matrix,
        layout.dice_leds,
        layout.marks,
    )


def test_learn_recovers_a_shuffled_board_through_gpio(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    layout = load_build("pi-cross33").layout
    truth = shuffled(layout, seed=29)
    assert truth != {p.id: (p.row, p.col, p.led) for p in layout.points.values()}
    learned, layout = learn_gpio(mock_factory, truth)
    assert_recovered(layout, learned, truth, tmp_path / "learned.toml")


def test_a_ghost_and_a_dead_switch_are_problems_and_nothing_is_written(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    layout = load_build("pi-cross33").layout
    truth = shuffled(layout, seed=3)
    used = {(r, c) for r, c, _ in truth.values()}
    spare = next((r, c) for r in range(6) for c in range(6) if (r, c) not in used)

    def setup(hand: Hand) -> None:
        hand.ghost["12"] = spare
        hand.dead.add("20")

    learned, layout = learn_gpio(mock_factory, truth, setup)
    r, c, _ = truth["12"]
    both = " and ".join(f"row {a} col {b}" for a, b in sorted([(r, c), spare]))
    assert f"12: {both} closed together (a short or a missing diode)" in learned.problems
    assert "20: no switch closed (a dead switch or diode, or no magnet)" in learned.problems
    # the LED pass: 12's and 20's LEDs land on switches no point claimed
    assert sum(p.startswith("LED ") for p in learned.problems) == 2
    assert len(learned.problems) == 4 and not learned.complete(layout)


def test_learn_recovers_a_shuffled_board_through_the_firmware(tmp_path: Path) -> None:
    layout = load_layout("cross33")
    truth = shuffled(layout, seed=7)
    fw = SimulatedPico("micropython", 36, layout.led_count)
    hand = Hand(truth, FirmwareMatrix(fw, layout.matrix))
    handled: list[int] = []

    async def on(what: str | None) -> None:
        if what is not None:
            hand.put(what)
            return
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the hand looks at the LEDs the firmware shows
            index = lit_index(fw.shown[-1][1]) if fw.shown else None
            if index is not None and index not in handled:
                handled.append(index)
                hand.on_lit(index)
                return
            await asyncio.sleep(0.01)
        raise AssertionError("no new LED lit")

    async def scenario() -> Learned:
        async with PicoBoard(fw.port, probe_layout(layout)) as board:
            await board.ready(5)
            return await learn_wiring(
                board,
                layout,
                lambda s: None,
                timeout=1.0,
                settle=0.03,
                on_magnet_wanted=on,
                on_magnet_off_wanted=hand.off,
            )

    try:
        learned = asyncio.run(scenario())
    finally:
        fw.close()
    assert handled == list(range(len(layout.points)))
    assert_recovered(layout, learned, truth, tmp_path / "learned.toml")


def test_the_layout_is_not_overwritten_without_force(tmp_path: Path) -> None:
    layout = load_layout("cross33")
    truth = shuffled(layout, seed=1)
    learned = Learned(
        {p: (r, c) for p, (r, c, _) in truth.items()}, {p: led for p, (_, _, led) in truth.items()}
    )
    out = tmp_path / "mine.toml"
    out.write_text("mine")
    with pytest.raises(WiringError, match="exists; give --force"):
        write_learned(layout, learned, out)
    assert out.read_text() == "mine"
    write_learned(layout, learned, out, force=True)
    assert load_layout(out).points["17"].led == truth["17"][2]


def test_wiring_learn_refuses_an_existing_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.toml"
    out.write_text("mine")
    code = main(["wiring", "learn", "pi-cross33", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "exists; give --force" in err
    assert out.read_text() == "mine"
