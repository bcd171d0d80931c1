"""Peg Solitaire through the engine's hooks for solved games (reedboard/engine/solved.py): its
winning set for a finish hole as a table kept on disk, and ``reedboard analyse solitaire``.

A winning set (:class:`reedboard.engine.solitaire.solver.WinningSet`) is built once per finish
hole; the referee keeps it in the user's cache folder as ``solitaire-winning-17.bin``
(:attr:`WinningTable.stem`). The file, little-endian::

    b"RBSOLWIN"  u16 format version  u16 the engine's key format  u8 finish  u8 symmetries
    u16 0, then for each level (complements with 32 pegs down to 1): u64 keys, u64 split,
    u32 CRC-32 of the level's bytes, u32 0; then u32 CRC-32 of every header byte before it;
    then the levels' keys, u32 each, level after level in the same order.

It is checked whole whenever it is read (:func:`read`): one damaged, cut short or of another
version is refused with what is wrong (:class:`~reedboard.engine.solved.TableFileError`).
"""

from __future__ import annotations

import struct
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import IO, TYPE_CHECKING, Any

from reedboard.engine.cross import Diagonals
from reedboard.engine.errors import SolverError
from reedboard.engine.solitaire import solver as solver
from reedboard.engine.solved import (
    Analysis,
    Progress,
    Report,
    Solution,
    SolvedTable,
    TableFileError,
)

if TYPE_CHECKING:
    from reedboard.engine.solitaire.solver import Level

FORMAT_VERSION = 2
"""2: levels from 32 pegs down (1, never released, held them from 1 peg up)."""
MAGIC = b"RBSOLWIN"
LEVELS = range(32, 0, -1)
"""The levels a file holds, in its order: complements with 32 pegs down to 1."""
_HEAD = struct.Struct("<8sHHBBH")
_ENTRY = struct.Struct("<QQII")
_CRC = struct.Struct("<I")
HEADER_SIZE = _HEAD.size + _ENTRY.size * len(LEVELS) + _CRC.size


# -- the file ---------------------------------------------------------------------------------


def write(
    out: IO[bytes], finish: int, levels: Mapping[int, Level] | Iterable[tuple[int, Level]]
) -> None:
    """Write a winning set's levels to ``out`` (a file, from its start: the header is written
    last, once the levels are known). ``levels`` may come one at a time, 32 pegs first, as
    :func:`reedboard.engine.solitaire.solver.iter_finish_levels` makes them: each is written as
    it comes and let go; a level that never comes is empty."""
    np = solver.require_numpy()
    group = solver.symmetries_fixing(finish)
    items = sorted(levels.items(), reverse=True) if isinstance(levels, Mapping) else levels
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


def read(data: IO[bytes], finish: int) -> dict[int, Level]:
    """A winning-set file's levels, checked whole and mapped from the file (which may be
    closed after); :class:`TableFileError` says what is wrong."""
    np = solver.require_numpy()
    data.seek(0)
    head = data.read(HEADER_SIZE)
    size = data.seek(0, 2)
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise TableFileError("not a reedboard winning-set file")
    (crc,) = _CRC.unpack_from(head, HEADER_SIZE - _CRC.size)
    if zlib.crc32(head[: -_CRC.size]) != crc:
        raise TableFileError("damaged header (checksum)")
    _magic, version, key_format, file_finish, symmetries, _ = _HEAD.unpack_from(head)
    if version != FORMAT_VERSION or key_format != solver.KEY_FORMAT:
        raise TableFileError(
            f"format {version}.{key_format}, this reedboard reads"
            f" {FORMAT_VERSION}.{solver.KEY_FORMAT}"
        )
    if file_finish != finish or symmetries != len(solver.symmetries_fixing(finish)):
        raise TableFileError(f"holds finish {file_finish}, not {finish}")
    entries = [_ENTRY.unpack_from(head, _HEAD.size + i * _ENTRY.size) for i in range(len(LEVELS))]
    total = sum(e[0] for e in entries)
    if total == 0:  # the start itself is always there
        raise TableFileError("holds no positions")
    if size != HEADER_SIZE + 4 * total:
        raise TableFileError(f"{size} bytes, the header says {HEADER_SIZE + 4 * total}")
    keys = np.memmap(data, dtype="<u4", mode="r", offset=HEADER_SIZE, shape=(total,))
    levels: dict[int, Level] = {}
    at = 0
    for pegs, (count, split, crc, _) in zip(LEVELS, entries, strict=True):
        lows = keys[at : at + count]
        at += count
        if split > count or zlib.crc32(lows) != crc:
            raise TableFileError(f"level {pegs} is damaged (checksum)")
        levels[pegs] = (lows, split)
    start = solver.lookup_level(
        np.array([solver.start_key(finish, solver.symmetries_fixing(finish))], np.uint64)
    )
    if levels[32][1] != start[1] or levels[32][0].tolist() != start[0].tolist():
        raise TableFileError(f"does not begin with the start with {finish} empty")
    return levels


# -- the hooks --------------------------------------------------------------------------------


class Winning(solver.WinningSet, Solution):
    """A winning set read from its table: the board's verdicts and hints."""

    def __init__(self, finish: int, levels: dict[int, Level]) -> None:
        super().__init__(finish, levels.__getitem__)
        self.levels = levels

    @property
    def table(self) -> WinningTable:
        return WinningTable(self.finish)

    def answers(self, position: Any) -> bool:
        """Peg Solitaire with orthogonal jumps, finishing on this set's hole."""
        return (
            getattr(position, "game_id", None) == solver.GAME
            and position.options.diagonals is Diagonals.NONE
            and position.options.finish_hole == self.finish
        )

    def winnable(self, positions: Sequence[Any]) -> list[bool]:
        return self.can_win_boards([solver.bits_of(p.holes_of("o")) for p in positions])

    def best_moves(self, position: Any) -> list[Any]:
        return self.winning_moves(position)


class WinningTable(SolvedTable):
    """The winning set for a finish hole, as a table kept on disk."""

    game_id = solver.GAME
    what = "winning set"
    phases = (("reachable", 1.0),)

    def __init__(self, finish: int) -> None:
        self.finish = solver.check_hole("finish", finish)
        self.variant = f"finish {finish}"
        self.stem = f"{solver.GAME}-winning-{finish}"
        self.verdict_point = str(finish)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WinningTable) and other.finish == self.finish

    def __hash__(self) -> int:
        return hash(self.stem)

    def require(self) -> None:
        solver.require_numpy()

    def write(self, out: IO[bytes], progress: Progress | None = None) -> None:
        levels = solver.iter_finish_levels(self.finish, progress or (lambda *_: None))
        write(out, self.finish, levels)

    def read(self, data: IO[bytes]) -> Winning:
        return Winning(self.finish, read(data, self.finish))

    def estimate_seconds(self) -> float:
        """About how long building the centre's winning set takes here: the search's first
        levels timed (a quarter of a second on the development machine), scaled by their
        share of the whole."""
        started = time.perf_counter()
        solver.reachable_levels(17, solver.SYMMETRIES, down_to=20)
        return (time.perf_counter() - started) * WHOLE_PER_FIRST_LEVELS


WHOLE_PER_FIRST_LEVELS = 45.0
"""The whole search from the centre over its levels down to 20 pegs, in time, measured on the
development machine (40-48)."""


class Counting(Analysis):
    """``reedboard analyse solitaire``: the four counts (:func:`solver.analyse_from`), from the
    start or from a position; from a start that is also the finish, the winning set is kept
    too."""

    def run(
        self,
        options: Mapping[str, object],
        position: str | None,
        budget: float | None,
        report: Report,
    ) -> list[str]:
        chosen = self.game.options_from(options)
        if chosen.diagonals is not Diagonals.NONE:
            raise SolverError(
                "analyse: the Peg Solitaire solver plays orthogonal jumps only (diagonals=none),"
                f" not diagonals={chosen.diagonals.value}"
            )
        solver.require_numpy()
        start, finish = chosen.start, chosen.finish_hole
        if position is not None:  # from a position of one's own: no cache is written
            given = self.game.from_text(position, **options)
            board = solver.bits_of(given.holes_of("o"))
            if not board:
                raise SolverError(f"analyse: position {position!r} has no pegs")
            group = solver.symmetries_keeping(board, finish)
            where = f"position {given.to_text()!r}"
        else:
            board = solver.FULL ^ solver.HOLE_BIT[start]
            group = solver.symmetries_fixing(start, finish)
            where = f"the start with {start} empty"
        report.say(
            f"{solver.GAME} from {where} to one peg on {finish}: positions equal under"
            f" the {len(group)} symmetries that keep both in place count once"
        )

        def keep(reach: Any, _group: Any) -> None:  # the search from the finish: the hints'
            report.keep(  # table
                WinningTable(finish), lambda out: write(out, finish, solver.lookup_levels(reach))
            )

        cache = position is None and start == finish  # the search from the finish itself
        phases = (("reachable", 0.92), ("winning", 0.08))
        shown: AbstractContextManager[Progress] = report.progress(phases)
        with shown as progress:
            counts = solver.analyse_from(board, finish, progress, keep if cache else None)
        return [
            f"reachable: {counts.reachable}",
            f"winning: {counts.winning}",
            f"solutions: {counts.solutions}",
            f"sequences: {counts.sequences}",
        ]
