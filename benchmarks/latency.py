"""Compute time per switch change, the whole pipeline in process, with the store on disk.

Random games of every sensed game are played on the simulated board as traces (random
orders, bounce). For each event the clock runs from the session taking it until the loop is
free again: recognition, engine, handing the move to the game store, LED policy. The store
is on disk as the daemon keeps it (SQLite, WAL, synchronous=FULL, written by the daemon's
writer thread, reedboard/store/writer.py), one file for the whole run as the daemon keeps one for
all its games; by default it is made beside the daemon's own store (same file system), and
removed after. A committed move is said and lit only once its fsync is done: that time, from
the switch change to the announcement, is printed too (it is the disk's, not compute).
The deliberate 60 ms settle wait is not counted.
Goal: loop p99 under 1 ms on the development machine (the Pi's budget is 10x that).

Run: .venv/bin/python benchmarks/latency.py [--games N] [--store disk|memory|none] [--dir D]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from reedboard import engine
from reedboard.hardware.simulated import SimulatedBoard
from reedboard.referee.dice import ScriptedDice
from reedboard.referee.session import Session
from reedboard.sim.runner import Clock, Runner
from reedboard.sim.tracegen import random_game_trace
from reedboard.store.games import GameStore, default_path
from reedboard.store.writer import StoreWriter
from reedboard.wiring.layout import layout_for_game


class Samples:
    def __init__(self) -> None:
        self.wall: list[float] = []
        """Each event's time to its frame, as the clock on the wall sees it."""
        self.cpu: list[float] = []
        """The same in this thread's CPU time (no waiting on the disk, no other processes)."""
        self.commits: list[float] = []
        """The wall times of the events that committed a move (or a throw)."""
        self.announced: list[float] = []
        """For those: the time until the move was durable, said and lit."""

    def __iadd__(self, other: Samples) -> Samples:
        self.wall += other.wall
        self.cpu += other.cpu
        self.commits += other.commits
        self.announced += other.announced
        return self


def measure(game_id: str, games: int, store: GameStore | StoreWriter | None) -> Samples:
    """Every event's compute time, and those of the events that committed a move."""
    out = Samples()
    layout = layout_for_game(game_id)
    traces = [
        random_game_trace(engine.start(game_id), random.Random(f"lat{i}"), 80)[0]
        for i in range(games)
    ]
    gc.collect()  # the trace generator's garbage is not the pipeline's: collect it first
    for trace in traces:
        clock = Clock()
        board = SimulatedBoard(layout, trace.occupied, clock=clock)
        dice = ScriptedDice()
        session = Session(board, layout, game_id, store=store, dice=dice)
        session.start(0.0, engine.start(game_id))  # a new game, not the store's last one
        runner = Runner(session, board, clock, dice)
        for line in trace.lines:
            t = float(line["t"])
            runner.advance(t)
            if "dice" in line:
                runner.feed(line)
                continue
            plies = len(session.position.move_stack)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            runner.feed(line)  # through the board, as a driver sends it
            if "point" in line:
                session.poll(t + session.settle)  # the settled judgement and the frame
            took = time.perf_counter() - t0
            out.cpu.append(time.thread_time() - c0)
            out.wall.append(took)
            if isinstance(store, StoreWriter) and store.saving:  # the disk, off the loop
                store.wait()
                session.flush(t + session.settle)
                if len(session.position.move_stack) != plies:
                    out.announced.append(time.perf_counter() - t0)
            if len(session.position.move_stack) != plies:
                out.commits.append(took)
    return out


def file_system(path: Path) -> str:
    """The file system type and device holding ``path`` (from /proc/mounts), if known."""
    best = ("", "unknown", "")
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                device, mount, kind = line.split()[:3]
                if str(path).startswith(mount.rstrip("/") + "/") and len(mount) >= len(best[0]):
                    best = (mount, kind, device)
    except OSError:
        pass
    return f"{best[1]} on {best[2]}" if best[2] else best[1]


def quantiles(s: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max, in milliseconds."""
    if len(s) < 2:
        return (s[0] * 1e3,) * 3 if s else (0.0, 0.0, 0.0)
    q = statistics.quantiles(s, n=100)
    return (q[49] * 1e3, q[98] * 1e3, max(s) * 1e3)


def figures(s: list[float]) -> str:
    return " ".join(f"{v:>7.3f}ms" for v in quantiles(s))


def fsync_cost(directory: Path, n: int = 200) -> str:
    """What the disk under ``directory`` takes to make 4 KB durable (write and fdatasync,
    over the same block as SQLite's WAL does once it is reused): p50 / p99, in ms."""
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        block = b"\0" * 4096
        took = []
        for i in range(n):
            t0 = time.perf_counter()
            os.pwrite(fd, block, (i % 16) * 4096)
            os.fdatasync(fd)
            took.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
        path.unlink()
    p50, p99, _ = quantiles(took)
    return f"p50 {p50:.3f} ms, p99 {p99:.3f} ms"


def open_store(
    kind: str, where: Path | None
) -> tuple[GameStore | StoreWriter | None, str, Path | None]:
    """The store the benchmark writes to, a line saying what it is, and a directory to
    remove afterwards."""
    if kind == "memory":
        return GameStore(":memory:"), "memory: SQLite :memory: (no file, nothing fsync'd)", None
    if kind == "none":
        return None, "none: no game store", None
    parent = where or default_path().parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="latency-", dir=parent))
    path = tmp / "games.sqlite3"
    store = GameStore(path)
    mode = store.pragma("journal_mode")
    sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(int(store.pragma("synchronous")))
    line = (
        f"disk: {path} ({file_system(path.resolve())}), journal_mode={mode},"
        f" synchronous={sync}, written off the loop; 4 KB write+fdatasync there:"
        f" {fsync_cost(tmp)}"
    )
    return StoreWriter(store), line, tmp


def run(args: argparse.Namespace, show: bool) -> tuple[float, ...]:
    """One run over every sensed game; returns the p50, p99 and max of all its events, then
    the p50 and p99 of the commits' time until said and lit."""
    store, line, tmp = open_store(args.store, args.dir)
    print(f"store {line}")
    every = Samples()
    if show:
        print(f"{'game':26} {'events':>7} {'p50':>9} {'p99':>9} {'max':>9}")
    try:
        for game_id in [g for g in engine.game_ids() if engine.game(g).sensed]:
            s = measure(game_id, args.games, store)
            every += s
            if show:
                print(f"{game_id:26} {len(s.wall):>7} {figures(s.wall)}")
        if tmp is not None:
            print(f"      after the run, 4 KB write+fdatasync: {fsync_cost(tmp)}")
    finally:
        if store is not None:
            store.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'commits (all games)':26} {len(every.commits):>7} {figures(every.commits)}")
    if every.announced:
        print(
            f"{'  until said+lit (disk)':26} {len(every.announced):>7}"
            f" {figures(every.announced)}   (includes the fsync)"
        )
    print(f"{'all, CPU time only':26} {len(every.cpu):>7} {figures(every.cpu)}")
    print(f"{'all':26} {len(every.wall):>7} {figures(every.wall)}   (goal: p99 < 1 ms)")
    return quantiles(every.wall) + quantiles(every.announced)[:2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game")
    parser.add_argument(
        "--store",
        choices=("disk", "memory", "none"),
        default="disk",
        help="disk (default, as the daemon), an in-memory SQLite, or no store",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="where to make the on-disk store (default: beside the daemon's store)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="repeat the whole run; print each and the median"
    )
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.games} games a game")
    results = []
    for i in range(args.runs):
        if args.runs > 1:
            print(f"-- run {i + 1} of {args.runs}")
        results.append(run(args, show=args.runs == 1))
    if args.runs > 1:
        p50, p99, worst, said50, said99 = (
            statistics.median(r[k] for r in results) for k in range(5)
        )
        print(
            f"median of {args.runs} runs: p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {worst:.3f} ms"
            "   (goal: p99 < 1 ms)"
        )
        if args.store == "disk":
            print(
                f"  a commit until said and lit (with its fsync): p50 {said50:.3f} ms,"
                f" p99 {said99:.3f} ms"
            )


if __name__ == "__main__":
    main()
