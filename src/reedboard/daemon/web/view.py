"""The web view as a daemon extension: it listens before the game starts (its address said
first; a port in use is said before that, by the command line), then follows the board and
each new game. aiohttp is imported only when the view is on and installed."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reedboard.daemon import web
from reedboard.daemon.extension import Extension, Host

if TYPE_CHECKING:
    from reedboard.daemon.web.server import WebView
    from reedboard.hardware.board_io import BoardEvent


async def serve(daemon: Host) -> WebView | None:
    """The web view, listening, its address said; None (said why) when it is off."""
    settings = daemon.config.web
    if not settings.enabled:
        return None
    if (why := web.missing()) is not None:  # (looked up here: a test takes it away)
        daemon.out(f"web view off: {why}")
        return None
    from reedboard.daemon.web.server import WebView

    view = WebView(daemon, settings)
    await view.start()
    daemon.out(f"web view: {replace(settings, port=view.port).url}")  # port 0: the one given
    return view


class WebViewExtension(Extension):
    """The web view as a daemon extension: it listens before the game starts (a port in use is
    said first), and follows the board and each new game."""

    def __init__(self) -> None:
        self.view: WebView | None = None

    async def open(self, daemon: Host) -> None:
        self.view = await serve(daemon)

    def heard(self, event: BoardEvent | None, now: float) -> None:
        if self.view is not None:
            self.view.heard(event)

    def switched(self, daemon: Host) -> None:
        if self.view is not None:
            self.view.switched()

    async def stop(self) -> None:
        if self.view is not None:
            view, self.view = self.view, None
            await view.stop()
