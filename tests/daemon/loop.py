"""A daemon run on the test's event loop while a scenario plays, then stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from reedboard.daemon.core import Daemon


def run(daemon: Daemon, play: Callable[[], Awaitable[None]]) -> None:
    """Run ``daemon`` until ``play`` (10 s at most) is done, then stop it and wait for it."""

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.05)
        try:
            async with asyncio.timeout(10):
                await play()
        finally:
            daemon.stop.set()
            await asyncio.wait_for(task, 10)

    asyncio.run(scenario())
