"""What a settled reading of the board means: the one place that decides.

The :class:`Decider` takes the switches (each edge with its time, :class:`Edges`) and the
clock, and decides what the board says: a move made (commit it), moves that a hand may still
be making (follow them as pending lines), moves the switches cannot tell apart (ask), a board
to wait on (an earlier position or a start, a piece that may be in the air, buttons pressed
while it was), a mismatch (guide the board back), a switch that broke (suspect it). It keeps
what it waits on, and says what the session must do as :data:`Decision` values handed to the
session's ``apply`` as they are made: the session commits a move, takes one back, begins a
new game, throws the dice, publishes an event or shows a frame, and tells the decider what
changed (:meth:`Decider.committed`, :meth:`Decider.changed`), so that the next decision reads
from the new position.

What each helper reads: recognition.py (a reading of the board against the position: a
:class:`Verdict`), pending.py (lines of play read ahead of the position), suspects.py (lines
that fit a board but for one switch). The timing is the session's (docs/design.md).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from reedboard.engine import Move, Position
from reedboard.hardware.lights import RED, Light, Pattern
from reedboard.referee.events import Ambiguous, GameEvent, Lifted, Mismatch, MoveCarriedOut, Notice
from reedboard.referee.pending import (
    MAX_LINES,
    Line,
    Pending,
    PendingStep,
    Reading,
    completes,
    left_at,
    reader_after,
)
from reedboard.referee.recognition import (
    REACTION,
    SET_BACK,
    SET_DOWN,
    TOUCH,
    Candidate,
    Edges,
    Kind,
    Occupancy,
    Recognizer,
    Verdict,
    changed_for,
    distinct,
    goes_on,
)
from reedboard.referee.suspects import (
    OVERLAP,
    STILL,
    SUSPECT,
    Fit,
    SwitchWatch,
    fitting_lines,
    in_hand,
    last_changed,
)
from reedboard.wiring.layout import Layout

log = logging.getLogger("reedboard")

QUIET = 4.0
"""Seconds the switches must have been still before `roll` or `confirm` takes a move whose
landing never changed after its piece left: a piece lifted a moment ago may still be in the
hand, to come down elsewhere (the button waits meanwhile). Longer than a hand holds a piece
while its player counts or thinks (up to 3 s), as long as a switch takes to be suspect."""

READ = 1.0
"""Seconds at least a player who has just pressed a button (within twice this) takes to read
a question the board puts meanwhile (which move is lit) and answer it: a `confirm` sooner, with
no press since the question came, goes on with what they pressed for (a throw that did not
come) and answers nothing."""

KNOCK = 3.5
"""Seconds a board that only lacks pieces (nothing where it should not be) must stay so before
it is a mismatch: longer than a piece knocked off its reed stays off (up to 3 s), shorter than
a switch takes to be suspect (:data:`~reedboard.referee.suspects.SUSPECT`), so a piece gone for
good is guided back first (for half a second; then its switch is thought broken, said so)."""


class SessionState(enum.Enum):
    """Where the referee stands (:attr:`Decider.state`). The decider keeps one, changed only
    by :meth:`Decider._enter`; what a state waits on is held beside it (the moves pending or
    asked, the takeback or new game deferred, the move being carried out), and
    :meth:`Decider.check` says whether the two agree (the tests call it after every step)."""

    OVER = "over"
    """The game has ended (a takeback or a new game goes on from here)."""
    RESTORING = "restoring"
    """After `undo`: waiting for the board to be put back as it was."""
    MISMATCH = "mismatch"
    """The board has meant nothing for the grace time: one fix at a time is lit."""
    CARRYING_OUT = "carrying-out"
    """A move from elsewhere is committed and lit: the players are to make it."""
    ASKING = "asking"
    """Moves the switches cannot tell apart are put to the players (amber; hint, confirm)."""
    PENDING = "pending"
    """A move read made that a hand may still be making: the lines of play are followed."""
    WAITING = "waiting"
    """The board shows an earlier position or a start: a takeback or new game once it stays."""
    PLAYING = "playing"
    """The board as the game expects it, or a move on its way."""


# -- decisions: what the session is told to do ----------------------------------------------


@dataclass(frozen=True)
class Commit:
    """The move was made: commit it. ``extends``: it replaces the last move (the same piece
    gone on, or second thoughts); ``since``: when its position began on the board, if before
    now; ``changes``: second thoughts, said so."""

    move: Move
    extends: bool = False
    since: float | None = None
    changes: bool = False


@dataclass(frozen=True)
class TakeBack:
    """The board has stayed as it was before ply ``ply``: take the moves from it back."""

    ply: int


@dataclass(frozen=True)
class NewStart:
    """The board has stayed as a start: begin a new game from ``position``."""

    position: Position[Any, Any]


@dataclass(frozen=True)
class Roll:
    """Throw the dice (a `roll` that waited on a piece in the air)."""


@dataclass(frozen=True)
class Press:
    """Carry out a button pressed earlier, now that the board has said what it waited on."""

    button: str


@dataclass(frozen=True)
class Say:
    """Publish ``event`` (a question, a mismatch, a piece lifted, a notice)."""

    event: GameEvent


@dataclass(frozen=True)
class Show:
    """What the LEDs should show changed: show the frame."""


Decision = Commit | TakeBack | NewStart | Roll | Press | Say | Show


def _hidden_then_seen(line: Fit, ignored: Occupancy, touching: bool = False) -> bool:
    """Whether ``line``'s first move changes a switch in ``ignored`` (thought broken) and some
    other, and every move after it changes others only (``touching``: others too, and may
    take a piece off one of those, not set one down there: that piece may be in the hand)."""
    steps = list(pairwise((line.before, *line.steps)))
    first = steps[0][0] ^ steps[0][1]
    return bool(first & ignored and first - ignored) and all(
        (a ^ b) - ignored and (not (a ^ b) & ignored or (touching and not b & ignored - a))
        for a, b in steps[1:]
    )


def _each_takes(line: Fit) -> bool:
    """Whether each of ``line``'s moves leaves fewer pieces on the board than before it."""
    return all(len(b) < len(a) for a, b in pairwise((line.before, *line.steps)))


def _finished(verdict: Verdict) -> bool:
    """A reading that shows a move made or the board as expected: committed, asked, pending
    with every switch changed, or the same."""
    return verdict.kind in (Kind.SAME, Kind.COMMIT) or completes(verdict)


class Decider:
    """Reads the board of one game as its switches change: see the module's docstring.
    ``apply`` carries out each decision at once (a commit changes the position that the
    next reading reads from)."""

    def __init__(
        self,
        layout: Layout,
        apply: Callable[[Decision], None],
        *,
        settle: float,
        grace: float,
        hold: float,
        dice: bool,
    ) -> None:
        self.layout = layout
        self._do = apply
        self.settle = settle
        self.grace = grace
        self.hold = hold
        self.dice = dice
        """Whether the game has dice (a move pressed before the throw is said so)."""
        self._edges = Edges()
        self._pending: Pending | None = None
        """Moves read as made but not yet taken (reedboard/referee/pending.py)."""
        self._asked: dict[Move, Line] = {}
        """While pending lines are put to the player: the line each candidate starts."""
        self._watch_asked: dict[Move, Fit] = {}
        """A question put because lines lifting from different points fit the board but for
        the one switch each missed: the line of each move asked about."""
        self._unseen_asked: float | None = None
        """When the watch's question was put while its piece may still have been in the hand
        (:meth:`_landed_unseen`), until lines read on from it back it (None: not so; of no
        account once no watch question stands)."""
        self._last_ask: tuple[int, tuple[Move, ...]] | None = None
        """The last question said (ply, candidates), so a touch does not say it twice."""
        self._asked_at = float("-inf")
        """When the question standing was put."""
        self._word: tuple[int, Move] | None = None
        """The ply the players last answered a question at (its count, and the move they
        named): the board read later is no ground for second thoughts about it."""
        self._taken_at = float("-inf")
        """When the session last committed a move."""
        self._pressed_at = self._pressed_before = float("-inf")
        """When a player last pressed a button, and the press before."""
        self._stepped_at = float("-inf")
        """When a player last stepped through a question with `hint`."""
        self.physical: set[str] = set()
        """The points whose switches read a piece."""
        self._changed_at: float | None = None
        self._unknown_since: float | None = None
        self._knocked = False
        """The board that means nothing has pieces missing only (:meth:`_only_missing`)."""
        self._early_two: set[Move] = set()
        """Moves the board has read as made with the next side reaching early, two or more
        at once, since the position began: the switches could not tell them apart."""
        self._early_two_down = float("-inf")
        """When a piece was last set down (where the position has none) as of those readings."""
        self._early_two_at: float | None = None
        """When the board first read so, since it last waited for the hands to rest (the
        grace time counts from then, though the next side's hands go on changing switches:
        the readings only grow deeper)."""
        self._mistaken_at: float | None = None
        """When the board first read, since the position began, as a capture under way whose
        taken man was set down by mistake, or taken after its landing (:meth:`_mistaken`,
        :meth:`_reached_early`)."""
        self._deferred: tuple[float, Verdict] | None = None
        """WAITING: when the board began to show an earlier position or a start, and it."""
        self._state = SessionState.PLAYING
        self._ambiguous: tuple[Move, ...] = ()
        self._ambiguous_extends = False
        self._shown = 0
        self._landings: Occupancy = frozenset()
        self._lifted: Occupancy = frozenset()
        """The landings last published as Lifted (said again only when they change)."""
        self._showing: tuple[Move, Occupancy] | None = None
        """CARRYING_OUT (and a MISMATCH met meanwhile): a move from elsewhere, committed and
        lit, and the board before it."""
        self._suspects: dict[str, bool] = {}
        """Switches thought broken: point -> what it reads whatever is there (True: a piece).
        Until one changes again, its point is read as the game expects it."""
        self._named: dict[str, float] = {}
        """When each switch thought broken was named."""
        self._looked: float | None = None
        """When the board was last searched for a broken switch (once a still spell)."""
        self._watch = SwitchWatch()
        """Follows a board that means nothing from here for a switch that broke."""
        self._watch_due: float | None = None
        """When to look for it again, the board staying so."""
        self._through: tuple[tuple[str, Occupancy, Occupancy], bool] | None = None
        """The last :meth:`_through_a_suspect` (its key, its answer)."""
        self._on_word: tuple[float, list[str], int] | None = None
        """`roll` or `confirm` pressed while the one move that fits the board but for one switch
        lands where that switch did not change, a moment ago: (when to carry them out, the
        buttons, plies then). The piece may still be in the hand; once the switches have been
        still for :data:`SUSPECT`, the buttons are pressed again. A move committed meanwhile
        (the piece came down) leaves only a `roll` to carry out, at once."""
        self._roll_held = False
        """`roll` pressed while the piece that made the last move was up again (second
        thoughts under way): the throw waits until the piece is down (its move, or the move it
        is changed for, read) or the switches have been still for :data:`QUIET`."""
        self._held = False
        """The last settled reading has a piece in the hand: lifted, or an earlier position
        (a takeback, a new game) that is also a move on its way."""
        self._recheck: float | None = None
        """When to read a still board again: a piece lifted may have been a hand touching
        it, and once it has been up longer than a touch lasts, the board may mean more."""
        self._read_again_at: float | None = None
        self._held_doubt = False
        """The last reading was a move made with the next side's piece held that a broken
        switch explains as well (:meth:`_held_landed`): the switches are watched meanwhile."""
        """When to read the still board again (a set-down that may be a mistake, or moves
        read ahead of it): set while judging, turned into the recheck."""
        self._waiting: tuple[list[str], int, Candidate] | None = None
        """A `roll` or `confirm` pressed while the one move the board shows made lands where
        no switch changed since its piece left, a moment ago, so that the piece may still be
        in the hand: (the buttons pressed since, plies then, the move). They are carried out
        once the switches have been still for :data:`QUIET` (the move was made so), another
        piece is lifted and stays up :data:`REACTION` (:attr:`_lifted_meanwhile`) or `roll`
        pressed again (the next side has begun), or the board means
        nothing from here; at once after a move that the piece coming down made instead."""
        self._lifted_meanwhile: tuple[str, float] | None = None
        """Another piece lifted while a button waits (:attr:`_waiting`), and when: the next
        side begun once it has stayed up :data:`REACTION` (the mover's hand brushing it on
        its way lifts it for a moment only; a touch of the next side's is their hand on the
        board, and lasts longer)."""

    # -- what the session tells it -----------------------------------------------------------

    def install(
        self,
        position: Position[Any, Any],
        now: float,
        start_from: Callable[[Occupancy], Position[Any, Any] | None],
    ) -> None:
        """Read the board against ``position`` from here (a game begun or resumed);
        ``start_from`` says which start of the game a board shows, if any."""
        self.position = position
        history: list[tuple[Occupancy, bool]] = []
        self._sync_history(history)
        self.recognizer = Recognizer(
            position, history, start_from, edges=self._edges, since=now, second_thoughts=True
        )
        self._forget_question()
        self._leave(SessionState.PLAYING, SessionState.OVER)  # the game may be over already

    def new_game(
        self,
        position: Position[Any, Any],
        now: float,
        start_from: Callable[[Occupancy], Position[Any, Any] | None],
    ) -> None:
        """A new game begun (read off the board, or `new`): nothing waits on the old one (nor
        the computer's move shown to be carried out)."""
        self.cancel_buttons()
        self._showing = None
        self._leave(SessionState.CARRYING_OUT)
        self.install(position, now, start_from)
        self._leave(SessionState.RESTORING)

    def committed(
        self, base: Position[Any, Any], move: Move, extends: bool, now: float, since: float | None
    ) -> None:
        """The session committed ``move`` (played from ``base``)."""
        if self._waiting is not None and extends:  # the move a button waited on replaced
            # (second thoughts come down): the button is for this one, carried out at once
            self._waiting = (self._waiting[0], -1, self._waiting[2])
        self._taken_at = now
        if not extends:  # the history gains the board before it (no replay needed)
            self.recognizer.history.append((base.occupied(), base.is_chance()))
        self.recognizer.extendable = (base, move) if move.points() else None
        self.changed(now, since)

    def taken_back(self, now: float) -> None:
        """The session took moves back."""
        self.cancel_buttons()
        self.recognizer.extendable = None
        self.changed(now)

    def thrown(self, now: float) -> None:
        """The session pushed a throw."""
        self.recognizer.extendable = None
        self._roll_held = False  # (a roll pressed again meanwhile threw: nothing is left held)
        self._on_word = None  # (nor a button held for a move before this throw)
        self.changed(now)

    def changed(self, now: float, since: float | None = None) -> None:
        """Bring the recognizer and history in line with the position after a change.
        ``since``: when the new position began on the board, if before ``now``."""
        position = self.position
        self._sync_history(self.recognizer.history)
        self.recognizer.position = position
        self.recognizer.refresh(now if since is None else since)
        self._landings = frozenset()  # what the last reading lit belongs to the old position
        self._forget_question()
        self._leave(
            SessionState.PLAYING, SessionState.OVER
        )  # the move may end the game (a takeback reopen it)
        self._unknown_since = None  # a board that meant nothing may mean this move
        # a point the readings agreed on whose switch changed since is no broken switch so
        # far: the new position's readings must agree on it for as long again (a piece
        # touched as the last move ended is no start to a taken piece set down by mistake)
        agreed = self._watch.agreed
        if agreed is not None and self._edges.last(agreed) > self._watch.since:
            self._watch.forget()

    def edge(self, point: str, on: bool, now: float) -> None:
        """A switch changed: ``on``, it reads a piece."""
        if point in self._suspects:  # it changed: it works after all
            del self._suspects[point]
            self._notice(now, "switch-ok", f"switch {point} works again")
        if (
            self._waiting is not None
            and not on
            and self._changed_at is None
            and point in self.recognizer.expected
            and point not in self._waiting[2].may_empty | self._waiting[2].may_fill
            and self._lifted_meanwhile is None
        ):  # a piece lifted while a button waits: the next side has begun, so the move
            # was down (a piece in the air cannot be lifted), once it stays up longer than
            # the mover's hand brushing it. (Not a piece of the move itself: the man a
            # capture takes; nor a point the piece in the hand slid over.)
            self._lifted_meanwhile = (point, now)
        if on:
            self.physical.add(point)
        else:
            self.physical.discard(point)
        self.recognizer.edge(point, on, now)
        self._changed_at = now

    def carry_out(self, move: Move) -> None:
        """``move``, from elsewhere, was committed: the players are to make it (lit)."""
        self._showing = (move, self.reading())
        self._enter(SessionState.CARRYING_OUT)

    def cancel_buttons(self) -> None:
        """`undo` (and a new game, a takeback): buttons waiting on a piece that may be in the
        air are not carried out."""
        self._waiting = self._on_word = None
        self._lifted_meanwhile = None
        self._roll_held = False

    def restore(self, now: float) -> None:
        """`undo` took a move back: nothing is read until the board is put back as it was."""
        self._enter(SessionState.RESTORING)
        self.judge(now)

    def next_candidate(self) -> bool:
        """`hint` while asking: show the next candidate (False: no question is put)."""
        if self._state is not SessionState.ASKING:
            return False
        self._shown = (self._shown + 1) % len(self._ambiguous)
        self._stepped_at = self._pressed_at
        return True

    def pressed(self, now: float) -> None:
        """A player pressed a button (not one carried out later by the board)."""
        self._pressed_before, self._pressed_at = self._pressed_at, now

    def confirm(self, now: float) -> None:
        """`confirm`: the move from elsewhere is carried out; the candidate shown was made; or
        the move that the board shows is done."""
        if self._showing is not None:  # a move from elsewhere that no switch
            self._judge_shown(now)  # sees made (a man onto his own): the players say so
        elif (
            self._state is SessionState.ASKING
            and self._pressed_before < self._asked_at
            and (
                now < self._asked_at + REACTION
                or (
                    self._pressed_before > self._asked_at - 2 * READ and now < self._asked_at + READ
                )
            )
        ):  # a question the board put by itself (a timer, a button held) just before: the
            # press was not an answer to it (no one reads a question that fast); nor where the
            # player had pressed a button just before it came (`roll`, then `confirm` when no
            # throw came: the press goes on with what they meant, not an answer read)
            self._notice(
                now,
                "asking",
                "a question came as confirm was pressed: confirm takes the candidate lit,"
                " hint shows the next",
            )
        elif self._state is SessionState.ASKING and not self._unseen_stands(self.reading()):
            self._drop_unseen(now)  # (the piece in the hand came down off every candidate's
            self.confirm(now)  # line: the press is no answer to that question)
        elif self._state is SessionState.ASKING:  # the candidate shown
            move = self._ambiguous[self._shown % len(self._ambiguous)]
            fit = self._watch_asked.get(move)
            if fit is not None:  # which piece moved, a switch under one never changing
                unseen = self._unseen_asked is not None
                self._ambiguous, self._asked, self._watch_asked = (), {}, {}
                self._leave(SessionState.ASKING)
                point, named = next(iter(fit.off), None), False
                for made in self._still_fitting(fit):
                    if made not in self.position.legal_moves:
                        break  # (the game went on meanwhile: the rest is read as it stands)
                    named |= point in made.points()
                    # (a first move alone is dated from when its piece left: the switches
                    # changed since are its lines' moves after it, read on)
                    left = None
                    if (point is None or (unseen and len(fit.moves) == 1)) and made.points():
                        # (or asked while its piece may have been in the hand, no line read
                        # on from it yet: the moves made since are read after it)
                        left = self._edges.off.get(made.points()[0])
                        if left is not None and left <= self.recognizer.since:
                            left = None  # (its start never opened in this position)
                    self._commit(made, False, now, since=left)
                if point is None:  # a first move alone: its lines are read on from it
                    if self.position.move_stack[-1:] == [fit.moves[0]]:
                        self._watch.taken(fit.moves[0])
                elif named or point in frozenset(self.physical) ^ self.recognizer.expected:
                    # (the part of the line taken moved a piece onto or off that point, or
                    # the switch reads it otherwise: else nothing taken says it is broken)
                    self._suspect(point, now)
                self.judge(now)  # the board may show more (a part of the line not taken)
                return
            line = self._asked.get(move)
            self._ambiguous, self._asked = (), {}
            last = self._last_move()
            if line is not None:  # a line of moves read ahead: all of it was made
                self._take(line.steps, now)
            else:
                self._commit(move, self._ambiguous_extends, now)
            if (said := self._last_move()) != last and said[1] is not None:
                self._word = (said[0], said[1])
            off = (frozenset(self.physical) ^ self.recognizer.expected) - set(self._suspects)
            if len(off) == 1 and line is None:  # taken on the players' word, one switch
                self._suspect(next(iter(off)), now)  # reading otherwise: it is broken
            self.judge(now)  # the board may show the next move already
        elif not self.resolve_silent(now):
            # nothing taken: the players are told so (a press with no answer reads as a
            # board that did not hear it)
            if self._last_edge() > self.recognizer.since:
                self._notice(
                    now,
                    "unseen",
                    "confirm: the switches show no move made; one a switch missed is read"
                    " as the next moves show it",
                )
            else:
                self._notice(now, "no-move", "confirm: the switches show no move made")

    def changing(self) -> bool:
        """Whether the moves pending replace the last move committed (second thoughts, or its
        chain gone on): a throw waits on them."""
        pending = self._pending
        return pending is not None and any(line.steps[0].extends for line in pending.lines)

    def mover_up(self, now: float) -> bool:
        """Whether the piece that made the last move is up again a moment after it: every
        point the move filled reads empty, and a switch changed less than :data:`QUIET` ago
        (second thoughts under way: the move is not done, whatever a button says)."""
        return now < self._last_edge() + QUIET and self._last_piece_up()

    def _last_piece_up(self) -> bool:
        """Whether every point the last move filled reads empty (its piece up again)."""
        if self.recognizer.extendable is None:
            return False
        base, _ = self.recognizer.extendable
        filled = self.position.occupied() - base.occupied()
        return bool(filled) and not filled & self.reading()

    def change_on_roll(self, now: float) -> bool:
        """`roll` for the next throw while the last move's piece is up (its landing reads
        empty) longer than :data:`QUIET`, no change read: the one change of that move onto a
        switch thought broken that fits the board (everywhere but there) is taken first
        (second thoughts onto the dead switch; the board said it saw the piece come down
        nowhere, and the players went on with a roll)."""
        if not self._suspects or not self._last_piece_up() or now < self._last_edge() + QUIET:
            return False
        physical, ignored = frozenset(self.physical), frozenset(self._suspects)
        ends = {
            f.position.to_text(): f
            for f in self._changed_lines(physical, ignored)
            if len(f.moves) == 1
        }
        if len(ends) != 1:
            return False
        (fit,) = ends.values()
        self._pending = None
        self._commit(fit.moves[0], True, now, changes=True)
        return True

    def hold_roll(self, now: float) -> None:
        """`roll` while :meth:`mover_up`: thrown once the piece is down (see
        :attr:`_roll_held`)."""
        if not self._roll_held:
            self._notice(
                now,
                "waiting",
                "roll waits: the piece moved last is in the hand; the dice are thrown once it"
                " is down",
            )
        self._roll_held = True

    @property
    def holding(self) -> bool:
        """Whether a button waits on a piece that may still be in the hand (a `roll` held to
        be pressed again included)."""
        return self._waiting is not None or (
            self._on_word is not None and "roll" in self._on_word[1]
        )

    @property
    def candidate(self) -> Move | None:
        """The candidate lit while asking."""
        return self._ambiguous[self._shown] if self._ambiguous else None

    @property
    def landings(self) -> Occupancy:
        """The landings the last reading lit (a piece lifted, or moves pending)."""
        return self._landings

    @property
    def showing(self) -> Move | None:
        """The move from elsewhere being carried out on the board."""
        return self._showing[0] if self._showing is not None else None

    # -- what it tells the session -----------------------------------------------------------

    def _commit(
        self,
        move: Move,
        extends: bool,
        now: float,
        since: float | None = None,
        changes: bool = False,
    ) -> None:
        self._do(Commit(move, extends, since, changes))

    def _say(self, event: GameEvent) -> None:
        self._do(Say(event))

    def _notice(self, now: float, what: str, detail: str) -> None:
        self._say(Notice(now, what, detail))

    def _grace(self) -> float:
        """How long a board that means nothing must stay so before it is a mismatch: the grace
        time; where pieces are only missing (nothing stands where it should not), longer than
        a knocked piece stays off its reed (:data:`KNOCK`): a piece missing misleads no
        reading, and a knock is no mistake to guide back. So too where the board is a move's
        with pieces missing (the move made while a neighbour was knocked off its reed)."""
        return max(self.grace, KNOCK) if self._knocked else self.grace

    def _only_missing(self, board: Occupancy, now: float) -> bool:
        """Whether ``board`` is the position's, or a move's, with pieces missing only, or
        would read as something but for one piece lifted less than :data:`KNOCK` ago (a
        neighbour knocked off its reed while moves were made)."""
        if board <= self.recognizer.expected or any(
            board <= c.target for c in self.recognizer.candidates
        ):
            return True
        recent = sorted(
            (p for p, t in self._edges.off.items() if p not in board and now - t < KNOCK),
            key=lambda p: -self._edges.off[p],
        )
        return any(
            self.recognizer.judge_quietly(board | {p}) is not Kind.UNKNOWN
            or self.recognizer.reached_early(board | {p})
            for p in recent[:3]
        )

    @property
    def _back(self) -> float:
        """How long a board showing an earlier position or a start must stay before it is a
        takeback or a new game: the hold time, longer than a piece knocked off its reed stays
        off (a knocked man can make the board look like the move before), never shorter than
        the grace time."""
        return max(self.grace, self.hold)

    # -- reading -----------------------------------------------------------------------------

    def _forget_question(self) -> None:
        """The position changed: moves read ahead of it, and any question about them, belong
        to the board as it was. (Whoever asks anew does so after the change.)"""
        self._pending = None
        self._asked, self._watch_asked = {}, {}
        self._ambiguous, self._shown, self._ambiguous_extends = (), 0, False
        self._last_ask = None
        self._word = None
        self._deferred = None
        self._early_two, self._early_two_down = set(), float("-inf")
        self._early_two_at = self._mistaken_at = None
        self._leave(SessionState.PENDING, SessionState.ASKING, SessionState.WAITING)

    def _sync_history(self, history: list[tuple[Occupancy, bool]]) -> None:
        """Make ``history`` hold (occupancy, waits for a throw) of every ply before the
        position's, replaying only the plies it lacks."""
        stack = self.position.move_stack
        del history[len(stack) :]
        if len(history) == len(stack):
            return
        base = self.position.copy()
        for _ in range(len(stack) - len(history)):
            base.pop()
        for move in stack[len(history) :]:
            history.append((base.occupied(), base.is_chance()))
            base.push(move)

    @property
    def state(self) -> SessionState:
        """Where the referee stands."""
        return self._state

    @property
    def mismatch(self) -> bool:
        """Whether a fix is lit: the board is wrong (a mismatch, or a takeback restored)."""
        return self._state in (SessionState.MISMATCH, SessionState.RESTORING)

    def _enter(self, state: SessionState) -> None:
        if state is not self._state:
            log.debug("referee: %s -> %s", self._state.value, state.value)
            self._state = state

    def _at_rest(self) -> SessionState:
        """The state with nothing to wait on: the game goes on, or it is over."""
        return SessionState.OVER if self.position.is_over() else SessionState.PLAYING

    def _leave(self, *states: SessionState) -> None:
        """Leave any of ``states`` for the state at rest."""
        if self._state in states:
            self._enter(self._at_rest())

    def _questions(self) -> None:
        """After the moves pending or asked changed: the state that waits on them (a mismatch,
        a restore or a move carried out wait on the board, whatever else is held)."""
        if self._state in (
            SessionState.PLAYING,
            SessionState.OVER,
            SessionState.PENDING,
            SessionState.ASKING,
        ):
            if self._ambiguous:
                self._enter(SessionState.ASKING)
            elif self._pending is not None:
                self._enter(SessionState.PENDING)
            else:
                self._enter(self._at_rest())

    def check(self) -> None:
        """Raise AssertionError where the state and what it waits on disagree."""
        state = self._state
        held = {
            SessionState.ASKING: bool(self._ambiguous),
            SessionState.WAITING: self._deferred is not None,
            SessionState.CARRYING_OUT: self._showing is not None,
        }
        for owner, present in held.items():
            assert present == (state is owner) or (owner, state) in (
                (
                    SessionState.CARRYING_OUT,
                    SessionState.MISMATCH,
                ),  # a mistake made carrying it out
                (
                    SessionState.WAITING,
                    SessionState.ASKING,
                ),  # a takeback deferred while a question is kept
            ), f"{state.value} with {owner.value}'s data {'' if present else 'missing'}"
        if self._pending is not None:  # (a line kept while a deferred reading waits too)
            assert state in (SessionState.PENDING, SessionState.ASKING, SessionState.WAITING), state
        else:
            assert state is not SessionState.PENDING, "pending without lines"
        if state in (SessionState.PLAYING, SessionState.OVER):
            assert state is self._at_rest(), f"{state.value} but the game is {self._at_rest()}"

    def next_deadline(self) -> float | None:
        times = []
        if self._changed_at is not None:
            times.append(self._changed_at + self.settle)
        if self._unknown_since is not None and not self.mismatch:
            times.append(self._unknown_since + self._grace())
        if self._deferred is not None and self._state in (
            SessionState.WAITING,
            SessionState.ASKING,
        ):
            times.append(self._deferred[0] + self._back)
        if (
            self._state
            is not SessionState.ASKING  # the players are asked: their word, not the clock
            and self._pending is not None
            and self._pending.made
            and self._changed_at is None
            and not self.mismatch
            and self._pending.held_on(self.reading())
        ):
            times.append(self._pending.at + self.hold)
        if self._waiting is not None and self._changed_at is None:
            times.append(self._last_edge() + QUIET)
        if self._waiting is not None and self._lifted_meanwhile is not None:
            times.append(self._lifted_meanwhile[1] + REACTION)
        if self._recheck is not None and self._changed_at is None:
            times.append(self._recheck)
        if self._roll_held and self._changed_at is None:
            times.append(self._last_edge() + QUIET)
        if (due := self._suspect_due()) is not None:
            times.append(due)
        if self._watch_due is not None and self._changed_at is None:
            times.append(self._watch_due)
        if self._on_word is not None and len(self.position.move_stack) != self._on_word[2]:
            # (due at once: not before the button that took the move, if one did)
            times.append(max(self._last_edge(), self._edges.now, self._pressed_at))
        elif self._on_word is not None and self._changed_at is None:
            times.append(self._on_word[0])
        return min(times) if times else None

    def poll(self, now: float) -> None:
        if self._lifted_meanwhile is not None and (
            self._waiting is None or self._lifted_meanwhile[0] in self.physical
        ):
            self._lifted_meanwhile = None  # (back on its point: brushed, not lifted)
        if self._lifted_meanwhile is not None and now >= self._lifted_meanwhile[1] + REACTION:
            assert self._waiting is not None
            point, _ = self._lifted_meanwhile
            self._lifted_meanwhile = None
            if self.reading() | {point} == self._waiting[2].target:
                self._carry_out_waiting(now, begun=True)  # (the move made, their piece up)
        if self._changed_at is not None and now >= self._changed_at + self.settle:
            self._changed_at = None
            self.judge(now)
        if (
            self._deferred is not None
            and self._state in (SessionState.WAITING, SessionState.ASKING)
            and now >= self._deferred[0] + self._back
        ):  # the board has stayed so: a takeback or a new game
            _, verdict = self._deferred
            self._deferred = None
            self._leave(SessionState.WAITING)
            if verdict.kind is Kind.TAKEBACK:
                assert verdict.ply is not None
                self._do(TakeBack(verdict.ply))
            else:
                self._do(NewStart(verdict.new_game))
            self._do(Show())
        pending = self._pending
        if (
            pending is not None
            and pending.made
            and self._changed_at is None
            and self._state
            is not SessionState.ASKING  # the players are asked: their word, not the clock
            and not self.mismatch  # a board found wrong: the players are fixing it
            and now >= pending.at + self.hold
            and (held := pending.held_on(self.reading()))
        ):  # the board has stayed so longer than a hand holds a piece: the moves are made
            self._take(held, now)
            self.judge(now)
        if (due := self._suspect_due()) is not None and now >= due:
            self._looked = now
            self._look_for_a_broken_switch(now)
        if self._watch_due is not None and self._changed_at is None and now >= self._watch_due:
            self._watch_due = None
            self._watch_for_a_broken_switch(now)
        if self._on_word is not None and len(self.position.move_stack) != self._on_word[2]:
            # the piece came down and its move was read: the player's `confirm` is answered;
            # a `roll` asked for the next side's throw
            rolls = "roll" in self._on_word[1]
            self._on_word = None
            if rolls and self.position.is_chance():
                self._do(Press("roll"))
        if self._on_word is not None and self._changed_at is None and now >= self._on_word[0]:
            _, buttons, plies = self._on_word
            self._on_word = None
            for k, button in enumerate(buttons):
                if len(self.position.move_stack) != plies:
                    # the move they were pressed for is taken: the others said the same
                    # (a `confirm` is no word for the next move); a `roll` asks for a throw
                    if "roll" in buttons[k:] and self.position.is_chance():
                        self._do(Press("roll"))
                    break
                self._do(Press(button))
                if self._state is SessionState.ASKING:  # the buttons pressed before the
                    break  # question answer nothing: the players answer it
        if self._recheck is not None and self._changed_at is None and now >= self._recheck:
            self._recheck = None
            self.judge(now)
        if self._roll_held and self._changed_at is None and not self.mover_up(now):
            self._roll_held = False  # the piece is down (or was taken away): throw
            self._do(Press("roll"))
        if self._waiting is not None and self._changed_at is None:
            moved = len(self.position.move_stack) != self._waiting[1]
            if moved or now >= self._last_edge() + QUIET:
                self._carry_out_waiting(now)
        if (
            self._unknown_since is not None
            and not self.mismatch
            and now >= self._unknown_since + self._grace()
        ):  # (moves read ahead no longer explain the board: they are dropped with it)
            pending, self._pending = self._pending, None
            if (whole := self._whole_line(frozenset(self.physical), begun=True)) is not None:
                # the players went on while the board could not follow them, and one line
                # of captures, each begun after the one before and set down after it began,
                # is the switches' board whole
                self._unknown_since = None
                for move in whole.moves:
                    self._commit(move, False, now)
                self.judge(now)
            elif self._ask_early(now):
                self._unknown_since = None
            elif self._watch_asked or self._ambiguous:
                self._unknown_since = None  # the question standing is the word
            elif self._early_two_at is not None and now < self._last_edge() + self._grace():
                # (timed from a reading two ways, and no question to ask after all: a
                # mismatch is then a board that stays so, as anywhere else)
                self._pending = pending
                self._unknown_since, self._early_two_at = self._last_edge(), None
            else:
                self._enter(SessionState.MISMATCH)
                self._say(Mismatch(now, self._fix_text()))
            self._do(Show())

    def judge(self, now: float, first: bool = False) -> None:
        if self._showing is not None and self._judge_shown(now):
            return
        board = self.reading()
        self._edges.now = now
        self._read_again_at = None  # (set below by this reading only)
        self._held_doubt = False
        verdict = self.recognizer.judge(board)
        if (
            verdict.kind is Kind.UNKNOWN
            and self._suspects
            and (physical := frozenset(self.physical)) != board
            and self.recognizer.judge_quietly(physical) is Kind.COMMIT
        ):  # the switch thought broken reads a move made as it is (a piece held long, not a
            # broken switch; or one that broke under a piece now moved away): that move
            board, verdict = physical, self.recognizer.judge(physical)
        two_readings = False
        if (
            verdict.kind is Kind.COMMIT and now < self._last_edge() + self.hold
        ):  # (once still so long, the move is down)
            early = self.recognizer.reached_early(board)
            two_readings = (
                self.recognizer.off_route
                or (self.recognizer.early_made and self._left_late(verdict.moves[0]))
            ) and any(c.move not in verdict.moves for c in (*early, *self.recognizer.held_early))
        if two_readings and self._set_down_elsewhere(verdict, board):
            self._take_early(self.recognizer.early[0], now)
            return
        if (
            verdict.kind is Kind.COMMIT
            and self._state is not SessionState.RESTORING
            and (late := self._set_back_late(verdict, board)) is not None
        ):
            self._take_early(late, now)
            return
        if two_readings:  # a set-down off the move's route that moves made since explain, or
            # a stop the mover left after its landing filled (so another piece stood there)
            # while moves made with the next side reaching early explain it: so the next
            # readings tell, or the board staying so
            verdict = Verdict(Kind.LIFTED)
            self._read_again_at = self._last_edge() + self.hold + 0.001
        if (
            self._waiting is not None
            and verdict.kind is Kind.PENDING
            and verdict.made
            and len(verdict.moves) == 1
            and (down := self._came_down(verdict.moves[0], verdict.extends, board)) is not None
        ):  # a button waits on a piece that may be in the air, and it came down on an empty
            # point, a move: the button's word is for it
            self._waiting = (self._waiting[0], self._waiting[1], down)
            self._carry_out_waiting(now)
            self.judge(now)
            return
        if (
            self._waiting is not None
            and verdict.kind in (Kind.UNKNOWN, Kind.TAKEBACK)
            and self._waited_on_explains(board)
        ):
            # a button waits on a piece that may be in the air, and the board now means
            # nothing from here: the move was down, and the next side has begun
            self._carry_out_waiting(now, begun=True)
            self.judge(now)
            return
        if (
            verdict.kind in (Kind.TAKEBACK, Kind.NEW_GAME)
            and not first
            and self._state is not SessionState.RESTORING
            and self._pending is None
            and self._reached_early(board, now, plainly=True)
        ):  # an earlier board again, but reached by moves made forward, each plainly (three
            # moves round a cycle, the next side reaching early each time): those moves
            return
        if (
            verdict.kind in (Kind.LIFTED, Kind.PENDING)
            and not verdict.made
            and not first
            and not two_readings
            and self._state is not SessionState.RESTORING
            and (self._pending is None or not self._pending.made)
            and self.recognizer.unexplained(board)
            and self._reached_early(board, now, plainly=True)
        ):  # on its way here only with a hand touching a point that another reading has a
            # move of the next side's made on, plainly: that reading
            return
        keep = False
        pending = self._pending
        plies = len(self.position.move_stack)
        if (
            pending is not None
            and not pending.made
            and len(pending.lines) > 1
            and verdict.kind is Kind.PENDING
            and verdict.made
            and len(verdict.moves) == 1
            and pending.prefer(verdict.moves[0], now)
        ):  # one of several captures that read alike now reads made: prefer it, keep the rest
            keep, verdict = True, Verdict(Kind.LIFTED, landings=verdict.landings)
        elif (
            pending is not None
            and pending.made
            and verdict.kind is Kind.PENDING
            and not verdict.made
            and (step := pending.first()) is not None
            and step.move in verdict.moves
        ):  # the same board, but no longer read as made (a piece flew since): start again
            pending = self._pending = None
        if keep:
            pass
        elif pending is not None and not _finished(verdict):
            if verdict.kind is Kind.PENDING and not verdict.made:
                # the game's own position reads other moves made on landings that did not
                # change: follow them beside the lines (the next moves will tell)
                pending.add(Pending.start(self.position, verdict, board, now, self._edges).lines)
            # (or a line read ahead reads it so: a piece it moved knocked or touched while the
            # next side moved, which another line may read as that piece gone on unseen)
            doubt = self._touched(board) or self._touched_ahead(board, now)
            # a move read made (second thoughts of a man a capture takes: the man may have
            # been taken off and set down by mistake) while the board is also that capture
            # under way (a still piece touched meanwhile aside), or that man set down there
            # and taken away again: no man lifted nor move read after it says it was made
            mistaken = (
                pending.made
                and (step := pending.first()) is not None
                and (
                    self.recognizer.set_down_by_mistake(board, made=step.move, touched=True)
                    or self.recognizer.taken_back(board, step.move)
                )
            ) or (
                not pending.made
                and verdict.kind is Kind.UNKNOWN
                and self._mistaken(board, now, lately=True)
            )  # (a move read on a landing that did not change, then a man lifted and another
            # set down: the next side's move, or a capture's taken man set down by mistake,
            # its capturer still in the hand: that point empties, or the hold time tells)
            # a move read made with a point set down on off its route that no man it takes
            # alone can have been put on (a piece of the side to move may have come down
            # there: 9-16 and 8-7, the next side reaching early, read as 9x7 with the goose
            # put on 16): a man lifted is no sign it was made; a move read after it may be
            strayed = (
                pending.made
                and (step := pending.first()) is not None
                and all(len(line.steps) == 1 for line in pending.lines)
                and self.recognizer.off_its_route(board, step.move)
            )
            reading = pending.read(
                board, verdict, now, doubt=doubt, mistaken=mistaken, strayed=strayed
            )
            if (
                reading.early
                and reading.commit
                and self._asked_among(
                    [c for c in self.recognizer.candidates if c.move == reading.commit[0].move]
                )
            ):  # (a question stands: a line read so on its own is no answer to it)
                reading = Reading(verdict=verdict, pending=pending)
            reading = self._early_too(reading, board)
            verdict, keep = self._follow(reading, board, now)
        elif (
            pending is not None
            and (pending.first() is None or not pending.made)
            and pending.extended_by(verdict)
        ):  # a line goes on as a longer chain (one of several, or one read on a landing that
            # did not change): follow it among the others
            reading = pending.read(board, verdict, now, doubt=True)
            verdict, keep = self._follow(reading, board, now)
        elif pending is not None and pending.goes_on(verdict):
            # a longer chain of the pending move: take it, and this reading extends it
            self._take(pending.lines[0].steps[:1], now)
            verdict = self.recognizer.judge(board)
        elif pending is not None and verdict.kind not in (Kind.COMMIT, Kind.SAME):
            # made here too, but not for sure: a move plainly made after the pending ones wins
            reading = self._early_too(pending.read(board, verdict, now, plainly=True), board)
            if reading.commit or reading.ask:
                verdict, keep = self._follow(reading, board, now)
        if (
            verdict.kind is Kind.UNKNOWN and not first and self._state is not SessionState.RESTORING
        ):  # (moves read ahead that no longer explain the board: the board may say more)
            if self._mistaken(board, now):
                self._two_early(self.recognizer.reached_early(board), board)
                verdict = Verdict(Kind.LIFTED)  # (the next readings tell)
            elif self._touched_ahead(board, now):
                verdict = Verdict(Kind.LIFTED)  # (the piece comes back, or stays up)
            elif self._reached_early(board, now):
                return
            elif self.recognizer.held_early:  # a move made, the next side's piece in the hand:
                if self._held_long(board, now):
                    return
                verdict = Verdict(Kind.LIFTED)  # on its way (the next readings tell)
        if verdict.kind is Kind.COMMIT and self._from_a_suspect(verdict.moves[0], now):
            verdict = Verdict(Kind.LIFTED)  # (the piece comes back, or stays up)
        if verdict.kind is Kind.COMMIT and self._out_and_back(verdict, board):
            verdict = Verdict(Kind.UNKNOWN)  # (moves a switch missed: the watch reads them)
        if (
            verdict.kind is Kind.COMMIT
            and verdict.changes
            and self._hidden_by_a_suspect(
                board,
                [c for c in self.recognizer.candidates if c.changes and c.move in verdict.moves],
            )
        ):  # second thoughts, or the next side's move that fits everywhere but at a switch
            # thought broken (its piece's lift, or landing, unseen): `confirm` takes that one
            verdict = Verdict(Kind.LIFTED)
        if self._state is SessionState.RESTORING:  # after undo: only the restored board counts
            if verdict.kind is Kind.SAME:
                self._leave(SessionState.RESTORING)
            else:
                verdict = Verdict(Kind.UNKNOWN)
                first = True
        elif (
            (self.mismatch or first)
            and verdict.kind in (Kind.LIFTED, Kind.PENDING)
            and not (verdict.kind is Kind.PENDING and verdict.made)
        ):
            # a mismatch (or a board found wrong at start) is left only once the board is right
            verdict = Verdict(Kind.UNKNOWN)
            first = True
        self._landings = frozenset()
        if keep:
            pass  # the pending moves wait on (the hold time counts from this reading)
        elif self._pending is not None and (
            verdict.kind not in (Kind.PENDING, Kind.AMBIGUOUS)
            or verdict.moves != self._pending.moves
        ):
            self._pending = None
        self._deferred = None
        if verdict.kind is not Kind.UNKNOWN:
            self._unknown_since = None
        if (
            verdict.kind is not Kind.AMBIGUOUS
            and not (keep and self._asked)
            and not (
                self._watch_asked
                and verdict.kind in (Kind.UNKNOWN, Kind.LIFTED)
                and self._unseen_stands(board)
            )
        ):  # (a question which piece moved stands while the board means nothing else)
            self._ambiguous = ()
            self._asked, self._watch_asked = {}, {}
        # what the reading left to wait on, before what it shows adds to it
        if not (verdict.kind is Kind.UNKNOWN and self.mismatch):  # else the fix stays lit
            self._leave(SessionState.WAITING, SessionState.MISMATCH)
            self._questions()
        kind = verdict.kind
        if kind is Kind.COMMIT:
            self._commit(verdict.moves[0], verdict.extends, now, changes=verdict.changes)
        elif kind is Kind.AMBIGUOUS:
            if verdict.moves != self._ambiguous:
                self._ambiguous, self._shown = verdict.moves, 0
                self._watch_asked = {}  # (another question replaces the watch's)
                self._enter(SessionState.ASKING)
                self._ambiguous_extends = verdict.extends
                self._ask(now, verdict.moves)
                # each reading is followed as a line too: if the players play on without
                # answering, the next moves may tell which it was
                asked = Pending.start(self.position, verdict, board, now, self._edges)
                self._asked = {line.steps[0].move: line for line in asked.lines}
                if (
                    pending is not None and pending.made and len(self.position.move_stack) == plies
                ):  # and the move read made before,
                    # which a touched piece may be all that contradicts (the next side
                    # moving while the mover is lifted): it may yet be the one
                    asked.lines += [
                        line
                        for line in pending.lines
                        if line.reader.judge(board).kind not in (Kind.UNKNOWN, Kind.NEW_GAME)
                    ][: max(0, MAX_LINES - len(asked.lines))]
                self._pending = asked
        elif kind is Kind.PENDING:
            if keep:
                pass  # a move read as made waits; this reading is weaker than it
            elif self._pending is None or (verdict.made and not self._pending.made):
                self._pending = Pending.start(self.position, verdict, board, now, self._edges)
                self._enter(SessionState.PENDING)
            self._landings = verdict.landings
        elif kind in (Kind.NEW_GAME, Kind.TAKEBACK):
            # only a board that stays so is a takeback or a new game; one that is also a move
            # on its way (a piece held) never is by itself: `undo` and `new` say so at once
            self._landings = verdict.landings
            if not verdict.on_the_way:
                self._deferred = (now, verdict)
                if self._state is not SessionState.ASKING:  # (a question kept stays put meanwhile)
                    self._enter(SessionState.WAITING)
        elif kind is Kind.LIFTED:
            if verdict.landings and verdict.landings != self._lifted:
                self._say(Lifted(now, tuple(sorted(verdict.landings, key=self.order))))
            self._landings = verdict.landings
        elif kind is Kind.UNKNOWN:
            if first and self._watch_asked:
                pass  # the question is the word
            elif first:
                if self._state is not SessionState.RESTORING:
                    self._enter(SessionState.MISMATCH)
                self._say(Mismatch(now, self._fix_text()))
            else:  # a mismatch is a board that stays so: each new reading starts the wait anew
                self._knocked = self._only_missing(board, now)
                if self._unknown_since is None and self.position.is_chance() and self.dice:
                    self._notice(now, "roll-first", "press roll before moving")
                self._unknown_since = now
                if (
                    self._early_two_at is not None
                    and not self._ambiguous
                    and not self._watch_asked
                    and self._pending is None
                ):  # (read two ways with the next side reaching early, and no question
                    # standing: the players are asked a grace time after, not once the
                    # hands rest, when the moves made since read past what it can tell)
                    self._unknown_since = min(now, self._early_two_at)
        self._lifted = self._landings if kind is Kind.LIFTED else frozenset()
        self._held = kind is Kind.LIFTED or (
            kind in (Kind.TAKEBACK, Kind.NEW_GAME) and verdict.on_the_way
        )
        self._recheck = None
        if self._read_again_at is not None:  # read again once a mistake would be cleared
            self._recheck = self._read_again_at if self._read_again_at > now else None
            self._read_again_at = None
        if kind in (Kind.LIFTED, Kind.PENDING) and (
            self.recognizer.made_but_touched(board) or self.recognizer.held_early
        ):
            # a piece up for less than a touch lasts may be a hand touching it: once it has
            # been up longer, the reading may mean more (read it again then)
            at = self._last_edge() + TOUCH + 0.001
            if at > now:
                self._recheck = at if self._recheck is None else min(at, self._recheck)
        self._do(Show())
        if (
            kind is Kind.UNKNOWN
            or self._state is SessionState.MISMATCH
            or self._held_doubt
            or (
                kind is Kind.LIFTED
                and self._pending is None  # (no moves read ahead that explain it)
                and self._filled_before_lifted(board)
            )
        ) and not self._suspects:
            self._watch_due = max(now, self._last_edge() + STILL)  # looked at once still
        else:
            self._watch_due = None
            if kind is Kind.SAME or self._suspects:  # the board means something: the lines
                self._watch.forget()  # followed are done with (a piece lifted: not yet)
            elif self.recognizer.held_early and self._last_edge() > self._watch.since:
                # (but a piece came down since the readings began to agree, to read as a move
                # made with the next side's piece in the hand: that piece may yet come down,
                # so they no longer agree all along)
                self._watch.agreed = None

    def _watch_for_a_broken_switch(self, now: float) -> None:
        """The board means nothing from here: name the switch at the one point every line of
        play that fits the board but for one point agrees on (suspects.py), once it is due."""
        if self._suspects or self._changed_at is not None:
            return
        if self._state is SessionState.RESTORING:
            return  # (a takeback being put back on the board: nothing is taken or asked)
        if not self._unseen_stands(self.reading()):
            self._drop_unseen(now)
            return
        point, self._watch_due = self._watch.look(
            self.position, frozenset(self.physical), self._edges, now, self.recognizer.since
        )
        if point is None:
            if self._watch.question:
                self._ask_which(now, self._watch.question)
            elif self._watch_asked:  # (asked before the lines stood long: read further)
                followed = self._watch.followed(set(self._watch_asked))
                self._watch_asked.update(followed)
                if any(len(f.moves) > 1 for f in followed.values()):
                    self._unseen_asked = None  # (lines read on from it back it)
            return
        kept = self._watch.kept
        # (or it set a piece down there and moved it on, a switch that never changed since)
        still = self._edges.last(point) <= self.recognizer.since
        # (or it reads a piece where the line has none and never had: no hand sets a piece
        # down from nowhere, while one taken off may be a capture read another way)
        phantom = point in self.physical
        lines = [
            f
            for f in kept
            if f.moves
            and (
                f.missed(point)
                or (still and f.passes(point))
                or (phantom and not f.passes(point))
                or self._left_behind(f, point)
            )
        ]
        ends = {f.position.to_text() for f in lines}
        self._watch.forget()
        if lines and len(ends) == 1 and len(lines) == len(kept):
            # every reading is one line of play that the broken switch alone hides (or
            # disturbs, changing by itself): the players have most likely gone on, so it is
            # taken (as `confirm` would), but for its last move, which the switches show as any
            # move (it may be under way: a man touched reads for a moment as a capture made);
            # unless the switch hides that one, and not even then where it lands there while a
            # hand may still be at work (its piece may be in the air, to come down elsewhere)
            line = min(lines, key=lambda f: len(f.moves))
            taken = len(line.moves) - 1
            if line.last_at(point) == taken and not (
                point in line.landed() and now < self._last_edge() + SUSPECT
            ):
                taken += 1
            taken = min(taken, self._seen_down(line, point))
            for move in line.moves[:taken]:
                self._commit(move, False, now)
        self._suspect(point, now)

    def _left_behind(self, line: Fit, point: str) -> bool:
        """Whether ``line`` changes ``point`` last with a move whose piece left its start
        after that switch last changed (it followed the line's earlier changes there, or
        changed by itself, and not that one: a piece set down on a switch gone dead)."""
        last = line.last_at(point)
        if last < 0 or not (points := line.moves[last].points()):
            return False
        began = self._edges.off.get(points[0])
        return began is not None and self._edges.last(point) < began

    def _seen_down(self, line: Fit, point: str) -> int:
        """How many of ``line``'s first moves each set a piece down where a switch saw one come
        down since the position began (or at ``point``, thought broken): a move read only
        through a later one (a goose 11-5 read from the fox then jumping 5 onto 6, its piece
        still in the hand) is not taken on the strength of the one after it, nor where a piece
        only slid over its landing."""
        boards = list(pairwise((line.before, *line.steps)))
        for i, (before, after) in enumerate(boards):
            if not all(self._set_down_on(p) for p in after - before - {point}):
                return i
        return len(boards)

    def _set_down_on(self, point: str) -> bool:
        """Whether the piece last set down on ``point`` came down since the position began and
        is there still or stayed longer than a piece sliding over it does (:data:`SET_DOWN`).
        (Not :meth:`Recognizer._set_down`'s reading, which looks back past a short contact to
        an earlier set-down: with it the broken_switch row took more wrong lines, 86.8 % exact
        against 90.3 %.)"""
        filled = self._edges.filled.get(point)
        if filled is None or filled <= self.recognizer.since:
            return False
        lifted = self._edges.off.get(point, float("-inf"))
        return point in self.physical or lifted - filled >= SET_DOWN

    def _filled_before_lifted(self, board: Occupancy) -> bool:
        """Whether a point reads filled that the game has empty, since before any piece the
        game has there was lifted: a piece in the hand, and a switch that closed by itself
        (stuck closed under the landing before the piece left, most likely), not a landing."""
        offs, gone = self._edges.off, self.recognizer.expected - board
        if not gone or not gone <= offs.keys():
            return False
        first = min(offs[p] for p in gone)
        return any(
            self._edges.filled.get(p, first) < first for p in board - self.recognizer.expected
        )

    def _ask_which(self, now: float, fits: list[Fit], unseen: bool = False) -> None:
        """Lines lifting a piece from different points fit the board but for the one switch
        each missed: ask which move was made (followed on as the players go on). ``unseen``:
        asked while the piece may still be in the hand (:meth:`_landed_unseen`); else the
        watch's own question."""
        self._unseen_asked = now if unseen else None
        lines = {f.moves[0]: f for f in fits}
        if self._watch_asked and set(lines) == set(self._watch_asked):
            self._watch_asked = lines  # the same question, its lines read further
            return
        if self._watch_asked and self._stepped_at > self._asked_at:
            # other candidates now (fewer, or more: a touch read as a move), but a player is
            # stepping through the question (`hint` pressed since it came): it stays as they
            # see it, its lines read further (a question put anew under their presses would
            # move the candidate their next press lands on)
            self._watch_asked = {m: lines.get(m, f) for m, f in self._watch_asked.items()}
            return
        if self._ambiguous and not self._watch_asked:
            return  # another question stands (the watch's own is put anew: moves made since
            # may have ruled some of its candidates out)
        self._watch_asked, self._asked = lines, {}
        self._ambiguous, self._shown, self._ambiguous_extends = tuple(lines), 0, False
        self._leave(SessionState.MISMATCH)
        self._questions()
        self._ask(now, self._ambiguous)
        self._do(Show())

    def reading(self) -> Occupancy:
        """The board as the switches read it, a switch thought broken read as the game
        expects its point."""
        if not self._suspects:
            return frozenset(self.physical)
        expected = self.recognizer.expected
        board = set(self.physical) - set(self._suspects)
        return frozenset(board | (set(self._suspects) & expected))

    def _suspect_due(self) -> float | None:
        """When to look for a broken switch: the board still for :data:`SUSPECT` in a
        reading that is not at rest (a mismatch, a piece never come down)."""
        if self._changed_at is not None:
            return None
        if self._state is not SessionState.MISMATCH and not (
            self._held and self._state is SessionState.PLAYING
        ):
            return None
        due = self._last_edge() + SUSPECT
        return due if self._looked is None or self._looked < due else None

    def _near_misses(self, board: Occupancy) -> list[tuple[Move | None, str]]:
        """Moves (None: no move) whose board ``board`` is but for one switch, and that point."""
        out: list[tuple[Move | None, str]] = []
        for c in self.recognizer.candidates:
            if not c.extends and len(diff := c.target ^ board) == 1:
                out.append((c.move, next(iter(diff))))
        if len(diff := self.recognizer.expected ^ board) == 1:
            out.append((None, next(iter(diff))))
        return out

    def _look_for_a_broken_switch(self, now: float) -> None:
        """The board has stayed wrong, or a piece up longer than a hand holds one: where
        every reading that fits it but for one switch agrees on that switch, name it (a
        mismatch at that one point is what a broken switch shows; so is a move whose piece
        came down but for its start, where it leaves men); `confirm` then takes the move it
        spoils, if there is one. A piece maybe still in the hand: the players are told that
        no switch saw it come down."""
        board = self.reading()
        near = self._near_misses(board)
        points = {p for _, p in near}
        # (several points: the board as it was but for one switch, or a move made but for the
        # one switch its piece left, at each: the next moves tell which, suspects.SwitchWatch)
        if (
            len(points) == 1
            and not self._suspects  # (one switch thought broken explains no more: a
            # second is likelier the first read wrong)
            and (
                self._state is SessionState.MISMATCH
                or all(m is not None and p not in board and p in m.points()[:-1] for m, p in near)
            )
        ):  # the board wrong at one point; or a move made, its piece down (its landing
            # read), but for its start, where it leaves men (a nest, a stack), read empty
            # longer than a hand holds a piece
            self._suspect(next(iter(points)), now)
        elif self._held and (
            any(m is not None for m, _ in near) or (self._suspects and self._last_piece_up())
        ):  # (a piece lifted may be held: no evidence yet, but the players are told; so too
            # the last move's piece, up again, which may have gone on to the dead switch)
            if (fits := self._landed_unseen(board, near)) is not None:
                self._ask_which(now, fits, unseen=True)
                return
            self._notice(
                now, "unseen", "no switch saw the piece come down: if it is down, press confirm"
            )

    def _landed_unseen(
        self, board: Occupancy, near: list[tuple[Move | None, str]]
    ) -> list[Fit] | None:
        """Where the piece up longer than a hand holds one has two or more moves whose board
        ``board`` is but for their landing (each read empty: one may be a dead switch under
        the piece come down), one line for each: which move was made is the players' to say,
        and asked now rather than once the next side has moved (the switch is named when they
        answer). None: not so (a piece still held, set down on a working switch, drops the
        question as its move is read)."""
        moves = [m for m, _ in near if m is not None]
        if (
            self._suspects
            or len(distinct(moves)) < 2
            or any(
                not m.points() or p in board or p != m.points()[-1]
                for m, p in near
                if m is not None
            )
        ):
            return None
        left = max(self._edges.off.get(m.points()[0], float("inf")) for m in moves)
        if any(t > left for t in self._edges.filled.values()):
            return None  # (set down since it left, and up again: a chain under way, a stop)
        fits = [
            f
            for f in fitting_lines(self.position, board, depth=1)
            if len(f.moves) == 1 and f.moves[0] in moves and f.off == {f.moves[0].points()[-1]}
        ]
        if any(f.position.is_chance() for f in fits):
            return None  # (a throw comes next: `roll` is the players' word that it is down)
        return fits if len({f.moves[0] for f in fits}) >= 2 else None

    def _unseen_stands(self, board: Occupancy) -> bool:
        """Whether the question put while its piece may have been in the hand still stands
        (asked once the board is still, or the players answer): a piece in the hand, or no
        piece set down since it came where the position has none; else not where a line of
        up to two moves beginning with a candidate fits ``board`` whole (the piece came down
        where a switch saw it: the board is read afresh); else where one fits but for that
        candidate's landing, or a piece other than the candidates' has been lifted since
        (the players going on, maybe further than two moves: the watch's lines read on). A
        piece set down where no line goes, with nothing else moved, was the piece in the
        hand."""
        asked, edges = self._unseen_asked, self._edges
        if asked is None or not self._watch_asked or in_hand(board, edges):
            return True  # (a piece in the hand: a chain under way, a move on its way)
        expected = self.recognizer.expected
        if not any(t > asked for p, t in edges.filled.items() if p not in expected):
            return True  # (a still piece touched and set back is none)
        lines = [
            f
            for f in fitting_lines(self.position, board, depth=2)
            if f.moves and f.moves[0] in self._watch_asked
        ]
        if any(not f.off for f in lines):
            return False
        if any(f.off == set(f.moves[0].points()[-1:]) for f in lines):
            return True
        starts = {p for m in self._watch_asked for p in m.points()[:1]}
        return any(t > asked for p, t in edges.off.items() if p not in starts)

    def _drop_unseen(self, now: float) -> None:
        """The question put while its piece may have been in the hand no longer stands: the
        board is read afresh (a mismatch, most likely: a piece set down where no move goes)."""
        self._ambiguous, self._asked, self._watch_asked = (), {}, {}
        self._leave(SessionState.ASKING)
        self.judge(now, first=True)

    def _suspect(self, point: str, now: float) -> None:
        reads = point in self.physical
        self._suspects[point] = reads
        self._named[point] = now
        there = "no piece is there" if reads else "a piece is on it"
        self._notice(
            now,
            "suspect-switch",
            f"switch {point} may be broken: it reads {'occupied' if reads else 'empty'}"
            f" where {there}; press confirm for the move you made",
        )
        self.judge(now)

    def _carry_out_waiting(self, now: float, begun: bool = False) -> None:
        """Carry out the button that waited on a piece that may have been in the air: the
        move it would take if the board shows it (else the one move the board shows made, or
        none; but not a chain read gone on from it after a `confirm`, the mover's word that it
        was done: the move itself), unless another was made meanwhile (then only a `roll` is
        left)."""
        assert self._waiting is not None
        buttons, plies, c = self._waiting
        self._waiting = self._lifted_meanwhile = None
        if len(self.position.move_stack) == plies:  # it was down: the button's word holds
            # (for the move the board shows now: it may have been another, come down since)
            # (``begun``: the board is the move made and the next side begun, checked)
            made = distinct(d.move for d in self.recognizer.made(self.reading()))
            if not begun and c.target != self.reading() and len(made) == 1:
                d = next(d for d in self.recognizer.made(self.reading()) if d.move == made[0])
                if "confirm" in buttons and goes_on(d.move, c.move):
                    # the mover said the move was done: the chain read gone on since is the
                    # next side's hand (taking the man that came down, lifting another)
                    begun = True
                else:
                    c = d
            if (begun or c.target == self.reading()) and not self.mismatch:
                # (a board guided back meanwhile is no move made: the players fix it first)
                self._commit(c.move, c.extends, now)
        for button in buttons:
            if button == "roll" and self.position.is_chance():
                self._do(Roll())
                self.judge(now)  # the board may show the next move already

    def _came_down(self, move: Move, extends: bool, board: Occupancy) -> Candidate | None:
        """The candidate of ``move`` whose board ``board`` is, landing on a point that was
        empty (its switch closing says the piece came down), if any; none where a longer move
        passes over that point (a count may go on from there)."""
        for c in self.recognizer.candidates:
            if c.move == move and c.extends == extends and c.target == board and not c.silent:
                if any(c.landing in d.passes for d in self.recognizer.candidates):
                    return None
                return c
        return None

    def _waited_on_explains(self, board: Occupancy) -> bool:
        """Whether ``board`` is the move a button waits on made and the next side begun (a
        piece of theirs lifted or moved), and no other move made with a piece touched."""
        assert self._waiting is not None
        c = self._waiting[2]
        if len(self.position.move_stack) != self._waiting[1]:
            return True  # another move was made meanwhile: only the button is left
        if board == c.target:
            return False  # (the move, and no more: the piece may yet be in the hand)
        if any(d.move != c.move for d in self.recognizer.made_but_touched(board)):
            return False
        reader = reader_after(self.position, c.move, c.extends, self._edges.now, self._edges)
        reader.since = self.recognizer.since
        readers = [reader]
        if reader.position.is_chance() and "roll" in self._waiting[0]:
            # the throw waits with the button: the next side, moving at once, moves on
            # whatever the dice will show (its move is read once they are thrown)
            for throw, _ in reader.position.chance_outcomes():
                thrown = reader.position.copy()
                thrown.push(throw)
                after = Recognizer(thrown, edges=self._edges, since=reader.since)
                readers.append(after)
        if reader.judge(board).kind not in (Kind.UNKNOWN, Kind.TAKEBACK, Kind.NEW_GAME):
            return True
        if not reader.position.is_chance() and self._hidden_by_a_suspect(
            board, [], reader.position
        ):
            return True  # the next side's move made, off or onto a switch thought broken
        for after in readers[1:]:  # under a throw: only a move of theirs finished says so
            v = after.judge(board)
            if v.kind is Kind.COMMIT or (v.kind is Kind.PENDING and v.made):
                return True
        return False

    def _last_edge(self) -> float:
        """When a switch last changed."""
        return max([*self._edges.on.values(), *self._edges.off.values()], default=0.0)

    def _in_the_air(self, made: list[Candidate], now: float) -> bool:
        """Whether a piece may still be in the hand though the board shows ``made`` (what a
        button would take) done: each lands where the switch did not change after its piece
        left, or only went empty and full again (a hand touching the piece there reads the
        same as a capture), and the switches changed less than :data:`QUIET` ago."""
        return now < self._last_edge() + QUIET and all(
            c.silent and not self._counted_in(c) for c in made
        )

    def _counted_in(self, c: Candidate) -> bool:
        """Whether ``c``'s piece was seen on its way along its route (set down, or slid, on a
        space the move passes, after it left) before its landing went empty and full again:
        the piece that came down there is the mover, counted in."""
        if not c.passes or not self.recognizer.refilled(c):
            return False
        never = float("-inf")
        left = self._edges.off.get(c.start, never) if c.start else never
        landed = self._edges.filled.get(c.landing, never)
        if any(t > landed for p, t in self._edges.on.items() if p != c.landing):
            return False  # a piece set down elsewhere since: the count went on past it
        if any(
            left <= self._edges.on.get(p, never) <= landed < self._edges.off.get(p, never)
            for p in self._edges.on.keys() - c.passes - {c.landing} - self.recognizer.expected
        ):
            return False  # a piece stood off its route as its landing filled: the mover
            # was there (the count went another way), a hand touched the man on the landing
        return any(left <= self._edges.on.get(p, never) <= landed for p in c.passes)

    def _mistaken(self, board: Occupancy, now: float, lately: bool = False) -> bool:
        """Whether ``board`` may be a capture under way whose taken man was set down by
        mistake on an empty point, and the switches changed less than the hold time ago:
        moves read ahead (the next side reaching early) wait until it is taken away, or the
        board stays so. ``lately``: that man was set down less than the hold time ago, no
        still piece touched besides (against moves read on a landing that did not change,
        then the next side's move: he stays only a moment, and touches meanwhile do not make
        the wait longer). Else the wait counts from the last switch change, but lasts no
        longer than the hold time from when the board first read so: hands going on with
        the next moves do not make it longer (he stays only a moment)."""
        if lately:
            never = float("-inf")
            new = board - self.recognizer.expected
            until = max((self._edges.filled.get(p, never) for p in new), default=never)
            until += self.hold
        else:
            until = self._mistake_waits()
        if now >= until or not self.recognizer.set_down_by_mistake(
            board, touched=not lately, routed=True
        ):
            return False
        if lately:
            self._read_again_at = until + 0.001
        else:
            self._wait_for_a_mistake(now)
        return True

    def _mistake_waits(self) -> float:
        """Until when a board that may be a capture under way, its taken man set down by
        mistake, holds up moves read ahead: the hold time after the last switch change,
        but no longer than the hold time after the board first read so."""
        until = self._last_edge()
        if self._mistaken_at is not None:
            until = min(until, self._mistaken_at)
        return until + self.hold

    def _wait_for_a_mistake(self, now: float) -> None:
        """The board reads (still) as such a capture: note when it first did, and read it
        again once the wait is over (:meth:`_mistake_waits`)."""
        if self._mistaken_at is None:
            self._mistaken_at = now
        self._read_again_at = self._mistake_waits() + 0.001

    def _reached_early(self, board: Occupancy, now: float, plainly: bool = False) -> bool:
        """A board that means nothing from here may be a move made while the next side
        already had a hand on the board: when exactly one move explains it so, take it and
        read the board again from after it (the next side's move on its way, or made)."""
        early = self._early(board)
        if self._two_early(early, board) or self._asked_among(early):
            return False
        if len(early) > 1 and len({c.extends for c in early}) == 1:
            # a chain spelt two ways round a loop leaves one position: take its first spelling
            spelt = self.recognizer.one_spelling(distinct(c.move for c in early), early[0].extends)
            early = [c for c in early if c.move == spelt[0]] if len(spelt) == 1 else early
        # the same board may be another move made while a still piece is touched: then
        # nothing tells which, and the next readings must
        touched = self.recognizer.made_but_touched(board)
        if len({c.move for c in early} | {c.move for c in touched}) != 1 or not early:
            return False
        if any(c.move != early[0].move for c in self.recognizer.held_early):
            return False  # (or another move made, the next side's piece in the hand: the
            # next readings tell, the piece coming down)
        if now < self._mistake_waits() and (
            self.recognizer.set_down_by_mistake(board, routed=True)
            or self.recognizer.taken_after(board)
        ):
            # or a capture whose taken man was set down by mistake: wait for that point to
            # empty (or, taken away again, for the men left to be taken), or the board to
            # stay so longer than a hand holds a piece
            self._wait_for_a_mistake(now)
            return False
        if plainly and (not self.recognizer.early_made or len(early[0].move.points()) > 2):
            return False  # (a chain's stops and slides read many ways: not on this evidence)
        if (left := self._left_unseen(early[0])) is not None and now < left + TOUCH:
            # it lands where no switch changed, its piece lifted from its last stop less than
            # a touch ago: that may be a hand touching a still piece; wait for it to come back
            self._read_again_at = left + TOUCH + 0.001
            return False
        return self._take_early(early[0], now)

    def _last_move(self) -> tuple[int, Move | None]:
        """How many moves the game has, and its last (None: none yet)."""
        stack = self.position.move_stack
        return len(stack), stack[-1] if stack else None

    def _early(self, board: Occupancy) -> list[Candidate]:
        """The moves ``board`` reads made while the next side reached early
        (:meth:`Recognizer.reached_early`), but no second thoughts about a move the players
        named in answer to a question (the board's reading of the moves overlapping since is
        no ground to change their word), nor any where a switch thought broken may hide the
        next side's piece leaving or coming down (the moves overlapping read as second thoughts
        then): where the board is the next moves' (up to two) but at such a switch that they
        change."""
        early = self.recognizer.reached_early(board)
        if self._word is not None and self._word == self._last_move():
            return [c for c in early if not c.changes]
        if self._suspects and any(c.changes for c in early) and self._through_a_suspect():
            return [c for c in early if not c.changes]
        return early

    def _through_a_suspect(self) -> bool:
        """Whether the board is the next moves' (one or two) but at a switch thought broken
        that they change (kept for the same board, position and switches)."""
        ignored, physical = frozenset(self._suspects), frozenset(self.physical)
        key = (self.position.to_text(), physical, ignored)
        if self._through is None or self._through[0] != key:
            through = any(
                f.moves and not f.off and any(f.passes(p) for p in ignored)
                for f in fitting_lines(self.position, physical, ignored)
            )
            self._through = (key, through)
        return self._through[1]

    def _asked_among(self, early: list[Candidate]) -> bool:
        """Whether the players were asked at this ply which of several moves was made, the
        one ``early`` reads among them: the board reading it alone later is no answer (the
        moves overlapping since may read past what the board can tell); the players' word,
        or the next moves read plainly on each line, is."""
        if self._last_ask is None or not early:
            return False
        ply, moves = self._last_ask
        return ply == len(self.position.move_stack) and any(
            c.move in moves and set(moves) - {c.move} for c in early
        )

    def _two_early(self, early: list[Candidate], board: Occupancy) -> bool:
        """Note the moves ``early`` reads made with the next side reaching early, where they
        are two or more (a chain spelt two ways round a loop is one); whether the board has
        read so two ways since the position began and no piece has been set down since on a
        point the position has empty (a still piece touched and put back is none): then no
        single reading is taken (one that lost the others when a piece was only lifted, or
        a switch was thought broken, is no evidence against them: the moves overlapping
        further read past what the board can tell); after a piece set down, one may be."""
        moves = distinct(c.move for c in early)
        if len(moves) > 1 and len({c.extends for c in early}) == 1:
            moves = self.recognizer.one_spelling(moves, early[0].extends)
        # (set down where the position has no piece: a still piece put back is none)
        never = float("-inf")
        down = max(
            (self._edges.filled.get(p, never) for p in board - self.recognizer.expected),
            default=never,
        )
        if len(moves) > 1:
            self._early_two.update(moves)
            self._early_two_down = max(self._early_two_down, down)
            if self._early_two_at is None:
                self._early_two_at = self._edges.now
        return bool(self._early_two) and down <= self._early_two_down

    def _from_a_suspect(self, move: Move, now: float) -> bool:
        """Whether ``move`` reads made with its piece lifted less than :data:`SET_BACK` ago,
        while a move from a point whose switch is thought broken (its piece's lift unseen)
        lands where it does: a hand touching a neighbour, or knocking it off its reed, as the
        piece on the broken switch moved reads the same. Wait for the lifted piece to come
        back (then it was that move) or to stay up longer than a touch or a knock."""
        if not self._suspects:
            return False
        points = move.points()
        left = self._edges.off.get(points[0]) if points else None
        if left is None or now >= left + SET_BACK:
            return False
        for other in self.position.legal_moves:
            theirs = other.points()  # (none: a pass, a throw)
            if (
                theirs
                and other != move
                and theirs[0] in self._suspects
                and theirs[-1] == points[-1]
            ):
                self._read_again_at = left + SET_BACK + 0.001
                return True
        return False

    def _out_and_back(self, verdict: Verdict, board: Occupancy) -> bool:
        """Whether a move read made leaves unexplained a piece it does not move lifted for
        longer than a knock lasts (:data:`SET_BACK`) and put back, while a point it does not
        go over was set down on and lifted again: a piece of the other side moved out and
        back, so moves were made between that a switch missed (the fox onto a dead switch, a
        goose out, the fox on, the goose back, read as one fox move)."""
        rec, edges = self.recognizer, self._edges
        moved = frozenset().union(
            *(c.may_empty | c.may_fill for c in rec.candidates if c.move in verdict.moves)
        )
        strays = rec.strays(board) - moved
        if not strays:
            return False
        return any(  # (set down and lifted again while that piece was out)
            off < edges.filled.get(q, off) and edges.off.get(q, back) < back
            for off, back in rec.out_long((board & rec.expected) - moved, rec.since)
            for q in strays
        )

    def _left_unseen(self, c: Candidate) -> float | None:
        """When ``c``'s piece left the last point it stood on, where it lands on a man whose
        switch never changed (a capture read only as its piece leaving); else None."""
        points = c.move.points()
        if not c.silent or self.recognizer.refilled(c) or len(points) < 2:
            return None
        return self._edges.off.get(points[-2])

    def _set_down_elsewhere(self, verdict: Verdict, board: Occupancy) -> bool:
        """Whether the move ``verdict`` reads made was set down off its route first, though it
        takes no man (none of its could have been set down there by mistake), while one move
        made with the next side reaching early, and the next side's move made after it,
        explains that set-down: a piece is set down only on a route, so that is the reading."""
        r = self.recognizer
        moves = distinct(c.move for c in r.early)
        if not r.off_route or not r.early_made or len(moves) != 1 or r.early[0].extends:
            return False  # (a chain gone on, or changed, is the same hand's: not the next side)
        if any(c.move != moves[0] for c in (*r.held_early, *r.made_but_touched(board))):
            return False
        return not any(r.takes(c) for c in r.candidates if c.move in verdict.moves)

    def _set_back_late(self, verdict: Verdict, board: Occupancy) -> Candidate | None:
        """The one move made with the next side reaching early (:meth:`_early`), the next
        side's move made after it, that explains a point the move ``verdict`` reads made
        leaves a piece on, though that piece was lifted after the last move came down (and
        since the position began) and came back later than a knocked piece does: another
        piece came down there, so that is the reading (9-4 changed for 9-10, then the fox
        5-4, read as the fox 5-10 with the goose on 4 lifted for 3.6 s). None: no such."""
        r = self.recognizer
        if verdict.extends or len(verdict.moves) != 1:
            return None
        (move,) = verdict.moves
        still = board & r.expected - set(move.points())
        since, stack = r.since, self.position.move_stack
        if stack and (last := stack[-1].points()):
            since = max(since, r.came_down(last))  # (a chain's own stop left on its way)
        if not r.set_back_late(still, since):
            return None
        early = self._early(board)
        moves = distinct(c.move for c in early)
        if not r.early_made or len(moves) != 1 or moves[0] == move:
            return None
        if any(c.move not in (moves[0], move) for c in (*r.held_early, *r.made_but_touched(board))):
            return None  # (the move itself read made with a hand at the board reads the point
            # set back: no other reading)
        return early[0]

    def _touched_ahead(self, board: Occupancy, now: float) -> bool:
        """Whether a line of moves read ahead (pending) reads ``board`` as its next move made
        with one still piece lifted, less than a touch ago (a hand touching it): wait for
        the piece to come back (the line's move is then made) or to stay up longer than a
        touch; meanwhile no other reading of the board (another move made with the next side
        reaching early, or another line's next move made: the piece lifted gone on unseen, a
        capture onto a man whose switch did not change) is taken."""
        if self._pending is None:
            return False
        if not any(line.reader.made_but_touched(board, ahead=True) for line in self._pending.lines):
            return False
        self._read_again_at = self._last_edge() + TOUCH + 0.001
        return True

    def _early_too(self, reading: Reading, board: Occupancy) -> Reading:
        """Moves read ahead (pending lines) that ``reading`` would take because the next move
        reads made after them, while the board reads too as another move made with the next
        side reaching early and the next side's move made after it: the switches cannot tell
        which, so the players are asked (`hint`, `confirm`), each line followed meanwhile.
        (Steps and single jumps only: a chain's stops tell its routes apart.)"""
        if not reading.commit:
            return reading
        first = reading.commit[0]
        if first.extends or len(first.move.points()) > 2:
            return reading  # (a chain's stops and slides read many ways: not on this evidence)
        early = self.recognizer.reached_early(board)
        if not self.recognizer.early_made:
            return reading
        others = distinct(
            c.move
            for c in early
            if c.move != first.move and not c.extends and len(c.move.points()) <= 2
        )
        if not others:
            return reading
        if self.mismatch:  # (a board found wrong: the players fix it first; nothing is taken)
            return Reading(verdict=Verdict(Kind.LIFTED), pending=self._pending)
        lines = [self._line(reading.commit, board)]
        for move in others[: MAX_LINES - 1]:
            c = next(d for d in early if d.move == move)
            lines.append(self._early_line(c, board))
        return Reading(ask=tuple(lines))

    def _line(self, steps: tuple[PendingStep, ...], board: Occupancy) -> Line:
        """The line of ``steps`` played from the game's position, read on ``board``."""
        position = self.position
        reader = self.recognizer
        for step in steps:
            reader = reader_after(position, step.move, step.extends, step.since, self._edges)
            position = reader.position
        return Line(steps, reader, board)

    def _early_line(self, c: Candidate, board: Occupancy) -> Line:
        """The line of ``c``, read made with the next side reaching early, from when its
        piece left (as :meth:`Recognizer.reached_early` read it)."""
        left = self.recognizer.early_left.get(c.move)
        if left is None:
            left = self._edges.off.get(c.start, self._edges.now) if c.start else self._edges.now
        step = PendingStep(c.move, c.extends, left, False, left_at(c.move, self._edges))
        reader = reader_after(self.position, c.move, c.extends, left, self._edges)
        return Line((step,), reader, board)

    def _left_late(self, move: Move) -> bool:
        """Whether a point ``move``'s piece was seen set down on on its way (a stop of a
        chain) emptied only after its landing filled: a piece is not in two places, so the
        piece there was another (the next side's, reaching early; or a man set down by
        mistake)."""
        points = move.points()
        if len(points) < 3:
            return False
        landed = self._edges.filled.get(points[-1], float("-inf"))
        return any(
            self._edges.off.get(stop, float("-inf")) > landed
            for stop in self.recognizer.stops
            if stop in points[1:-1] and stop != points[-1]  # (a loop's landing passed before:
            # its switch opening since is its own bounce, or the piece lifted there now)
        )

    def _ask_early(self, now: float) -> bool:
        """A board that has meant nothing from here for the grace time but reads as several
        moves each made while the next side reached early (each with the next side's move
        made after it): the switches cannot tell which, so the players are asked (`hint`,
        `confirm`); the lines are followed meanwhile, and the next moves may tell."""
        board = self.reading()
        self._edges.now = now
        early = self._early(board)
        moves = distinct(c.move for c in early)
        if len(moves) < 2 or not self.recognizer.early_made:
            return False
        if any(c.move not in moves for c in self.recognizer.made_but_touched(board)):
            return False  # (another reading still: a piece touched)
        if self._asked_among(early) and self._ambiguous:
            return True  # (the question stands: the board reading fewer of its moves is no
            # answer; the players' word is)
        lines = [
            self._early_line(next(d for d in early if d.move == move), board)
            for move in moves[:MAX_LINES]
        ]
        self._follow(Reading(ask=tuple(lines)), board, now)
        if not self._ambiguous:  # (every line leaves one position: one was taken)
            self.judge(now)
        return True

    def _held_long(self, board: Occupancy, now: float) -> bool:
        """A move made while the next side holds a piece of theirs (:attr:`held_early`): once
        those pieces have been up longer than a touch lasts, and no other move reads made with
        a piece touched, take the move and read the board again from after it. (Not where a
        held piece was lifted more than :data:`OVERLAP` before the move's landing and another
        piece came down between: the next side moved before that landing.)"""
        held = self.recognizer.held_early
        if len({c.move for c in held}) != 1:
            return False
        c = held[0]
        touched = self.recognizer.made_but_touched(board)
        if any(d.move != c.move for d in (*touched, *self.recognizer.early)):
            return False  # (another move made with a piece touched, or with the next side
            # reaching early: the piece coming down tells)
        up = c.target - board  # (the pieces held: the board after the move, less this one)
        if not up or any(now < self._edges.off.get(p, now) + TOUCH for p in up):
            return False
        landed = min(
            (t for t in self._edges.fills.get(c.landing, ()) if t > self.recognizer.since),
            default=None,
        )  # (its first landing since the position began: a capture onto it lands later)
        first_up = min((self._edges.off[p] for p in up if p in self._edges.off), default=None)
        if (
            landed is not None
            and first_up is not None
            and first_up < landed - OVERLAP
            and any(
                first_up < t < landed
                for p, fills in self._edges.fills.items()
                if p not in c.move.points() and p not in up
                for t in fills
            )
        ):  # a piece held up since longer before this landing than a hand reaches early,
            # and a piece came down meanwhile: the move came down before, unseen (on a dead
            # switch), the next side moved, and this landing is another's; the board
            # staying so, or the held piece coming down, tells
            return False
        if self._held_landed(c, up, board):
            self._held_doubt = True
            return False
        return self._take_early(c, now)

    def _held_landed(self, c: Candidate, up: Occupancy, board: Occupancy) -> bool:
        """Whether the piece held may be the one that came down on ``c``'s landing, a line of
        play fitting the board but for one switch (a broken one) moving it there: a goose
        lifted, set down on the point next to it, while the fox stood on a dead reed; the fox
        moved while the goose set down before had gone dead under it (read as the goose
        moved on, second thoughts, the fox in the hand); or it came down where the reading
        has a piece put back since it was lifted: the goose 9-8 and the fox 4-9, 15's
        switch gone open under its goose, read as 15-8 with the goose on 9 lifted and put
        back and the fox in the hand. Then nothing
        tells the two readings apart until the held piece comes down (reaching early, it
        does) or the players go on: the move is not taken on the hold. (Not where a line
        fits the board whole: the held piece took the man that landed by setting down in
        his place, as in Skip, and reads the same when down; nor where one fits it but at a
        switch thought broken since before this position began: a second broken switch is
        the less likely. One named since may be this board's own misreading.)"""
        fits = [f for f in fitting_lines(self.position, board) if f.moves]
        named = {p for p in self._suspects if self._named[p] < self.recognizer.since}
        if any(f.off <= named for f in fits):
            return False
        for fit in fits:
            if len(fit.off) != 1 or fit.off <= up:
                continue
            if any(
                m.points()[:1] == (p,) and self._came_down_after(m.points()[-1], p, c)
                for m in fit.moves
                for p in up
            ) and fit.in_order(self._edges, self.recognizer.since):
                return True
        return False

    def _came_down_after(self, point: str, held: str, c: Candidate) -> bool:
        """Whether a piece held up from ``held`` may have come down on ``point`` where ``c``
        does not say it did: ``c``'s landing, or a point filled since that piece was lifted
        that no move of it after ``c`` lands on (the reading has a piece put back there).
        (Not where a throw comes after ``c``: its moves are not known yet.)"""
        if point == c.landing:
            return True
        lifted = self._edges.off.get(held)
        if lifted is None or self._edges.filled.get(point, float("-inf")) <= lifted:
            return False
        after = self.position.copy()
        if c.extends:
            after.pop()
        after.push(c.move)
        if after.is_chance() or after.is_over():
            return False
        return not any(
            m.points()[:1] == (held,) and m.points()[-1:] == (point,) for m in after.legal_moves
        )

    def _take_early(self, c: Candidate, now: float) -> bool:
        """Take ``c``, made before the next side's hand came in, as from when its piece left,
        and read the board again from after it."""
        # (when it left as the reading saw it: its start may have been lifted since, the
        # next side's piece set down there and touched)
        left = self.recognizer.early_left.get(c.move)
        if left is None:
            left = self._edges.off.get(c.start) if c.start else None
        self._commit(c.move, c.extends, now, since=left)
        self.judge(now)
        return True

    def _judge_shown(self, now: float) -> bool:
        """A move from elsewhere is being carried out: True while it still is (the board
        between the position before it and after it, or a mistake being waited on)."""
        assert self._showing is not None
        move, before = self._showing
        board = self.reading()
        after = self.recognizer.expected
        if board == after:  # carried out: recognition goes on as usual from here
            self._showing = None
            self._leave(SessionState.CARRYING_OUT, SessionState.MISMATCH)
            self._unknown_since = None
            self._say(MoveCarriedOut(now, move))
            return False
        on_track = all((p in board) in ((p in before), (p in after)) for p in before ^ after)
        if on_track and not (board - before - after):
            self._unknown_since = None  # each point as before the move or after it
            self._enter(SessionState.CARRYING_OUT)
        elif self._unknown_since is None:  # a mistake: guided back once it stays so
            self._unknown_since = now
        self._do(Show())
        return True

    def shown_lights(self) -> tuple[tuple[str, ...], dict[str, Light]]:
        """A move being carried out: the points still to visit (blue) and the men still
        to take off (red, blinking)."""
        assert self._showing is not None
        move, before = self._showing
        board = self.reading()
        after = self.recognizer.expected
        routes = [r for r in move.routes() if r]
        starts = {r[0] for r in routes}
        blue = tuple(
            p
            for route in routes
            for i, p in enumerate(route)
            if (i == 0 and p in board and p not in after)
            or (i > 0 and p in self.layout.points)
            or (len(route) == 1 and p in after and p not in board)  # a man entering
        )
        remove = {
            p: Light(RED, Pattern.BLINK)
            for p in sorted((board & before) - after - starts)
            if p in self.layout.points
        }
        return tuple(dict.fromkeys(blue)), remove

    def _touched(self, board: Occupancy) -> bool:
        """Whether ``board`` is a move made here with one still piece lifted (touched)."""
        return bool(self.recognizer.made_but_touched(board))

    def _follow(self, reading: Reading, board: Occupancy, now: float) -> tuple[Verdict, bool]:
        """Carry out what reading the board on the pending lines said. Returns the verdict to
        act on and whether moves are still pending."""
        self._pending = None
        if reading.commit and (twins := self._twins(reading.commit[0])):
            # the move read first leaves the board another would but at a switch thought
            # broken (a man onto the dead switch reads as a capture onto a man whose switch
            # never changes): the players are asked which (each followed as a line)
            return Verdict(Kind.AMBIGUOUS, (reading.commit[0].move, *twins)), False
        self._take(reading.commit, now)
        if (
            reading.ask
            and len({line.reader.position.to_text() for line in reading.ask}) == 1
            and not any(line.reader.continuations() for line in reading.ask)
        ):
            # every line leaves one position: the moves differ in spelling only, take one
            self._take(reading.ask[0].steps, now)
            return self.recognizer.judge(board), False
        if reading.ask:  # the lines differ too far ahead: the player says which it was
            self._asked = {}
            for line in reading.ask:
                shown = line.steps[0]
                for step in line.steps[1:]:  # a chain that went on is asked about whole
                    if not step.extends:
                        break
                    shown = step
                self._asked.setdefault(shown.move, line)
            moves = tuple(self._asked)
            self._pending = Pending(list(reading.ask), False, now)
            if moves != self._ambiguous:
                self._ask(now, moves)
                self._ambiguous, self._shown = moves, 0
                self._watch_asked = {}  # (another question replaces the watch's)
            self._ambiguous_extends = reading.ask[0].steps[0].extends
            self._questions()
            return Verdict(Kind.LIFTED), True
        verdict = reading.verdict if reading.verdict is not None else self.recognizer.judge(board)
        self._pending = reading.pending
        self._questions()
        return verdict, reading.pending is not None

    def _ask(self, now: float, moves: tuple[Move, ...]) -> None:
        """Say that these moves read alike (once for the same question at the same ply; a
        hand that lifts a piece meanwhile does not make it a new one)."""
        question = (len(self.position.move_stack), moves)
        if question != self._last_ask:
            self._last_ask, self._asked_at = question, now
            self._say(Ambiguous(now, moves))

    def _put(self, now: float, moves: tuple[Move, ...], extends: bool) -> None:
        """Put to the players which of ``moves`` was made, from a word (`roll`, `confirm`).
        The same question put again (a `roll` held until the switches were still, carried out
        after `confirm` had put it) keeps the candidate the players stepped to with `hint`."""
        if moves != self._ambiguous:
            self._ambiguous, self._shown = moves, 0
        self._watch_asked = {}  # (another question replaces the watch's)
        self._ambiguous_extends = extends
        self._leave(SessionState.MISMATCH)  # (the players' word: the question is shown, not
        # the way back to the position, which would undo the move they made)
        self._questions()
        self._ask(now, moves)

    def _take(self, steps: tuple[PendingStep, ...], now: float) -> None:
        """Commit pending moves, in order."""
        self._pending = None
        self._questions()
        for step in steps:
            self._commit(step.move, step.extends, now, since=step.since)

    def resolve_silent(self, now: float, button: str = "confirm") -> bool:
        """`roll` or `confirm` (the player says the move is done) while the board shows a move
        made that a hand may still be making (a landing whose switch did not change, a
        capture): commit it if it is the only one; several are put to `confirm`. Where the
        piece may still be in the hand (no switch seen come down, the switches changed less
        than :data:`QUIET` ago), one such move waits (:meth:`_wait_for`) and several wait on
        `roll` (`roll` again, or `confirm`, asks at once). Moves read ahead (pending lines)
        whose board this is are taken too, or put to the players."""
        if self._waiting is not None:  # still waiting on a piece that may be in the air
            self._waiting[0].append(button)
            if self._waiting[0].count("roll") > 1:  # a throw asked for the next side too:
                self._carry_out_waiting(now)  # the move was down
            return True
        board = self.reading()
        if self._changed_at is not None:  # not settled yet: judge what is there first
            plies = len(self.position.move_stack)
            self._changed_at = None
            self.judge(now)
            if len(self.position.move_stack) != plies:
                return True
        made = self.recognizer.made(board)
        if len(made) > 1:  # moves that leave one position are one move spelt twice
            spelt = self.recognizer.one_spelling(tuple(c.move for c in made), made[0].extends)
            made = [c for c in made if c.move in spelt]
        hidden = self._hidden_by_a_suspect(board, made)
        if (
            (button == "roll" or now < self._taken_at + READ)
            and now < self._last_edge() + SUSPECT
            and any(
                m.points()[-1:]
                and m.points()[-1] in self._suspects.keys() | self.recognizer.expected
                for m in hidden
            )
        ):  # a move onto the switch thought broken reads the same as its piece in the hand
            # (no switch shows it come down), and so does one off it onto a man (a capture
            # onto the rabbit's circle): the next side's throw waits for the switches to have
            # been still for SUSPECT (a piece come down elsewhere meanwhile is its move).
            # (`confirm` is the mover's word that it is down; but not one pressed just as the
            # board took a move: that press is most likely the word for the move taken.)
            self._hold_word(button, self._last_edge() + SUSPECT + 0.001)
            return True
        if len(hidden) == 1 and all(c.changes for c in made):
            # no move shows made but one that changes a switch thought broken, the board
            # otherwise its own: the one that fits everywhere but that point is the move
            # (second thoughts about the last move read the same board only because that
            # switch hides the next side's piece leaving it, or coming down there)
            self._pending = None
            self._commit(hidden[0], False, now)
            return True
        if hidden:
            # or a move onto a switch thought broken, whose landing no switch shows (or
            # several such, nothing else made but second thoughts: the players say which)
            shown = [c.move for c in made if not c.changes]
            self._put(now, distinct([*shown, *hidden]), False)
            return True
        if len(made) == 1 and self._in_the_air(made, now):
            # a button is no evidence that a piece came down: wait for the switches to be still
            self._wait_for(made[0], button, now)
            return True
        if (
            button == "roll"
            and len(made) > 1
            and self._in_the_air(made, now)
            and not self._rolled_again(button)
        ):  # several read made, none seen come down, the next side asking for its throw: the
            # piece may be in the hand still, so the question waits for the switches to be
            # still, `roll` pressed again, or `confirm` (the mover's word that it is down)
            self._hold_asking(button, now, QUIET, "the piece may still be in the hand")
            return True
        if len(made) == 1:
            (c,) = made
            self._pending = None
            self._commit(c.move, c.extends, now)
            return True
        if len(made) > 1:
            self._put(now, tuple(c.move for c in made), made[0].extends)
            return True
        pending = self._pending
        lines = pending.at_rest(board) if pending is not None else []
        if len(lines) == 1:  # the board has moved on since: the moves read on the way are taken
            if not self._wait_on(lines[0].steps, button, now):
                self._take(lines[0].steps, now)
            return True
        if lines:
            self._follow(Reading(ask=tuple(lines)), board, now)
            return True
        if pending is not None and pending.made and (step := pending.first()) is not None:
            if (
                self._suspects
                and step.extends
                and self.position.move_stack
                and not goes_on(step.move, self.position.move_stack[-1])
                and self._take_on_word(now, button)
            ):  # second thoughts read ahead, or the next side's moves whose first a switch
                # thought broken hides: the players' word takes the line that fits but there
                return True
            if (
                button == "roll"
                and now < self._last_edge() + QUIET
                and not self._filled_by(step) & board
            ):  # its piece is up again from where the move was read (counted on, or second
                # thoughts), and the next side asks for its throw: it waits for the board to
                # be still. (`confirm` is the mover's word that it is down.)
                self._hold_word(button, self._last_edge() + QUIET + 0.001)
                return True
            if not self._wait_on((step,), button, now):
                self._take((step,), now)
                self._hidden_after(now)
            return True
        return self._take_on_word(now, button)

    def _hidden_after(self, now: float) -> None:
        """After a move read ahead is taken on a button: where the board now shows no move
        made but the one move that fits everywhere but at a switch thought broken (the next
        side's, its piece set down on that switch: what the player pressed for), take it."""
        if not self._suspects:
            return
        board = self.reading()
        if board == self.recognizer.expected or self.recognizer.made(board):
            return
        hidden = self._hidden_by_a_suspect(board, [])
        if len(hidden) == 1:
            self._commit(hidden[0], False, now)

    def _still_fitting(self, fit: Fit) -> tuple[Move, ...]:
        """The moves of the line ``fit`` the players named, up to the first (after the named
        one) whose piece reads back on its start though the line leaves that point empty:
        it was read from a piece lifted then, a touch (the piece is back); and but for a last
        move onto the switch thought broken where a piece has been set down since the
        question came, where the line leaves none."""
        physical = frozenset(self.physical)
        after = fit.position.occupied()
        for k, move in enumerate(fit.moves[1:], 1):
            points = move.points()
            if (
                points
                and points[0] not in fit.off
                and points[0] in physical
                and points[0] not in after
            ):
                return fit.moves[:k]
        last = fit.moves[-1].points()
        if (
            len(fit.moves) > 1
            and last
            and last[-1] in fit.off
            and any(
                t > self._asked_at
                for p in self._edges.fills.keys() - after - fit.off - fit.set_down()
                for t in self._edges.fills[p]
            )
        ):  # its last move onto the switch thought broken, its piece then in the hand: a
            # piece set down since where the line leaves none may be it, come down elsewhere
            return fit.moves[:-1]
        return fit.moves

    def _hidden_by_a_suspect(
        self,
        board: Occupancy,
        made: list[Candidate],
        position: Position[Any, Any] | None = None,
    ) -> list[Move]:
        """The moves (from ``position``, else the game's) whose board is ``board`` but at a
        switch thought broken, beside the moves ``made`` that the board shows made (none that
        replaces the last move): a man stepped onto a dead switch reads as a capture onto a
        man whose switch never changes."""
        if not self._suspects or any(c.extends and not c.changes for c in made):
            return []
        position = self.position if position is None else position
        suspects = set(self._suspects)
        shown = {c.move for c in made}
        out = []
        for move in position.legal_moves:
            if move in shown:
                continue
            off = position.occupied_after(move) ^ board
            if off and off <= suspects:
                out.append(move)
        return out

    def _twins(self, step: PendingStep) -> list[Move]:
        """The other moves from the game's position whose board is ``step``'s but at a switch
        thought broken (so the switches cannot tell them apart)."""
        if not self._suspects or step.extends:
            return []
        board = self.position.occupied_after(step.move)
        return [m for m in self._hidden_by_a_suspect(board, []) if m != step.move]

    def _filled_by(self, step: PendingStep) -> Occupancy:
        """The points ``step`` fills (its landing, empty before it)."""
        extendable = self.recognizer.extendable
        base = extendable[0] if step.extends and extendable is not None else self.position
        after = base.copy()
        after.push(step.move)
        return after.occupied() - base.occupied()

    def _wait_on(self, steps: tuple[PendingStep, ...], button: str, now: float) -> bool:
        """A button would take ``steps``, one move whose landing was occupied before it (a
        capture onto a piece, read by a switch that went empty and full again: a hand touching
        that piece reads the same), and the switches changed less than :data:`QUIET` ago: the
        mover may still be in the hand, so the button waits (True) as for a silent landing."""
        if len(steps) != 1 or self._waiting is not None:
            return False
        (step,) = steps
        made = [
            c
            for c in self.recognizer.candidates
            if c.move == step.move and c.extends == step.extends and c.target == self.reading()
        ]
        if len(made) != 1 or not self._in_the_air(made, now):
            return False
        self._wait_for(made[0], button, now)
        return True

    def _wait_for(self, c: Candidate, button: str, now: float) -> None:
        """Hold ``button`` until ``c``'s piece is surely down (see :attr:`_waiting`), and say so."""
        self._waiting = ([button], len(self.position.move_stack), c)
        self._lifted_meanwhile = None
        self._notice(
            now,
            "waiting",
            f"{button} waits: the piece may still be in the hand; {c.move} is taken once the"
            f" board has been still for {QUIET:g} s",
        )

    def _take_on_word(self, now: float, button: str = "confirm") -> bool:
        """`confirm` or `roll` where no move reads made: the line of play (the move, or the
        move and the next side's answer) that fits the switches everywhere but at a switch
        thought broken is taken; else the one move that fits everywhere but at one switch that
        it changes, which is then thought broken; several such are put to the players once the
        switches have been still for :data:`SUSPECT`. (Where that switch is the move's landing,
        the piece may still be in the hand: the button is carried out once the switches have
        been still for :data:`SUSPECT`, longer than a hand holds a piece; `roll` pressed
        again asks at once.) A line of the hidden move and the answer is asked about where
        the move seen and the answer hidden, or its piece still in the hand, fits too. No
        such move: see :meth:`_broken_before`."""
        unseen = False
        physical, ignored = frozenset(self.physical), frozenset(self._suspects)
        lines = [f for f in fitting_lines(self.position, physical, ignored, depth=1) if f.moves]
        rivals: list[Fit] = []
        if (
            ignored
            and (physical ^ self.recognizer.expected) - ignored
            and not any(not f.off for f in lines)
        ):  # (the players went on while the board waited on the switch: the move it hides
            # and the next side's answer, which it does not, where they fit whole but at it)
            two = [
                f
                for f in fitting_lines(self.position, physical, ignored, depth=2)
                if len(f.moves) == 2 and not f.off
            ]
            # (the other way round, the move seen and the answer hidden, is no line to take:
            # the answer's piece may still be in the hand; but where it fits too, the move
            # is not known: 9-4 and the fox on to 5, stuck open, or 9-5 and the fox over it
            # to 4, Fox and Geese all 99)
            rivals = [f for f in two if not _hidden_then_seen(f, ignored, touching=True)]
            lines += [
                f
                for f in two
                if (
                    _hidden_then_seen(f, ignored)
                    # (the answer also takes or fills the point thought broken, a peg
                    # jumping the one set down on it: only where the switches changed in
                    # the line's order)
                    or (_hidden_then_seen(f, ignored, touching=True) and self._made_in_order(f))
                )
            ]
        if ignored and (physical ^ self.recognizer.expected) - ignored:
            lines += self._changed_lines(physical, ignored) + self._gone_on_lines(physical, ignored)
        if not (physical ^ self.recognizer.expected) - ignored and ignored:
            # the board is as it was but at the switch thought broken: nothing was moved, or
            # the move changes no other switch (from that point onto a point its own men hold)
            lines = [f for f in lines if not f.off and (f.before ^ f.after) <= ignored]
            if not lines:
                return False
        elif not physical ^ self.recognizer.expected:
            # the board is as it was, yet the player confirms a move made: a move that changes
            # one switch only, its landing (a man entering the board), which did not follow
            # it. (Not on `roll`: the next side asks for its throw before a move is made, and
            # a capture onto a man changes only its start.) Nothing shows it was made: it is
            # only ever asked (a stray press is then answered by another `confirm`)
            lines = [
                f
                for f in lines
                if button == "confirm"
                and len(f.off) == 1
                and f.before ^ f.after == f.off
                and f.off <= f.after
            ] or (self._taken_over(physical) if button == "confirm" else [])
            if not lines:
                return False
            unseen = True
        exact = [f for f in lines if not f.off]
        if exact:
            # (the lines the switches changed in order for, if any: a line that fits the
            # board but had a piece leave before the move before it began was not made)
            exact = [f for f in exact if self._made_in_order(f)] or exact
            shortest = min(len(f.moves) for f in exact)
            ends = {f.position.to_text(): f for f in exact if len(f.moves) == shortest}
            if len(ends) != 1:
                return False
            (fit,) = ends.values()
            if len(fit.moves) == 2 and fit.start is self.position:
                other = [
                    f.moves[0]
                    for f in rivals
                    if f.moves[0] != fit.moves[0]
                    and f.position.to_text() != fit.position.to_text()
                    and self._made_in_order(f)
                ] + [
                    f.moves[0]
                    for f in lines
                    if len(f.moves) == 1 and f.moves[0] != fit.moves[0] and self._in_hand_next(f)
                ]
                if other:  # the players say which move was made
                    self._put(now, distinct((fit.moves[0], *other)), False)
                    return True
            # (second thoughts about the last move, or its chain gone on)
            extends = fit.start is not self.position
            changes = extends and not goes_on(fit.moves[0], self.position.move_stack[-1])
            for move in fit.moves:
                self._commit(move, extends, now, changes=changes)
                extends = changes = False
            return True
        if (whole := self._whole_line(physical)) is not None:
            for move in whole.moves:
                self._commit(move, False, now)
            return True
        if ignored and (up := self._made_then_up(lines, physical, ignored)) is not None:
            if (
                up.points()[-1] in ignored
                and now < self._last_edge() + SUSPECT
                and not self._rolled_again(button)
            ):  # its piece may still be in the hand (no switch shows it come down there)
                self._hold_word(button, self._last_edge() + SUSPECT + 0.001)
                return True
            self._commit(up, False, now)
            return True
        near = [f for f in lines if len(f.moves) == 1 and f.missed(next(iter(f.off)))]
        points = {p for f in near for p in f.off}
        moves = distinct(f.moves[0] for f in near)
        if not moves:
            return self._broken_before(lines, now)
        if (
            now < self._last_edge() + SUSPECT
            and (len(moves) > 1 or any(p in f.after for f in near for p in f.off))
            and not self._rolled_again(button)
        ):  # the piece may still be in the hand: its landing's switch is not yet suspect
            # (`roll` pressed again: the next side says it is down; the players are asked)
            self._hold_asking(button, now, SUSPECT, "no switch saw the piece come down")
            return True
        if len(moves) == 1 and len(points) == 1 and not unseen:
            (point,) = points
            self._commit(moves[0], False, now)
            if point not in self._suspects:
                self._suspect(point, now)
            return True
        self._put(now, moves, False)
        return True

    def _in_hand_next(self, fit: Fit) -> bool:
        """Whether ``fit``, one move, fits the switches but for one point that reads empty where
        the move leaves a piece of the next side's, lifted since the position began, as its
        switches changed, the move's own piece set down a moment after it left: that piece may
        be in the hand (the next side reaching early)."""
        points = fit.moves[0].points()
        if len(fit.off) != 1 or not points:
            return False
        (point,) = fit.off
        left = self._edges.off.get(points[0], float("-inf"))
        return (
            # (its own piece up no longer than a hand holds one: not the fox 13-20 onto a
            # dead switch 9 s before, read as 13-12 with the goose from 11 in the hand, Fox
            # and Geese broken switch 172)
            0 <= self._edges.filled.get(points[-1], float("-inf")) - left <= SUSPECT
            and point in fit.after
            and point not in self._suspects
            and self._edges.off.get(point, float("-inf")) > self.recognizer.since
            and any(m.points()[:1] == (point,) for m in fit.position.legal_moves)
            and self._made_in_order(fit)
        )

    def _whole_line(self, physical: Occupancy, begun: bool = False) -> Fit | None:
        """The one line of two or three moves from the position whose board is the switches'
        everywhere, each move's pieces set down after the moves before it (a piece may read
        lifted sooner: knocked off its reed, then lifted for its move while it read so): the
        players went on while the board could not follow them. None: no such line, or
        several. ``begun``: the board alone, no player's word: each move's piece last lifted
        from its start after the one before it was (the last mover's piece lifted first,
        then the next side's, is second thoughts and the next side's move, not a move each),
        and each move leaves fewer pieces on the board (so that no longer line reads the
        same: a fox 17-11 and a goose 29-25 read as the fox 17-25, the geese 19-11, the fox
        25-19 and the geese 29-25)."""
        if in_hand(physical, self._edges):
            return None
        ignored = frozenset(self._suspects)
        made = last_changed(self.position)
        since, edges = self.recognizer.since, self._edges
        fits = [
            f
            for f in fitting_lines(self.position, physical, frozenset(), depth=3, slack=0)
            if len(f.moves) > 1
            and (not begun or (_each_takes(f) and self._begun_in_order(f)))
            and self._each_down_after_up(f, ignored)
            and replace(f, off=ignored).in_order(edges, since, made, lifts=False)
        ]
        return fits[0] if len(fits) == 1 else None

    def _begun_in_order(self, fit: Fit) -> bool:
        """Whether each of ``fit``'s moves was last lifted from its start after the move before
        it was (a move with no start, a throw, begins when it may)."""
        never = float("-inf")
        starts = [self._edges.off.get(p[0], never) for m in fit.moves if (p := m.points())]
        return all(a <= b for a, b in pairwise(starts))

    def _each_down_after_up(self, fit: Fit, ignored: Occupancy) -> bool:
        """Whether each of ``fit``'s moves sets a piece down where a switch not thought broken
        reads it (none lands on a man, silently, nor on a dead switch, where the piece may
        still be in the hand), each read come down after the first lift since the position
        began of a point the move empties (its start, or a man it takes); and none where a
        piece stood when the line began, read back within a knock's time (a touch, a knock:
        a piece held since, lifted before the last set-down, may still be in the hand)."""
        since, offs, fills = self.recognizer.since, self._edges.offs, self._edges.fills
        for before, after in pairwise((fit.before, *fit.steps)):
            down, up = after - before - ignored, before - after - ignored
            if not down:
                return False
            left = min((t for p in up for t in offs.get(p, ()) if t > since), default=since)
            if any(all(t <= left for t in fills.get(p, ())) for p in down):
                return False
            # (a point the line empties and fills again, read back within the time a knock
            # lasts: a hand touching or knocking its piece, not one piece gone and another come)
            for p in down & fit.before:
                went = [t for t in offs.get(p, ()) if t > since]
                back = [t for t in fills.get(p, ()) if went and t > went[0]]
                if went and back and back[0] - went[0] < KNOCK:
                    return False
        return True

    def _taken_over(self, physical: Occupancy) -> list[Fit]:
        """The board as it was, and the player confirms a move made: the move may have left a
        point that the next side's answer filled again (a man entering where the last one
        left), its own landing's switch dead. Each such line of two moves that fits the board
        but at that landing, the start's switch having gone empty and full again since the
        position began, in the line's order, as its first move alone (asked, never taken on
        one press: a hand touching that piece reads the same)."""
        since = self.recognizer.since
        out: list[Fit] = []
        for f in fitting_lines(self.position, physical, frozenset(), depth=2):
            if len(f.moves) != 2 or len(f.off) != 1:
                continue
            points = f.moves[0].points()
            if len(points) < 2 or f.off != {points[-1]} or not f.off <= f.after:
                continue
            start = points[0]
            left, back = self._edges.off.get(start), self._edges.filled.get(start)
            if (
                start in f.steps[0]
                or start not in f.after
                or left is None
                or back is None
                or not since < left < back
                or not self._made_in_order(f)
            ):
                continue
            first = f.first_move()
            out.append(replace(first, off=first.after - physical))
        return out

    def _made_then_up(
        self, lines: list[Fit], physical: Occupancy, ignored: Occupancy
    ) -> Move | None:
        """The one move (of ``lines``) that changes a switch thought broken and others, whose
        board is the switches' but for pieces read lifted since its own piece left (the next
        side's, in the hand, or set down on that switch, where it reads the same): the move
        the player confirms. None: no such move, or several."""
        moves = []
        for f in lines:
            changed = f.before ^ f.after
            points = f.moves[0].points() if len(f.moves) == 1 else ()
            if not points or not f.off or not changed & ignored or not changed - ignored:
                continue
            left = self._edges.off.get(points[0])
            if (
                left is None
                or left <= self.recognizer.since
                or not f.off <= f.after - physical - changed
                or any(self._edges.off.get(p, left) <= left for p in f.off)
                or not self._only_touched(changed | f.off | ignored, left)
            ):
                continue
            moves.append(f.moves[0])
        return moves[0] if len(distinct(moves)) == 1 else None

    def _only_touched(self, besides: Occupancy, since: float) -> bool:
        """Whether every switch but those at ``besides`` changed since ``since`` only for
        less than a touch lasts (:data:`TOUCH`), or not at all."""
        offs, fills = self._edges.offs, self._edges.fills
        for p in (offs.keys() | fills.keys()) - besides:
            times = [t for t in (*offs.get(p, ()), *fills.get(p, ())) if t > since]
            if times and max(times) - min(times) >= TOUCH:
                return False
        return True

    def _broken_before(self, lines: list[Fit], now: float) -> bool:
        """The word (`confirm`, `roll`) where the one move read fits the board everywhere but
        at one switch it does not touch, which has read so since before the move's piece left
        and for longer than a knock lasts (a piece lifted, or a switch gone, before the move
        began, and not come back): the move is taken and that switch thought broken. (Not
        while another switch is thought broken: only one is named at a time.)"""
        if self._suspects:
            return False
        apart = [
            f
            for f in lines
            if len(f.moves) == 1 and len(f.off) == 1 and not f.passes(next(iter(f.off)))
        ]
        if len({f.moves[0] for f in apart}) != 1 or len({p for f in apart for p in f.off}) != 1:
            return False
        fit = apart[0]
        (point,) = fit.off
        since = self._edges.last(point)
        began = min((self._edges.last(p) for p in fit.before ^ fit.after), default=since)
        if not since < began or now < since + KNOCK:
            return False
        self._commit(fit.moves[0], False, now)
        self._suspect(point, now)
        return True

    def _made_in_order(self, fit: Fit) -> bool:
        """Whether the switches changed since the position began as ``fit``'s moves would
        change them (:meth:`Fit.in_order`; the last move's own switches aside, and those
        thought broken: they changed by themselves)."""
        off = fit.off | frozenset(self._suspects)
        return replace(fit, off=off).in_order(
            self._edges, self.recognizer.since, last_changed(self.position)
        )

    def _changed_lines(self, physical: Occupancy, ignored: Occupancy) -> list[Fit]:
        """The lines from before the last move whose first move is second thoughts about it
        (the same piece on to another point, read for a switch thought broken that hid where
        it came down: the next side's answer, maybe), fitting whole but at those switches,
        the switches changed in their order since the last move was read, the piece leaving
        the last move's landing counted as the change's own (a piece moved straight on from
        there onto the dead switch: Fox and Geese all 100, 2-3 then on to 5, stuck closed),
        and the answer begun after it (:meth:`_answered_first`: a piece lifted from there
        after the next side began is its next move, or a touch); but the change alone is
        read where no switch but that landing's has changed since (but points the piece slid
        over, never set down on, and still pieces touched and back), and it reads empty: the
        piece gone from there, and nowhere else (Fox and Rabbit all 109: h3-i2, then on to
        g4, stuck closed, and confirm; 4-player 63, slid along a row onto h3)."""
        r = self.recognizer
        extendable = r.extendable
        if extendable is None or not r.second_thoughts or self._word == self._last_move():
            return []
        base, last = extendable
        landing = last.points()[-1:]
        never = float("-inf")
        changed = {
            p
            for p in self._edges.on.keys() | self._edges.off.keys()
            if self._edges.last(p) > r.since
        }
        slid = {  # (a piece slid over on its way, never set down: no move of its own; or a
            # still piece touched and back on its point)
            p
            for p in changed - set(landing)
            if (
                p not in physical
                and p not in r.expected
                and r.set_down(p, r.edges.filled.get(p, never)) < r.since
            )
            or (p in physical and p in r.expected)
        }
        alone = len(landing) == 1 and landing[0] not in physical and changed - slid == set(landing)
        # (the piece leaving the last move's landing is the change's own first switch)
        left = frozenset(p for p in landing if p not in physical and p in changed)
        lifted = self._edges.off.get(landing[0]) if len(landing) == 1 else None
        return [
            f
            for f in fitting_lines(base, physical, ignored, depth=2)
            if f.moves
            and not f.off
            and changed_for(f.moves[0], last)
            and (
                _hidden_then_seen(f, ignored)
                # (alone, a man entering onto the dead switch changes no other: the last
                # move's landing read empty is what shows it)
                or (
                    alone
                    and len(f.moves) == 1
                    and bool(changed_points := f.before ^ f.after)
                    and changed_points <= ignored
                )
            )
            and (
                self._made_in_order(replace(f, before=f.before | left))
                or (alone and len(f.moves) == 1)
            )
            and not self._answered_first(f, ignored, lifted)
        ]

    def _answered_first(self, line: Fit, ignored: Occupancy, lifted: float | None) -> bool:
        """Whether the next side's answer in ``line`` (a line of second thoughts about the last
        move, read from before it) began before the last move's piece left its landing (at
        ``lifted``): then the piece was not moved on, as second thoughts come before the
        other side touches anything (Fox and Geese all 99: 11-6, the goose 18-11 begun, the
        fox then on to 5, stuck open: not 11-6 changed to 11-5)."""
        since = self.recognizer.since
        if lifted is None or lifted <= since or len(line.moves) < 2:
            return False
        answer = set().union(*(a ^ b for a, b in pairwise(line.steps))) - ignored
        return any(since < self._edges.last(p) < lifted for p in answer)

    def _gone_on_lines(self, physical: Occupancy, ignored: Occupancy) -> list[Fit]:
        """The lines from before the last move whose first move is its chain gone on to land
        on a switch thought broken (which no switch shows: the fox jumped on from 9 over 5
        onto 3, stuck closed), and maybe the next side's answer, fitting whole but at those
        switches, the switches changed in their order."""
        extendable = self.recognizer.extendable
        if extendable is None:
            return []
        base, last = extendable
        return [
            f
            for f in fitting_lines(base, physical, ignored, depth=2)
            if f.moves
            and not f.off
            and goes_on(f.moves[0], last)
            and f.moves[0].points()[-1] in ignored
            and self._made_in_order(f)
        ]

    def _rolled_again(self, button: str) -> bool:
        """`roll` pressed while a `roll` is held already: the next side's word that the piece
        is down."""
        return button == "roll" and self._on_word is not None and "roll" in self._on_word[1]

    def _hold_asking(self, button: str, now: float, still: float, why: str) -> None:
        """Hold ``button`` until the switches have been still ``still`` seconds, when it is
        pressed again and the players asked which move (:meth:`_hold_word`); the first word
        held says so."""
        if self._on_word is None:
            self._notice(
                now,
                "waiting",
                f"{button} waits: {why}; the board asks which move once it has been still for"
                f" {still:g} s",
            )
        self._hold_word(button, self._last_edge() + still + 0.001)

    def _hold_word(self, button: str, at: float) -> None:
        """Press ``button`` again at ``at`` (the board staying so), or a `roll` at once once a
        move is taken meanwhile (see :attr:`_on_word`)."""
        buttons = self._on_word[1] if self._on_word else []
        self._on_word = (at, [*buttons, button], len(self.position.move_stack))

    def fix(self) -> tuple[str, bool] | None:
        board = self.reading()
        expected = self.recognizer.expected
        remove = sorted(board - expected, key=self.order)
        if remove:
            return (remove[0], True)
        place = sorted(expected - board, key=self.order)
        return (place[0], False) if place else None

    def _fix_text(self) -> str:
        fix = self.fix()
        if fix is None:
            return "board is right"
        return f"{'remove' if fix[1] else 'place'} {fix[0]}"

    def order(self, point: str) -> tuple[int, int]:
        p = self.layout.points.get(point)
        return (p.y, p.x) if p else (0, 0)

    def suspect_lights(self) -> dict[str, Light]:
        """A switch thought broken pulses red until it changes again."""
        return {p: Light(RED, Pattern.PULSE) for p in self._suspects if p in self.layout.points}
