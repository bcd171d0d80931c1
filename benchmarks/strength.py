"""How strong the computer players are: each level against a random player, against the level
below it and against the hint as it was before them (``controller.hints.heuristic``), from each
side, in every game they play.

    .venv/bin/python benchmarks/strength.py [--games N] [--jobs J] [--game ID]... [--levels 1,5]

Each row is one pairing from one seat: the player under test sits at ``side``, the opponent at
every other seat. A game that has not ended after ``--max-plies`` plies (moves and throws) is a
draw: only wins count. The interval is the 95 % Wilson score interval of the win rate, so its
half-width shows how many games the row needed: about 1,070 games for +-3 % at a rate of 50 %,
200 at 95 %. Games are seeded (the dice and every player), so a run repeats exactly.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from controller.hints import heuristic
from engine import Move, Position
from engine.search import TOP_LEVEL, choose

GAMES = (
    "fox-and-geese",
    "fox-and-geese-mcloughlin",
    "skip",
    "fox-and-rabbit",
    "fox-and-rabbit-4",
    "parchesi",
    "messenger-boy",
)
Player = Callable[[Position[Any, Any], random.Random], Move | None]


def player(name: str) -> Player:
    """``random``, ``hint`` (the hint before the computer players) or ``L1``..``L5``."""
    if name == "random":
        return lambda p, rng: rng.choice(list(p.legal_moves))
    if name == "hint":
        return lambda p, rng: heuristic(p)
    number = int(name[1:])
    return lambda p, rng: choose(p, number, rng)


@dataclass(frozen=True)
class Pairing:
    game: str
    side: str
    tested: str
    opponent: str


def play(pairing: Pairing, seed: int, max_plies: int) -> tuple[str, float]:
    """One game: ``win``, ``loss`` or ``draw`` for the tested seat, and its thinking seconds
    a move."""
    rng = random.Random(seed)
    position = engine.start(pairing.game)
    tested, opponent = player(pairing.tested), player(pairing.opponent)
    thought, moves = 0.0, 0
    for _ in range(max_plies):
        if position.is_over():
            break
        if position.is_chance():
            throws, weights = zip(*position.chance_outcomes(), strict=True)
            position.push(rng.choices(throws, weights)[0])
            continue
        mine = position.turn == pairing.side
        started = time.perf_counter()
        move = (tested if mine else opponent)(position, random.Random(rng.getrandbits(64)))
        if mine:
            thought += time.perf_counter() - started
            moves += 1
        assert move is not None and move in position.legal_moves, (pairing, move)
        position.push(move)
    over = position.outcome()
    per_move = thought / moves if moves else 0.0
    if over is None or over.winner is None:
        return "draw", per_move
    return ("win" if over.winner == pairing.side else "loss"), per_move


def _batch(args: tuple[Pairing, list[int], int]) -> tuple[Pairing, list[tuple[str, float]]]:
    pairing, seeds, max_plies = args
    return pairing, [play(pairing, s, max_plies) for s in seeds]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pairings(games: list[str], levels: list[int], against: list[str]) -> Iterator[Pairing]:
    for game in games:
        for side in engine.start(game).players:
            for number in levels:
                for who in against:
                    if who == "previous":
                        if number == 1:
                            continue
                        who = f"L{number - 1}"
                    if who == f"L{number}":
                        continue
                    yield Pairing(game, side, f"L{number}", who)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1070, help="games a row (default 1070: +-3 %%)")
    ap.add_argument("--jobs", type=int, default=1, help="processes to play in")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--levels", default=f"1-{TOP_LEVEL}", help="levels to test, like 1-5 or 3,5")
    ap.add_argument(
        "--against",
        default="random,previous,hint",
        help="random, previous (the level below), hint (the hint before) and/or L1-L5",
    )
    ap.add_argument("--max-plies", type=int, default=400, help="a longer game is a draw")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if "-" in args.levels:
        low, high = (int(x) for x in args.levels.split("-"))
        levels = list(range(low, high + 1))
    else:
        levels = [int(x) for x in args.levels.split(",")]
    rows = list(pairings(args.game or list(GAMES), levels, args.against.split(",")))
    chunk = max(1, math.ceil(args.games / max(1, args.jobs * 2)))
    work = []
    for i, pairing in enumerate(rows):
        seeds = [args.seed * 1_000_003 + i * 100_000 + g for g in range(args.games)]
        for start in range(0, len(seeds), chunk):
            work.append((pairing, seeds[start : start + chunk], args.max_plies))
    results: dict[Pairing, list[tuple[str, float]]] = {p: [] for p in rows}
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for pairing, got in pool.map(_batch, work):
                results[pairing].extend(got)
    else:
        for item in work:
            pairing, got = _batch(item)
            results[pairing].extend(got)
    elapsed = time.perf_counter() - started
    print(
        "| game | side | player | against | n | wins | draws | win rate | 95 % interval"
        " | ms a move |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for pairing in rows:
        got = results[pairing]
        n = len(got)
        wins = sum(1 for r, _ in got if r == "win")
        draws = sum(1 for r, _ in got if r == "draw")
        low, high = wilson(wins, n)
        ms = 1000 * sum(t for _, t in got) / max(1, n)
        print(
            f"| {pairing.game} | {pairing.side} | {pairing.tested} | {pairing.opponent} | {n}"
            f" | {wins} | {draws} | {100 * wins / max(1, n):.1f} %"
            f" | {100 * low:.1f}-{100 * high:.1f} % | {ms:.1f} |"
        )
    print(f"({len(rows)} rows, {elapsed:.0f} s with {args.jobs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
