"""One game on one board: sensor and button events in, moves, store writes and LED frames out.

The session runs on an explicit clock: :meth:`Session.on_event` and :meth:`Session.poll` take
the time, and :meth:`Session.next_deadline` says when it next needs polling. The daemon drives
it with the real clock; replay drives it with a trace's times, so both behave the same.

What a reading of the board means is decided in one place, reedboard/referee/decide.py; the
session holds the game (its position, the store, the dice, hints, the LEDs) and carries out
each decision the decider makes (:meth:`Session._apply`).

Timing (docs/design.md): the board counts as settled after ``settle`` seconds without a switch
change (default 60 ms); a reading that means nothing becomes a mismatch only after it has
stayed for ``grace`` seconds (default 2 s), and so does a takeback or a new game read off the
board. A move the board shows made while a hand may still be making another (recognition's
``PENDING``; reedboard/referee/pending.py follows it) is committed when a later reading shows the
next move made on the board after it, on `roll` or `confirm`, or, when every one of its
switches changed, once the board has stayed so for ``hold`` seconds (default 4 s, longer than
a hand holds a piece mid-move). One whose landing switch never changed is only ever taken by
what comes after it: a later move, `roll` or `confirm`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from reedboard import engine
from reedboard.engine import Move, Position
from reedboard.errors import ControllerError
from reedboard.hardware.board_io import BoardIO, ButtonEvent, LinkEvent, SensorEvent
from reedboard.referee.decide import (
    Commit,
    Decider,
    Decision,
    NewStart,
    Press,
    Roll,
    Say,
    SessionState,
    Show,
    TakeBack,
)
from reedboard.referee.dice import DiceError, DiceSource, SystemDice, roll_for
from reedboard.referee.events import (
    ButtonPressed,
    EventBus,
    GameEvent,
    GameOver,
    HintShown,
    LinkChanged,
    MoveCommitted,
    MoveShown,
    NewGame,
    Notice,
    Resumed,
    Source,
    Takeback,
    Thrown,
)
from reedboard.referee.hints import Hinter, hint_now
from reedboard.referee.leds import View, frame, route_points
from reedboard.referee.recognition import Occupancy, Recognizer, goes_on
from reedboard.referee.solved import Verdicts
from reedboard.store.games import GameStore
from reedboard.store.recorder import Recorder
from reedboard.store.writer import StoreWriter
from reedboard.wiring.layout import Layout

__all__ = ["PlayError", "Session", "SessionState"]

log = logging.getLogger("reedboard")

SETTLE = 0.060
GRACE = 2.0
HOLD = 4.0


class PlayError(ControllerError, ValueError):
    """A move from elsewhere cannot be played now: one line saying why."""


class Session:
    def __init__(
        self,
        board: BoardIO,
        layout: Layout,
        game_id: str,
        options: dict[str, Any] | None = None,
        *,
        store: GameStore | StoreWriter | None = None,
        dice: DiceSource | None = None,
        settle: float = SETTLE,
        grace: float = GRACE,
        hold: float = HOLD,
        on_alert: Callable[[float, str, str], None] | None = None,
        hints: Hinter = hint_now,
    ) -> None:
        self.board = board
        self._hints = hints
        """Searches the `hint` button's move (the daemon's runs off its loop)."""
        self.layout = layout
        self.game_id = game_id
        self.cls = engine.game(game_id)
        self.options = dict(options or {})
        self.store = store
        self.dice = dice or SystemDice()
        self._not_starts: set[tuple[Occupancy, tuple[tuple[str, Any], ...]]] = set()
        self.events = EventBus(hold=self.saving)
        """The game's events: the store hears each first, the other listeners once it is
        durable (reedboard/referee/events.py)."""
        self.recorder = Recorder(store) if store is not None else None
        if self.recorder is not None:
            self.events.subscribe(self.recorder, first=True)
        self.alerts: list[dict[str, Any]] = []
        """Every event heard, in its one-line form (``replay --json``'s alerts)."""

        def alert(event: GameEvent) -> None:
            if event.alert:
                self.alerts.append(event.as_alert())
                if on_alert is not None:
                    on_alert(event.t, event.name, event.text)

        self.events.subscribe(alert)
        self._frame_due = False
        """A frame held back likewise: it is shown by :meth:`flush`."""
        self._now = 0.0
        """The time of the event or poll being handled (a decision carries none)."""
        self.decider = Decider(
            layout,
            self._apply,
            settle=settle,
            grace=grace,
            hold=hold,
            dice=self.cls.dice_spec is not None,
        )
        """What the board means: reedboard/referee/decide.py."""
        self._hint: Move | None = None
        self._ended_at: float | None = None
        self._shown_frame: dict[str, Any] | None = None
        # Solitaire's verdict after each jump; the daemon gives it the winning set
        self.solved = Verdicts()

    # -- the game ----------------------------------------------------------------------------

    def start(self, now: float, position: Position[Any, Any] | None = None) -> None:
        """Resume the store's unfinished game of this kind, or begin one (from ``position``
        when given); then judge the board as it stands (guiding it back at once if it
        differs)."""
        self._now = now
        self.decider.physical = set(self.board.snapshot())
        record = self.store.unfinished(self.game_id) if self.store and position is None else None
        if position is not None:
            self._begin(position, now)
        elif record is not None and record.game == self.game_id:
            position = record.position()
            self.options = record.options
            self._publish(Resumed(now, record.id, len(record.moves)))
        else:
            board = self.decider.reading()
            position = self._start_from(board) or self.cls.start(**self.options)
            self._begin(position, now)
        self._install(position, now)
        self.decider.judge(now, first=True)

    def _begin(self, position: Position[Any, Any], now: float, abandons: bool = False) -> None:
        self._publish(NewGame(now, self.game_id, dict(self.options), position.to_text(), abandons))

    def _install(self, position: Position[Any, Any], now: float) -> None:
        self.position = position
        self._ended_at = None
        self.decider.install(position, now, self._start_from)

    def _start_from(self, board: Occupancy) -> Position[Any, Any] | None:
        """The starting position the board shows, if it shows one of this game. (Boards that
        show none are remembered: most readings are asked about, and few are starts.)"""
        # (an option's value may be a list, as a game's own options give them back)
        key = (board, tuple(sorted((name, repr(value)) for name, value in self.options.items())))
        if key in self._not_starts:
            return None
        start = self.cls.start_from(board, **self.options)
        if start is None:
            if len(self._not_starts) > 4096:
                self._not_starts.clear()
            self._not_starts.add(key)
        return start

    @property
    def physical(self) -> set[str]:
        """The points whose switches read a piece."""
        return self.decider.physical

    @property
    def recognizer(self) -> Recognizer:
        """The recognizer reading the board against the position (the decider's)."""
        return self.decider.recognizer

    @property
    def settle(self) -> float:
        """Seconds without a switch change before the board counts as settled."""
        return self.decider.settle

    @property
    def grace(self) -> float:
        """Seconds a reading that means nothing stays before it is a mismatch."""
        return self.decider.grace

    @property
    def hold(self) -> float:
        """Seconds a board showing a move made stays before the move is taken."""
        return self.decider.hold

    @property
    def state(self) -> SessionState:
        """Where the referee stands."""
        return self.decider.state

    @property
    def mismatch(self) -> bool:
        """Whether a fix is lit: the board is wrong (a mismatch, or a takeback restored)."""
        return self.decider.mismatch

    def check(self) -> None:
        """Raise AssertionError where the state and what it waits on disagree."""
        self.decider.check()

    @property
    def moves(self) -> list[Move]:
        return self.position.move_stack

    def play(self, move: Move | str, source: Source, now: float) -> Move:
        """Play a move from anywhere: the one commit path. The engine checks it (an illegal
        move raises IllegalMoveError and changes nothing). From the board (and `confirm`)
        it is simply committed. From elsewhere (console, computer, remote) it is committed
        and then shown on the LEDs (from, landings and to blue, men to take off blinking
        red) until the pieces stand so: recognition confirms it and guides the players back
        where they went wrong. A throw from elsewhere is committed and shown on the dice."""
        self._now = now
        if isinstance(move, str):
            parsed: Move = self.position.parse_move(move)  # Position[Any, Any]: Any unless named
            move = parsed
        if source != "board":
            board = self.decider.reading()
            if (showing := self.decider.showing) is not None:
                raise PlayError(f"{showing} is still to be carried out on the board")
            if (
                self.state not in (SessionState.PLAYING, SessionState.OVER)
                or board != self.recognizer.expected
            ):
                raise PlayError("the board is not at rest: finish the move in hand first")
        if self.position.is_chance():
            self._throw(move, now)
        elif move not in self.position.legal_moves:
            raise engine.IllegalMoveError(f"illegal move {move} in {self.position.to_text()}")
        elif move.points():
            self._commit(move, False, now, source=source)
            if source != "board":
                self.decider.carry_out(move)
                self._publish(MoveShown(now, move, source))
        else:  # a move that changes no switch (a Messenger Boy order back to its square)
            self._commit(move, False, now, source=source)
        self._show(now)
        return move

    def _throw(self, move: Move, now: float) -> None:
        """A throw from elsewhere: the dice show it, the game goes on after it."""
        try:
            values = self.position.throw_values(move)
        except engine.EngineError:
            raise engine.IllegalMoveError(f"{move} is no throw of {self.game_id}'s dice") from None
        thrower, opening = self.position.turn, self.position.in_opening()
        self.position.push(move)
        self._thrown(values, thrower, opening, now)

    # -- events ------------------------------------------------------------------------------

    def _survive(self, what: str, exc: Exception, now: float) -> None:
        """A bug must not stop the board: say it, keep the game as committed, read anew."""
        log.exception("%s failed", what)
        self._notice(now, "error", f"{what}: {exc}")
        self._install(self.position, now)
        self._show(now)

    def on_event(self, event: SensorEvent | ButtonEvent | LinkEvent, now: float) -> None:
        self._now = now
        if isinstance(event, LinkEvent):  # the game is kept; the board resyncs when it is back
            self._publish(LinkChanged(now, event.up, event.detail))
            return
        if isinstance(event, SensorEvent):
            self.decider.edge(event.point, event.on, now)
            self._hint = None
            return
        self._button(event.button, now)

    def next_deadline(self) -> float | None:
        times = [t for t in (self.decider.next_deadline(), self.solved.deadline()) if t is not None]
        # (the game-over sweep is the LED compositor's to time: nothing to wake for)
        return min(times) if times else None

    def poll(self, now: float) -> None:
        """Act on every timer due at ``now``."""
        self._now = now
        self.flush(now)
        try:
            self.decider.poll(now)
        except engine.EngineError as exc:
            self._survive("reading the board", exc, now)
        if self.solved.expire(now):  # the finish hole's pulse is over
            self._show(now)

    def _apply(self, decision: Decision) -> None:
        """Carry out what the decider decided."""
        now = self._now
        if isinstance(decision, Commit):
            self._commit(
                decision.move,
                decision.extends,
                now,
                since=decision.since,
                changes=decision.changes,
            )
        elif isinstance(decision, Say):
            self._publish(decision.event)
        elif isinstance(decision, Show):
            self._show(now)
        elif isinstance(decision, TakeBack):
            self._takeback(decision.ply, now)
        elif isinstance(decision, NewStart):
            self._new_game(decision.position, now)
        elif isinstance(decision, Roll):
            self._roll(now)
        elif isinstance(decision, Press):
            self._press(decision.button, now)

    # -- moves -------------------------------------------------------------------------------

    def _commit(
        self,
        move: Move,
        extends: bool,
        now: float,
        since: float | None = None,
        source: Source = "board",
        changes: bool = False,
    ) -> None:
        position = self.position
        if extends and not changes and position.move_stack:
            # a move read ahead that replaces the last one but is not its chain gone on (nor
            # the same ends, wider): second thoughts, said so
            last = position.move_stack[-1]
            changes = not goes_on(move, last) and move.points()[-1:] != last.points()[-1:]
        replaced = position.move_stack[-1] if changes else None
        was_over = position.is_over()
        if extends:
            before = position.copy()
            before.pop()
            before.push(move)  # checked before anything changes: raises IllegalMoveError
            position.pop()
        base = position.copy()
        position.push(move)
        reopens = was_over and not position.is_over()  # (a move that ended it, replaced)
        self._record(move, now, extends=extends, source=source, replaces=replaced, reopens=reopens)
        if (lost := self.solved.jumped(base, position, move, now)) is not None:  # a lost Solitaire
            self._notice(now, "lost", lost)
        self._hint = None
        self.decider.committed(base, move, extends, now, since)
        self._ended(now)

    def _record(
        self,
        move: Move,
        now: float,
        *,
        extends: bool = False,
        replaces: Move | None = None,
        reopens: bool = False,
        throw: bool = False,
        source: Source = "board",
    ) -> None:
        """Publish a committed move: the store hears it first (a move is committed once it
        is on disk), everyone else once it is."""
        ply = len(self.position.move_stack) - 1
        if throw:
            self._publish(Thrown(now, move, ply))
        else:
            self._publish(MoveCommitted(now, move, ply, source, extends, replaces, reopens))

    def _ended(self, now: float) -> None:
        """After the position changed: say the end of the game, if it ended."""
        over = self.position.outcome()
        if over is not None:
            self._ended_at = now
            self._publish(GameOver(now, over))
        else:  # (a move that ended the game changed for one that does not: play goes on, and
            # the board shows it again rather than the end's sweep)
            self._ended_at = None

    def _takeback(self, ply: int, now: float) -> None:
        was_over = self.position.is_over()
        while len(self.position.move_stack) > ply:
            self.position.pop()
        self._publish(Takeback(now, ply, reopens=was_over))
        self._hint = None
        self.decider.taken_back(now)
        self._ended(now)
        self._ended_at = None

    def _new_game(self, position: Position[Any, Any], now: float) -> None:
        unfinished = self.position.outcome() is None
        if self.behind():  # (a new game's row would go before the moves kept)
            self._notice(
                now, "store-behind", "saving is behind: a new game waits until every move is saved"
            )
            return
        options, self.options = self.options, position.option_values()  # (a setup read off the
        try:  # board is kept)
            self._begin(position, now, abandons=unfinished)
        except ControllerError as exc:  # the store cannot begin it: the game goes on as it was
            self.options = options
            self._notice(now, "store-error", f"{exc}; no new game")
            return
        self.position = position
        self._ended_at = None
        self.decider.new_game(position, now, self._start_from)
        if self.cls.dice_spec:
            self.board.show_dice(None)

    # -- buttons -----------------------------------------------------------------------------

    def _button(self, button: str, now: float) -> None:
        self._publish(ButtonPressed(now, button))
        self.decider.pressed(now)
        try:
            self._press(button, now)
        except engine.EngineError as exc:  # a bug must not stop the board: say it, go on
            self._survive(f"button {button}", exc, now)

    def _press(self, button: str, now: float) -> None:
        if button == "roll":
            self._roll(now)
        elif button == "undo":
            self._undo(now)
        elif button == "hint":
            if not self.decider.next_candidate():  # (asking: the next candidate)
                asked = self.position.to_text()
                if (solved := self.solved.usable(self.position)) is not None:  # proved
                    self._hinted(asked, solved.hint(self.position), now)  # a proof, at once
                else:
                    self._hints(
                        self.position.copy(stack=False),
                        now,
                        lambda move, at: self._hinted(asked, move, at),
                    )
        elif button == "confirm":
            self.decider.confirm(now)
        elif button == "new":
            self._new_game(self.cls.start(**self.options), now)
            self.decider.judge(now, first=True)
            return
        self._show(now)

    def _hinted(self, asked: str, move: Move | None, now: float) -> None:
        """A hint searched for the position ``asked``: shown only while that is still the
        position and no question is put to the players."""
        if self.position.to_text() != asked or self.state is SessionState.ASKING:
            return
        self._now = now
        self._hint = move
        proof = self.position.proof_words(move) if move is not None else None
        self._publish(HintShown(now, move, proof))
        self._show(now)

    def _roll(self, now: float) -> None:
        if self.cls.dice_spec is None:
            self._notice(now, "no-dice", f"{self.game_id} has no dice")
            return
        if self.position.is_chance() and self.decider.change_on_roll(now):
            # (the last move changed onto a switch thought broken: taken, then thrown)
            if not self.position.is_chance():
                return  # (the change ended the game)
        elif (
            self.position.is_chance() and self.decider.mover_up(now) and not self.decider.changing()
        ):
            self.decider.hold_roll(now)  # second thoughts under way, the piece in the hand
            return  # (the throw waits for it to come down; a change read: see below)
        if self.position.is_chance() and self.decider.changing():
            # the board reads the last move changed (second thoughts) before the throw: the
            # roll says the move is done, so the change is taken first (or waited on)
            self.decider.resolve_silent(now, "roll")
            if not self.position.is_chance():
                return  # (thrown with the move, by a roll that waited on it: this press was
                # that roll's word, not a roll for the next side's move)
            if self.decider.holding:
                return  # (the throw comes with the move, once it is taken)
            if self.decider.changing():
                self._notice(now, "move-first", "the last move is being changed: finish it first")
                return
        if not self.position.is_chance() and not self.decider.resolve_silent(now, "roll"):
            self._notice(now, "move-first", "the dice are thrown: make the move first")
            return
        if not self.position.is_chance():
            return
        thrower = self.position.turn
        opening = self.position.in_opening()
        try:
            values = roll_for(self.position, self.dice)
        except DiceError as exc:
            self._notice(now, "dice-error", str(exc))
            return
        self._thrown(values, thrower, opening, now)

    def _thrown(self, values: tuple[int, ...], thrower: Any, opening: bool, now: float) -> None:
        """The throw just pushed: show it, record it, say a turn that passes."""
        self.board.show_dice(self.position.shown_dice(values))
        self._record(self.position.move_stack[-1], now, throw=True)
        position = self.position
        moved_on = position.turn != thrower or not position.legal_moves
        if not opening and position.is_chance() and moved_on and not position.is_over():
            self._notice(now, "pass", f"no legal move for {values}: the turn passes")
        self._hint = None
        self.decider.thrown(now)
        self._ended(now)

    def _undo(self, now: float) -> None:
        """Take back the last piece move (and any throw after it); the board is then guided
        back, and nothing is committed until it is."""
        self.decider.cancel_buttons()
        stack = self.position.move_stack
        moved = [ply for ply, move in enumerate(stack) if move.points()]
        if not moved:
            self._notice(now, "undo", "nothing to take back")
            return
        self._takeback(moved[-1], now)
        self.decider.restore(now)

    # -- output ------------------------------------------------------------------------------

    def view(self, now: float) -> View:
        position = self.position
        decider = self.decider
        marks = position.marks()
        sweep = self._ended_at is not None  # the compositor sweeps once and stops
        if decider.mismatch:
            return View(fix=decider.fix(), marks=marks)
        if decider.showing is not None:
            blue, remove = decider.shown_lights()
            return View(computer=blue, extra=remove, marks=marks)
        landings = decider.landings
        if not landings and not position.is_chance() and not position.is_over():
            if self.recognizer.extendable and self.recognizer.continuations():
                landings = self.recognizer.continuations()
            elif self.cls.dice_spec:  # the mover's reachable circles, once thrown
                landings = self.recognizer.landings()
        candidate = route_points(move) if (move := decider.candidate) is not None else ()
        hint = position.hint_points(self._hint) if self._hint else ()  # over too
        return View(
            landings=landings,
            hint=hint,
            candidate=candidate,
            marks=marks,
            sweep=sweep,
            extra={**self.solved.lights(now), **decider.suspect_lights()},
        )

    def behind(self) -> bool:
        """Whether moves are kept that the store has not taken yet (reedboard/store/writer.py):
        no game begins or resumes until they are written."""
        return isinstance(self.store, StoreWriter) and self.store.behind

    def saving(self) -> bool:
        """Writes handed to the store's thread (reedboard/store/writer.py) and not yet durable:
        until they are, what they announce is held back."""
        return isinstance(self.store, StoreWriter) and self.store.saving

    def flush(self, now: float) -> None:
        """Once the store has written everything handed to it, let the events held back
        meanwhile be heard and show the frame (the daemon calls this when the writer
        empties)."""
        if isinstance(self.store, StoreWriter) and not self.saving():
            if failure := self.store.take_failure():  # said first, when the write was made
                at = self.events.held_since or now
                self.events.announce(
                    Notice(
                        at,
                        "store-error",
                        f"{failure}; saving is behind: every move is kept and written when"
                        " the store takes writes again",
                    )
                )
            if caught := self.store.take_caught_up():
                self.events.announce(Notice(now, "store-ok", f"{caught}: every move is saved"))
        if (not self.events.holding and not self._frame_due) or self.saving():
            return
        self.events.flush()
        if self._frame_due:
            self._frame_due = False
            self._show(now)

    def _show(self, now: float) -> None:
        if self.saving():
            self._frame_due = True
            return
        shown = frame(self.layout, self.view(now))
        if shown != self._shown_frame:
            self.board.show(shown)
            self._shown_frame = shown

    def _publish(self, event: GameEvent) -> None:
        log.log(logging.INFO if event.alert else logging.DEBUG, "%s: %s", event.name, event.text)
        self.events.publish(event)

    def _notice(self, now: float, what: str, detail: str) -> None:
        self._publish(Notice(now, what, detail))

    def result(self) -> dict[str, Any]:
        over = self.position.outcome()
        return {
            "game": self.game_id,
            "moves": [str(m) for m in self.position.move_stack],
            "position": self.position.to_text(),
            "outcome": over.as_dict() if over else None,
            "alerts": self.alerts,
        }
