"""The game store's writes, off the event loop.

A committed move must be on disk before the board says so (the "move:" line, the LEDs), but
the fsync that makes it durable takes what the disk takes: a fraction of a millisecond on a
quiet SD card, several on a busy one. :class:`StoreWriter` hands each write to one thread, in
order, so the loop goes on reading switches meanwhile; the session holds back what it would
announce or light until :attr:`StoreWriter.saving` is false, and the daemon wakes it then
(``on_saved``). Reads and new games wait for the queue to drain first, so they see every
write made before them.

A write that fails (disk full, the file made read-only, the card pulled) is logged, the
moves after it are not written (the store keeps a clean prefix of the game, never one with
a hole), and :meth:`StoreWriter.take_failure` says so once, so the session can tell the
players that the game from here on is not saved.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from reedboard.store.games import GameRecord, GameStore

log = logging.getLogger("reedboard")


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
        self._failed = False
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
        """The first write that failed, once (None if none, or already taken)."""
        with self._lock:
            failure, self._failure = self._failure, None
        return failure

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
        self._failed = False  # a new game starts a new prefix
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
        """Write what is queued, stop the thread, close the store."""
        self._queue.put(None)
        self._thread.join()
        self.store.close()

    # -- the thread -------------------------------------------------------------------------

    def _put(self, write: Callable[..., Any], *args: Any) -> None:
        with self._lock:
            self._outstanding += 1
            self._idle.clear()
        self._queue.put((write, args))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            write, args = item
            if not self._failed:
                try:
                    write(*args)
                except Exception as exc:  # the disk said no: keep a clean prefix, say so
                    self._failed = True
                    with self._lock:
                        self._failure = f"{self.path}: {exc}"
                    log.error("game store write failed: %s: %s", self.path, exc)
            with self._lock:
                self._outstanding -= 1
                empty = self._outstanding == 0
                if empty:
                    self._idle.set()
            if empty and self.on_saved is not None:
                self.on_saved()
