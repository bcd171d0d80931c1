"""`reedboard analyse` (Peg Solitaire solved whole, McLoughlin's Fox and Geese by proof search)
and `reedboard hint` (the move the computer would play, or the solved game's)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard import engine
from reedboard.cli.args import (
    ANALYSE_BUDGET,
)
from reedboard.cli.rules import parse_options, position_from
from reedboard.engine.levels import TOP_LEVEL
from reedboard.errors import CommandError


def _winning_set(options: Any) -> Any:
    """Solitaire's winning set for the game's finish: from the cache, or built now (progress
    and the reason on stderr)."""
    from reedboard.referee import solved

    progress = solved.ProgressPrinter(sys.stderr, [("reachable", 1.0)])
    try:
        return solved.winning_set(
            options.finish_hole,
            build_missing=True,
            progress=progress,
            say=lambda text: print(f"reedboard: {text}", file=sys.stderr, flush=True),
        )
    finally:  # a CacheError (a set built but unreadable) is one line naming the file
        progress.done()


def cmd_analyse(args: argparse.Namespace) -> int:
    """Peg Solitaire solved whole: the four counts (reedboard/engine/solitaire/solver.py);
    McLoughlin's Fox and Geese: a proof search within a budget
    (reedboard/engine/fox_and_geese/solver.py)."""
    from reedboard.engine.fox_and_geese import solver as fox_geese_solver
    from reedboard.engine.solitaire import solver as solver
    from reedboard.referee import solved

    cls = engine.game(args.game)
    if cls.game_id == fox_geese_solver.GAME:
        return _analyse_fox_geese(args)
    if cls.game_id != solver.GAME:
        raise CommandError(
            f"analyse: solves {solver.GAME} and {fox_geese_solver.GAME}, not {args.game}"
        )
    if args.budget is not None:
        raise CommandError(
            f"analyse: --budget is for {fox_geese_solver.GAME}; {solver.GAME}'s analysis runs whole"
        )
    options = cls.options_from(parse_options(args.option))
    if options.diagonals is not engine.Diagonals.NONE:
        raise solver.SolverError(
            "analyse: the Peg Solitaire solver plays orthogonal jumps only (diagonals=none),"
            f" not diagonals={options.diagonals.value}"
        )
    solver.require_numpy()
    start, finish = options.start, options.finish_hole
    if args.position is not None:  # from a position of one's own: no cache is written
        position = cls.from_text(args.position, **parse_options(args.option))
        board = solver.bits_of(position.holes_of("o"))  # type: ignore[attr-defined]
        if not board:
            raise CommandError(f"analyse: position {args.position!r} has no pegs")
        group = solver.symmetries_keeping(board, finish)
        where = f"position {position.to_text()!r}"
    else:
        board = solver.FULL ^ solver.HOLE_BIT[start]
        group = solver.symmetries_fixing(start, finish)
        where = f"the start with {start} empty"
    print(
        f"reedboard: solitaire from {where} to one peg on {finish}: positions equal under"
        f" the {len(group)} symmetries that keep both in place count once",
        file=sys.stderr,
    )

    def keep(reach: Any, _group: Any) -> None:  # the search from the finish: the hint cache
        try:
            solved.write(solved.cache_path(finish), finish, solver.lookup_levels(reach))
        except OSError as exc:
            print(f"reedboard: the winning set was not cached: {exc}", file=sys.stderr)

    progress = solved.ProgressPrinter(sys.stderr, [("reachable", 0.92), ("winning", 0.08)])
    cache = args.position is None and start == finish  # the search from the finish itself
    try:
        counts = solver.analyse_from(board, finish, progress, keep if cache else None)
    finally:
        progress.done()
    print(f"reachable: {counts.reachable}")
    print(f"winning: {counts.winning}")
    print(f"solutions: {counts.solutions}")
    print(f"sequences: {counts.sequences}")
    return 0


def _analyse_fox_geese(args: argparse.Namespace) -> int:
    """McLoughlin's Fox and Geese: who wins, proved within the budget, or how far it got."""
    from reedboard.engine.fox_and_geese import solver as search

    position = position_from(args)
    search.check_options(position.options)  # refused before anything is said
    budget = ANALYSE_BUDGET if args.budget is None else args.budget
    where = "the start" if args.position is None else f"position {position.to_text()!r}"
    print(
        f"reedboard: {search.GAME} from {where}: proof search for at most {budget:g} s",
        file=sys.stderr,
        flush=True,
    )

    def progress(positions: int, expanded: int, pn: int, dn: int, seconds: float) -> None:
        print(
            f"searched: {positions:,} positions, {expanded:,} expansions,"
            f" fox {_number(pn)} / geese {_number(dn)} ({seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    result = search.solve(position, budget, progress)
    if result.value is not None:
        print(f"value: {result.value} {'wins' if result.value == 'fox' else 'win'} (proved)")
    else:
        print(f"value: not proved within {budget:g} s")
    print(f"proof number (fox wins): {_number(result.proof)}")
    print(f"disproof number (geese win): {_number(result.disproof)}")
    print(f"positions: {result.positions}")
    print(f"expansions: {result.expanded}")
    print(f"seconds: {result.seconds:.1f}")
    for state in result.moves:
        if state.value is not None:
            said = f"{state.value} {'wins' if state.value == 'fox' else 'win'}"
        else:
            said = f"open (fox {_number(state.proof)} / geese {_number(state.disproof)})"
        print(f"move {state.move}: {said}")
    return 0


def _number(n: int) -> str:
    """A proof or disproof number as `analyse` shows it (infinity as ``inf``)."""
    from reedboard.engine.fox_and_geese.solver import INF

    return "inf" if n >= INF else str(n)


def cmd_hint(args: argparse.Namespace) -> int:
    from reedboard.referee.hints import suggest
    from reedboard.referee.solved import solves

    position = position_from(args)
    top = args.level is None or args.level == TOP_LEVEL  # a lower level is the search's own
    winning = _winning_set(position.options) if top and solves(position) else None
    move = suggest(position, winning, TOP_LEVEL if args.level is None else args.level)
    print(move if move is not None else "none")
    return 0
