"""The black box: the board's last sensor events, kept beside the game store so a bug report
carries them (``reedboard report``) and ``reedboard replay`` plays them again.

It records the game being played as a trace (reedboard/sim/trace.py, docs/design.md "Trace
format"): the first line is the game, its options and the board's occupancy when the game
began; then every switch edge and button press of this board, at seconds from that start, and
before each ``roll`` the values the session threw for it (a ``dice`` line), so a replay throws
the same. A new game (``new``, a start set up on the board, another game picked) starts a new
recording; only the last game is kept. What the other board of a remote match does is not in
it (its moves come over the link, not from these switches), nor are the computer's throws.

The trace is written to ``<database>.blackbox.jsonl`` at most every :data:`EVERY` seconds when
something changed, and when the daemon stops, atomically (a temporary file in the same folder,
then ``os.replace``), off the loop. A write that fails (a full disk, a read-only folder) is
logged once, in one line, and tried again later; the board never waits for it.

At most :data:`LIMIT` event lines are kept. Past that the oldest are dropped and the trace is
written to ``<database>.blackbox.truncated.jsonl`` instead (and the whole trace's file is
removed): a trace's first line takes no other key, so the name says that the game's beginning
is missing. Its first line holds the occupancy the dropped lines left, so it still reads and
checks as a trace, but a replay of it starts from a new game, not from the game's middle.
A game resumed when the daemon starts is recorded from then on, likewise not from its start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from reedboard.daemon.extension import Background, Host
from reedboard.engine.files import write_atomic
from reedboard.engine.throw import Throw
from reedboard.hardware.board_io import ButtonEvent, SensorEvent
from reedboard.sim.trace import Trace

if TYPE_CHECKING:
    from reedboard.engine import Move, Position
    from reedboard.hardware.board_io import BoardEvent
    from reedboard.referee.session import Session

log = logging.getLogger(__name__)

EVERY = 15.0
"""Seconds between writes (at most), while something changed: each write is the whole game
(a few hundred KB, fsynced), so not too often on a Pi's SD card; a power cut loses at most
this much of the trace (the moves themselves are in the store)."""
LIMIT = 20_000
"""The most event lines kept (a few hours of play; about 1 MB)."""
SUFFIX = ".blackbox.jsonl"
TRUNCATED = ".blackbox.truncated.jsonl"


def blackbox_path(database: Path, truncated: bool = False) -> Path:
    """Where the black box of the game store ``database`` is kept (``truncated``: the file of
    a recording that lost its oldest lines)."""
    return database.with_name(database.name + (TRUNCATED if truncated else SUFFIX))


def blackbox_files(database: Path) -> list[Path]:
    """The black box files kept beside ``database`` (none, or one)."""
    return [p for p in (blackbox_path(database), blackbox_path(database, True)) if p.is_file()]


class Recording:
    """One game's trace as it is recorded: the first line's parts and the event lines."""

    def __init__(
        self, game: str, options: dict[str, Any], occupied: frozenset[str], start: float
    ) -> None:
        self.game = game
        self.options = options
        self.occupied = set(occupied)
        """The occupancy before the first line kept (the game's start, until lines drop)."""
        self.start = start
        self.lines: deque[dict[str, Any]] = deque()
        self.truncated = False

    def t(self, now: float) -> float:
        return round(max(0.0, now - self.start), 6)

    def add(self, line: dict[str, Any], limit: int) -> None:
        self.lines.append(line)
        while len(self.lines) > limit:
            dropped = self.lines.popleft()
            if "point" in dropped:  # the occupancy the dropped lines leave
                (self.occupied.add if dropped["on"] else self.occupied.discard)(dropped["point"])
            self.truncated = True

    def insert_before(self, anchor: dict[str, Any], line: dict[str, Any]) -> bool:
        """Put ``line`` just before ``anchor`` (the same object); False if it was dropped."""
        for i in range(len(self.lines) - 1, -1, -1):
            if self.lines[i] is anchor:
                self.lines.insert(i, line)
                return True
        return False

    def trace(self) -> Trace:
        """A trace of what is recorded now (its lines are never changed after: a write may
        serialise it off the loop)."""
        return Trace(self.game, frozenset(self.occupied), dict(self.options), list(self.lines))


class BlackBox(Background):
    """The daemon's black box (see the module's docstring)."""

    def __init__(self, path: Path, *, every: float = EVERY, limit: int = LIMIT) -> None:
        super().__init__()
        self.path = path
        """The whole trace's file; a truncated one goes to :attr:`truncated_path`."""
        self.truncated_path = path.with_name(path.name.removesuffix(SUFFIX) + TRUNCATED)
        self.every = every
        self.limit = limit
        self.recording: Recording | None = None
        self._host: Host | None = None
        self._session: Session | None = None
        self._position: Position[Any, Any] | None = None
        self._seen: list[Move] = []
        """The session's move stack as last looked at (to find the throws made since)."""
        self._roll: dict[str, Any] | None = None
        """A ``roll`` line whose throw has not come yet (held until its move is taken)."""
        self._dirty = False
        self._failing = False
        self._writing: asyncio.Future[None] | None = None

    @classmethod
    def for_database(cls, database: Path) -> BlackBox:
        return cls(blackbox_path(database))

    # -- the hooks -----------------------------------------------------------------------------

    async def start(self, daemon: Host) -> None:
        self._host = daemon
        self._begin(daemon.session, time.monotonic())
        self.task = asyncio.ensure_future(self._every())

    def switched(self, daemon: Host) -> None:
        self._host = daemon
        self._begin(daemon.session, time.monotonic())

    def heard(self, event: BoardEvent | None, now: float) -> None:
        if self._host is None or self.recording is None:
            return
        session = self._host.session
        if session is not self._session:  # (another game picked: switched says it first)
            self._begin(session, now)
            return
        recording = self.recording
        line: dict[str, Any] | None = None
        if isinstance(event, SensorEvent):
            line = {"t": recording.t(now), "point": event.point, "on": event.on}
        elif isinstance(event, ButtonEvent):
            line = {"t": recording.t(now), "button": event.button}
        if line is not None:
            recording.add(line, self.limit)
            self._dirty = True
        position = session.position
        if position is not self._position:
            self._position = position
            if not position.move_stack:  # a new game: recorded from here
                self._begin(session, now)
                return
        if line is not None and line.get("button") == "roll":
            self._roll = line
        self._throws(position, line)

    async def stop(self) -> None:
        await super().stop()
        if self._writing is not None:  # (a write under way finishes first: it is older)
            with contextlib.suppress(Exception):
                await self._writing
        if self._dirty:
            await self._write()

    # -- recording -------------------------------------------------------------------------------

    def _begin(self, session: Session, now: float) -> None:
        position = session.position
        self._session, self._position = session, position
        self._seen = list(position.move_stack)
        self._roll = None
        self.recording = Recording(
            session.game_id, position.option_values(), frozenset(session.physical), now
        )
        self._dirty = True

    def _throws(self, position: Position[Any, Any], line: dict[str, Any] | None) -> None:
        """A ``dice`` line for each throw the session made for a ``roll`` since it last
        looked, put before that roll's line (a replay's dice give it the same values)."""
        stack = position.move_stack
        seen = self._seen
        if len(stack) == len(seen) and (not stack or stack[-1] is seen[-1]):
            return
        same = 0
        for old, new in zip(seen, stack, strict=False):
            if old is not new:
                break
            same += 1
        self._seen = list(stack)
        for move in stack[same:]:
            if not isinstance(move, Throw) or self._roll is None:
                continue  # (a throw no roll of this board asked for: the computer's)
            assert self.recording is not None
            roll, self._roll = self._roll, None
            values = list(position.throw_values(move))
            dice = {"t": roll["t"], "dice": values}
            if self.recording.insert_before(roll, dice):
                self._dirty = True

    # -- writing ---------------------------------------------------------------------------------

    async def _every(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self._dirty:
                await self._write()

    async def _write(self) -> None:
        if self.recording is None:
            return
        recording = self.recording
        trace = recording.trace()
        path, stale = self.path, self.truncated_path
        if recording.truncated:
            path, stale = stale, path
        self._dirty = False
        self._writing = asyncio.ensure_future(asyncio.to_thread(_write_file, path, trace, stale))
        try:
            await asyncio.shield(self._writing)  # (a stop waits for it, not cancels it)
        except asyncio.CancelledError:  # (stopping: the stop writes once more)
            self._dirty = True
            raise
        except Exception as exc:  # a full disk, a read-only folder: the board goes on
            self._dirty = True
            if not self._failing:
                self._failing = True
                said = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                log.error("black box %s: cannot write: %s (the game goes on)", path, said)
            return
        finally:
            if self._writing is not None and self._writing.done():
                self._writing = None
        if self._failing:
            self._failing = False
            log.warning("black box %s: writing again", path)


def _write_file(path: Path, trace: Trace, stale: Path) -> None:
    """Write ``trace`` to ``path`` atomically (on a worker thread), then remove ``stale``
    (the other file of the same recording)."""
    text = trace.to_jsonl().encode("utf-8")

    def fill(out: IO[bytes]) -> None:
        out.write(text)

    write_atomic(path, fill)
    with contextlib.suppress(OSError):
        stale.unlink(missing_ok=True)
