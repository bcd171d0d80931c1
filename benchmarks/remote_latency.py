"""Board-to-board latency through an MQTT broker on loopback: a move committed on one board to
the other board's LEDs lit for it.

Two daemons (reedboard/daemon/core.py, each with its game store on disk as a daemon keeps it) on
simulated boards play Fox and Geese against each other through a Mosquitto broker started
here on a free loopback port (or ``--broker mqtt://HOST:PORT``). Each move is made by a hand
on the mover's board; the clock runs from the mover's referee committing it (the
``MoveCommitted`` event's time) until the other board's LEDs show it lit blue (the frame its
driver is handed, after that board's store has made the move durable). Each game is a new
match; random legal moves, games up to ``--plies`` plies, until ``--moves`` are measured.

The path measured: the mover's store (fsync) -> the link's publish (QoS 1) -> the broker ->
the other link -> its engine's checks -> the referee's remote move -> its store (fsync) ->
the LED frame.

Run: .venv/bin/python benchmarks/remote_latency.py [--moves N] [--broker URL] [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reedboard.daemon.config import Config, WebSettings
from reedboard.daemon.core import Daemon
from reedboard.daemon.remote.link import RemoteLink
from reedboard.daemon.remote.settings import from_values
from reedboard.hardware.lights import BLUE
from reedboard.referee.events import GameEvent, MoveCommitted
from reedboard.referee.session import SessionState
from reedboard.sim.tracegen import Hands, lookalikes, play_move

GAME = "fox-and-geese"
PACE = 0.02


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def mosquitto(folder: Path) -> Any:
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(exe).exists():
        sys.exit("mosquitto is not installed (apt install mosquitto), or give --broker URL")
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
        "set_tcp_nodelay true\n"  # as docs/remote.md's broker config: no 40 ms Nagle waits
    )
    proc = subprocess.Popen([exe, "-c", str(conf)], stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.05)
        yield f"mqtt://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


class Board:
    def __init__(self, folder: Path, url: str, match: str, seat: str) -> None:
        remote = from_values({"broker": url, "match": match, "seats": seat})
        config = Config(
            game=GAME,
            database=folder / f"{match}-{seat}.sqlite3",
            settle=0.03,
            hold=0.3,
            remote=remote,
            web=WebSettings(enabled=False),  # two boards in one process: no page (port 8080)
        )
        self.said: list[str] = []
        self.daemon = Daemon(config, out=self.said.append)
        assert self.daemon.console is not None
        self.daemon.console.pace = PACE
        self.seat = seat
        self.lit: list[tuple[float, int]] = []  # (when, plies) each frame with blue lights
        board = self.daemon.board
        show = board.show

        def shown(frame: Any) -> None:
            show(frame)
            if any(light.colour == BLUE for light in frame.values()):
                self.lit.append((time.monotonic(), len(self.daemon.session.position.move_stack)))

        board.show = shown  # type: ignore[method-assign]
        self.committed: dict[int, float] = {}

        def heard(event: GameEvent) -> None:
            if isinstance(event, MoveCommitted) and event.source == "board":
                self.committed[event.ply] = event.t

        self.daemon.session.events.subscribe(heard)
        self.task: asyncio.Task[None] | None = None
        # the split: when this board handed each of its moves to the link, and when each of
        # the other board's moves arrived here
        self.sent: dict[int, float] = {}
        self.arrived: dict[int, float] = {}
        game = self.link.game
        send, receive = game.send, game.receive

        def sending(where: str, message: dict[str, Any], retain: bool) -> None:
            if message["kind"] == "move":
                self.sent[message["ply"]] = time.monotonic()
            send(where, message, retain)

        def receiving(message: dict[str, Any]) -> None:
            if message["kind"] == "move" and message["sender"] != game.me:
                self.arrived.setdefault(message["ply"], time.monotonic())
            receive(message)

        game.send = sending
        game.receive = receiving  # type: ignore[method-assign]

    @property
    def link(self) -> RemoteLink:
        assert isinstance(self.daemon.remote, RemoteLink)
        return self.daemon.remote


async def until(test: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise TimeoutError("the boards did not get there in time")
        await asyncio.sleep(0.005)


async def one_game(
    folder: Path, url: str, match: str, rng: random.Random, plies: int
) -> list[float]:
    fox, geese = Board(folder, url, match, "fox"), Board(folder, url, match, "geese")
    for b in (fox, geese):
        b.task = asyncio.create_task(b.daemon.run())
    out: list[float] = []
    try:
        await until(lambda: fox.link.connected and geese.link.connected)
        for ply in range(plies):
            position = fox.daemon.session.position.copy()
            if position.is_over():
                break
            mover, other = (fox, geese) if position.turn == "fox" else (geese, fox)
            # moves the switches cannot tell from another (a loop carried straight) are asked
            # about on the board: left out, they would time the players' answer
            plain = [m for m in position.legal_moves if len(lookalikes(position, m)) <= 1]
            move = rng.choice(sorted(plain or position.legal_moves, key=str))
            console = mover.daemon.console
            assert console is not None
            plan = console.plan(f"move {move}")
            assert plan is not None and not isinstance(plan, str), plan
            await console.perform(plan)
            await until(lambda o=other: o.daemon.session.state is SessionState.CARRYING_OUT)
            await until(lambda o=other, p=ply: any(n > p for _, n in o.lit))
            lit = next(t for t, n in other.lit if n > ply)
            out.append((lit - mover.committed[ply]) * 1000)
            SPLIT["store, then the link"].append((mover.sent[ply] - mover.committed[ply]) * 1000)
            SPLIT["through the broker"].append((other.arrived[ply] - mover.sent[ply]) * 1000)
            SPLIT["checked, played, stored, lit"].append((lit - other.arrived[ply]) * 1000)
            hands = Hands(random.Random(0), bounce=0.0, gap=(PACE, PACE))
            play_move(hands, position, move, True)
            for line in hands.lines:
                await asyncio.sleep(PACE)
                board = other.daemon.board
                (board.place if line["on"] else board.lift)(line["point"])  # type: ignore[attr-defined]
            await until(lambda o=other: o.daemon.session.state is not SessionState.CARRYING_OUT)
    except TimeoutError:
        for b in (fox, geese):
            print(f"{b.seat} said:", *b.said[-12:], sep="\n  ", file=sys.stderr)
        raise
    finally:
        for b in (fox, geese):
            b.daemon.stop.set()
            if b.task is not None:
                await b.task
    return out


SPLIT: dict[str, list[float]] = {
    "store, then the link": [],
    "through the broker": [],
    "checked, played, stored, lit": [],
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(args: argparse.Namespace, url: str, folder: Path) -> list[float]:
    rng = random.Random(args.seed)
    samples: list[float] = []
    game = 0
    while len(samples) < args.moves:
        game += 1
        samples += await one_game(folder, url, f"bench-{args.seed}-{game}", rng, args.plies)
    return samples[: args.moves]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves measured (default 200)")
    parser.add_argument("--plies", type=int, default=60, help="plies a game at most (60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--broker", help="an existing broker, mqtt://HOST:PORT (default: ours)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reedboard-remote-") as tmp:
        folder = Path(tmp)
        with contextlib.ExitStack() as stack:
            url = args.broker or stack.enter_context(mosquitto(folder))
            samples = asyncio.run(run(args, url, folder))
    print(f"{len(samples)} moves, committed on one board to lit on the other, via {GAME}:")
    print(
        f"  p50 {statistics.median(samples):.2f} ms, p99 {percentile(samples, 0.99):.2f} ms,"
        f" max {max(samples):.2f} ms (min {min(samples):.2f} ms)"
    )
    for part, times in SPLIT.items():
        times = times[: len(samples)]
        p50, p99 = statistics.median(times), percentile(times, 0.99)
        print(f"  {part}: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
