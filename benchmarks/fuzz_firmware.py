"""A million random and damaged lines through the firmware's loop under MicroPython's Unix port
(firmware/fuzz.py, in parallel runs of 100,000 with seeds 1..N): no exception may reach the
loop's safety net, nothing it writes may be misframed, and it must still answer afterwards.

Run: .venv/bin/python benchmarks/fuzz_firmware.py [--lines 1000000] [--interpreter cpython]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from reedboard.bridge.simulator import FIRMWARE, micropython

CHUNK = 100_000


def run(interpreter: str, seed: int, lines: int) -> dict[str, int]:
    done = subprocess.run(
        [interpreter, "fuzz.py", str(seed), str(lines)],
        cwd=FIRMWARE,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(f"seed {seed}: the fuzz run itself failed:\n{done.stderr}", file=sys.stderr)
        return {"lines": lines, "alive": 0, "crashed": 1}
    words = done.stdout.split()
    return {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--interpreter", choices=["micropython", "cpython"], default="micropython")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    path = micropython() if args.interpreter == "micropython" else sys.executable
    chunks = [min(CHUNK, args.lines - k) for k in range(0, args.lines, CHUNK)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda s: run(path, s[0] + 1, s[1]), enumerate(chunks)))
    took = time.perf_counter() - t0
    total = {k: sum(r.get(k, 0) for r in results) for k in results[0]}
    print(f"{args.interpreter}: {total['lines']:,} lines in {len(chunks)} runs, {took:.0f} s")
    print(f"  rejected by the check   {total.get('rejected', 0):>9,}")
    print(f"  good (carried out or X) {total.get('good', 0):>9,}")
    out, misframed = total.get("out", 0), total.get("misframed", 0)
    print(f"  lines written           {out:>9,}   misframed {misframed}")
    print(f"  exceptions in the loop  {total.get('faults', 0):>9,}   (goal 0)")
    alive = sum(r.get("alive", 0) for r in results)
    print(f"  runs alive at the end   {alive} of {len(chunks)}")


if __name__ == "__main__":
    main()
