"""Remote play's faults through a real Mosquitto broker: a peer (the test's own client) that
sends illegal, out-of-order, duplicated and wrong-position moves and a forged dice reveal;
the broker killed and restarted mid-game; a daemon killed with SIGKILL and restarted."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from reedboard import engine
from reedboard.daemon.remote.fairdice import Secret, check_reveal, combine
from reedboard.referee.events import MoveCarriedOut, MoveShown, RemoteNotice
from reedboard.referee.session import SessionState
from reedboard.sim.tracegen import Hands, play_move
from reedboard.store.games import GameStore
from tests.daemon.remote_rig import (
    Mosquitto,
    Peer,
    boards,
    broker,
    one_board,
    play_ply,
    until,
)
from tests.daemon.test_remote_play import check_same_game, put_back, quick_end

__all__ = ["broker"]

GAME = "fox-and-geese-mcloughlin"


def refusals(board: Any) -> list[str]:
    return [
        e.detail for e in board.events if isinstance(e, RemoteNotice) and e.what == "remote-refused"
    ]


async def settle() -> None:
    await asyncio.sleep(0.4)  # the broker's round trip and the link's look at the board


def test_a_peers_bad_moves_are_refused_and_copies_dropped(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with (
            one_board(broker, tmp_path, GAME, ("fox",)) as a,
            Peer(broker, GAME, "geese") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            console = a.daemon.console
            assert console is not None
            start = a.session.position.copy()
            fox = sorted(start.legal_moves, key=str)[0]
            plan = console.plan(f"move {fox}")
            assert not isinstance(plan, str) and plan is not None
            await console.perform(plan)
            await until(lambda: bool(peer.got("move")), "the fox's move sent")
            sent = peer.got("move")[0]
            after = start.copy(stack=False)
            after.push(fox)
            assert (sent["ply"], sent["move"], sent["seat"], sent["after"]) == (
                0,
                str(fox),
                "fox",
                after.to_text(),
            )
            geese = sorted(after.legal_moves, key=str)
            good, other = geese[0], geese[1]
            good_after = after.copy(stack=False)
            good_after.push(good)
            bad = {
                "illegal": dict(ply=1, move="33-3", after="x", seat="geese"),
                "not geese's": dict(ply=1, move=str(good), after=good_after.to_text(), seat="fox"),
                "wrong position after": dict(
                    ply=1, move=str(good), after=after.to_text(), seat="geese"
                ),
                "out of order": dict(
                    ply=3, move=str(good), after=good_after.to_text(), seat="geese"
                ),
                "a throw in a game without dice": dict(
                    ply=1, move="dice=3,4", after="x", seat="geese"
                ),
            }
            for n, (why, fields) in enumerate(bad.items(), 1):
                await peer.send("moves", "move", **fields)
                await until(lambda n=n: len(refusals(a)) >= n, f"{why} refused")
                assert len(a.moves) == 1, why
            await peer.send("moves", "move", raw=b"\xff not json")
            await until(lambda: len(refusals(a)) == len(bad) + 1, "bad bytes refused")
            assert all(line.count("\n") == 0 for line in refusals(a))
            # the right move, then copies of it and a message reordered behind it
            fields = dict(ply=1, move=str(good), after=good_after.to_text(), seat="geese")
            await peer.send("moves", "move", **fields)
            await until(
                lambda: a.session.state is SessionState.CARRYING_OUT, "the goose's move lit"
            )
            for _ in range(3):
                await peer.send("moves", "move", **fields)
            await settle()
            await a.hand(after, good)
            await until(lambda: a.session.state is SessionState.PLAYING, "carried out")
            for _ in range(2):
                await peer.send("moves", "move", **fields)
            await peer.send(
                "moves", "move", ply=0, move=str(fox), after=after.to_text(), seat="fox"
            )
            await settle()
            assert a.moves == [str(fox), str(good)]
            assert sum(isinstance(e, MoveShown) for e in a.events) == 1
            assert sum(isinstance(e, MoveCarriedOut) for e in a.events) == 1
            assert len(refusals(a)) == len(bad) + 1  # copies are dropped without a word
            # a copy that differs from the move played at its ply is refused
            await peer.send("moves", "move", ply=1, move=str(other), after="x", seat="geese")
            await until(lambda: len(refusals(a)) == len(bad) + 2, "a rewritten ply refused")
            assert "ply 1 here is" in refusals(a)[-1]
            assert a.moves == [str(fox), str(good)]

    asyncio.run(main())


def test_a_forged_dice_reveal_is_refused_and_the_throw_stays_fixed(
    broker: Mosquitto, tmp_path: Path
) -> None:
    game = "fox-and-rabbit"

    async def main() -> None:
        async with (
            one_board(broker, tmp_path, game, ("RF",)) as a,
            Peer(broker, game, "WR") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            await until(lambda: "WR" in a.link.game.pins.keys, "the peer's key pinned")
            # a throw claimed in a board's state: with no record, or a record the peer made up
            # whole (signed right, but without this board's own commitment)
            start = engine.start(game)
            mine, theirs = Secret.draw(2, 6), Secret.draw(2, 6)
            claimed = start.throw(combine(mine.values, theirs.values, 6))

            def commit(board: str, secret: Secret) -> dict[str, Any]:
                fields = dict(kind="commit", sender=board, ply=0, xid="x0", epoch=0)
                return peer.key.sign({**fields, "hash": secret.commitment})

            record = {
                "xid": "x0",
                "commits": {"RF": commit("RF", mine), "WR": commit("WR", theirs)},
                "reveals": {
                    "RF": {"nonce": mine.nonce.hex(), "values": list(mine.values)},
                    "WR": {"nonce": theirs.nonce.hex(), "values": list(theirs.values)},
                },
            }
            state = dict(
                options={}, start=start.to_text(), moves=[str(claimed)], position="x", seats=["WR"]
            )
            await peer.send("state/WR", "state", throws={}, **state)
            await until(lambda: len(refusals(a)) == 1, "a throw with no reveals refused")
            assert "both boards' reveals" in refusals(a)[0]
            await peer.send("state/WR", "state", throws={"0": record}, **state)
            await until(lambda: len(refusals(a)) == 2, "a made-up record refused")
            assert "forged dice" in refusals(a)[1] and "not signed" in refusals(a)[1]
            await peer.send("state/WR", "state", throws={}, **{**state, "moves": []})
            assert a.moves == []
            # an exchange: once both commitments are made the throw is fixed
            honest = Secret.draw(2, 6)
            await peer.send("dice", "commit", ply=0, xid="x1", hash=honest.commitment)
            await until(lambda: bool(peer.got("reveal")), "the board's reveal")
            forged = [(v + 1) % 6 for v in honest.values]
            await peer.send(
                "dice", "reveal", ply=0, xid="x1", nonce=honest.nonce.hex(), values=forged
            )
            await until(lambda: len(refusals(a)) == 3, "the forged reveal refused")
            assert "do not match the commitment" in refusals(a)[2]
            assert "stays fixed" in refusals(a)[2]
            # a fresh exchange for the same throw (the cheater disliking what it saw): refused
            second = Secret.draw(2, 6)
            await peer.send("dice", "commit", ply=0, xid="x2", hash=second.commitment)
            await settle()
            assert not any(r["xid"] == "x2" for r in peer.got("reveal"))
            assert not any(c["xid"] == "x2" for c in peer.got("commit"))
            assert any("refused, the throw is fixed" in line for line in a.said("remote-dice"))
            assert a.moves == [] and a.session.position.is_chance()
            # the true reveal makes the throw: both boards' values combined
            theirs_reveal = next(r for r in peer.got("reveal") if r["xid"] == "x1")
            board_commit = next(c for c in peer.got("commit") if c["xid"] == "x1")
            board_secret = check_reveal(
                board_commit["hash"], theirs_reveal["nonce"], theirs_reveal["values"], 2, 6
            )
            await peer.send(
                "dice",
                "reveal",
                ply=0,
                xid="x1",
                nonce=honest.nonce.hex(),
                values=list(honest.values),
            )
            await until(lambda: len(a.moves) == 1, "the agreed throw")
            values = combine(honest.values, board_secret.values, 6)
            assert a.moves == [str(engine.start(game).throw(values))]
            assert a.daemon.board.dice == values  # type: ignore[attr-defined]
            assert len(refusals(a)) == 3

    asyncio.run(main())


def test_a_withheld_reveal_abandons_the_game_and_the_store_says_by_whom(
    broker: Mosquitto, tmp_path: Path
) -> None:
    game = "fox-and-rabbit"

    async def main() -> None:
        async with (
            one_board(broker, tmp_path, game, ("RF",), reveal_timeout=5.0) as a,
            Peer(broker, game, "WR") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            await until(lambda: "WR" in a.link.game.pins.keys, "the peer's key pinned")
            withheld = Secret.draw(2, 6)
            await peer.send("dice", "commit", ply=0, xid="x1", hash=withheld.commitment)
            await until(lambda: bool(peer.got("reveal")), "the board's reveal")
            await until(lambda: bool(a.said("remote-abandoned")), "the game abandoned", 15)
            assert "WR withheld its dice reveal" in a.said("remote-abandoned")[0]
            assert any("waiting for WR's reveal" in line for line in a.said("remote-dice"))
            await settle()
            store = GameStore(a.config.database)  # read as `reedboard history` does
            assert store.unfinished(game) is None  # ended
            assert [g.status for g in store.games()] == ["abandoned by WR"]
            (game_id,) = [g.id for g in store.games()]
            kept = [(kind, text) for _, kind, text in store.notes(game_id)]
            assert ("remote-abandoned", a.said("remote-abandoned")[0][18:]) in kept
            assert any(k == "remote-dice" and "waiting for WR's reveal" in t for k, t in kept)
            # and no exchange is made after it
            await peer.send("dice", "commit", ply=0, xid="x3", hash=withheld.commitment)
            await settle()
            assert not any(r["xid"] == "x3" for r in peer.got("reveal"))
            assert a.moves == []

    asyncio.run(main())


@pytest.mark.broker_down
def test_the_broker_killed_and_restarted_mid_game(broker: Mosquitto, tmp_path: Path) -> None:
    async def main() -> None:
        async with boards(broker, tmp_path, GAME, (("fox",), ("geese",))) as (a, b):
            for _ in range(4):
                await play_ply(a, b, quick_end)
            broker.kill()
            await until(lambda: not a.link.connected and not b.link.connected, "both cut off")
            # a move made while the broker is down is committed here and sent once it is back
            mover, other = (a, b) if str(a.session.position.turn) in a.seats else (b, a)
            ply = len(mover.moves)
            before = mover.session.position.copy()
            move = quick_end(before)
            console = mover.daemon.console
            assert console is not None
            plan = console.plan(f"move {move}")
            assert not isinstance(plan, str) and plan is not None
            await console.perform(plan)
            assert mover.moves[ply] == str(move) and len(other.moves) == ply
            await asyncio.sleep(1.0)
            broker.start()
            await until(lambda: a.link.connected and b.link.connected, "both back", 40)
            await until(lambda: other.session.state is SessionState.CARRYING_OUT, "the move lit")
            await other.hand(before, move)
            await until(lambda: other.session.state is SessionState.PLAYING, "carried out")
            while not a.session.position.is_over():
                await play_ply(a, b, quick_end)
            await until(lambda: b.session.position.is_over(), "the end on both")
            check_same_game(a, b)
            assert a.said("remote-link") and b.said("remote-link")

    asyncio.run(main())


class Process:
    """``reedboard run`` in a process of its own on the simulated board, its console on
    standard input, and every line it prints kept."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "reedboard",
            "run",
            "--config",
            str(self.config),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=self.config.parent,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def said(self, kind: str) -> list[str]:
        return [line[len(kind) + 2 :] for line in self.lines if line.startswith(f"{kind}: ")]

    async def send(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(f"{line}\n".encode())
        await self.proc.stdin.drain()

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no goodbye to the broker, no store closed
        await self.proc.wait()
        if self._reader is not None:
            await self._reader

    async def close(self) -> int:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        code = await asyncio.wait_for(self.proc.wait(), 20)
        if self._reader is not None:
            await self._reader
        return code


def test_a_daemon_killed_with_sigkill_and_restarted_resyncs(
    broker: Mosquitto, tmp_path: Path
) -> None:
    config = tmp_path / "geese.toml"
    config.write_text(
        f'game = "{GAME}"\ndatabase = "geese.sqlite3"\n[timing]\nsettle_ms = 30\nhold_ms = 300\n'
        f'[remote]\nbroker = "{broker.url}"\nmatch = "m1"\nseats = ["geese"]\nkeepalive = 1\n'
    )

    async def main() -> None:
        async with one_board(broker, tmp_path, GAME, ("fox",)) as a:
            b = Process(config)

            async def fox_moves() -> tuple[Any, Any]:
                before = a.session.position.copy()
                move = quick_end(before)
                console = a.daemon.console
                assert console is not None
                plan = console.plan(f"move {move}")
                assert not isinstance(plan, str) and plan is not None
                await console.perform(plan)
                return before, move

            async def carried_out_on_b(before: Any, move: Any) -> None:
                await until(lambda: f"{move} (remote)" in b.said("carry-out"), f"{move} lit on b")
                hands = Hands(random.Random(1), bounce=0.0, gap=(0.05, 0.05))
                play_move(hands, before, move, True)
                for line in hands.lines:
                    await b.send(f"{'place' if line['on'] else 'lift'} {line['point']}")
                await until(lambda: str(move) in b.said("carried-out"), f"{move} done on b")

            async def geese_move() -> None:
                before = a.session.position.copy()
                move = quick_end(before)
                await b.send(f"move {move}")
                await until(
                    lambda: a.session.state is SessionState.CARRYING_OUT, f"{move} lit on a"
                )
                await a.hand(before, move)
                await until(lambda: a.session.state is not SessionState.CARRYING_OUT, "carried out")

            await b.start()
            await until(lambda: bool(a.said("remote-online")), "b online", 20)
            for _ in range(2):
                await carried_out_on_b(*await fox_moves())
                await geese_move()
            first_run = list(b.lines)
            await b.kill()
            await until(lambda: bool(a.said("remote-offline")), "b's last will", 15)
            before, move = await fox_moves()  # made while b is down
            assert len(a.moves) == 5
            b = Process(config)  # the same config and store
            await b.start()
            await until(lambda: bool(b.said("resumed")), "b resumed from its store", 20)
            await carried_out_on_b(before, move)
            while not a.session.position.is_over():
                if str(a.session.position.turn) == "fox":
                    await carried_out_on_b(*await fox_moves())
                else:
                    await geese_move()
            await until(lambda: bool(b.said("game-over")), "the end on b")
            assert await b.close() == 0
            run1 = [line[6:] for line in first_run if line.startswith("move: ")]
            assert run1 + b.said("move") == a.moves  # nothing lost, nothing twice
            assert b.said("resumed") == ["game 1, 4 moves"]
            assert len(a.said("remote-online")) == 2
            assert not b.said("remote-refused") and not refusals(a)

    asyncio.run(main())


def test_the_other_boards_side_moved_here_is_not_sent_and_undone_here(
    broker: Mosquitto, tmp_path: Path
) -> None:
    async def main() -> None:
        async with (
            one_board(broker, tmp_path, GAME, ("fox",)) as a,
            Peer(broker, GAME, "geese") as peer,
        ):
            await until(lambda: a.link.connected, "connected")
            console = a.daemon.console
            assert console is not None
            for _ in range(2):  # the fox's move, then a goose's made on the fox's board
                position = a.session.position.copy()
                plan = console.plan(f"move {sorted(position.legal_moves, key=str)[0]}")
                assert plan is not None and not isinstance(plan, str), plan
                await console.perform(plan)
            await until(lambda: bool(a.said("remote-seat")), "told it is the other board's")
            assert "geese's move, played on the other board: press undo" in a.said("remote-seat")[0]
            await settle()
            assert [m["ply"] for m in peer.got("move")] == [0]  # the goose's move was not sent
            assert all(len(m["moves"]) <= 1 for m in peer.got("state"))
            a.daemon.board.press("undo")  # undone here alone, not asked of the other board
            await until(lambda: a.session.state is SessionState.RESTORING, "restoring")
            assert not peer.got("takeback") and len(a.moves) == 1
            await put_back(a)
            # the other board's own goose move then comes and is played as ever
            position = a.session.position.copy()
            goose = sorted(position.legal_moves, key=str)[-1]
            after = position.copy(stack=False)
            after.push(goose)
            await peer.send(
                "moves", "move", ply=1, move=str(goose), after=after.to_text(), seat="geese"
            )
            await until(lambda: a.session.state is SessionState.CARRYING_OUT, "the goose lit")
            await a.hand(position, goose)
            await until(lambda: a.session.state is SessionState.PLAYING, "carried out")
            assert len(a.moves) == 2 and a.moves[1] == str(goose) and not refusals(a)

    asyncio.run(main())
