"""From magnets to moves: compare the settled physical occupancy with what the engine expects.

Pure and clock-free: :class:`Recognizer` answers "what does this board mean?" for one settled
reading; the decider (decide.py) decides when a reading is settled and what to do with the
answer.

Presence cannot tell pieces apart, and in Fox and Rabbit two pieces may share a circle, so
recognition follows the engine's state. For every legal move it knows the occupancy once the
move is made (a *target*) and what the board may look like on the way there (pieces lifted,
jumped pieces taken off in any order, a fox set down mid-chain). A reading is then one of
docs/design.md's cases, in this order:

1. the expected board: nothing to do (``SAME``);
2. the board after exactly one legal move, or one more step of a jump chain: ``COMMIT`` (or
   ``AMBIGUOUS`` when two moves leave the same board and the switches cannot tell them apart);
3. pieces on their way through a legal move: ``LIFTED``, with the landing points to light;
4. an earlier position of this game: ``TAKEBACK``;
5. the start position of the game (after a finished game, before 4): ``NEW_GAME``;
6. anything else: ``UNKNOWN`` (a mismatch, once it has stayed for the grace time).

Never guess (docs/design.md). A settled reading is only what the switches show while hands may still
be on the board, so a reading that is a finished move *and* a move still in the hand is
``PENDING``, not ``COMMIT``: a capture onto a piece's circle reads exactly like that piece
touched while the mover is held; a chain set down on a landing that another route passes
through may go on. The session (reedboard/referee/pending.py) commits a pending move once a later
reading shows the next move made on the board after it, on `roll` or `confirm`, or, when every
switch of it changed (``Verdict.made``), once the board has stayed so for the hold time.
Cases 4 and 5 are acted on only after the grace time, and never while the reading is also a
move on its way (a piece held mid-move); `undo` and `new` say so at once.

The switches' edges are kept with their times (:meth:`Recognizer.edge`), since a settled
reading loses them: a capture whose taken man comes off and capturer goes down within the
settle time is still seen (its landing went empty and full again), and a landing refilled
*before* the mover left its start was refilled by another hand (a piece touched), not by the
mover: a piece is not in two places.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from reedboard.engine import Move, Position

Occupancy = frozenset[str]

TOUCH = 2.0
"""Seconds at most a hand keeps a still piece up when it touches it: one up longer is being
moved."""

CARRY = 0.05
"""Seconds at least a hand takes to carry a piece from one point to another: a landing
refilled sooner after the mover left was refilled by another hand (a touched man put back)."""

DEEP = 3
"""How many moves after the first :meth:`Recognizer.reached_early` reads, each begun before
the one before it came down (four moves in all: more would read past what the board can
tell, and cost more than a reading may take; three deep lost Skip and Fox and Geese games
whose hands overlapped four moves running)."""

PUT_ASIDE = 0.1
"""Seconds at least from a taken man's lift to his being set down on another point by
mistake: the hand carries him there. Longer than :data:`CARRY`, the least for a piece set
down at all (a mover's hop, a man put back where he stood): a man put aside is lifted, held
and set down elsewhere, not moved on in one sweep; a point filled sooner was another hand's
piece (FG reaching early 152: a fox set down 51 ms after a goose left his point). (Not
from the lift of the capture's mover: two hands lift the mover and set the man down by
mistake together as often as they take a man off as a jumper lands, and a capture read made
from such a mistake is a move nobody played, where the wait is only a wait.)"""

REACTION = 0.25
"""Seconds at least between a move read made and the next side's first touch on the board:
a player sees the move before answering it. A change sooner belongs to the same hand."""

REACH = 3.0
"""Seconds at most between a move's piece leaving its point and the move before it being
taken: the next player reaching early lifts a piece while the last one is still in the air."""

KNOCKED = 1.0
"""Seconds at most before a move's piece left that a piece of the next side may read lifted:
the mover's hand knocked it off its reed, and the next player lifted it for their move while
it read so."""

OFFS_KEPT = 16
"""Switch openings kept a point (:attr:`Edges.offs`)."""

CANDIDATES_KEPT = 256
"""Positions whose candidates are kept (the moves a board may show made from each depend on
the position only; reading moves made with the next side reaching early builds readers from
the same few positions over and over)."""


@dataclass
class _Known:
    """A position's candidates, with what is asked of them often (built once)."""

    candidates: tuple[Candidate, ...]
    counts: dict[int, bool] | None = None
    prefixes: set[tuple[tuple[str, ...], bool]] | None = None


_CANDIDATES: dict[tuple[type, str, str], _Known] = {}

SET_BACK = 3.5
"""Seconds within which a piece lifted and back on its point is no move begun: longer than a
hand touching it keeps it up (:data:`TOUCH`) or a knocked piece stays off its reed (up to 3 s)."""

SET_DOWN = 0.1
"""Seconds at least a piece set down at the end of a move stays before a hand lifts it again:
a shorter contact (a few milliseconds, bounce and all) is the piece sliding over the point."""

BOUNCE = 0.005
"""A switch that opens for no longer than this (seconds) and closes again is contact bounce,
not a piece lifted: the point stays filled since it first closed."""


def _taken(before: Occupancy, after: Occupancy, points: tuple[str, ...]) -> Occupancy:
    """The men a ply of ``points`` took, from the boards before and after it (those it
    emptied but its start, and a man it landed on)."""
    taken = before - after - frozenset(points[:1])
    if points and points[-1] in before and points[-1] != points[0]:
        taken |= {points[-1]}  # (a capture onto the man it takes)
    return taken


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
    """The landing point was occupied already: its switch need not change, so the finished
    move may read like a piece still in the air (a capture onto a man's square, Fox and Rabbit's
    shared circles)."""
    extends: bool = False
    """A longer jump chain replacing the move just committed."""
    leaves: str | None = None
    """The point the mover leaves empty, if any: until it reads empty, nothing newly placed
    can be this move's piece (a piece is not in two places)."""
    start: str = ""
    """Where the mover stands before it moves (for an extension, the chain's last stop)."""
    away: str | None = None
    """A point that must read empty while the mover is set down anywhere new: where it left
    (and a chain's start, even one that comes back to it: it is not there while the piece
    stands at a stop)."""
    one_piece: bool = True
    """One piece moves (a step, a chain): its landing fills only after its start empties.
    (Several men of a Parchesi double 6 may leave one point: it empties with the last.)"""
    passes: Occupancy = frozenset()
    """Points a hand counting the move out sets the piece down on before its landing
    (:meth:`engine.Position.passes`): a set-down there is the count under way."""
    changes: bool = False
    """Second thoughts: the move just committed taken back and this one, of the same piece
    from the same start, made instead (``extends`` is set too: it replaces that move)."""


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    moves: tuple[Move, ...] = ()
    landings: Occupancy = frozenset()
    """Points to light green: where the lifted pieces may land."""
    ply: int | None = None
    """TAKEBACK: the ply to go back to."""
    extends: bool = False
    """COMMIT, AMBIGUOUS, PENDING: the move replaces the last committed one (a longer chain)."""
    on_the_way: bool = False
    """TAKEBACK, NEW_GAME: the same reading is also a move on its way (a piece held mid-move),
    so it is never acted on by itself."""
    changes: bool = False
    """COMMIT: the move replaces the last committed one, of the same piece (second
    thoughts: the player moved it on before the other side touched anything)."""
    made: bool = False
    """PENDING: every switch of the move changed (a capture's landing went empty and full
    again after the mover left), so the move is made unless a hand still holds a piece; it is
    committed after the hold time. Otherwise (a landing whose switch did not change) only a
    later reading or a button tells."""
    new_game: Any = None
    """NEW_GAME: the starting position the board shows."""
    alike: tuple[Move, ...] = ()
    """PENDING made: other moves whose board this is too, on landings that did not change (a
    capture whose taken man slid out from under the capturer): the move read made may be a
    touched man put back while one of them was made."""


@dataclass
class Edges:
    """When each switch last opened and closed (the session's clock), shared by the
    recognizers of one board."""

    off: dict[str, float] = field(default_factory=dict)
    on: dict[str, float] = field(default_factory=dict)
    filled: dict[str, float] = field(default_factory=dict)
    """When each point was last filled, bounce aside (the first close of its closed spell)."""
    offs: dict[str, list[float]] = field(default_factory=dict)
    """The last few times each switch opened, oldest first."""
    fills: dict[str, list[float]] = field(default_factory=dict)
    """The last few times each point was filled (:attr:`filled`), oldest first."""
    now: float = float("-inf")
    """When the reading being judged was taken (a piece up since longer than a touch lasts is
    no touch, even with no switch changed since)."""
    bounces: dict[str, list[float]] = field(default_factory=dict)
    """The last few openings of each switch (of :attr:`offs`) that were bounce: it closed
    again within :data:`BOUNCE`, the piece still there."""

    def last(self, point: str) -> float:
        """When ``point``'s switch last changed (never: minus infinity)."""
        never = float("-inf")
        return max(self.on.get(point, never), self.off.get(point, never))

    def settled(self, point: str) -> float:
        """When ``point``'s switch last changed, touches aside: a piece there lifted and set
        back within :data:`TOUCH` (once or more) reads as set down when it came before the
        first of them; a bounce is no change. Empty now: as :meth:`last` has it."""
        last = self.last(point)
        fills = self.fills.get(point, ())
        if not fills or self.on.get(point, float("-inf")) < self.off.get(point, float("-inf")):
            return last  # (empty now, or never filled while watched)
        bounced = self.bounces.get(point, ())
        lifts = [t for t in self.offs.get(point, ()) if t not in bounced]
        came = fills[-1]
        while True:
            lifted = [t for t in lifts if t < came]
            before = [t for t in fills if lifted and t < lifted[-1]]
            if not before or came - lifted[-1] > TOUCH:
                break
            came = before[-1]
        return came

    def record(self, point: str, on: bool, now: float) -> None:
        if not on:
            offs = self.offs.setdefault(point, [])
            offs.append(now)
            del offs[:-OFFS_KEPT]
        if on:
            off = self.off.get(point)
            if off is None or now - off > BOUNCE or point not in self.filled:
                self.filled[point] = now
                fills = self.fills.setdefault(point, [])
                fills.append(now)
                del fills[:-OFFS_KEPT]
            else:  # (that opening was bounce)
                bounces = self.bounces.setdefault(point, [])
                bounces.append(off)
                del bounces[:-OFFS_KEPT]
            self.on[point] = now
        else:
            self.off[point] = now


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
    edges: Edges = field(default_factory=Edges)
    second_thoughts: bool = False
    """Whether the move just committed may be changed for another of the same piece (the
    game's own recognizer; lines read ahead do not)."""
    since: float = float("-inf")
    """When the current position began: switch edges before it belong to earlier moves."""
    refill_after: float = float("-inf")
    """A landing filled at or before this is no refill of this position's moves (it was the
    move before's landing: a board read ahead of a move made with the next side reaching)."""

    def __post_init__(self) -> None:
        self.stops: list[str] = []
        """Where the moving piece was seen set down since the last commit, in order: it tells
        apart jump chains that end alike (the same geese, another route)."""
        self.off_route = False
        """After :meth:`judge`: the move read made was set down off its route first (no
        finished move's route has every stop: a mistaken set-down, or moves made ahead)."""
        self.early_made = False
        """After :meth:`reached_early`: the moves it read have the next side's move made
        after them (not only on its way)."""
        self.held_early: list[Candidate] = []
        """After :meth:`reached_early`: moves it shows made but for pieces of the next side
        only lifted (a hand touching them reads the same): the board is on its way, not wrong."""
        self.early: list[Candidate] = []
        """After :meth:`reached_early`: what it returned."""
        self.early_plain: set[Move] = set()
        """After :meth:`reached_early` (deeper down too): the moves it read with the next
        side's move plainly made after them (every switch of it changed, a piece set down
        on an empty point), not only on a landing that went empty and full again."""
        self.early_left: dict[Move, float] = {}
        """After :meth:`reached_early`: when each move it read (or held) left its point, as
        it read it (the lift before its landing filled: its start may have been lifted
        again since, by the next side's piece set down there and touched; or, a chain round
        a loop, by its own piece beginning the move after)."""
        self.refresh(self.since)

    def edge(self, point: str, on: bool, now: float) -> None:
        """A switch changed (before any settling): keep when."""
        self.edges.record(point, on, now)

    def refresh(self, since: float | None = None) -> None:
        """Recompute the candidates after the position changed (at ``since``)."""
        if since is not None:
            self.since = since
        self.stops = []
        self.held_early, self.early_made = [], False
        self._took: bool | None = None  # (_last_took, once a position)
        self.early, self.early_left, self.early_plain = [], {}, set()
        position = self.position
        self._last: Occupancy = position.occupied()
        self.expected: Occupancy = position.occupied()
        key = (type(position), repr(position.options), position.to_text())
        known = _CANDIDATES.pop(key, None)
        if known is None:
            moves: Sequence[Move] = (
                [] if position.is_chance() or position.is_over() else list(position.legal_moves)
            )
            known = _Known(tuple(self._candidate(position, m) for m in moves))
        _CANDIDATES[key] = known  # (latest last: the oldest go first)
        if len(_CANDIDATES) > CANDIDATES_KEPT:
            del _CANDIDATES[next(iter(_CANDIDATES))]
        self.candidates = list(known.candidates)
        self._known = known
        if self.extendable is not None:
            base, prefix = self.extendable
            path = prefix.points()
            taken = base.occupied_after(prefix) if path else frozenset()
            for move in base.legal_moves:
                points = move.points()
                longer = goes_on(move, prefix)
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
                elif self.second_thoughts and changed_for(move, prefix):
                    c = self._candidate(base, move, extends=True)  # (from where it stands)
                    if c.target != self.expected:  # (another spelling of the same board is none)
                        self.candidates.append(dataclasses.replace(c, changes=True))
        if len(self.candidates) != len(self._known.candidates):  # (chains gone on besides)
            self._known = _Known(tuple(self.candidates))
        self._starts = frozenset(c.start for c in self.candidates if not c.extends and c.start)
        """Where the side to move's pieces stand that a move of theirs starts from."""
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
        # one route unless the game's moves say otherwise (only then build the routes)
        one_piece = type(move).routes is Move.routes or len(move.routes()) <= 1
        # the landing's switch does not change (an occupied landing), or nothing changes at all
        # (a Messenger Boy order sending a man back to where he began)
        silent = (landing in expected and landing != start) or target == expected
        passes = base.passes(move)
        may_empty = (expected - target) | {start}
        if silent:  # the piece there is lifted off while the mover comes (a capture)
            may_empty |= {landing}
        return Candidate(
            move=move,
            target=target,
            may_empty=may_empty,
            may_fill=(target - expected) | frozenset(points[1:-1]) | {landing} | passes,
            landing=landing,
            silent=silent,
            extends=extends,
            leaves=start if start not in target else None,
            start=start,
            one_piece=one_piece,
            passes=passes,
            away=start
            if start and (start not in target or (one_piece and start == landing))
            else None,
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

    def finished(self, board: Occupancy) -> list[Candidate]:
        """The candidates whose move the board shows made: its target, and a landing that
        filled (or emptied and filled again) after the mover left its start."""
        return [
            c
            for c in self._by_target.get(board, [])
            if (self.refilled(c) and not self._flown(c, board) if c.silent else self._carried(c))
        ]

    def _flown(self, c: Candidate, board: Occupancy) -> bool:
        """A magnet brushed an empty point after ``c``'s landing was refilled: a piece was
        still in the air, and with every other piece in its place it was the mover (the
        landing was refilled by a hand putting back what it touched)."""
        refilled = self.edges.on.get(c.landing, float("-inf"))
        return any(
            t > refilled for p, t in self.edges.on.items() if p not in board and t >= self.since
        )

    def _carried(self, c: Candidate, filled: float | None = None) -> bool:
        """The landing filled after the mover's start emptied (when the start was seen to empty
        since this position began): a piece is not in two places. ``filled``: when the
        landing was filled, if not lately (its piece has gone on since: the next side's
        moves, reaching early)."""
        if c.one_piece and c.start and c.landing == c.start and not c.extends:
            # a chain round a loop: the piece must have left its start and come back, not
            # only the pieces it takes come off (a longer chain read on from where the piece
            # was set down may have gone round before it was)
            if filled is not None:
                bounced = self.edges.bounces.get(c.start, ())
                return any(
                    self.since <= t < filled and t not in bounced
                    for t in self.edges.offs.get(c.start, ())
                )
            went = self.edges.off.get(c.start, float("-inf"))
            return went >= self.since and self.edges.on.get(c.start, float("-inf")) > went
        if c.leaves is None or not c.one_piece:
            return True
        left = self.edges.off.get(c.leaves)
        if left is None or left < self.since:
            return True  # a man entering from off the board, or the edge is not ours
        return self.edges.filled.get(c.landing, float("-inf")) > left

    def counting(self, c: Candidate) -> bool:
        """Whether ``c``'s landing lies on the count of a longer move of the same piece: a
        set-down there may be the count going on."""
        known = self._known
        if known.counts is None:  # (once a position: it is asked of each candidate often)
            known.counts = {
                id(e): any(
                    e.landing in d.passes
                    for d in self.candidates
                    if d.start == e.start and d is not e
                )
                for e in self.candidates
            }
        counts = known.counts.get(id(c))
        if counts is None:
            counts = any(
                c.landing in d.passes for d in self.candidates if d.start == c.start and d is not c
            )
        return counts

    def may_go_on(self, c: Candidate) -> bool:
        """Whether a candidate is ``c``'s chain gone on (the same route, longer)."""
        known = self._known
        if known.prefixes is None:
            known.prefixes = {
                (d.move.points()[:k], d.extends)
                for d in self.candidates
                for k in range(1, len(d.move.points()))
            }
        return (c.move.points(), c.extends) in known.prefixes

    def reached_early(
        self,
        board: Occupancy,
        depth: int = DEEP,
        need: Occupancy | None = None,
        inner: bool = False,
    ) -> list[Candidate]:
        """Moves ``board`` shows made while the next side's hand is on the board already (it
        lifted a piece, or moved one, before this move's piece came down): the move's own
        switches show it made (its landing filled after its piece left, and its start stayed
        empty meanwhile), and the board reads as the next side's move on its way, or made,
        from the position after it, with a piece of theirs set down already (pieces only
        lifted may be a hand touching them; deeper down, the move above is that piece), or as
        that move made while the side after it reached early in turn (``depth`` more). The
        moves read so must account for every point set down on since this position began that
        is empty again (``need``: a piece is set down only on a route), and each must end after
        the one before it (the next side's piece lands after this one); deeper down, a move's
        piece left at most :data:`REACH` before the move above came down (a piece up longer
        is a man taken, or touched: no hand reaches so early). A chain just committed
        may have gone on (``extends``). A landing that did not change, a chain that may go on, a
        landing on a longer move's count are no evidence of a move ended. A landing filled more
        than once may have had its piece touched after it came down: each fill is tried."""
        if need is None:  # set down on since this position began, and lifted again (not
            # the last move's own points: its piece slid over them, or its taken men)
            need = self.strays(board)
        out: list[tuple[Candidate, Kind]] = []
        held: list[Candidate] = []
        lefts: dict[Move, float] = {}
        plain: set[Move] = set()
        tried: set[tuple[Move, bool, float]] = set()
        for c, filled in self._landed(board, gone_on=not inner):
            if any(c is d for d, _ in out) or any(c is d for d in held):
                continue  # (read already, when its landing was last filled)
            if self.counting(c) or (c.changes and self._other_side_first(c)):
                continue
            unchanged = c.silent and not self.refilled(c)
            landed = filled  # when it ended, for the moves after it
            if unchanged:  # deeper down: only the next side's move plainly made after it tells
                filled, landed = float("inf"), self.since
            if c.landing not in board and not unchanged:
                # (a contact too short for a set-down is a piece sliding over the point: the
                # piece came down there when it last stayed, if it did)
                filled = landed = self.set_down(c.landing, filled)
            if (c.move, c.extends, filled) in tried:
                continue  # (that set-down read already, from a later fill of the point)
            tried.add((c.move, c.extends, filled))
            # set down and moved on by the next moves (the side after, reaching early)
            if c.landing not in board and (
                depth == 0 or c.one_piece is False or filled < self.since
            ):
                continue
            left = self.since
            if c.leaves is not None:
                # its piece left (lately: the next side reached early) before it came down,
                # and nothing came back there before it did (else a touch put it back)
                # (empty now: it left when it last went empty, not at a bounce of the piece
                # that came there before)
                since_back = (
                    self.edges.on.get(c.leaves, float("-inf"))
                    if c.leaves not in board
                    else float("-inf")
                )
                # (a bounce as its piece came down there is no lift: the piece stayed)
                bounced = self.edges.bounces.get(c.leaves, ())
                offs = [
                    t
                    for t in self.edges.offs.get(c.leaves, ())
                    if self.since - REACH <= t < filled and t > since_back and t not in bounced
                ]
                if not offs:
                    continue
                went = offs[-1]
                back = self.edges.filled.get(c.leaves, float("-inf"))
                if any(went < t < filled for t in self.edges.fills.get(c.leaves, ())):
                    continue  # (back on its point before the landing filled: it never left,
                    # though lifted again since, a touch)
                if c.leaves in board and back <= went:
                    continue  # (and another piece came there since, or it never left)
                if inner and went < self.refill_after - REACH:
                    continue  # (up long before the move before it came down: a piece
                    # taken, or touched, not the next side reaching early)
                left = went
            elif not self._carried(c, None if c.landing in board else filled):
                continue
            # a chain that may go on has not ended, unless the side after has moved since
            # (deeper down: the next side's move plainly made after it)
            may_go_on = self.may_go_on(c)
            if c.extends:
                assert self.extendable is not None
                after = self.extendable[0].copy()
            else:
                after = self.position.copy()
            after.push(c.move)
            lifted_only = not inner and not board - after.occupied()
            rest = need - c.may_fill - self._taken_set_down(c, need) - self._passed_on(c, need)
            if c.changes and self.extendable is not None:
                rest -= {self.extendable[1].points()[0]}  # (set back on its start on the way)
            if c.leaves is not None:
                began = left
            elif c.one_piece and c.start and c.landing == c.start:
                # a chain round a loop began when its piece last left its start before it
                # came back (a later lift of it is a touch)
                began = max(
                    (t for t in self.edges.offs.get(c.start, ()) if t < filled), default=left
                )
            else:
                began = self.edges.filled.get(c.landing, left)
            gone_at = {p: self.edges.off.get(p, began) for p in after.occupied() - board}
            knocked = {p for p, t in gone_at.items() if t < began}  # (read lifted before)
            if knocked and (
                min(gone_at[p] for p in knocked) < began - KNOCKED
                or c.leaves is None
                or c.extends
                or c.may_empty != {c.leaves}
                or self._last_took()
                or self._last_landing() in knocked
            ):
                continue  # a piece of what came next left before this move began (but for
                # one knocked as this move's piece was lifted, and lifted while it read so,
                # where this move is a step and the ply before it took no man: no man came
                # off that a hand set down by mistake; and then only where the next side's move
                # reads plainly made. Not the piece the last move moved: lifted first, it is
                # that move changed on second thoughts, or taken back)
            reader = Recognizer(
                after, edges=self.edges, since=max(left, self.since), refill_after=landed
            )
            verdict = reader.judge(board)
            kind = verdict.kind
            plainly = False  # (the next side's move made, every switch of it changed)
            nexts: list[Candidate] = []  # (the next side's moves read)
            if kind in (Kind.COMMIT, Kind.PENDING, Kind.AMBIGUOUS):
                made = nexts = [d for d in reader.candidates if d.move in verdict.moves]
                plainly = kind is Kind.COMMIT and not any(d.silent for d in made)
                fills = frozenset().union(*(d.may_fill for d in made))
                if any(
                    not d.silent and reader.edges.filled.get(d.landing, float("inf")) <= landed
                    for d in made
                ):
                    kind = Kind.UNKNOWN  # the next side's move ended before this one
            elif kind is Kind.LIFTED:
                nexts = reader._on_the_way(board)
                fills = frozenset().union(*(d.may_fill for d in nexts))
                if any(
                    self.since < self.edges.filled.get(p, float("-inf")) <= landed
                    for p in board - after.occupied()
                ) or any(
                    self.since < self.edges.filled.get(p, landed) < landed
                    and self.edges.off.get(p, landed) < landed - REACTION
                    for p in rest & fills
                ):
                    kind = Kind.UNKNOWN  # the next side's piece down before this one's (a
                    # touched piece set back is no landing of a move begun after it, nor a
                    # point set down on and lifted again well before this move came down)
            else:
                fills = frozenset()
            if kind is Kind.UNKNOWN and depth > 0:
                # the next side's move made while the side after it reached early in turn
                deeper = reader.reached_early(board, depth - 1, rest, inner=True)
                if deeper and all(
                    d.silent or reader.edges.filled.get(d.landing, float("inf")) > landed
                    for d in deeper
                ):
                    # (a move whose switches all changed, ended after this one: this one
                    # ended too, even on a landing that did not change, and so it did where
                    # the move after reads several ways, each ended after it; but a chain read gone
                    # on over such a landing when its shorter part reads plainly made is the
                    # shorter one, with more besides)
                    plainly = all(
                        not d.silent or d.move in reader.early_plain for d in deeper
                    ) and not (
                        unchanged
                        and any(
                            goes_on(c.move, d.move) and d.silent and self.refilled(d)
                            for d in self.candidates
                        )
                    )
                    kind, rest = (Kind.COMMIT if plainly else Kind.LIFTED), frozenset()
                    nexts = deeper
            if rest - fills:
                continue  # a piece set down where none of these moves goes
            if (
                unchanged
                and c.extends
                and any(
                    left <= self.edges.off.get(d.start, float("-inf")) < left + REACTION
                    for d in nexts
                    if d.start
                )
            ):  # its piece going on from where it had come down, the next side beginning as
                # it left: no player answers so fast, a hand touching that piece while the
                # next side moves (no evidence that it went on)
                continue
            touched = {p for d in nexts for p in (d.start, *d.may_fill, *d.may_empty)}
            touched |= set(c.move.points())
            still = board & after.occupied() & self.position.occupied() - touched
            if self.set_back_late(still, left):
                continue  # a piece up longer than a touch or a knock, back on its point, that
                # no move read touches: a move made there (its switch thought broken)
            if kind in (Kind.UNKNOWN, Kind.TAKEBACK, Kind.NEW_GAME):
                continue
            if knocked and (
                not (kind is Kind.COMMIT and plainly)
                or any(  # (a capture that takes the man read lifted early, or one read
                    # lifted and lands where the next side's move did: a man lifted early is
                    # as likely one it takes first)
                    d.may_empty & knocked
                    or (
                        d.may_empty & gone_at.keys() and any(d.landing in n.may_fill for n in nexts)
                    )
                    for d in self.candidates
                    if not d.extends and d.start and len(d.may_empty) > 1
                )
            ):
                continue
            if kind is Kind.COMMIT and plainly:
                plain.add(c.move)
            surely = kind is Kind.COMMIT or (
                kind is Kind.PENDING and verdict.made and not unchanged
            )  # (made, unless a hand still holds a piece: the next side's, so this one is down)
            if (unchanged or may_go_on) and not surely:
                continue
            if lifted_only and not (kind is Kind.COMMIT or verdict.made):
                # only pieces lifted since (and no move of the next side's made where a
                # switch went empty and full again): a hand touching them reads the same
                held.append(c)
            else:
                out.append((c, Kind.COMMIT if surely else kind))
            if c.leaves is not None:
                lefts.setdefault(c.move, left)
            elif c.one_piece and c.start and c.landing == c.start:  # (a chain round a loop:
                lefts.setdefault(c.move, began)  # its start's last lift is the next move's)
        # the next side's move read made beats one read only on its way
        made = [c for c, kind in out if kind is Kind.COMMIT]
        self.early_plain = plain & {c.move for c in made}
        if not inner:
            self.held_early = held
            self.early_made = bool(made)
            self.early_left = lefts
            self.early = made or [c for c, _ in out]
        return made or [c for c, _ in out]

    def _landed(self, board: Occupancy, gone_on: bool = True) -> Iterable[tuple[Candidate, float]]:
        """Each candidate with when its landing was last filled; then, for one whose landing
        was filled more than once lately, each earlier time too, latest
        first: a hand may have touched the piece after it came down (lifted it and put it
        back), so the move may have ended when its piece first came down (a landing whose
        switch did not change, refilled, too). For a landing empty again (the piece gone
        on, its hand hesitating over it first), the set-down before the last one (at the
        top level only: ``gone_on``)."""
        fills = self.edges.fills
        for c in self.candidates:
            yield c, self.edges.filled.get(c.landing, float("-inf"))
        for c in self.candidates:
            times = [t for t in fills.get(c.landing, ()) if t >= self.since - REACH]
            if len(times) < 2:
                continue
            if c.landing in board and (not c.silent or self.refilled(c)):
                for t in reversed(times[:-1]):
                    yield c, t
            elif c.landing not in board and not c.silent and gone_on:
                # (the set-down before the last one: a hand hesitating over the piece before
                # it went on; fills too short for a set-down read as the last before them)
                last = self.set_down(c.landing, times[-1])
                prior = [t for t in times if t < last]
                if prior and (t := self.set_down(c.landing, prior[-1])) >= self.since - REACH:
                    yield c, t

    def set_down(self, point: str, filled: float) -> float:
        """When a piece was last set down on ``point`` (it stayed :data:`SET_DOWN` at least),
        at ``filled`` or before; -inf if never (as far as the fills kept go)."""
        fills = [t for t in self.edges.fills.get(point, ()) if t < filled]
        for t in (filled, *reversed(fills)):
            if self._stayed(point, t) >= SET_DOWN:
                return t
        return float("-inf")

    def _stayed(self, point: str, filled: float) -> float:
        """How long the piece that filled ``point`` at ``filled`` stayed: until the point last
        emptied before it was filled again (bounce aside)."""
        again = min((t for t in self.edges.fills.get(point, ()) if t > filled), default=None)
        offs = [
            t for t in self.edges.offs.get(point, ()) if filled < t and (again is None or t < again)
        ]
        return max(offs, default=float("inf")) - filled

    def unexplained(self, board: Occupancy) -> Occupancy:
        """Points whose switch changed since this position began that no move on its way to
        ``board`` goes through (a hand touching them, or another move made)."""
        edges = self.edges
        disturbed = {
            p
            for p in (*edges.on, *edges.off)
            if edges.on.get(p, float("-inf")) >= self.since
            or edges.off.get(p, float("-inf")) >= self.since
        }
        for c in self._on_the_way(board):
            disturbed -= c.may_empty | c.may_fill
        return frozenset(disturbed)

    def set_back_late(self, still: Occupancy, since: float) -> bool:
        """Whether a point of ``still`` (as the position had it) was lifted since ``since`` and
        came back on later than :data:`SET_BACK` (each lift and the fill after it, bounce
        aside)."""
        return any(True for _ in self.out_long(still, since))

    def out_long(self, still: Occupancy, since: float) -> Iterator[tuple[float, float]]:
        """Each spell a point of ``still`` was off since ``since`` and back later than
        :data:`SET_BACK`: (when lifted, when back), bounce aside."""
        for p in still:
            bounced = self.edges.bounces.get(p, ())
            fills = self.edges.fills.get(p, ())
            for off in self.edges.offs.get(p, ()):
                if off < since or off in bounced:
                    continue
                back = min((t for t in fills if t > off), default=None)
                if back is not None and back - off > SET_BACK:
                    yield off, back

    def _last_landing(self) -> str | None:
        """Where the position's last move set its piece down (None: no move, or a throw)."""
        stack = self.position.move_stack
        points = stack[-1].points() if stack else ()
        return points[-1] if points else None

    def _last_took(self) -> bool:
        """Whether the position's last move took a man (it emptied more than its start, or
        landed on a man). Worked out once a position (it copies the position: an inner
        reader has no history to read the board before from)."""
        if self._took is None:
            self._took = False
            if self.position.move_stack:
                before = self.position.copy()
                last = before.pop()
                occupied = before.occupied()
                self._took = bool(_taken(occupied, self.position.occupied(), last.points()))
        return self._took

    def strays(self, board: Occupancy) -> Occupancy:
        """Points set down on since this position began and empty again, that were empty
        before it and are not the last move's own (its piece slid over them, or its taken
        men), nor filled for less than :data:`SET_DOWN` (a piece slid over them, on its way
        anywhere: second thoughts slide from where they were set down): set-downs a move made
        since must explain."""
        own: Occupancy = frozenset()
        landed = float("inf")
        taken: Occupancy = frozenset()
        if self.history and self.position.move_stack:
            last = self.position.move_stack[-1].points()
            before = self.history[-1][0]
            own = (before ^ self.expected) | frozenset(last)
            # (set down on after the last move's piece came down: another piece, not it)
            landed = self.came_down(last) if last else landed
            taken = _taken(before, self.expected, last)
            if len(self.history) > 1 and len(self.position.move_stack) > 1:
                # (and the ply's before, a throw taking none: its taken man may have come
                # off, and been set down by mistake, after the last move's piece left)
                earlier = self.position.move_stack[-2].points()
                taken |= _taken(self.history[-2][0], before, earlier)
        strays = {
            p: t
            for p, t in self.edges.filled.items()
            if t >= self.since
            and p not in board
            and p not in self.expected
            and (p not in own or t > landed + BOUNCE)
            and self.set_down(p, t) >= self.since  # (else pieces only slid over it)
        }
        # a man the last move took (or the ply before it: the last may have been reached
        # early) who came off since this position began (it is read from when that move's
        # piece left, the next side reaching early; or the move was read before he came
        # off), set down by mistake and taken away: its own stray, the first set-down soon
        # after he came off (within :data:`REACH`) and before a piece of the side to move
        # that could stop there left its point (a stop of theirs, then), one each
        if not taken or not strays:
            return frozenset(strays)

        firsts: dict[str, float] = {}

        def begun(p: str) -> float:  # (the first lift since of a piece of the side to move
            # that could be set down on p on its way: else no stop of theirs)
            if p not in firsts:
                firsts[p] = min(
                    (
                        t
                        for c in self.candidates
                        if not c.extends and c.start and p in c.may_fill
                        for t in self.edges.offs.get(c.start, ())
                        if t >= self.since and t not in self.edges.bounces.get(c.start, ())
                    ),
                    default=float("inf"),
                )
            return firsts[p]

        for q in sorted(taken):
            bounced = self.edges.bounces.get(q, ())
            offs = [t for t in self.edges.offs.get(q, ()) if t not in bounced]
            off = next((t for t in offs if t >= self.since), None)
            if off is None:
                continue
            back = min((t for t in self.edges.fills.get(q, ()) if t > off), default=float("inf"))
            after = sorted(
                (t, p) for p, t in strays.items() if off < t < min(back, off + REACH, begun(p))
            )
            if after:
                del strays[after[0][1]]
        return frozenset(strays)

    def came_down(self, points: tuple[str, ...]) -> float:
        """When the last move (of ``points``) came down: its landing's first fill after its
        piece last left its start before this position began (a piece set down there since,
        another hand's, is no landing of it); else (or where its route passes its landing
        before it ends there) its landing's last fill."""
        offs = [t for t in self.edges.offs.get(points[0], ()) if t <= self.since]
        if offs and points[-1] not in points[1:-1]:
            after = [t for t in self.edges.fills.get(points[-1], ()) if t > offs[-1]]
            if after:
                return after[0]
        return self.edges.filled.get(points[-1], float("inf"))

    def one_spelling(self, moves: tuple[Move, ...], extends: bool) -> tuple[Move, ...]:
        """``moves`` that read alike, one of each position they leave: moves that end in the
        same position (a loop chain carried one way round or the other) light the same points,
        so no player could answer which; the first spelling is taken."""
        if len(moves) < 2:
            return moves
        base = self.position.copy()
        if extends:
            base.pop()
        seen: dict[str, Move] = {}
        for move in moves:
            after = base.copy()
            after.push(move)
            seen.setdefault(after.to_text(), move)
        return tuple(seen.values())

    def made(self, board: Occupancy) -> list[Candidate]:
        """The moves a button (`roll`, `confirm`: the player says the move is done) may take
        as made on ``board``: those whose target it is, one a move."""
        out: list[Candidate] = []
        for c in self._by_target.get(board, []):
            if all(c.move != o.move for o in out):
                out.append(c)
        return out

    def refilled(self, c: Candidate) -> bool:
        """A silent landing went empty and full again since this position began, and the
        mover's start was left before it was refilled (else another hand refilled it)."""
        # the landing's closed spell began after it opened since this position began (a
        # bounce of the piece that came there is no refill: it is the same spell)
        on = self.edges.filled.get(c.landing, float("-inf"))
        if self.edges.on.get(c.landing, float("-inf")) < self.edges.off.get(c.landing, 0.0):
            return False  # empty now
        if on <= self.refill_after:
            return False  # filled by the move before
        if not any(self.since <= t < on for t in self.edges.offs.get(c.landing, ())):
            return False
        if c.leaves is not None and c.one_piece:
            left = self.edges.off.get(c.leaves, float("-inf"))
            return left >= self.since and on > left + CARRY
        return True

    def judge_quietly(self, board: Occupancy) -> Kind:
        """What :meth:`judge` would say of ``board``, leaving the stops seen as they were."""
        stops, last = list(self.stops), self._last
        try:
            return self.judge(board).kind
        finally:
            self.stops, self._last = stops, last

    def judge(self, board: Occupancy) -> Verdict:
        expected = self.expected
        if board == expected:
            self.stops = []
            self._last = board
            return Verdict(Kind.SAME)
        ways = [c for c in self._on_the_way(board) if not (c.changes and self._other_side_first(c))]
        # where the mover was just set down: newly filled since the last reading (a chain may
        # pass back over its own start, which the expected board has filled already)
        filled = board - self._last
        self._last = board
        if ways and len(filled) == 1:
            (stop,) = filled
            if not self.stops or self.stops[-1] != stop:
                self.stops.append(stop)
        landings = frozenset(c.landing for c in ways)
        finished = self.finished(board)
        # a stop no finished move's route has is a piece set down by another hand (a taken
        # piece put down by mistake and taken away again) when no route explains it at all
        done = [c for c in finished if self._fits_stops(c)] or finished
        # second thoughts only while the other side has not begun
        done = [c for c in done if not (c.changes and self._other_side_first(c))]
        if (
            any(c.changes for c in done)
            and not self._changed_alone(done, ways, board)
            and not self._changed_but_chains(done, ways, board)
        ):
            done = [c for c in done if not c.changes]  # second thoughts only where sure
        # a point set down on since this position began and empty again that no finished
        # move's route has: a mistaken set-down, or moves made ahead (the session asks); but
        # not one set down on soon after a man the move takes came off, while no piece of
        # the side to move that could land there was off its point (that man, set down by
        # mistake and taken away: nothing else it could be)
        stray = self.strays(board)
        self.off_route = bool(done) and all(self._unexplained(c, stray) for c in done)
        if done:
            moves = distinct(c.move for c in done)
            extends = done[0].extends
            spelt = self.one_spelling(moves, extends)
            if len(spelt) == 1 < len(moves) and any(
                goes_on(c.move, m) for c in self.candidates for m in moves
            ):  # spelt alike, but the chain may yet go on one way: wait for it to end (the
                # next side moving, or a button, says it did)
                return Verdict(Kind.PENDING, spelt, landings, extends=extends)
            moves = spelt
            if len(moves) > 1:
                return Verdict(Kind.AMBIGUOUS, moves, extends=extends)
            # the same board is also another move still in the hand (not this one going on):
            # wait for a reading that tells them apart
            if (
                self._other_ways(done[0], ways, board)
                or self._touch_reads_else(board, done[0])
                or self.set_down_by_mistake(board, done[0])
                or self._emptied_in_the_air(done[0])
                or (done[0].changes and self._capturable(done[0]))
            ):
                alike = distinct(
                    c.move
                    for c in self._by_target.get(board, [])
                    if c.silent and c.move != done[0].move and c.extends == extends
                )
                return Verdict(
                    Kind.PENDING, moves, landings, extends=extends, made=True, alike=alike
                )
            return Verdict(Kind.COMMIT, moves, extends=extends, changes=done[0].changes)
        matches = [c for c in self._by_target.get(board, []) if c.silent]
        if matches:  # a landing that did not change: finished, or a piece still in the air
            moves = distinct(c.move for c in matches)
            return Verdict(Kind.PENDING, moves, landings, extends=matches[0].extends)
        # docs/design.md's order: an earlier position (a takeback) before a fresh start; but once
        # the game is over, its start position is a new game, so the finished game stays as it was
        over = self.position.is_over()
        ply = None if over else self._earlier(board)
        if ply is not None:
            return Verdict(Kind.TAKEBACK, ply=ply, landings=landings, on_the_way=bool(ways))
        start = self.is_start(board)
        if start is not None:
            return Verdict(Kind.NEW_GAME, new_game=start, landings=landings, on_the_way=bool(ways))
        if ways:
            return Verdict(Kind.LIFTED, landings=landings)
        return Verdict(Kind.UNKNOWN)

    def _changed_alone(
        self, done: list[Candidate], ways: list[Candidate], board: Occupancy
    ) -> bool:
        """Whether second thoughts are the one reading of ``board``: one move of the same
        piece made instead of the last (spelt one way or another: a loop chain), nothing else
        finished, on its way or touched."""
        if not self._one_position(done):
            return False
        c = done[0]
        return not self._other_ways(c, ways, board) and not self._touch_reads_else(board, c)

    def _one_position(self, done: list[Candidate]) -> bool:
        """Whether ``done`` is one move, or spellings of one read the same way (they leave the
        same position; but a chain gone on, not changed, where it too is read: a loop chain
        carried back to where it began is the chain going on)."""
        moves = distinct(c.move for c in done)
        return len(moves) == 1 or (
            len({(c.extends, c.changes) for c in done}) == 1
            and len(self.one_spelling(moves, done[0].extends)) == 1
        )

    def _changed_but_chains(
        self, done: list[Candidate], ways: list[Candidate], board: Occupancy
    ) -> bool:
        """Whether second thoughts are the one reading of ``board`` made, but for chains of
        the same piece that may pass through it on their way (read made after the hold time,
        the board staying so)."""
        if not self._one_position(done):
            return False
        c = done[0]
        if self._touch_reads_else(board, c):
            return False
        return all(
            d.changes or goes_on(d.move, c.move) or d.move == c.move
            for d in ways
            if not (d.target == board and not d.silent)
        )

    def _emptied_in_the_air(self, c: Candidate) -> bool:
        """Whether ``c`` lands on a man's point that went empty, before it was refilled, while
        the last move's piece was still in the air (this position read from when that piece
        left: the next side reaching early): the hand at the board then was that move's, and
        it may have touched the man; the capture reads made only as a landing that did not
        change does (the hold time, or the next move, tells)."""
        if not c.silent or not self.position.move_stack:
            return False
        last = self.position.move_stack[-1].points()
        if not last:
            return False
        on = self.edges.filled.get(c.landing, float("-inf"))
        offs = [t for t in self.edges.offs.get(c.landing, ()) if self.since <= t < on]
        return bool(offs) and offs[-1] < self.came_down(last)

    def _other_side_first(self, c: Candidate) -> bool:
        """Whether a piece the side to move could move was lifted before ``c``'s piece moved
        on: the other side's hand came in first, so the piece moved on is its move, not
        second thoughts."""
        # (when it first left since this position began: a bounce as it left is the same lift)
        lifts = [t for t in self.edges.offs.get(c.start, ()) if t >= self.since]
        moved = min(lifts, default=self.edges.off.get(c.start, float("-inf")))
        if not lifts and c.landing == c.start:
            moved = float("inf")  # (a change that leaves the piece where it stands, other men
            # taken, and the piece not lifted since: nothing of it came before their hand)
        if c.changes and any(
            self.since <= t < moved
            for p, last in self.edges.filled.items()
            if last >= self.since and p not in self.expected
            for t in self.edges.fills.get(p, ())
        ):  # (a piece set down where the position has none while the piece stood still:
            # another hand's)
            return True
        theirs = self._starts - {c.start, c.landing}
        return any(
            self.since <= t < moved
            and t not in self.edges.bounces.get(p, ())  # (the piece still there)
            and not self._set_back(p, t, moved)
            and (not self._set_back(p, t, float("inf")) or self._may_go(p, c.start))
            for p in theirs
            for t in self.edges.offs.get(p, ())
        )

    def _set_back(self, point: str, lifted: float, before: float) -> bool:
        """Whether the piece lifted from ``point`` at ``lifted`` was back there within
        :data:`SET_BACK`, and ``before`` (the mover left its point only then): a hand
        touching it, or a knock, and no move of theirs begun."""
        end = min(lifted + SET_BACK, before)
        return any(lifted < t <= end for t in self.edges.fills.get(point, ()))

    def _may_go(self, point: str, mover: str | None) -> bool:
        """Whether a move of the side to move from ``point`` lands where a piece has been set
        down since the position began (a capture onto a man whose switch never changed shows
        nothing of it), the mover's own landing too, and the piece on ``mover`` may then move
        onto ``point`` or through it (the goose 9-5 and the fox 17-9 read the same as the
        fox's 11-17 changed for 11-5, the goose on 9 touched): else a piece lifted there and
        back within :data:`SET_BACK` is no move of theirs begun (a knock, a touch, over while
        the mover moved on; the fox's 2-1 changed for 2-3 while the goose on 8 was knocked
        off, the goose 21-15 after it: no fox from 1 reaches 8)."""
        for d in self._known.candidates:
            if d.extends or d.start != point:
                continue
            if self.edges.filled.get(d.landing, float("-inf")) < self.since:
                continue
            after = self.position.copy()
            after.push(d.move)
            if (
                mover is None
                or after.is_chance()  # (a throw next, or the same side again: as before)
                or after.turn == self.position.turn
                or any(
                    m.points()[:1] == (mover,) and point in m.points()[1:]  # (a chain too)
                    for m in after.legal_moves
                )
            ):
                return True
        return False

    def off_its_route(self, board: Occupancy, move: Move) -> bool:
        """Whether ``board`` shows a point set down on and emptied again since this position
        began that ``move`` does not pass and no man it takes alone can have been put on
        (:meth:`_mistaken_only`): another piece may have come down there (the next side
        reaching early, a move of this side's other than ``move``)."""
        stray = self.strays(board)
        return bool(stray) and any(
            c.move == move and self._unexplained(c, stray) for c in self.candidates
        )

    def _capturable(self, c: Candidate) -> bool:
        """Whether the piece ``c`` moves on (second thoughts) is one a capture of the other
        side would take: lifted and set down elsewhere, it may be that man taken off first
        and put down by mistake; the change waits (the hold time, or the next side's lift)."""
        return any(
            c.start in self._taken(d) for d in self.candidates if not d.extends and not d.changes
        )

    def _taken_set_down(self, c: Candidate, points: Occupancy) -> Occupancy:
        """Those of ``points`` (set down on and emptied again) that were filled after a man
        ``c`` takes was lifted: he was put down there by mistake, then taken away."""
        out: set[str] = set()
        for q in self._taken(c):  # (a man is in one place: one set-down each, soon after)
            offs = [t for t in self.edges.offs.get(q, ()) if t >= self.since]
            if not offs:
                continue
            after = sorted((self.edges.filled.get(p, float("-inf")), p) for p in points - out)
            for t, p in after:
                if offs[0] < t <= offs[0] + REACH:
                    out.add(p)
                    break
        return frozenset(out)

    def _mistaken_only(self, c: Candidate, points: Occupancy) -> Occupancy:
        """Those of ``points`` (set down on and emptied again) that only a man ``c`` takes
        can have been set down on (:meth:`_taken_set_down`): when each was filled, every
        piece of the side to move that a move sets down there still stood on its point (a
        piece is not in two places), so no mover of theirs came down there."""
        return frozenset(
            p
            for p in self._taken_set_down(c, points)
            if not any(
                p in d.may_fill and d.start and self._empty_at(d.start, self.edges.filled[p])
                for d in self.candidates
            )
        )

    def _unexplained(self, c: Candidate, stray: Occupancy) -> Occupancy:
        """Those of ``stray`` (points set down on and emptied again) that ``c`` does not
        explain: off its route, no man it takes alone can have been put there, nor its own
        piece on its way."""
        if not stray:
            return stray
        return stray - c.may_fill - self._mistaken_only(c, stray) - self._passed_on(c, stray)

    def _passed_on(self, c: Candidate, points: Occupancy) -> Occupancy:
        """Those of ``points`` (set down on and emptied again) that ``c``'s piece was set down
        on and lifted from before it came down on its landing (a player's second thoughts, or
        a hesitation): filled after it left its start while no other piece stood off its point
        (a piece is in one place, so the one in the hand was it), read from the game's own
        position only."""
        if c.leaves is None or not c.one_piece or not self.second_thoughts:
            return frozenset()  # (a board read ahead of the game, or deeper down, has pieces
            # down where the switches may not: only the game's own position counts them)
        landed = self.edges.filled.get(c.landing, float("inf"))
        out: set[str] = set()
        for p in points:
            on, off = self.edges.filled.get(p), self.edges.off.get(p)
            if on is None or off is None or not on < off < landed:
                continue
            if self._empty_at(c.leaves, on) and not any(
                self._empty_at(q, on) for q in self.expected - {c.leaves}
            ):
                out.add(p)
        return frozenset(out)

    def _empty_at(self, point: str, t: float) -> bool:
        """Whether ``point`` read empty at ``t``: its last lift before then (bounce aside)
        came after its last fill before then."""
        bounced = self.edges.bounces.get(point, ())
        off = max(
            (u for u in self.edges.offs.get(point, ()) if u <= t and u not in bounced),
            default=float("-inf"),
        )
        on = max((u for u in self.edges.fills.get(point, ()) if u <= t), default=float("-inf"))
        return off > on

    def takes(self, c: Candidate) -> bool:
        """Whether ``c`` takes a man (one that may be set down by mistake)."""
        return bool(self._taken(c))

    def _taken(self, c: Candidate) -> Occupancy:
        """The men ``c`` takes (a capture onto the man it takes: its landing)."""
        taken = (self.expected - c.target) - {c.start}
        return taken | {c.landing} if c.silent else taken

    def set_down_by_mistake(
        self,
        board: Occupancy,
        done: Candidate | None = None,
        made: Move | None = None,
        touched: bool = False,
        routed: bool = False,
    ) -> bool:
        """Whether ``board`` is also a capture (other than ``done``) on its way or made, its
        mover lifted (or, against ``made``, another man it takes), whose taken man was set
        down by mistake on an empty point (filled after he was lifted; he is still off, or
        the capturer is down on his point): wait for that point to empty, or the board to
        stay so. ``made``: a move read made, which only a capture of the man it moved
        gainsays (that man may have been taken off first and set down by mistake), not one
        that is it or goes on from it. ``touched``: or so with one still piece lifted
        besides, for less than a touch lasts (a hand touching it). ``routed``: and every
        point set down on and lifted again since this position began is on that capture's
        route, or another man it takes was put there (against moves the next side made
        reaching early, which explain such a set-down: its mover is set down only on its
        route, and a man by mistake once)."""
        edges = self.edges
        if touched:
            # (lifted after every piece new on the board was down, so none of them, and not
            # a man the move read made takes off: he is gone with it)
            latest = max([*edges.off.values(), *edges.on.values(), edges.now], default=edges.now)
            down = max((edges.filled.get(p, latest) for p in board - self.expected), default=latest)
            moved = frozenset().union(*(c.may_empty for c in self.candidates if c.move == made))
            return self.set_down_by_mistake(board, done, made, routed=routed) or any(
                self.set_down_by_mistake(board | {p}, done, made, routed=routed)
                for p in self.expected - board - moved
                if edges.off.get(p, float("-inf")) >= max(latest - TOUCH, down)
            )
        mine = [c for c in self.candidates if c.move == made]
        for point in board - self.expected:
            filled = edges.filled.get(point, float("-inf"))
            rest = board - {point}
            gone, new = self.expected - rest, rest - self.expected
            for c in self.candidates:
                if (done is not None and c.move == done.move) or c.changes or c.landing == point:
                    continue  # (a chain going on, too: the taken man set down by mistake)
                if made is not None and (c.move == made or goes_on(c.move, made)):
                    continue
                if not (gone <= c.may_empty):
                    continue
                # (a capture onto the man it takes lifts him off its landing: the mover may
                # be down there since)
                taken = self._taken(c)
                if not self._left(c, gone) and (made is None or len(taken & gone) < 2):
                    continue  # (its mover not in the hand: no capture under way; against a
                    # move read made, another man it takes off besides the one set down says
                    # it is under way too)
                if made is not None and not any(d.start in taken for d in mine):
                    continue  # (the move read made moved a piece it does not take: no mistake
                    # of that man's makes the move)
                if new - c.may_fill:
                    continue
                off = self.strays(board) - c.may_fill if routed else frozenset()
                if off and (len(off) >= len(taken) or off - self._taken_set_down(c, off)):
                    continue  # a piece was set down off its route and lifted again besides,
                    # and no other man it takes was put there: not this capture
                if any(
                    (q in gone or q == c.landing)
                    and any(self.since <= t <= filled - PUT_ASIDE for t in edges.offs.get(q, ()))
                    for q in taken
                ):  # (a man lifted, and then carried to where he was set down)
                    return True
        return False

    def _left(self, c: Candidate, gone: Occupancy) -> bool:
        """Whether ``c``'s mover has left its start (``gone``: the points empty now that the
        position has filled), or, for a chain round a loop, lifted from it since this position
        began (it comes back there)."""
        if c.start in gone:
            return True
        return (
            c.one_piece is not False
            and c.landing == c.start
            and c.start in self.expected
            and self.edges.off.get(c.start, float("-inf")) >= self.since
        )

    def taken_after(self, board: Occupancy) -> bool:
        """Whether ``board`` is a capture under way, its mover down on its landing and a man
        it takes still on his point (players often take men off after the landing), where a
        man it takes was set down by mistake on an empty point and taken away again, and
        every other point set down on and lifted again since this position began is on its
        route: the men left are taken next (the board empties there), or the hold time
        passes."""
        stray = self.strays(board)
        if not stray:
            return False
        return any(
            self.takes(c)
            and c.landing in board
            and self._left(c, self.expected - board)
            and self._taken(c) & board
            and not stray - c.may_fill - (mistaken := self._taken_set_down(c, stray))
            and mistaken
            for c in self._on_the_way(board)
        )

    def taken_back(self, board: Occupancy, made: Move) -> bool:
        """Whether the piece of ``made`` (a move read made, of a man a capture takes) is off
        its landing again while ``board`` is that capture under way, its mover in the hand
        (one still piece lifted besides, a hand touching it), and that landing was set down
        on soon after the man came off: he was set down there by mistake and taken away."""
        gone, new = self.expected - board, board - self.expected
        for d in self.candidates:
            if d.move != made or d.landing in board:
                continue
            for c in self.candidates:
                if c.extends or c.changes or d.start not in self._taken(c):
                    continue
                if (
                    c.start in gone
                    and len(gone - c.may_empty) <= 1
                    and new <= c.may_fill
                    and self._taken_set_down(c, frozenset({d.landing}))
                ):
                    return True
        return False

    def _touch_reads_else(self, board: Occupancy, done: Candidate) -> bool:
        """Whether ``board`` is also another move made with one still piece lifted (a hand
        touching it): wait for the piece to come back or the board to stay so."""
        return any(c.move != done.move for c in self.made_but_touched(board))

    def made_but_touched(self, board: Occupancy, ahead: bool = False) -> list[Candidate]:
        """The moves ``board`` shows made with one still piece lifted (a hand touching it),
        where that move and that piece account for every point disturbed since this position
        began (a point refilled elsewhere means another piece moved; one set down on and
        empty again, a piece set down off the move's route: another piece moved too).
        ``ahead``: this reads a line of moves read ahead, whose position dates from when its
        move was first read, before that move's own switches were done (a capture's landing
        emptied and filled): the points of that move are its own, not disturbed."""
        out: list[Candidate] = []
        edges = self.edges
        disturbed = (
            (self.expected ^ board)
            | {p for p in board & self.expected if edges.off.get(p, float("-inf")) >= self.since}
            | self.strays(board)
        )
        if ahead and self.extendable is not None:
            base, move = self.extendable
            disturbed -= (base.occupied() ^ self.expected) | frozenset(move.points())
            disturbed |= self.expected ^ board
        latest = max([*edges.off.values(), *edges.on.values(), edges.now], default=edges.now)
        for point in self.expected - board:
            if edges.off.get(point, float("-inf")) < latest - TOUCH:
                continue  # up too long for a touch
            for c in self.finished(board | {point}):
                if disturbed <= c.may_empty | c.may_fill | {point}:
                    out.append(c)
        return out

    def _fits_stops(self, c: Candidate) -> bool:
        """Whether the piece was set down only on ``c``'s route (its new part, for a longer
        chain): a stop on a point empty before the move and off the route contradicts it. (A
        touched piece put back where it stood is no stop of the mover.)"""
        if not c.one_piece:
            return True  # several men moving: their set-downs make no route
        points = c.move.points()
        n = (
            len(self.extendable[1].points())
            if c.extends and not c.changes and self.extendable
            else 1
        )
        route = points[n:]
        real: list[str] = []
        for stop in self.stops:
            if stop in c.passes:
                continue  # counted over on the way
            if (stop in route or stop not in self.expected) and real[-1:] != [stop]:
                real.append(stop)  # (set down twice on one point, a touch between: one stop)
        # put back on its start before it set off (a change: on the start of the move it
        # changes, too, the piece carried back there first)
        starts = {c.start, points[0]} if c.changes else {c.start}
        while real and real[0] in starts:
            real.pop(0)
        return _in_order(real, route)

    def _other_ways(self, done: Candidate, ways: list[Candidate], board: Occupancy) -> bool:
        """Whether the reading is also on its way through a move other than ``done`` (or a
        longer chain that goes on from it)."""
        for c in ways:
            if c.target == board and not c.silent:
                continue  # finished too: told apart above, by the stops (a landing that did
                # not change, though, may yet be the mover's, still in the hand)
            if c.move == done.move and c.extends == done.extends:
                continue
            if goes_on(c.move, done.move) and c.extends == done.extends:
                continue  # the chain going on: committing its first part loses nothing
            return True
        return False

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
            and not (new and c.away is not None and c.away not in gone)
        ]

    def _earlier(self, board: Occupancy) -> int | None:
        for ply in range(len(self.history) - 1, -1, -1):
            occupancy, chance = self.history[ply]
            if occupancy == board and not chance:
                return ply
        return None


def changed_for(move: Move, last: Move) -> bool:
    """Whether ``move`` may replace ``last`` on second thoughts: another move of the same
    piece from the same start (not the same chain gone on, nor cut short)."""
    points, path = move.points(), last.points()
    return (
        move != last
        and bool(points)
        and bool(path)
        and points[0] == path[0]  # (both "" for two men entering from the hand)
        and not goes_on(move, last)
        and not goes_on(last, move)
    )


def goes_on(move: Move, prefix: Move) -> bool:
    """Whether ``move`` is ``prefix``'s chain gone on: the same route, longer."""
    points, path = move.points(), prefix.points()
    return len(points) > len(path) and points[: len(path)] == path


def _in_order(stops: list[str], path: tuple[str, ...]) -> bool:
    """Whether ``stops`` occur along ``path`` in order (a subsequence)."""
    it = iter(path)
    return all(stop in it for stop in stops)


def distinct(moves: Iterable[Move]) -> tuple[Move, ...]:
    """``moves`` once each, in order."""
    return tuple(dict.fromkeys(moves))
