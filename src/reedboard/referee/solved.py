"""Games solved by a table kept on disk (the engine's ``solved_table`` hook,
reedboard/engine/solved.py): where the tables are kept, built with progress shown, opened, and
the board's verdicts after each move.

A game's table is built once per variant and kept in the user's cache folder
(``$XDG_CACHE_HOME/reedboard/``, by default ``~/.cache/reedboard/``), one file a table, named
by it: ``solitaire-winning-17.bin`` is Peg Solitaire's winning set for finish 17. The file is
checked whole whenever it is opened; one that is missing, damaged, cut short or of another
version is built again (and written atomically, so a reader never sees half a file). What is
in it is the game's (Solitaire's: reedboard/engine/solitaire/solved.py).

The daemon (``reedboard run``) opens the game's table at start-up, or builds it in a process of
its own (``python -m reedboard.referee.solved build GAME [--options JSON]``) so the board's
loop never waits for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from reedboard import engine
from reedboard.engine import EngineError, Move, Position
from reedboard.engine.files import write_atomic
from reedboard.engine.solved import TableFileError
from reedboard.errors import ControllerError
from reedboard.hardware.lights import Colour, Light

if TYPE_CHECKING:
    from reedboard.engine.solved import Progress, Solution, SolvedTable, Write
    from reedboard.store.games import GameRecord

SOLVER_ENV = "REEDBOARD_SOLITAIRE_SOLVER"
"""``off``: the daemon neither opens nor builds a solved table (a board with little memory);
hints then fall back to a bounded search."""


class CacheError(ControllerError):
    """A table's file that cannot be used as it is (missing, damaged, another version): the
    message names the file and what is wrong; it is built again."""


def cache_dir() -> Path:
    """The user's cache folder for reedboard (XDG base directories)."""
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "reedboard"


def cache_path(table: SolvedTable, folder: Path | None = None) -> Path:
    return (folder or cache_dir()) / f"{table.stem}.bin"


def table_of(position: Position[Any, Any]) -> SolvedTable | None:
    """The game's solved table for the position's options, or None (the engine says)."""
    return type(position).solved_table(position.options)


# -- the file ---------------------------------------------------------------------------------


def write(path: Path, write: Write) -> None:
    """Write a table to ``path`` atomically (:func:`reedboard.engine.files.write_atomic`)."""
    write_atomic(path, write)


def load(path: Path, table: SolvedTable) -> Solution:
    """Open and check a table's file; :class:`CacheError` says what is wrong with it."""
    table.require()
    try:
        with open(path, "rb") as data:
            return table.read(data)
    except FileNotFoundError:
        raise CacheError(f"{path}: not built yet") from None
    except TableFileError as why:
        raise CacheError(f"{path}: {why}") from None
    except OSError as exc:
        raise CacheError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def build(table: SolvedTable, folder: Path | None = None, progress: Progress | None = None) -> Path:
    """Build the table and write it to the cache; its path."""
    path = cache_path(table, folder)

    def fill(out: IO[bytes]) -> None:
        table.write(out, progress)

    write(path, fill)
    return path


def open_table(
    table: SolvedTable,
    folder: Path | None = None,
    *,
    build_missing: bool = False,
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> Solution | None:
    """The table from the cache; when it cannot be used, built anew if ``build_missing``
    (saying why through ``say``), else None."""
    path = cache_path(table, folder)
    try:
        return load(path, table)
    except CacheError as why:
        if not build_missing:
            return None
        if say is not None:
            say(f"building the {table} (once): {why}")
        build(table, folder, progress)
        return load(path, table)


# -- progress ----------------------------------------------------------------------------------

# Relative work per level (classes in the level a search expands), measured for Peg
# Solitaire's centre start; other holes' levels grow alike, so the bar moves about evenly in
# time.
_WEIGHT = {
    p: w
    for p, w in zip(
        range(32, 0, -1),
        (
            *(1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854, 1022224),
            *(1753737, 2598215, 3312423, 3626632, 3413313, 2765623, 1930324, 1160977, 600372),
            *(265865, 100565, 32250, 8688, 1917, 348, 50, 7, 2),
        ),
        strict=True,
    )
}


class ProgressPrinter:
    """Shows a search's progress: a bar redrawn in place on a terminal, plain lines
    otherwise. ``phases`` are the search's phases in order with their share of the work."""

    def __init__(
        self, stream: IO[str], phases: Sequence[tuple[str, float]], tty: bool | None = None
    ) -> None:
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.phases = dict(phases)
        self._before: dict[str, float] = {}
        done = 0.0
        for name, share in phases:
            self._before[name] = done
            done += share
        self.started = time.monotonic()
        self._drawn = False

    def __call__(self, phase: str, pegs: int, size: int) -> None:
        total = sum(_WEIGHT.values())
        if phase == "reachable":  # levels from 32 pegs down: work is the level expanded
            part = sum(w for p, w in _WEIGHT.items() if p > pegs) / total
        else:  # the winning set's levels from 1 peg up
            part = sum(w for p, w in _WEIGHT.items() if 33 - p <= pegs) / total
        fraction = self._before.get(phase, 0.0) + self.phases.get(phase, 1.0) * min(1.0, part)
        seconds = time.monotonic() - self.started
        pegs_text = f"{pegs} peg" + ("" if pegs == 1 else "s")
        text = f"{phase}: {pegs_text}, {size:,} positions ({seconds:.1f} s)"
        if self.tty:
            width = 30
            filled = round(fraction * width)
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r[{bar}] {fraction * 100:3.0f}% {text}\x1b[K")
            self._drawn = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


# -- on the board ------------------------------------------------------------------------------

WINNABLE: Colour = (86, 180, 233)
"""Okabe-Ito sky blue: after a move, the game can still be won. Not a colour of the landings
(bluish green), the hint (orange), the computer's move (blue) or the mismatch guidance
(vermillion and white, blinking). The web view says the verdict in words too."""
LOST: Colour = (204, 121, 167)
"""Okabe-Ito reddish purple: after a move, the game can no longer be won."""
PULSE_SECONDS = 0.8
"""How long the table's verdict point (Solitaire's finish hole) shows the verdict after a
move."""


class Verdicts:
    """The board's word on a solved game after each committed move: a short pulse of the
    table's verdict point (:data:`WINNABLE` or :data:`LOST`), and the move that lost a winnable
    game named. Silent until a table is given (the daemon opens or builds it)."""

    def __init__(self) -> None:
        self.winning: Solution | None = None
        self._until: float | None = None
        self._light: tuple[str, Light] | None = None

    def usable(self, position: Position[Any, Any]) -> Solution | None:
        ws = self.winning
        if ws is None or not ws.answers(position):
            return None
        return ws

    def jumped(
        self, before: Position[Any, Any], after: Position[Any, Any], move: Move, now: float
    ) -> str | None:
        """Judge a committed move: start the pulse; the alert text if it lost the game."""
        ws = self.usable(after)
        if ws is None or before.game_id != after.game_id:
            return None
        was, now_ok = ws.winnable([before, after])
        self._until = now + PULSE_SECONDS
        self._light = (ws.table.verdict_point, Light(WINNABLE if now_ok else LOST))
        return f"{move} (no win after it)" if was and not now_ok else None

    def lights(self, now: float) -> dict[str, Light]:
        if self._light is None or self._until is None or now >= self._until:
            return {}
        point, light = self._light
        return {point: light}

    def deadline(self) -> float | None:
        return self._until

    def expire(self, now: float) -> bool:
        """Whether the pulse has just ended (the frame must be shown anew)."""
        if self._until is not None and now >= self._until:
            self._until, self._light = None, None
            return True
        return False


def lost_plies(record: GameRecord, ws: Solution) -> dict[int, str]:
    """A stored game's move that lost it (ply from 1: note), if it was winnable before."""
    position = record.start_position()
    if not ws.answers(position):
        return {}
    positions = [position.copy(stack=False)]
    for text in record.moves:
        position.push_text(text)
        positions.append(position.copy(stack=False))
    ok = ws.winnable(positions)
    for ply in range(1, len(positions)):
        if ok[ply - 1] and not ok[ply]:
            return {ply: "lost: no win after it"}
    return {}


# -- the daemon's background build ---------------------------------------------------------------

BUILD_COMMAND: list[str] = [sys.executable, "-m", "reedboard.referee.solved", "build"]
"""How the daemon builds a missing table: this, then the game, ``--options JSON`` (the game's
options that differ from the defaults) and ``--folder DIR``."""


async def prepare(
    position: Position[Any, Any], say: Callable[[str], None], folder: Path | None = None
) -> Solution | None:
    """Open the table the game needs, building it in a process of its own if missing (said
    through ``say``); None where the game has none or it cannot be used here."""
    setting = os.environ.get(SOLVER_ENV, "").strip().lower()
    if setting in ("off", "0", "no", "false"):
        return None
    if setting not in ("", "on", "1", "yes", "true"):
        say(f"{SOLVER_ENV}={setting[:20]!r} is neither on nor off: taken as on")
    table = table_of(position)
    if table is None:
        return None
    try:
        table.require()
    except EngineError as exc:
        say(f"{table.game_id} hints are a bounded search: {exc}")
        return None
    path = cache_path(table, folder)
    try:
        return await asyncio.to_thread(load, path, table)
    except CacheError as why:
        seconds = await asyncio.to_thread(table.estimate_seconds)
        say(f"building the {table.name} (once, ~{seconds:.0f} s): {why}")
    started = time.monotonic()
    command = [
        *BUILD_COMMAND,
        position.game_id,
        "--options",
        json.dumps(position.option_values(), sort_keys=True),
        "--folder",
        str(path.parent),
    ]
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    try:
        _, err = await proc.communicate()
    except asyncio.CancelledError:  # the daemon stops: so does the build
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        raise
    if proc.returncode != 0:
        lines = err.decode(errors="replace").strip().splitlines()
        last = lines[-1] if lines else f"exit {proc.returncode}"
        say(f"building the {table.name} failed: {last}")
        return None
    try:
        solution = await asyncio.to_thread(load, path, table)
    except CacheError as again:
        say(f"building the {table.name} failed: {again}")
        return None
    say(f"{table.name} built in {time.monotonic() - started:.0f} s")
    return solution


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reedboard.referee.solved build GAME [--options JSON] [--folder DIR]``: what
    the daemon runs."""
    parser = argparse.ArgumentParser(prog="python -m reedboard.referee.solved")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="build a game's solved table into the cache")
    p.add_argument("game")
    p.add_argument("--options", default="{}", help="the game's options, a JSON object")
    p.add_argument("--folder", type=Path, help="the cache folder (default: the user's)")
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):
        os.nice(10)  # the board's own process comes first
    try:
        cls = engine.game(args.game)
        values = json.loads(args.options)
        if not isinstance(values, dict):
            raise ValueError(f"--options {args.options!r}: not a JSON object")
        table = cls.solved_table(cls.options_from(values))
        if table is None:
            raise ValueError(f"{args.game} has no solved table with these options")
        path = build(table, args.folder)
    except (EngineError, OSError, ValueError) as exc:
        print(f"reedboard: error: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
