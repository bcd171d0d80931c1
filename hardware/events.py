"""An event queue that drivers fill, from the loop or from a hardware callback thread, and the
controller reads as an async iterator."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from hardware.board_io import BoardEvent


class EventQueue(AsyncIterator[BoardEvent]):
    """Put events from the loop's thread with :meth:`put`; from any other thread (gpiozero's
    callbacks, a serial reader) with :meth:`put_threadsafe`, which hands them to the loop with
    ``call_soon_threadsafe``."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop that reads the events (needed before :meth:`put_threadsafe`)."""
        self._loop = loop

    def put(self, event: BoardEvent) -> None:
        self._queue.put_nowait(event)

    def put_threadsafe(self, event: BoardEvent) -> None:
        if self._loop is None:
            raise RuntimeError("EventQueue.put_threadsafe before bind(loop)")
        self._loop.call_soon_threadsafe(self._queue.put_nowait, event)

    def pending(self) -> int:
        return self._queue.qsize()

    def get_nowait(self) -> BoardEvent:
        return self._queue.get_nowait()

    def __aiter__(self) -> EventQueue:
        return self

    async def __anext__(self) -> BoardEvent:
        return await self._queue.get()
