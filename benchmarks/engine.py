"""Move-generation speed of every registered game, in positions per second.

Two figures per game:
- perft: leaves/s of a fixed-depth perft from the start (generation + push/pop, no outcome);
- playout: positions/s along random games played to the end (generation, push, outcome).

Run: .venv/bin/python benchmarks/engine.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

from reedboard import engine

PERFT_DEPTH = {"fox-and-geese": 4, "fox-and-geese-mcloughlin": 5, "solitaire": 5}


def bench_perft(game_id: str, depth: int) -> tuple[int, float]:
    position = engine.start(game_id)
    t0 = time.perf_counter()
    leaves = engine.perft(position, depth)
    return leaves, time.perf_counter() - t0


def bench_playouts(game_id: str, seconds: float) -> tuple[int, int, float]:
    rng = random.Random(1)
    positions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        position = engine.start(game_id)
        for _ in range(400):
            if position.outcome() is not None:
                break
            if position.is_chance():
                outcomes = position.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(list(position.legal_moves))
            position.push(move)
            positions += 1
        games += 1
    return positions, games, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="playout time per game")
    args = parser.parse_args()
    print(f"{'game':28} {'perft':>14} {'leaves/s':>10} {'playout pos/s':>14} {'games':>6}")
    for game_id in engine.game_ids():
        depth = PERFT_DEPTH.get(game_id, 3)
        leaves, took = bench_perft(game_id, depth)
        positions, games, ptook = bench_playouts(game_id, args.seconds)
        print(
            f"{game_id:28} {f'd{depth}={leaves}':>14} {leaves / took:>10.0f}"
            f" {positions / ptook:>14.0f} {games:>6}"
        )


if __name__ == "__main__":
    main()
