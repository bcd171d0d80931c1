"""Recognition over hand-played games: random legal games of every sensed game, played
closed-loop by the hand model (tests/hands/model.py: touches, hesitation, slides, long holds,
jumped pieces off in any order, fast captures, bounce), each judged by tests/hands/check.py.

A game is exact (recognised) when the session's final move list is the moves played and no
wrong move, spurious takeback or spurious new game came on the way. Per game id and overall:
games exact, wrong moves committed (any commit that is not the move played at its ply, even
if later replaced; a move the hands set down first and thought better of is not wrong once a
``changed`` commit gives the move played), stalls (the board's moves did not end as the moves
played, or the player gave up: the board would not throw), spurious takebacks and new games
(the player never presses undo or new), questions (a candidate blinking amber) as a count and
a share of the piece moves, changes (``changed`` alerts), mismatches, the failure classes, and a
few failing seeds of each class with what the hands did.

Ordinary hands: ``--behaviour NAME`` (repeatable) runs the careful mix with one
behaviour on, as its own row: careful (none), count_out, reach_early, mistake_setdown, knock,
second_thoughts, broken_switch, slide_chatter, or all (every one at once); ``--rows`` runs
each of them and all. A behaviour that only some games have runs only on those (counting out:
dice and spinner games; a mistaken set-down: games that take pieces off). Where switches
broke: games where the break mattered (its switch read otherwise than the pieces on it for
3.5 s or more), games where the right switch was named within 10 s of that,
the median and 95th percentile time to that alert, games with no word at all, and games where
a switch that had not broken was named. ``--games`` is per row.

``--seed`` picks the set of games (another seed: a held-out set); ``--dump DIR`` writes each
failing game as DIR/GAME-SEED.jsonl with GAME-SEED.expected.json ({"moves": [...]}) beside it
(under DIR/ROW/ for a behaviour's row), for ``reedboard replay DIR/GAME-SEED.jsonl --json``.
Default: the careful row, 10,000 games over two processes. ``--check`` also checks the
referee's state against what it waits on after every step (``Session.check``) and stops at
the first game where they disagree, naming it. A game in which the session raises an error is
filed under ``crash`` (the run goes on). ``--out FILE`` also writes what it prints to FILE:
benchmarks/results/recognition-rows.txt is kept so (``--rows --games 2000 --jobs 2``), and
``scripts/docs.py`` makes docs/benchmarks.md's recognition tables from it.

Run: .venv/bin/python benchmarks/recognition.py [--games N] [--plies N] [--seed S]
     [--game ID ...] [--behaviour NAME ... | --rows] [--jobs N] [--dump DIR] [--examples K]
     [--json FILE] [--out FILE] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The hand model is test tooling (tests/hands/), not part of the package: the checkout's root
# on the path finds it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reedboard import engine
from reedboard.sim.runner import Runner
from tests.hands.check import (
    CLASSES,
    NAMED_WITHIN,
    ORDINARY,
    GameReport,
    Report,
    applies,
    crashed,
    judge,
    write_failure,
)
from tests.hands.model import play_game

SEED_STRIDE = 1_000_000
"""Game i of set S plays seed S * SEED_STRIDE + i."""


@dataclass(frozen=True)
class Job:
    row: str
    """The behaviour (a key of ``ORDINARY``)."""
    game_id: str
    seed: int
    plies: int
    dump: str | None


def one(job: Job) -> tuple[str, GameReport, float]:
    t0 = time.perf_counter()
    try:
        played = play_game(job.game_id, job.seed, plies=job.plies, **ORDINARY[job.row])
    except AssertionError as exc:  # --check: the referee's state disagreed with its data
        raise SystemExit(
            f"{job.game_id} seed {job.seed} ({job.row}): the referee's state check failed: {exc}"
        ) from exc
    except Exception as exc:  # the session broke down: filed under crash, the run goes on
        return job.row, crashed(job.game_id, job.seed, exc), time.perf_counter() - t0
    report = judge(played)
    if job.dump is not None and report.failed:
        write_failure(Path(job.dump), played)
    return job.row, report, time.perf_counter() - t0


def _checking(on: bool) -> None:
    Runner.check_states = on


def jobs_for(args: argparse.Namespace, row: str, ids: list[str]) -> list[Job]:
    """``--games`` games of the row, shared out over its games alike."""
    per_game, extra = divmod(args.games, len(ids))
    dump = args.dump if args.dump is None or args.rows_run == ["careful"] else f"{args.dump}/{row}"
    out = []
    for n, game_id in enumerate(ids):
        for i in range(per_game + (n < extra)):
            out.append(Job(row, game_id, args.seed * SEED_STRIDE + i, args.plies, dump))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games a row")
    parser.add_argument("--plies", type=int, default=120, help="at most this many plies a game")
    parser.add_argument("--seed", type=int, default=0, help="which set of games (default 0)")
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    parser.add_argument(
        "--behaviour", action="append", choices=list(ORDINARY), help="a row (repeatable)"
    )
    parser.add_argument("--rows", action="store_true", help="every behaviour a row, and all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--dump", help="write the failing games' traces to this folder")
    parser.add_argument("--examples", type=int, default=3, help="failing seeds shown a class")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    parser.add_argument("--out", type=Path, help="also write what it prints to this file")
    parser.add_argument("--check", action="store_true", help="check the referee's states too")
    args = parser.parse_args(argv)
    sensed = [g for g in engine.game_ids() if engine.game(g).sensed]
    ids = args.game or sensed
    for g in ids:
        if g not in sensed:
            parser.error(f"{g!r} is not a sensed game ({', '.join(sensed)})")
    rows = list(ORDINARY) if args.rows else list(dict.fromkeys(args.behaviour or ["careful"]))
    args.rows_run = rows
    games = {row: [g for g in ids if applies(row, g)] for row in rows}
    jobs = [job for row in rows if games[row] for job in jobs_for(args, row, games[row])]
    t0 = time.perf_counter()
    Runner.check_states = args.check
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, _checking, (args.check,)) as pool:
            results = list(pool.imap_unordered(one, jobs, chunksize=4))
    else:
        results = [one(job) for job in jobs]
    wall = time.perf_counter() - t0
    by_row: dict[str, dict[str, list[GameReport]]] = {row: defaultdict(list) for row in rows}
    cpu: dict[str, dict[str, float]] = {row: defaultdict(float) for row in rows}
    for row, report, took in results:
        by_row[row][report.game].append(report)
        cpu[row][report.game] += took
    figures: dict[str, Any] = {"seed": args.seed, "plies": args.plies, "games_a_row": args.games}
    figures["rows"] = {}
    with contextlib.redirect_stdout(io.StringIO()) as said:
        print(
            f"hand-played games, seed set {args.seed}, at most {args.plies} plies, {args.jobs} jobs"
        )
        for row in rows:
            for reports in by_row[row].values():
                reports.sort(key=lambda r: r.seed)
            figures["rows"][row] = print_row(row, games[row], by_row[row], cpu[row], args.examples)
        if len(rows) > 1:
            print_rows(figures["rows"])
        else:  # the figures as they were before rows
            figures["games"] = figures["rows"][rows[0]]["games"]
        figures["wall_seconds"] = round(wall, 1)
        print(f"\nwall time {wall:.1f} s")
    sys.stdout.write(said.getvalue())
    if args.out:
        args.out.write_text(said.getvalue(), encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


def print_row(
    row: str,
    ids: list[str],
    by_game: dict[str, list[GameReport]],
    cpu: dict[str, float],
    examples: int,
) -> dict[str, Any]:
    """One behaviour's tables (per game and overall) and failing seeds; returns its figures."""
    habits = ", ".join(f"{k}={v:g}" for k, v in ORDINARY[row].items()) or "the careful mix"
    print(f"\n== {row}: {habits}")
    figures: dict[str, Any] = {"habits": ORDINARY[row], "games": {}}
    if not ids:
        print("(no game here has this behaviour)")
        return figures
    every: list[GameReport] = []
    for game_id in [*ids, "all"]:
        reports = every if game_id == "all" else by_game[game_id]
        if game_id != "all":
            every += reports
        s = Report(reports).summary()
        s["cpu_seconds"] = round(sum(cpu.values()) if game_id == "all" else cpu[game_id], 1)
        figures["games"][game_id] = s
    print_figures(figures["games"], ids)
    if any(figures["games"][g]["breaks"]["broke"] for g in ids):
        print()
        print_breaks(figures["games"], ids)
    print_classes(figures["games"], ids)
    print_examples(ids, by_game, examples)
    return figures


HEAD = (
    f"{'':25} {'games':>6} {'exact':>6} {'exact%':>7} {'wrong':>6} {'stalls':>6} {'takebk':>6}"
    f" {'newgm':>6} {'asks':>6} {'ask %':>6} {'change':>6} {'mism':>6} {'crash':>6}"
    f" {'moves':>7} {'cpu s':>7}"
)
BREAK_HEAD = (
    f"{'broken switch':25} {'broke':>6} {'matter':>6} {'named':>6} {'named%':>7}"
    f" {'median':>7} {'p95':>7} {'noword':>6} {'wrongpt':>7}"
)


def figure_line(name: str, s: dict[str, Any]) -> str:
    return (
        f"{name:25} {s['games']:>6} {s['exact']:>6} {s['exact_rate']:>7.2%} {s['wrong_moves']:>6}"
        f" {s['stalls']:>6} {s['takebacks']:>6} {s['new_games']:>6} {s['asks']:>6}"
        f" {s['ask_rate']:>6.2%} {s['changes']:>6} {s['mismatches']:>6} {s['crashes']:>6}"
        f" {s['moves']:>7} {s['cpu_seconds']:>7.1f}"
    )


def break_line(name: str, b: dict[str, Any]) -> str:
    def seconds(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}s"

    return (
        f"{name:25} {b['broke']:>6} {b['mattered']:>6} {b['named_in_time']:>6}"
        f" {b['named_in_time_rate']:>7.2%} {seconds(b['delay_median']):>7}"
        f" {seconds(b['delay_p95']):>7} {b['no_word']:>6} {b['wrong_point']:>7}"
    )


def print_figures(games: dict[str, Any], ids: list[str]) -> None:
    print(HEAD)
    for game_id in [*ids, "all"]:
        print(figure_line(game_id, games[game_id]))


def print_breaks(games: dict[str, Any], ids: list[str]) -> None:
    """Switches that broke: ``named`` is the games where the right switch was named within
    NAMED_WITHIN s of the break first mattering (``named%`` of the games where it mattered);
    median and p95 are over the games where it was named at all."""
    print(BREAK_HEAD + f"   (named within {NAMED_WITHIN:g} s of mattering)")
    for game_id in [*ids, "all"]:
        print(break_line(game_id, games[game_id]["breaks"]))


def print_classes(games: dict[str, Any], ids: list[str]) -> None:
    for key, title in (
        ("causes", "failing games by what went wrong first"),
        ("classes", "failing games by what went wrong at all (a game may show several)"),
    ):
        print()
        print(title)
        print(f"{'':25} " + " ".join(f"{c:>10}" for c in CLASSES))
        for game_id in [*ids, "all"]:
            counts = games[game_id][key]
            print(f"{game_id:25} " + " ".join(f"{counts[c]:>10}" for c in CLASSES))


def print_rows(rows: dict[str, Any]) -> None:
    """Every behaviour's overall figures, a line each."""
    print("\n== every behaviour, all its games")
    print(HEAD.replace(" " * 25, f"{'behaviour':25}", 1))
    for row, figures in rows.items():
        if "all" in figures["games"]:
            print(figure_line(row, figures["games"]["all"]))
    print()
    print(BREAK_HEAD.replace("broken switch", "behaviour    ", 1))
    for row, figures in rows.items():
        if "all" in figures["games"]:
            print(break_line(row, figures["games"]["all"]["breaks"]))


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
