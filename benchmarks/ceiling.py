"""The most any player could win against a random player, in each game with dice or a spinner.

    .venv/bin/python benchmarks/ceiling.py [--games N] [--game ID]... [--max-plies P]

The strength benchmark asks the top level to beat a random player in 95 % of games "where the
game allows a win". In a race decided by the dice that may be more than any player can do; this
measures how much more, with a bound no player can pass.

A *clairvoyant* player is told, before the game, every throw to come and every choice its
random opponents will make (the n-th random event of the game, a throw or a random player's
pick, always comes from the n-th number of the game's stream, whatever happened before it). It
wins a game if ANY sequence of its own moves wins it: a depth-first search over its moves with
a table of the positions it has seen (keyed by the position's text, the number of random events
so far and the ply). Every real player is a clairvoyant one that ignores what it is told, and
each event of the stream is a fair, fresh throw or pick whatever path the game took, so the
clairvoyant's win rate is an upper bound on every player's win rate against random play.
A game the search cannot settle within ``--nodes`` positions counts as a win (the bound stays
a bound); the table shows how many there were.

It prints, per game and seat, the clairvoyant's wins with their 95 % Wilson interval: where
even the interval's top is below 95 %, no player can reach the issue's bar there.

Where a game is small enough to be solved whole (``--exact``, default two-player Fox and
Rabbit: reedboard/engine/dice_solver.py), it also prints the exact answer: the chance of winning of
the
best player there is against a random one (a minute or two a seat).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from strength import wilson  # benchmarks/, the script's own folder

from reedboard import engine
from reedboard.engine import Position, dice_solver
from reedboard.engine.search import choose

GAMES = tuple(
    g for g in engine.game_ids() if engine.game(g).sensed and engine.start(g).dice_spec is not None
)
"""Every dice game, from the registry (the bound is about luck)."""


class Stream:
    """The game's random numbers, the n-th always the same for a seed, drawn as needed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._drawn: list[float] = []

    def __getitem__(self, n: int) -> float:
        while len(self._drawn) <= n:
            self._drawn.append(self._rng.random())
        return self._drawn[n]


class _Unsettled(Exception):
    """The node budget ran out."""


class Clairvoyant:
    """One game's search: does some sequence of ``side``'s moves win against this stream?"""

    def __init__(self, game: str, side: str, seed: int, max_plies: int, nodes: int) -> None:
        self.stream = Stream(seed)
        self.side = side
        self.max_plies = max_plies
        self.nodes = nodes
        self.visited = 0
        self.seen: dict[tuple[str, int, int], bool] = {}
        self.position: Position[Any, Any] = engine.start(game)

    def wins(self) -> bool | None:
        """True: some line wins; False: none does; None: not settled within the budget."""
        try:
            return self._search(0, 0)
        except _Unsettled:
            return None

    def _search(self, event: int, ply: int) -> bool:
        position = self.position
        over = position.outcome()
        if over is not None:
            return over.winner == self.side
        if ply >= self.max_plies:
            return False  # a draw is no win
        key = (position.to_text(), event, ply)
        known = self.seen.get(key)
        if known is not None:
            return known
        self.visited += 1
        if self.visited > self.nodes:
            raise _Unsettled
        if position.is_chance():
            throws, weights = zip(*position.chance_outcomes(), strict=True)
            result = self._after(_pick(throws, weights, self.stream[event]), event + 1, ply)
        else:
            moves = list(position.legal_moves)
            if position.turn != self.side:
                pick = moves[min(len(moves) - 1, int(self.stream[event] * len(moves)))]
                result = self._after(pick, event + 1, ply + 1)
            else:
                result = any(self._after(move, event, ply + 1) for move in moves)
        self.seen[key] = result
        return result

    def _after(self, move: Any, event: int, ply: int) -> bool:
        self.position.push(move)
        try:
            return self._search(event, ply)
        finally:
            self.position.pop()


def played(game: str, side: str, seed: int, max_plies: int, level: int) -> bool:
    """Does a real player (``level``, reedboard/engine/search.py) win against the same stream?
    Whenever
    it does, the clairvoyant must too: the check that the bound is one."""
    us = Stream(seed)
    position = engine.start(game)
    event = ply = 0
    while position.outcome() is None and ply < max_plies:
        if position.is_chance():
            throws, weights = zip(*position.chance_outcomes(), strict=True)
            position.push(_pick(throws, weights, us[event]))
            event += 1
            continue
        moves = list(position.legal_moves)
        if position.turn == side:
            move = choose(position, level, random.Random(ply))
        else:
            move = moves[min(len(moves) - 1, int(us[event] * len(moves)))]
            event += 1
        position.push(move)
        ply += 1
    over = position.outcome()
    return over is not None and over.winner == side


def _pick(throws: tuple[Any, ...], weights: tuple[float, ...], u: float) -> Any:
    total = sum(weights)
    acc = 0.0
    for throw, weight in zip(throws, weights, strict=True):
        acc += weight / total
        if u < acc:
            return throw
    return throws[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000, help="games a seat (default 1000)")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument(
        "--max-plies", type=int, default=400, help="a game longer in moves (not throws) is a draw"
    )
    ap.add_argument("--nodes", type=int, default=200_000, help="positions a game, at most")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--check",
        type=int,
        metavar="LEVEL",
        help="also play this level on the same streams: it must never win where the bound loses",
    )
    ap.add_argument(
        "--exact",
        action="append",
        choices=["fox-and-rabbit"],
        help="solve this game whole for the exact best against random (default fox-and-rabbit)",
    )
    args = ap.parse_args(argv)
    exact = set(args.exact or ["fox-and-rabbit"])
    sys.setrecursionlimit(max(10_000, 4 * args.max_plies + 100))
    extra = f" level {args.check} wins |" if args.check else ""
    print(
        "| game | side | n | clairvoyant wins | unsettled | win rate | 95 % interval"
        " | exact best |" + extra
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if args.check else ""))
    started = time.perf_counter()
    for game in args.game or list(GAMES):
        for side in engine.start(game).players:
            wins = unsettled = checked = 0
            for g in range(args.games):
                seed = args.seed * 1_000_003 + g
                got = Clairvoyant(game, side, seed, args.max_plies, args.nodes).wins()
                unsettled += got is None
                wins += got is not False
                if args.check and played(game, side, seed, args.max_plies, args.check):
                    checked += 1
                    if got is False:
                        sys.exit(
                            f"ceiling.py: level {args.check} won {game} seed {seed} as {side}"
                            " where the clairvoyant found no win: the bound is wrong"
                        )
            low, high = wilson(wins, args.games)
            best = "-"
            if game in exact:
                graph = dice_solver.explore(engine.start(game), side)
                best = f"{100 * dice_solver.solve(graph, opponent='random')[0]:.2f} %"
            print(
                f"| {game} | {side} | {args.games} | {wins} | {unsettled}"
                f" | {100 * wins / args.games:.1f} % | {100 * low:.1f}-{100 * high:.1f} %"
                f" | {best} |" + (f" {checked} |" if args.check else ""),
                flush=True,
            )
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
