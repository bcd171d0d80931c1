"""Honest faults in remote play, through a real Mosquitto: a board's link cut while its
takeback is answered, a throw asked for while the broker is down, a move of the other side
made here that the other board then makes too. Each converges with nothing lost."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from reedboard.referee.session import SessionState
from tests.daemon.remote_rig import Mosquitto, boards, broker, play_ply, until
from tests.daemon.test_remote_play import put_back, quick_end

__all__ = ["broker"]


async def cut(board: Any) -> None:
    """Cut the board's link (its presence goes offline; the daemon and its game stay)."""
    await board.daemon.remote_play.stop()
    assert not board.link.connected


def rejoin(board: Any) -> None:
    board.daemon.remote_play.task = asyncio.create_task(board.link.run())


def test_a_takeback_answered_while_the_asker_was_away_reaches_it(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-geese-mcloughlin", (("fox",), ("geese",))) as (
            a,
            b,
        ):
            for _ in range(3):
                await play_ply(a, b, quick_end)
            three = list(a.moves)
            a.daemon.board.press("undo")  # the fox's player asks...
            await until(lambda: bool(b.said("remote-takeback")), "the request heard")
            await cut(a)  # ...and its link drops
            b.daemon.board.press("undo")  # accepted while the asker is away
            await until(lambda: len(b.moves) == 2, "taken back on b")
            await put_back(b)
            await asyncio.sleep(0.3)
            assert a.moves == three  # (not heard yet)
            rejoin(a)
            await until(lambda: len(a.moves) == 2, "the answer reaches a when it returns")
            await put_back(a)
            assert a.moves == b.moves == three[:2]
            assert a.link.game.epoch == b.link.game.epoch == 1
            while not a.session.position.is_over():  # the game goes on from there
                await play_ply(a, b, quick_end)
            await until(lambda: b.session.position.is_over(), "the end on both")
            assert a.moves == b.moves

    asyncio.run(main())


@pytest.mark.broker_down
@pytest.mark.parametrize("other_last", [False, True], ids=["together", "other-board-last"])
def test_a_throw_asked_for_while_the_broker_is_down_is_made_when_it_returns(
    broker: Mosquitto, tmp_path: Path, other_last: bool
) -> None:
    """``other_last``: the thrower's link comes back first and sends its part of the throw to
    a broker the other board is not on yet; the other board, back later, is sent it again (a
    broker that died said nothing of either board going away)."""

    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-rabbit", (("WR",), ("RF",))) as (a, b):
            thrower = a if str(a.session.position.turn) in a.seats else b
            other = b if thrower is a else a
            broker.kill()
            await until(lambda: not thrower.link.connected, "the link down")
            if other_last:
                await cut(other)  # (its link stays away until the thrower is back)
            thrower.daemon.board.press("roll")
            await until(
                lambda: any("not reached" in s for s in thrower.said("remote-dice")),
                "the throw said to wait",
            )
            await asyncio.sleep(0.5)
            assert thrower.moves == []
            broker.start()
            if other_last:
                await until(lambda: thrower.link.connected, "the thrower back", 40)
                await asyncio.sleep(0.5)
                assert thrower.moves == []
                rejoin(other)
            await until(
                lambda: len(thrower.moves) == 1 and len(other.moves) == 1, "the throw made", 40
            )
            assert thrower.moves == other.moves
            assert thrower.session.state in (SessionState.PLAYING, SessionState.PENDING)

    asyncio.run(main())


def test_a_move_of_the_other_side_made_here_and_then_there_keeps_the_state_current(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-geese-mcloughlin", (("fox",), ("geese",))) as (
            a,
            b,
        ):
            await play_ply(a, b, quick_end)  # the fox moves (a), carried out on b
            position = b.session.position.copy()
            goose = quick_end(position)
            for board in (a, b):  # the geese's move made on both boards by hand: a's is wrong
                console = board.daemon.console
                plan = console.plan(f"move {goose}")
                assert not isinstance(plan, str) and plan is not None
                await console.perform(plan)
            await until(lambda: len(a.moves) == 2 and len(b.moves) == 2, "both have it")
            await until(lambda: 1 not in a.link.game.foreign, "b's message confirms a's ply")
            assert a.moves == b.moves
            assert a.link.game.state()["moves"] == a.moves  # the state sent goes past it
            await play_ply(a, b, quick_end)  # and the game goes on
            assert a.moves == b.moves

    asyncio.run(main())


def test_a_connection_cut_before_the_broker_accepts_it_fails_at_once() -> None:
    import aiomqtt

    from reedboard.daemon.remote.link import client_for
    from reedboard.daemon.remote.settings import Broker, RemoteSettings

    async def main() -> float:
        async def cut(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(10)  # the CONNECT's first bytes, then gone
            writer.close()

        server = await asyncio.start_server(cut, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        settings = RemoteSettings(Broker("127.0.0.1", port, False), "m1", ("fox",))
        began = time.monotonic()
        try:
            async with client_for(settings):
                raise AssertionError("connected to a broker that cut the connection")
        except aiomqtt.MqttError as exc:
            assert "before accepting" in str(exc)
        server.close()
        return time.monotonic() - began

    assert asyncio.run(main()) < 2.5  # not the 5 s of aiomqtt's timeout
