"""Parchesi (docs/rules.md §3, seed 003): the race game on the classic cross board, 2-4 players.

The board is data (``reedboard/engine/data/parchesi.toml``): a loop of 68 spaces with 12 safeties, a
home path of 7 spaces per colour, the nests and the central home. The spinner has 12 equal
segments, 1-6 and double 1 - double 6 (a chance event, ``spin=5`` / ``spin=d5``).

Point ids: loop spaces ``L0``-``L67``; home paths ``Y1``-``Y7``, ``B1``-``B7``, ``R1``-``R7``,
``G1``-``G7``; nests ``Ynest`` …; the central ``home``.
Text form: each man as ``Y1@L12`` (colour letter and man number at a point), then
``turn=Y``, then ``spin=5`` or ``spin=d5`` while a spin waits to be moved. Moves: ``Y enter``,
``Y L12-L17`` (one man), ``Y L12-L18 L30-L36`` (double 6: several men 6 spaces each).
"""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from reedboard.engine.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from reedboard.engine.files import read_bounded
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
from reedboard.engine.position import Move, Position
from reedboard.engine.registry import register
from reedboard.engine.throw import Throw

DATA = Path(__file__).parent / "data" / "parchesi.toml"
NEST = -1
ENTER_ON = 5
"""The plain spin that brings a man out of his nest."""


@dataclass(frozen=True)
class Board:
    loop: int
    home_path: int
    safeties: frozenset[int]
    colours: tuple[str, ...]
    entry: dict[str, int]
    turnoff: dict[str, int]

    def run(self, colour: str) -> int:
        """Loop spaces a man of ``colour`` covers, entry to turnoff inclusive."""
        return (self.turnoff[colour] - self.entry[colour]) % self.loop + 1

    def home(self, colour: str) -> int:
        """The progress of a man who is home."""
        return self.run(colour) + self.home_path

    def point(self, colour: str, progress: int) -> str:
        """Where a man of ``colour`` stands after ``progress`` spaces (-1: his nest)."""
        if progress == NEST:
            return f"{letter(colour)}nest"
        run = self.run(colour)
        if progress < run:
            return f"L{(self.entry[colour] + progress) % self.loop}"
        if progress < run + self.home_path:
            return f"{letter(colour)}{progress - run + 1}"
        return "home"


@functools.cache
def board() -> Board:
    data = tomllib.loads(read_bounded(DATA).decode("utf-8"))  # (as every data file is read)
    return Board(
        data["loop"],
        data["home_path"],
        frozenset(data["safeties"]),
        tuple(data["colours"]),
        dict(data["entry"]),
        dict(data["turnoff"]),
    )


SEATS = {2: ("yellow", "red"), 3: ("yellow", "blue", "red"), 4: ("yellow", "blue", "red", "green")}


@dataclass(frozen=True)
class ParchesiOptions:
    players: int = 2
    """2 (yellow, red), 3 (yellow, blue, red) or 4 (and green); yellow begins."""

    def __post_init__(self) -> None:
        if self.players not in SEATS:
            raise InvalidOptionError(f"players: {self.players} is not 2, 3 or 4")


SPINS: tuple[Throw, ...] = tuple(
    Throw((v,), spin=True, double=d) for d in (False, True) for v in range(1, 7)
)
"""The spinner's 12 segments: ``spin=1`` to ``spin=6``, then ``spin=d1`` to ``spin=d6``."""
DOUBLE_SIX = SPINS[-1]
_HIT_DISTANCES = (1, 2, 3, 4, 5, 6, 2, 4, 6, 8, 10, 12, 24)
"""How far one spin can carry a man: each plain spin, each double, and double 6's 24."""


def letter(side: str) -> str:
    """A colour's letter in the text forms (``yellow``: ``Y``)."""
    return side[0].upper()


@dataclass(frozen=True, slots=True)
class ManMove(Move):
    """One or more men of ``side`` (a colour) moving: ``paths`` holds each man's (from, to) in
    order."""

    side: str
    paths: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        if self.paths and self.paths[0][0].endswith("nest"):
            return f"{letter(self.side)} enter"
        return f"{letter(self.side)} " + " ".join(f"{a}-{b}" for a, b in self.paths)

    def points(self) -> tuple[str, ...]:
        return self.paths[0] if self.paths else ()

    def routes(self) -> tuple[tuple[str, ...], ...]:
        return self.paths  # every man of a double 6, each from nest or space to space or home


PMove = Throw | ManMove


@dataclass(frozen=True, slots=True)
class ParchesiState:
    """A snapshot of a Parchesi position (see :class:`Parchesi`)."""

    men: tuple[tuple[int, ...], ...]
    """Each seated colour's four men's progress, in :attr:`Parchesi.players` order."""
    turn: int
    spin: Throw | None


_SPIN = re.compile(r"^(?:spin=)?(d?)([1-6])$")


@register
class Parchesi(Position[PMove, ParchesiState]):
    game_id = "parchesi"
    title = "Parchesi"
    sides: ClassVar[tuple[str, ...]] = ("yellow", "blue", "red", "green")
    Options: ClassVar[type[Any]] = ParchesiOptions
    dice_spec = (1, 12)
    """One spin of a 12-segment spinner: 1-6 plain, 7-12 double 1-6."""

    def __init__(
        self, options: Any, men: dict[str, list[int]], turn: int, spin: Throw | None = None
    ) -> None:
        super().__init__(options)
        self.board = board()
        self._players = SEATS[options.players]
        self.men = men
        """Each colour's four men: their progress (-1 in the nest)."""
        self._turn = turn
        self.spin = spin

    @classmethod
    def _start(cls, options: Any) -> Self:
        return cls(options, {c: [NEST] * 4 for c in SEATS[options.players]}, 0)

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @classmethod
    def most_men(cls) -> int:
        """Four men a colour, every colour seated (they start in their nests, off the board)."""
        full = cls.start(players=max(SEATS))
        return sum(len(men) for men in full.men.values())

    @property
    def turn(self) -> str:
        return self._players[self._turn]

    def is_chance(self) -> bool:
        return self.spin is None and self.outcome() is None

    def chance_outcomes(self) -> list[tuple[PMove, float]]:
        if not self.is_chance():
            return []
        return [(spin, 1 / 12) for spin in SPINS]

    def throw(self, values: tuple[int, ...]) -> PMove:
        """The spinner's segment ``values[0]``: 1-6 plain, 7-12 double 1 - double 6."""
        if len(values) != 1 or not 1 <= values[0] <= 12:
            raise InvalidMoveError(f"bad parchesi spin {values}: one value, 1-6 or 7-12 (doubles)")
        return SPINS[values[0] - 1]

    def throw_values(self, throw: PMove) -> tuple[int, ...]:
        if isinstance(throw, Throw) and throw in SPINS:
            return (SPINS.index(throw) + 1,)
        return super().throw_values(throw)

    def shown_dice(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """A spin on the pip LEDs: one die, or two equal dice for a double."""
        spin = self.throw(values)
        assert isinstance(spin, Throw)
        return spin.pips()

    # -- where men stand ---------------------------------------------------------------------

    def where(self, colour: str, man: int) -> str:
        return self.board.point(colour, self.men[colour][man])

    def occupied(self) -> frozenset[str]:
        return frozenset(self.where(c, i) for c in self._players for i in range(4))

    def pieces(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for c in self._players:
            for i in range(4):
                point = self.where(c, i)
                out[point] = out.get(point, "") + letter(c)
        return out

    def _standing(self) -> dict[str, list[str]]:
        """Point -> the colours of the men on it (loop and home paths only)."""
        out: dict[str, list[str]] = {}
        for c in self._players:
            for p in self.men[c]:
                if p != NEST and p < self.board.home(c):
                    out.setdefault(self.board.point(c, p), []).append(c)
        return out

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[PMove]:
        if self.outcome() is not None:
            return []
        if self.spin is None:
            return [m for m, _ in self.chance_outcomes()]
        return list(self._man_moves(self.turn, self.spin))

    def _man_moves(self, colour: str, spin: Throw) -> list[ManMove]:
        out: list[ManMove] = []
        men = self.men[colour]
        if not spin.double and spin.values == (ENTER_ON,) and NEST in men:
            man = men.index(NEST)
            if self._may_land(colour, NEST, 0, self._standing()):
                out.append(
                    ManMove(colour, ((self.where(colour, man), self.board.point(colour, 0)),))
                )
        entered = [i for i, p in enumerate(men) if p != NEST and p < self.board.home(colour)]
        if spin == DOUBLE_SIX:
            out += self._double_six(colour, entered)
            return _distinct(out)
        for i in entered:
            move = self._single(colour, i, spin.total, self._standing())
            if move is not None:
                out.append(ManMove(colour, (move,)))
        return _distinct(out)

    def _single(
        self, colour: str, man: int, steps: int, standing: dict[str, list[str]]
    ) -> tuple[str, str] | None:
        start = self.men[colour][man]
        end = start + steps
        if end > self.board.home(colour):
            return None  # the last move must be exact
        for p in range(start + 1, end + 1):  # blockades may not be passed (nor landed on)
            here = standing.get(self.board.point(colour, p), [])
            if len(here) >= 2 and p < self.board.home(colour):
                return None
        if not self._may_land(colour, start, end, standing):
            return None
        return (self.board.point(colour, start), self.board.point(colour, end))

    def _may_land(self, colour: str, start: int, end: int, standing: dict[str, list[str]]) -> bool:
        if end >= self.board.home(colour):
            return True  # home holds any number
        point = self.board.point(colour, end)
        here = standing.get(point, [])
        if start != NEST and self.board.point(colour, start) == point:
            here = here[1:]
        if len(here) >= 2:
            return False
        if here and here[0] == colour:
            return True  # a blockade forms
        # empty, or a capture off the safeties: no man enters a safety another colour holds
        return not (here and point.startswith("L") and int(point[1:]) in self.board.safeties)

    def _double_six(self, colour: str, entered: list[int]) -> list[ManMove]:
        """Double 6: any 4 entered men 6 spaces each (as many as can go), or 1 man 24.

        The men move one after another in any order the player likes, so a group may go when
        some order of it is legal. The end is the same whatever the order, so each group is
        one move, written in one legal order: the men by number if they can go so; else each
        man letting the man he would land on go first (a man who would make a blockade that
        the others must pass waits for the man in front); else the first legal order.
        :meth:`parse_move` takes any legal order of it."""
        out: list[ManMove] = []
        for i in entered:
            move = self._single(colour, i, 24, self._standing())
            if move is not None:
                out.append(ManMove(colour, (move,)))
        for size in range(min(4, len(entered)), 0, -1):
            found: dict[tuple[tuple[str, str], ...], ManMove] = {}
            for group in itertools.combinations(entered, size):
                orders = itertools.chain(
                    (group, self._front_first(colour, group)), itertools.permutations(group)
                )
                for order in orders:
                    paths = self._apply_group(colour, order)
                    if paths is not None:
                        found.setdefault(tuple(sorted(paths)), ManMove(colour, paths))
                        break
            if found:
                return out + list(found.values())
        return out

    def _front_first(self, colour: str, group: tuple[int, ...]) -> tuple[int, ...]:
        """The men of ``group`` by number, but each after the man of the group standing where
        he would land 6 spaces on (that man moves out of his way first)."""
        men = self.men[colour]
        order: list[int] = []

        def visit(i: int) -> None:
            if i in order:
                return
            for j in group:
                if j != i and j not in order and men[j] == men[i] + 6:
                    visit(j)
            order.append(i)

        for i in group:
            visit(i)
        return tuple(order)

    def _apply_group(
        self, colour: str, group: tuple[int, ...]
    ) -> tuple[tuple[str, str], ...] | None:
        """Move each man of ``group`` 6 spaces in turn on a scratch copy; None if one cannot."""
        saved = {c: list(v) for c, v in self.men.items()}
        paths = []
        try:
            for i in group:
                step = self._single(colour, i, 6, self._standing())
                if step is None:
                    return None
                paths.append(step)
                self._move_man(colour, i, self.men[colour][i] + 6)
            return tuple(paths)
        finally:
            self.men = saved

    def _in_order(self, colour: str, paths: tuple[tuple[str, str], ...]) -> bool:
        """Whether the men standing on the paths' starts can move 6 each in this order (each
        man once: a path starts from a man who has not moved yet)."""
        moved: set[int] = set()
        order = []
        for a, _b in paths:
            man = next((i for i in range(4) if i not in moved and self.where(colour, i) == a), None)
            if man is None:
                return False
            moved.add(man)
            order.append(man)
        return self._apply_group(colour, tuple(order)) == paths

    def _move_man(self, colour: str, man: int, end: int) -> None:
        self.men[colour][man] = end
        if end >= self.board.home(colour):
            return
        point = self.board.point(colour, end)
        for other in self._players:
            if other == colour:
                continue
            for j, p in enumerate(self.men[other]):
                if p != NEST and p < self.board.home(other) and self.board.point(other, p) == point:
                    self.men[other][j] = NEST  # captured: back to the nest

    def _apply(self, move: PMove) -> None:
        if isinstance(move, Throw):
            self.spin = move
            if not self._man_moves(self.turn, move):
                self._next()  # no legal move: the turn passes
            return
        colour = self.turn
        for a, b in move.paths:
            man = self._man_at(colour, a)
            if a.endswith("nest"):
                self._move_man(colour, man, 0)
            else:
                self._move_man(colour, man, self._progress_of(colour, b))
        self._next()

    def _man_at(self, colour: str, point: str) -> int:
        for i in range(4):
            if self.where(colour, i) == point:
                return i
        raise InvalidMoveError(f"no {colour} man at {point}")

    def _progress_of(self, colour: str, point: str) -> int:
        for p in range(self.board.home(colour) + 1):
            if self.board.point(colour, p) == point:
                return p
        raise InvalidMoveError(f"{point} is not on {colour}'s way")

    def _next(self) -> None:
        self.spin = None
        self._turn = (self._turn + 1) % len(self._players)

    def _save(self) -> ParchesiState:
        return ParchesiState(
            tuple(tuple(self.men[c]) for c in self._players), self._turn, self.spin
        )

    def _restore(self, state: ParchesiState) -> None:
        self.men = {c: list(m) for c, m in zip(self._players, state.men, strict=True)}
        self._turn, self.spin = state.turn, state.spin

    # -- what the controller asks ------------------------------------------------------------

    def physical_steps(self, move: PMove) -> PhysicalMove:
        """Each man in turn, from his nest or space to his landing; a man of another colour
        where one lands is taken off and put back in his nest."""
        if isinstance(move, Throw):
            return PhysicalMove()
        labels = {point: list(label) for point, label in self.pieces().items()}
        mine = letter(move.side)
        carries = []
        for a, b in move.paths:
            taken: list[Take] = []
            if b != "home":
                for other in [x for x in labels.get(b, []) if x != mine]:
                    nest = f"{other}nest"
                    taken.append(Take(b, nest))
                    labels[b].remove(other)
                    labels.setdefault(nest, []).append(other)
            labels[a].remove(mine)
            labels.setdefault(b, []).append(mine)
            carries.append(Carry(a, (Hop(b, tuple(taken)),)))
        return PhysicalMove(tuple(carries))

    lead_weight: ClassVar[float] = 3.0
    """A space the front man has come (the first man home wins the race)."""
    follower_weight: ClassVar[float] = 0.3
    """A space any other man has come."""
    entered_weight: ClassVar[float] = 10.0
    """A man out of his nest (it takes a plain 5 to come out)."""

    def counts(self, move: PMove) -> tuple[tuple[str, ...], ...]:
        """Each man's count along his colour's track, space by space (a man entering from his
        nest is set straight on his entry space: no count)."""
        if not isinstance(move, ManMove):
            return ()
        out = []
        for a, b in move.paths:
            if a.endswith("nest"):
                continue
            p0 = self._progress_of(move.side, a)
            p1 = self.board.home(move.side) if b == "home" else self._progress_of(move.side, b)
            out.append(tuple(self.board.point(move.side, p) for p in range(p0, p1 + 1)))
        return tuple(out)

    def evaluate(self, side: str) -> float:
        """How far ``side``'s race stands against the others': :attr:`lead_weight` a space its
        front man has come, :attr:`follower_weight` a space each other man, and
        :attr:`entered_weight` a man out; less, for its two front men on the loop off a
        safety, the share of the next spin's 13 distances (1-6, the doubles' 2-12 and double 6's
        24) at which another colour's man stands behind it, times what a capture would cost."""
        standing = {c: self._loop_spaces(c) for c in self._players}

        def net(colour: str) -> float:
            progress = sorted((p for p in self.men[colour] if p != NEST), reverse=True)
            if not progress:
                return 0.0
            worth = self.lead_weight * progress[0] + self.follower_weight * sum(progress[1:])
            worth += self.entered_weight * len(progress)
            hunters = [s for c in self._players if c != colour for s in standing[c]]
            for rank, p in enumerate(progress[:2]):
                space = self._loop_space(colour, p)
                if space is None or space in self.board.safeties or not hunters:
                    continue
                hits = sum(
                    1
                    for d in _HIT_DISTANCES
                    if any((space - h) % self.board.loop == d for h in hunters)
                )
                weight = self.lead_weight if rank == 0 else self.follower_weight
                worth -= hits / len(_HIT_DISTANCES) * (weight * p + self.entered_weight)
            return worth

        others = [c for c in self._players if c != side]
        return net(side) - sum(net(c) for c in others) / max(1, len(others))

    def _loop_space(self, colour: str, progress: int) -> int | None:
        """The loop space (0-67) a man of ``colour`` stands on, or None: nest, home path, home."""
        if progress == NEST or progress >= self.board.run(colour):
            return None
        return (self.board.entry[colour] + progress) % self.board.loop

    def _loop_spaces(self, colour: str) -> list[int]:
        return [s for p in self.men[colour] if (s := self._loop_space(colour, p)) is not None]

    # -- the end -----------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        for c in self._players:
            if any(p == self.board.home(c) for p in self.men[c]):
                return Outcome(c, Termination.HOME, f"a {c} man is home")
        return None

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        parts = [f"{letter(c)}{i + 1}@{self.where(c, i)}" for c in self._players for i in range(4)]
        parts.append(f"turn={letter(self.turn)}")
        if self.spin is not None:
            parts.append(str(self.spin))
        return " ".join(parts)

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        players = SEATS[options.players]
        letters = {c[0].upper(): c for c in players}
        b = board()

        def bad(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"bad parchesi position {text!r}: {why}")

        men = {c: [NEST] * 4 for c in players}
        seen: set[tuple[str, int]] = set()
        turn = None
        spin = None
        for token in text.split():
            if m := re.fullmatch(r"([YBRG])([1-4])@(\S+)", token):
                if m.group(1) not in letters:
                    raise bad(f"{token}: no {m.group(1)} player with {options.players} players")
                colour, man = letters[m.group(1)], int(m.group(2)) - 1
                progress = next(
                    (
                        p
                        for p in range(NEST, b.home(colour) + 1)
                        if b.point(colour, p) == m.group(3)
                    ),
                    None,
                )
                if progress is None:
                    raise bad(f"{token}: {m.group(3)} is not on {colour}'s way")
                if (colour, man) in seen:
                    raise bad(f"{token}: {m.group(1)}{m.group(2)} is placed twice")
                men[colour][man] = progress
                seen.add((colour, man))
            elif token.startswith("turn="):
                if turn is not None:
                    raise bad(f"{token}: turn= is given twice")
                if token[5:] not in letters:
                    raise bad(f"{token}: not a player of this game")
                turn = players.index(letters[token[5:]])
            elif m := _SPIN.match(token) if token.startswith("spin=") else None:
                if spin is not None:
                    raise bad(f"{token}: spin= is given twice")
                spin = _spin(m)
            else:
                raise bad(f"unknown part {token!r}")
        if turn is None:
            raise bad("no turn=LETTER")
        if len(seen) != 4 * len(players):
            raise bad(f"give all {4 * len(players)} men (Y1@… to {players[-1][0].upper()}4@…)")
        position = cls(options, men, turn, spin)
        for point, colours in position._standing().items():
            if len(colours) > 2 or len(set(colours)) > 1:
                raise bad(f"{point} holds {', '.join(colours)}: at most two men of one colour")
        home = [c for c in players for p in men[c] if p == b.home(c)]
        if len(set(home)) > 1:  # one move may bring several men of one colour home (double 6)
            raise bad(f"{' and '.join(dict.fromkeys(home))} men are home: the first ends the game")
        if home and turn != (players.index(home[0]) + 1) % len(players):
            after = players[(players.index(home[0]) + 1) % len(players)]
            raise bad(
                f"{home[0]} is home: the game ended on {home[0]}'s move (turn={after[0].upper()})"
            )
        if spin is not None and home:
            raise bad(f"{spin}: the game is over ({home[0]} is home)")
        if spin is not None and not position._man_moves(position.turn, spin):
            raise bad(
                f"{spin}: {position.turn} has no move for this spin (the turn would have passed)"
            )
        return position

    def _as_listed(self, move: ManMove) -> ManMove:
        """A double 6 written in another legal order than the one listed: the listed move (the
        same men to the same spaces). Anything else comes back as written."""
        if len(move.paths) < 2 or self.spin != DOUBLE_SIX or self.is_over():
            return move
        colour = self.turn
        if move.side != colour or move in self._legal():
            return move
        key = sorted(move.paths)
        for listed in self._legal():
            if isinstance(listed, ManMove) and sorted(listed.paths) == key:
                return listed if self._in_order(colour, move.paths) else move
        return move

    def parse_move(self, text: str) -> PMove:
        t = " ".join(text.split())
        if m := _SPIN.match(t):
            return _spin(m)
        colours = {letter(c): c for c in self.sides}
        if m := re.fullmatch(r"([YBRG]) enter", t):
            colour = colours[m.group(1)]
            return ManMove(colour, ((f"{m.group(1)}nest", self.board.point(colour, 0)),))
        if m := re.fullmatch(r"([YBRG])((?: \S+-\S+)+)", t):
            paths = tuple((a, b) for a, _, b in (p.partition("-") for p in m.group(2).split()))
            return self._as_listed(ManMove(colours[m.group(1)], paths))
        raise InvalidMoveError(
            f"bad parchesi move {text!r}: expected spin=5 or spin=d5, 'Y enter', 'Y L12-L17'"
        )


def _spin(m: re.Match[str]) -> Throw:
    """The spin a ``_SPIN`` match reads (``5``, ``d5``)."""
    return SPINS[int(m.group(2)) - 1 + (6 if m.group(1) else 0)]


def _distinct(moves: list[ManMove]) -> list[ManMove]:
    out: list[ManMove] = []
    for m in moves:
        if m not in out:
            out.append(m)
    return out
