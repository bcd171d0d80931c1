"""The simulated board's console: ``reedboard run`` without a build reads commands on standard
input, so every game can be played from the keyboard.

    move MOVE       a move in the game's own notation, made by a hand on the board: ``move
                    9-4``, ``move 9x25x11`` (lifts the fox, takes the jumped geese, sets it
                    down), ``move WR a1-c6``, ``move Y enter``, ``move c3xd4``; a throw as
                    ``move dice=5,2`` or ``move spin=4`` (those values, then the roll button)
    lift P, place P a piece lifted off or put on point P (any piece, legal or not)
    press BUTTON    roll, undo, hint, confirm or new
    show            the board and its LEDs
    quit            end the daemon (so does closing standard input); the game is kept

A command is checked whole before anything happens: a bad one is one ``error: ...`` line and
changes nothing. Commands run one after another; a ``move`` waits until the board has taken
it, so a script of moves can be piped in.
"""

from __future__ import annotations

import asyncio
import inspect
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reedboard.daemon.extension import Background, Host
from reedboard.engine import EngineError, Move
from reedboard.hardware.board_io import BUTTONS
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import DiceSource
from reedboard.referee.session import Session, SessionState
from reedboard.sim.tracegen import (
    Hands,
    is_silent,
    lookalikes,
    pick_among_lookalikes,
    play_move,
    spelt_as,
)

PACE = 0.1
"""Seconds between a hand's actions in a console ``move`` (a piece is carried this long)."""
TAKE_EXTRA = 1.0
"""How long past its settle and hold times a console move may take to be read."""

HELP = (
    "commands: move MOVE (in the game's notation; a throw as dice=A,B or spin=N) | lift P"
    " | place P | press " + "|".join(BUTTONS) + " | show | help | quit"
)


class ConsoleDice:
    """A dice source whose next throws can be given on the console (``move dice=5,2``);
    without one, the daemon's own source throws."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._given: deque[tuple[int, ...]] = deque()

    def feed(self, values: Sequence[int]) -> None:
        self._given.append(tuple(values))

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        if self._given:
            return self._given.popleft()
        return self.source.roll(count, sides)


@dataclass
class Plan:
    """What a checked command does: (delay, action) steps, and the move it makes if any."""

    steps: list[tuple[float, Callable[[], object]]] = field(default_factory=list)
    """An action may return an awaitable: the plan waits for it (the board asking)."""
    move: Move | None = None
    ply: int = 0
    reply: str | None = None
    carry_out: bool = False
    """The move is one from elsewhere (the computer's), committed and lit: carried out."""


class Console:
    def __init__(
        self,
        session: Session,
        board: SimulatedBoard,
        dice: ConsoleDice,
        *,
        show: Callable[[], str],
        stop: Callable[[], None],
        out: Callable[[str], None],
        pace: float = PACE,
    ) -> None:
        self.session = session
        self.board = board
        self.dice = dice
        self.show = show
        self.stop = stop
        self.out = out
        self.pace = pace

    # -- checking a command ------------------------------------------------------------------

    def plan(self, line: str) -> Plan | str | None:
        """The command checked whole: a Plan, an error or help text, or None (a blank line).
        Nothing changes here."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        try:
            if verb in ("lift", "place"):
                return self._lift_place(verb, args)
            if verb == "move":
                if not args:
                    raise ValueError("move what? e.g. move 9-4 (in the game's notation)")
                return self._move(" ".join(args))
            if verb == "press":
                if len(args) != 1 or args[0] not in BUTTONS:
                    given = " ".join(args) or "nothing"
                    raise ValueError(f"press {given}: press one of {', '.join(BUTTONS)}")
                button = args[0]
                return Plan([(0.0, lambda: self.board.press(button))])
            if verb in ("show", "help", "quit", "exit"):
                if args:
                    raise ValueError(f"{verb} takes nothing after it")
                if verb == "show":
                    return Plan(reply=self.show())
                if verb == "help":
                    return HELP
                return Plan([(0.0, self.stop)])
        except (ValueError, EngineError) as exc:
            return f"error: {_one_line(str(exc))}"
        return f"error: unknown command {verb!r}; {HELP}"

    def _lift_place(self, verb: str, args: list[str]) -> Plan:
        if len(args) != 1:
            raise ValueError(f"{verb} one point, e.g. {verb} 17")
        point = args[0]
        self.board.check_point(point)
        there = point in self.board.snapshot()
        if verb == "lift" and not there:
            raise ValueError(f"nothing on {point} to lift")
        if verb == "place" and there:
            raise ValueError(f"{point} already has a piece on it")
        action = self.board.lift if verb == "lift" else self.board.place
        return Plan([(0.0, lambda: action(point))])

    def _move(self, text: str) -> Plan:
        position = self.session.position.copy()
        carry_out = False
        if self.session.state is SessionState.CARRYING_OUT:  # the lit move, made by hand
            before = position.copy()
            shown = before.pop()
            carry_out = before.parse_move(text) == shown
            position = before if carry_out else position
        move = position.parse_move(text)
        if move not in position.legal_moves:
            position.push(move)  # raises IllegalMoveError, naming the move and the position
        hands = Hands(random.Random(0), bounce=0.0, gap=(self.pace, self.pace))
        asked_at = -1
        if position.is_chance():
            hands.dice(position.throw_values(move))
            hands.button("roll")
        else:
            straight = any(c.chain for c in position.physical_steps(move).carries)
            silent = is_silent(position, move)
            play_move(hands, position, move, straight)
            alike = len(lookalikes(position, move)) > 1
            if (straight or silent) and alike:  # the board asks: show ours, then confirm it
                if silent:
                    hands.button("confirm")
                asked_at = len(hands.lines)  # (once it has asked: the hint and confirm after)
                pick_among_lookalikes(hands, position, move)
            elif silent:  # its landing's switch did not change: say the move is done
                hands.button("confirm")
        # (the board takes the first spelling of a move that leaves one position either way)
        plan = Plan(
            move=spelt_as(position, move), ply=len(position.move_stack), carry_out=carry_out
        )
        last = hands.lines[0]["t"] if hands.lines else 0.0
        for i, line in enumerate(hands.lines):
            if i == asked_at:
                plan.steps.append((0.0, self._asking))
            plan.steps.append((line["t"] - last, self._action(line)))
            last = line["t"]
        return plan

    async def _asking(self) -> None:
        """Wait until the board asks which of the moves that read alike was made (a loaded
        machine may take longer than the pace to settle), at most as long as it may take."""
        session = self.session
        loop = asyncio.get_running_loop()
        deadline = loop.time() + session.settle + session.grace + TAKE_EXTRA
        while session.state is not SessionState.ASKING and loop.time() < deadline:
            await asyncio.sleep(0.01)

    def _action(self, line: dict[str, Any]) -> Callable[[], None]:
        board = self.board
        if "point" in line:
            point, on = line["point"], line["on"]
            return lambda: (board.place if on else board.lift)(point)
        if "dice" in line:
            values = tuple(line["dice"])
            return lambda: self.dice.feed(values)
        button = line["button"]
        return lambda: board.press(button)

    # -- doing it ----------------------------------------------------------------------------

    async def perform(self, plan: Plan) -> None:
        if plan.reply is not None:
            self.out(plan.reply)
        for delay, action in plan.steps:
            if delay > 0:
                await asyncio.sleep(delay)
            if inspect.isawaitable(done := action()):
                await done
        if plan.move is not None:
            await self._taken(plan.move, plan.ply, plan.carry_out)

    async def _taken(self, move: Move, ply: int, carry_out: bool = False) -> None:
        """Wait until the session has taken ``move`` as ply ``ply`` and said so (its events are
        held back until the store has it on disk) (``carry_out``: until the referee has seen it
        carried out); say so if it does not."""
        session = self.session
        limit = session.settle + session.hold + TAKE_EXTRA
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while loop.time() < deadline:
            stack = session.position.move_stack
            done = not carry_out or session.state is not SessionState.CARRYING_OUT
            said = not session.events.holding
            if len(stack) > ply and stack[ply] == move and done and said:
                return
            await asyncio.sleep(0.01)
        self.out(f"error: the board did not take {move} within {limit:g} s")

    async def run(self, lines: asyncio.Queue[str | None]) -> None:
        """Carry out the lines in order until None (standard input closed): then stop."""
        while (line := await lines.get()) is not None:
            planned = self.plan(line)
            if isinstance(planned, str):
                self.out(planned)
            elif planned is not None:
                await self.perform(planned)
        self.stop()


def _one_line(text: str) -> str:
    return " ".join(text.split())


class ConsoleReader(Background):
    """The simulated board's console as a daemon extension: standard input's lines carried out
    in order, the board drawn first."""

    def __init__(
        self,
        console: Console,
        read_lines: Callable[[asyncio.AbstractEventLoop], asyncio.Queue[str | None]],
        show: Callable[[], str],
    ) -> None:
        super().__init__()
        self.console, self.read_lines, self.show = console, read_lines, show

    async def start(self, daemon: Host) -> None:
        lines = self.read_lines(asyncio.get_running_loop())
        self.task = asyncio.create_task(self.console.run(lines))
        daemon.out(self.show())
