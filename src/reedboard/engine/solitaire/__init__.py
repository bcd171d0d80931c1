"""Peg Solitaire on the cross board (docs/rules.md §1c, seed 001)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from reedboard.engine.cross import (
    EMPTY,
    HOLES,
    Cross33Position,
    CrossMove,
    Diagonals,
    parse_cross_move,
)
from reedboard.engine.errors import InvalidOptionError, InvalidPositionError
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.registry import register

if TYPE_CHECKING:
    from reedboard.engine.solved import Analysis, SolvedTable

PEG = ord("o")
SEED_KEY: tuple[str, ...] = tuple(
    "5-17 12-10 3-11 1-3 18-6 3-11 30-18 27-25 13-27 24-26 27-25 22-24 31-23 33-31 16-28 "
    "31-23 4-16 7-9 21-7 10-8 7-9 24-22 22-8 8-10 10-12 12-26 26-24 17-15 29-17 18-16 15-17".split()
)
"""The seed sheet's key: 31 jumps from the start with 17 empty, ending on 17."""


@dataclass(frozen=True)
class SolitaireOptions:
    start: int = 17
    """The one empty hole at the start."""
    finish: int | None = None
    """Where the last peg must stand to win; by default the start hole."""
    diagonals: Diagonals = Diagonals.NONE
    """Solitaire jumps orthogonally; ``alternate`` or ``all`` allow diagonal jumps too."""

    def __post_init__(self) -> None:
        for key in ("start", "finish"):
            hole = getattr(self, key)
            if hole is not None and hole not in HOLES:
                raise InvalidOptionError(f"{key}: there is no hole {hole} (1-33)")

    @property
    def finish_hole(self) -> int:
        return self.start if self.finish is None else self.finish


class SolitaireMove(CrossMove):
    """A single jump, written ``from-to`` as in the seed's key (``5-17``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.path[0]}-{self.path[-1]}"


JUMPS: tuple[tuple[SolitaireMove, ...], ...] = tuple(
    tuple(SolitaireMove((a, b), jump=True) for b in range(34)) for a in range(34)
)
"""``JUMPS[a][b]`` is the jump ``a-b`` (made once and shared)."""


@register
class Solitaire(Cross33Position):
    """32 pegs; jump a peg over a neighbour into an empty hole, taking it; end with one peg."""

    game_id = "solitaire"
    title = "Peg Solitaire"
    sides = ("player",)
    turn_chars = "-"
    piece_chars = "o"
    Options = SolitaireOptions

    @classmethod
    def _start(cls, options: Any) -> Self:
        cells = bytearray(b"o" * 34)
        cells[0] = EMPTY
        cells[options.start] = EMPTY
        return cls(options, bytes(cells), 0)

    def _check(self, text: str) -> None:
        """32 pegs at most (the start leaves one hole empty), and at least one: a jump leaves
        a peg. With all 32 no jump is made yet, so the empty hole is the start hole."""
        pegs = self.count("o")
        empty = [h for h in HOLES if self.cells[h] == EMPTY]
        why = ""
        if pegs == 0:
            why = "no peg on the board (a jump always leaves one)"
        elif pegs == 33:
            why = "33 pegs: the game starts with one hole empty"
        elif pegs == 32 and empty != [self.options.start]:
            why = f"32 pegs with hole {empty[0]} empty, but the start hole is {self.options.start}"
            why += " (option start)"
        if why:
            raise InvalidPositionError(f"bad {self.game_id} position {text!r}: {why}")

    def parse_move(self, text: str) -> CrossMove:
        """``5-17`` as in the seed's key; ``5x17`` is accepted too. One jump a move."""
        move = parse_cross_move(text, self.game_id, dash_is_jump=True)
        return SolitaireMove(move.path, jump=True)

    def _generate_moves(self) -> list[CrossMove]:
        cells = self.cells
        jumps = self.board.jumps
        return [
            JUMPS[hole][land]
            for hole in HOLES
            if cells[hole] == PEG
            for over, land in jumps[hole]
            if cells[over] == PEG and cells[land] == EMPTY
        ]

    def evaluate(self, side: str) -> float:
        """How many jumps are open (a position with more ways on is more likely solvable)."""
        return float(len(self._legal()))

    def demo_line(self) -> tuple[str, ...]:
        """The seed's key, from the start with hole 17 empty and 17 to finish on."""
        options = self.options
        if options.start != 17 or options.finish_hole != 17 or options.diagonals != Diagonals.NONE:
            return ()
        return SEED_KEY if self == type(self).start() else ()

    def hint_points(self, move: CrossMove) -> tuple[str, ...]:
        """A jump's from, over and to."""
        path = move.points()
        over = self.board.over.get((int(path[0]), int(path[-1]))) if len(path) == 2 else None
        return super().hint_points(move) if over is None else (path[0], str(over), path[1])

    @classmethod
    def solved_table(cls, options: Any) -> SolvedTable | None:
        """The winning set for the finish hole (reedboard/engine/solitaire/solved.py), with
        orthogonal jumps only (``diagonals=none``, the default)."""
        if options.diagonals is not Diagonals.NONE:
            return None
        from reedboard.engine.solitaire.solved import WinningTable

        return WinningTable(options.finish_hole)

    @classmethod
    def analysis(cls) -> Analysis | None:
        """The four counts, the game solved whole (reedboard/engine/solitaire/solver.py)."""
        from reedboard.engine.solitaire.solved import Counting

        return Counting(cls)

    def outcome(self) -> Outcome | None:
        if self._legal():
            return None
        pegs = self.holes_of("o")
        finish = self.options.finish_hole
        if pegs == [finish]:
            return Outcome("player", Termination.SOLVED, f"one peg left, on {finish}")
        if len(pegs) == 1:
            detail = f"one peg left, on {pegs[0]} not {finish}"
        else:
            detail = f"{len(pegs)} pegs left"
        return Outcome(None, Termination.NO_JUMPS, detail)
