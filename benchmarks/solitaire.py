"""Peg Solitaire solved: the whole analysis's time and peak memory, and the hint's latency.

- analysis: `reedboard analyse solitaire` for a start and finish (the centre by default), each
  run in a fresh process so its peak resident memory is its own; prints the four counts (and
  whether they are the published ones), the wall time and the peak, then the median over runs;
- hints: the winning set opened from the cache (built first if missing: said), then a hint for
  each of N random positions reachable from the start (random jumps, stopped at a random
  ply): p50, p99 and the worst, in milliseconds. The goal is 10 ms at p99.

Run: .venv/bin/python benchmarks/solitaire.py [--runs 3] [--hints 10000] [-o start=H]
     [--skip-analysis] [--skip-hints]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time

from reedboard import engine
from reedboard.engine.solitaire import solver as solver
from reedboard.engine.solitaire.solved import WinningTable
from reedboard.referee import solved

PUBLISHED = {  # the English board from the centre (George Bell's counts)
    "reachable": 23_475_688,
    "winning": 1_679_072,
    "solutions": 40_861_647_040_079_968,
    "sequences": 577_116_156_815_309_849_672,
}

ONE_RUN = """
import json, resource, sys, time
from reedboard.engine.solitaire import solver as solver
started = time.perf_counter()
counts = solver.analyse({start}, {finish})
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "peak_mb": peak, "reachable": counts.reachable,
    "winning": counts.winning, "solutions": counts.solutions, "sequences": counts.sequences}}))
"""


def analysis(start: int, finish: int, runs: int) -> None:
    times, peaks = [], []
    for run in range(1, runs + 1):
        code = ONE_RUN.format(start=start, finish=finish)
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout
        result = json.loads(out)
        times.append(result["seconds"])
        peaks.append(result["peak_mb"])
        counts = {k: result[k] for k in PUBLISHED}
        known = ""
        if start == finish == 17:
            known = "  (the published counts)" if counts == PUBLISHED else "  (NOT the published)"
        print(
            f"run {run}: {result['seconds']:.1f} s, peak {result['peak_mb']:.0f} MB; "
            + ", ".join(f"{k} {v:,}" for k, v in counts.items())
            + known,
            flush=True,
        )
    print(
        f"analysis start {start} finish {finish}: median {statistics.median(times):.1f} s"
        f" (range {min(times):.1f}-{max(times):.1f}), peak memory median"
        f" {statistics.median(peaks):.0f} MB (max {max(peaks):.0f}) over {runs} runs"
    )


def hints(start: int, finish: int, count: int, seed: int) -> None:
    started = time.perf_counter()
    progress = solved.ProgressPrinter(sys.stderr, [("reachable", 1.0)])
    winning = solved.open_table(
        WinningTable(finish),
        build_missing=True,
        progress=progress,
        say=lambda t: print(t, flush=True),
    )
    progress.done()
    assert winning is not None
    first = winning.hint(engine.start("solitaire", start=start, finish=finish))
    if first is None:
        sys.exit("the start can be won but the winning set says not: a broken set")
    opened = time.perf_counter() - started
    print(f"winning set for finish {finish} opened (and checked) in {opened:.2f} s")
    rng = random.Random(seed)
    took: list[float] = []
    lost = 0
    for _ in range(count):
        position = engine.start("solitaire", start=start, finish=finish)
        for _ply in range(rng.randrange(0, 32)):
            moves = list(position.legal_moves)
            if not moves:
                break
            position.push(rng.choice(moves))
        t0 = time.perf_counter()
        move = winning.hint(position)
        took.append(time.perf_counter() - t0)
        lost += move is None
    took.sort()
    ms = [t * 1000 for t in took]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"hints over {count:,} random reachable positions ({lost:,} with none):"
        f" p50 {ms[len(ms) // 2]:.3f} ms, p99 {ms[int(len(ms) * 0.99)]:.3f} ms,"
        f" max {ms[-1]:.3f} ms (goal: p99 under 10 ms);"
        f" peak memory of this process {peak:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="analysis runs (median printed)")
    parser.add_argument("--hints", type=int, default=10_000, help="random positions to hint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--skip-analysis", action="store_true")
    parser.add_argument("--skip-hints", action="store_true")
    args = parser.parse_args()
    values = dict(pair.split("=", 1) for pair in args.option)
    options = engine.game("solitaire").options_from(values)
    start, finish = options.start, options.finish_hole
    solver.require_numpy()
    if not args.skip_analysis:
        analysis(start, finish, args.runs)
    if not args.skip_hints:
        hints(start, finish, args.hints, args.seed)


if __name__ == "__main__":
    main()
