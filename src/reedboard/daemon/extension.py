"""The daemon's extensions: the parts beside its core loop (the web view, remote play, the
computer players, Peg Solitaire's winning set, the console). Each is opened before the game
starts, started once it has, and stopped before the board closes; it joins the loop only
through the hooks below, which the core calls on every extension, naming none (Home
Assistant's integrations, aiohttp's on_startup/on_cleanup)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from reedboard.daemon.config import Config
    from reedboard.hardware.board_io import BoardEvent, BoardIO
    from reedboard.referee.session import Session
    from reedboard.wiring.layout import Layout


class Host(Protocol):
    """What an extension may use of the daemon (reedboard/daemon/core.py's Daemon)."""

    config: Config
    session: Session
    board: BoardIO
    layout: Layout
    out: Callable[[str], None]

    def switch_game(
        self,
        game: str,
        options: dict[str, Any],
        *,
        computer: tuple[str, ...] | None = None,
        level: int | None = None,
        fresh: bool = False,
    ) -> None:
        """Play another game from now on (the web view's picker; ``fresh``: a new game, not
        the unfinished one resumed)."""
        ...

    def games(self) -> list[str]:
        """The games that can be started here."""
        ...


class Extension:
    """A part of the daemon with an open, a start and a stop, and the hooks it wants (each
    does nothing unless overridden)."""

    async def open(self, daemon: Host) -> None:
        """Before the game starts (the web view listens, and says where, first)."""

    async def start(self, daemon: Host) -> None:
        """Once the game has started."""

    async def stop(self) -> None:
        """Before the board closes, in the reverse order of opening: every extension whose
        open was begun is stopped (so an open that failed half way is undone too); one that
        raises is logged and the others are still stopped."""

    def button(self, button: str) -> bool:
        """A button pressed on the board: True when this extension took it (the session
        then never hears it: in a remote game `roll` agrees the throw with the other board)."""
        return False

    def heard(self, event: BoardEvent | None, now: float) -> None:
        """After each turn of the loop: the board's event once the session has heard it, or
        None when only the session's timers ran."""

    def switched(self, daemon: Host) -> None:
        """A new session is in place (another game picked on the web view)."""


class Background(Extension):
    """An extension that is one task on the loop, cancelled at stop."""

    def __init__(self) -> None:
        self.task: asyncio.Future[None] | None = None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
