"""The whole stack over the bridge: the daemon with a Pico build, the firmware on MicroPython
behind a pty, moves made on the simulated matrix; the port is closed and reopened mid-game."""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.bridge.simulator import SimulatedPico as Firmware
from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.wiring.build import load_build
from reedboard.wiring.layout import load_layout
from tests.engine.test_solitaire import SEED_KEY

LAYOUT = load_layout("cross33")
INDEX = {pid: p.row * LAYOUT.matrix[1] + p.col for pid, p in LAYOUT.points.items()}


def test_a_game_over_the_pico_link_survives_the_port_closing(tmp_path: Path) -> None:
    fw = Firmware("micropython", 36, LAYOUT.led_count)
    for point in engine.start("solitaire").occupied():  # the pegs are on the board
        fw.set(INDEX[point], True)
    text = load_build("pico-cross33").path.read_text()
    build = tmp_path / "build.toml"
    build.write_text(text.replace('port = "/dev/reedboard-pico"', f'port = "{fw.port}"'))
    said: list[str] = []
    config = Config(game="solitaire", build=str(build), database=tmp_path / "g.db")

    async def scenario() -> None:
        daemon = Daemon(config, out=said.append)
        board = daemon.board
        board.reconnect_every = 0.2  # type: ignore[attr-defined]
        run = asyncio.create_task(daemon.run())

        async def until(text: str, count: int = 1) -> None:
            async with asyncio.timeout(10):
                while sum(1 for s in said if s.startswith(text)) < count:
                    await asyncio.sleep(0.02)

        await until("board-connected")
        await asyncio.sleep(0.3)
        over = engine.cross33(engine.Diagonals.NONE).over
        for ply, move in enumerate(SEED_KEY[:8], start=1):
            a, b = (int(h) for h in move.split("-"))
            fw.set(INDEX[str(a)], False)
            fw.set(INDEX[str(over[(a, b)])], False)
            if ply == 4:  # the cable is pulled mid-move; the rest of the move happens meanwhile
                board.close_port()  # type: ignore[attr-defined]
            await asyncio.sleep(0.05)  # a hand takes a while to carry the peg (a piece is not
            fw.set(INDEX[str(b)], True)  # in two places: it lands after it left)
            await until("move: ", ply)
        daemon.stop.set()
        await run

    try:
        asyncio.run(scenario())
    finally:
        fw.close()
    moves = [s.split(": ", 1)[1] for s in said if s.startswith("move: ")]
    assert moves == SEED_KEY[:8]
    assert "board-disconnected" in [s.split(":")[0] for s in said]
    assert [s.split(":")[0] for s in said].count("board-connected") == 2


def test_a_mismatch_blinks_over_the_pico_link(tmp_path: Path) -> None:
    """The daemon on a Pico build, the firmware under MicroPython: a peg put where none
    belongs becomes a mismatch, and its "remove here" blinks on the firmware's LEDs, lit and
    dark in turn every quarter second, until the peg is taken off. Once the daemon stops,
    the board is closed (its link's thread ends)."""
    fw = Firmware("micropython", 36, LAYOUT.led_count)
    for point in engine.start("solitaire").occupied():
        fw.set(INDEX[point], True)
    text = load_build("pico-cross33").path.read_text()
    build = tmp_path / "build.toml"
    build.write_text(text.replace('port = "/dev/reedboard-pico"', f'port = "{fw.port}"'))
    said: list[str] = []
    config = Config(game="solitaire", build=str(build), database=tmp_path / "g.db", grace=0.3)
    led = LAYOUT.points["17"].led

    async def scenario() -> tuple[list[tuple[float, bool]], bool, bool]:
        daemon = Daemon(config, out=said.append)
        run = asyncio.create_task(daemon.run())

        async def until(text: str) -> None:
            async with asyncio.timeout(10):
                while not any(s.startswith(text) for s in said):
                    await asyncio.sleep(0.02)

        await until("board-connected")
        await asyncio.sleep(0.3)  # the pegs are read
        fw.set(INDEX["17"], True)  # a 33rd peg, on the empty centre
        await until("mismatch: remove 17")
        start = time.monotonic()
        await asyncio.sleep(1.6)
        fw.set(INDEX["17"], False)
        await asyncio.sleep(0.5)
        blinks = [(t - start, c[led][0] > 0) for t, c in fw.shown if t >= start]
        dark = not any(any(v) for v in fw.shown[-1][1])  # the board is right: nothing lit
        daemon.stop.set()
        await run
        return blinks, dark, daemon.board.connected  # type: ignore[attr-defined]

    try:
        blinks, dark, connected = asyncio.run(scenario())
    finally:
        fw.close()
    states = [lit for t, lit in blinks if t < 1.6]
    assert len(states) >= 5, blinks  # six halves in 1.6 s, the first maybe before `start`
    assert all(a != b for a, b in itertools.pairwise(states)), blinks
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(blinks) if b[0] < 1.6]
    assert statistics.median(gaps) == pytest.approx(0.25, abs=0.05), gaps
    assert dark and not connected
