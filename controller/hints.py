"""Suggested moves for the `hint` button and `reedboard hint`: small, honest searches.

- Solitaire: a depth-first search for a full solution within a node budget (failed positions
  remembered); without one in budget, the jump that leaves the most jumps open.
- Fox and Geese: a two-ply search on material and the foxes' freedom to move.
- Fox and Rabbit: a rabbit goes home when it can, else to the circle the foxes are least
  likely to reach with their next throw; a fox takes a rabbit when it can, else closes in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import product
from typing import Any

from engine import Move, Position
from engine.brier9 import BRIER_PATCH, HOMES, xy
from engine.fox_and_rabbit import FOXES, RABBITS, right_angle_landings

log = logging.getLogger("reedboard.hints")

SOLITAIRE_BUDGET = 20_000
SEARCH_SWITCH_SECONDS = 0.0005
"""While a hint is searched on a thread, Python hands the GIL between threads this often (its
default is 5 ms): the loop waits at most about a millisecond for it."""

Deliver = Callable[[Move | None, float], None]
"""Takes a hint (or None) and the time it came."""
Hinter = Callable[[Position[Any, Any], float, Deliver], None]
"""Searches a hint for a position (the caller's own copy) asked at a time, and delivers it."""


def hint_now(position: Position[Any, Any], now: float, deliver: Deliver) -> None:
    """The search done at once (replays, the demo, tests on a virtual clock)."""
    deliver(suggest(position), now)


class HintWorker:
    """The search in a worker thread, so the daemon's loop goes on reading the board (a
    solitaire hint takes about a third of a second); the hint is delivered on the loop. A
    position already being searched is not searched twice. Outside a running loop the search
    is done at once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._pool: ThreadPoolExecutor | None = None
        self._searching: set[str] = set()
        self._switch = sys.getswitchinterval()

    def __call__(self, position: Position[Any, Any], now: float, deliver: Deliver) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            hint_now(position, now, deliver)
            return
        key = position.to_text()
        if key in self._searching:
            return  # the search under way delivers its hint
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint")
        if not self._searching:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SEARCH_SWITCH_SECONDS)
        self._searching.add(key)
        future = self._pool.submit(suggest, position)

        def done(f: Future[Move | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(self._done, key, f, deliver)

        future.add_done_callback(done)

    def _done(self, key: str, future: Future[Move | None], deliver: Deliver) -> None:
        self._searching.discard(key)
        if not self._searching:
            sys.setswitchinterval(self._switch)
        if future.cancelled():
            return
        if (exc := future.exception()) is not None:
            log.error("the hint search failed", exc_info=exc)
            return
        deliver(future.result(), self._clock())

    def close(self) -> None:
        """Stop: a search under way is abandoned (its thread ends with it)."""
        if self._searching:
            self._searching.clear()
            sys.setswitchinterval(self._switch)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def suggest(position: Position[Any, Any]) -> Move | None:
    """The suggested move for the side to move, or None (game over, or a throw is awaited)."""
    if position.is_over() or position.is_chance():
        return None
    moves = list(position.legal_moves)
    if not moves:
        return None
    game = position.game_id
    if game == "solitaire":
        return _solitaire(position) or moves[0]
    if game.startswith("fox-and-geese"):
        return _fox_and_geese(position)
    if game.startswith("fox-and-rabbit"):
        return _fox_and_rabbit(position)
    return _greedy(position, moves)


def _greedy(position: Position[Any, Any], moves: list[Move]) -> Move:
    """Race and capture games: the move that leaves the opponents the fewest pieces on the
    board, then the one that goes furthest (``home``, ``43`` and higher numbers)."""
    before = position.copy(stack=False)

    def key(move: Move) -> tuple[int, int, int]:
        after = before.copy(stack=False)
        after.push(move)
        over = after.outcome()
        won = 1 if over is not None and over.winner == position.turn else 0
        text = str(move)
        words = text.split()
        if words and words[0] == "return":
            won = 1
        points = move.points()
        reach = 0
        if points:
            end = points[-1]
            reach = (
                100
                if end in ("home", "43")
                else int("".join(ch for ch in end if ch.isdigit()) or 0)
            )
        taken = len(before.occupied()) - len(after.occupied())
        return (won, taken, reach)

    return max(moves, key=key)


def _solitaire(position: Position[Any, Any]) -> Move | None:
    work = position.copy(stack=False)
    dead: set[str] = set()
    budget = [SOLITAIRE_BUDGET]

    def solve() -> bool:
        over = work.outcome()
        if over is not None:
            return over.winner is not None
        key = work.to_text()
        if key in dead or budget[0] <= 0:
            return False
        budget[0] -= 1
        for move in list(work.legal_moves):
            work.push(move)
            found = solve()
            work.pop()
            if found:
                path.append(move)
                return True
        dead.add(key)
        return False

    path: list[Move] = []
    if solve() and path:
        return path[-1]

    def mobility(move: Move) -> int:
        work.push(move)
        n = work.legal_moves.count()
        work.pop()
        return n

    return max(work.legal_moves, key=mobility, default=None)


def _fox_and_geese(position: Position[Any, Any]) -> Move:
    work = position.copy(stack=False)
    me = work.turn

    def score() -> float:
        over = work.outcome()
        if over is not None:
            return 1000.0 if over.winner == me else -1000.0
        fox = 10.0 * (24 - work.count("G")) + work.fox_mobility()  # type: ignore[attr-defined]
        return fox if me == "fox" else -fox

    best, best_score = None, float("-inf")
    for move in list(work.legal_moves):
        work.push(move)
        replies = list(work.legal_moves)
        if not replies:
            value = score()
        else:
            value = float("inf")
            for reply in replies:
                work.push(reply)
                value = min(value, score())
                work.pop()
        work.pop()
        if value > best_score:
            best, best_score = move, value
    assert best is not None
    return best


def _fox_and_rabbit(position: Position[Any, Any]) -> Move:
    moves = list(position.legal_moves)
    piece = position.turn
    at: dict[str, str | None] = position.at  # type: ignore[attr-defined]
    if piece in RABBITS:
        home = HOMES[piece]
        for move in moves:
            if move.points()[-1] == home:
                return move
        foxes = [c for f, c in at.items() if f in FOXES and c is not None]

        def risk(circle: str) -> float:
            if circle in BRIER_PATCH:
                return 0.0
            hits = sum(
                1
                for fox in foxes
                for a, b in product(range(1, 7), repeat=2)
                if circle in right_angle_landings(fox, (a, b))
            )
            return hits / 36

        def rabbit_key(move: Move) -> tuple[float, int]:
            to = move.points()[-1]
            (x, y), (hx, hy) = xy(to), xy(home)
            return (risk(to), abs(x - hx) + abs(y - hy))

        return min(moves, key=rabbit_key)
    rabbits = [c for r, c in at.items() if r in RABBITS and c is not None]

    def fox_key(move: Move) -> tuple[int, int]:
        to = move.points()[-1]
        if to in rabbits:
            return (0, 0)
        x, y = xy(to)
        near = min((abs(x - xy(r)[0]) + abs(y - xy(r)[1]) for r in rabbits), default=0)
        return (1, near)

    return min(moves, key=fox_key)
