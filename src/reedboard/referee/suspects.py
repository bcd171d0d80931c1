"""A switch that broke: which one, from what the board reads and the moves that could explain it.

A reed that cracks, a magnet lost or a dry joint leaves one point reading occupied, or empty, for
good. The board then shows the moves the players make everywhere but at that point. This module
holds the reasoning; the decider (decide.py) uses it:

- :func:`fitting_lines`: the lines of play from the position (no move, one, or the mover's move
  and the next side's answer) whose board is the reading everywhere but at one point (or but at
  the points already thought broken).
- :class:`SwitchWatch`: follows a board that means nothing from here, reading after reading, and
  names a point once every line that fits the board but for one point agrees on it, and it has
  for a moment (a hand may still be at work), and, where that switch changed without a move to
  explain it, once it has stayed so longer than a knocked piece stays off.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from reedboard.engine import Move, Position
from reedboard.referee.recognition import TOUCH, Edges, Occupancy

SUSPECT = 4.0
"""How long a switch that changed with no move to explain it must stay so before it is thought
broken: longer than a knocked piece stays off its reed (up to 3 s)."""
AGREED = 2.0
"""How long every reading must agree on one point before it is named: a piece in the air, a
taken piece set down by mistake, a jump chain still under way are mostly gone by then (1 s named
more broken switches in time, but named the switch under a knocked piece three times as often,
and took a wrong line with it)."""
DEPTH = 2
"""The longest line of play looked at: the mover's move, the next side's answer and the move
after (the players go on while the board says nothing; a longer line left out could make a
shorter one look like the only one)."""
KEPT = 12
"""At most so many lines are followed from one look to the next."""
LONGEST = 6
"""Nor a line longer than so many moves."""
STILL = 0.5
"""How long the switches must be still before the board is looked at for a broken switch (a
look at every switch change would cost the loop too much)."""


OVERLAP = 1.0
"""How long before the last switch of a move the next move's first may change (the next side
reaching early)."""


@dataclass(frozen=True)
class Fit:
    """A line of play whose board is the reading everywhere but at ``off``."""

    moves: tuple[Move, ...]
    before: Occupancy
    after: Occupancy
    off: Occupancy
    """The points where the reading is not the line's board (the ignored points left out)."""
    position: Position[Any, Any]
    """The position after the line."""
    steps: tuple[Occupancy, ...] = ()
    """The board after each of its moves."""
    positions: tuple[Position[Any, Any], ...] = ()
    """The position after each of its moves."""
    start: Position[Any, Any] | None = None
    """The position it starts from."""

    def but_last(self) -> Fit:
        """The line without its last move (which a longer chain of the same piece may
        replace), nothing off."""
        assert self.start is not None
        return Fit(
            self.moves[:-1],
            self.before,
            self.steps[-2] if len(self.steps) > 1 else self.before,
            frozenset(),
            self.positions[-2] if len(self.positions) > 1 else self.start,
            self.steps[:-1],
            self.positions[:-1],
            self.start,
        )

    def in_order(
        self,
        edges: Edges,
        since: float,
        made: Occupancy = frozenset(),
        *,
        lifts: bool = True,
    ) -> bool:
        """Whether the switches changed as the line would change them: each move changed one
        at least; each move's own points (those no later move changes again; the point off
        left out) after the points of the moves before it (but for :data:`OVERLAP`: the next
        hand may reach early); and no other switch changed but for a touch (``made``: nor
        one the move that began the position changed, as it did since). ``lifts`` False: a
        move's own points it empties may have changed before (a piece knocked off its reed,
        then lifted while it read so, reads lifted when it was knocked): only those it
        fills must follow the moves before (that a switch read each piece come down at all is
        the caller's to check: `Decider._each_down_after_up`)."""
        boards = (self.before, *self.steps)
        changed = [a ^ b for a, b in pairwise(boards)]
        latest = since
        for i, points in enumerate(changed):
            if all(edges.last(p) <= since for p in points - self.off):
                return False  # a move no switch saw: a line that only reads so
            own = points - self.off - set().union(*changed[i + 1 :])
            # (a piece it sets down once, touched since, lifted and set back, came down when
            # it did; a point it changes twice, lifted and set down by its moves, as read)
            times = [t for p in own if (t := self._changed(p, edges)) > since]
            if not times:
                continue
            # (lifts False: only the points it fills, where a switch read them)
            fills = times if lifts else [edges.last(p) for p in own & boards[i + 1]]
            if min((t for t in fills if t > since), default=latest) < latest - OVERLAP:
                return False
            latest = max(latest, *times)
        moved = set().union(*changed) | self.off
        for point in set(edges.on) | set(edges.off):
            if point in moved or point in made or edges.last(point) <= since:
                continue
            # a switch the line does not change changed since: only a touch (a piece lifted
            # and set back, or one set down and taken away, at once) leaves it so (timed
            # from when the piece last went, or came, not from a bounce as it came back; a
            # knock's 3 s passing too let the watch take lines read past pieces the next
            # side had lifted: Skip reach_early 189)
            on = edges.filled.get(point)
            bounced = edges.bounces.get(point, ())
            offs = [t for t in edges.offs.get(point, ()) if t not in bounced]
            off = offs[-1] if offs else None
            if on is None or off is None:
                return False
            if abs(on - off) > TOUCH and not (off > on and self._stop(on, off, edges)):
                return False
        return True

    def _changed(self, point: str, edges: Edges) -> float:
        """When ``point``'s switch made the line's change there: a touch aside where the line
        changes it once (:meth:`Edges.settled`), else when it last changed."""
        if len(self._changes_at(point)) == 1:
            return edges.settled(point)
        return edges.last(point)

    def _stop(self, on: float, off: float, edges: Edges) -> bool:
        """Whether a piece set down at ``on`` and lifted at ``off`` (a point the line leaves
        as it was) is one of the line's movers on its way: after it left its start and
        before it came down on its landing (second thoughts, or a move counted out, before
        the move was read)."""
        for move in self.moves:
            points = move.points()
            if not points:
                continue
            left = edges.off.get(points[0])
            down = edges.filled.get(points[-1])
            if left is not None and down is not None and left < on and off < down:
                return True
        return False

    def first_move(self) -> Fit:
        """The line's first move alone, missing no point (which point the later moves missed
        is not known)."""
        assert self.start is not None and self.moves
        return Fit(
            self.moves[:1],
            self.before,
            self.steps[0],
            frozenset(),
            self.positions[0],
            self.steps[:1],
            self.positions[:1],
            self.start,
        )

    def past_first(self) -> Fit:
        """The line from after its first move."""
        return Fit(
            self.moves[1:],
            self.steps[0],
            self.after,
            self.off,
            self.position,
            self.steps[1:],
            self.positions[1:],
            self.positions[0],
        )

    def then(self, more: Fit, off: Occupancy) -> Fit:
        """This line followed by ``more`` (a line from where this one ends), ``off`` the point
        thought broken (the reading may agree with the line there by now)."""
        return Fit(
            self.moves + more.moves,
            self.before,
            more.after,
            off,
            more.position,
            self.steps + more.steps,
            self.positions + more.positions,
            self.start,
        )

    def landed(self) -> Occupancy:
        """The points the line's last move fills."""
        return self.after - (self.before, *self.steps)[-2] if self.steps else frozenset()

    def set_down(self) -> Occupancy:
        """The points the line's moves set a piece down on, on its way or at its end."""
        return frozenset().union(*(b - a for a, b in pairwise((self.before, *self.steps))))

    def _changes_at(self, point: str) -> list[int]:
        """The indices of the line's moves that change ``point``."""
        boards = pairwise((self.before, *self.steps))
        return [i for i, (a, b) in enumerate(boards) if (point in a) != (point in b)]

    def first_at(self, point: str) -> int:
        """The index of the line's first move that changes ``point`` (-1: none does)."""
        return next(iter(self._changes_at(point)), -1)

    def last_at(self, point: str) -> int:
        """The index of the line's last move that changes ``point`` (-1: none does)."""
        return next(reversed(self._changes_at(point)), -1)

    def missed(self, point: str) -> bool:
        """Whether ``point``'s switch did not follow a change the line makes there (else it
        changed where the line changes nothing)."""
        return (point in self.before) != (point in self.after)

    def passes(self, point: str) -> bool:
        """Whether the line changes ``point`` anywhere on its way (also where it ends as it
        began: a piece set down there and moved on, which a broken switch there did not
        follow either)."""
        return any((point in a) != (point in b) for a, b in pairwise((self.before, *self.steps)))


def last_changed(position: Position[Any, Any]) -> Occupancy:
    """The points the position's last move changed (none before a first move)."""
    if not position.move_stack:
        return frozenset()
    before = position.copy()
    before.pop()
    return before.occupied() ^ position.occupied()


def fitting_lines(
    position: Position[Any, Any],
    board: Occupancy,
    ignored: Occupancy = frozenset(),
    *,
    depth: int = DEPTH,
    slack: int = 1,
) -> list[Fit]:
    """Every line of up to ``depth`` moves from ``position`` (none first; a line stops at a
    throw to come or the game's end) whose board differs from ``board`` at most at ``slack``
    points besides ``ignored``. One fit per board and position reached (moves spelt two ways
    leave one)."""
    out: list[Fit] = []
    seen: set[tuple[Occupancy, str]] = set()
    start = position.occupied()

    def visit(
        at: Position[Any, Any],
        moves: tuple[Move, ...],
        steps: tuple[Occupancy, ...],
        positions: tuple[Position[Any, Any], ...],
    ) -> None:
        occupied = steps[-1] if steps else start
        off = (occupied ^ board) - ignored
        if len(off) <= slack:
            key = (occupied, at.to_text() if moves else "")
            if key not in seen:
                seen.add(key)
                out.append(
                    Fit(moves, start, occupied, frozenset(off), at, steps, positions, position)
                )
        if len(moves) >= depth or at.is_chance() or at.is_over():
            return
        for move in at.legal_moves:
            after = at.copy(stack=False)
            after.push(move)
            visit(after, (*moves, move), (*steps, after.occupied()), (*positions, after))

    visit(position, (), (), ())
    return out


def _other_orders(fit: Fit) -> list[Fit]:
    """The line's two moves made the other way round, where the rules allow it (one player's
    moves, as in Solitaire: :func:`fitting_lines` keeps one order of a board and position
    reached, which the switches' times may not bear out)."""
    if len(fit.moves) != 2 or fit.start is None:
        return []
    at, steps, positions = fit.start, [], []
    for move in reversed(fit.moves):
        if move not in at.legal_moves:
            return []
        at = at.copy(stack=False)
        at.push(move)
        steps.append(at.occupied())
        positions.append(at)
    return [
        Fit(
            fit.moves[::-1],
            fit.before,
            fit.after,
            fit.off,
            fit.position,
            tuple(steps),
            tuple(positions),
            fit.start,
        )
    ]


def _working(line: Fit, board: Occupancy, edges: Edges, since: float) -> list[Fit]:
    """``line`` (followed on from a look before) without the points it thought broken where
    the board now agrees with it and whose switch changed since the position began: a piece in
    the hand at that look (a goose lifted from 12, read for a moment as 12's switch stuck open
    under it) that has been moved on since. Its switch followed the hand; left off, it would
    stand as a rival point to the one that did break, and no point would ever be named. (A
    switch that stuck open just as its piece was lifted in this position reads the same: it
    loses its point here, and the wait to name it begins anew once a line misses it again.)"""
    working = {p for p in line.off if p not in line.after ^ board and edges.last(p) > since}
    if not working:
        return []
    return [replace(line, off=line.off - working)]


def _filled_first(line: Fit, edges: Edges, since: float) -> set[str]:
    """The landings of ``line``'s moves (one piece from one point to another) whose switch
    closed, and has stayed so, before the piece left its start (its start's switch opened
    only after, bounce aside, since ``since``): no piece came down there by that move."""
    out: set[str] = set()
    boards = pairwise((line.before, *line.steps))
    for move, (before, after) in zip(line.moves, boards, strict=True):
        points = move.points()
        if len(points) < 2 or points[0] == points[-1] or points[0] not in before - after:
            continue
        start, landing = points[0], points[-1]
        filled = edges.filled.get(landing)
        if (
            landing not in after - before
            or filled is None
            or edges.off.get(landing, float("-inf")) >= filled
        ):
            continue
        opened = _first_lift(edges, start, since)
        if opened is not None and opened > filled:
            out.add(landing)
    return out


def _first_lift(edges: Edges, point: str, since: float) -> float | None:
    """When ``point``'s switch first opened since ``since``, a bounce aside (None: never)."""
    bounced = edges.bounces.get(point, ())
    return min(
        (t for t in edges.offs.get(point, ()) if t > since and t not in bounced), default=None
    )


def _left_first(line: Fit, edges: Edges, since: float) -> set[str]:
    """The starts of ``line``'s moves after its first (one piece from one point to another,
    the same side as the move before it) whose switch last opened, and has stayed so, before
    the move before it had its piece lifted (its first lift since ``since``, bounce aside):
    no hand reaches for its next piece before its last one is up, so that switch did not
    follow the move (a peg's switch stuck open under it, the peg moved a moment after the
    next jump: 12-10 then 21-23, 21 reading empty before 12 rose). (Not the other side's
    move: an impatient player may lift before the last piece rose.)"""
    out: set[str] = set()
    if line.start is None:
        return out
    sides = [p.turn for p in (line.start, *line.positions[:-1])]
    boards = pairwise((line.before, *line.steps))
    left: float | None = None  # (when the move before had its piece lifted)
    for i, (move, (before, after)) in enumerate(zip(line.moves, boards, strict=True)):
        points = move.points()
        if len(points) < 2 or points[0] == points[-1] or points[0] not in before - after:
            left = None
            continue
        start = points[0]
        last_off = edges.off.get(start, float("inf"))
        if (
            left is not None
            and sides[i] == sides[i - 1]
            and last_off < left
            and edges.on.get(start, float("-inf")) < last_off
        ):
            out.add(start)
        left = _first_lift(edges, start, since)
    return out


def _stale(line: Fit, edges: Edges, since: float) -> Fit | None:
    """``line`` fitting whole, but at one point it fills or empties whose switch has read so
    since before the position began (against the game, which had it the other way): that
    switch did not follow the move, which fits but for it (a peg jumped onto a hole whose
    switch stuck closed when its own peg was taken); or a landing filled, and never emptied
    since, before its piece left its start (a fox moved onto 11 whose switch had stuck closed
    a moment before: the move fits, but the switch did not follow it); or a start emptied,
    and never filled since, before the same player's move before it had its piece up
    (:func:`_left_first`). None: a landing filled so beside another point the line fits
    but for, or one it empties and fills again whose switch never changed (it fits but for
    two: a goose 15-8 and the fox 5x15 onto it, 15 never opening); a line that fits but for
    two stale points is none either."""
    first = _filled_first(line, edges, since) | _left_first(line, edges, since)
    # (a point it changes on its way and back counts too: a peg jumped off 18 and another
    # onto 18 in the next move, which a switch stuck closed there never followed)
    passed = set().union(*(a ^ b for a, b in pairwise((line.before, *line.steps))))
    stale = {p for p in passed if edges.last(p) <= since} | first
    if line.off:  # (a landing filled first beside the point it misses, or a point it
        # empties and fills again that never changed: it fits but for two; but for its last
        # landing, a piece that may still be in the hand, and a switch dead on its way)
        if first - line.off or (stale - line.off and not line.off <= line.landed()):
            return None
        return line
    if not stale:
        return line
    if len(stale) > 1:  # (two switches that did not follow it: no line of one broken switch)
        return None
    return replace(line, off=frozenset(stale))


def in_hand(board: Occupancy, edges: Edges) -> bool:
    """Whether a piece lifted since the last one set down (a touch aside) is not down."""
    # (each set-down counts, not only a point's last: a piece set down and touched since
    # reads its last fill as the touch's)
    down = max(
        (
            t
            for q, times in edges.fills.items()
            for t in times
            if not any(t - TOUCH < off < t for off in edges.offs.get(q, ()))
        ),
        default=float("-inf"),
    )
    return any(p not in board and t > down for p, t in edges.off.items())


@dataclass
class SwitchWatch:
    """Names the point a broken switch is at, reading after reading (see the module's text)."""

    agreed: str | None = None
    """The one point every fitting line disagreed with the board at, at the last look."""
    since: float = 0.0
    """Since when it has been."""
    kept: list[Fit] = field(default_factory=list)
    """The lines that fitted at the last look (several points: which is not known yet). The
    players go on meanwhile: each is followed further at the next look, so that a switch the
    board could not tell at first may be told by the moves after."""
    of: str = ""
    """The position they start from."""
    dropped: list[Fit] = field(default_factory=list)
    """The lines kept before the last look that no line fitting at it went on from: a hand
    still at work (a fox jumped, the goose it took not yet off) can read for a moment as
    another line, so these are followed once more at the next look."""

    rivals: tuple[str, ...] = ()
    """The first moves (two or more) of the lines that fit the board but for a lift, or a
    landing, one switch missed (which piece moved the board cannot tell: the players can)."""
    rivals_since: float = 0.0
    question: list[Fit] = field(default_factory=list)
    """Once they have stood for :data:`AGREED`, one line for each first move (the first move
    alone where its lines miss different points): ask which was played."""
    asked: tuple[str, ...] = ()
    """The first moves of the lines last asked about (a piece then lifted reads as none of
    them for a while: they are followed until it is down)."""

    lost: bool = False
    """More lines fitted than are followed, or longer: none is named until the position
    changes (the board then means something again)."""

    def taken(self, move: Move) -> None:
        """``move``, the first of lines kept, was taken (the players' answer): those lines are
        followed on from after it (which point their later moves missed is still open)."""
        kept = [f.past_first() for f in self.kept if f.moves[:1] == (move,) and len(f.moves) > 1]
        self.forget()
        if kept:
            self.kept, self.of = kept, kept[0].start.to_text() if kept[0].start else ""

    def forget(self) -> None:
        self.agreed = None
        self.kept, self.dropped = [], []
        self.lost = False
        self.rivals, self.question, self.asked = (), [], ()

    def _fits(
        self, position: Position[Any, Any], board: Occupancy, edges: Edges, since: float
    ) -> list[Fit]:
        """The lines that fit ``board`` but for one point (or whole): from the position, and
        each line kept from the last look followed further, the same point off."""
        if position.to_text() != self.of:
            self.kept, self.of, self.lost = [], position.to_text(), False
            self.rivals, self.dropped, self.asked = (), [], ()
        fits = fitting_lines(position, board)
        for line in (*self.kept, *self.dropped):
            for base in (line, line.but_last()) if line.moves else (line,):
                for more in fitting_lines(base.position, board):
                    if more.off <= line.off and (more.moves or base is line):
                        # (a line whose last move is replaced no longer misses its point:
                        # what it disagrees with is what the longer line does)
                        fits.append(base.then(more, line.off if base is line else more.off))
        # (a position taken as beginning when its last move's piece left: that move's
        # switches changed since; after a throw or a takeback, none or an older move's, which
        # only loosens the check)
        made = last_changed(position)
        out: dict[tuple[Occupancy, str], Fit] = {}
        for f in fits:
            for line in (*_working(f, board, edges, since), f, *_other_orders(f)):
                if line.in_order(edges, since, made):
                    out.setdefault((line.off, line.position.to_text()), line)
                    break
        return list(out.values())

    def look(
        self,
        position: Position[Any, Any],
        board: Occupancy,
        edges: Edges,
        now: float,
        since: float = float("-inf"),
    ) -> tuple[str | None, float | None]:
        """The point to name now (or None), and when to look again if the board stays so
        (``since``: when the position began; a switch that changed since then works). The
        lines read past it are not taken: where no switch broke, such a reading was now and
        then a longer line read short (`confirm` takes a move that fits but there)."""
        self.question = []  # (put anew by this look only)
        held = in_hand(board, edges)
        fits = [
            f
            for line in self._fits(position, board, edges, since)
            if (f := _stale(line, edges, since)) is not None
        ]
        if fits:  # (none: a move under way, most likely; the lines kept wait for its end)
            kept = [f for f in fits if f.off]
            # (and those dropped before, while a piece lifted since is still in the hand: a
            # goose held on its way reads as no move of theirs, or as a line of another's)
            older = self._asked_about(self.dropped) if held else []
            self.dropped = [
                old
                for old in (*self.kept, *older)
                if not any(f.moves[: len(old.moves)] == old.moves for f in kept)
            ]
            self.kept = kept
        if len(self.kept) > KEPT or any(len(f.moves) > LONGEST for f in self.kept):
            # too many readings, or too long, to follow: that one is left proves nothing
            self.lost = True
        if self.lost:
            self.kept, self.agreed = [], None
            return None, None
        if not fits:  # a move under way, most likely: what the readings agreed on stands
            return None, None
        if any(not f.off for f in fits):  # a line fits whole
            self.agreed = None
            return None, None
        points = {p for f in fits for p in f.off}
        if len(points) != 1:
            if not self._hand_at_work(board, edges, now):
                self.agreed = None
            return None, self._rival_lines(fits, edges, now, since)
        (point,) = points
        last = edges.last(point)
        if self.agreed != point:
            self.agreed, self.since = point, now
        due = self.since + AGREED
        if last > since or not all(f.missed(point) for f in fits):
            # it changed with no move to explain it, or it did not follow a move but changed
            # meanwhile (a piece set back, or set down by mistake; or the switch broke under
            # a hand that had lifted its piece): so only once it has stayed so longer than
            # a knocked piece or one set down by mistake stays
            due = max(due, last + SUSPECT)
        if held and any(point not in d.off for d in self._asked_about(self.dropped)):
            # lines asked about, set aside while a piece is in the hand, disagree (a goose
            # held on its way to 13 reads as set down on 11, whose switch never changed, as if
            # 11 had moved first, while which goose moved first was asked): not until it is down
            return None, None
        if now < due:
            return None, due
        return point, None

    def _asked_about(self, lines: list[Fit]) -> list[Fit]:
        """Those of ``lines`` whose first move was one the players were last asked about."""
        return [f for f in lines if f.moves and str(f.moves[0]) in self.asked]

    def _hand_at_work(self, board: Occupancy, edges: Edges, now: float) -> bool:
        """Whether the lines disagree only because a piece is in the hand: one lifted since the
        point was agreed on (no longer than a hand holds one), not yet down (no switch closed
        since), the agreed point's
        switch still since. The agreement stands (the players go on while the board waits on a
        broken switch, and a look with a piece in the air would else begin it anew each move):
        the point is named once the lines agree on it again."""
        if self.agreed is None or edges.last(self.agreed) > self.since:
            return False
        recent = max(self.since, now - SUSPECT)
        down = max(  # (the last piece set down, not a still piece touched and put back)
            (
                t
                for q, t in edges.filled.items()
                if not t - TOUCH < edges.off.get(q, float("-inf")) < t
            ),
            default=float("-inf"),
        )
        return any(
            p != self.agreed and p not in board and t > max(recent, down)
            for p, t in edges.off.items()
        )

    def _rival_lines(self, fits: list[Fit], edges: Edges, now: float, since: float) -> float | None:
        """Where every line that fits moved a piece from, or (a move after it made) onto, a
        point whose switch never changed, and they begin with two or more moves (a goose
        moved to 28 from 29 or from 23, one switch stuck closed; a goose from 23 to 17, 22 or
        15, one stuck open, and the fox has jumped since): once so for :data:`AGREED`,
        :attr:`question` holds one line a first move (the first move alone where its lines
        miss different points). When to look again, if not yet."""
        silent = [f for f in fits if all(edges.last(p) <= since for p in f.off)]
        if len(silent) >= 2:
            # a switch that failed to follow a move is likelier than one that changed by
            # itself just as a move was made (a goose from 15 to 14, 15 stuck closed: not a
            # phantom at 14 and the next moves made otherwise)
            fits = silent
        if len(fits) < 2 or any(not f.moves for f in fits):
            self.rivals, self.question = (), []
            return None
        for f in fits:
            (point,) = f.off
            lifted = point in f.before and point not in f.after
            # (a landing missed is a piece that may still be in the hand, until a move after
            # it shows it came down; or one moved on from there since)
            landed = point not in f.before and -1 < f.first_at(point) < len(f.moves) - 1
            if not (lifted or landed) or edges.last(point) > since:
                self.rivals, self.question = (), []
                return None
        by_first: dict[str, list[Fit]] = {}
        for f in fits:
            by_first.setdefault(str(f.moves[0]), []).append(f)
        firsts = tuple(sorted(by_first))
        if len(firsts) < 2:
            self.rivals, self.question = (), []
            return None
        if firsts != self.rivals:
            self.rivals, self.rivals_since, self.question = firsts, now, []
        if now < self.rivals_since + AGREED:
            return self.rivals_since + AGREED
        self.question = _one_each(by_first)
        self.asked = firsts
        return None

    def followed(self, firsts: set[Move]) -> dict[Move, Fit]:
        """The lines kept that begin with one of ``firsts`` (a question put before the lines
        stood for :data:`AGREED`), one a first move as :attr:`question` has them."""
        by_first: dict[str, list[Fit]] = {}
        for f in self.kept:
            if f.moves and f.moves[0] in firsts:
                by_first.setdefault(str(f.moves[0]), []).append(f)
        return {f.moves[0]: f for f in _one_each(by_first)}


def _one_each(by_first: dict[str, list[Fit]]) -> list[Fit]:
    """One line for each first move: the shortest, or where its lines miss different points
    (which is a question for after the answer) the first move alone."""
    return [
        min(group, key=lambda g: len(g.moves))
        if len({g.off for g in group}) == 1
        else group[0].first_move()
        for group in by_first.values()
    ]
