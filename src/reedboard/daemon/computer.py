"""The computer at the board: it plays its seats of a session through the referee.

When the game's turn is one of the computer's seats and the referee is at rest, the computer
throws its own dice (the session's dice source; the throw shows as pips) or thinks of a move
(reedboard/engine/search.py) *off the event loop*, on a thread of its own, and plays it with
``Session.play(move, "computer", now)``: the move is lit blue and the players carry it out; the
referee confirms it, or guides them back. A move thought for a position that has changed
meanwhile (a takeback, a new game) is dropped and thought again. Outside a running loop (tests
on a virtual clock, replays) it thinks at once.

The daemon calls :meth:`Computer.poll` after every event it hands the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from reedboard.daemon.extension import Extension, Host
from reedboard.daemon.seats import check_level, seats
from reedboard.engine import Move, Position
from reedboard.engine.levels import DEFAULT_LEVEL
from reedboard.engine.search import choose
from reedboard.referee.hints import SEARCH_SWITCH_SECONDS
from reedboard.referee.session import PlayError, Session, SessionState

if TYPE_CHECKING:
    from reedboard.hardware.board_io import BoardEvent

log = logging.getLogger("reedboard.computer")

Think = Callable[[Position[Any, Any], int, random.Random], Move | None]


class Computer:
    """Plays ``sides`` of ``session`` at ``level`` (1-5); ``seed`` makes its choices repeat."""

    def __init__(
        self,
        session: Session,
        sides: frozenset[str],
        level_number: int = DEFAULT_LEVEL,
        *,
        seed: int | None = None,
        think: Think | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.session = session
        self.sides = sides
        self.level = check_level(level_number)
        self.rng = random.Random(seed)
        self._think: Think = think or (lambda p, n, r: choose(p, n, r))
        self._clock = clock
        self._pool: ThreadPoolExecutor | None = None
        self._thinking: str | None = None
        """The position (text) being thought about on the thread."""
        self._ready: tuple[str, Move] | None = None
        """A move thought for a position (text), waiting for the board to come to rest."""
        self._switch = sys.getswitchinterval()
        self.dropped = 0
        """Moves thought for a position that had changed meanwhile (each thought again)."""

    def _key(self) -> str:
        position = self.session.position
        return f"{len(position.move_stack)} {position.to_text()}"

    def to_move(self) -> bool:
        """Whether the game waits on the computer: one of its seats to throw or move."""
        position = self.session.position
        return not position.is_over() and position.turn in self.sides

    def poll(self, now: float) -> None:
        """Act if it is the computer's turn: throw, start thinking, or play a move thought."""
        while self.to_move() and self.session.state is SessionState.PLAYING:
            position = self.session.position
            key = self._key()
            if self._ready is not None and self._ready[0] != key:
                self._ready = None
                self.dropped += 1
            if position.is_chance():
                if not self._throw(now):
                    return
                continue
            if self._ready is None:
                if self._thinking == key:
                    return  # the thread is at it
                if not self._start(position, key, now):
                    return
                continue  # thought at once (no loop): play it
            move = self._ready[1]
            try:
                self.session.play(move, "computer", now)
            except PlayError:
                return  # a hand on the board: played once it is at rest
            self._ready = None
            return  # the players carry it out; the referee says when

    def _throw(self, now: float) -> bool:
        position = self.session.position
        spec = position.dice_spec
        if spec is None:
            return False
        values = self.session.dice.roll(*spec)
        try:
            self.session.play(position.throw(values), "computer", now)
        except PlayError:
            return False
        return True

    def _start(self, position: Position[Any, Any], key: str, now: float) -> bool:
        """Think about ``position``: at once outside a running loop (True: the move is ready),
        else on the thread (False: it is delivered on the loop)."""
        copy = position.copy(stack=False)
        rng = random.Random(self.rng.getrandbits(64))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            move = self._think(copy, self.level, rng)
            if move is None:
                return False
            self._ready = (key, move)
            return True
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SEARCH_SWITCH_SECONDS)  # the loop waits at most ~1 ms
        self._thinking = key
        future = self._pool.submit(self._think, copy, self.level, rng)

        def done(f: Future[Move | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(self._thought, key, f)

        future.add_done_callback(done)
        return False

    def _thought(self, key: str, future: Future[Move | None]) -> None:
        """On the loop: a move thought for the position ``key``."""
        if self._thinking == key:
            self._thinking = None
        if future.cancelled():
            return
        if (exc := future.exception()) is not None:
            log.error("the computer's search failed", exc_info=exc)
            return
        move = future.result()
        if key != self._key():
            self.dropped += 1  # the position changed while it thought: think again
        elif move is not None:
            self._ready = (key, move)
        self.poll(self._now())

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock()
        return asyncio.get_running_loop().time()

    def close(self) -> None:
        """Stop: a search under way is abandoned (its thread ends with it)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            sys.setswitchinterval(self._switch)
        self._thinking = None


class ComputerPlayers(Extension):
    """The daemon's computer players: its seats in the session played as the game goes (after
    each turn of the loop), thought again for a new game's seats."""

    def __init__(self, session: Session, sides: frozenset[str], level_number: int) -> None:
        self.computer: Computer | None = None
        if sides:
            self.computer = Computer(session, sides, level_number, clock=time.monotonic)

    async def start(self, daemon: Host) -> None:
        if self.computer is not None:
            self.computer.poll(time.monotonic())

    def heard(self, event: BoardEvent | None, now: float) -> None:
        if event is None and self.computer is not None:  # once the session's timers ran
            self.computer.poll(now)

    def switched(self, daemon: Host) -> None:
        if self.computer is not None:
            self.computer.close()
            self.computer = None
        config = daemon.config
        with contextlib.suppress(ValueError):  # the configured seats, where the game has them
            if sides := seats(config.game, config.options, config.computer):
                self.computer = Computer(daemon.session, sides, config.level, clock=time.monotonic)

    async def stop(self) -> None:
        if self.computer is not None:
            self.computer.close()
