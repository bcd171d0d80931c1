"""McLoughlin's Fox and Geese: the top level's geese, playing the shipped winning strategy,
against random foxes and against the top level's fox. Every game is played to its end by the
engine's rules; a geese loss is printed with its moves.

    .venv/bin/python benchmarks/mcloughlin_strategy.py [--games 200] [--jobs 2] [--seed 0]

Each row: the games, the geese's wins, the share of the geese's moves the strategy gave (the
rest: the proof search or the search, which the strategy leaves nothing to do), the mean and
longest game in plies, the seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from reedboard import engine
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.search import choose

GAME = "fox-and-geese-mcloughlin"


def play(fox: str, seed: int) -> tuple[str, int, int, int, str]:
    """One game: the winner, its plies, the geese's moves, those from the strategy, the moves."""
    rng = random.Random(seed)
    position = engine.start(GAME)
    geese_moves = from_strategy = 0
    while not position.is_over():
        if position.turn == "fox":
            if fox == "random":
                move = rng.choice(list(position.legal_moves))
            else:
                move = choose(position, TOP_LEVEL, rng)
        else:
            geese_moves += 1
            from_strategy += position.strategy_move() is not None  # type: ignore[attr-defined]
            move = choose(position, TOP_LEVEL, rng)
        assert move is not None
        position.push(move)
    outcome = position.outcome()
    assert outcome is not None
    moves = " ".join(map(str, position.move_stack))
    return outcome.winner or "", len(position.move_stack), geese_moves, from_strategy, moves


def _play(job: tuple[str, int]) -> tuple[str, int, int, int, str]:
    return play(*job)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fox", action="append", choices=("random", "level5"))
    args = ap.parse_args(argv)
    lost = 0
    for fox in args.fox or ["random", "level5"]:
        started = time.monotonic()
        jobs = [(fox, args.seed + i) for i in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                games = list(pool.map(_play, jobs, chunksize=4))
        else:
            games = [_play(job) for job in jobs]
        wins = sum(g[0] == "geese" for g in games)
        share = sum(g[3] for g in games) / max(1, sum(g[2] for g in games))
        plies = [g[1] for g in games]
        print(
            f"level {TOP_LEVEL} geese against {fox} foxes: {wins} of {len(games)} won"
            f" ({wins / len(games):.0%}), {share:.1%} of the geese's moves from the strategy,"
            f" {sum(plies) / len(plies):.1f} plies a game (longest {max(plies)}),"
            f" {time.monotonic() - started:.0f} s with {args.jobs} processes",
            flush=True,
        )
        for winner, _, _, _, moves in games:
            if winner != "geese":
                lost += 1
                print(f"  lost: {moves}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
