"""Computer players: one search over the common state API, for every game.

It knows no game. It asks a position for its legal moves, plays them with ``push``/``pop``,
reads ``outcome()``/``returns()`` at the end and ``evaluate(side)`` where it stops, and at a
chance node (``is_chance()``) weighs each throw of ``chance_outcomes()`` by its probability.

- A two-player game without chance (Fox and Geese, McLoughlin's, Skip): alpha-beta (negamax)
  with iterative deepening and a transposition table keyed by the position's text; the best
  move of each finished iteration is searched first in the next.
- Every other game (dice and spinners, three or four players, one player): expectimax over
  max^n values (each seated side's worth; the side to move takes the move best for itself, a
  throw is the probability-weighted mean of its outcomes), deepened iteratively likewise.
  A side's worth at the horizon is its own ``evaluate`` less the mean of the others'; a game
  over is worth ``returns()``, far beyond any rating, a win sooner more than later.

Levels 1-5 (:data:`LEVELS`): 1 plays a random legal move but takes a win in one; 2 looks one
move ahead; 3-5 deepen within a node budget (5 is the strongest, about 0.2 s on the development
machine). Budgets are counted in positions visited, not seconds, so a game replays exactly from
its seed whatever the machine's load: the caller's ``random.Random`` only orders equal moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reedboard.engine.levels import TOP_LEVEL, WIN
from reedboard.engine.position import Move, Position


@dataclass(frozen=True)
class Level:
    """How hard a computer player thinks."""

    number: int
    depth: int
    """The deepest iteration, in moves (throws are not counted); 0 plays at random."""
    nodes: int
    """The budget: positions visited before the search stops deepening."""


LEVELS: dict[int, Level] = {
    1: Level(1, 0, 0),
    2: Level(2, 1, 200),
    3: Level(3, 2, 600),
    4: Level(4, 4, 1_500),
    5: Level(5, 24, 5_000),
}
PROOF_SHARE = 5
"""The top level first lets a game's own proof search (``Position.proved_move``) expand up to
its budget over this many positions (a fifth more work, at most), then searches as usual."""
THROWS_IN_A_ROW = 2
"""Throws in a row (each passing the turn) the search follows before it rates the position."""


class _OutOfBudget(Exception):
    """The node budget ran out in the middle of an iteration."""


def level(number: int) -> Level:
    """The level ``number`` (1-5); ValueError names it otherwise."""
    if number not in LEVELS:
        raise ValueError(f"level {number} is not one of 1-{TOP_LEVEL}")
    return LEVELS[number]


def choose(
    position: Position[Any, Any],
    level_number: int = TOP_LEVEL,
    rng: random.Random | None = None,
    *,
    nodes: int | None = None,
) -> Move | None:
    """The move a computer player at ``level_number`` makes for the side to move, or None when
    the game is over or a throw is awaited (the caller throws). ``position`` is not changed.
    ``nodes`` overrides the level's budget (tests keep it small)."""
    if position.is_over() or position.is_chance():
        return None
    moves: list[Move] = list(position.legal_moves)
    if not moves:
        return None
    rng = rng if rng is not None else random.Random(0)
    rng.shuffle(moves)  # equal moves are told apart by the seed
    lv = level(level_number)
    if len(moves) == 1:
        return moves[0]
    work = position.copy(stack=False)
    if lv.depth == 0:
        return _win_in_one(work, moves) or moves[0]
    budget = lv.nodes if nodes is None else nodes
    if level_number == TOP_LEVEL:  # a game with a solver: what it proves beats any guess
        proved: Move | None = work.proved_move(budget // PROOF_SHARE)
        if proved is not None:
            return proved
    search = _Search(work, budget)
    return search.best(moves, lv.depth)


def _win_in_one(work: Position[Any, Any], moves: Sequence[Move]) -> Move | None:
    me = work.turn
    for move in moves:
        work.push(move)
        won = work.outcome() is not None and work.returns().get(me, 0.0) > 0
        work.pop()
        if won:
            return move
    return None


class _Search:
    def __init__(self, work: Position[Any, Any], budget: int) -> None:
        self.work = work
        self.budget = budget
        self.visited = 0
        self.limited = True
        self.players = tuple(work.players)
        self.alphabeta = work.dice_spec is None and len(self.players) == 2
        self.table: dict[str, tuple[int, float, int, Move | None]] = {}

    def best(self, moves: list[Move], max_depth: int) -> Move:
        """Iterative deepening: the best move of the deepest iteration finished in budget (the
        first always finishes)."""
        best = moves[0]
        for depth in range(1, max_depth + 1):
            self.cut = False
            try:
                move, value = self._root(moves, depth)
            except _OutOfBudget:
                break
            best = move
            moves = [move] + [m for m in moves if m != move]
            self.limited = True
            if abs(value) >= WIN / 2 or not self.cut:
                break  # a win or loss is proved, or the whole game tree was seen
        return best

    def _tick(self) -> None:
        self.visited += 1
        if self.limited and self.visited > self.budget:
            raise _OutOfBudget

    def _root(self, moves: list[Move], depth: int) -> tuple[Move, float]:
        work = self.work
        me = work.turn
        if depth == 1:
            self.limited = False  # the first iteration always finishes
        best, best_value = moves[0], float("-inf")
        for move in moves:
            work.push(move)
            try:
                if self.alphabeta:
                    value = -self._negamax(depth - 1, float("-inf"), -best_value, 1)
                else:
                    value = self._maxn(depth - 1, 1)[self.players.index(me)]
            finally:
                work.pop()
            if value > best_value:
                best, best_value = move, value
        return best, best_value

    # -- two players, no chance --------------------------------------------------------------

    def _negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        work = self.work
        self._tick()
        if work.outcome() is not None:
            return work.returns().get(work.turn, 0.0) * (WIN - ply)
        if depth <= 0:
            self.cut = True
            me = work.turn
            other = self.players[1 - self.players.index(me)]
            return work.evaluate(me) - work.evaluate(other)
        key = work.to_text()
        entry = self.table.get(key)
        first: Move | None = None
        if entry is not None:
            d, value, flag, first = entry
            usable = flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha)
            if d >= depth and usable and (flag != 0 or abs(value) < WIN / 2):
                return value
        moves = list(work.legal_moves)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        start_alpha = alpha
        best_value, best_move = float("-inf"), None
        for move in moves:
            work.push(move)
            try:
                value = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                work.pop()
            if value > best_value:
                best_value, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = 1 if best_value >= beta else (-1 if best_value <= start_alpha else 0)
        self.table[key] = (depth, best_value, flag, best_move)
        return best_value

    # -- chance, or more or fewer than two players -------------------------------------------

    def _maxn(self, depth: int, ply: int, throws: int = 0) -> list[float]:
        """``throws``: chance nodes in a row just before this one (a throw that passes the
        turn leads to another): after :data:`THROWS_IN_A_ROW` the search stops there."""
        work = self.work
        self._tick()
        players = self.players
        if work.outcome() is not None:
            returns = work.returns()
            return [returns.get(p, 0.0) * (WIN - ply) for p in players]
        if depth <= 0 or throws >= THROWS_IN_A_ROW:
            self.cut = True
            return self._rate()
        if work.is_chance():
            total = [0.0] * len(players)
            for throw, p in work.chance_outcomes():
                work.push(throw)
                try:
                    values = self._maxn(depth, ply, throws + 1)
                finally:
                    work.pop()
                for i, v in enumerate(values):
                    total[i] += p * v
            return total
        moves = list(work.legal_moves)
        if not moves:
            return self._rate()
        mover = players.index(work.turn) if work.turn in players else 0
        best: list[float] | None = None
        for move in moves:
            work.push(move)
            try:
                values = self._maxn(depth - 1, ply + 1)
            finally:
                work.pop()
            if best is None or values[mover] > best[mover]:
                best = values
        assert best is not None
        return best

    def _rate(self) -> list[float]:
        """Each seated side's worth at the horizon: its rating less the mean of the others'."""
        work = self.work
        own = [work.evaluate(p) for p in self.players]
        if len(own) == 1:
            return own
        total = sum(own)
        n = len(own) - 1
        return [v - (total - v) / n for v in own]
