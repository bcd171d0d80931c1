"""Suggested moves for the `hint` button and `reedboard hint`: small, honest searches.

The searches know no game: each game rates positions itself (:meth:`~engine.Position.evaluate`
and :meth:`~engine.Position.returns`) and says how far to look (``search_depth``).

- A game with its solved table open (the engine's ``solved_table`` hook, kept by
  reedboard/referee/solved.py; Peg Solitaire's winning set): a move after which the game can
  still be won, or none when it is lost: a proof, looked up in well under a millisecond.
- A one-player game (Peg Solitaire without that set: numpy missing, diagonal jumps, the set not
  open yet): a depth-first search for a won line within a node budget (failed positions
  remembered); without one in budget, the move the game rates best (the jump that leaves the
  most jumps open).
- Every other game (and a one-player game at a level below the top): the computer player's
  search (reedboard/engine/search.py) at the level asked, the top by default: the move the computer
  would
  play there.
- :func:`heuristic`: the hint as it was before the computer players, kept for
  benchmarks/strength.py to measure them against: the move whose position the game rates best
  for the mover, ``search_depth`` plies ahead, each side choosing its best; a throw ends the
  look-ahead.
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

from reedboard.engine import Move, Position
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.search import choose

if TYPE_CHECKING:
    from reedboard.engine.solved import Solution

log = logging.getLogger("reedboard.hints")

PUZZLE_BUDGET = 20_000
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
    puzzle's hint may take a third of a second); the hint is delivered on the loop. A
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


def suggest(
    position: Position[Any, Any],
    winning: Solution | None = None,
    level: int = TOP_LEVEL,
    rng: random.Random | None = None,
) -> Move | None:
    """The suggested move for the side to move, or None (game over, or a throw is awaited).

    ``winning``: the game's solved table, when open (Solitaire's winning set for the game's
    finish): the hint is then a move that keeps the game winnable, and None when the game is
    lost. Otherwise the computer
    player's move at ``level`` (1-5; ``rng`` orders equal moves, seed 0 by default); at the top
    level a one-player game searches for a won line first."""
    if position.is_over() or position.is_chance():
        return None
    moves = list(position.legal_moves)
    if not moves:
        return None
    if winning is not None and winning.answers(position):
        hint: Move | None = winning.hint(position)
        return hint
    if len(position.players) == 1 and level == TOP_LEVEL:
        return _puzzle(position) or moves[0]
    return choose(position, level, rng if rng is not None else random.Random(0))


WIN = 1e9
"""A won or lost game's worth, beyond any :meth:`~engine.Position.evaluate`."""


def _value(work: Position[Any, Any], me: str, depth: int) -> float:
    """The position's worth for ``me``: the game's returns once over, else its evaluation
    after ``depth`` more plies (each side choosing its best; a throw ends the look-ahead)."""
    if work.outcome() is not None:
        return WIN * work.returns().get(me, 0.0)
    if depth <= 0 or work.is_chance():
        return work.evaluate(me)
    moves = list(work.legal_moves)
    if not moves:
        return work.evaluate(me)
    values = []
    for move in moves:
        work.push(move)
        values.append(_value(work, me, depth - 1))
        work.pop()
    return max(values) if work.turn == me else min(values)


def heuristic(position: Position[Any, Any]) -> Move | None:
    """The hint before the computer players (benchmarks/strength.py's yardstick): the move
    whose position is worth most to the side to move, looking
    :attr:`~engine.Position.search_depth` plies ahead (the first of equals); None when the game
    is over or a throw is awaited."""
    if position.is_over() or position.is_chance():
        return None
    moves: list[Move] = list(position.legal_moves)
    if not moves:
        return None
    work = position.copy(stack=False)
    me = work.turn
    best: Move = moves[0]
    best_value = float("-inf")
    for move in moves:
        work.push(move)
        value = _value(work, me, work.search_depth - 1)
        work.pop()
        if value > best_value:
            best, best_value = move, value
    return best


def _puzzle(position: Position[Any, Any]) -> Move | None:
    """A one-player game: the first move of a won line found within the node budget (failed
    positions remembered); else the move the game rates best (Solitaire: the jump that leaves
    the most jumps open)."""
    work = position.copy(stack=False)
    me = work.turn
    dead: set[str] = set()
    budget = [PUZZLE_BUDGET]

    def solve() -> bool:
        if work.outcome() is not None:
            return work.returns().get(me, 0.0) > 0
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

    def rating(move: Move) -> float:
        work.push(move)
        value = work.evaluate(me)
        work.pop()
        return value

    return max(work.legal_moves, key=rating, default=None)
