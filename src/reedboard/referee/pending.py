"""Moves the board showed made while a hand may still be making another (recognition's
``PENDING``), followed until a later reading tells.

A capture onto a man's square reads exactly like that man touched while the capturer is held;
a capture whose taken man slides off from under the capturer changes no switch at all; a chain
set down on a landing that another route passes through may go on. Rather than guess, the
session keeps the ways the game may have gone since its last committed move, each a *line*:
the moves read so far and a :class:`Recognizer` for the board after them. Each settled reading
is judged on every line. Where a line shows another move made, the moves before it were made
too; the moves every surviving line agrees on are committed, in order; lines the board no
longer fits are dropped. Lines that still differ after :data:`ASK_DEPTH` moves are put to the
player (a candidate blinks amber; `confirm` takes the line it starts).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from reedboard.engine import Move, Position
from reedboard.referee.recognition import (
    REACTION,
    Edges,
    Kind,
    Occupancy,
    Recognizer,
    Verdict,
    distinct,
    goes_on,
)

MAX_DEPTH = 4
"""Moves a line may run ahead of the game before recognition stops following it."""
MAX_LINES = 6
"""Lines followed at once."""
ASK_DEPTH = 2
"""Lines that still differ this many moves ahead are put to the players (the next side has
moved: the player whose move it was is still at the board)."""


UNEXPLAINED = (Kind.UNKNOWN, Kind.TAKEBACK, Kind.NEW_GAME)


def completes(verdict: Verdict) -> bool:
    """A reading that shows a move made (not the board as it was)."""
    return verdict.kind in (Kind.COMMIT, Kind.AMBIGUOUS) or (
        verdict.kind is Kind.PENDING and verdict.made
    )


@dataclass(frozen=True)
class PendingStep:
    move: Move
    extends: bool
    """The move replaces the one before it (a longer chain)."""
    since: float
    """When it was first read: switch edges from then on belong to the moves after it."""
    silent: bool = False
    """Read only as the mover lifted, its landing's switch never changed: it was made only if
    the next side then plays."""
    left: float | None = None
    """When its mover left its point (that switch's last lift when the step was read)."""


def left_at(move: Move, edges: Edges) -> float | None:
    """When ``move``'s mover left its point, as the switches show it now: the last lift of
    its first point (None if it never changed, or the move has no points)."""
    points = move.points()
    return edges.off.get(points[0]) if points else None


@dataclass
class Line:
    """One way the game may have gone since its last committed move."""

    steps: tuple[PendingStep, ...]
    reader: Recognizer
    """Reads boards as they are once the steps are taken."""
    board: Occupancy
    """The reading its last step was read on."""

    def then(
        self, move: Move, extends: bool, board: Occupancy, now: float, silent: bool = False
    ) -> Line:
        step = PendingStep(move, extends, now, silent, left_at(move, self.reader.edges))
        reader = reader_after(self.reader.position, move, extends, now, self.reader.edges)
        return Line((*self.steps, step), reader, board)

    def gone_on(self, move: Move, board: Occupancy, now: float) -> Line:
        """The line with its last move replaced by ``move``, a longer chain of it (one move,
        not that move and another)."""
        last = self.steps[-1]
        step = PendingStep(move, last.extends, now, False, last.left)
        reader = reader_after(self.reader.position, move, True, now, self.reader.edges)
        return Line((*self.steps[:-1], step), reader, board)

    def in_order(self, move: Move, extends: bool) -> bool:
        """Whether ``move`` can follow the line's last step by the switches' times: a move
        after another begins after it did, so its mover left its point after the last
        step's mover left its own. (A chain going on is the same hand's: always.)"""
        if extends:
            return True
        edges, last = self.reader.edges, self.steps[-1]
        left, before = left_at(move, edges), last.left
        if left is None or before is None:
            return True
        set_off = before
        start, *route = last.move.points()
        if (
            edges.on.get(start, before) > before
            and start not in route  # (a loop's mover comes back to its start)
            and start not in move.points()
        ):  # its point was filled again since (its mover put back, the move only touched):
            # it left when that point last emptied
            before = edges.off.get(start, before)
        for point in route[:-1]:  # a chain's piece set down on its way (the point filled
            # after it set off, before the move after it began) left it when that point
            # last emptied: the move after it begins after that
            filled, off = edges.filled.get(point), edges.off.get(point)
            if filled is not None and off is not None and set_off <= filled <= left < off:
                return False
        return left >= before

    def key(self) -> tuple[tuple[str, bool], ...]:
        return tuple((str(s.move), s.extends) for s in self.steps)

    def answered_too_soon(self, verdict: Verdict) -> bool:
        """Whether the next move ``verdict`` reads began within :data:`REACTION` of a silent
        last step's reading (its mover just lifted), or of its mover's last lift since from a
        point of its route it was set down on: no next side plays that fast, so it is the same
        hand's doing (a piece touched while the mover is still in the air)."""
        last = self.steps[-1]
        if not last.silent or verdict.extends:  # a chain going on is the same hand's, rightly
            return False
        edges = self.reader.edges
        # when the silent step's mover was lifted: its points' last lift before it was read
        lifted = max(
            (t for p in last.move.points() if (t := edges.off.get(p, float("-inf"))) <= last.since),
            default=last.since,
        )
        starts = {m.points()[0] for m in verdict.moves if m.points()}
        for t in (edges.off.get(p, float("-inf")) for p in starts):
            # or since, from a point of its route it was set down on (bounce aside)
            lifts = [
                u
                for p in last.move.points()
                for u in edges.offs.get(p, ())
                if lifted < u <= t
                and u not in edges.bounces.get(p, ())
                # (set down there first: else the lift is a man it takes, coming off)
                and any(lifted < f < u for f in edges.fills.get(p, ()))
            ]
            if (last_lift := max(lifts, default=lifted)) <= t < last_lift + REACTION:
                return True
        return False


def reader_after(
    position: Position[Any, Any], move: Move, extends: bool, now: float, edges: Edges
) -> Recognizer:
    """A recognizer for the board once ``move`` is played on ``position`` (replacing its last
    move when it ``extends`` it)."""
    base = position.copy()
    if extends:
        base.pop()
    made = base.copy()
    made.push(move)
    extendable = (base, move) if move.points() else None
    return Recognizer(made, extendable=extendable, edges=edges, since=now)


def _onto_a_man(step: PendingStep, lines: list[Line]) -> bool:
    """Whether ``step``'s move lands on a point a man stood on before it (a capture onto his
    square): its landing's switch reads the same for the capture and for a hand touching him."""
    for line in lines:
        if line.steps[0] is step and line.reader.extendable is not None:
            base, move = line.reader.extendable
            points = move.points()
            return bool(points) and points[-1] != points[0] and points[-1] in base.occupied()
    return False


@dataclass
class Reading:
    """What the session does with a reading while moves are pending."""

    commit: tuple[PendingStep, ...] = ()
    """Take these, in order, first."""
    verdict: Verdict | None = None
    """Then act on this; None: judge the board again once the commits are made."""
    pending: Pending | None = None
    """Then wait on these lines (the commits' lines, past them)."""
    ask: tuple[Line, ...] = ()
    """Put these lines to the player."""
    early: bool = False
    """The commits are read on lines as moves made with the next side reaching early (the
    board means nothing on any line as it stands)."""


@dataclass
class Pending:
    lines: list[Line]
    made: bool
    """The first move, which every line starts with, had every switch change: it is taken
    after the hold time, or once the next side lifts a man."""
    at: float
    """The last reading that kept it waiting (the hold time counts from here)."""
    moves: tuple[Move, ...] = field(default=())
    """The moves the game's own position read (what a new PENDING verdict is compared with)."""
    preferred: Line | None = None
    """Of several lines, the one whose first move was since seen made (its landing emptied
    and filled again): taken after the hold time. The others stay, for a touched man can
    look like a capture's landing refilled: the next moves, or the players, tell."""

    @classmethod
    def start(
        cls,
        position: Position[Any, Any],
        verdict: Verdict,
        board: Occupancy,
        now: float,
        edges: Edges,
    ) -> Pending:
        lines = [
            Line(
                (
                    PendingStep(
                        move,
                        verdict.extends,
                        now,
                        not verdict.made or move in verdict.alike,
                        left_at(move, edges),
                    ),
                ),
                reader_after(position, move, verdict.extends, now, edges),
                board,
            )
            for move in distinct((*verdict.moves, *verdict.alike))[:MAX_LINES]
        ]
        made = verdict.made and len(verdict.moves) == 1
        preferred = lines[0] if made and len(lines) > 1 else None
        return cls(lines, made, now, verdict.moves, preferred)

    def prefer(self, move: Move, now: float) -> bool:
        """The game's own position now reads ``move`` (one of the lines' first moves, read
        on a landing that did not change) as made: prefer its line. False if no line is it."""
        for i, line in enumerate(self.lines):
            if len(line.steps) == 1 and line.steps[0].move == move:
                step = line.steps[0]
                made = Line(
                    (PendingStep(move, step.extends, now, False, step.left),),
                    line.reader,
                    line.board,
                )
                self.lines[i] = self.preferred = made
                self.made, self.at = True, now
                return True
        return False

    def add(self, lines: list[Line]) -> None:
        """Follow ``lines`` too: each once (a line kept twice would crowd another out of
        :data:`MAX_LINES`), while there is room. A move read made before keeps its claim on
        the hold time (:attr:`preferred`)."""
        known = {line.key() for line in self.lines}
        if self.made and self.preferred is None and len(self.lines) == 1:
            self.preferred = self.lines[0]
        for line in lines:
            if line.key() not in known and len(self.lines) < MAX_LINES:
                known.add(line.key())
                self.lines.append(line)

    def held(self) -> tuple[PendingStep, ...]:
        """What the hold time takes: the preferred line's first move, or the first move every
        line starts with."""
        if self.preferred is not None:
            return self.preferred.steps[:1]
        step = self.first()
        return (step,) if step is not None else ()

    def held_on(self, board: Occupancy) -> tuple[PendingStep, ...]:
        """What the hold time takes on ``board``: the whole line at rest there when one is;
        else the held move, but only while its line still explains the board (a line the
        board has left behind is no longer evidence of anything)."""
        resting = self.at_rest(board)
        if len(resting) == 1:
            return resting[0].steps
        held = self.held()
        if not held:
            return ()
        for line in self.lines:
            if line.steps[:1] == held and line.reader.judge_quietly(board) not in UNEXPLAINED:
                return held
        return ()

    def first(self) -> PendingStep | None:
        """The move every line starts with, if they all start alike."""
        step = self.lines[0].steps[0]
        same = all(
            (line.steps[0].move, line.steps[0].extends) == (step.move, step.extends)
            for line in self.lines
        )
        return step if same else None

    def extended_by(self, verdict: Verdict) -> bool:
        """Whether the game's own position reads a longer chain of one line's first move
        (not for sure): follow it as that line going on, not instead of the lines."""
        if verdict.kind is not Kind.PENDING or not verdict.moves:
            return False
        for line in self.lines:
            step = line.steps[0]
            if step.extends == verdict.extends and all(
                goes_on(m, step.move) for m in verdict.moves
            ):
                return True
        return False

    def goes_on(self, verdict: Verdict) -> bool:
        """Whether every move of a finished reading is the first pending move gone on (the
        same chain, longer)."""
        step = self.first()
        if not self.made or step is None or verdict.kind is Kind.SAME:
            return False
        return verdict.extends == step.extends and all(goes_on(m, step.move) for m in verdict.moves)

    def read(
        self,
        board: Occupancy,
        verdict: Verdict,
        now: float,
        plainly: bool = False,
        doubt: bool = False,
        mistaken: bool = False,
        strayed: bool = False,
    ) -> Reading:
        """The game's own position read ``board`` as ``verdict``, which finishes nothing
        (``plainly``: nothing for sure); read it on every line. ``doubt``: the game's own
        position also reads it as a move made while a still piece is lifted (touched): moves
        the lines show made are followed, not taken, until a reading tells. ``mistaken``: it
        also reads as a capture under way whose taken man was set down by mistake on an empty
        point (:meth:`Recognizer.set_down_by_mistake`): a man lifted is then no sign that the
        next side has begun (it may be that capturer in the hand). ``strayed``: the move
        read made has a point set down on off its route that another move may have come
        down on: a man lifted is no sign that it was made either."""
        judged = [(line, line.reader.judge(board)) for line in self.lines]
        done = [
            (line, v)
            for line, v in judged
            if (
                # a move plainly made after moves read made beats a move only probably made
                # here; after a move read on a landing that did not change, it does not
                # (a longer chain replacing the line's own move is no move after it)
                v.kind is Kind.COMMIT and not v.extends and not any(s.silent for s in line.steps)
                if plainly
                else completes(v)
            )
            and not line.answered_too_soon(v)
        ]
        if done:  # the moves read before were made: the next one is, too
            grown = [
                line.then(m, v.extends, board, now)
                for line, v in done
                for m in v.moves
                if len(line.steps) < MAX_DEPTH and line.in_order(m, v.extends)
            ]
            if (doubt or mistaken) and not plainly:
                self.add(grown)
                self.at = now
                return Reading(verdict=Verdict(Kind.LIFTED), pending=self)
            if grown:
                # a move read made but not for sure (another may still be in the hand) waits
                # on, though what came before it is sure now
                tentative = all(v.kind is Kind.PENDING for _, v in done)
                return self._settle(grown, now, tentative)
        if plainly:
            return Reading(verdict=verdict)
        if not (doubt or mistaken) and (early := self._reached_early(judged, board)):
            return dataclasses.replace(self._settle(early, now), early=True)
        # (lines the board no longer explains, a chain that did not go on, have no say)
        alive = [line for line, v in judged if v.kind not in UNEXPLAINED]
        first = self.first() or (Pending(alive, self.made, self.at).first() if alive else None)
        if (
            self.made
            and not mistaken
            and not strayed
            and first is not None
            and not _onto_a_man(first, self.lines)
            and verdict.kind in UNEXPLAINED
            and any(
                len(line.steps) == 1 and v.kind not in UNEXPLAINED and board <= line.reader.expected
                for line, v in judged
            )
        ):  # a move made, and the next side has lifted a man. (A landing whose switch never
            # changed needs the next move finished to say so: a man merely lifted beside it may
            # be a piece touched while the mover is held; so may a landing on a man that went
            # empty and full again: a hand touching that man reads the same. A man set down
            # as well but not a move finished may be the mover landing while another piece
            # is touched.)
            return Reading(commit=(first,))
        for line, v in judged:  # the next move reads made too, on a landing that did not change
            if (
                v.kind is Kind.PENDING
                and not v.made
                and line.board != board
                and len(line.steps) < MAX_DEPTH
                and len(self.lines) < MAX_LINES
            ):
                self.add(
                    [
                        line.then(m, v.extends, board, now, True)
                        for m in v.moves
                        if line.in_order(m, v.extends)
                    ]
                )
        explained = [v for _, v in judged if v.kind not in UNEXPLAINED]
        self.at = now
        if verdict.kind in UNEXPLAINED and explained:  # the next side on its way
            return Reading(
                verdict=Verdict(Kind.LIFTED, landings=explained[-1].landings), pending=self
            )
        return Reading(verdict=verdict, pending=self)

    def _reached_early(self, judged: list[tuple[Line, Verdict]], board: Occupancy) -> list[Line]:
        """Where the board means nothing on any line, the lines on which it reads as one move
        made while the next side reached early, and theirs made after it (the moves overlap
        past a move read ahead), grown by that move: dated from when its piece left, so the
        next side's move is read from then."""
        if any(v.kind not in UNEXPLAINED for _, v in judged):
            return []
        grown = []
        for line, _ in judged:
            reader = line.reader
            early = reader.reached_early(board)
            moves = {(c.move, c.extends) for c in early}
            if len(moves) != 1 or not reader.early_made or len(line.steps) >= MAX_DEPTH:
                continue
            if reader.made_but_touched(board) or reader.held_early:
                continue  # (another reading: a still piece touched; the next readings tell)
            c = early[0]
            left = reader.early_left.get(c.move, reader.edges.off.get(c.start or "", 0.0))
            before = line.steps[-1].left
            # (its mover left after the line's last one did; the reading checked the rest: a
            # start filled again since is the move after it landing there, not a touch)
            if c.extends:  # the line's last move went on (a longer chain): that move, whole
                grown.append(line.gone_on(c.move, board, left))
            elif before is None or left >= before:
                grown.append(line.then(c.move, c.extends, board, left))
        return grown

    def _settle(self, lines: list[Line], now: float, tentative: bool = False) -> Reading:
        """Lines that each show a move made on this reading: commit what they agree on (but
        the last move, when it is ``tentative``: it waits as a move read made)."""
        unique: dict[tuple[tuple[str, bool], ...], Line] = {}
        for line in lines:
            unique.setdefault(line.key(), line)
        lines = list(unique.values())[:MAX_LINES]
        keys = [line.key() for line in lines]
        n = 0
        while all(len(k) > n for k in keys) and len({k[n] for k in keys}) == 1:
            n += 1
        if tentative:
            n = min(n, min(len(k) for k in keys) - 1)
        common = lines[0].steps[:n]
        if len(lines) == 1 and not tentative:
            return Reading(commit=common)
        if tentative and len({k[n:] for k in keys}) == 1:  # one move read made, waiting
            line = lines[0]
            rest_line = Line(line.steps[n:], line.reader, line.board)
            made = len(rest_line.steps) == 1
            return Reading(
                commit=common,
                verdict=Verdict(Kind.LIFTED),
                pending=Pending([rest_line], made, now, ()),
            )
        rest = [Line(line.steps[n:], line.reader, line.board) for line in lines if line.steps[n:]]
        if not rest:  # (a line that is all of the common part: nothing of it is left to wait)
            return Reading(commit=common)
        if max(len(line.steps) for line in rest) >= ASK_DEPTH:
            return Reading(commit=common, ask=tuple(rest))
        return Reading(
            commit=common,
            verdict=Verdict(Kind.LIFTED),
            pending=Pending(rest, False, now),
        )

    def at_rest(self, board: Occupancy) -> list[Line]:
        """The lines whose board ``board`` is (for `roll` and `confirm`)."""
        return [line for line in self.lines if line.reader.expected == board]
