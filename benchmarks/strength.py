"""How strong the computer players are: each level against a random player, against the level
below it and against the hint as it was before them (``reedboard.referee.hints.heuristic``), from
each
side, in every game they play.

    .venv/bin/python benchmarks/strength.py [--games N] [--jobs J] [--game ID]... [--levels 1,5]

Each row is one pairing from one seat: the player under test sits at ``side``, the opponent at
every other seat. A game that has not ended after ``--max-plies`` plies (moves and throws) is a
draw: only wins count. The interval is the 95 % Wilson score interval of the win rate, so its
half-width shows how many games the row needed: about 1,070 games for +-3 % at a rate of 50 %,
200 at 95 %. Games are seeded (the dice and every player), so a run repeats exactly.

A long run can be kept and resumed: ``--out FILE`` appends each game as a JSON line (with a
fingerprint of the code that plays that game) as it finishes and skips the games already in
the file for the same code; ``--table FILE`` (plain, or gzip-compressed as ``.gz``) prints
the table from such files without playing, each row over every game they hold for that
pairing that the code as it is now played (a game whose rules, rating or search changed since
counts no more). ``--against L1`` with ``--levels 1`` is the baseline: a seat's share when
every player plays alike.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import inspect
import json
import math
import random
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.engine import Move, Position
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.search import choose
from reedboard.referee import hints
from reedboard.referee.hints import heuristic


def _played() -> tuple[str, ...]:
    """Every game the computer players play, from the registry: the sensed games of two or
    more sides, those without dice first."""
    games = [g for g in engine.game_ids() if engine.game(g).sensed]
    starts = {g: engine.start(g) for g in games}
    played = [g for g in games if len(starts[g].players) > 1]
    return tuple(sorted(played, key=lambda g: starts[g].dice_spec is not None))


GAMES = _played()
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


def _batch(
    args: tuple[Pairing, list[int], int],
) -> tuple[Pairing, list[tuple[int, str, float]]]:
    pairing, seeds, max_plies = args
    return pairing, [(s, *play(pairing, s, max_plies)) for s in seeds]


def fingerprint(game: str) -> str:
    """The code that plays ``game`` as it is now: the game's module, the engine modules it
    imports (and theirs), the search, the data files they name, the old hint, and this
    script's :func:`play` and :func:`player`. A kept game counts only
    while this is unchanged, so a change to one game's rules or rating leaves the others'."""
    root = Path(engine.__file__).parent
    module = sys.modules[type(engine.start(game)).__module__]
    todo = [Path(str(module.__file__)), root / "search.py"]
    files: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in files or not path.exists():
            continue
        files.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module == "reedboard.engine":
                names = [f"reedboard.engine.{a.name}" for a in node.names]  # from ... import x
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("reedboard.engine."):
                    where = root.joinpath(*name.split(".")[2:])  # a module, or a package
                    todo += [where.with_suffix(".py"), where / "__init__.py"]
    sources = "".join(path.read_text(encoding="utf-8") for path in files)
    files.update(p for p in (root / "data").iterdir() if p.is_file() and p.name in sources)
    files.add(Path(hints.__file__))  # the "hint" opponent
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(root.parent).as_posix().encode())
        digest.update(path.read_bytes())
    for function in (play, player):  # how a game is played here, and the random player
        digest.update(inspect.getsource(function).encode())
    return digest.hexdigest()[:16]


def load(
    path: Path, code: dict[str, str], max_plies: int
) -> dict[tuple[Pairing, int], tuple[str, float]]:
    """The games kept in ``path`` for each game's code as it is now (``code``: game ->
    :func:`fingerprint`) and this ply cap; a line that is not a game stops the run, naming the
    file and line."""
    kept: dict[tuple[Pairing, int], tuple[str, float]] = {}
    if not path.exists():
        return kept
    if path.suffix == ".gz":  # the run this repository ships, compressed
        with gzip.open(path, "rt", encoding="utf-8") as f:
            lines = f.read().splitlines()
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if not line.rstrip().endswith("}"):
            print(
                f"strength.py: {path}:{number}: a game cut off (a run stopped mid-write): left out"
            )
            continue
        try:
            row = json.loads(line)
            pairing = Pairing(row["game"], row["side"], row["player"], row["against"])
            key, result = (pairing, int(row["seed"])), (str(row["result"]), float(row["ms"]) / 1000)
            same = row["engine"] == code.get(row["game"]) and int(row["max_plies"]) == max_plies
        except (ValueError, KeyError, TypeError) as e:
            sys.exit(f"strength.py: error: {path}:{number}: not a kept game ({e})")
        if same:
            kept[key] = result
    return kept


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
                    yield Pairing(game, side, f"L{number}", who)


def _row_order(p: Pairing) -> tuple[int, int, str, int, str]:
    against = {"random": 0, "hint": 2}.get(p.opponent, 1)
    return (
        GAMES.index(p.game),
        engine.start(p.game).players.index(p.side),
        p.tested,
        against,
        p.opponent,
    )


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
    ap.add_argument("--out", type=Path, help="keep each game in this file (JSON lines); resume")
    ap.add_argument(
        "--table",
        type=Path,
        action="append",
        help="print the table of the games kept in this file (repeatable); play nothing",
    )
    args = ap.parse_args(argv)
    if "-" in args.levels:
        low, high = (int(x) for x in args.levels.split("-"))
        levels = list(range(low, high + 1))
    else:
        levels = [int(x) for x in args.levels.split(",")]
    rows = list(pairings(args.game or list(GAMES), levels, args.against.split(",")))
    code = {game: fingerprint(game) for game in GAMES}
    kept: dict[tuple[Pairing, int], tuple[str, float]] = {}
    for path in [*(args.table or []), *([args.out] if args.out else [])]:
        kept.update(load(path, code, args.max_plies))
    results: dict[Pairing, list[tuple[str, float]]] = {p: [] for p in rows}
    started = time.perf_counter()
    if args.table:
        results = {}
        for (pairing, _), result in sorted(kept.items(), key=lambda kv: kv[0][1]):
            if pairing.game in (args.game or GAMES):
                results.setdefault(pairing, []).append(result)
        rows = sorted(results, key=_row_order)
    else:
        # small batches, so that --out keeps games as they end and the processes share evenly
        chunk = max(1, min(10, math.ceil(args.games / max(1, args.jobs * 2))))
        work = []
        for pairing in rows:
            # a pairing's games are the same whatever else the run plays (so a run resumes)
            base = args.seed * 1_000_003 + zlib.crc32(str(pairing).encode()) % 10_000 * 100_000
            seeds = [base + g for g in range(args.games)]
            for seed in seeds:
                if (pairing, seed) in kept:
                    results[pairing].append(kept[pairing, seed])
            todo = [s for s in seeds if (pairing, s) not in kept]
            for start in range(0, len(todo), chunk):
                work.append((pairing, todo[start : start + chunk], args.max_plies))
        sink = args.out.open("a", encoding="utf-8") if args.out else None
        if sink is not None and args.out.stat().st_size:
            with args.out.open("rb") as f:
                f.seek(-1, 2)
                if f.read(1) != b"\n":
                    sink.write("\n")  # after a game cut off, start on a line of its own

        def keep(pairing: Pairing, got: list[tuple[int, str, float]]) -> None:
            results[pairing].extend((r, t) for _, r, t in got)
            if sink is not None:
                for seed, result, seconds in got:
                    line = {
                        "game": pairing.game,
                        "side": pairing.side,
                        "player": pairing.tested,
                        "against": pairing.opponent,
                        "seed": seed,
                        "result": result,
                        "ms": round(1000 * seconds, 2),
                        "max_plies": args.max_plies,
                        "engine": code[pairing.game],
                    }
                    sink.write(json.dumps(line) + "\n")
                sink.flush()

        try:
            if args.jobs > 1:
                with ProcessPoolExecutor(args.jobs) as pool:
                    for pairing, got in pool.map(_batch, work):
                        keep(pairing, got)
            else:
                for item in work:
                    keep(*_batch(item))
        finally:
            if sink is not None:
                sink.close()
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
    if args.table:
        print(f"({len(rows)} rows of kept games)")
    else:
        print(f"({len(rows)} rows, {elapsed:.0f} s with {args.jobs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
