"""The 33-hole cross board as a graph, its moves, and the text form its games share.

The board is data: the 7x7 mask below, read once per line pattern into neighbour and jump
tables. Holes are numbered row by row, top to bottom, left to right (docs/rules.md §1)::

            1  2  3
            4  5  6
      7  8  9 10 11 12 13
     14 15 16 17 18 19 20
     21 22 23 24 25 26 27
           28 29 30
           31 32 33
"""

from __future__ import annotations

import enum
import functools
import itertools
import re
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from reedboard.engine.errors import InvalidMoveError, InvalidPositionError
from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
from reedboard.engine.position import Move, Position

MASK = (
    "..###..",
    "..###..",
    "#######",
    "#######",
    "#######",
    "..###..",
    "..###..",
)

HOLES = range(1, 34)
"""The hole numbers, 1..33."""

EMPTY = ord(".")

_NAMES = tuple(str(h) for h in range(34))
"""Each cell's point id (cell 0 is no hole and always empty)."""
_FILLED = bytes.maketrans(b".", b"\0")
"""Translates cells to a mask, empty 0 and a piece non-zero, for itertools.compress."""

ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


class Diagonals(enum.Enum):
    """Which diagonal lines the board has."""

    ALTERNATE = "alternate"
    """Through the holes whose row+col is even, as on Alquerque boards (Fox and Geese)."""
    ALL = "all"
    """Through every hole."""
    NONE = "none"
    """None: orthogonal lines only (Solitaire)."""


@dataclass(frozen=True, slots=True)
class Cross33Board:
    """The board's graph for one line pattern. Tables are indexed by hole (index 0 unused)."""

    diagonals: Diagonals
    coords: tuple[tuple[int, int], ...]
    """(row, col) of each hole; hole 1 is (0, 2), hole 17 is (3, 3)."""
    steps: tuple[tuple[int, ...], ...]
    """The holes joined to each hole by a line."""
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    """(over, land) for each jump from a hole: over the next hole on a line, to the one beyond."""
    over: dict[tuple[int, int], int]
    """The hole jumped over by a jump from one hole to another."""

    def hole_at(self, row: int, col: int) -> int | None:
        return _HOLE_AT.get((row, col))


_COORDS: tuple[tuple[int, int], ...] = (
    (-1, -1),  # no hole 0
    *((r, c) for r, line in enumerate(MASK) for c, ch in enumerate(line) if ch == "#"),
)
_HOLE_AT: dict[tuple[int, int], int] = {rc: h for h, rc in enumerate(_COORDS) if h}


def _has_line(hole: int, d: tuple[int, int], diagonals: Diagonals) -> bool:
    r, c = _COORDS[hole]
    if (r + d[0], c + d[1]) not in _HOLE_AT:
        return False
    if d in ORTHOGONAL:
        return True
    if diagonals is Diagonals.ALL:
        return True
    return diagonals is Diagonals.ALTERNATE and (r + c) % 2 == 0


@functools.cache
def cross33(diagonals: Diagonals = Diagonals.ALTERNATE) -> Cross33Board:
    """The board with the given diagonal lines (built once, then shared)."""
    steps: list[tuple[int, ...]] = [()]
    jumps: list[tuple[tuple[int, int], ...]] = [()]
    over: dict[tuple[int, int], int] = {}
    for hole in HOLES:
        r, c = _COORDS[hole]
        near: list[int] = []
        far: list[tuple[int, int]] = []
        for d in ORTHOGONAL + DIAGONAL:
            if not _has_line(hole, d, diagonals):
                continue
            mid = _HOLE_AT[(r + d[0], c + d[1])]
            near.append(mid)
            if _has_line(mid, d, diagonals):
                land = _HOLE_AT[(r + 2 * d[0], c + 2 * d[1])]
                far.append((mid, land))
                over[(hole, land)] = mid
        steps.append(tuple(near))
        jumps.append(tuple(far))
    return Cross33Board(diagonals, _COORDS, tuple(steps), tuple(jumps), over)


_TARGET_CACHE: dict[tuple[Diagonals, tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}


def forward_targets(diagonals: Diagonals, sideways: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per hole, where a goose of McLoughlin's game may step: along a line towards row 0, or
    sideways along its row from the sideways points."""
    key = (diagonals, sideways)
    if key not in _TARGET_CACHE:
        board = cross33(diagonals)
        table: list[tuple[int, ...]] = [()]
        for hole in HOLES:
            row = board.coords[hole][0]
            table.append(
                tuple(
                    to
                    for to in board.steps[hole]
                    if board.coords[to][0] < row
                    or (hole in sideways and board.coords[to][0] == row)
                )
            )
        _TARGET_CACHE[key] = tuple(table)
    return _TARGET_CACHE[key]


@dataclass(frozen=True, slots=True)
class CrossMove(Move):
    """A move on the cross board: a step ``9-10`` or a jump chain ``9x25x11``.

    ``path`` holds every hole the piece stands on, first to last; a chain is one move.
    """

    path: tuple[int, ...]
    jump: bool

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    def __str__(self) -> str:
        return ("x" if self.jump else "-").join(map(str, self.path))

    def points(self) -> tuple[str, ...]:
        return tuple(map(_NAMES.__getitem__, self.path))


STEPS: tuple[tuple[CrossMove, ...], ...] = tuple(
    tuple(CrossMove((a, b), jump=False) for b in range(34)) for a in range(34)
)
"""``STEPS[a][b]`` is the step ``a-b`` (made once: moves are values, generators share them)."""

_MOVE = re.compile(r"^[0-9]{1,2}(?:(-)[0-9]{1,2}|(?:x[0-9]{1,2})+)$")


def parse_cross_move(text: str, game_id: str, *, dash_is_jump: bool = False) -> CrossMove:
    """``9-10`` (a step, or with ``dash_is_jump`` a single jump) or ``9x25x11`` (a jump chain)."""
    t = text.strip()
    m = _MOVE.match(t)
    if not m:
        raise InvalidMoveError(
            f"bad {game_id} move {text!r}: expected holes joined by '-' (step) or 'x' (jumps),"
            " like 9-10 or 9x25x11"
        )
    path = tuple(int(p) for p in re.split("[-x]", t))
    for hole in path:
        if hole not in HOLES:
            raise InvalidMoveError(f"bad {game_id} move {text!r}: there is no hole {hole} (1-33)")
    return CrossMove(path, jump=dash_is_jump or m.group(1) is None)


@dataclass(frozen=True, slots=True)
class CrossState:
    """A snapshot of a cross-board position: the cells (index 1..33, one byte a hole) and the
    index of the side to move."""

    cells: bytes
    turn: int


class Cross33Position(Position[CrossMove, CrossState]):
    """What the three cross-board games share: 33 cells, a turn, the text form.

    Text form: one character per hole in order 1..33, a space, the side to move
    (``......GGF.FGGGGGGGGGGGGGGGGGGGGGG F``).
    """

    piece_chars: ClassVar[str]
    """The piece characters this game uses (besides ``.``)."""
    turn_chars: ClassVar[str]
    """One character per side in :attr:`sides`, as in the text form."""

    board: Cross33Board
    cells: bytearray
    """Index 1..33: the piece character's code on each hole (``.`` empty)."""
    _turn: int

    def __init__(self, options: Any, cells: bytes, turn: int) -> None:
        super().__init__(options)
        self.board = cross33(options.diagonals)
        self.cells = bytearray(cells)
        self._turn = turn
        self._occupied: tuple[bytes, frozenset[str]] = (b"", frozenset())

    @property
    def turn(self) -> str:
        return self.sides[self._turn]

    def to_text(self) -> str:
        return self.cells[1:].decode("ascii") + " " + self.turn_chars[self._turn]

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        t = text.strip()
        parts = t.split()
        if len(parts) != 2 or len(parts[0]) != 33 or len(parts[1]) != 1:
            raise InvalidPositionError(
                f"bad {cls.game_id} position {text!r}: expected 33 hole characters, a space"
                f" and the side to move ({'/'.join(cls.turn_chars)})"
            )
        holes, turn = parts
        for i, ch in enumerate(holes, start=1):
            if ch != "." and ch not in cls.piece_chars:
                raise InvalidPositionError(
                    f"bad {cls.game_id} position {text!r}: hole {i} holds {ch!r};"
                    f" use {', '.join(repr(p) for p in cls.piece_chars)} or '.'"
                )
        if turn not in cls.turn_chars:
            raise InvalidPositionError(
                f"bad {cls.game_id} position {text!r}: side to move {turn!r} is not"
                f" {' or '.join(repr(c) for c in cls.turn_chars)}"
            )
        position = cls(options, b"." + holes.encode("ascii"), cls.turn_chars.index(turn))
        position._check(text)
        return position

    def _check(self, text: str) -> None:
        """Reject texts with piece counts the game cannot reach (hook; default accepts all)."""

    def parse_move(self, text: str) -> CrossMove:
        return parse_cross_move(text, self.game_id)

    def occupied(self) -> frozenset[str]:
        key = bytes(self.cells)  # remembered for the state it was read from: recognition
        if key != self._occupied[0]:  # asks once for each legal move (occupied_after)
            self._occupied = (key, frozenset(itertools.compress(_NAMES, key.translate(_FILLED))))
        return self._occupied[1]

    def pieces(self) -> dict[str, str]:
        cells = self.cells
        return {str(h): chr(cells[h]) for h in HOLES if cells[h] != EMPTY}

    def occupied_after(self, move: CrossMove) -> frozenset[str]:
        gone = {str(move.start)}
        if move.jump:
            over = self.board.over
            gone.update(str(over[(a, b)]) for a, b in itertools.pairwise(move.path))
        return (self.occupied() - gone) | {str(move.end)}

    def count(self, piece: str) -> int:
        """How many holes hold ``piece``."""
        return self.cells.count(ord(piece), 1)  # cell 0 is not a hole

    def holes_of(self, piece: str) -> list[int]:
        code = ord(piece)
        cells = self.cells
        return [h for h in HOLES if cells[h] == code]

    def _save(self) -> CrossState:
        return CrossState(bytes(self.cells), self._turn)

    def _restore(self, state: CrossState) -> None:
        self.cells = bytearray(state.cells)
        self._turn = state.turn

    def physical_steps(self, move: CrossMove) -> PhysicalMove:
        """A step: the piece lifted and set down. A jump: each piece jumped over taken off; a
        chain may be set down at each landing or carried straight to its end."""
        path = [_NAMES[h] for h in move.path]
        if not move.jump:
            return PhysicalMove((Carry(path[0], (Hop(path[1]),)),))
        over = self.board.over
        hops = tuple(
            Hop(_NAMES[b], (Take(_NAMES[over[(a, b)]]),)) for a, b in itertools.pairwise(move.path)
        )
        return PhysicalMove((Carry(path[0], hops, chain=len(hops) > 1),))

    def _apply(self, move: CrossMove) -> None:
        """Move the piece along the path, removing every piece jumped over; pass the turn."""
        cells = self.cells
        path = move.path
        piece = cells[path[0]]
        cells[path[0]] = EMPTY
        if move.jump:
            over = self.board.over
            for a, b in itertools.pairwise(path):
                cells[over[(a, b)]] = EMPTY
        cells[path[-1]] = piece
        self._turn = (self._turn + 1) % len(self.sides)

    @abstractmethod
    def _generate_moves(self) -> list[CrossMove]: ...
