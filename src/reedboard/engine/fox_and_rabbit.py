"""Fox and Rabbit with the Brier Patch (docs/rules.md §2, seed 000), for 2 and 4 players.

Each turn is a throw of two dice (a chance event the caller applies) and then a move: one
die's count in a straight line, the other's at a right angle. Text form (docs/design.md)::

    WR@a1 RF@i1 turn=WR                  a turn's throw awaited
    WR@a1 RF@i1 turn=WR dice=3,4         thrown, not yet moved
    WR@c5 RF@c5 turn=RF escape=WR        the fox took the rabbit; the rabbit's escape throw
    WR@a1 RF@e5 turn=RF extra            the fox's second throw after a first double

``turn=`` names whose turn it is in the rotation; during an escape that stays the capturing
fox, while the escaping rabbit throws and moves (:attr:`FoxAndRabbit.turn` names the rabbit).
A rabbit that failed its escape is off the board and left out of the text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any, ClassVar, Self

from reedboard.engine import dice_solver
from reedboard.engine.brier9 import BRIER_PATCH, HOMES, STARTS, circle_at, is_circle, xy
from reedboard.engine.errors import InvalidMoveError, InvalidPositionError
from reedboard.engine.levels import WIN
from reedboard.engine.marks import Mark, MarkStyle
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
from reedboard.engine.position import Move, Position
from reedboard.engine.registry import register
from reedboard.engine.throw import Throw

RABBITS = ("WR", "BR")
FOXES = ("RF", "GF")
FACES = range(1, 7)
THROWS: tuple[Throw, ...] = tuple(Throw((a, b)) for a, b in product(FACES, FACES))
"""Every throw of the two dice, ``dice=1,1`` to ``dice=6,6``."""


@dataclass(frozen=True, slots=True)
class PieceMove(Move):
    """A piece's move, named by where it lands (passing over is free): ``WR a1-c6``. The
    piece is the side that moves (``WR``)."""

    side: str
    start: str
    to: str

    def __str__(self) -> str:
        return f"{self.side} {self.start}-{self.to}"

    def points(self) -> tuple[str, ...]:
        return (self.start, self.to)


FRMove = Throw | PieceMove


@dataclass(frozen=True)
class FoxAndRabbitOptions:
    escape_to_home: bool = False
    """docs/rules.md: an escape succeeds only on a Brier Patch circle. The seed sheet also lets an
    escaping rabbit land on its own home (and so win); ``true`` plays it that way."""


@dataclass(frozen=True, slots=True)
class FoxAndRabbitState:
    """A snapshot of a Fox and Rabbit position (see :class:`FoxAndRabbit`)."""

    at: tuple[str | None, ...]
    """Where each side's piece stands, in :attr:`FoxAndRabbit.sides` order."""
    turn: int
    dice: tuple[int, ...] | None
    escape: tuple[str, ...]
    extra: bool


_THROW = re.compile(r"^(?:dice=)?([1-6]),([1-6])$")
_MOVE = re.compile(r"^(WR|BR|RF|GF) ([a-i][1-9])-([a-i][1-9])$")


@register
class FoxAndRabbit(Position[FRMove, FoxAndRabbitState]):
    """Red fox against white rabbit on the brier9 board."""

    game_id = "fox-and-rabbit"
    title = "Fox and Rabbit (two players)"
    sides: ClassVar[tuple[str, ...]] = ("WR", "RF")
    """The pieces in play, in turn order (and text order)."""
    Options = FoxAndRabbitOptions
    dice_spec = (2, 6)

    def __init__(
        self,
        options: Any,
        at: dict[str, str | None],
        turn: int,
        dice: tuple[int, ...] | None = None,
        escape: tuple[str, ...] = (),
        extra: bool = False,
    ) -> None:
        super().__init__(options)
        self.at = at
        """Where each piece stands; None for a rabbit taken off for good."""
        self._turn = turn
        self.dice = dice
        """The throw made and not yet moved, or None."""
        self.escape = escape
        """Captured rabbits still to make their escape throw, in turn order."""
        self.extra = extra
        """The fox's next (or current) throw is its second, after a first double."""

    @classmethod
    def _start(cls, options: Any) -> Self:
        return cls(options, {p: STARTS[p] for p in cls.sides}, 0)

    # -- state -------------------------------------------------------------------------------

    @property
    def turn(self) -> str:
        """The piece that throws or moves now (an escaping rabbit during an escape)."""
        return self.escape[0] if self.escape else self.sides[self._turn]

    @property
    def rotation(self) -> str:
        """Whose turn it is in the turn order (the capturing fox during an escape)."""
        return self.sides[self._turn]

    def is_chance(self) -> bool:
        return self.dice is None and self.outcome() is None

    def chance_outcomes(self) -> list[tuple[FRMove, float]]:
        if not self.is_chance():
            return []
        return [(throw, 1 / 36) for throw in THROWS]

    def throw(self, values: tuple[int, ...]) -> FRMove:
        if len(values) != 2 or not all(v in FACES for v in values):
            raise InvalidMoveError(f"bad {self.game_id} throw {values}: two dice, 1 to 6")
        return THROWS[(values[0] - 1) * 6 + values[1] - 1]

    def _save(self) -> FoxAndRabbitState:
        return FoxAndRabbitState(
            tuple(self.at[p] for p in self.sides), self._turn, self.dice, self.escape, self.extra
        )

    def _restore(self, state: FoxAndRabbitState) -> None:
        self.at = dict(zip(self.sides, state.at, strict=True))
        self._turn, self.dice, self.escape, self.extra = (
            state.turn,
            state.dice,
            state.escape,
            state.extra,
        )

    def occupied(self) -> frozenset[str]:
        return frozenset(c for c in self.at.values() if c is not None)

    def pieces(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for piece, circle in self.at.items():
            if circle is not None:
                out[circle] = out.get(circle, "") + piece[0]
        return out

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[FRMove]:
        if self.outcome() is not None:
            return []
        if self.dice is None:
            return list(THROWS)
        return list(self._piece_moves(self.dice))

    def _piece_moves(self, dice: tuple[int, ...]) -> list[PieceMove]:
        piece = self.turn
        start = self.at[piece]
        assert start is not None
        targets: list[str] = []
        if piece in FOXES:
            rabbits_at = {self.at[r] for r in RABBITS if r in self.at}
            targets = [
                c
                for c in right_angle_landings(start, dice)
                if not (c in BRIER_PATCH and c in rabbits_at)
            ]
        else:
            foxes_at = {self.at[f] for f in FOXES if f in self.at}
            home = HOMES[piece]
            landings = right_angle_landings(start, dice)
            # home by exact throw: both dice, or one die alone in a straight line
            reaches_home = home in landings or home in straight_landings(start, dice)
            if self.escape:
                targets = [c for c in landings if c in BRIER_PATCH]
                if self.options.escape_to_home and reaches_home:
                    targets.append(home)
            else:
                targets = landings if home in landings or not reaches_home else [*landings, home]
            targets = [c for c in targets if c not in foxes_at]
        return [PieceMove(piece, start, to) for to in targets]

    def _apply(self, move: FRMove) -> None:
        if isinstance(move, Throw):
            self.dice = move.values
            if not self._piece_moves(move.values):
                self._no_move()
            return
        assert self.dice is not None
        first_double = not self.extra and self.dice[0] == self.dice[1]
        self.at[move.side] = move.to
        self.dice = None
        if self.escape and move.to == HOMES[move.side]:  # escaped home (escape_to_home): won
            self.escape, self.extra = (), False
            return
        if self.escape:  # the rabbit escaped; the next escape, the fox's extra, or next turn
            self.escape = self.escape[1:]
            if not self.escape and not self.extra:
                self._next_turn()
            return
        if move.side in FOXES:
            caught = tuple(r for r in RABBITS if self.at.get(r) == move.to)
            self.extra = first_double
            self.escape = caught
            if not caught and not first_double:
                self._next_turn()
            return
        self._next_turn()

    def _no_move(self) -> None:
        """A throw with no legal move: an escaping rabbit is caught for good, else the turn
        passes (a fox's double it cannot move gives no second throw)."""
        self.dice = None
        if self.escape:
            self.at[self.escape[0]] = None
            self.escape = ()
            self.extra = False
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self._turn = (self._turn + 1) % len(self.sides)
        self.dice = None
        self.extra = False

    # -- the end -----------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        for rabbit in RABBITS:
            if rabbit in self.at:
                where = self.at[rabbit]
                if where == HOMES[rabbit]:
                    return Outcome(rabbit, Termination.RABBIT_HOME, f"{rabbit} reached {where}")
                if where is None:
                    fox = self.rotation
                    return Outcome(fox, Termination.RABBIT_CAUGHT, f"{fox} caught {rabbit}")
        return None

    # -- what the controller asks ------------------------------------------------------------

    def marks(self) -> tuple[Mark, ...]:
        """The Brier Patch, red on the board: blinking while a captured rabbit throws to
        escape onto it."""
        style = MarkStyle.BLINK if self.escape else MarkStyle.STEADY
        return (Mark("brier-patch", BRIER_PATCH, style),)

    def physical_steps(self, move: FRMove) -> PhysicalMove:
        """The piece lifted and set down on its landing; a fox landing on a rabbit joins it
        (the rabbit stays for its escape throw: it may be lifted aside and put back)."""
        if isinstance(move, Throw):
            return PhysicalMove()
        taken: tuple[Take, ...] = ()
        if move.side in FOXES:
            taken = tuple(Take(move.to, move.to) for r in RABBITS if self.at.get(r) == move.to)
        return PhysicalMove((Carry(move.start, (Hop(move.to, taken),)),))

    def counts(self, move: FRMove) -> tuple[tuple[str, ...], ...]:
        """One die's run straight, then the other's at a right angle (either die first,
        either way round the corner); a rabbit going home also one die's run straight."""
        if not isinstance(move, PieceMove) or self.dice is None:
            return ()
        home = HOMES.get(move.side) == move.to
        return _counts(move.start, move.to, self.dice, home)

    def solved_value(self) -> float | None:
        """The chance that the white rabbit wins from here when both sides play their best, from
        the game solved whole (:mod:`reedboard.engine.dice_solver`, shipped as
        ``data/fox-and-rabbit-values.txt.gz``); None where it is not solved: the four-player
        game, another rule option."""
        table = _solved_table(type(self), self.options)
        if table is None:
            return None
        over = self.outcome()
        if over is not None:
            return 1.0 if over.winner == "WR" else 0.0
        if self.is_chance():
            return table.get(self.to_text())
        values = []
        for move in self.legal_moves:
            self.push(move)
            try:
                after = self.outcome()
                value = (after.winner == "WR") * 1.0 if after else table.get(self.to_text())
            finally:
                self.pop()
            if value is None:
                return None
            values.append(value)
        if not values:
            return None
        return max(values) if self.turn == "WR" else min(values)

    def evaluate(self, side: str) -> float:
        """Where the game is solved (:meth:`solved_value`), the side's chance of winning (the
        fox's: of not losing; best play never draws) times a won game's worth in the search
        (:data:`reedboard.engine.levels.WIN`), so every level from 2 up plays the solution.
        Elsewhere, in
        chances of the next throws, a thousand points each. A rabbit: its chance of reaching
        home on its next throw (none while a fox stands there) if it lives that long, less its
        chance of being caught by the foxes' next throw and not escaping (none on the
        Brier Patch); then a point a circle nearer home. A fox: on a rabbit, the whole
        thousand; else its best chance of landing on a rabbit off the Brier Patch with its next
        throw and keeping it (the rabbit's escape fails), less a point a circle from the
        nearest rabbit."""
        solved = self.solved_value()
        if solved is not None:  # on the scale of a game over (levels.WIN), so that the search
            # weighs a win inside its horizon and a chance at its edge alike
            return WIN * (solved if side == "WR" else 1 - solved)
        here = self.at.get(side)
        if here is None:
            return -1000.0
        foxes = [c for f, c in self.at.items() if f in FOXES and c is not None]
        if side in RABBITS:
            home = HOMES[side]
            caught = 0.0
            if here not in BRIER_PATCH:
                caught = min(1.0, sum(_reach(fox, here) for fox in foxes) / 36) * (
                    1 - _escape(here)
                )
            reach_home = 0.0 if home in foxes else _home_chance(here, home)
            return 1000.0 * ((1 - caught) * reach_home - caught) - _distance(here, home)
        rabbits = [c for r, c in self.at.items() if r in RABBITS and c is not None]
        if here in rabbits:
            return 1000.0
        catch = max(
            (_reach(here, r) / 36 * (1 - _escape(r)) for r in rabbits if r not in BRIER_PATCH),
            default=0.0,
        )
        return 1000.0 * catch - min((_distance(here, r) for r in rabbits), default=0)

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        parts = [f"{p}@{c}" for p, c in self.at.items() if c is not None]
        parts.append(f"turn={self.rotation}")
        if self.dice is not None:
            parts.append(f"dice={self.dice[0]},{self.dice[1]}")
        if self.escape:
            parts.append("escape=" + ",".join(self.escape))
        if self.extra:
            parts.append("extra")
        return " ".join(parts)

    def parse_move(self, text: str) -> FRMove:
        """``dice=3,4`` (or ``3,4``) for a throw; ``WR a1-c6`` for a move."""
        t = " ".join(text.split())
        if m := _THROW.match(t):
            return self.throw((int(m.group(1)), int(m.group(2))))
        if m := _MOVE.match(t):
            return PieceMove(m.group(1), m.group(2), m.group(3))
        raise InvalidMoveError(
            f"bad {self.game_id} move {text!r}: expected a throw like dice=3,4"
            " or a move like 'WR a1-c6' (piece, from-to)"
        )

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        def bad(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"bad {cls.game_id} position {text!r}: {why}")

        at: dict[str, str | None] = {p: None for p in cls.sides}
        seen: set[str] = set()
        turn: str | None = None
        dice: tuple[int, ...] | None = None
        escape: tuple[str, ...] = ()
        extra = False
        for token in text.split():
            if "@" in token:
                piece, _, circle = token.partition("@")
                if piece not in cls.sides:
                    raise bad(f"{piece!r} is not a piece of this game ({' '.join(cls.sides)})")
                if piece in seen:
                    raise bad(f"{piece} is placed twice")
                if not is_circle(circle):
                    raise bad(f"{piece}@{circle}: no circle {circle!r} (a1-i9)")
                seen.add(piece)
                at[piece] = circle
            elif token.startswith("turn="):
                turn = token[5:]
                if turn not in cls.sides:
                    raise bad(f"turn={turn}: not one of {' '.join(cls.sides)}")
            elif token.startswith("dice="):
                m = _THROW.match(token)
                if not m:
                    raise bad(f"{token}: expected dice=A,B with A and B from 1 to 6")
                dice = (int(m.group(1)), int(m.group(2)))
            elif token.startswith("escape="):
                escape = tuple(token[7:].split(","))
            elif token == "extra":
                extra = True
            else:
                raise bad(f"unknown part {token!r}")
        if turn is None:
            raise bad("no turn=PIECE")
        for fox in FOXES:
            if fox in cls.sides and at[fox] is None:
                raise bad(f"{fox} is not on the board")
        foxes_at = {at[f] for f in FOXES if f in at}
        caught = [r for r in RABBITS if r in at and at[r] is None]
        home = [r for r in RABBITS if r in at and at[r] == HOMES[r]]
        if len(set(escape)) != len(escape):
            raise bad(f"escape={','.join(escape)}: a rabbit named twice")
        for rabbit in escape:
            if rabbit not in RABBITS or rabbit not in cls.sides or at[rabbit] not in foxes_at:
                raise bad(f"escape={','.join(escape)}: {rabbit} is not a rabbit a fox stands on")
        if (escape or extra) and turn not in FOXES:
            raise bad("escape and extra happen on a fox's turn")
        over = caught or home
        if over:
            # the game is over: a rabbit caught for good (the fox whose turn it is caught
            # it), or a rabbit home; nothing is thrown or owed any more
            if len(caught) + len(home) > 1:
                raise bad(f"{' and '.join(caught + home)}: the game ends with the first rabbit")
            if caught and turn not in FOXES:
                raise bad(f"{caught[0]} is caught (off the board): turn= names the fox that did")
            if dice or escape or extra:
                raise bad("the game is over: no dice, escape or extra")
            for rabbit in home:
                if at[rabbit] in foxes_at:
                    raise bad(f"{rabbit} is home on {at[rabbit]}: no fox may stand there")
        for rabbit in RABBITS:  # (once the game is over a second rabbit may stay under a fox)
            if rabbit in at and at[rabbit] in foxes_at and rabbit not in escape and not over:
                raise bad(f"{rabbit} shares {at[rabbit]} with a fox but is not escaping")
        position = cls(options, at, cls.sides.index(turn), dice, escape, extra)
        if dice is not None and not position._piece_moves(dice):
            raise bad(
                f"dice={dice[0]},{dice[1]}: {position.turn} has no move for this throw"
                " (the turn would have passed)"
            )
        return position


@register
class FoxAndRabbit4(FoxAndRabbit):
    """Red and gray foxes against white and brown rabbits, a player each."""

    game_id = "fox-and-rabbit-4"
    title = "Fox and Rabbit (four players)"
    sides = ("WR", "BR", "RF", "GF")


def right_angle_landings(start: str, dice: tuple[int, ...]) -> list[str]:
    """Where a piece lands moving one die's count in a straight line and then the other's at a
    right angle, either die first, both legs on the board. Distinct circles, sorted."""
    return list(_right_angle_landings(start, dice))


@functools.cache
def _right_angle_landings(start: str, dice: tuple[int, ...]) -> tuple[str, ...]:
    x, y = xy(start)
    out: set[str] = set()
    for first, second in {dice, dice[::-1]}:
        for (dx, dy), turn in (((1, 0), (0, 1)), ((0, 1), (1, 0))):
            for s1, s2 in product((1, -1), (1, -1)):
                corner = circle_at(x + s1 * first * dx, y + s1 * first * dy)
                if corner is None:
                    continue
                cx, cy = xy(corner)
                land = circle_at(cx + s2 * second * turn[0], cy + s2 * second * turn[1])
                if land is not None:
                    out.add(land)
    return tuple(sorted(out, key=_order))


def straight_landings(start: str, dice: tuple[int, ...]) -> set[str]:
    """Where one die alone takes a piece in a straight line (only ever used to reach home)."""
    return set(_straight_landings(start, dice))


@functools.cache
def _straight_landings(start: str, dice: tuple[int, ...]) -> frozenset[str]:
    x, y = xy(start)
    out: set[str] = set()
    for d in set(dice):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            land = circle_at(x + d * dx, y + d * dy)
            if land is not None:
                out.add(land)
    return frozenset(out)


@functools.cache
def _counts(
    start: str, to: str, dice: tuple[int, ...], straight: bool
) -> tuple[tuple[str, ...], ...]:
    x, y = xy(start)
    legs = [*dict.fromkeys([dice, dice[::-1]])] + ([(d, 0) for d in set(dice)] if straight else [])
    out: list[tuple[str, ...]] = []
    for first, second in legs:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            run = [circle_at(x + i * dx, y + i * dy) for i in range(1, first + 1)]
            for ex, ey in ((dy, dx), (-dy, -dx)) if second else ((0, 0),):
                if None in run:
                    continue
                cx, cy = xy(str(run[-1]))
                turn = [circle_at(cx + i * ex, cy + i * ey) for i in range(1, second + 1)]
                way = [start, *run, *turn]
                if way[-1] == to and None not in way and tuple(way) not in out:
                    out.append(tuple(str(c) for c in way))
    return tuple(out)


@functools.cache
def _reach(fox: str, circle: str) -> int:
    """Of the 36 throws, how many take a piece on ``fox`` to ``circle``."""
    return sum(1 for throw in THROWS if circle in _right_angle_landings(fox, throw.values))


SOLVED = Path(__file__).parent / "data" / "fox-and-rabbit-values.txt.gz"
"""The two-player game with the rules' default options, solved whole
(reedboard/engine/dice_solver.py)."""


@functools.cache
def _solved_table(game: type[FoxAndRabbit], options: Any) -> dict[str, float] | None:
    if game is not FoxAndRabbit or options != FoxAndRabbitOptions() or not SOLVED.exists():
        return None
    return dice_solver.read(SOLVED)


@functools.cache
def _escape(circle: str) -> float:
    """The chance that a rabbit caught on ``circle`` escapes: a throw with a landing on the
    Brier Patch."""
    return (
        sum(1 for t in THROWS if BRIER_PATCH.intersection(_right_angle_landings(circle, t.values)))
        / 36
    )


@functools.cache
def _home_chance(circle: str, home: str) -> float:
    """The chance that a rabbit on ``circle`` can reach ``home`` with its next throw (both dice
    at a right angle, or one die in a straight line)."""
    return (
        sum(
            1
            for t in THROWS
            if home in _right_angle_landings(circle, t.values)
            or home in _straight_landings(circle, t.values)
        )
        / 36
    )


@functools.cache
def _distance(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def _order(circle: str) -> tuple[int, int]:
    x, y = xy(circle)
    return (y, x)
