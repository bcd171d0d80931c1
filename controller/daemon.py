"""``reedboard run``: the daemon. It loads the config, opens the board and the game store,
resumes the unfinished game, and runs the session on the real clock until SIGTERM.

Under systemd (``Type=notify``) it says READY once the board is read, and pings the watchdog
from the same loop that handles the board, so a stuck loop is restarted. On the simulated
board it reads commands from standard input (``lift 17``, ``place 9``, ``move 9-10``,
``press roll``, ``show``), so the whole stack can be played without hardware.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import engine
from controller.config import Config
from controller.dice import SeededDice, SystemDice
from controller.session import Session
from controller.store import GameStore
from controller.terminal import draw, pieces_of
from controller.writer import StoreWriter
from hardware.board_io import BUTTONS, BoardIO
from hardware.simulated import SimulatedBoard
from wiring.build import Build, load_build
from wiring.layout import Layout, layout_for_game

CARRY_SECONDS = 0.1
"""The console's `move`: how long the piece is in the air between lift and place."""

log = logging.getLogger("reedboard")


class DaemonError(Exception):
    """The daemon cannot start: one line saying why."""


class Notifier:
    """systemd's sd_notify through sdnotify, when run by systemd; silent otherwise."""

    def __init__(self) -> None:
        self._notifier: Any = None
        self.watchdog_every: float | None = None
        if os.environ.get("NOTIFY_SOCKET"):
            try:
                import sdnotify

                self._notifier = sdnotify.SystemdNotifier()
            except ImportError:
                log.warning("NOTIFY_SOCKET is set but sdnotify is not installed (reedboard[pi])")
        if usec := os.environ.get("WATCHDOG_USEC"):
            self.watchdog_every = int(usec) / 1e6 / 2

    def send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)


def open_board(config: Config, initial: frozenset[str]) -> tuple[BoardIO, Layout]:
    if not engine.game(config.game).sensed:
        raise DaemonError(
            f"{config.game} is played at the table, not sensed on the board:"
            f" use `reedboard {config.game} --help`"
        )
    if config.build is None:
        layout = layout_for_game(config.game)
        return SimulatedBoard(layout, initial), layout
    build = load_build(config.build)
    if config.game not in build.layout.games:
        raise DaemonError(
            f"build {build.name} is a {build.layout.name} board, which does not play"
            f" {config.game} ({', '.join(build.layout.games)})"
        )
    return board_for(build), build.layout


def board_for(build: Build) -> BoardIO:
    """The driver a build names: the Pi's own GPIO, or a Pico over USB serial."""
    if build.driver == "pico":
        from firmware_bridge.link import PicoBoard

        assert build.serial_port is not None
        return PicoBoard(
            build.serial_port,
            build.layout,
            brightness=build.leds.brightness,
            max_milliamps=build.leds.max_milliamps,
        )
    from hardware.gpio_board import GpioBoard

    try:
        return GpioBoard(build)
    except Exception as exc:  # no pin factory off a Pi, pins busy, no SPI device
        raise DaemonError(
            f"build {build.name}: cannot open the board: {exc} (on a Raspberry Pi, with"
            " reedboard[pi] installed?)"
        ) from None


def initial_occupancy(config: Config, store: GameStore | StoreWriter) -> frozenset[str]:
    """Where the simulated board's pieces stand: as the unfinished game left them, else the
    start position."""
    record = store.unfinished(config.game)
    cls = engine.game(config.game)
    if record is not None:
        position = cls.from_text(record.start, **record.options)
        for text in record.moves:
            position.push_text(text)
        return position.occupied()
    return cls.start(**config.options).occupied()


class Daemon:
    def __init__(self, config: Config, out: Callable[[str], None] = print) -> None:
        self.config = config
        self.out = out
        try:
            # moves are written on a thread of their own: the loop never waits on the disk
            self.store = StoreWriter(GameStore(config.database))
        except Exception as exc:
            raise DaemonError(str(exc)) from None
        self.board, self.layout = open_board(config, initial_occupancy(config, self.store))
        dice = SeededDice(config.dice_seed) if config.dice_seed is not None else SystemDice()
        self.session = Session(
            self.board,
            self.layout,
            config.game,
            config.options,
            store=self.store,
            dice=dice,
            settle=config.settle,
            grace=config.grace,
            hold=config.hold,
            on_alert=lambda _t, kind, text: self.out(f"{kind}: {text}"),
        )
        self.notifier = Notifier()
        self.stop = asyncio.Event()

    async def run(self, console: bool = False) -> None:
        loop = asyncio.get_running_loop()

        # what waited for the disk is said and lit as soon as the writer is done
        def saved() -> None:  # on the writer's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to light
                loop.call_soon_threadsafe(self._saved)

        self.store.on_saved = saved
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop.set)
        try:
            async with self.board:  # scanning, or the Pico's link, until the daemon stops
                # the LEDs animate on a clock of their own (hardware/compositor.py)
                animating = asyncio.create_task(self.board.leds.run())
                try:
                    self.session.start(time.monotonic())
                    self.notifier.send("READY=1")
                    self.notifier.send(f"STATUS=playing {self.config.game}")
                    if console and isinstance(self.board, SimulatedBoard):
                        self._console(loop)
                        self.out(self.show())
                    await self._loop()
                finally:
                    self.notifier.send("STOPPING=1")
                    animating.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await animating
        finally:
            self.store.close()

    async def _loop(self) -> None:
        session = self.session
        events = self.board.events
        next_event: asyncio.Task[Any] | None = None
        stopping = asyncio.ensure_future(self.stop.wait())
        last_ping = 0.0
        try:
            while not self.stop.is_set():
                now = time.monotonic()
                waits = []
                if (deadline := session.next_deadline()) is not None:
                    waits.append(max(0.0, deadline - now))
                if self.notifier.watchdog_every is not None:
                    waits.append(max(0.0, last_ping + self.notifier.watchdog_every - now))
                if next_event is None:
                    next_event = asyncio.ensure_future(anext(events))
                done, _ = await asyncio.wait(
                    {next_event, stopping},
                    timeout=min(waits) if waits else None,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                now = time.monotonic()
                if next_event in done:
                    session.on_event(next_event.result(), now)
                    next_event = None
                session.poll(now)
                if self.notifier.watchdog_every is not None and now - last_ping >= (
                    self.notifier.watchdog_every
                ):
                    self.notifier.send("WATCHDOG=1")
                    last_ping = now
        finally:
            for task in (next_event, stopping):
                if task is not None:
                    task.cancel()

    def _saved(self) -> None:
        self.session.flush(time.monotonic())

    # -- the simulated board's console -------------------------------------------------------

    def show(self) -> str:
        board = self.board
        assert isinstance(board, SimulatedBoard)
        pieces = pieces_of(self.session.position)
        physical = {p: pieces.get(p, "o") for p in board.snapshot()}
        colour = sys.stdout.isatty()
        lights = board.leds.lights(time.monotonic())  # the sweep where it is now
        return draw(self.layout, physical, lights, board.dice, colour=colour)

    def command(self, line: str) -> str | None:
        """Apply one console command to the simulated board; returns text to print."""
        board = self.board
        assert isinstance(board, SimulatedBoard)
        words = line.split()
        if not words:
            return None
        verb, args = words[0], words[1:]
        try:
            if verb in ("lift", "place") and len(args) == 1:
                (board.lift if verb == "lift" else board.place)(args[0])
            elif verb == "move" and len(args) == 1 and "-" in args[0]:
                a, b = args[0].split("-", 1)
                board.lift(a)
                board.check_point(b)  # a bad point is said now, not when it is set down
                try:  # a hand takes a moment to carry the piece (recognition knows it)
                    asyncio.get_running_loop().call_later(CARRY_SECONDS, board.place, b)
                except RuntimeError:
                    board.place(b)
            elif verb == "press" and len(args) == 1:
                board.press(args[0])
            elif verb == "show":
                return self.show()
            elif verb in ("quit", "exit"):
                self.stop.set()
            else:
                return (
                    "commands: lift P | place P | move A-B | press "
                    + "|".join(BUTTONS)
                    + " | show | quit"
                )
        except ValueError as exc:
            return f"error: {exc}"
        return None

    def _console(self, loop: asyncio.AbstractEventLoop) -> None:
        def read() -> None:
            for line in sys.stdin:
                loop.call_soon_threadsafe(self._handle, line)

        threading.Thread(target=read, name="console", daemon=True).start()

    def _handle(self, line: str) -> None:
        reply = self.command(line)
        if reply:
            self.out(reply)
