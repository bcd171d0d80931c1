"""Peg Solitaire solved: its winning sets kept on disk, progress shown, the board's verdicts.

A winning set (:class:`reedboard.engine.solitaire.solver.WinningSet`) is built once per finish hole
and
kept in the user's cache folder (``$XDG_CACHE_HOME/reedboard/``, by default
``~/.cache/reedboard/``), one file per finish: ``solitaire-winning-17.bin``. The file is
checked whole whenever it is opened; one that is missing, damaged, cut short or of another
version is built again (and written atomically, so a reader never sees half a file).

The file, little-endian::

    b"RBSOLWIN"  u16 format version  u16 the engine's key format  u8 finish  u8 symmetries
    u16 0, then for each level (complements with 32 pegs down to 1): u64 keys, u64 split,
    u32 CRC-32 of the level's bytes, u32 0; then u32 CRC-32 of every header byte before it;
    then the levels' keys, u32 each, level after level in the same order.

The daemon (``reedboard run``) opens the set at start-up, or builds it in a process of its own
(``python -m reedboard.referee.solved build FINISH``) so the board's loop never waits for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from reedboard.engine import Move, Position
from reedboard.engine.solitaire import solver as solver
from reedboard.errors import ControllerError
from reedboard.hardware.lights import Colour, Light
from reedboard.referee.leds import ends

if TYPE_CHECKING:
    from reedboard.engine.solitaire.solver import Level, WinningSet
    from reedboard.store.games import GameRecord

FORMAT_VERSION = 2
"""2: levels from 32 pegs down (1, never released, held them from 1 peg up)."""
MAGIC = b"RBSOLWIN"
LEVELS = range(32, 0, -1)
"""The levels a file holds, in its order: complements with 32 pegs down to 1."""
_HEAD = struct.Struct("<8sHHBBH")
_ENTRY = struct.Struct("<QQII")
_CRC = struct.Struct("<I")
HEADER_SIZE = _HEAD.size + _ENTRY.size * len(LEVELS) + _CRC.size

SOLVER_ENV = "REEDBOARD_SOLITAIRE_SOLVER"
"""``off``: the daemon neither opens nor builds a winning set (a board with little memory);
hints then fall back to a bounded search."""


class CacheError(ControllerError):
    """A winning-set file that cannot be used as it is (missing, damaged, another version):
    the message names the file and what is wrong; it is built again."""


def cache_dir() -> Path:
    """The user's cache folder for reedboard (XDG base directories)."""
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "reedboard"


def cache_path(finish: int, folder: Path | None = None) -> Path:
    return (folder or cache_dir()) / f"solitaire-winning-{finish}.bin"


# -- the file ---------------------------------------------------------------------------------


def write(
    path: Path, finish: int, levels: Mapping[int, Level] | Iterable[tuple[int, Level]]
) -> None:
    """Write a winning set's levels to ``path`` atomically (a temporary file beside it,
    synced, then renamed over it). ``levels`` may come one at a time, 32 pegs first, as
    :func:`reedboard.engine.solitaire.solver.iter_finish_levels` makes them: each is written as it
    comes and let go; a level that never comes is empty."""
    np = solver.require_numpy()
    group = solver.symmetries_fixing(finish)
    items = sorted(levels.items(), reverse=True) if isinstance(levels, Mapping) else levels
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(bytes(HEADER_SIZE))  # the header, once the levels are known
            entries: dict[int, bytes] = {}
            for pegs, (lows, split) in items:
                if pegs not in LEVELS or pegs >= min(entries, default=33):
                    raise ValueError(f"winning set level {pegs} out of order")
                for gap in range(min(entries, default=33) - 1, pegs, -1):
                    entries[gap] = _ENTRY.pack(0, 0, zlib.crc32(b""), 0)
                data = np.ascontiguousarray(lows, dtype="<u4")
                out.write(data.tobytes())
                entries[pegs] = _ENTRY.pack(len(data), split, zlib.crc32(data), 0)
            for gap in range(min(entries, default=33) - 1, 0, -1):
                entries[gap] = _ENTRY.pack(0, 0, zlib.crc32(b""), 0)
            head = _HEAD.pack(MAGIC, FORMAT_VERSION, solver.KEY_FORMAT, finish, len(group), 0)
            head += b"".join(entries[pegs] for pegs in LEVELS)
            head += _CRC.pack(zlib.crc32(head))
            out.seek(0)
            out.write(head)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself made durable where the OS allows
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


@dataclass(frozen=True)
class Stored:
    """A winning-set file opened and checked: its levels, mapped from the file."""

    path: Path
    finish: int
    levels: dict[int, Level]

    def level(self, pegs: int) -> Level:
        return self.levels[pegs]


def load(path: Path, finish: int) -> Stored:
    """Open and check a winning-set file; :class:`CacheError` says what is wrong with it."""
    np = solver.require_numpy()
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
        size = path.stat().st_size
    except FileNotFoundError:
        raise CacheError(f"{path}: not built yet") from None
    except OSError as exc:
        raise CacheError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise CacheError(f"{path}: not a reedboard winning-set file")
    (crc,) = _CRC.unpack_from(head, HEADER_SIZE - _CRC.size)
    if zlib.crc32(head[: -_CRC.size]) != crc:
        raise CacheError(f"{path}: damaged header (checksum)")
    _magic, version, key_format, file_finish, symmetries, _ = _HEAD.unpack_from(head)
    if version != FORMAT_VERSION or key_format != solver.KEY_FORMAT:
        raise CacheError(
            f"{path}: format {version}.{key_format}, this reedboard reads"
            f" {FORMAT_VERSION}.{solver.KEY_FORMAT}"
        )
    if file_finish != finish or symmetries != len(solver.symmetries_fixing(finish)):
        raise CacheError(f"{path}: holds finish {file_finish}, not {finish}")
    entries = [_ENTRY.unpack_from(head, _HEAD.size + i * _ENTRY.size) for i in range(len(LEVELS))]
    total = sum(e[0] for e in entries)
    if total == 0:  # the start itself is always there
        raise CacheError(f"{path}: holds no positions")
    if size != HEADER_SIZE + 4 * total:
        raise CacheError(f"{path}: {size} bytes, the header says {HEADER_SIZE + 4 * total}")
    data = np.memmap(path, dtype="<u4", mode="r", offset=HEADER_SIZE, shape=(total,))
    levels: dict[int, Level] = {}
    at = 0
    for pegs, (count, split, crc, _) in zip(LEVELS, entries, strict=True):
        lows = data[at : at + count]
        at += count
        if split > count or zlib.crc32(lows) != crc:
            raise CacheError(f"{path}: level {pegs} is damaged (checksum)")
        levels[pegs] = (lows, split)
    start = solver.lookup_level(
        np.array([solver.start_key(finish, solver.symmetries_fixing(finish))], np.uint64)
    )
    if levels[32][1] != start[1] or levels[32][0].tolist() != start[0].tolist():
        raise CacheError(f"{path}: does not begin with the start with {finish} empty")
    return Stored(path, finish, levels)


def build(finish: int, folder: Path | None = None, progress: solver.Progress | None = None) -> Path:
    """Compute the winning set for ``finish`` and write it to the cache; its path."""
    path = cache_path(solver.check_hole("finish", finish), folder)
    write(path, finish, solver.iter_finish_levels(finish, progress or (lambda *_: None)))
    return path


def winning_set(
    finish: int,
    folder: Path | None = None,
    *,
    build_missing: bool = False,
    progress: solver.Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> WinningSet | None:
    """The winning set for ``finish`` from the cache; when it cannot be used, built anew if
    ``build_missing`` (saying why through ``say``), else None."""
    path = cache_path(finish, folder)
    try:
        stored = load(path, finish)
    except CacheError as why:
        if not build_missing:
            return None
        if say is not None:
            say(f"building the solitaire winning set for finish {finish} (once): {why}")
        build(finish, folder, progress)
        stored = load(path, finish)
    return solver.WinningSet(finish, stored.level)


def solves(position: Position[Any, Any]) -> bool:
    """Whether the solver answers for this game (the engine says: Peg Solitaire, orthogonal
    jumps)."""
    return solver.solves(position)


def finish_of(options: Any) -> int:
    hole: int = options.finish_hole
    return hole


# -- progress ----------------------------------------------------------------------------------

# Relative work per level (classes in the level a search expands), measured for the centre
# start; other holes' levels grow alike, so the bar moves about evenly in time.
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

WINNABLE: Colour = (0, 200, 200)
"""Cyan: after a jump, the game can still be won. Not a colour of the landings (green), the
hint (amber), the computer's move (blue) or the mismatch guidance (red and white, blinking)."""
LOST: Colour = (200, 0, 200)
"""Magenta: after a jump, the game can no longer be won."""
PULSE_SECONDS = 0.8
"""How long the finish hole shows the verdict after a jump."""


def hint_points(move: Move, position: Position[Any, Any]) -> tuple[str, ...]:
    """What a hint lights: a solitaire jump's from, over and to; another game's move's ends."""
    return solver.jump_points(position, move) or ends(move)


class Verdicts:
    """The board's word on a Solitaire game after each committed jump: a short pulse of the
    finish hole (:data:`WINNABLE` or :data:`LOST`), and the jump that lost a winnable game
    named. Silent until a winning set is given (the daemon opens or builds it)."""

    def __init__(self) -> None:
        self.winning: WinningSet | None = None
        self._until: float | None = None
        self._light: tuple[str, Light] | None = None

    def usable(self, position: Position[Any, Any]) -> WinningSet | None:
        ws = self.winning
        if ws is None or not solves(position) or finish_of(position.options) != ws.finish:
            return None
        return ws

    def jumped(
        self, before: Position[Any, Any], after: Position[Any, Any], move: Move, now: float
    ) -> str | None:
        """Judge a committed jump: start the pulse; the alert text if it lost the game."""
        ws = self.usable(after)
        if ws is None or before.game_id != after.game_id:
            return None
        was, now_ok = ws.can_win_boards(
            [solver.bits_of(p.holes_of("o")) for p in (before, after)]  # type: ignore[attr-defined]
        )
        self._until = now + PULSE_SECONDS
        self._light = (str(ws.finish), Light(WINNABLE if now_ok else LOST))
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


def lost_plies(record: GameRecord, ws: WinningSet) -> dict[int, str]:
    """A stored game's jump that lost it (ply from 1: note), if it was winnable before."""
    position = record.start_position()
    if not solves(position) or finish_of(position.options) != ws.finish:
        return {}
    boards = [solver.bits_of(position.holes_of("o"))]  # type: ignore[attr-defined]
    for text in record.moves:
        position.push_text(text)
        boards.append(solver.bits_of(position.holes_of("o")))  # type: ignore[attr-defined]
    ok = ws.can_win_boards(boards)
    for ply in range(1, len(boards)):
        if ok[ply - 1] and not ok[ply]:
            return {ply: "lost: no win after it"}
    return {}


# -- the daemon's background build ---------------------------------------------------------------

BUILD_COMMAND: list[str] = [sys.executable, "-m", "reedboard.referee.solved", "build"]
"""How the daemon builds a missing set: this, then the finish hole and ``--folder DIR``."""


async def prepare(
    position: Position[Any, Any], say: Callable[[str], None], folder: Path | None = None
) -> WinningSet | None:
    """Open the winning set the game needs, building it in a process of its own if missing
    (said through ``say``); None where the solver does not apply or cannot run."""
    if os.environ.get(SOLVER_ENV, "").lower() in ("off", "0", "no", "false"):
        return None
    if not solves(position):
        return None
    try:
        solver.require_numpy()
    except solver.SolverUnavailableError as exc:
        say(f"solitaire hints are a bounded search: {exc}")
        return None
    finish = finish_of(position.options)
    path = cache_path(finish, folder)
    try:
        stored = await asyncio.to_thread(load, path, finish)
    except CacheError as why:
        seconds = await asyncio.to_thread(estimate_seconds)
        say(f"building the solitaire winning set (once, ~{seconds:.0f} s): {why}")
        started = time.monotonic()
        command = [*BUILD_COMMAND, str(finish), "--folder", str(path.parent)]
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
            say(f"building the solitaire winning set failed: {last}")
            return None
        try:
            stored = await asyncio.to_thread(load, path, finish)
        except CacheError as again:
            say(f"building the solitaire winning set failed: {again}")
            return None
        say(f"solitaire winning set built in {time.monotonic() - started:.0f} s")
    return solver.WinningSet(finish, stored.level)


def estimate_seconds() -> float:
    """About how long building the centre's winning set takes here: the search's first
    levels timed (a quarter of a second on the development machine), scaled by their share
    of the whole."""
    started = time.perf_counter()
    solver.reachable_levels(17, solver.SYMMETRIES, down_to=20)
    return (time.perf_counter() - started) * WHOLE_PER_FIRST_LEVELS


WHOLE_PER_FIRST_LEVELS = 45.0
"""The whole search from the centre over its levels down to 20 pegs, in time, measured on the
development machine (40-48)."""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reedboard.referee.solved build FINISH [--folder DIR]``: what the daemon runs."""
    parser = argparse.ArgumentParser(prog="python -m reedboard.referee.solved")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="build the winning set for a finish hole into the cache")
    p.add_argument("finish", type=int)
    p.add_argument("--folder", type=Path, help="the cache folder (default: the user's)")
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):
        os.nice(10)  # the board's own process comes first
    try:
        path = build(args.finish, args.folder)
    except (solver.SolverError, solver.SolverUnavailableError, OSError, ValueError) as exc:
        print(f"reedboard: error: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
