"""The web view's server (aiohttp): the page and its assets, one websocket a browser, the
stored games.

Every browser gets the whole state on connecting (the board's drawing, the referee's state,
the LEDs) and then each change pushed as it happens: the referee's typed events
(``session.events``) and each switch change make one new state message (several in one turn
of the loop make one), and every chain the LED compositor writes is pushed as it is written,
so a blink arrives as it turns on and off. Nothing polls.

What a browser sends is an action: a piece lifted or placed or moved (the simulated board),
a button, a new game. Each carries the tokens of the state the page showed: ``board_seq``
(switch changes) for pieces, ``version`` (the game's changes) for buttons and new games; an
action whose token is stale is refused with a message, never applied to a board or game that
has moved on.

A ``[web] token`` guards everything: a request without it (``Authorization: Bearer`` or the
``reedboard_token`` cookie the page sets) gets 401 and changes nothing; the page itself
answers 401 with a form that asks for it once (a link with ``?token=`` sets the cookie and is
sent on without it, so the token never stays in a URL).

No other page can drive the board: every request must name this board in its ``Host`` (a
loopback name, an address, this machine's name, or a name in ``[web] hosts``: what DNS
rebinding needs is refused), a request that carries an ``Origin`` must come from the page's
own origin (another port, a ``file://`` page or another site is refused with 403), and every
action carries the per-page token the page was served with. The page may not be framed. What
a browser sends is bounded (64 kB a message, 8 levels of JSON), and a browser that does not
read its messages is dropped rather than kept in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import time
import urllib.parse
from collections import deque
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from reedboard import engine
from reedboard.daemon.config import WebSettings
from reedboard.daemon.extension import Host
from reedboard.daemon.virtual_board import VirtualBoard
from reedboard.daemon.web import WebError, check_settings
from reedboard.daemon.web.history import history_routes
from reedboard.daemon.web.panel import computer_seats, game_choices, panel
from reedboard.daemon.web.state import layout_message, leds_message, state_message
from reedboard.daemon.words import event_words, passed, plural
from reedboard.engine.files import read_bounded, too_deep
from reedboard.hardware.board_io import BUTTONS, BoardEvent, ButtonEvent, SensorEvent
from reedboard.hardware.compositor import Compositor
from reedboard.hardware.lights import Colour
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.events import (
    GameEvent,
    MoveCarriedOut,
    MoveCommitted,
    MoveShown,
    NewGame,
    Notice,
    Takeback,
    Thrown,
)
from reedboard.referee.session import Session

log = logging.getLogger("reedboard")

STATIC = resources.files("reedboard.daemon.web") / "static"
COOKIE = "reedboard_token"
CSRF_META = '<meta name="reedboard-csrf" content="">'
"""Where a page is given its per-page token (the page sends it with every action)."""
MAX_MESSAGE = 64 * 1024
"""The largest message a browser may send (an action is under 200 bytes)."""
MAX_DEPTH = 8
QUEUE = 512
"""Messages held for one browser: one that reads none of them is dropped past this."""
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # (no-referrer makes a form's Origin "null")
}
"""Sent with every response: no page of another site may frame this one."""
ALERTS = 30
"""How many of the latest events the page lists."""
SHOWN = 8
"""How many of the game's latest versions are remembered with the side each showed to act."""
STILL_MEANT = frozenset({"roll", "hint"})
"""The buttons a page may press from a version a push or two behind (docs/web.md): each asks
for the side to act now what the page showed it asking for."""


def web_secret(host: Host) -> bytes:
    """The web view's own secret: random, kept owner-only beside the store
    (``<store>.web-secret``) so an open page and a signed-in browser go on after a restart; a
    board whose folder cannot keep it makes one for this run."""
    path = host.config.database.with_name(host.config.database.name + ".web-secret")
    try:
        data = read_bounded(path, 256).strip()
        if len(data) >= 32:
            return data
    except OSError:
        pass
    data = secrets.token_hex(32).encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError:
        log.warning("web view: cannot keep %s: pages and sign-ins last this run", path)
    return data


def allowed_hosts(settings: WebSettings) -> frozenset[str]:
    """The names a request may give in ``Host`` (besides addresses): loopback names, this
    machine's name (and with ``.local``), the address listened on, ``[web] hosts``."""
    name = socket.gethostname().lower()
    names = {*LOOPBACK_NAMES, name, f"{name}.local", settings.host.lower(), *settings.hosts}
    return frozenset(n.lower().rstrip(".") for n in names if n)


def host_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this board: an address, or an allowed name."""
    name = _split_host(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True  # an address is no DNS rebinding
    except ValueError:
        return name.lower().rstrip(".") in allowed


def same_origin(origin: str, host: str, secure: bool) -> bool:
    """Whether ``Origin`` is the page's own: the scheme, host and port the request came to."""
    want = f"{'https' if secure else 'http'}://{host}".lower()
    parts = urllib.parse.urlsplit(origin.lower())
    default = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
    given = f"{parts.scheme}://{parts.netloc}"
    return given == want or given + default == want or given == want + default


def _worded(alert: dict[str, Any], title: str) -> dict[str, Any]:
    """An alert heard before the view followed its session (a new game's start), with words."""
    kind, text = alert.get("kind"), alert.get("text", "")
    if kind == "new-game":
        words = f"new game of {title}"
    elif kind == "resumed":  # (the referee's text: "game 3, 1 moves")
        found = re.fullmatch(r"game (\d+), (\d+) moves", str(text))
        words = (
            f"game {found[1]} resumed after {plural(int(found[2]), 'move')}"
            if found
            else f"game resumed: {text}"
        )
    else:
        words = f"{kind}: {text}" if text else str(kind)
    return {**alert, "words": words}


def _split_host(host: str) -> str:
    host = host.strip()
    if host.startswith("["):  # [::1]:8080
        return host[1 : host.find("]")] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send the headers of its first request: 200 connections that
send them a byte at a time are closed, not held for ever (aiohttp has no such timeout)."""


class _HeaderDeadline(asyncio.Protocol):
    """aiohttp's protocol for one connection, closed when a request's headers (up to the blank
    line that ends them) have not all come within the deadline; the deadline starts again with
    the next bytes after them (a body, or the next request on the connection), and ends once
    the connection is a websocket."""

    def __init__(self, inner: Any, timeout: float) -> None:
        self.inner = inner
        self.timeout = timeout
        self.head = b""
        """What has come of the request's headers so far (the first 8 kB)."""
        self.waiting = True
        self.upgraded = False
        self.timer: asyncio.TimerHandle | None = None
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self._start()
        self.inner.connection_made(transport)

    def _start(self) -> None:
        self.waiting = True
        self.timer = asyncio.get_running_loop().call_later(self.timeout, self._expire)

    def _expire(self) -> None:
        if self.waiting and self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self.upgraded:
            if not self.waiting:  # bytes after a request's headers: its body, or the next
                self.head = b""
                self._start()
            self.head = (self.head + data)[:8192]
            end = self.head.find(b"\r\n\r\n")
            if end >= 0:
                self.waiting = False
                if self.timer is not None:
                    self.timer.cancel()
                if b"upgrade: websocket" in self.head[:end].lower():
                    self.upgraded = True  # (a websocket's frames are no request)
                elif self.head[end + 4 :]:  # more came with them: count it as what follows
                    self.head = b""
                    self._start()
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class _Site(web.TCPSite):
    """aiohttp's TCP site, each connection under a deadline for its headers."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, timeout: float) -> None:
        super().__init__(runner, host, port)
        self._timeout = timeout

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        timeout = self._timeout
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _HeaderDeadline(server(), timeout),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=self._reuse_address,
            reuse_port=self._reuse_port,
        )


class _Tee:
    """The compositor's sink, and the web view told of each chain written to it."""

    def __init__(self, inner: Any, heard: Callable[[Sequence[Colour]], None]) -> None:
        self.inner = inner
        self.heard = heard

    def write(self, colours: Sequence[Colour]) -> object:
        result = self.inner.write(colours)
        self.heard(colours)
        return result


class WebView:
    def __init__(self, host: Host, settings: WebSettings) -> None:
        check_settings(settings)
        self.host = host
        self.settings = settings
        self.clients: dict[asyncio.Queue[str], web.WebSocketResponse] = {}
        self._secret = web_secret(host)
        self.csrf = hmac.new(self._secret, b"page", hashlib.sha256).hexdigest()[:36]
        """The token each page is served with and sends back with every action."""
        self.session_cookie = (
            hmac.new(self._secret, f"session:{settings.token}".encode(), hashlib.sha256).hexdigest()
            if settings.token
            else ""
        )
        """What the cookie holds once the token was given (never the token itself)."""
        self.hosts = allowed_hosts(settings)
        self._sockets: set[web.WebSocketResponse] = set()
        self.board_seq = 0
        self._picked: tuple[str, int] | None = None
        """The piece this page last picked up, and the board's token then."""
        self.alerts: deque[dict[str, Any]] = deque(maxlen=ALERTS)
        """The latest events, each with its ``words`` for people."""
        self.notice: str | None = None
        """The latest notice (``roll-first``, ``pass``, ...) in words, until the game moves on;
        the board's hand's word on a drag (which of two moves it made) until the next action
        from a page, as the move it speaks of may be committed in steps after it."""
        self._drag_notice = False
        self._shown: dict[str, str] = {}
        """The game's latest versions sent to pages, each with the side it showed to act (the
        newest last): a press a push behind may still mean what it meant."""
        self._state_due = False
        self._last_state: dict[str, Any] | None = None
        self._session: Session | None = None
        self._tee: _Tee | None = None
        self._compositor: Compositor | None = None
        self._runner: web.AppRunner | None = None
        self.sent = 0
        """Messages queued to browsers (for tests and the benchmark)."""
        self._closing: set[asyncio.Task[Any]] = set()
        self.header_timeout = HEADER_TIMEOUT
        """Seconds a connection may take to send its request's headers (then it is closed)."""

    # -- serving ---------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard, self._auth])
        app.router.add_get("/", self._page("index.html"))
        app.router.add_get("/history", self._page("history.html"))
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_post("/login", self._login)
        history_routes(app, lambda: self.host.config.database, lambda: self.host.layout)
        return app

    async def start(self) -> None:
        """Listen (WebError, one line, if the address cannot be had) and follow the game."""
        self.attach()
        host, port = self.settings.host, self.settings.port
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        try:
            await _Site(self._runner, host, port, self.header_timeout).start()
        except OSError as exc:
            await self.stop()
            why = "already in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
            raise WebError(f"web view: cannot listen on {host}:{port}: {why}") from None

    async def stop(self) -> None:
        self.detach()
        for ws in list(self._sockets):  # the pages reconnect to whoever listens next
            with contextlib.suppress(Exception):
                await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the daemon stops")
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    @property
    def port(self) -> int:
        """The port listened on (the one asked for, or the one given for port 0)."""
        assert self._runner is not None
        for site in self._runner.sites:
            server = getattr(site, "_server", None)
            if server is not None and server.sockets:
                return int(server.sockets[0].getsockname()[1])
        return self.settings.port

    # -- following the game ------------------------------------------------------------------

    def attach(self) -> None:
        """Hear the session's events and its board's LEDs."""
        host = self.host
        self._session = host.session
        host.session.events.subscribe(self._event)
        leds = self._compositor = host.board.leds
        self._tee = _Tee(leds.sink, self._chain)
        leds.sink = self._tee

    def detach(self) -> None:
        if self._session is not None:
            self._session.events.unsubscribe(self._event)
            self._session = None
        tee, self._tee = self._tee, None
        if tee is not None and self._compositor is not None and self._compositor.sink is tee:
            self._compositor.sink = tee.inner  # the compositor's own sink back

    def switched(self) -> None:
        """A new game (maybe on a new board) in place: everyone draws it afresh."""
        self.detach()
        self.attach()
        title = self.host.session.cls.title
        self.alerts = deque(  # its start (heard before this view followed the new session)
            (
                _worded(a, title)
                for a in self.host.session.alerts[-ALERTS:]
                if a.get("kind") != "button"  # (a press is said by what it did)
            ),
            maxlen=ALERTS,
        )
        self.notice = None
        self._shown.clear()
        self._broadcast(self.snapshot())

    def _event(self, event: GameEvent) -> None:
        alert = event.as_alert()
        session = self.host.session
        position = getattr(session, "position", None)  # (a game's start comes before it)
        if position is None:
            alert = _worded(alert, session.cls.title)
        elif isinstance(event, MoveShown | MoveCarriedOut) and self.by_hand:
            alert["words"] = None  # (the board's own hand makes it: its commit says the move)
        else:
            alert["words"] = event_words(event, position, session.cls.title)
        if isinstance(event, Notice) and event.what == "pass":
            return  # (said from the throw itself, below, in every game)
        if alert["words"] is not None:
            self.alerts.append(alert)
        if isinstance(event, NewGame):
            self._shown.clear()  # (a page of the game before may press nothing in this one)
        if isinstance(event, Notice):  # said where it is seen, until the game moves on
            self.notice = alert["words"]
            self._drag_notice = event.what == "drag"
        elif isinstance(event, NewGame | Takeback) or (
            isinstance(event, MoveCommitted | Thrown) and not self._drag_notice
        ):
            self.notice = None
            self._drag_notice = False
        if isinstance(event, Thrown) and position is not None:  # a throw with no move: said,
            # whatever comes next (the referee says it only when a throw comes next)
            said = passed(position, event.ply)
            if said is not None:
                self.alerts.append({"t": alert.get("t"), "kind": "pass", "text": "", "words": said})
                self.notice = said
        self._state_soon()

    def heard(self, event: BoardEvent | None) -> None:
        """A board event after the session has heard it, or None after its timers ran (a
        settled board judged: a mismatch begun or mended)."""
        if isinstance(event, SensorEvent):
            self.board_seq += 1
        self._state_soon()  # (a state like the last one sent is not sent again)

    def _chain(self, chain: Sequence[Colour]) -> None:
        if self.clients:
            self._send_all(self._leds(chain))

    def _state_soon(self) -> None:
        """One state message for all that changed in this turn of the loop."""
        if self._state_due or not self.clients:
            return
        self._state_due = True
        asyncio.get_running_loop().call_soon(self._send_state)

    def _send_state(self) -> None:
        self._state_due = False
        if self.host.session.events.holding:  # a move not yet durable is not shown: its
            return  # event comes once it is, and the state with it
        state = self.state()
        if state != self._last_state:
            self._last_state = state
            self._send_all(state)

    # -- messages ----------------------------------------------------------------------------

    @property
    def version(self) -> str:
        """The game's position as the page is shown it: another game (or session), another
        position or another ply make another token."""
        session = self.host.session
        position = session.position
        text = f"{id(session)}/{id(position)}/{len(position.move_stack)}/{position.to_text()}"
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    @property
    def by_hand(self) -> bool:
        """The simulated board's own hand carries out the moves lit for the players (the
        computer's, the other board's): the page tells them to wait, not to carry them out."""
        hand = getattr(self.host, "virtual_board", None)
        return (
            isinstance(self.host.board, SimulatedBoard)
            and isinstance(hand, VirtualBoard)
            and hand.carries_out
        )

    def state(self) -> dict[str, Any]:
        host = self.host
        occupied = host.board.snapshot()
        message = state_message(
            host.session,
            occupied,
            dice=host.board.leds.dice,
            version=self.version,
            board_seq=self.board_seq,
            simulated=isinstance(host.board, SimulatedBoard),
            alerts=list(self.alerts)[-ALERTS:],
            by_hand=self.by_hand,
        )
        config, session = host.config, host.session
        self._shown.pop(message["version"], None)
        self._shown[message["version"]] = session.position.turn
        while len(self._shown) > SHOWN:
            del self._shown[next(iter(self._shown))]
        message["panel"] = {
            **panel(
                session,
                computer=computer_seats(session.game_id, session.options, config.computer),
                level=config.level,
                dice=host.board.leds.dice,
                physical=frozenset(session.physical),
                by_hand=self.by_hand,
            ),
            "notice": self.notice,
        }
        return message

    def _leds(self, chain: Sequence[Colour] | None = None) -> dict[str, Any]:
        leds = self.host.board.leds
        if chain is None:
            chain = leds.chain or [(0, 0, 0)] * self.host.layout.led_count
        return leds_message(self.host.layout, chain, leds.frame)

    def snapshot(self) -> list[dict[str, Any]]:
        """Everything a page needs to draw itself from nothing."""
        host = self.host
        layout = layout_message(
            host.layout, host.session.game_id, host.games(), host.session.position
        )
        layout["picker"] = [game_choices(g) for g in host.games()]  # (the picker's choices)
        return [layout, self.state(), self._leds()]

    def _broadcast(self, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            self._send_all(message)

    def _send_all(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for queue, ws in list(self.clients.items()):
            try:
                queue.put_nowait(text)
            except asyncio.QueueFull:  # a browser that reads nothing: dropped, not kept
                del self.clients[queue]
                task = asyncio.get_running_loop().create_task(
                    ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"not reading")
                )
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
                continue
            self.sent += 1

    # -- a browser ---------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        for message in self.snapshot():
            queue.put_nowait(json.dumps(message, separators=(",", ":")))
        self.clients[queue] = ws
        self._sockets.add(ws)

        async def send() -> None:
            while True:
                text = await queue.get()
                await ws.send_str(text)

        sending = asyncio.create_task(send())
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                reply = self.act(msg.data)
                if reply is not None and queue in self.clients:
                    with contextlib.suppress(asyncio.QueueFull):
                        queue.put_nowait(json.dumps({"type": "refused", "text": reply}))
                        queue.put_nowait(json.dumps(self.state()))
        finally:
            self.clients.pop(queue, None)
            self._sockets.discard(ws)
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await sending
        return ws

    def act(self, text: str) -> str | None:
        """Carry out one action from a page; a refusal's text if it is not carried out (then
        nothing has changed)."""
        try:
            action = json.loads(text)
        except (ValueError, RecursionError):
            return "not an action (expected a JSON object)"
        if not isinstance(action, dict) or too_deep(action, MAX_DEPTH):
            return "not an action (expected a JSON object)"
        csrf = action.get("csrf")
        if not isinstance(csrf, str) or not hmac.compare_digest(csrf.encode(), self.csrf.encode()):
            return "this page is not the board's own (reload it from the board's address)"
        if self._drag_notice:  # (the word on the last drag lasts until the next action)
            self.notice, self._drag_notice = None, False
            self._state_soon()
        try:
            return self._act(action)
        except (ValueError, engine.ReedboardError) as exc:
            return " ".join(str(exc).split())
        except Exception:  # a bug must not end the page's socket: said, and the page goes on
            log.exception("web view: action %r failed", action.get("do"))
            return "the board could not do that (its log says why)"

    def _act(self, action: dict[str, Any]) -> str | None:
        host = self.host
        do = action.get("do")
        if do in ("lift", "place", "pick", "drop", "move"):
            return self._piece(str(do), action)
        if action.get("version") != self.version and not self._still_meant(action):
            return "the game has moved on since your page showed it: look again"
        if do == "press":
            button = action.get("button")
            if button not in BUTTONS:
                return f"no button {button!r} (buttons: {', '.join(BUTTONS)})"
            events = host.board.events
            put = getattr(events, "put", None)
            if put is None:
                return "this board takes no buttons from the page"
            put(ButtonEvent(str(button), time.monotonic()))
            return None
        if do == "type":
            return self._typed(action.get("move"))
        if do == "new-game":
            return self._new_game(action)
        return f"unknown action {do!r}"

    def _still_meant(self, action: dict[str, Any]) -> bool:
        """Whether a press from a page a push or two behind means what it meant: ``roll`` or
        ``hint`` (which throw or hint for the side to act, and change nothing else), from a
        version of this game that showed the same side to act, or the computer to act (its
        move came in between: the press was for the side after it), when the side to act now
        is not the computer's. Never ``undo``, ``confirm`` or ``new``, a typed move or a new
        game: those act on what the page showed."""
        if action.get("do") != "press" or action.get("button") not in STILL_MEANT:
            return False
        shown = self._shown.get(str(action.get("version")))
        session = self.host.session
        position = session.position
        if shown is None or position.is_over():
            return False
        computer = computer_seats(session.game_id, session.options, self.host.config.computer)
        now = position.turn
        if now in computer or (action.get("button") == "roll" and not position.is_chance()):
            return False
        return shown == now or shown in computer

    def _piece(self, do: str, action: dict[str, Any]) -> str | None:
        """A piece on the simulated board: ``lift`` or ``place`` one switch; ``pick`` a piece
        up (its landings light), ``drop`` it (``to``: a point, or null off the board) and
        ``move`` (both at once): the move it means made by the virtual board's hand
        (reedboard/daemon/virtual_board.py). A drop may carry the token its pick was sent
        with: the page may not have seen the pick's own switch change yet."""
        board = self.host.board
        if not isinstance(board, SimulatedBoard):
            return "pieces are moved on the board itself (this is a real board)"
        seq = action.get("board_seq")
        picked, self._picked = self._picked, None
        start = str(action.get("from"))
        late_drop = do == "drop" and picked == (start, seq) and self.board_seq - picked[1] <= 1
        if seq != self.board_seq and not late_drop:
            return "the board has changed since your page showed it: look again"
        hand = getattr(self.host, "virtual_board", None)
        if do in ("lift", "place") or not isinstance(hand, VirtualBoard):
            if do not in ("lift", "place"):
                return "this board has no hand to move pieces (lift and place them)"
            point = str(action.get("point"))
            board.check_point(point)
            there = point in board.snapshot()
            if do == "lift" and not there:
                return f"there is no piece on {point} to lift"
            if do == "place" and there:
                return f"{point} already has a piece on it"
            (board.lift if do == "lift" else board.place)(point)
            return None
        if do == "pick":
            point = str(action.get("point"))
            refused = hand.pick(point)
            if refused is None:
                self._picked = (point, self.board_seq)
            return refused
        to = action.get("to")
        path = action.get("path") or []
        if not isinstance(path, list) or len(path) > 200:
            return "path must be a list of points"
        if do == "move":
            refused = hand.pick(start)
            if refused is not None:
                return refused
        return hand.drop(start, None if to is None else str(to), [str(p) for p in path])

    def _typed(self, text: object) -> str | None:
        """A move typed in the game's notation: on the simulated board made as a hand would
        make it (the console's ``move``); on a real board played from here and lit blue, to
        be carried out like the computer's."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            return "type a move in the game's notation, like 9-4"
        text = " ".join(text.split())
        host = self.host
        command = getattr(host, "command", None)
        if isinstance(host.board, SimulatedBoard) and command is not None:
            reply = command(f"move {text}")
            if isinstance(reply, str) and reply.startswith("error: "):
                return reply.removeprefix("error: ")
            return None
        session = host.session
        session.play(text, "console", time.monotonic())  # (a bad move raises: said)
        return None

    def _new_game(self, action: dict[str, Any]) -> str | None:
        """The picker's `start`: a new game (``fresh``, the page's way) or the game's
        unfinished one resumed, with its player count, options and the computer's seats."""
        host = self.host
        game = str(action.get("game"))
        if game not in host.games():
            return f"{game!r} cannot be started here (games: {', '.join(host.games())})"
        options = action.get("options") or {}
        if not isinstance(options, dict):
            return "options must be an object"
        options = dict(options)
        players = action.get("players")
        if players is not None:
            if isinstance(players, bool) or not isinstance(players, int):
                return f"players must be a whole number, not {players!r}"
            options["players"] = players
        for key in [k for k in options if k in engine.game(game).file_options()]:
            # a file on the daemon's machine is the config's to name, not a page's: a page
            # may choose the config's own file, by its name
            config = host.config
            mine = config.options.get(key) if config.game == game else None
            if mine is None or options[key] != Path(str(mine)).name:
                return f"{key} names a file: a game's files come from the config"
            options[key] = mine
        computer, level = action.get("computer"), action.get("level")
        if computer is not None and (
            not isinstance(computer, list) or not all(isinstance(c, str) for c in computer)
        ):
            return 'computer must be a list of sides, like ["fox"]'
        fresh = action.get("fresh", False)
        if not isinstance(fresh, bool):
            return "fresh must be true or false"
        host.switch_game(
            game,
            options,
            computer=None if computer is None else tuple(computer),
            level=level,
            fresh=fresh,
        )
        return None

    # -- HTTP --------------------------------------------------------------------------------

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        """This board's name in ``Host``, the page's own origin in ``Origin``; the headers
        that keep the page out of other sites' frames."""
        host = request.headers.get("Host", "")
        if not host_allowed(host, self.hosts):
            return web.Response(status=421, text=f"421: this board is not {host[:60]!r}\n")
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, host, request.secure):
            return web.Response(status=403, text="403: another page may not drive this board\n")
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            exc.headers.update(HEADERS)
            raise
        except engine.ReedboardError as exc:  # (a damaged store, a stored game that does not
            # replay): one line, never a traceback
            line = " ".join(str(exc).split())[:300]
            log.warning("web view: %s: %s", request.path, line)
            return web.Response(status=503, text=f"503: {line}\n", headers=HEADERS)
        if not response.prepared:  # (a websocket's headers are gone already)
            response.headers.update(HEADERS)
        return response

    @web.middleware
    async def _auth(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        token = self.settings.token
        if token and request.path != "/login":
            bearer = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            cookie = request.cookies.get(COOKIE, "")
            linked = request.query.get("token", "")
            if (
                linked
                and request.method == "GET"
                and request.path in ("/", "/history")
                and hmac.compare_digest(linked.encode(), token.encode())
            ):  # a link with the token: signed in by cookie, and sent on without it
                query = {k: v for k, v in request.query.items() if k != "token"}
                found = web.HTTPSeeOther(str(request.rel_url.with_query(query)))
                self._sign_in(found)
                raise found
            known = hmac.compare_digest(bearer.encode(), token.encode()) or (
                bool(cookie) and hmac.compare_digest(cookie.encode(), self.session_cookie.encode())
            )
            if not known:
                if request.method == "GET" and request.path in ("/", "/history"):
                    return self._login_page(request.path)
                return web.Response(status=401, text="401: the web view's token is needed\n")
        response: web.StreamResponse = await handler(request)
        return response

    def _sign_in(self, response: web.StreamResponse) -> None:
        """The browser is signed in: a cookie no script can read, sent to this site only,
        holding a value made from the token (never the token)."""
        response.set_cookie(
            COOKIE,
            self.session_cookie,
            path="/",
            samesite="Strict",
            httponly=True,
            max_age=365 * 24 * 3600,
        )

    def _login_page(self, back: str, status: int = 401) -> web.Response:
        text = (STATIC / "login.html").read_text(encoding="utf-8")
        text = text.replace('value="/"', f'value="{"/history" if back == "/history" else "/"}"')
        return web.Response(status=status, text=text, content_type="text/html")

    async def _login(self, request: web.Request) -> web.StreamResponse:
        """The sign-in form (``Origin`` checked like every request): the token in the body,
        never in a URL."""
        token = self.settings.token
        form = (
            await request.post() if request.content_length and request.content_length < 4096 else {}
        )
        given = str(form.get("token", ""))
        back = "/history" if form.get("back") == "/history" else "/"
        if not token:
            raise web.HTTPSeeOther(back)
        if not hmac.compare_digest(given.encode(), token.encode()):
            return self._login_page(back)
        found = web.HTTPSeeOther(back)
        self._sign_in(found)
        raise found

    def _page(self, name: str) -> Callable[[web.Request], Any]:
        async def page(request: web.Request) -> web.Response:
            text = (STATIC / name).read_text(encoding="utf-8")
            text = text.replace(CSRF_META, CSRF_META.replace('""', f'"{self.csrf}"'))
            response = web.Response(text=text, content_type="text/html")
            response.headers["Cache-Control"] = "no-store"  # (its token is this daemon's)
            return response

        return page

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        types = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
        kind = types.get(Path(name).suffix)
        item = STATIC / name
        if kind is None or "/" in name or not item.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=item.read_bytes(), content_type=kind)
