"""The daemon's LEDs in real time on the simulated board: the compositor runs on the daemon's
loop, so the game-over sweep crosses the board with nobody waking the game for it, and the
console's drawing shows the sweep where it is."""

from __future__ import annotations

import asyncio
from pathlib import Path

from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.hardware.led_chain import SWEEP_SECONDS
from reedboard.hardware.lights import WHITE
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.store.games import GameStore

TWO_PEGS = "oo" + "." * 31 + " -"


def test_the_game_over_sweep_crosses_every_column_in_the_running_daemon(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    store.new_game("solitaire", {}, TWO_PEGS)  # an unfinished game, one jump from its end
    store.close()
    said: list[str] = []
    daemon = Daemon(Config(game="solitaire", database=db), out=said.append)
    board = daemon.board
    assert isinstance(board, SimulatedBoard)
    layout = daemon.layout

    async def scenario() -> tuple[list[list[int]], str]:
        task = asyncio.create_task(daemon.run())
        async with asyncio.timeout(5):
            while not any(s.startswith("resumed:") for s in said):
                await asyncio.sleep(0.01)
            board.lift("1")
            board.lift("2")
            board.place("3")
            while not any(s.startswith("game-over:") for s in said):
                await asyncio.sleep(0.005)
        seen: list[list[int]] = []
        drawing = ""
        for _ in range(int((SWEEP_SECONDS + 0.5) / 0.01)):
            chain = board.chain()
            lit = sorted({p.x for p in layout.points.values() if chain[p.led] == WHITE})
            if not seen or lit != seen[-1]:
                seen.append(lit)
            if lit == [3]:
                drawing = daemon.show()
            await asyncio.sleep(0.01)
        daemon.stop.set()
        await asyncio.wait_for(task, 5)
        return seen, drawing

    seen, drawing = asyncio.run(scenario())
    assert seen == [[x] for x in range(layout.size[0])] + [[]]
    rows = [line for line in drawing.splitlines() if line.strip()]
    marked = {row.index("*") for row in rows if "*" in row}  # steady white: one column
    assert len(marked) == 1 and sum(row.count("*") for row in rows) == 7  # the middle column
