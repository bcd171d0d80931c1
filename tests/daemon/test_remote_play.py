"""Two daemons on simulated boards play one game through a real Mosquitto broker:
each board's moves made on its own switches, the other board's lit and carried out by hand,
every throw agreed by commit and reveal."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from reedboard.daemon.remote.game import check_proof
from reedboard.daemon.remote.watch import watch
from reedboard.engine import Move, Position
from reedboard.referee.events import MoveCommitted, Thrown
from reedboard.referee.session import SessionState
from tests.daemon.remote_rig import (
    Mosquitto,
    Peer,
    boards,
    broker,
    greedy,
    one_board,
    play_ply,
    settings,
    until,
)

__all__ = ["broker"]  # the fixture


def taken(position: Position[Any, Any], move: Move) -> int:
    return len(position.occupied() - position.occupied_after(move))


def quick_end(position: Position[Any, Any]) -> Move:
    """Fox and Geese played to a quick end: the fox takes all it can, the geese offer
    themselves (both sides' choices still legal moves of the engine's)."""
    moves = sorted(position.legal_moves, key=str)
    if position.turn == "fox":
        return max(moves, key=lambda m: taken(position, m))

    def offered(move: Move) -> int:
        after = position.copy(stack=False)
        after.push(move)
        return max((taken(after, m) for m in after.legal_moves), default=-1)

    return max(moves, key=offered)


def turns(board: Any) -> list[str]:
    """The side to move before each ply of the board's game."""
    position = board.session.position.copy()
    out = []
    while position.move_stack:
        position.pop()
        out.append(str(position.turn))
    return out[::-1]


def movers(board: Any) -> dict[int, str]:
    return {e.ply: e.source for e in board.events if isinstance(e, MoveCommitted)}


def committed_plies(board: Any) -> list[int]:
    return [e.ply for e in board.events if isinstance(e, MoveCommitted | Thrown)]


async def settled(a: Any, b: Any) -> None:
    """Both boards have told every ply they hold (a ply is pushed, then told: the test may
    look between the two)."""
    await until(
        lambda: all(len(committed_plies(board)) >= len(board.moves) for board in (a, b)),
        "every ply told on both boards",
    )


def check_same_game(a: Any, b: Any) -> None:
    assert a.moves == b.moves
    assert a.session.position.to_text() == b.session.position.to_text()
    for board in (a, b):
        assert committed_plies(board) == list(
            range(len(board.moves))
        )  # each ply committed once, in order
        assert not board.said("remote-refused") and not board.said("mismatch")


def test_two_boards_play_fox_and_geese_to_the_end(broker: Mosquitto, tmp_path: Path) -> None:
    """Two foxes against 24 geese, the geese offering themselves, a spectator watching."""

    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-geese", (("fox",), ("geese",))) as (
            a,
            b,
        ):
            seen: list[str] = []  # a spectator follows read-only
            spectator = asyncio.create_task(watch(settings(broker, "m1", ("watch",)), seen.append))
            while not a.session.position.is_over():
                await play_ply(a, b, quick_end)
            await until(lambda: b.session.position.is_over(), "the game over on both boards")
            await settled(a, b)
            check_same_game(a, b)
            sides = turns(a)
            shown = [f"ply {i}: {m} ({sides[i]}, on {sides[i]})" for i, m in enumerate(a.moves)]
            await until(lambda: all(line in seen for line in shown), "the spectator's lines")
            spectator.cancel()
            assert [line for line in seen if line.startswith("ply ")] == shown
            assert a.session.position.outcome() == b.session.position.outcome()
            for board in (a, b):  # each side's moves came from its own board, and only those
                for ply, source in movers(board).items():
                    mover = turns(board)[ply]
                    assert source == ("board" if mover in board.seats else "remote")
            assert len(b.said("carry-out")) == sum(t == "fox" for t in turns(b))

    asyncio.run(main())


def test_two_boards_play_fox_and_rabbit_to_the_end_with_fair_dice(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-rabbit", (("WR",), ("RF",))) as (a, b):
            # The dice are fair (both boards' secrets), so the game's length is not seeded.
            # Two greedy players (a win taken at once, else the solved ratings): of 1,500
            # engine-only games with random dice the median took 24 plies, 1 in 100 took 141
            # or more and the longest 225; 1,000 plies would be far beyond any of them.
            plies = 0
            while not a.session.position.is_over():
                await play_ply(a, b, greedy)
                plies += 1
                assert plies < 1000
            await until(lambda: b.session.position.is_over(), "the game over on both boards")
            await settled(a, b)
            check_same_game(a, b)
            # every throw was agreed: both boards hold the same record, and it makes the throw
            position = a.session.position.copy()
            stack = list(position.move_stack)
            for _ in stack:
                position.pop()
            throws = 0
            for ply, move in enumerate(stack):
                if position.is_chance():
                    proof = a.link.game.proofs[ply]
                    assert b.link.game.proofs[ply]["reveals"] == proof["reveals"]
                    keys = {
                        a.link.game.me: a.link.key.public,
                        b.link.game.me: b.link.key.public,
                    }
                    assert check_proof(proof, position, keys, ply) == position.throw_values(move)
                    throws += 1
                position.push(move)
            assert throws >= 2

    asyncio.run(main())


async def put_back(board: Any) -> None:
    """Hands put the pieces where the referee wants them (after a takeback)."""
    session = board.session
    physical = set(board.daemon.board.snapshot())
    expected = session.recognizer.expected
    for point in sorted(physical - expected):
        await asyncio.sleep(0.02)
        board.daemon.board.lift(point)
    for point in sorted(expected - physical):
        await asyncio.sleep(0.02)
        board.daemon.board.place(point)
    await until(lambda: session.state is SessionState.PLAYING, f"{board.name} put back")


def test_a_takeback_is_asked_and_refused_or_accepted_by_the_other_board(
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
            a.daemon.board.press("undo")  # the fox's player asks  # type: ignore[attr-defined]
            await until(lambda: bool(b.said("remote-takeback")), "the request heard")
            assert "asks to take back to ply 2" in b.said("remote-takeback")[0]
            b.daemon.board.press("confirm")  # refused  # type: ignore[attr-defined]
            await until(lambda: any("refused" in s for s in a.said("remote-takeback")), "refusal")
            assert a.moves == b.moves == three
            a.daemon.board.press("undo")  # type: ignore[attr-defined]
            await until(lambda: len(b.said("remote-takeback")) == 3, "asked again")
            b.daemon.board.press("undo")  # accepted  # type: ignore[attr-defined]
            await until(lambda: len(a.moves) == 2 and len(b.moves) == 2, "taken back on both")
            assert a.moves == b.moves == three[:2]
            for board in (a, b):
                assert board.session.state is SessionState.RESTORING
                await put_back(board)
                assert board.link.game.epoch == 1
            while not a.session.position.is_over():  # the game goes on from there
                await play_ply(a, b, quick_end)
            await until(lambda: b.session.position.is_over(), "the end on both")
            assert a.moves == b.moves
            assert not a.said("remote-refused") and not b.said("remote-refused")

    asyncio.run(main())


@pytest.mark.broker_down
def test_a_board_whose_broker_is_down_plays_on_and_sends_its_game_later(
    broker: Mosquitto, tmp_path: Path
) -> None:
    broker.kill()

    async def main() -> None:
        async with one_board(broker, tmp_path, "fox-and-geese-mcloughlin", ("fox",)) as a:
            await until(lambda: bool(a.said("remote-link")), "the broker said unreachable")
            assert "playing on here, trying again" in a.said("remote-link")[0]
            console = a.daemon.console
            assert console is not None
            plan = console.plan("move 17-10")
            assert not isinstance(plan, str) and plan is not None
            await console.perform(plan)
            assert a.moves == ["17-10"]
            broker.start()
            await until(lambda: a.link.connected, "connected once the broker is up", 40)
            async with Peer(broker, "fox-and-geese-mcloughlin", "geese") as peer:
                await until(lambda: bool(peer.got("state")), "the retained state")
                state = peer.got("state")[-1]
                assert state["moves"] == ["17-10"] and state["seats"] == ["fox"]
                assert peer.got("presence")[-1]["status"] == "online"

    asyncio.run(main())
