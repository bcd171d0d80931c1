"""The simulated board as a virtual board: a hand that moves its pieces for the players.

- A piece dragged on the web page (:meth:`VirtualBoard.pick`, then :meth:`VirtualBoard.drop`)
  is the whole move: the legal move it means is laid out as a careful hand makes it, captures,
  jumped pieces and entries included (``reedboard/sim/virtual_hand.py``), one switch change
  at a time, :data:`PACE` apart, so the referee reads every change and commits the move by
  itself. Where the board cannot tell the move from another that leaves the same switches, the
  hand answers the board's question as a player does (`hint` until the move is lit, then
  `confirm`). Where no legal move goes there, the piece is lifted and set down as a hand
  would (a mistake, guided back like any other).
- A move from elsewhere (the computer's, the other board's), lit to be carried out, is carried
  out by the same hand.
- `new` and `undo` put the pieces where the game now stands (the start; the position taken
  back to). `undo` straight after `new`, before a piece has moved, resumes the game `new` left
  (it is reopened in the store: nothing of it is lost).

A real board has none of this: its players move its pieces and carry out what is lit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any

from reedboard.daemon.extension import Extension, Host
from reedboard.engine import Move
from reedboard.errors import ControllerError
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.events import (
    GameEvent,
    MoveCommitted,
    MoveShown,
    NewGame,
    Notice,
    Takeback,
)
from reedboard.referee.session import Session, SessionState
from reedboard.sim.virtual_hand import (
    Reach,
    Switch,
    answer,
    choose,
    counts_now,
    plain,
    reaches,
    switches,
    whole,
)

log = logging.getLogger("reedboard")

PACE = 0.1
"""Seconds between two switch changes of the hand (longer than the referee's settle time, so
it reads each one)."""
PAUSE = 0.25
"""Seconds between a piece set down and the next one lifted (a chain's next jump)."""
ASK_WAIT = 1.0
"""Seconds past the settle and grace times the hand waits for the board to ask which move it
made (then the move is taken, or taken after the hold time, by itself)."""


class VirtualBoard(Extension):
    """The hand of the simulated board (nothing on a real one)."""

    def __init__(self, pace: float = PACE) -> None:
        self.pace = pace
        self.carries_out = True
        """The hand does for the players what they would do: carries out the moves lit for
        them (the computer's, the other board's) and sets the pieces out after `new`, `undo`
        or a takeback. A test whose own hands do that turns it off."""
        self.daemon: Host | None = None
        self._session: Session | None = None
        self._task: asyncio.Task[None] | None = None
        self._passing = False
        """`new` pressed again by the hand: the session is to hear it."""
        self._leaving: int | None = None
        """The store's number of the game a `new` just pressed may leave unfinished."""
        self.left: int | None = None
        """The store's number of the game the last `new` left unfinished: `undo`, before a
        piece moves in the new game, resumes it."""
        self.said: list[str] = []
        """What the hand said (a choice it made), newest last."""

    # -- the daemon's hooks ----------------------------------------------------------------------

    async def open(self, daemon: Host) -> None:
        self.daemon = daemon
        self._follow(daemon.session)

    def switched(self, daemon: Host) -> None:
        self.daemon = daemon
        self.left = None
        self._cancel()
        self._follow(daemon.session)

    async def stop(self) -> None:
        self._cancel()
        self._follow(None)

    def button(self, button: str) -> bool:
        daemon, session = self.daemon, self._session
        if daemon is None or session is None:
            return False
        if button == "new":
            if self._passing:  # (pressed again by the hand once the pieces are set out)
                self._passing = False
                return False
            recorder = session.recorder
            unfinished = session.position.outcome() is None
            self._leaving = recorder.game_id if recorder is not None and unfinished else None
            return self._set_out_first(session)
        if button == "undo" and self.left is not None and self._undoes_new(session):
            left, self.left = self.left, None
            try:
                asyncio.get_running_loop().call_soon(self._resume, left)
            except RuntimeError:  # (no loop: at once)
                self._resume(left)
            return True
        return False

    def _set_out_first(self, session: Session) -> bool:
        """`new` on the simulated board: the pieces are set out for the start first, then
        `new` is pressed again (True: this press is taken), as a player sets the board up
        before pressing it; the board the game left would otherwise be read against the new
        game (a board one move from the start is that move)."""
        board = self.board
        if board is None or not self.carries_out:
            return False
        self._cancel()
        want = session.cls.start(**session.options).occupied()
        if board.snapshot() == want:
            return False
        self._set(board, want)
        self._passing = True
        board.press("new")
        return True

    def _undoes_new(self, session: Session) -> bool:
        """`undo` now resumes the game `new` left: no piece has moved since, and no remote
        match decides takebacks."""
        moved = any(m.points() for m in session.position.move_stack)
        return not moved and getattr(self.daemon, "remote", None) is None

    # -- following the session --------------------------------------------------------------

    def _follow(self, session: Session | None) -> None:
        if self._session is not None:
            self._session.events.unsubscribe(self._event)
        self._session = session
        if session is not None:
            session.events.subscribe(self._event)

    @property
    def board(self) -> SimulatedBoard | None:
        """The simulated board, or None on a real one."""
        board = self.daemon.board if self.daemon is not None else None
        return board if isinstance(board, SimulatedBoard) else None

    @property
    def busy(self) -> bool:
        """The hand is moving pieces."""
        return self._task is not None and not self._task.done()

    def _event(self, event: GameEvent) -> None:
        if isinstance(event, NewGame):
            if event.abandons and self._leaving is not None:
                self.left = self._leaving
            self._leaving = None
        elif isinstance(event, MoveCommitted) and event.move.points():
            self.left = None  # (a piece moved in the new game: undo takes that back)
        if self.board is None or not self.carries_out:
            return
        if isinstance(event, NewGame | Takeback):
            self._cancel()  # (a move being carried out is gone with its game or ply)
            with contextlib.suppress(RuntimeError):  # (no loop: nothing to set right)
                asyncio.get_running_loop().call_soon(self._set_right, self._session)
        elif isinstance(event, MoveShown):
            self._carry_out(event.move)

    def _set_right(self, session: Session | None) -> None:
        """Put the pieces where the game stands (after `new`, `undo`, a takeback agreed with
        the other board)."""
        board = self.board
        if board is None or session is None or session is not self._session:
            return
        self._set(board, session.position.occupied())

    @staticmethod
    def _set(board: SimulatedBoard, want: frozenset[str]) -> None:
        """Every switch that differs from ``want`` changed at once, as a board set up anew."""
        have = board.snapshot()
        for point in sorted(have - want):
            board.lift(point)
        for point in sorted(want - have):
            board.place(point)

    def _resume(self, game_id: int) -> None:
        """Resume the stored game ``game_id`` (the one `new` left): reopened in the store,
        then played again from where it stood, its pieces set out."""
        daemon, session = self.daemon, self._session
        if daemon is None or session is None:
            return
        store = session.store
        if store is None:
            return
        try:
            store.reopen(game_id)
            daemon.switch_game(session.game_id, dict(session.options))
        except (ControllerError, ValueError) as exc:
            daemon.out(f"undo: cannot resume the game new left: {exc}")

    # -- the hand ------------------------------------------------------------------------------

    def _carry_out(self, move: Move) -> None:
        """Carry out ``move``, lit for the players (just committed)."""
        session = self._session
        if session is None:
            return
        before = session.position.copy()
        if not before.move_stack or before.move_stack[-1] != move:
            return
        before.pop()
        reach = whole(before, move)
        self._start(self._play(switches(reach), session, None))

    def pick(self, point: str) -> str | None:
        """A piece picked up on ``point`` (its landings light): a point holding several
        pieces (a nest) keeps its other pieces, so its switch stays closed. A refusal's text,
        or None."""
        board, session = self.board, self._session
        if board is None or session is None:
            return "pieces are moved on the board itself (this is a real board)"
        board.check_point(point)
        if self.busy:
            return "the board is making a move: wait until it is done"
        have = board.snapshot()
        if point not in have:
            return f"there is no piece on {point} to pick up"
        if counts_now(session.position, have).get(point, 1) <= 1:
            board.lift(point)
        return None

    def drop(self, start: str, to: str | None, path: Iterable[str] = ()) -> str | None:
        """The piece picked up on ``start`` let go: back on ``start`` it is put back, off the
        board (``to`` None) it stays off, elsewhere the move it means is made (see the
        module). A refusal's text, or None."""
        board, session = self.board, self._session
        if board is None or session is None:
            return "pieces are moved on the board itself (this is a real board)"
        board.check_point(start)
        if to is None:
            return None
        board.check_point(to)
        if self.busy:
            return "the board is making a move: wait until it is done"
        have = board.snapshot()
        position = session.position
        if to == start:
            if start not in have:
                board.place(start)
            return None
        reach, said = choose(reaches(position, have, start, to), path)
        if said:
            self.said.append(said)
            session.events.publish(Notice(time.monotonic(), "drag", said))
        if reach is not None:
            self._start(self._play(switches(reach), session, reach))
            return None
        counts = counts_now(position, have)
        if start not in have and to in have:
            return f"{to} already has a piece on it (the piece from {start} is off the board)"
        if to in have and start in have:
            return f"{to} already has a piece on it"
        self._start(self._play([plain(have, counts, start, to)], session, None))
        return None

    def _start(self, coroutine: Any) -> None:
        """Play on the loop (outside one, as in a test that drives the session by hand,
        nothing is played)."""
        self._cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coroutine.close()
            return
        self._task = loop.create_task(coroutine)

    def _cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def _play(
        self, groups: Sequence[Sequence[Switch]], session: Session, reach: Reach | None
    ) -> None:
        """The switch changes, in time; then, for a move made whole, the board's question
        answered if it asks one."""
        board = self.board
        if board is None:
            return
        ply = len(session.position.move_stack)
        before = session.position.copy()
        for n, group in enumerate(groups):
            if n:
                await asyncio.sleep(PAUSE)
            for point, on in group:
                await asyncio.sleep(self.pace)
                (board.place if on else board.lift)(point)
        if reach is None or not reach.completes:
            return
        left = board.snapshot()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + session.settle + session.grace + ASK_WAIT
        while loop.time() < deadline and board.snapshot() == left:
            if len(session.position.move_stack) > ply:
                return  # taken
            if session.state is SessionState.ASKING:
                for button in answer(before, reach.move):
                    await asyncio.sleep(self.pace)
                    board.press(button)
                return
            await asyncio.sleep(0.02)
