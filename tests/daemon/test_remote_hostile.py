"""Remote play against what a stranger on the broker can send, through a real Mosquitto: any
payload (deep JSON, huge numbers, megabytes, binary, retained junk) is refused in one line and
the link goes on; a flood of senders grows no memory."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon.remote.broker import write_broker_files
from reedboard.daemon.remote.invite import make_invite
from reedboard.daemon.remote.message import MAX_BYTES, topic
from reedboard.daemon.remote.settings import Invite, RemoteSettingsError, from_values
from reedboard.daemon.remote.watch import watch
from reedboard.referee.session import SessionState
from tests.daemon.remote_rig import (
    MOSQUITTO,
    Mosquitto,
    Peer,
    boards,
    broker,
    one_board,
    play_ply,
    until,
)
from tests.daemon.test_remote_faults import refusals, settle

__all__ = ["broker"]

GAME = "fox-and-geese-mcloughlin"

JUNK: dict[str, bytes] = {
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "an object nested 3,000 deep": b'{"a":' * 3000 + b"1" + b"}" * 3000,
    "a number of 5,000 digits": b'{"v":1,"kind":"state","epoch":' + b"9" * 5000 + b"}",
    "a fraction": b'{"v":1,"kind":"move","ply":1.5}',
    "NaN": b'{"v":1,"kind":"move","ply":NaN}',
    "binary": bytes(range(256)) * 8,
    "over the size cap": b'{"v":1,"pad":"' + b"x" * (MAX_BYTES + 10) + b'"}',
    "a list": b"[1,2,3]",
    "not UTF-8": b'{"v":1,"kind":"\xff"}',
}


async def _fox_moves(a: Any, peer: Peer) -> tuple[Any, Any, dict[str, Any]]:
    """The fox moves on the board and it is sent: (the fox's move, the geese's answer, that
    answer's message fields for the peer to send)."""
    console = a.daemon.console
    start = a.session.position.copy()
    fox = sorted(start.legal_moves, key=str)[0]
    plan = console.plan(f"move {fox}")
    assert not isinstance(plan, str) and plan is not None
    await console.perform(plan)
    await until(lambda: bool(peer.got("move")), "the fox's move sent")
    after = start.copy(stack=False)
    after.push(fox)
    good = sorted(after.legal_moves, key=str)[0]
    good_after = after.copy(stack=False)
    good_after.push(good)
    return fox, good, dict(ply=1, move=str(good), after=good_after.to_text(), seat="geese")


async def _fox_then_goose(a: Any, peer: Peer) -> None:
    """The fox moves on the board; the peer's goose answer arrives and is lit."""
    fox, good, move = await _fox_moves(a, peer)
    await peer.send("moves", "move", **move)
    await until(lambda: a.session.state is SessionState.CARRYING_OUT, "the goose's move lit")
    assert a.moves == [str(fox), str(good)]


def test_any_payload_is_refused_in_one_line_and_the_next_move_arrives(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with Peer(broker, GAME, "geese") as peer:
            # retained junk waiting on the board's topics before it ever connects
            for n, payload in enumerate(JUNK.values()):
                where = topic("m1", "state", f"junk{n}") if n % 2 else topic("m1", "moves")
                await peer.client.publish(where, payload, qos=1, retain=True)
            async with one_board(broker, tmp_path, GAME, ("fox",)) as a:
                await until(lambda: a.link.connected, "connected")
                await settle()
                for payload in JUNK.values():  # and again, live
                    await peer.client.publish(topic("m1", "dice"), payload, qos=1)
                await settle()
                assert a.link.connected and a.link.client is not None
                lines = refusals(a)
                assert lines, "junk refused without a word"
                assert all("\n" not in line and len(line) < 300 for line in lines)
                assert not [
                    line for line in a.lines if line.startswith("remote-link: remote play failed")
                ]
                await _fox_then_goose(a, peer)
            # the junk is still retained: a restarted board reads it again and plays on
            async with one_board(broker, tmp_path, GAME, ("fox",)) as again:
                await until(lambda: again.link.connected, "connected again")
                await settle()
                assert again.link.connected
                assert again.moves[:1] == a.moves[:1]

    asyncio.run(main())


def test_a_flood_of_1000_senders_keeps_a_bounded_number_of_boards(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with (
            one_board(broker, tmp_path, GAME, ("fox",)) as a,
            Peer(broker, GAME, "geese") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            big = ["x" * 50] * 400  # a state of about 20 kB each, from 1,000 senders
            for n in range(1000):
                await peer.client.publish(
                    topic("m1", "state", f"s{n}"),
                    _state(f"s{n}", big),
                    qos=0,
                )
            await settle()
            await until(lambda: not a.link._outbox, "the link idle")
            game = a.link.game
            kept = set(game.peers.states) | set(game.peers.presence)
            assert len(kept) <= 4, len(kept)
            assert a.link.connected
            await _fox_then_goose(a, peer)

    asyncio.run(main())


def _state(sender: str, moves: list[str]) -> bytes:
    from reedboard.daemon.remote.message import encode

    return encode(
        {
            "kind": "state",
            "game": GAME,
            "match": "m1",
            "epoch": 0,
            "sender": sender,
            "id": sender,
            "options": {},
            "start": "x",
            "moves": moves,
            "position": "x",
            "throws": {},
        }
    )


def test_forged_messages_from_a_stranger_or_the_opponent_change_nothing(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with (
            one_board(broker, tmp_path, GAME, ("fox",)) as a,
            Peer(broker, GAME, "geese") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            await until(lambda: "geese" in a.link.game.pins.keys, "the geese's key pinned")
            assert a.link.game.pins.keys["geese"] == peer.key.public
            fox, good, move = await _fox_moves(a, peer)
            game = a.link.game
            before = len(refusals(a))
            # a stranger on the broker, with a key of its own, speaking as the geese
            async with Peer(broker, GAME, "geese", presence=False) as stranger:
                forged: list[tuple[str, str, dict[str, Any]]] = [
                    ("moves", "move", move),
                    ("takeback", "takeback", dict(what="request", ply=0)),
                    ("takeback", "takeback", dict(what="accept", ply=0)),
                    ("state/geese", "state", _fields(epoch=1000)),
                    (
                        "presence/geese",
                        "presence",
                        dict(status="offline", seats=["geese"], key=stranger.key.public),
                    ),
                    ("dice", "commit", dict(ply=1, xid="x", hash="0" * 64)),
                ]
                for where, kind, fields in forged:
                    await stranger.send(where, kind, **fields)
                    await stranger.send(where, kind, retain=True, **fields)
                # the opponent's own board, signing right: a state counting takebacks this
                # board never agreed to, a move for this board's seat, and as the fox
                await peer.send("state/geese", "state", **_fields(epoch=1000))
                await peer.send("moves", "move", **{**move, "seat": "fox"})
                async with Peer(broker, GAME, "fox", key=peer.key, presence=False) as as_fox:
                    await as_fox.send("moves", "move", **move)
                await settle()
            lines = refusals(a)[before:]
            assert len(lines) >= 3, lines
            assert any("counts 1000 takebacks" in line for line in lines)
            assert all("\n" not in line for line in lines)
            assert a.moves == [str(fox)]
            assert game.epoch == 0 and game.offered is None and game.waiting is None
            assert game.peers.presence.get("geese") == "online"
            assert a.session.state is SessionState.PLAYING
            # the real geese move still arrives and is lit
            await peer.send("moves", "move", **move)
            await until(lambda: a.session.state is SessionState.CARRYING_OUT, "the goose lit")
            assert a.moves == [str(fox), str(good)]

    asyncio.run(main())


def _fields(epoch: int) -> dict[str, Any]:
    return dict(
        epoch=epoch, options={}, start="x", moves=[], position="x", throws={}, seats=["geese"]
    )


def test_an_invite_pins_the_joining_board_and_no_stranger_racing_it(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        home = tmp_path / "board0.sqlite3.remote"  # board a's, as the daemon keeps it
        url = f"mqtt://127.0.0.1:{broker.port}"
        invite = make_invite("m1", url, ("fox",), home)
        code = invite.code()
        assert Invite.parse(code) == invite and invite.secret
        # a stranger on the broker races the real board, with a key of its own and no secret
        async with (
            Peer(broker, GAME, "geese") as stranger,
            boards(broker, tmp_path, GAME, (("fox",), ("geese",)), invites=(None, code)) as (a, b),
        ):
            await until(lambda: "geese" in a.link.game.pins.keys, "the joiner pinned")
            assert a.link.game.pins.keys["geese"] == b.link.key.public
            assert b.link.game.pins.keys["fox"] == a.link.key.public
            # the stranger refused, whichever came first: before the joiner, it does not hold
            # the invite; after, its key is not the one pinned (said again now: its first,
            # retained, may have been replaced by the joiner's before board a subscribed)
            await stranger.send(
                "presence/geese",
                "presence",
                status="online",
                seats=["geese"],
                key=stranger.key.public,
            )
            await until(
                lambda: any("a presence from geese" in line for line in refusals(a)),
                "the stranger refused",
            )
            assert a.link.game.pins.keys["geese"] == b.link.key.public
            assert any("by the invite" in line for line in a.said("remote-keys"))
            await stranger.send("moves", "move", ply=0, move="x", after="x", seat="geese")
            fox = sorted(a.session.position.legal_moves, key=str)[0]
            await play_ply(a, b, lambda p: fox)
            assert a.moves == b.moves == [str(fox)]
        # a damaged or foreign code is one line naming the option
        for bad in ("rb1.", "rb1.!!!", "xyz", code[:-7]):
            with pytest.raises(RemoteSettingsError, match=r"^invite: "):
                Invite.parse(bad)

    asyncio.run(main())


def test_a_spectators_invite_shows_only_what_its_keys_sign(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with (
            one_board(broker, tmp_path, GAME, ("fox",)) as a,
            Peer(broker, GAME, "geese") as peer,
        ):
            await until(lambda: "geese" in a.link.game.pins.keys, "the geese's key pinned")
            home = a.config.database.with_name(a.config.database.name + ".remote")
            url = f"mqtt://127.0.0.1:{broker.port}"
            invite = make_invite("m1", url, ("fox",), home, watch=True)
            assert invite.secret is None and set(invite.keys) == {"fox", "geese"}
            settings = dataclasses.replace(
                from_values({"invite": invite.code(), "seats": "watch"}), keepalive=2
            )
            lines: list[str] = []
            watching = asyncio.create_task(watch(settings, lines.append))
            await until(lambda: any(line.startswith("fox:") for line in lines), "a's state")
            async with Peer(broker, GAME, "geese", presence=False) as stranger:
                await stranger.send("moves", "move", ply=7, move="99-98", after="x", seat="geese")
                await peer.send("moves", "move", ply=7, move="1-2", after="x", seat="geese")
                await until(lambda: any("1-2" in line for line in lines), "the peer's line")
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching
            assert not any("99-98" in line for line in lines)
            assert any("not signed by the invite's keys" in line for line in lines)

    asyncio.run(main())


@pytest.mark.broker_down
def test_the_broker_files_hold_each_board_to_its_own_topics(tmp_path: Path) -> None:
    import aiomqtt

    if not MOSQUITTO.exists():
        pytest.skip("mosquitto is not installed")
    files = write_broker_files("m1", ["fox", "geese"], tmp_path / "broker")
    assert oct(files.passwd.stat().st_mode & 0o777) == "0o600"
    mosquitto = Mosquitto(tmp_path)
    mosquitto.conf.write_text(
        # (user root: the test runs as root in CI, and the files are its, owner-only)
        f"listener {mosquitto.port} 127.0.0.1\npersistence false\nuser root\n"
        + files.conf.read_text()
    )
    mosquitto.start()

    def client(user: str, password: str | None = None) -> aiomqtt.Client:
        word = files.passwords[user] if password is None else password
        return aiomqtt.Client(
            "127.0.0.1", mosquitto.port, username=user, password=word, identifier=user + "-t"
        )

    async def main() -> None:
        heard: list[str] = []
        async with client("watch") as watcher, client("fox") as fox:
            await watcher.subscribe(topic("m1", "#"), qos=1)

            async def read() -> None:
                async for message in watcher.messages:
                    heard.append(f"{message.topic}={message.payload!r}")

            reading = asyncio.create_task(read())
            await fox.publish(topic("m1", "moves", "geese"), b"as geese", qos=1)
            await fox.publish(topic("m1", "takeback", "geese"), b"as geese", qos=1)
            await watcher.publish(topic("m1", "moves", "fox"), b"from a spectator", qos=1)
            await fox.publish(topic("m1", "moves", "fox"), b"own", qos=1)
            await until(lambda: len(heard) >= 1, "the fox's own message")
            await asyncio.sleep(0.3)
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading
        assert heard == [f"{topic('m1', 'moves', 'fox')}=b'own'"], heard
        with pytest.raises(aiomqtt.MqttError):
            async with client("fox", "wrong"):
                pass
        with pytest.raises(aiomqtt.MqttError):
            async with aiomqtt.Client("127.0.0.1", mosquitto.port, identifier="anon"):
                pass

    try:
        asyncio.run(main())
    finally:
        mosquitto.kill()


def test_the_inviting_board_pins_only_a_presence_that_proves_the_invite(
    broker: Mosquitto, tmp_path: Path
) -> None:
    from reedboard.daemon.remote.keys import proof_of_invite

    async def main() -> None:
        home = tmp_path / "board.sqlite3.remote"  # one_board's, as the daemon keeps it
        invite = make_invite("m1", f"mqtt://127.0.0.1:{broker.port}", ("fox",), home)
        assert invite.secret is not None
        async with one_board(broker, tmp_path, GAME, ("fox",)) as a:
            await until(lambda: a.link.connected, "connected")
            async with Peer(broker, GAME, "geese", presence=False) as stranger:
                fields = dict(status="online", seats=["geese"], key=stranger.key.public)
                await stranger.send("presence/geese", "presence", **fields)
                wrong = proof_of_invite("another secret", stranger.key.public)
                await stranger.send("presence/geese", "presence", proof=wrong, **fields)
                await settle()
                assert "geese" not in a.link.game.pins.keys
                assert any("does not hold this board's invite" in line for line in refusals(a))
            async with Peer(broker, GAME, "geese", presence=False) as joiner:
                proof = proof_of_invite(invite.secret, joiner.key.public)
                fields = dict(status="online", seats=["geese"], key=joiner.key.public)
                await joiner.send("presence/geese", "presence", proof=proof, **fields)
                await until(lambda: "geese" in a.link.game.pins.keys, "the joiner pinned")
                assert a.link.game.pins.keys["geese"] == joiner.key.public

    asyncio.run(main())
