"""`reedboard analyse` (the game's own analysis, the engine's ``analysis`` hook: Peg Solitaire
solved whole, McLoughlin's Fox and Geese by proof search) and `reedboard hint` (the move the
computer would play, or the solved table's)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from reedboard import engine
from reedboard.cli.args import (
    ANALYSE_BUDGET,
)
from reedboard.cli.rules import parse_options, position_from
from reedboard.engine.levels import TOP_LEVEL
from reedboard.engine.registry import ANALYSED
from reedboard.errors import CommandError

if TYPE_CHECKING:
    from reedboard.engine.solved import Progress, Solution, SolvedTable, Write


def say(text: str) -> None:
    print(f"reedboard: {text}", file=sys.stderr, flush=True)


class Stderr:
    """What an analysis tells besides its result, on stderr (reedboard.engine.solved.Report)."""

    def say(self, text: str) -> None:
        say(text)

    def note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    @contextlib.contextmanager
    def progress(self, phases: Sequence[tuple[str, float]]) -> Iterator[Progress]:
        from reedboard.referee.solved import ProgressPrinter

        printer = ProgressPrinter(sys.stderr, phases)
        try:
            yield printer
        finally:
            printer.done()

    def keep(self, table: SolvedTable, write: Write) -> None:
        """A table the analysis built on its way: into the cache the hints read."""
        from reedboard.referee import solved

        try:
            solved.write(solved.cache_path(table), write)
        except OSError as exc:
            say(f"the {table.what} was not cached: {exc}")


def _open(table: SolvedTable) -> Solution | None:
    """The game's solved table: from the cache, or built now (progress and the reason on
    stderr)."""
    from reedboard.referee import solved

    progress = solved.ProgressPrinter(sys.stderr, table.phases)
    try:
        return solved.open_table(table, build_missing=True, progress=progress, say=say)
    except OSError as exc:  # the cache folder cannot be made or written: the search's hint
        say(f"the {table.name} cannot be kept ({exc.strerror or exc}): a bounded search instead")
        return None
    finally:  # a CacheError (a table built but unreadable) is one line naming the file
        progress.done()


def cmd_analyse(args: argparse.Namespace) -> int:
    """The game's analysis (the engine's ``analysis`` hook): its result on stdout, what it
    does and its progress on stderr."""
    if args.exact:
        return _exact(args)
    if args.dir is not None:
        raise CommandError("analyse: --dir is where --exact keeps its layers; give --exact too")
    cls = engine.game(args.game)
    analysis = cls.analysis()
    if analysis is None:
        raise CommandError(f"analyse: solves {' and '.join(ANALYSED)}, not {args.game}")
    if args.budget is not None and not analysis.budgeted:
        budgeted = [g for g in ANALYSED if getattr(engine.game(g).analysis(), "budgeted", False)]
        raise CommandError(
            f"analyse: --budget is for {' and '.join(budgeted)};"
            f" {cls.game_id}'s analysis runs whole"
        )
    budget = None
    if analysis.budgeted:
        budget = ANALYSE_BUDGET if args.budget is None else args.budget
    for line in analysis.run(parse_options(args.option), args.position, budget, Stderr()):
        print(line)
    return 0


def _exact(args: argparse.Namespace) -> int:
    """The game solved whole by the compiled solver (reedboard/analysis/)."""
    from pathlib import Path

    from reedboard.analysis import mcloughlin as exact

    if args.game != exact.GAME:
        raise CommandError(f"analyse: --exact solves {exact.GAME}, not {args.game}")
    if args.budget is not None:
        raise CommandError("analyse: --budget is the proof search's; --exact runs whole")
    folder = None if args.dir is None else Path(args.dir)
    for line in exact.analyse(parse_options(args.option), args.position, folder, say):
        print(line)
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from reedboard.referee.hints import suggest
    from reedboard.referee.solved import table_of

    position = position_from(args)
    top = args.level is None or args.level == TOP_LEVEL  # a lower level is the search's own
    table = table_of(position) if top else None
    winning = _open(table) if table is not None else None
    move = suggest(position, winning, TOP_LEVEL if args.level is None else args.level)
    print(move if move is not None else "none")
    return 0
