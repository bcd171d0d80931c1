"""From magnets to moves: compare the settled physical occupancy with what the engine expects.

Pure and clock-free: :class:`Recognizer` answers "what does this board mean?" for one settled
reading; the session decides when a reading is settled and what to do with the answer.

Presence cannot tell pieces apart, and in Fox and Rabbit two pieces may share a circle, so
recognition follows the engine's state. For every legal move it knows the occupancy once the
move is made (a *target*) and what the board may look like on the way there (pieces lifted,
jumped pieces taken off in any order, a fox set down mid-chain). A reading is then one of
DESIGN.md's cases, in this order:

1. the expected board: nothing to do (``SAME``);
2. the board after exactly one legal move, or one more step of a jump chain: ``COMMIT`` (or
   ``AMBIGUOUS`` when two moves leave the same board, or ``PENDING`` when the move's landing
   switch did not change, so it looks like a piece still in the air);
3. pieces on their way through a legal move: ``LIFTED``, with the landing points to light
   (a reading that is also 4 or 5 waits the grace time before it counts as 4 or 5);
4. an earlier position of this game: ``TAKEBACK``;
5. the start position of the game (after a finished game, before 4): ``NEW_GAME``;
6. anything else: ``UNKNOWN`` (a mismatch, once it has stayed for the grace time).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Move, Position

Occupancy = frozenset[str]


class Kind(enum.Enum):
    SAME = "same"
    COMMIT = "commit"
    AMBIGUOUS = "ambiguous"
    PENDING = "pending"
    NEW_GAME = "new-game"
    TAKEBACK = "takeback"
    LIFTED = "lifted"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Candidate:
    """One legal move as the switches would see it."""

    move: Move
    target: Occupancy
    """The occupancy once the move is made."""
    may_empty: Occupancy
    """Points that may read empty on the way (the start, the pieces taken)."""
    may_fill: Occupancy
    """Points that may read occupied on the way (the landing, a chain's stops)."""
    landing: str
    silent: bool
    """The landing point was occupied already: its switch does not change, so the finished
    move reads like a piece still in the air (Fox and Rabbit). The next roll confirms it."""
    extends: bool = False
    """A longer jump chain replacing the move just committed."""
    leaves: str | None = None
    """The point the mover leaves empty, if any: until it reads empty, nothing newly placed
    can be this move's piece (a piece is not in two places)."""


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    moves: tuple[Move, ...] = ()
    landings: Occupancy = frozenset()
    """Points to light green: where the lifted pieces may land."""
    ply: int | None = None
    """TAKEBACK: the ply to go back to."""
    extends: bool = False
    """COMMIT, AMBIGUOUS: the move replaces the last committed one (a longer chain)."""
    after_grace: bool = False
    """TAKEBACK, NEW_GAME: the same reading is also a move on its way; act only once it has
    stayed for the grace time."""
    new_game: Any = None
    """NEW_GAME: the starting position the board shows."""


@dataclass
class Recognizer:
    """Knows the current position, the occupancies of the game so far, and how a start
    position looks; :meth:`judge` reads a board."""

    position: Position[Any, Any]
    history: list[tuple[Occupancy, bool]] = field(default_factory=list)
    """(occupancy, waits for a throw) of each earlier ply, oldest first."""
    is_start: Callable[[Occupancy], Any] = lambda _s: None
    """Returns a starting position if the board shows one, else None."""
    extendable: tuple[Position[Any, Any], Move] | None = None
    """The position before the last committed move and that move, while a longer jump chain
    may still replace it: one that goes on from where it ended (two-fox Fox and Geese, where
    every prefix of a chain is a move), or one with the same ends that takes more pieces."""

    def __post_init__(self) -> None:
        self.stops: list[str] = []
        """Where the moving piece was seen set down since the last commit, in order: it tells
        apart jump chains that end alike (the same geese, another route)."""
        self.refresh()

    def refresh(self) -> None:
        """Recompute the candidates after the position changed."""
        self.stops = []
        position = self.position
        self._last: Occupancy = position.occupied()
        self._seen_empty: set[str] = set()
        self.expected: Occupancy = position.occupied()
        moves: Sequence[Move] = (
            [] if position.is_chance() or position.is_over() else list(position.legal_moves)
        )
        self.candidates = [self._candidate(position, m) for m in moves]
        if self.extendable is not None:
            base, prefix = self.extendable
            path = prefix.points()
            taken = base.occupied_after(prefix) if path else frozenset()
            for move in base.legal_moves:
                points = move.points()
                longer = len(points) > len(path) and points[: len(path)] == path
                # a chain carried straight, its geese coming off one by one, may pass through
                # the board of a shorter chain with the same ends: the longer one replaces it
                wider = (
                    len(points) > len(path) > 1
                    and points[0] == path[0]
                    and points[-1] == path[-1]
                    and base.occupied_after(move) < taken
                )
                if longer or wider:
                    self.candidates.append(self._candidate(base, move, extends=True))
        self._by_target: dict[Occupancy, list[Candidate]] = {}
        for c in self.candidates:
            self._by_target.setdefault(c.target, []).append(c)

    def _candidate(self, base: Position[Any, Any], move: Move, extends: bool = False) -> Candidate:
        points = move.points()
        target = base.occupied_after(move)
        expected = self.expected
        start, landing = points[0], points[-1]
        if extends:  # the piece stands on the last stop of the chain already committed
            assert self.extendable is not None
            start = self.extendable[1].points()[-1]
        # the landing's switch does not change (an occupied landing), or nothing changes at all
        # (a Messenger Boy order sending a man back to where he began)
        silent = (landing in expected and landing != start) or target == expected
        may_empty = (expected - target) | {start}
        if silent:  # the piece there is lifted off while the mover comes (a capture)
            may_empty |= {landing}
        return Candidate(
            move=move,
            target=target,
            may_empty=may_empty,
            may_fill=(target - expected) | frozenset(points[1:-1]) | {landing},
            landing=landing,
            silent=silent,
            extends=extends,
            leaves=start if start not in target else None,
        )

    def continuations(self) -> Occupancy:
        """Where a chain just committed may go on to (to light instead of everything else)."""
        if self.extendable is None:
            return frozenset()
        path = self.extendable[1].points()
        n = len(path)
        return frozenset(
            c.move.points()[n] for c in self.candidates if c.extends and c.move.points()[:n] == path
        )

    def landings(self) -> Occupancy:
        """Every point a legal move of the side to move may land on."""
        return frozenset(c.landing for c in self.candidates if not c.extends)

    def judge(self, board: Occupancy) -> Verdict:
        expected = self.expected
        if board == expected:
            self.stops = []
            self._seen_empty = set()
            self._last = board
            return Verdict(Kind.SAME)
        self._seen_empty |= expected - board
        matches = self._by_target.get(board, [])
        # a landing whose occupant was seen lifted off and is now filled again did change:
        # the move is finished (a Skip capture, a fox put where the rabbit was)
        loud = [c for c in matches if not c.silent or c.landing in self._seen_empty]
        if loud:
            if len(_distinct(c.move for c in loud)) > 1 and self.stops:
                seen = [c for c in loud if _in_order(self.stops, c.move.points()[1:])]
                loud = seen or loud
            moves = _distinct(c.move for c in loud)
            if len(moves) == 1:
                return Verdict(Kind.COMMIT, moves, extends=loud[0].extends)
            return Verdict(Kind.AMBIGUOUS, moves, extends=loud[0].extends)
        ways = self._on_the_way(board)
        # where the mover was just set down: newly filled since the last reading (a chain may
        # pass back over its own start, which the expected board has filled already)
        filled = board - self._last
        self._last = board
        if ways and len(filled) == 1:
            (stop,) = filled
            if not self.stops or self.stops[-1] != stop:
                self.stops.append(stop)
        landings = frozenset(c.landing for c in ways)
        if matches:  # only silent ones: finished, or a piece still in the air
            return Verdict(Kind.PENDING, _distinct(c.move for c in matches), landings)
        # DESIGN.md's order: an earlier position (a takeback) before a fresh start; but once the
        # game is over, its start position is a new game, so the finished game stays as it was
        over = self.position.is_over()
        ply = None if over else self._earlier(board)
        if ply is not None:
            return Verdict(Kind.TAKEBACK, ply=ply, landings=landings, after_grace=bool(ways))
        start = self.is_start(board)
        if start is not None:
            return Verdict(Kind.NEW_GAME, new_game=start, landings=landings, after_grace=bool(ways))
        if ways:
            return Verdict(Kind.LIFTED, landings=landings)
        return Verdict(Kind.UNKNOWN)

    def _on_the_way(self, board: Occupancy) -> list[Candidate]:
        expected = self.expected
        gone, new = expected - board, board - expected
        if len(new) > 1:
            return []
        return [
            c
            for c in self.candidates
            if gone <= c.may_empty
            and new <= c.may_fill
            and not (new and c.leaves is not None and c.leaves not in gone)
        ]

    def _earlier(self, board: Occupancy) -> int | None:
        for ply in range(len(self.history) - 1, -1, -1):
            occupancy, chance = self.history[ply]
            if occupancy == board and not chance:
                return ply
        return None


def _in_order(stops: list[str], path: tuple[str, ...]) -> bool:
    """Whether ``stops`` occur along ``path`` in order (a subsequence)."""
    it = iter(path)
    return all(stop in it for stop in stops)


def _distinct(moves: Any) -> tuple[Move, ...]:
    out: list[Move] = []
    for move in moves:
        if move not in out:
            out.append(move)
    return tuple(out)
