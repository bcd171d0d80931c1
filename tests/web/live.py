"""A daemon on the simulated board, run on a thread of its own with its web view on a free
loopback port, for tests that talk to it as a browser would."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from reedboard.daemon.config import Config, WebSettings
from reedboard.daemon.core import Daemon
from reedboard.referee.dice import DiceSource


class LiveDaemon:
    def __init__(
        self,
        tmp_path: Path,
        game: str,
        *,
        dice: DiceSource | None = None,
        token: str | None = None,
        database: Path | None = None,
        web_port: int = 0,
        **config: Any,
    ) -> None:
        web = WebSettings(enabled=True, host="127.0.0.1", port=web_port, token=token)
        self.config = replace(
            Config(game=game, database=database or tmp_path / "games.sqlite3"), web=web, **config
        )
        self.lines: list[str] = []
        self.daemon = Daemon(self.config, out=self.lines.append, dice=dice)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="daemon", daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        try:
            self.loop.run_until_complete(self.daemon.run())
        except BaseException as exc:  # the test says it
            self.error = exc
        finally:
            self.loop.close()

    def __enter__(self) -> LiveDaemon:
        self.thread.start()
        self.url = self.wait_line("web view: ").removeprefix("web view: ")
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        loop = self.loop
        if loop is not None and self.thread.is_alive():
            loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(10)
        assert not self.thread.is_alive(), "the daemon did not stop"

    def wait_line(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines:
                if line.startswith(prefix):
                    return line
            if self.error is not None:
                raise self.error
            if not self.thread.is_alive():
                break
            time.sleep(0.01)
        raise AssertionError(f"no line {prefix!r} within {timeout} s: {self.lines}")

    def call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``fn`` on the daemon's loop and return what it returns."""
        assert self.loop is not None

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)
