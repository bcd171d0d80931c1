"""``reedboard run``: the daemon. It loads the config, opens the board and the game store,
resumes the unfinished game, and runs the session on the real clock until SIGTERM.

Under systemd (``Type=notify``) it says READY once the board is read, and pings the watchdog
from the same loop that handles the board, so a stuck loop is restarted. On the simulated
board it reads commands from standard input (``reedboard/daemon/console.py``: ``move 9x25x11``,
``lift 17``, ``press roll``, ``show``), so the whole stack can be played without hardware;
closing standard input ends it, the game kept.

A board that is not there (no Pico on the port, no GPIO) is said before anything else is done:
the game store is opened (and its folder made) only once the board is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from reedboard import engine
from reedboard.daemon.blackbox import BlackBox
from reedboard.daemon.computer import Computer, ComputerPlayers
from reedboard.daemon.config import Config
from reedboard.daemon.console import Console, ConsoleDice, ConsoleReader, Plan
from reedboard.daemon.extension import Extension
from reedboard.daemon.seats import check_level, seats
from reedboard.daemon.solved import SolvedTableExtension
from reedboard.daemon.terminal import draw, pieces_of
from reedboard.daemon.virtual_board import VirtualBoard
from reedboard.daemon.web.view import WebViewExtension
from reedboard.engine import Position
from reedboard.errors import ControllerError
from reedboard.hardware.board_io import BoardIO, ButtonEvent
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import DiceSource, SeededDice, SystemDice
from reedboard.referee.hints import HintWorker
from reedboard.referee.session import Session
from reedboard.store.games import GameStore
from reedboard.store.writer import StoreWriter
from reedboard.wiring.build import Build, load_build
from reedboard.wiring.layout import Layout, layout_for_game

if TYPE_CHECKING:  # aiomqtt (the remote extra) is imported only for a remote match
    from reedboard.daemon.remote.link import RemoteLink, RemotePlay

log = logging.getLogger("reedboard")


class DaemonError(ControllerError):
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


def check_game(config: Config) -> None:
    if not engine.game(config.game).sensed:
        raise DaemonError(
            f"{config.game} is played at the table, not sensed on the board:"
            f" use `reedboard {config.game} --help`"
        )


def open_build(config: Config) -> tuple[BoardIO, Layout]:
    """The board of ``config.build``, opened (BoardError or DaemonError when it cannot be)."""
    assert config.build is not None
    build = load_build(config.build)
    if config.game not in build.layout.games:
        raise DaemonError(
            f"build {build.name} is a {build.layout.name} board, which does not play"
            f" {config.game} ({', '.join(build.layout.games)})"
        )
    return board_for(build), build.layout


def board_for(build: Build) -> BoardIO:
    """The driver a build names, opened: the Pi's own GPIO, or a Pico over USB serial. A Pico
    that is not on its port, or a Pi without GPIO, raises at once (BoardError, DaemonError)."""
    if build.driver == "pico":
        from reedboard.bridge.link import PicoBoard

        assert build.serial_port is not None
        pico = PicoBoard(
            build.serial_port,
            build.layout,
            brightness=build.leds.brightness,
            max_milliamps=build.leds.max_milliamps,
        )
        pico.open()
        return pico
    from reedboard.hardware.gpio_board import GpioBoard
    from reedboard.hardware.ws2812 import SpiMissing

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's backend fallbacks: the error says it
            return GpioBoard(build)
    except SpiMissing as exc:  # SPI is off: what to do, not whether this is a Pi
        raise DaemonError(f"build {build.name}: cannot open the board: {exc}") from None
    except Exception as exc:  # no pin factory off a Pi, pins busy, no SPI device
        raise DaemonError(
            f"build {build.name}: cannot open the board: {exc} (on a Raspberry Pi, with"
            " reedboard[pi] installed?)"
        ) from None


def fresh_start(
    config: Config, store: GameStore | StoreWriter, *, fresh: bool = False
) -> Position[Any, Any] | None:
    """The start a new game begins from instead of resuming the unfinished game of its kind:
    when one is asked for (``fresh``, the web view's `start`), or when the config's options are
    not the unfinished game's (``players = 4`` beside a two-player game). That game is then
    ended as abandoned. None: resume it (or there is none)."""
    record = store.unfinished(config.game)
    if record is None:
        return None
    start = engine.game(config.game).start(**config.options)
    try:
        kept = engine.game(config.game).start(**record.options).option_values()
    except engine.EngineError:  # (options a later version no longer takes)
        kept = None
    if not fresh and (not config.options or kept == start.option_values()):
        return None
    store.end_game(record.id, "abandoned")
    return start


def initial_occupancy(config: Config, store: GameStore | StoreWriter) -> frozenset[str]:
    """Where the simulated board's pieces stand: as the unfinished game left them, else the
    start position."""
    record = store.unfinished(config.game)
    if record is not None:
        return record.position().occupied()
    return engine.game(config.game).start(**config.options).occupied()


class Daemon:
    def __init__(
        self,
        config: Config,
        out: Callable[[str], None] = print,
        *,
        stdin: TextIO | None = None,
        dice: DiceSource | None = None,
    ) -> None:
        self.config = config
        self.out = out
        self.stdin = stdin
        check_game(config)
        try:
            sides = seats(config.game, config.options, config.computer)
        except ValueError as exc:
            raise DaemonError(f"computer: {exc}") from None
        board: BoardIO | None = None
        if config.build is not None:  # the board first: one that is not there creates nothing
            board, self.layout = open_build(config)
        try:
            self.store = _open_store(config)
        except BaseException:
            _close(board)
            raise
        self._fresh = fresh_start(config, self.store)
        """The start of the game begun instead of the unfinished one (its options differ)."""
        if board is None:
            self.layout = layout_for_game(config.game)
            board = SimulatedBoard(self.layout, initial_occupancy(config, self.store))
        self.board = board
        if dice is None:
            dice = SeededDice(config.dice_seed) if config.dice_seed is not None else SystemDice()
        self.dice = ConsoleDice(dice)
        self.hints = HintWorker()
        self.session = self._make_session()
        self.computer_players = ComputerPlayers(self.session, sides, config.level)
        self.virtual_board = VirtualBoard()
        """The simulated board's hand (reedboard/daemon/virtual_board.py)."""
        self.extensions: list[Extension] = [
            self.computer_players,
            WebViewExtension(),
            self.virtual_board,
        ]
        """The parts beside the core loop, in the order they start (daemon/extension.py)."""
        self.remote_play = _remote_play(config, self.session)
        if self.remote_play is not None:
            self.extensions.append(self.remote_play)
        self.extensions.append(SolvedTableExtension())
        self.blackbox = BlackBox.for_database(config.database)
        """The last game's sensor events, beside the store (reedboard/daemon/blackbox.py)."""
        self.extensions.append(self.blackbox)
        self._animating: asyncio.Future[None] | None = None
        self._reading: asyncio.Future[Any] | None = None
        self.notifier = Notifier()
        self.stop = asyncio.Event()
        self.console: Console | None = None
        self._commands: set[asyncio.Future[None]] = set()
        if isinstance(self.board, SimulatedBoard):
            self.console = Console(
                self.session, self.board, self.dice, show=self.show, stop=self.stop.set, out=out
            )

    def _make_session(self) -> Session:
        config = self.config
        return Session(
            self.board,
            self.layout,
            config.game,
            config.options,
            store=self.store,
            dice=self.dice,
            settle=config.settle,
            grace=config.grace,
            hold=config.hold,
            on_alert=lambda _t, kind, text: self.out(f"{kind}: {text}"),
            hints=self.hints,
        )

    def games(self) -> list[str]:
        """The games that can be started here: every sensed game on the simulated board, the
        games of the board's layout on a real one."""
        if isinstance(self.board, SimulatedBoard):
            return [g for g in engine.game_ids() if engine.game(g).sensed]
        return [g for g in self.layout.games if engine.game(g).sensed]

    def switch_game(
        self,
        game: str,
        options: dict[str, Any],
        *,
        computer: tuple[str, ...] | None = None,
        level: int | None = None,
        fresh: bool = False,
    ) -> None:
        """Play ``game`` from now on (the web view's picker): its unfinished game resumed
        (unless ``fresh``, or its options are not ``options``: that game is then abandoned),
        else a new one. The simulated board is laid out for it afresh (a new board when the
        game is played on another layout); a real board plays the games of its layout.
        ``computer``: the sides the computer plays in it (``()``: none; None: the configured
        ones, where the game has them), at ``level`` (None: as configured). A bad game,
        option, side or level raises before anything changes."""
        if game not in self.games():
            raise DaemonError(f"{game} cannot be played on this board ({self.layout.name})")
        if (remote := self.remote) is not None:  # the link follows this one session's game
            raise DaemonError(f"this board plays remote match {remote.match}: no other game")
        if self.session.behind():  # (the store's reads lack the moves kept: nothing resumes)
            raise DaemonError("saving is behind: another game waits until every move is saved")
        engine.game(game).options_from(options)  # EngineError for a bad option
        if level is not None:
            check_level(level)  # ValueError naming it
        sides: frozenset[str] = frozenset()
        if computer is not None:
            sides = seats(game, dict(options), computer)  # ValueError naming a side not seated
        elif self.config.computer:  # the configured seats, where the new game has them
            with contextlib.suppress(ValueError):
                sides = seats(game, dict(options), self.config.computer)
        config = replace(
            self.config,
            game=game,
            options=dict(options),
            computer=tuple(sorted(sides)) if computer is not None else self.config.computer,
            level=self.config.level if level is None else level,
        )
        start = fresh_start(config, self.store, fresh=fresh)
        if isinstance(self.board, SimulatedBoard):
            layout = self.layout if game in self.layout.games else layout_for_game(game)
            stand = start.occupied() if start else initial_occupancy(config, self.store)
            board: BoardIO = SimulatedBoard(layout, stand)
        else:
            layout, board = self.layout, self.board
        old = self.board
        self.config, self.layout, self.board = config, layout, board
        self.session = self._make_session()
        if self.console is not None and isinstance(board, SimulatedBoard):
            self.console.session, self.console.board = self.session, board
        if board is not old:  # the loop reads the new board's events, its LEDs animate
            if self._reading is not None:
                self._reading.cancel()
            if self._animating is not None:
                self._animating.cancel()
                self._animating = asyncio.ensure_future(board.leds.run())
        self.session.start(time.monotonic(), start)
        self.notifier.send(f"STATUS=playing {game}")
        for extension in self.extensions:
            extension.switched(self)

    @property
    def computer(self) -> Computer | None:
        """The computer player of the game being played, if it has seats in it."""
        return self.computer_players.computer

    @property
    def remote(self) -> RemoteLink | None:
        """Remote play's link, when this board plays a remote match."""
        return self.remote_play.link if self.remote_play is not None else None

    async def run(self, console: bool = False) -> None:
        """Run until SIGTERM, SIGINT, ``quit``, or (with ``console``, on the simulated board)
        the end of standard input."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(QuietErrors())  # (out of descriptors: a line a second)

        # what waited for the disk is said and lit as soon as the writer is done
        def saved() -> None:  # on the writer's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to light
                loop.call_soon_threadsafe(self._saved)

        self.store.on_saved = saved
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop.set)
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(signal.SIGHUP, self._hangup)
        extensions = list(self.extensions)
        if console and self.console is not None:
            extensions.append(ConsoleReader(self.console, self.read_lines, self.show))
        started: list[Extension] = []
        try:
            async with self.board:  # scanning, or the Pico's link, until the daemon stops
                # the LEDs animate on a clock of their own (reedboard/hardware/compositor.py)
                self._animating = asyncio.ensure_future(self.board.leds.run())
                try:
                    for extension in extensions:  # the web view listens (and says where) first
                        started.append(extension)
                        await extension.open(self)
                    self.session.start(time.monotonic(), self._fresh)
                    self.notifier.send("READY=1")
                    self.notifier.send(f"STATUS=playing {self.config.game}")
                    for extension in extensions:
                        await extension.start(self)
                    await self._loop()
                finally:
                    self.notifier.send("STOPPING=1")
                    for extension in reversed(started):  # a winning set's build stops with it
                        try:
                            await extension.stop()
                        except Exception:  # one part failing to stop stops no other
                            log.exception("%s did not stop cleanly", type(extension).__name__)
                    self.hints.close()
                    if self._animating is not None:
                        self._animating.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await self._animating
        finally:
            self.store.close()

    async def _loop(self) -> None:
        events = self.board.events
        next_event: asyncio.Task[Any] | None = None
        stopping = asyncio.ensure_future(self.stop.wait())
        last_ping = 0.0
        try:
            while not self.stop.is_set():
                session = self.session  # switch_game may have put another in place
                if self.board.events is not events:  # and another simulated board
                    if next_event is not None:
                        next_event.cancel()
                    events, next_event = self.board.events, None
                now = time.monotonic()
                waits = []
                if (deadline := session.next_deadline()) is not None:
                    waits.append(max(0.0, deadline - now))
                if self.notifier.watchdog_every is not None:
                    waits.append(max(0.0, last_ping + self.notifier.watchdog_every - now))
                if next_event is None:
                    next_event = asyncio.ensure_future(anext(events))
                    self._reading = next_event
                done, _ = await asyncio.wait(
                    {next_event, stopping},
                    timeout=min(waits) if waits else None,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                now = time.monotonic()
                if next_event in done and next_event.cancelled():  # switch_game: a new board
                    next_event = None
                elif next_event in done:
                    event = next_event.result()
                    # an extension may take a button (remote play: `roll`, `undo`)
                    if not (
                        isinstance(event, ButtonEvent)
                        and any(e.button(event.button) for e in self.extensions)
                    ):
                        session.on_event(event, now)
                    next_event = None
                    for extension in self.extensions:
                        extension.heard(event, now)
                session.poll(now)
                for extension in self.extensions:  # the computer's turn: it throws, or thinks
                    extension.heard(None, now)
                if self.notifier.watchdog_every is not None and now - last_ping >= (
                    self.notifier.watchdog_every
                ):
                    self.notifier.send("WATCHDOG=1")
                    last_ping = now
        finally:
            for task in (next_event, stopping):
                if task is not None:
                    task.cancel()

    def _hangup(self) -> None:
        """SIGHUP (a terminal closed, or `systemctl reload`): a clean stop, the game kept; the
        service restarts it, reading the config anew."""
        self.out("SIGHUP: stopping cleanly (the game is kept); start again to read the config")
        self.stop.set()

    def _saved(self) -> None:
        self.session.flush(time.monotonic())

    # -- the simulated board's console -------------------------------------------------------

    def show(self) -> str:
        board = self.board
        assert isinstance(board, SimulatedBoard)
        pieces = pieces_of(self.session.position)
        physical = {p: pieces.get(p, "o") for p in board.snapshot()}
        colour = sys.stdout is not None and sys.stdout.isatty()
        lights = board.leds.lights(time.monotonic())  # the sweep where it is now
        return draw(self.layout, physical, lights, board.dice, colour=colour)

    def command(self, line: str) -> str | None:
        """Check and carry out one console command (reedboard/daemon/console.py); returns text to
        print (an error changes nothing). Inside the running loop a move is made over time,
        as a hand makes it; outside it, at once."""
        assert self.console is not None, "the console is the simulated board's"
        planned = self.console.plan(line)
        if not isinstance(planned, Plan):
            return planned
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            for _, action in planned.steps:
                action()
            return planned.reply
        task = asyncio.ensure_future(self.console.perform(planned))
        self._commands.add(task)  # kept until done (the loop holds tasks weakly)
        task.add_done_callback(self._commands.discard)
        return None

    def read_lines(self, loop: asyncio.AbstractEventLoop) -> asyncio.Queue[str | None]:
        """Standard input's lines, read by a thread into a queue; None once it is closed."""
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        stream = self.stdin if self.stdin is not None else sys.stdin

        def read() -> None:
            raw = getattr(stream, "buffer", stream)  # bytes: a bad byte spoils one line only
            try:
                for line in raw:
                    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
                    loop.call_soon_threadsafe(lines.put_nowait, text)
            except (OSError, ValueError) as exc:  # not readable, or closed under us
                log.warning("standard input: %s", exc)
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is reading
                loop.call_soon_threadsafe(lines.put_nowait, None)

        threading.Thread(target=read, name="console", daemon=True).start()
        return lines


class QuietErrors:
    """The loop's error handler: each kind of error said at most once a second, in one line
    without a traceback (300 browsers over a limit of 256 file descriptors made 136,447
    tracebacks in seconds); how many were not said is said with the next."""

    def __init__(self, every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.last: dict[str, float] = {}
        self.unsaid: dict[str, int] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message") or "error")
        exc = context.get("exception")
        kind = f"{message}|{type(exc).__name__}"
        now = self.clock()
        if now - self.last.get(kind, float("-inf")) < self.every:
            self.unsaid[kind] = self.unsaid.get(kind, 0) + 1
            return
        if len(self.last) > 256:  # (bounded: kinds seen long ago are forgotten)
            self.last.clear()
        self.last[kind] = now
        more = self.unsaid.pop(kind, 0)
        said = f"{message}: {exc}" if exc is not None else message
        line = " ".join(said.split())[:300] + (f" (and {more} more)" if more else "")
        if _closed_under(message, exc) or _left_unheard(message, exc):
            # (the MQTT client's socket closed as it reconnects; its disconnect noted where
            # no one waits for it any more)
            log.info("%s", line)
        else:
            log.error("%s", line)


def _closed_under(message: str, exc: object) -> bool:
    """A callback that registered a socket the client had closed meanwhile (paho-mqtt adds its
    writer as it sends; a broker that went away closes the socket first): EBADF from
    ``add_writer``/``add_reader``, which the client's reconnect makes good; no fault of ours."""
    return (
        isinstance(exc, OSError)
        and exc.errno == errno.EBADF
        and ("add_writer" in message or "add_reader" in message)
    )


def _left_unheard(message: str, exc: object) -> bool:
    """The MQTT client's own future for a disconnect, set with its error once the broker had
    closed the connection first, which no one awaits any more (the link had left: aiomqtt's
    ``[code:128] Unspecified error``): asyncio says it was never retrieved; no fault of ours."""
    return message.startswith("Future exception was never retrieved") and type(
        exc
    ).__module__.startswith("aiomqtt")


def _remote_play(config: Config, session: Session) -> RemotePlay | None:
    """Remote play (reedboard/daemon/remote/link.py) when the config asks for it: its seats
    checked against the game's sides; aiomqtt (the ``remote`` extra) imported only then."""
    if config.remote is None:
        return None
    from reedboard.daemon.remote.settings import check_seats

    players = session.cls.start(**session.options).players
    check_seats(config.remote, tuple(map(str, players)), "remote.seats")
    try:
        from reedboard.daemon.remote.link import RemoteLink, RemotePlay
    except ImportError as exc:
        raise DaemonError(
            f"remote play needs aiomqtt and cryptography ({exc}):"
            " .venv/bin/pip install -e '.[remote]'"
        ) from None
    settings = config.remote
    if settings.home is None:  # the board's key and pins beside its store
        home = config.database.with_name(config.database.name + ".remote")
        settings = dataclasses.replace(settings, home=home)
    return RemotePlay(RemoteLink(session, settings))


def _open_store(config: Config) -> StoreWriter:
    try:
        # moves are written on a thread of their own: the loop never waits on the disk
        return StoreWriter(GameStore(config.database))
    except Exception as exc:
        raise DaemonError(str(exc)) from None


def _close(board: BoardIO | None) -> None:
    if board is not None:
        with contextlib.suppress(Exception):
            board.close()
