"""Recognition over hand-played games: random legal games of every sensed game, played
closed-loop by the hand model (controller/hands.py: touches, hesitation, slides, long holds,
jumped pieces off in any order, fast captures, bounce), each judged by controller/handcheck.py.

A game is recognised when the session's final move list is the moves played and no wrong
move, spurious takeback or spurious new game came on the way. Per game id and overall: games
recognised, wrong moves committed (any commit that is not the move played at its ply, even
if later replaced), spurious takebacks
and new games (the player never presses undo or new), asks (a candidate blinking amber) as a
count and a share of the piece moves, mismatches, games the player gave up on (the board would
not throw), the failure classes, and a few failing seeds of each class with what the hands did.

``--seed`` picks the set of games (another seed: a held-out set); ``--dump DIR`` writes each
failing game as DIR/GAME-SEED.jsonl with GAME-SEED.expected.json ({"moves": [...]}) beside it,
for ``reedboard replay DIR/GAME-SEED.jsonl --json``. Default: 10,000 games over two processes.
``--check`` also checks the referee's state against what it waits on after every step
(``Session.check``) and stops at the first game where they disagree, naming it.

Run: .venv/bin/python benchmarks/recognition.py [--games N] [--plies N] [--seed S]
     [--game ID ...] [--jobs N] [--dump DIR] [--examples K] [--json FILE] [--check]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from controller.handcheck import CLASSES, GameReport, Report, judge, write_failure
from controller.hands import play_game
from controller.runner import Runner

SEED_STRIDE = 1_000_000
"""Game i of set S plays seed S * SEED_STRIDE + i."""


def one(job: tuple[str, int, int, str | None]) -> tuple[GameReport, float]:
    game_id, seed, plies, dump = job
    t0 = time.perf_counter()
    try:
        played = play_game(game_id, seed, plies=plies)
    except AssertionError as exc:  # --check: the referee's state disagreed with its data
        raise SystemExit(f"{game_id} seed {seed}: the referee's state check failed: {exc}") from exc
    report = judge(played)
    if dump is not None and report.failed:
        write_failure(Path(dump), played)
    return report, time.perf_counter() - t0


def _checking(on: bool) -> None:
    Runner.check_states = on


def jobs_for(args: argparse.Namespace, ids: list[str]) -> list[tuple[str, int, int, str | None]]:
    per_game, extra = divmod(args.games, len(ids))
    out = []
    for n, game_id in enumerate(ids):
        for i in range(per_game + (n < extra)):
            out.append((game_id, args.seed * SEED_STRIDE + i, args.plies, args.dump))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in all")
    parser.add_argument("--plies", type=int, default=120, help="at most this many plies a game")
    parser.add_argument("--seed", type=int, default=0, help="which set of games (default 0)")
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--dump", help="write the failing games' traces to this folder")
    parser.add_argument("--examples", type=int, default=3, help="failing seeds shown a class")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    parser.add_argument("--check", action="store_true", help="check the referee's states too")
    args = parser.parse_args(argv)
    sensed = [g for g in engine.game_ids() if engine.game(g).sensed]
    ids = args.game or sensed
    for g in ids:
        if g not in sensed:
            parser.error(f"{g!r} is not a sensed game ({', '.join(sensed)})")
    jobs = jobs_for(args, ids)
    by_game: dict[str, list[GameReport]] = defaultdict(list)
    cpu: dict[str, float] = defaultdict(float)
    t0 = time.perf_counter()
    Runner.check_states = args.check
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, _checking, (args.check,)) as pool:
            results = list(pool.imap_unordered(one, jobs, chunksize=4))
    else:
        results = [one(job) for job in jobs]
    wall = time.perf_counter() - t0
    for report, took in results:
        by_game[report.game].append(report)
        cpu[report.game] += took
    for reports in by_game.values():
        reports.sort(key=lambda r: r.seed)
    figures = print_tables(ids, by_game, cpu, wall, args)
    print_examples(ids, by_game, args.examples)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


def print_tables(
    ids: list[str],
    by_game: dict[str, list[GameReport]],
    cpu: dict[str, float],
    wall: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    print(f"hand-played games, seed set {args.seed}, at most {args.plies} plies, {args.jobs} jobs")
    head = (
        f"{'game':25} {'games':>6} {'recognised':>10} {'rate':>8} {'wrong':>6} {'takebk':>6}"
        f" {'newgm':>6} {'asks':>6} {'ask %':>6} {'mism':>6} {'stuck':>6} {'moves':>7}"
        f" {'cpu s':>7}"
    )
    print(head)
    figures: dict[str, Any] = {"seed": args.seed, "plies": args.plies, "games": {}}
    every: list[GameReport] = []
    for game_id in [*ids, "all"]:
        reports = every if game_id == "all" else by_game[game_id]
        if game_id != "all":
            every += reports
        s = Report(reports).summary()
        took = sum(cpu.values()) if game_id == "all" else cpu[game_id]
        s["cpu_seconds"] = round(took, 1)
        figures["games"][game_id] = s
        n = s["games"] or 1
        print(
            f"{game_id:25} {s['games']:>6} {s['recognised']:>10} {s['recognised'] / n:>8.2%}"
            f" {s['wrong_moves']:>6} {s['takebacks']:>6} {s['new_games']:>6} {s['asks']:>6}"
            f" {s['ask_rate']:>6.2%} {s['mismatches']:>6} {s['stuck']:>6} {s['moves']:>7}"
            f" {took:>7.1f}"
        )
    figures["wall_seconds"] = round(wall, 1)
    print(f"wall time {wall:.1f} s")
    for key, title in (
        ("causes", "failing games by what went wrong first"),
        ("classes", "failing games by what went wrong at all (a game may show several)"),
    ):
        print()
        print(title)
        print(f"{'game':25} " + " ".join(f"{c:>10}" for c in CLASSES))
        for game_id in [*ids, "all"]:
            counts = figures["games"][game_id][key]
            print(f"{game_id:25} " + " ".join(f"{counts[c]:>10}" for c in CLASSES))
    return figures


def print_examples(ids: list[str], by_game: dict[str, list[GameReport]], k: int) -> None:
    """Up to ``k`` failing seeds per game id and class of what went wrong first."""
    if k <= 0:
        return
    print()
    print("failing seeds (the first thing that went wrong, and what the hands did then)")
    for cls in CLASSES:
        for game_id in ids:
            firsts = [r for r in by_game[game_id] if r.failed and r.cause == cls]
            for r in firsts[:k]:
                print(f"  [{cls}] {r.game} seed {r.seed}: {r.first}")


if __name__ == "__main__":
    main()
