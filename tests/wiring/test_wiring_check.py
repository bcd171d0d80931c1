"""The wiring wizard on a direct-GPIO board (gpiozero MockFactory, the board's wires modelled
from the wire side): a good board passes; swapped lines and dead switches are reported."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from gpiozero.pins.mock import MockFactory

from reedboard.hardware.gpio_board import GpioBoard
from reedboard.wiring.build import Build, load_build
from reedboard.wiring.check import check_wiring
from tests.hardware.fake_spidev import FakeSpiDev
from tests.hardware.matrix_wires import MatrixWires


def fast(build: Build) -> Build:
    """The same build scanning at 1 kHz, so the wizard's waits are short."""
    return replace(build, matrix=replace(build.matrix, scan_hz=1000, stable_ms=2))


def run_wizard(
    factory: MockFactory,
    build: Build,
    wires: MatrixWires,
    dead: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[list[object], list[str]]:
    said: list[str] = []

    def hand_on(point: str) -> None:
        if point not in dead:
            p = build.layout.points[point]
            wires.close(p.row, p.col)

    def hand_off(point: str) -> None:
        p = build.layout.points[point]
        wires.open(p.row, p.col)

    async def scenario() -> list[object]:
        async with GpioBoard(fast(build), pin_factory=factory, spi=FakeSpiDev()) as board:
            return list(
                await check_wiring(
                    board,
                    build.layout,
                    said.append,
                    led_seconds=0,
                    timeout=1.0,
                    settle=0.02,
                    on_magnet_wanted=hand_on,
                    on_magnet_off_wanted=hand_off,
                )
            )

    return asyncio.run(scenario()), said


def test_a_well_wired_board_passes(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    problems, said = run_wizard(mock_factory, build, wires)
    assert problems == []
    assert said[-1] == "All 33 points read right."
    assert sum(1 for s in said if s.startswith("  LED ")) == 33


def test_swapped_column_lines_are_reported_with_the_likely_cause(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    cols = list(build.matrix.cols)
    cols[0], cols[1] = cols[1], cols[0]  # the builder soldered columns 0 and 1 crosswise
    wires = MatrixWires(mock_factory, build.matrix.rows, cols)
    problems, _ = run_wizard(mock_factory, build, wires)
    wrong = {str(p).split(":")[0] for p in problems}
    # every point on matrix column 0 or 1 reads as its neighbour
    expected = {p.id for p in build.layout.points.values() if p.col in (0, 1)}
    assert wrong == expected
    one = next(p for p in problems if str(p).startswith("1:"))
    assert str(one) == "1: reads as 2; column lines 0 and 1 may be swapped"


def test_a_dead_switch_reads_nothing_and_the_hint_names_its_lines(
    mock_factory: MockFactory,
) -> None:
    build = load_build("pi-cross33")
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    problems, said = run_wizard(mock_factory, build, wires, dead={"17"})
    assert [str(p) for p in problems] == [
        "17: reads nothing; check its reed switch and diode (stripe toward row 2),"
        " row line 2 and column line 4"
    ]
    assert said[-2:] == ["1 point(s) read wrong:", f"  {problems[0]}"]
