"""The diode matrix scanned through gpiozero, on gpiozero's MockFactory with the board's wires
modelled from the wire side."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.hardware.debounce import Debouncer
from reedboard.hardware.matrix import MatrixScanner
from reedboard.wiring.build import load_build
from reedboard.wiring.layout import load_layout
from tests.hardware.matrix_wires import MatrixWires

GPIO = [f"GPIO{n}" for n in range(2, 28)]


class Board:
    """A scanner on mock pins wired to a layout's switches; changes collected in order."""

    def __init__(
        self, factory: MockFactory, layout_name: str, diodes: bool = True, **kw: object
    ) -> None:
        self.layout = load_layout(layout_name)
        nrows, ncols = self.layout.matrix
        rows, cols = GPIO[:nrows], GPIO[nrows : nrows + ncols]
        self.wires = MatrixWires(factory, rows, cols, diodes=diodes)
        self.changes: list[tuple[str, bool, float]] = []
        self.scanner = MatrixScanner(
            rows,
            cols,
            self.layout.switch_map(),
            lambda point, on, t: self.changes.append((point, on, t)),
            pin_factory=factory,
            **kw,  # type: ignore[arg-type]
        )

    def put(self, point: str, on: bool = True) -> None:
        p = self.layout.points[point]
        (self.wires.close if on else self.wires.open)(p.row, p.col)

    def read(self) -> frozenset[str]:
        ids = {(p.row, p.col): p.id for p in self.layout.points.values()}
        raw = self.scanner.read_raw()
        ncols = self.layout.matrix[1]
        return frozenset(
            ids[(b // ncols, b % ncols)] for b in range(raw.bit_length()) if raw >> b & 1
        )


@pytest.mark.parametrize("layout", ["cross33", "brier9"])
def test_a_full_board_reads_back_exactly(mock_factory: MockFactory, layout: str) -> None:
    board = Board(mock_factory, layout)
    for point in board.layout.points:
        board.put(point)
    assert board.read() == frozenset(board.layout.points)


@pytest.mark.parametrize("layout", ["cross33", "brier9"])
def test_any_set_of_pieces_reads_back_exactly_no_ghosting(
    mock_factory: MockFactory, layout: str
) -> None:
    board = Board(mock_factory, layout)
    rng = random.Random(layout)
    points = list(board.layout.points)
    for _ in range(60):
        want = set(rng.sample(points, rng.randint(0, len(points))))
        for point in points:
            board.put(point, point in want)
        assert board.read() == want


def test_without_diodes_the_same_wiring_ghosts(mock_factory: MockFactory) -> None:
    # three corners of a rectangle closed: the fourth reads closed too without diodes
    board = Board(mock_factory, "cross33", diodes=False)
    for point in ("1", "2", "7"):  # (0,0), (0,1), (1,0) in the 6x6 matrix
        board.put(point)
    assert board.read() == {"1", "2", "7", "8"}  # 8 is (1,1): a ghost


def test_rows_idle_and_are_selected_one_at_a_time(mock_factory: MockFactory) -> None:
    board = Board(mock_factory, "cross33")
    for pin in board.wires.rows:
        pin.clear_states()
    board.scanner.read_raw()
    for pin in board.wires.rows:
        pin.assert_states([True, False, True])  # idle high, selected low, idle again


def scan_at_1khz(board: Board, script: dict[int, tuple[str, bool]], until_ms: int) -> None:
    """Scan every millisecond on a virtual clock; at each ms in ``script`` change a switch."""
    for ms in range(until_ms):
        if ms in script:
            board.put(*script[ms])
        board.scanner.scan_once(ms / 1000)


@pytest.mark.parametrize("bounce_ms", [1, 4])
def test_short_bounces_are_filtered(mock_factory: MockFactory, bounce_ms: int) -> None:
    board = Board(mock_factory, "cross33", stable_ms=5)
    scan_at_1khz(board, {10: ("17", True), 10 + bounce_ms: ("17", False)}, 60)
    assert board.changes == []
    assert board.scanner.snapshot() == frozenset()


def test_an_8ms_pulse_is_reported_once(mock_factory: MockFactory) -> None:
    board = Board(mock_factory, "cross33", stable_ms=5)
    scan_at_1khz(board, {10: ("17", True), 18: ("17", False)}, 60)
    assert board.changes == [("17", True, 0.015), ("17", False, 0.023)]


def test_a_chattering_placement_is_reported_once_when_it_settles(mock_factory: MockFactory) -> None:
    board = Board(mock_factory, "cross33", stable_ms=5)
    chatter = {
        10: ("5", True),
        11: ("5", False),
        12: ("5", True),
        14: ("5", False),
        15: ("5", True),
    }
    scan_at_1khz(board, chatter, 40)
    assert board.changes == [("5", True, 0.020)]
    assert board.scanner.snapshot() == {"5"}


def test_at_the_default_100hz_a_placed_piece_is_reported_one_scan_later(
    mock_factory: MockFactory,
) -> None:
    board = Board(mock_factory, "cross33")  # 100 Hz, 5 ms
    board.scanner.scan_once(0.00)
    board.put("9")
    board.scanner.scan_once(0.01)
    assert board.changes == []
    board.scanner.scan_once(0.02)
    assert board.changes == [("9", True, 0.02)]


def test_pieces_present_at_start_are_the_snapshot_not_events(mock_factory: MockFactory) -> None:
    layout = load_layout("cross33")
    rows, cols = GPIO[:6], GPIO[6:12]
    wires = MatrixWires(mock_factory, rows, cols)
    wires.close(0, 0)
    changes: list[object] = []
    scanner = MatrixScanner(
        rows, cols, layout.switch_map(), lambda *a: changes.append(a), pin_factory=mock_factory
    )
    scanner.scan_once(1.0)
    assert scanner.snapshot() == {"1"} and changes == []


def test_active_high_matrix_reads_too(mock_factory: MockFactory) -> None:
    layout = load_layout("cross33")
    rows, cols = GPIO[:6], GPIO[6:12]
    wires = MatrixWires(mock_factory, rows, cols, active_low=False)
    scanner = MatrixScanner(
        rows, cols, layout.switch_map(), lambda *a: None, pin_factory=mock_factory, active_low=False
    )
    wires.close(2, 4)
    assert scanner.read_raw() == 1 << (2 * 6 + 4)


def test_the_shipped_pi_build_scans_on_its_own_pins(mock_factory: MockFactory) -> None:
    build = load_build("pi-cross33")
    wires = MatrixWires(mock_factory, build.matrix.rows, build.matrix.cols)
    scanner = MatrixScanner(
        build.matrix.rows,
        build.matrix.cols,
        build.layout.switch_map(),
        lambda *a: None,
        pin_factory=mock_factory,
    )
    p = build.layout.points["33"]
    wires.close(p.row, p.col)
    scanner.scan_once(0.0)
    scanner.scan_once(0.1)
    assert scanner.snapshot() == {"33"}


def test_debouncer_reports_each_switch_independently() -> None:
    d = Debouncer(0.005)
    assert d.update(0b01, 0.000) == []
    assert d.update(0b11, 0.003) == []
    assert d.update(0b11, 0.005) == [(0, True)]
    assert d.update(0b10, 0.008) == [(1, True)]
    assert d.update(0b10, 0.013) == [(0, False)]
    assert d.reported == 0b10


@pytest.mark.error_logs
def test_a_scan_fault_is_logged_and_scanning_goes_on(
    mock_factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    import threading

    board = Board(mock_factory, "cross33", scan_hz=1000)
    real = board.scanner.read_raw
    calls = {"n": 0}
    recovered = threading.Event()

    def flaky() -> int:
        calls["n"] += 1
        if calls["n"] <= 2:
            raise OSError("GPIO chip went away")
        recovered.set()
        return real()

    board.scanner.read_raw = flaky  # type: ignore[method-assign]
    board.scanner.start()
    try:
        assert recovered.wait(5)
    finally:
        board.scanner.close()
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "matrix scan failed" in errors[0].getMessage()
