"""A Pico that is not there is said at once: a port that does not exist, a real pty with no
firmware behind it, and (for contrast) the firmware on a real pty answering."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
import time
import tty
from pathlib import Path
from typing import Any

import pytest

from reedboard.bridge.link import PicoBoard
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.hardware.board_io import BoardError, SensorEvent
from reedboard.wiring.layout import load_layout

LAYOUT = load_layout("cross33")


def test_a_port_that_does_not_exist_is_said_at_once(tmp_path: Path) -> None:
    port = tmp_path / "reedboard-pico"
    board = PicoBoard(str(port), LAYOUT)
    start = time.monotonic()
    with pytest.raises(BoardError) as err:
        board.open()
    assert time.monotonic() - start < 1
    assert (
        str(err.value) == f"cannot open {port}: No such file or directory (is the Pico plugged in?)"
    )


def test_a_port_that_is_not_a_terminal_is_said_at_once(tmp_path: Path) -> None:
    port = tmp_path / "folder"
    port.mkdir()
    with pytest.raises(BoardError, match=f"cannot open {port}: Is a directory"):
        PicoBoard(str(port), LAYOUT).open()


def test_a_pty_with_no_firmware_behind_it_is_no_board() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    board = PicoBoard(os.ttyname(slave), LAYOUT)
    board.open()  # the port opens: only the firmware's silence tells

    async def scenario() -> None:
        async with board:  # opened already: entering it opens nothing more
            with pytest.raises(
                BoardError, match=r"no answer from the reedboard firmware in 0\.5 s"
            ):
                await board.ready(0.5)

    try:
        asyncio.run(scenario())
    finally:
        os.close(master)
        os.close(slave)


def test_the_firmware_answers_a_board_opened_before_the_loop_runs() -> None:
    layout = LAYOUT
    fw = Firmware("cpython", layout.matrix[0] * layout.matrix[1], layout.led_count)
    index = {pid: p.row * layout.matrix[1] + p.col for pid, p in layout.points.items()}
    fw.set(index["17"], True)
    board = PicoBoard(fw.port, layout)
    board.open()  # the daemon opens it before its loop runs; what comes meanwhile is kept

    async def scenario() -> set[str]:
        deadline = time.monotonic() + 5
        while board.version is None:  # its hello comes before the loop reads anything
            assert time.monotonic() < deadline, "no hello from the firmware"
            time.sleep(0.01)
        async with board:
            await board.ready(5)
            got: set[str] = set()
            async with asyncio.timeout(5):
                while "17" not in got:
                    event = await anext(board.events)  # the first read binds this loop
                    if isinstance(event, SensorEvent) and event.on:
                        got.add(event.point)
            return got | set(board.snapshot())

    try:
        assert asyncio.run(scenario()) == {"17"}
    finally:
        fw.close()


def test_a_hung_up_port_is_said_lost_so_the_board_reconnects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cable pulled while the Pico talks: on the hung-up tty ``in_waiting`` raises
    ``OSError(EIO)`` (as a real pty does once its other end is closed). pyserial's reader
    thread died on it without telling the board, which stayed 'connected' and never opened the
    port again."""
    import serial.serialposix

    hung = threading.Event()
    real = serial.serialposix.Serial.in_waiting

    def in_waiting(self: Any) -> int:
        if hung.is_set():
            raise OSError(errno.EIO, "Input/output error")
        value: int = real.fget(self)  # type: ignore[attr-defined]
        return value

    monkeypatch.setattr(serial.serialposix.Serial, "in_waiting", property(in_waiting))
    master, slave = os.openpty()
    tty.setraw(slave)
    board = PicoBoard(os.ttyname(slave), LAYOUT, reconnect_every=60)
    board.open()
    assert board.connected

    async def scenario() -> None:
        async with board:
            for _ in range(20):  # the Pico talking: the reader goes round its loop
                os.write(master, b"x")
                await asyncio.sleep(0.01)
            hung.set()  # the cable pulled
            for _ in range(5):
                os.write(master, b"x")
                await asyncio.sleep(0.01)
            deadline = time.monotonic() + 3
            while board.connected and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert not board.connected, "the board never heard its port was gone"

    try:
        asyncio.run(scenario())
    finally:
        os.close(master)
        os.close(slave)
