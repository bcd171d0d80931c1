"""Two daemons on simulated boards play one game through a real Mosquitto broker (issue 16):
each board's moves made on its own switches, the other board's lit and carried out by hand,
every throw agreed by commit and reveal."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from controller.events import MoveCommitted, Thrown
from controller.remote.game import check_proof
from engine import Move, Position
from tests.controller.remote_rig import Mosquitto, boards, broker, greedy, play_ply, until

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


def check_same_game(a: Any, b: Any) -> None:
    assert a.moves == b.moves
    assert a.session.position.to_text() == b.session.position.to_text()
    for board in (a, b):
        plies = [e.ply for e in board.events if isinstance(e, MoveCommitted | Thrown)]
        assert plies == list(range(len(board.moves)))  # each ply committed once, in order
        assert not board.said("remote-refused") and not board.said("mismatch")


def test_two_boards_play_mcloughlins_fox_and_geese_to_the_end(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with boards(broker, tmp_path, "fox-and-geese-mcloughlin", (("fox",), ("geese",))) as (
            a,
            b,
        ):
            while not a.session.position.is_over():
                await play_ply(a, b, quick_end)
            await until(lambda: b.session.position.is_over(), "the game over on both boards")
            check_same_game(a, b)
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
            plies = 0
            while not a.session.position.is_over():
                await play_ply(a, b, greedy)
                plies += 1
                assert plies < 400
            await until(lambda: b.session.position.is_over(), "the game over on both boards")
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
                    assert check_proof(proof, position) == position.throw_values(move)
                    throws += 1
                position.push(move)
            assert throws >= 2

    asyncio.run(main())
