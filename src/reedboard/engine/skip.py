"""Skip (docs/rules.md §4, seed 004): 8x8, men move diagonally, capture by moving onto a man.

Squares are named like chess (``a1`` bottom left). Red's men start on row 1 (the green row),
blue's on row 8 (the yellow row). The side yellow squares are columns a and h, rows 2-7.

Text form: the rows from 8 down to 1, 8 characters each, joined by ``/``, a space, and who
moves (``r`` or ``b``): ``r`` / ``b`` a man that has not reached the far row, ``R`` / ``B``
one that has (it may move backwards too), ``.`` empty. Start:
``bbbbbbbb/......../......../......../......../......../......../rrrrrrrr r``.
Moves: ``c3-d4`` a step, ``c3xd4xe5`` captures (each step lands on the man it takes).
"""

from __future__ import annotations

import enum
import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from reedboard.engine.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
from reedboard.engine.position import Move, Position
from reedboard.engine.registry import register

FILES = "abcdefgh"
SQUARES: tuple[str, ...] = tuple(f"{f}{r}" for r in range(1, 9) for f in FILES)
_MEN = {"red": "rR", "blue": "bB"}
"""Each side's man and crowned man (one that reached the far row)."""
SIDE_SQUARES: frozenset[str] = frozenset(f"{f}{r}" for f in "ah" for r in range(2, 8))
"""The side yellow squares: a man there cannot be taken."""


_INDEX = {square: i for i, square in enumerate(SQUARES)}
_index = _INDEX.__getitem__
"""A square's index in the cells (a1 0, b1 1, … h8 63)."""


def _square(x: int, y: int) -> str | None:
    return f"{FILES[x]}{y + 1}" if 0 <= x < 8 and 0 <= y < 8 else None


@dataclass(frozen=True, slots=True)
class SkipMove(Move):
    path: tuple[str, ...]
    capture: bool

    def __str__(self) -> str:
        return ("x" if self.capture else "-").join(self.path)

    def points(self) -> tuple[str, ...]:
        return self.path


class SideSquares(enum.Enum):
    """How the sheet's "the player must move his men on the yellow squares if he has no other
    move" is read (docs/rules.md §4)."""

    LAST_RESORT = "last-resort"
    """A restriction: men on the side squares may only move when no other man can."""
    FREE = "free"
    """The plain duty not to pass: they move like any man."""


@dataclass(frozen=True)
class SkipOptions:
    max_captures: int = 2
    """Captures one man may make in a turn (the sheet: 2, "the players may alter this")."""
    side_limit: int = 3
    """Men of one colour that may stand on the side yellow squares at once."""
    side_squares: SideSquares = SideSquares.LAST_RESORT
    """``last-resort``: men on the side squares move only when no other man can; ``free``:
    they move like any man."""

    def __post_init__(self) -> None:
        if self.max_captures < 1:
            raise InvalidOptionError(f"max_captures: {self.max_captures} must be 1 or more")
        if not 0 <= self.side_limit <= 12:
            raise InvalidOptionError(f"side_limit: {self.side_limit} is outside 0-12")


_MOVE = re.compile(r"^[a-h][1-8](?:-[a-h][1-8]|(?:x[a-h][1-8])+)$")


@dataclass(frozen=True, slots=True)
class SkipState:
    """A snapshot of a Skip position: the 64 squares a1 to h8 and who moves."""

    cells: str
    turn: int


@register
class Skip(Position[SkipMove, SkipState]):
    """Red (row 1) against blue (row 8); red moves first."""

    game_id = "skip"
    title = "Skip"
    sides = ("red", "blue")
    Options: ClassVar[type[Any]] = SkipOptions
    turn_chars = "rb"
    men_to_win = 3
    """A side reduced to this many men (or fewer) has lost."""

    def __init__(self, options: Any, cells: str, turn: int) -> None:
        super().__init__(options)
        self.cells = list(cells)
        self._turn = turn
        self._occupied: tuple[str, frozenset[str]] = ("", frozenset())

    @classmethod
    def _start(cls, options: Any) -> Self:
        return cls(options, "r" * 8 + "." * 48 + "b" * 8, 0)

    @property
    def turn(self) -> str:
        return self.sides[self._turn]

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        rows = ["".join(self.cells[r * 8 : r * 8 + 8]) for r in range(7, -1, -1)]
        return "/".join(rows) + " " + self.turn_chars[self._turn]

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        parts = text.split()
        rows = parts[0].split("/") if parts else []
        if len(parts) != 2 or len(rows) != 8 or any(len(r) != 8 for r in rows):
            raise InvalidPositionError(
                f"bad skip position {text!r}: expected 8 rows of 8 squares joined by '/',"
                " a space and who moves (r or b)"
            )
        cells = "".join(reversed(rows))
        for i, ch in enumerate(cells):
            if ch not in "rRbB.":
                raise InvalidPositionError(
                    f"bad skip position {text!r}: {SQUARES[i]} holds {ch!r}; use r R b B or ."
                )
        if parts[1] not in cls.turn_chars:
            raise InvalidPositionError(f"bad skip position {text!r}: who moves must be r or b")
        position = cls(options, cells, cls.turn_chars.index(parts[1]))
        why = position._inconsistency()
        if why:
            raise InvalidPositionError(f"bad skip position {text!r}: {why}")
        return position

    def _inconsistency(self) -> str:
        """What makes this board one the game cannot reach, or ``""``."""
        for side, other in (("red", "blue"), ("blue", "red")):
            men = self.men(side)
            if len(men) > 8:
                return f"{len(men)} {side} men, a side has 8"
            far = "8" if side == "red" else "1"
            plain = _MEN[side][0]
            for square in men:
                if square[1] == far and self.cells[_index(square)] == plain:
                    return f"the {side} man on {square} reached the far row: write {plain.upper()}"
            on_side = [s for s in men if s in SIDE_SQUARES]
            if len(on_side) > self.options.side_limit:
                return (
                    f"{len(on_side)} {side} men on the side squares ({' '.join(on_side)}),"
                    f" at most {self.options.side_limit} (option side_limit)"
                )
            if len(men) <= self.men_to_win:
                if self.count_men(other) <= self.men_to_win:
                    return "both sides are down to 3 men: the game ended with the first"
                if self.turn != side:
                    return (
                        f"{side} has {len(men)} men left: the game ended on {other}'s move,"
                        f" so {side} is to move"
                    )
        return ""

    def parse_move(self, text: str) -> SkipMove:
        t = text.strip()
        if not _MOVE.match(t):
            raise InvalidMoveError(
                f"bad skip move {text!r}: expected squares joined by '-' (a step) or 'x'"
                " (captures), like c3-d4 or c3xd4xe5"
            )
        capture = "x" in t
        return SkipMove(tuple(re.split("[-x]", t)), capture)

    def occupied(self) -> frozenset[str]:
        key = "".join(self.cells)  # remembered for the state it was read from: recognition
        if key != self._occupied[0]:  # asks once for each legal move (occupied_after)
            self._occupied = (key, frozenset(itertools.compress(SQUARES, map(".".__ne__, key))))
        return self._occupied[1]

    def pieces(self) -> dict[str, str]:
        return {SQUARES[i]: ch for i, ch in enumerate(self.cells) if ch != "."}

    def occupied_after(self, move: SkipMove) -> frozenset[str]:
        path = move.path  # the man leaves his square; the men he takes stood on the stops
        return (self.occupied() - frozenset(path[:-1])) | {path[-1]}

    def men(self, side: str) -> list[str]:
        return list(itertools.compress(SQUARES, map(_MEN[side].__contains__, self.cells)))

    def count_men(self, side: str) -> int:
        letters = _MEN[side]
        return self.cells.count(letters[0]) + self.cells.count(letters[1])

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[SkipMove]:
        if self.outcome_by_men() is not None:
            return []
        side = self.sides[self._turn]
        free = self.options.side_squares is SideSquares.FREE
        inner: list[SkipMove] = []
        outer: list[SkipMove] = []
        for square in self.men(side):
            moves = self._moves_of(square)
            (outer if square in SIDE_SQUARES and not free else inner).extend(moves)
        # last-resort: men on the side squares move only when nothing else can
        return inner or outer

    def _moves_of(self, square: str) -> list[SkipMove]:
        out: list[SkipMove] = []
        piece = self.cells[_index(square)]
        for to in self._diagonals(square, piece):
            target = self.cells[_index(to)]
            if target == "." and self._may_stand(to, square):
                out.append(SkipMove((square, to), False))
        self._captures(square, piece, [square], out)
        return out

    def _captures(self, at: str, piece: str, path: list[str], out: list[SkipMove]) -> None:
        if len(path) - 1 >= self.options.max_captures:
            return
        enemy = "bB" if piece in "rR" else "rR"
        for to in self._diagonals(at, piece):
            i = _index(to)
            if self.cells[i] in enemy and to not in SIDE_SQUARES and to not in path:
                if not self._may_stand(to, path[0]):
                    continue
                taken = self.cells[i]
                self.cells[i] = "."
                path.append(to)
                out.append(SkipMove(tuple(path), True))
                self._captures(to, self._promoted(piece, to), path, out)
                path.pop()
                self.cells[i] = taken

    def _may_stand(self, to: str, leaving: str) -> bool:
        """A side square takes a man only while fewer than side_limit of his colour are there."""
        if to not in SIDE_SQUARES:
            return True
        side = "red" if self.cells[_index(leaving)] in "rR" else "blue"
        there = sum(1 for s in self.men(side) if s in SIDE_SQUARES and s != leaving)
        return bool(there < self.options.side_limit)

    @staticmethod
    @functools.cache
    def _diagonals(square: str, piece: str) -> tuple[str, ...]:
        x, y = FILES.index(square[0]), int(square[1]) - 1
        ahead = 1 if piece in "rR" else -1
        dys = (1, -1) if piece in "RB" else (ahead,)
        return tuple(
            s for dy in dys for dx in (-1, 1) if (s := _square(x + dx, y + dy)) is not None
        )

    @staticmethod
    def _promoted(piece: str, square: str) -> str:
        """A man that reaches the far row may move backwards from then on."""
        if piece == "r" and square[1] == "8":
            return "R"
        if piece == "b" and square[1] == "1":
            return "B"
        return piece

    def _apply(self, move: SkipMove) -> None:
        cells = self.cells
        piece = cells[_index(move.path[0])]
        cells[_index(move.path[0])] = "."
        for square in move.path[1:]:
            piece = self._promoted(piece, square)
        for square in move.path[1:-1]:
            cells[_index(square)] = "."
        cells[_index(move.path[-1])] = piece
        self._turn = 1 - self._turn

    def _save(self) -> SkipState:
        return SkipState("".join(self.cells), self._turn)

    def _restore(self, state: SkipState) -> None:
        self.cells = list(state.cells)
        self._turn = state.turn

    # -- what the controller asks ------------------------------------------------------------

    def physical_steps(self, move: SkipMove) -> PhysicalMove:
        """The man carried square to square; each man taken is lifted off the square the
        taker lands on (a chain may be set down at each landing or carried to its end)."""
        path = move.path
        if not move.capture:
            return PhysicalMove((Carry(path[0], (Hop(path[1]),)),))
        hops = tuple(Hop(square, (Take(square),)) for square in path[1:])
        return PhysicalMove((Carry(path[0], hops, chain=len(hops) > 1),))

    def evaluate(self, side: str) -> float:
        """Men against the other side's (ten points each), then how far ``side``'s men have
        come towards the far row."""
        other = self.sides[1 - self.sides.index(side)]
        far = 8 if side == "red" else 1
        ahead = sum(7 - abs(far - int(square[1])) for square in self.men(side))
        return 10.0 * (self.count_men(side) - self.count_men(other)) + ahead / 100

    # -- the end -----------------------------------------------------------------------------

    def outcome_by_men(self) -> Outcome | None:
        for side, other in (("red", "blue"), ("blue", "red")):
            left = self.count_men(side)
            if left <= self.men_to_win:
                return Outcome(other, Termination.MEN_LEFT, f"{side} has {left} men left")
        return None

    def outcome(self) -> Outcome | None:
        over = self.outcome_by_men()
        if over is not None or self._legal():
            return over
        side, other = self.sides[self._turn], self.sides[1 - self._turn]
        return Outcome(other, Termination.NO_MOVES, f"{side} cannot move")
