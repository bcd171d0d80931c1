"""The board's connection to the MQTT broker (aiomqtt, on paho-mqtt): presence with a last
will, the retained state, the messages in and out, and reconnecting with backoff. The game's
judgement is reedboard/daemon/remote/game.py's.

A broker that cannot be reached is said once; the board plays on locally and the link tries
again (0.5 s, doubling to 30 s). Once connected it says so, marks the board online, publishes
its whole game (retained) and reads the other board's, so both resync from the last agreed
ply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import ssl
import time
from collections.abc import Callable
from typing import Any

import aiomqtt

from reedboard.daemon.extension import Background, Host
from reedboard.daemon.remote.game import RemoteGame
from reedboard.daemon.remote.keys import SIG, BoardKey, Pins, proof_of_invite
from reedboard.daemon.remote.message import VERSION, MessageError, decode, encode, topic
from reedboard.daemon.remote.settings import RemoteSettings
from reedboard.referee.session import Session

log = logging.getLogger("reedboard")

POLL = 0.02
"""Seconds between looks at whether the board is free for the other board's next move."""
BACKOFF = (0.5, 30.0)


def client_for(settings: RemoteSettings, **extra: Any) -> aiomqtt.Client:
    """An aiomqtt client for the settings' broker, credentials and TLS."""
    broker = settings.broker
    tls: dict[str, Any] = {}
    if broker.tls:
        context = ssl.create_default_context(
            cafile=str(settings.cafile) if settings.cafile else None
        )
        if settings.certfile is not None and settings.keyfile is not None:
            context.load_cert_chain(str(settings.certfile), str(settings.keyfile))
        tls["tls_context"] = context
    client = aiomqtt.Client(
        broker.host,
        broker.port,
        username=settings.username,
        password=settings.password,
        keepalive=settings.keepalive,
        timeout=5.0,
        # a move is a small packet: sent at once, not held for the last one's ACK (Nagle's
        # wait and the broker's delayed ACK cost 40 ms on loopback)
        socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
        **tls,
        **extra,
    )
    _fail_fast_on_early_close(client)
    return client


def _fail_fast_on_early_close(client: aiomqtt.Client) -> None:
    """aiomqtt ignores a disconnect before the broker's CONNACK and waits out its whole
    timeout (5 s) when a connection is cut that early (a broker restarting, a flaky link): fail
    the connect at once instead, so the reconnect goes on. (Its private ``_client`` and
    ``_connected``; another aiomqtt without them keeps its timeout.)"""
    paho, connected = getattr(client, "_client", None), getattr(client, "_connected", None)
    if paho is None or not isinstance(connected, asyncio.Future):
        return
    original = paho.on_disconnect

    def on_disconnect(*args: Any, **kwargs: Any) -> None:
        if not connected.done():
            connected.set_exception(
                aiomqtt.MqttError("the broker closed the connection before accepting it")
            )
        original(*args, **kwargs)

    paho.on_disconnect = on_disconnect


class RemoteLink:
    def __init__(
        self,
        session: Session,
        settings: RemoteSettings,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.match = settings.match
        self._outbox: list[tuple[str, bytes, bool]] = []
        self._sending: set[asyncio.Task[None]] = set()
        self._wake: asyncio.Event | None = None
        self.client: aiomqtt.Client | None = None
        self.connected = False
        home = settings.home
        self.key = BoardKey.load(home / "board.pem") if home is not None else BoardKey.generate()
        pins = Pins(home / f"{settings.match}.json" if home is not None else None)
        self.proof: str | None = None
        """That this board holds the invite it joined by (sent with its presence)."""
        invite = settings.invite
        if invite is not None and invite.secret is not None:  # a player's invite: its keys
            theirs = [s for s in invite.keys if s not in settings.seats]
            for public in set(invite.keys.values()):
                pins.pin([s for s in theirs if invite.keys[s] == public], public)
            self.proof = proof_of_invite(invite.secret, self.key.public)
        self.game = RemoteGame(
            session, settings, self._send, clock=clock, later=self._later, key=self.key, pins=pins
        )
        self._presence = topic(self.match, "presence", settings.board)
        self._failed: set[str] = set()
        """The link's failures already logged (each once)."""

    # -- out ---------------------------------------------------------------------------------

    def _send(self, where: str, message: dict[str, Any], retain: bool) -> None:
        self._outbox.append((where, self._signed(message), retain))
        self._poke()

    def _signed(self, message: dict[str, Any]) -> bytes:
        """``message`` as sent: with the version, signed by this board's key (unless the game
        signed it already); none (a retained message cleared) for an empty one."""
        if not message:
            return b""
        if SIG in message:
            return encode(message)
        return encode(self.key.sign({"v": VERSION, **message}))

    def _later(self, action: Callable[[], None]) -> None:
        try:
            asyncio.get_running_loop().call_soon(action)
        except RuntimeError:  # no loop (a session driven by hand): at once
            action()

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def button(self, button: str) -> bool:
        """A button of this board: True when remote play takes it (reedboard/daemon/core.py)."""
        taken = self.game.button(button)
        self._poke()
        return taken

    # -- running -----------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, and stay connected (with backoff) until cancelled."""
        self._wake = asyncio.Event()
        worker = asyncio.create_task(self._work())
        try:
            await self._connect_forever()
        finally:
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _connect_forever(self) -> None:
        delay = BACKOFF[0]
        url = self.settings.broker.url
        down_said = False
        offline = self._signed(self._presence_message("offline", "will"))
        while True:
            client = client_for(
                self.settings,
                identifier=f"reedboard-{self.match}-{self.game.me}-{secrets.token_hex(4)}",
                will=aiomqtt.Will(self._presence, offline, qos=1, retain=True),
            )
            try:
                async with client:
                    self.client, self.connected, delay, down_said = client, True, BACKOFF[0], False
                    self.game.link_up = True
                    await client.subscribe(topic(self.match, "#"), qos=1)
                    online = self._presence_message("online", secrets.token_hex(8))
                    await client.publish(self._presence, self._signed(online), qos=1, retain=True)
                    self.game.dirty = True
                    self.game.connected()  # an exchange under way is sent again
                    self._poke()
                    self.game.say("remote-link", f"connected to {url}, match {self.match}")
                    try:
                        async for message in client.messages:
                            self._received(str(message.topic), message.payload)
                    except aiomqtt.MqttError:
                        raise
                    except BaseException:  # cancelled, or a bug: gone, as the will would say
                        with contextlib.suppress(aiomqtt.MqttError, asyncio.TimeoutError):
                            await asyncio.wait_for(
                                client.publish(self._presence, offline, qos=1, retain=True), 1.0
                            )
                        raise
            except aiomqtt.MqttError as exc:
                if self.connected or not down_said:
                    self.game.say(
                        "remote-link",
                        f"broker {url}: {exc}; playing on here, trying again",
                    )
                    down_said = True
            except Exception as exc:  # a bug must not end remote play: said once, reconnected
                what = f"{type(exc).__name__}: {exc}"[:200]
                if what not in self._failed:
                    self._failed.add(what)
                    log.exception("remote link failed")
                    self.game.say("remote-link", f"remote play failed ({what}); reconnecting")
            finally:
                self.client, self.connected = None, False
                self.game.link_up = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF[1])

    def _presence_message(self, status: str, ident: str) -> dict[str, Any]:
        return {
            "kind": "presence",
            "status": status,
            "seats": list(self.game.seats),
            "sender": self.game.me,
            "id": ident,
            "key": self.key.public,
            **({"proof": self.proof} if self.proof else {}),
        }

    def _received(self, where: str, payload: Any) -> None:
        if not isinstance(payload, bytes | bytearray) or not payload:
            return  # a retained message cleared
        try:
            message = decode(bytes(payload))
        except MessageError as exc:
            self.game.say("remote-refused", f"a message on {where[:80]}: {exc}", once=True)
            return
        if message.get("match", self.match) != self.match:
            return
        if where.rsplit("/", 1)[-1] != message["sender"]:  # (each board publishes under its name)
            self.game.say(
                "remote-refused",
                f"a {message['kind']} from {message['sender'][:40]} on {where[:80]}: not its topic",
                once=True,
            )
            return
        try:
            self.game.take(message)
        except Exception as exc:  # a bug must not stop the board: say it, go on
            log.exception("remote message failed")
            self.game.say("error", f"remote message {message.get('kind')}: {exc}")
        self._poke()

    async def _work(self) -> None:
        """Send what is queued (in order), publish the state when it changed, and play the
        other board's next move when the board is free."""
        assert self._wake is not None
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL)
            self._wake.clear()
            try:
                self.game.tick()
                self.game.step()
            except Exception as exc:  # a bug must not stop the board
                log.exception("remote step failed")
                self.game.say("error", f"remote play: {exc}")
            client = self.client
            if client is None:
                self._outbox.clear()  # the retained state carries the game across
                continue
            if self.game.dirty:
                self.game.dirty = False
                try:
                    state = self._signed(self.game.state())
                except Exception as exc:  # a bug must not stop the sending: said, tried later
                    log.exception("remote state failed")
                    self.game.say("error", f"remote state: {exc}", once=True)
                    continue
                self._outbox.append((topic(self.match, "state", self.game.me), state, True))
            while self._outbox:  # handed to the client in order, their acks awaited apart
                where, payload, retain = self._outbox.pop(0)
                task = asyncio.create_task(self._publish(client, where, payload, retain))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)
                await asyncio.sleep(0)  # it reaches the client before the next one

    async def _publish(
        self, client: aiomqtt.Client, where: str, payload: bytes, retain: bool
    ) -> None:
        try:
            await client.publish(where, payload, qos=1, retain=retain)
        except aiomqtt.MqttError:
            self.game.dirty = True  # the state is sent again once connected


class RemotePlay(Background):
    """Remote play as a daemon extension: the link runs beside the game, and takes `roll`
    (the throw is agreed with the other board) and `undo` (the takeback is asked of it)."""

    def __init__(self, link: RemoteLink) -> None:
        super().__init__()
        self.link = link

    async def start(self, daemon: Host) -> None:
        self.task = asyncio.create_task(self.link.run())

    def button(self, button: str) -> bool:
        return self.link.button(button)
