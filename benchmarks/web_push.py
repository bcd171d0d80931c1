"""Push latency of the web view: from a committed move to a browser's websocket.

A daemon on the simulated board (its game store on disk, as ``reedboard run`` keeps it) runs
on a thread of its own with its web view on a loopback port; a websocket client, as the page
is, plays random Peg Solitaire games through it (lift the jumping peg, place it, lift the
jumped one: each a click's action) and times each move's state message. The time starts
when the move is committed: the referee's event bus delivers it to its listeners once the
store has made it durable (reedboard/referee/events.py). ``publish`` is also shown: from the
referee publishing the move (the store hears it, before its fsync) to the page.

Run: .venv/bin/python benchmarks/web_push.py [--moves N] [--runs N] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("REEDBOARD_SOLITAIRE_SOLVER", "off")  # no winning set built for this

import aiohttp

from reedboard import engine
from reedboard.daemon.config import Config, WebSettings
from reedboard.daemon.core import Daemon
from reedboard.daemon.extension import Extension, Host
from reedboard.referee.events import GameEvent, MoveCommitted


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Timed:
    """The daemon, with the times each ply was published and delivered."""

    def __init__(self, folder: Path) -> None:
        config = replace(
            Config(game="solitaire", database=folder / "games.sqlite3"),
            web=WebSettings(port=0),
        )
        self.lines: list[str] = []
        self.daemon = Daemon(config, out=self.lines.append)
        self.published: dict[tuple[int, int], float] = {}
        self.delivered: dict[tuple[int, int], float] = {}
        self.games = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self.daemon.run())

    def listen(self) -> None:
        """Time the session's moves (again after each new game: a new session)."""
        self.games += 1
        game = self.games

        def first(event: GameEvent) -> None:
            if isinstance(event, MoveCommitted):
                self.published[(game, event.ply)] = time.perf_counter()

        def rest(event: GameEvent) -> None:
            if isinstance(event, MoveCommitted):
                self.delivered[(game, event.ply)] = time.perf_counter()

        self.daemon.session.events.subscribe(first, first=True)
        self.daemon.session.events.subscribe(rest)

    def start(self) -> str:
        self.daemon.extensions.append(_Switched(self.listen))
        self.listen()
        self.thread.start()
        while not any(line.startswith("web view: ") for line in self.lines):
            time.sleep(0.01)
        return next(line for line in self.lines if line.startswith("web view: "))[10:]

    def stop(self) -> None:
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(10)


class _Switched(Extension):
    """Told when the web view's picker put a new session in place."""

    def __init__(self, then: Callable[[], None]) -> None:
        self.then = then

    def switched(self, daemon: Host) -> None:
        self.then()


async def play(url: str, timed: Timed, moves: int, rng: random.Random) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    state: dict[str, Any] = {}
    async with aiohttp.ClientSession() as s, s.ws_connect(url + "ws") as ws:

        async def until(done: Any) -> None:
            nonlocal state
            while not (state and done(state)):
                msg = await ws.receive(timeout=10)
                data = json.loads(msg.data)
                if data["type"] == "refused":
                    raise RuntimeError(data["text"])
                if data["type"] == "state":
                    state = data
                    if state["moves"]:
                        key = (timed.games, len(state["moves"]) - 1)
                        if key not in received:
                            received[key] = time.perf_counter()

        async def send(**action: Any) -> None:
            tokens = {"version": state["version"], "board_seq": state["board_seq"]}
            await ws.send_str(json.dumps(tokens | action))

        received: dict[tuple[int, int], float] = {}
        await until(lambda st: True)
        while len(out) < moves:
            position = engine.game("solitaire").from_text(state["position"])
            if position.is_over():
                await send(**{"do": "new-game", "game": "solitaire"})
                await until(lambda st: not st["moves"])
                continue
            move = rng.choice(list(position.legal_moves))
            route = move.routes()[0]
            start, landing = str(route[0]), str(route[-1])
            after = position.copy()
            after.push(move)
            (over,) = (position.occupied() - after.occupied()) - {start}
            plies = len(state["moves"])
            for do, point in (("lift", start), ("place", landing), ("lift", over)):
                seq = state["board_seq"]
                await send(do=do, point=point)
                await until(lambda st, seq=seq: st["board_seq"] > seq)
            await until(lambda st, plies=plies: len(st["moves"]) > plies)
            key = (timed.games, plies)
            for _ in range(100):  # the commit's own timestamps are taken on the daemon's thread
                if key in timed.delivered:
                    break
                await asyncio.sleep(0.001)
            out.append((received[key] - timed.delivered[key], received[key] - timed.published[key]))
    return out


def one_run(moves: int, seed: int) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        timed = Timed(Path(folder))
        url = timed.start()
        try:
            pairs = asyncio.run(play(url, timed, moves, random.Random(seed)))
        finally:
            timed.stop()
    return [p[0] * 1000 for p in pairs], [p[1] * 1000 for p in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    p99s = []
    for run in range(args.runs):
        committed, published = one_run(args.moves, args.seed + run)
        p99 = percentile(committed, 0.99)
        p99s.append(p99)
        print(
            f"run {run + 1}: {len(committed)} moves; committed -> page p50"
            f" {statistics.median(committed):.2f} ms, p99 {p99:.2f} ms, worst"
            f" {max(committed):.2f} ms; published (before the fsync) -> page p50"
            f" {statistics.median(published):.2f} ms, p99 {percentile(published, 0.99):.2f} ms",
            flush=True,
        )
    print(f"median p99 over {args.runs} runs: {statistics.median(p99s):.2f} ms (goal: under 50 ms)")


if __name__ == "__main__":
    main()
