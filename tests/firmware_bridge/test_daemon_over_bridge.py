"""The whole stack over the bridge: the daemon with a Pico build, the firmware on MicroPython
behind a pty, moves made on the simulated matrix; the port is closed and reopened mid-game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import engine
from controller.config import Config
from controller.daemon import Daemon
from firmware_bridge.simulator import SimulatedPico as Firmware
from tests.engine.test_solitaire import SEED_KEY
from wiring.build import load_build
from wiring.layout import load_layout

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
