"""Remote play's test rig: a real Mosquitto broker on a free loopback port (its own config in
tmp_path), and daemons on simulated boards joined through it, played by hand: each board's
moves made on its switches, the other board's moves carried out the same way once lit."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.daemon.remote.link import RemoteLink
from reedboard.daemon.remote.settings import Broker, Invite, RemoteSettings
from reedboard.engine import Move, Position
from reedboard.referee.events import GameEvent, MoveCarriedOut
from reedboard.referee.session import SessionState
from reedboard.sim.tracegen import Hands, play_move

MOSQUITTO = Path("/usr/sbin/mosquitto")
PACE = 0.02
"""Seconds between a test hand's actions."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """Debian's mosquitto on 127.0.0.1:PORT, persistence off: killed, its retained
    messages are gone, as a broker restarted without a store loses them."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            "set_tcp_nodelay true\n"
        )
        self.log = folder / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [str(MOSQUITTO), "-c", str(self.conf)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.2),
            ):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not start: {self.log.read_text()[-500:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    if not MOSQUITTO.exists():
        pytest.skip("mosquitto is not installed (apt install mosquitto; see system-packages.txt)")
    b = Mosquitto(tmp_path)
    b.start()
    yield b
    b.kill()


def settings(broker: Mosquitto, match: str, seats: tuple[str, ...]) -> RemoteSettings:
    return RemoteSettings(
        broker=Broker("127.0.0.1", broker.port, False), match=match, seats=seats, keepalive=2
    )


class Board:
    """One daemon on its simulated board, running in this test's loop, with what it said."""

    def __init__(self, name: str, config: Config) -> None:
        self.name = name
        self.config = config
        self.lines: list[str] = []
        self.daemon = Daemon(config, out=self.lines.append)
        assert self.daemon.console is not None
        self.daemon.console.pace = PACE
        # these tests carry the other board's moves out by hand (Board.hand), so the simulated
        # board's own hand does not (reedboard/daemon/virtual_board.py)
        self.daemon.virtual_board.carries_out = False
        self.events: list[GameEvent] = []
        self.daemon.session.events.subscribe(self.events.append)
        self.task: asyncio.Task[None] | None = None

    @property
    def session(self) -> Any:
        return self.daemon.session

    @property
    def link(self) -> RemoteLink:
        assert isinstance(self.daemon.remote, RemoteLink)
        return self.daemon.remote

    @property
    def seats(self) -> tuple[str, ...]:
        assert self.config.remote is not None
        return self.config.remote.seats

    @property
    def moves(self) -> list[str]:
        return [str(m) for m in self.session.position.move_stack]

    def said(self, kind: str) -> list[str]:
        return [line for line in self.lines if line.startswith(f"{kind}: ")]

    def start(self) -> None:
        self.task = asyncio.create_task(self.daemon.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.daemon.stop.set()
            await asyncio.wait_for(self.task, 10)
            self.task = None

    async def hand(self, position: Position[Any, Any], move: Move) -> None:
        """A hand makes ``move`` on this board from ``position``, as the console does."""
        hands = Hands(random.Random(0), bounce=0.0, gap=(PACE, PACE))
        straight = any(c.chain for c in position.physical_steps(move).carries)
        play_move(hands, position, move, straight)
        board = self.daemon.board
        for line in hands.lines:
            await asyncio.sleep(PACE)
            if "point" in line:
                (board.place if line["on"] else board.lift)(line["point"])  # type: ignore[attr-defined]
            elif "button" in line:
                board.press(line["button"])  # type: ignore[attr-defined]


async def until(test: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def boards(
    broker: Mosquitto,
    tmp_path: Path,
    game: str,
    seats: tuple[tuple[str, ...], tuple[str, ...]],
    match: str = "m1",
    invites: tuple[str | None, str | None] = (None, None),
) -> AsyncIterator[tuple[Board, Board]]:
    """Two daemons (``invites``: the code each joins by, if any)."""
    made = []
    for i, s in enumerate(seats):
        remote = settings(broker, match, s)
        if invites[i] is not None:
            remote = dataclasses.replace(remote, invite=Invite.parse(invites[i]))
        config = Config(
            game=game,
            database=tmp_path / f"board{i}.sqlite3",
            settle=0.03,
            hold=0.3,
            remote=remote,
        )
        made.append(Board("ab"[i], config))
    a, b = made
    a.start()
    b.start()
    try:
        await until(lambda: a.link.connected and b.link.connected, "both boards connected")
        yield a, b
    finally:
        for board in (a, b):
            with contextlib.suppress(Exception):
                await board.stop()


def mover_of(a: Board, b: Board) -> tuple[Board, Board]:
    turn = str(a.session.position.turn)
    return (a, b) if turn in a.seats else (b, a)


async def play_ply(a: Board, b: Board, choose: Callable[[Position[Any, Any]], Move]) -> None:
    """The side to move plays one ply on its own board: a throw agreed by both (its `roll`),
    or a move made by hand there, then lit and carried out by hand on the other board."""
    mover, other = mover_of(a, b)
    position = mover.session.position.copy()
    ply = len(position.move_stack)
    if position.is_chance():
        mover.daemon.board.press("roll")  # type: ignore[attr-defined]
        await until(lambda: len(a.moves) > ply and len(b.moves) > ply, f"the throw at ply {ply}")
        return
    move = choose(position)
    console = mover.daemon.console
    assert console is not None
    plan = console.plan(f"move {move}")  # a hand on the board, as the console makes it
    assert not isinstance(plan, str) and plan is not None, plan
    await console.perform(plan)
    await until(lambda: len(mover.moves) > ply, f"{mover.name} to commit {move}")
    assert mover.moves[ply] == str(move)
    await until(
        lambda: len(other.moves) > ply and other.session.state is SessionState.CARRYING_OUT,
        f"{other.name} to light {move}",
    )
    await other.hand(position, move)
    await until(
        lambda: (
            other.session.state is SessionState.PLAYING or other.session.state is SessionState.OVER
        ),
        f"{other.name} to see {move} carried out",
    )
    # (the state changes at once; the event reaches listeners once the store has made it
    # durable, which a loaded machine can take a moment over)
    await until(
        lambda: any(isinstance(e, MoveCarriedOut) and e.move == move for e in other.events),
        f"{other.name} to say {move} carried out",
    )


def greedy(position: Position[Any, Any]) -> Move:
    """A player that wins at once if it can, else takes the position it likes best."""
    me = position.turn

    def score(move: Move) -> tuple[int, float, str]:
        """(a win first, a loss last, whatever the evaluation's scale; then the evaluation)"""
        after = position.copy(stack=False)
        after.push(move)
        over = after.outcome()
        if over is not None:
            return (1 if over.winner == me else -1, 0.0, str(move))
        return (0, after.evaluate(str(me)), str(move))

    return max(position.legal_moves, key=score)


@contextlib.asynccontextmanager
async def one_board(
    broker: Mosquitto,
    tmp_path: Path,
    game: str,
    seats: tuple[str, ...],
    match: str = "m1",
    **more: Any,
) -> AsyncIterator[Board]:
    """One daemon; the other board is the test's own plain client (:class:`Peer`).
    ``more``: remote settings to change (``reveal_timeout=5.0``)."""
    config = Config(
        game=game,
        database=tmp_path / "board.sqlite3",
        settle=0.03,
        hold=0.3,
        remote=dataclasses.replace(settings(broker, match, seats), **more),
    )
    board = Board("a", config)
    board.start()
    try:
        yield board
    finally:
        await board.stop()


class Peer:
    """The other board played by hand: a plain aiomqtt client publishing what the test
    writes, and keeping every message of the match it hears."""

    def __init__(
        self,
        broker: Mosquitto,
        game: str,
        me: str,
        match: str = "m1",
        key: Any = None,
        presence: bool = True,
    ) -> None:
        import aiomqtt

        from reedboard.daemon.remote.keys import BoardKey

        self.client = aiomqtt.Client("127.0.0.1", broker.port, identifier=f"peer-{me}-{id(self):x}")
        self.game, self.me, self.match = game, me, match
        self.key = key or BoardKey.generate()
        """The peer's key: it signs what it sends, and says it in its presence."""
        self.presence = presence
        self.heard: list[dict[str, Any]] = []
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Peer:
        from reedboard.daemon.remote.message import topic

        await self.client.__aenter__()
        await self.client.subscribe(topic(self.match, "#"), qos=1)
        self._reader = asyncio.create_task(self._read())
        if self.presence:  # as a board does: its signed presence, with its key, retained
            await self.send(
                f"presence/{self.me}",
                "presence",
                retain=True,
                status="online",
                seats=self.me.split(","),
                key=self.key.public,
            )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.client.__aexit__(None, None, None)

    async def _read(self) -> None:
        from reedboard.daemon.remote.message import MessageError, decode

        async for message in self.client.messages:
            with contextlib.suppress(MessageError):
                if isinstance(message.payload, bytes) and message.payload:
                    self.heard.append(decode(message.payload))

    def got(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.heard if m["kind"] == kind and m["sender"] != self.me]

    async def send(
        self,
        where: str,
        kind: str,
        *,
        raw: bytes | None = None,
        retain: bool = False,
        signer: Any = None,
        **fields: Any,
    ) -> None:
        """Publish a message of the peer's, signed by its key (``signer``: another's; ``raw``:
        these bytes as they are)."""
        from reedboard.daemon.remote.message import VERSION, encode, topic

        message = {
            "v": VERSION,
            "kind": kind,
            "game": self.game,
            "match": self.match,
            "epoch": 0,
            "sender": self.me,
            "id": f"{len(self.heard)}-{kind}-{time.monotonic()}",
            **fields,
        }
        payload = raw if raw is not None else encode((signer or self.key).sign(message))
        where = where if "/" in where else f"{where}/{self.me}"  # each board under its name
        await self.client.publish(topic(self.match, where), payload, qos=1, retain=retain)
