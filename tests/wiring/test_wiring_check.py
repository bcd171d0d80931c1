"""The wiring wizard on a direct-GPIO board (gpiozero MockFactory, the board's wires modelled
from the wire side): a good board passes; swapped lines and dead switches are reported."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard import engine
from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico
from reedboard.cli.main import main
from reedboard.hardware.gpio_board import GpioBoard
from reedboard.hardware.ws2812 import RESET_BYTES, decode
from reedboard.wiring.build import Build, load_build
from reedboard.wiring.check import check_wiring, points_on
from reedboard.wiring.crosstalk import check_crosstalk
from reedboard.wiring.layout import Layout, WiringError, load_layout
from tests.hardware.fake_spidev import FakeSpiDev
from tests.hardware.matrix_wires import MatrixWires
from tests.wiring.hands import FirmwareMatrix, LeakyWires, Switch, seen

T = TypeVar("T")


def fast(build: Build) -> Build:
    """The same build scanning at 1 kHz, so the wizard's waits are short."""
    return replace(build, matrix=replace(build.matrix, scan_hz=1000, stable_ms=2))


def run_wizard(
    factory: MockFactory,
    build: Build,
    wires: MatrixWires,
    dead: set[str] = frozenset(),  # type: ignore[assignment]
    timeout: float = 1.0,
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
                    timeout=timeout,
                    settle=0.02,
                    on_magnet_wanted=hand_on,
                    on_magnet_off_wanted=hand_off,
                    pins=(build.matrix.rows, build.matrix.cols),
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


def test_a_whole_row_or_column_reading_nothing_is_summed_up_naming_its_line_and_pin(
    mock_factory: MockFactory,
) -> None:
    build = load_build("pi-cross33")
    layout = build.layout
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    dead_row = {p.id for p in layout.points.values() if p.row == 5}  # a broken row line
    dead_col = {p.id for p in layout.points.values() if p.col == 5}  # a broken column line
    lone = next(p.id for p in layout.points.values() if p.row == 0 and p.col == 0)
    problems, said = run_wizard(
        mock_factory, build, wires, dead=dead_row | dead_col | {lone}, timeout=0.3
    )
    assert {str(p).split(":")[0] for p in problems} == dead_row | dead_col | {lone}
    row_pin, col_pin = build.matrix.rows[5], build.matrix.cols[5]
    assert said[-2:] == [  # after the per-point lines; the lone dead switch kills no line
        f"row 5 reads nothing: check row line 5 ({row_pin}) and its diodes' direction",
        f"column 5 reads nothing: check column line 5 ({col_pin}) and its diodes' direction",
    ]
    assert said[-3] == f"  {problems[-1]}"


# -- a board still being built: --leds-only, --rows/--cols --------------------------------------


def _lit(spi: FakeSpiDev) -> list[int]:
    """The chain index lit alone in each frame the LEDs were sent."""
    out = []
    for data in spi.writes:
        lit = [i for i, colour in enumerate(decode(data[RESET_BYTES:])) if any(colour)]
        if len(lit) == 1:
            out.append(lit[0])
    return out


def test_leds_only_lights_each_led_in_chain_order_and_asks_for_no_magnet(
    mock_factory: MockFactory,
) -> None:
    build = load_build("pi-cross33")
    MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    spi = FakeSpiDev()
    asked: list[str] = []
    said: list[str] = []

    async def scenario() -> list[object]:
        async with GpioBoard(fast(build), pin_factory=mock_factory, spi=spi) as board:
            return list(
                await check_wiring(
                    board,
                    build.layout,
                    said.append,
                    led_seconds=0,
                    timeout=0.2,
                    on_magnet_wanted=asked.append,
                    leds_only=True,
                )
            )

    assert asyncio.run(scenario()) == []
    assert asked == []
    assert _lit(spi)[: build.layout.led_count - build.layout.dice_leds] == list(range(33))
    assert not any("magnet" in s for s in said)


def test_rows_limits_the_switch_pass_to_those_rows(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    layout = build.layout
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    chosen = points_on(layout, rows=[0, 1])
    on_row_1 = next(p.id for p in layout.points.values() if p.row == 1)
    on_row_3 = next(p.id for p in layout.points.values() if p.row == 3)
    asked: list[str] = []
    said: list[str] = []

    def hand_on(point: str) -> None:
        asked.append(point)
        if point not in (on_row_1, on_row_3):
            wires.close(layout.points[point].row, layout.points[point].col)

    def hand_off(point: str) -> None:
        wires.open(layout.points[point].row, layout.points[point].col)

    async def scenario() -> list[object]:
        async with GpioBoard(fast(build), pin_factory=mock_factory, spi=FakeSpiDev()) as board:
            return list(
                await check_wiring(
                    board,
                    layout,
                    said.append,
                    led_seconds=0,
                    timeout=0.3,
                    settle=0.02,
                    on_magnet_wanted=hand_on,
                    on_magnet_off_wanted=hand_off,
                    points=chosen,
                )
            )

    problems = asyncio.run(scenario())
    assert asked == [p.id for p in layout.points.values() if p.row in (0, 1)]
    assert [str(p).split(":")[0] for p in problems] == [on_row_1]  # row 3's dead one: not asked


def test_points_on_rows_and_columns_and_bad_numbers() -> None:
    layout = load_build("pi-cross33").layout
    both = points_on(layout, rows=[2], cols=[0, 4])
    assert both == [p.id for p in layout.points.values() if p.row == 2 and p.col in (0, 4)]
    assert len(both) == 2
    with pytest.raises(WiringError, match=r"^matrix row 6 .*\(rows 0-5\)$"):
        points_on(layout, rows=[6])
    with pytest.raises(WiringError, match=r"^matrix column 9 .*\(columns 0-5\)$"):
        points_on(layout, cols=[1, 9])


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--rows", "6"], "--rows 6 is outside build pi-cross33's matrix (rows 0-5)"),
        (["--cols", "1,7"], "--cols 7 is outside build pi-cross33's matrix (cols 0-5)"),
        (["--rows", "1,x"], "'1,x' is not a list of whole numbers from 0"),
        (["--leds-only", "--crosstalk"], "--leds-only tests no switch"),
    ],
)
def test_bad_rows_and_cols_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code = main(["wiring", "check", "pi-cross33", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("reedboard: error: ") and err.count("\n") == 1
    assert said in err


def test_port_is_used_for_a_pico_build_and_refused_for_a_pi_build(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    port = tmp_path / "ttyACM0"  # the Pico before the udev rule: not here either
    code = main(["wiring", "check", "pico-cross33", "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"reedboard: error: cannot open {port}: ")
    code = main(["wiring", "check", "pi-cross33", "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--port is for a Pico build; build pi-cross33 uses the Pi's own GPIO" in err


# -- crosstalk: every point filled, one lifted at a time ----------------------------------------

SOLITAIRE = engine.start("solitaire").occupied()
"""The fixture's filling: Solitaire's start, every hole but the centre."""


def expected_crosstalk(layout: Layout, filled: set[str], diodeless: set[Switch]) -> set[str]:
    """The points the model of the wires says misbehave: reading with no piece, or a lift
    that leaves the point reading or changes another point."""
    switch = {p.id: (p.row, p.col) for p in layout.points.values()}
    by_switch = layout.switch_map()

    def reading(pieces: set[str]) -> set[str]:
        closed = {switch[p] for p in pieces}
        return {by_switch[s] for s in seen(closed, diodeless, layout.matrix[0]) if s in by_switch}

    base = reading(filled)
    bad = base - filled
    bad |= {p for p in filled if p in base and reading(filled - {p}) != base - {p}}
    return bad


def run_crosstalk_gpio(
    factory: MockFactory,
    diodeless: set[Switch],
    dead: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[list[str], Layout]:
    build = load_build("pi-cross33")
    layout = build.layout
    wires = LeakyWires(factory, build.matrix.rows, build.matrix.cols, diodeless=diodeless)

    def put(point: str) -> None:
        if point not in dead:
            wires.close(layout.points[point].row, layout.points[point].col)

    def fill(points: frozenset[str]) -> None:
        for p in points:
            put(p)

    def lift(point: str) -> None:
        wires.open(layout.points[point].row, layout.points[point].col)

    async def scenario() -> list[str]:
        async with GpioBoard(fast(build), pin_factory=factory, spi=FakeSpiDev()) as board:
            found = await check_crosstalk(
                board,
                layout,
                lambda s: None,
                filled=SOLITAIRE,
                timeout=0.4,
                settle=0.03,
                on_fill_wanted=fill,
                on_lift_wanted=lift,
                on_put_back_wanted=put,
            )
        return [str(p) for p in found]

    return asyncio.run(scenario()), layout


def test_crosstalk_on_a_well_wired_board_finds_nothing(mock_factory: MockFactory) -> None:
    found, _ = run_crosstalk_gpio(mock_factory, set())
    assert found == []


def test_a_missing_diode_ghosts_and_every_point_it_disturbs_is_reported(
    mock_factory: MockFactory,
) -> None:
    layout = load_build("pi-cross33").layout
    nine = layout.points["9"]
    diodeless = {(nine.row, nine.col)}
    found, _ = run_crosstalk_gpio(mock_factory, diodeless)
    expected = expected_crosstalk(layout, set(SOLITAIRE), diodeless)
    assert expected and "17" in expected  # the empty centre ghosts through 9's switch
    assert {s.split(":")[0] for s in found} == expected
    assert any(s.startswith("17: reads with no piece on it") for s in found)
    assert all("missing or reversed diode" in s for s in found)


def test_crosstalk_reports_a_dead_switch(mock_factory: MockFactory) -> None:
    found, _ = run_crosstalk_gpio(mock_factory, set(), dead={"5"})
    assert found == ["5: reads nothing with its piece on (a dead switch, diode or line)"]


# -- the same through the firmware on a pty ---------------------------------------------------


def _pico_run(
    scenario: Callable[[PicoBoard, FirmwareMatrix], Awaitable[T]], diodeless: set[Switch]
) -> T:
    layout = load_layout("cross33")
    fw = SimulatedPico("micropython", 36, layout.led_count)
    matrix = FirmwareMatrix(fw, layout.matrix, diodeless)

    async def run() -> T:
        async with PicoBoard(fw.port, layout) as board:
            await board.ready(5)
            return await scenario(board, matrix)

    try:
        return asyncio.run(run())
    finally:
        fw.close()


def test_crosstalk_and_rows_through_the_firmware() -> None:
    layout = load_layout("cross33")
    nine = layout.points["9"]
    diodeless = {(nine.row, nine.col)}
    dead = next(p.id for p in layout.points.values() if p.row == 0)

    async def scenario(board: PicoBoard, matrix: FirmwareMatrix) -> tuple[list[str], list[str]]:
        def put(point: str) -> None:
            if point != dead:
                matrix.close(layout.points[point].row, layout.points[point].col)

        def lift(point: str) -> None:
            matrix.open(layout.points[point].row, layout.points[point].col)

        def fill(points: frozenset[str]) -> None:
            for p in points:
                put(p)

        crosstalk = await check_crosstalk(
            board,
            layout,
            lambda s: None,
            filled=SOLITAIRE,
            timeout=0.5,
            settle=0.05,
            on_fill_wanted=fill,
            on_lift_wanted=lift,
            on_put_back_wanted=put,
        )
        for p in SOLITAIRE:
            lift(p)
        matrix.diodeless.clear()
        await asyncio.sleep(0.2)
        wrong = await check_wiring(
            board,
            layout,
            lambda s: None,
            led_seconds=0,
            timeout=0.5,
            settle=0.05,
            on_magnet_wanted=put,
            on_magnet_off_wanted=lift,
            points=points_on(layout, rows=[0]),
        )
        return [str(p) for p in crosstalk], [str(p) for p in wrong]

    crosstalk, wrong = _pico_run(scenario, diodeless)
    # the dead switch is reported and takes its ghosts with it: the model with it left out
    expected = expected_crosstalk(layout, set(SOLITAIRE) - {dead}, diodeless) | {dead}
    assert {s.split(":")[0] for s in crosstalk} == expected
    assert [s.split(":")[0] for s in wrong] == [dead]
