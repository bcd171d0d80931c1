"""The game store's writes, off the event loop.

A committed move must be on disk before the board says so (the "move:" line, the LEDs), but
the fsync that makes it durable takes what the disk takes: a fraction of a millisecond on a
quiet SD card, several on a busy one. :class:`StoreWriter` hands each write to one thread, in
order, so the loop goes on reading switches meanwhile; the session holds back what it would
announce or light until :attr:`StoreWriter.saving` is false, and the daemon wakes it then
(``on_saved``). Reads and new games wait for the queue to drain first, so they see every
write made before them.

A write that fails (the store locked by another program, the disk full, the file made
read-only) loses nothing: it and every write after it are kept, in order, and tried again
(every :data:`RETRY` seconds) until the store takes them; :meth:`StoreWriter.take_failure` says
once that saving is behind, and :meth:`StoreWriter.take_caught_up` once that it has caught up.
While it is behind, a move is announced once it is kept in that queue (the game goes on at the
board); it is durable once saving has caught up. A daemon stopped while behind tries once more,
and logs what it could not write.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from reedboard.store.games import GameRecord, GameStore

log = logging.getLogger("reedboard")

RETRY = 1.0
"""Seconds between tries of a write the store did not take."""


class StoreWriter:
    """A :class:`GameStore` whose writes run on a thread of their own, in order."""

    def __init__(self, store: GameStore, on_saved: Callable[[], None] | None = None) -> None:
        self.store = store
        self.path = store.path
        self.on_saved = on_saved
        """Called on the writer's thread each time the queue empties (wake the loop)."""
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._outstanding = 0
        self._idle = threading.Event()
        self._idle.set()
        self._failure: str | None = None
        self._caught_up: str | None = None
        self._backlog: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = deque()
        """Writes the store has not taken yet, in order (only the writer's thread uses it)."""
        self.behind = False
        """Whether writes are waiting for the store to take them."""
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    @property
    def saving(self) -> bool:
        """Writes handed over and not yet durable."""
        return not self._idle.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every write handed over is durable (or failed); False on timeout."""
        return self._idle.wait(timeout)

    def take_failure(self) -> str | None:
        """Why saving fell behind, once each time it does (None if it has not)."""
        with self._lock:
            failure, self._failure = self._failure, None
        return failure

    def take_caught_up(self) -> str | None:
        """That saving caught up after falling behind, once each time it does."""
        with self._lock:
            caught, self._caught_up = self._caught_up, None
        return caught

    # -- writes, queued ---------------------------------------------------------------------

    def add_move(self, game_id: int, ply: int, move: str) -> None:
        self._put(self.store.add_move, game_id, ply, move)

    def add_change(self, game_id: int, ply: int, replaced: str, move: str) -> None:
        self._put(self.store.add_change, game_id, ply, replaced, move)

    def add_note(self, game_id: int, ply: int, kind: str, text: str) -> None:
        self._put(self.store.add_note, game_id, ply, kind, text)

    def truncate(self, game_id: int, plies: int) -> None:
        self._put(self.store.truncate, game_id, plies)

    def end_game(self, game_id: int, outcome: dict[str, Any] | str) -> None:
        self._put(self.store.end_game, game_id, outcome)

    def reopen(self, game_id: int) -> None:
        self._put(self.store.reopen, game_id)

    # -- everything else waits for the queue ------------------------------------------------

    # (Only the loop's thread hands over writes, so once the queue is empty the writer
    # thread is idle and the connection is the loop's until it hands over the next.)

    def new_game(self, game: str, options: dict[str, Any], start: str) -> int:
        self.wait()
        return self.store.new_game(game, options, start)

    def unfinished(self, game: str | None = None) -> GameRecord | None:
        self.wait()
        return self.store.unfinished(game)

    def game(self, game_id: int) -> GameRecord | None:
        self.wait()
        return self.store.game(game_id)

    def games(self) -> Iterator[GameRecord]:
        self.wait()
        return iter(list(self.store.games()))

    def pragma(self, name: str) -> Any:
        self.wait()
        return self.store.pragma(name)

    def close(self) -> None:
        """Write what is queued (what the store will not take is logged), stop the thread,
        close the store."""
        self._queue.put(None)
        self._thread.join()
        if self._backlog:
            log.error(
                "game store %s: %d writes could not be saved before stopping",
                self.path,
                len(self._backlog),
            )
        self.store.close()

    # -- the thread -------------------------------------------------------------------------

    def _put(self, write: Callable[..., Any], *args: Any) -> None:
        with self._lock:
            self._outstanding += 1
            self._idle.clear()
        self._queue.put((write, args))

    def _run(self) -> None:
        while True:
            try:  # (while behind: wake to try again even when nothing new comes)
                item = self._queue.get(timeout=RETRY if self._backlog else None)
            except queue.Empty:
                self._write_backlog()
                continue
            if item is None:
                self._write_backlog()  # (once more before stopping)
                return
            self._backlog.append(item)
            if not self.behind:  # (behind: tried on the timer, not at each write, so a move
                self._write_backlog()  # is kept at once and said without waiting on the store)
            with self._lock:
                self._outstanding -= 1  # written, or kept to be written in order
                empty = self._outstanding == 0
                if empty:
                    self._idle.set()
            if empty and self.on_saved is not None:
                self.on_saved()

    def _write_backlog(self) -> None:
        """Write the kept writes in order, stopping at the first the store does not take."""
        was_behind = self.behind
        while self._backlog:
            write, args = self._backlog[0]
            try:
                write(*args)
            except Exception as exc:  # the disk said no: kept, tried again later
                if not self.behind:
                    self.behind = True
                    with self._lock:
                        said = str(exc)  # (the store's errors name the file already)
                        self._failure = (
                            said if said.startswith(str(self.path)) else (f"{self.path}: {said}")
                        )
                    log.error("game store write failed: %s (kept)", exc)
                return
            self._backlog.popleft()
        self.behind = False
        if was_behind:
            with self._lock:
                self._caught_up = f"{self.path}: saving caught up"
            log.warning("game store %s: saving caught up", self.path)
            if self.on_saved is not None:
                self.on_saved()  # (wake the loop to say so)
