"""The web view: the board in a browser (``reedboard run`` serves it).

``server.py`` is the aiohttp application (the page, its websocket, the history); ``state.py``
turns the referee's state, its typed events and the LED compositor's frames into the JSON
messages the page draws; ``static/`` holds the page itself (HTML, JS, CSS, no build step, no
CDN). aiohttp is the ``web`` extra: without it ``reedboard run`` says the view is off, and
goes on.
"""

from __future__ import annotations

import errno
import socket

from reedboard.daemon.addresses import is_loopback
from reedboard.daemon.config import WebSettings
from reedboard.errors import ControllerError


class WebError(ControllerError):
    """The web view cannot start (a port in use, a public address without a token): one line."""


def missing() -> str | None:
    """Why the web view cannot run here (aiohttp not installed), or None."""
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return "aiohttp is not installed (.venv/bin/pip install -e '.[web]')"
    return None


def check_settings(settings: WebSettings) -> None:
    """A web view listening beyond this machine needs a token (WebError otherwise)."""
    if settings.enabled and settings.problem:
        raise WebError(settings.problem)
    if (
        settings.enabled
        and not is_loopback(settings.host)
        and settings.token
        and len(settings.token.strip()) < 12
    ):
        raise WebError(
            f"web view on {settings.host}:{settings.port}: a token of under 12 characters is"
            " guessed: make [web] token longer"
        )
    if settings.enabled and not is_loopback(settings.host) and not settings.token:
        raise WebError(
            f"web view on {settings.host}:{settings.port} is reachable from other machines:"
            ' set [web] token = "..." in the config (the page asks for it once), or listen on'
            " 127.0.0.1"
        )


def check_port(settings: WebSettings) -> None:
    """The address can be listened on now (WebError naming it if not, e.g. a port in use):
    said before the daemon opens anything."""
    if not settings.enabled or missing() is not None:  # off: nothing to listen on
        return
    try:
        infos = socket.getaddrinfo(settings.host, settings.port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise WebError(f"web view: cannot listen on {settings.host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            probe.bind(address)
        except OSError as exc:
            why = "already in use" if exc.errno == errno.EADDRINUSE else exc.strerror
            raise WebError(
                f"web view: cannot listen on {settings.host}:{settings.port}: {why}"
            ) from None
