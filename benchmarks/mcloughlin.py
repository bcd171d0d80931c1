"""McLoughlin's Fox and Geese: how far the proof search gets, and on easier questions.

For each ``fox_wins_at`` given (the fox wins once that many geese are left; the game's own
rule is 6), the proof search runs from the start for the budget and prints a line: who wins,
proved, or the root's proof and disproof numbers, the positions reached and the expansions.
A geese win with the fox winning at 16 (the geese trap the fox without giving up a goose) is
a geese win of the game itself; a fox win at 6 is the game's. Then, for the endgame a
computer player meets, the time `best_move` takes over random positions from random games
played from the start until the geese have a given room left.

Run: .venv/bin/python benchmarks/mcloughlin.py [--budget 60] [--at 16,6] [--endgames 200]
     [--room 14]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reedboard import engine
from reedboard.engine.fox_and_geese import solver as solver

GAME = solver.GAME


def room(position: engine.Position) -> int:  # type: ignore[type-arg]
    board = position.board  # type: ignore[attr-defined]
    return sum(board.coords[h][0] for h in position.holes_of("G"))  # type: ignore[attr-defined]


def ladder(budget: float, thresholds: list[int]) -> None:
    start = engine.start(GAME)
    print(f"{'fox wins at':>11} | {'value':>7} | {'proof':>8} | {'disproof':>8} | positions | secs")
    for at in thresholds:
        r = solver.solve(start, budget, fox_wins_at=at)
        pn = "inf" if r.proof >= solver.INF else str(r.proof)
        dn = "inf" if r.disproof >= solver.INF else str(r.disproof)
        print(
            f"{at:>11} | {r.value or 'open':>7} | {pn:>8} | {dn:>8} | {r.positions:>9,}"
            f" | {r.seconds:.0f}",
            flush=True,
        )


def endgames(count: int, left: int, seed: int) -> None:
    rng = random.Random(seed)
    times: list[float] = []
    proved = 0
    while len(times) < count:
        p = engine.start(GAME)
        while not p.is_over() and room(p) > left:
            p.push(rng.choice(list(p.legal_moves)))
        if p.is_over():
            continue
        p = p.copy(stack=False)
        began = time.perf_counter()
        move = solver.best_move(p, budget=1.0)
        times.append((time.perf_counter() - began) * 1000)
        proved += move is not None
    times.sort()
    print(
        f"best_move on {count} endgames (geese room <= {left}): p50 {statistics.median(times):.1f}"
        f" ms, p99 {times[int(0.99 * (count - 1))]:.1f} ms, worst {times[-1]:.1f} ms;"
        f" a winning move found in {proved}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per question")
    ap.add_argument("--at", default="16,6", help="fox_wins_at values, comma separated")
    ap.add_argument("--endgames", type=int, default=200, help="endgames for best_move (0: none)")
    ap.add_argument("--room", type=int, default=14, help="the geese's room left in them")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.budget > 0:
        ladder(args.budget, [int(a) for a in args.at.split(",")])
    if args.endgames:
        endgames(args.endgames, args.room, args.seed)


if __name__ == "__main__":
    main()
