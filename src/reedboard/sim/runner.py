"""One runner, one clock: what drives a session on the simulated board.

`replay`, `demo`, the hand model, the benchmarks and the tests all drive a
:class:`~reedboard.referee.session.Session` the same way: every timer that falls due fires, in time
order, before the next thing happens; a piece moved or a button pressed goes *through the
board* (the simulated board's switches change and it sends the events, as a real board's
driver does), and the session hears what the board sent. The clock is a :class:`Clock`
that the runner moves on; the board stamps its events with it.

The daemon drives the session with the same two steps on the real clock (reedboard/daemon/core.py):
:meth:`Session.next_deadline` to know how long it may wait, :meth:`Session.poll` when it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import Session


class Clock:
    """A virtual clock: it stands still until the runner moves it."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Runner:
    """Drives ``session`` on ``board`` by ``clock`` (the clock the board was made with)."""

    check_states = False
    """After every step, check that the referee's state agrees with what it waits on
    (:meth:`Session.check`): the tests and ``benchmarks/recognition.py --check`` turn it on."""

    def __init__(
        self,
        session: Session,
        board: SimulatedBoard,
        clock: Clock,
        dice: ScriptedDice | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.session = session
        self.board = board
        self.clock = clock
        self.dice = dice
        self.sleep = sleep
        """For a run people watch (the demo): waits out each step, scaled as it likes."""

    @property
    def now(self) -> float:
        return self.clock.t

    def advance(self, t: float) -> None:
        """Move the clock on to ``t``, firing every timer due on the way, in time order: the
        session's, and the steps of the LEDs' animation (reedboard/hardware/compositor.py)."""
        if t < self.clock.t:
            raise ValueError(f"the clock cannot go back from {self.clock.t} to {t}")
        if self.sleep is not None:
            self.sleep(t - self.clock.t)
        session, leds = self.session, self.board.leds
        while True:  # (the LEDs' animation steps fire on the same clock)
            deadline, step = session.next_deadline(), leds.next_tick()
            due = min((d for d in (deadline, step) if d is not None), default=None)
            if due is None or due > t:
                break
            self.clock.t = max(self.clock.t, due)
            if due == deadline:
                session.poll(due)
                if self.check_states:
                    session.check()
            leds.tick(self.clock.t)
        self.clock.t = t

    def pump(self) -> None:
        """The session hears every event the board has sent."""
        events, session = self.board.events, self.session
        while events.pending():
            session.on_event(events.get_nowait(), self.clock.t)
            if self.check_states:
                session.check()

    def place(self, point: str, t: float | None = None) -> None:
        self._at(t)
        self.board.place(point)
        self.pump()

    def lift(self, point: str, t: float | None = None) -> None:
        self._at(t)
        self.board.lift(point)
        self.pump()

    def press(self, button: str, t: float | None = None) -> None:
        self._at(t)
        self.board.press(button)
        self.pump()

    def feed(self, line: dict[str, Any]) -> None:
        """One trace line (a switch, a throw's values, a button) at its time ``t``."""
        t = float(line["t"])
        if "point" in line:
            (self.place if line["on"] else self.lift)(line["point"], t)
        elif "dice" in line:
            self._at(t)
            if self.dice is None:
                raise ValueError("a throw's values, but these dice are not scripted")
            self.dice.feed(line["dice"])
        else:
            self.press(line["button"], t)

    def _at(self, t: float | None) -> None:
        if t is not None:
            self.advance(t)
