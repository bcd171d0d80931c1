"""A game's solved table (the engine's ``solved_table`` hook; Peg Solitaire's winning set) as a
daemon extension: opened from the cache, or built in a process of its own, while the game goes
on; hints are then proofs and each move's verdict is shown (nothing happens for a game without
one)."""

from __future__ import annotations

import asyncio
import logging

from reedboard.daemon.extension import Background, Host

log = logging.getLogger(__name__)


class SolvedTableExtension(Background):
    async def start(self, daemon: Host) -> None:
        self.task = asyncio.ensure_future(self._open(daemon))

    def switched(self, daemon: Host) -> None:
        """Another game picked (the web view): its table too, however it was started."""
        if self.task is not None:
            self.task.cancel()
        self.task = asyncio.ensure_future(self._open(daemon))

    async def _open(self, daemon: Host) -> None:
        from reedboard.referee import solved

        def say(text: str) -> None:
            log.info("solver: %s", text)
            daemon.out(f"solver: {text}")

        position = daemon.session.position
        table = solved.table_of(position)
        if table is None:
            return
        try:
            winning = await solved.prepare(position, say)
        except Exception as exc:  # the game goes on with the bounded search
            log.warning("solver: the %s is not available: %s", table.name, exc)
            return
        if winning is not None:
            daemon.session.solved.winning = winning
            say(f"{winning.table} open: hints are proofs")
