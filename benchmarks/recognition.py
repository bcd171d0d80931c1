"""Recognition rate: random legal games of every game, turned into sensor traces (random
lift/place orders, jumped pieces off before or after, chains stepwise or carried straight,
1 ms switch bounce), replayed through the controller. A game is recognized when the replay
gives back exactly the moves played. Default: 10,000 games in all.

Run: .venv/bin/python benchmarks/recognition.py [--games N] [--plies N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from controller.trace import replay
from controller.tracegen import random_game_trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in all")
    parser.add_argument("--plies", type=int, default=120, help="at most this many plies a game")
    args = parser.parse_args()
    ids = [g for g in engine.game_ids() if engine.game(g).sensed]
    per_game = max(1, args.games // len(ids))
    total_ok = total = 0
    print(f"{'game':26} {'games':>6} {'recognized':>10} {'rate':>8} {'moves':>8} {'s':>6}")
    for game_id in ids:
        ok = moves = 0
        t0 = time.perf_counter()
        for i in range(per_game):
            style = ("mixed", "stepwise", "straight")[i % 3]
            trace, played = random_game_trace(
                engine.start(game_id),
                random.Random(f"bench-{game_id}-{i}"),
                args.plies,
                style=style,
            )
            got = [str(m) for m in replay(trace).position.move_stack]
            ok += got == played
            moves += len(played)
        took = time.perf_counter() - t0
        total_ok += ok
        total += per_game
        print(f"{game_id:26} {per_game:>6} {ok:>10} {ok / per_game:>8.2%} {moves:>8} {took:>6.1f}")
    print(f"{'all':26} {total:>6} {total_ok:>10} {total_ok / total:>8.2%}")


if __name__ == "__main__":
    main()
