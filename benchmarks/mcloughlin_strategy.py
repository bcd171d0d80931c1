"""McLoughlin's Fox and Geese: the top level's geese, playing the shipped winning strategy,
against random foxes and against the top level's fox. Every game is played to its end by the
engine's rules; a geese loss is printed with its moves.

    .venv/bin/python benchmarks/mcloughlin_strategy.py [--games 200] [--jobs 2] [--seed 0]
        [--fox random --fox level5 --fox search]

Foxes: ``random``; ``level5``, the top level's, which plays the move that makes the geese's
win take longest while the position is in the strategy (its shipped depths); ``search``, the
top level's fox without those depths (as it played before them: the proof search, then the
search). Each row: the games, the geese's wins, the share of the geese's moves the strategy
gave (the rest: the proof search or the search, which the strategy leaves nothing to do) and
of the fox's from the depths, the mean and longest game in plies, the seconds. First the
deepest line of the strategy's tree from the start: the length of every game a fox that
always plays a deepest move makes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from reedboard import engine
from reedboard.engine.fox_and_geese import strategy
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.search import choose

GAME = "fox-and-geese-mcloughlin"
Game = tuple[str, int, int, int, str, int, int]


def play(fox: str, seed: int) -> Game:
    """One game: the winner, its plies, the geese's moves, those from the strategy, the moves,
    the fox's moves, those from the depths."""
    plan = strategy.shipped()
    assert plan is not None, "the strategy is package data: reedboard/engine/data/"
    depths = plan.depths
    if fox == "search":
        plan.depths = None
    try:
        return _game(fox, random.Random(seed))
    finally:
        plan.depths = depths


def _game(fox: str, rng: random.Random) -> Game:
    position = engine.start(GAME)
    geese_moves = from_strategy = fox_moves = from_depths = 0
    while not position.is_over():
        if position.turn == "fox":
            fox_moves += 1
            if fox == "random":
                move = rng.choice(list(position.legal_moves))
            else:
                from_depths += position.longest_move() is not None  # type: ignore[attr-defined]
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
    plies = len(position.move_stack)
    return outcome.winner or "", plies, geese_moves, from_strategy, moves, fox_moves, from_depths


def _play(job: tuple[str, int]) -> Game:
    return play(*job)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fox", action="append", choices=("random", "level5", "search"))
    args = ap.parse_args(argv)
    plan = strategy.shipped()
    found = None if plan is None else plan.fox_depths(engine.start(GAME))
    if found is not None:
        print(f"the strategy's deepest line from the start: {max(d for _, d in found)} plies")
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
        fox_share = sum(g[6] for g in games) / max(1, sum(g[5] for g in games))
        fox_part = "" if fox == "random" else f" and {fox_share:.1%} of the fox's from the depths"
        plies = [g[1] for g in games]
        print(
            f"level {TOP_LEVEL} geese against {fox} foxes: {wins} of {len(games)} won"
            f" ({wins / len(games):.0%}), {share:.1%} of the geese's moves from the strategy"
            f"{fox_part},"
            f" {sum(plies) / len(plies):.1f} plies a game (shortest {min(plies)}, longest"
            f" {max(plies)}), {len(set(g[4] for g in games))} different games,"
            f" {time.monotonic() - started:.0f} s with {args.jobs} processes",
            flush=True,
        )
        for winner, _, _, _, moves, _, _ in games:
            if winner != "geese":
                lost += 1
                print(f"  lost: {moves}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
