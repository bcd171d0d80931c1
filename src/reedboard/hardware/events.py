"""An event queue that drivers fill, from the loop or from a hardware callback thread, and the
controller reads as an async iterator."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

from reedboard.hardware.board_io import BoardEvent


class EventQueue(AsyncIterator[BoardEvent]):
    """Put events from the loop's thread with :meth:`put`; from any other thread (gpiozero's
    callbacks, a serial reader) with :meth:`put_threadsafe`, which hands them to the loop with
    ``call_soon_threadsafe``. Events put from another thread before the loop is bound (a
    board opened before the daemon's loop runs) wait, in order, until :meth:`bind`; the
    first read binds the loop it runs on."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._early: list[BoardEvent] = []

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop that reads the events; call it on that loop's thread."""
        with self._lock:
            self._loop = loop
            early, self._early = self._early, []
        for event in early:
            self._queue.put_nowait(event)

    def put(self, event: BoardEvent) -> None:
        self._queue.put_nowait(event)

    def put_threadsafe(self, event: BoardEvent) -> None:
        with self._lock:
            loop = self._loop
            if loop is None:
                self._early.append(event)
                return
        loop.call_soon_threadsafe(self._queue.put_nowait, event)

    def pending(self) -> int:
        return self._queue.qsize()

    def get_nowait(self) -> BoardEvent:
        return self._queue.get_nowait()

    def __aiter__(self) -> EventQueue:
        return self

    async def __anext__(self) -> BoardEvent:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self.bind(loop)
        return await self._queue.get()
