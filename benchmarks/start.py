"""How long a command takes to start: ``reedboard --help`` and ``reedboard games`` against a bare
``python -c pass`` (the floor every Python program pays), wall time of whole processes, the
median of ``--runs`` runs each (interleaved, so the shared machine's load falls on all alike).

    python benchmarks/start.py [--runs 30]

The target (docs/benchmarks.md): each command within 2x the bare start.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def commands() -> dict[str, list[str]]:
    script = shutil.which("reedboard") or str(Path(sys.executable).parent / "reedboard")
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "reedboard --help": [script, "--help"],
        "reedboard games": [script, "games"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    cmds = commands()
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(args.runs):
        for name, argv in cmds.items():
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - t0)
    floor = statistics.median(times["python -c pass"])
    print(f"runs: {args.runs} each, wall time, median (min-max)")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(
            f"{name:20} {med * 1000:6.1f} ms ({min(ts) * 1000:.1f}-{max(ts) * 1000:.1f})"
            f"  {med / floor:4.2f}x bare"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
