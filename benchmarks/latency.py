"""Compute time from a switch change to the LED frame, the whole pipeline in process.

Random games of every game are played on the simulated board as traces (random orders,
bounce). For each settled reading the clock runs from the session taking the switch event
to the LED frame handed to the board (recognition, engine, store in memory, LED policy);
the deliberate 60 ms settle wait is not compute and is not counted.
Goal: p99 under 1 ms on the development machine (the Pi's budget is 10x that).

Run: .venv/bin/python benchmarks/latency.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from controller.dice import ScriptedDice
from controller.session import Session
from controller.store import GameStore
from controller.tracegen import random_game_trace
from hardware.board_io import ButtonEvent, SensorEvent
from hardware.simulated import SimulatedBoard
from wiring.layout import layout_for_game


def measure(game_id: str, games: int) -> list[float]:
    samples: list[float] = []
    for i in range(games):
        trace, _ = random_game_trace(engine.start(game_id), random.Random(f"lat{i}"), 80)
        layout = layout_for_game(game_id)
        board = SimulatedBoard(layout, trace.occupied)
        dice = ScriptedDice()
        store = GameStore(":memory:")
        session = Session(board, layout, game_id, store=store, dice=dice)
        session.start(0.0)
        for line in trace.lines:
            t = float(line["t"])
            while (due := session.next_deadline()) is not None and due <= t:
                session.poll(due)
            if "dice" in line:
                dice.feed(line["dice"])
                continue
            event = (
                SensorEvent(line["point"], line["on"], t)
                if "point" in line
                else ButtonEvent(line["button"], t)
            )
            t0 = time.perf_counter()
            session.on_event(event, t)
            if isinstance(event, SensorEvent):
                session.poll(t + session.settle)  # the settled judgement and the frame
            samples.append(time.perf_counter() - t0)
        store.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game")
    args = parser.parse_args()
    every: list[float] = []
    print(f"{'game':26} {'events':>7} {'p50':>9} {'p99':>9} {'max':>9}")
    for game_id in [g for g in engine.game_ids() if engine.game(g).sensed]:
        s = measure(game_id, args.games)
        every += s
        q = statistics.quantiles(s, n=100)
        print(
            f"{game_id:26} {len(s):>7} {q[49] * 1e3:>7.3f}ms {q[98] * 1e3:>7.3f}ms"
            f" {max(s) * 1e3:>7.3f}ms"
        )
    q = statistics.quantiles(every, n=100)
    print(
        f"{'all':26} {len(every):>7} {q[49] * 1e3:>7.3f}ms {q[98] * 1e3:>7.3f}ms"
        f" {max(every) * 1e3:>7.3f}ms   (goal: p99 < 1 ms)"
    )


if __name__ == "__main__":
    main()
