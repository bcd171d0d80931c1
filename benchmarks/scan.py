"""CPU cost of scanning the reed-switch matrix through gpiozero (its MockFactory here).

Prints, for the 33-hole board (6x6 matrix) and the 81-circle board (9x9):
- CPU time per scan, from a tight loop of scans;
- the share of one core when the scanner thread runs at 100 Hz for a few seconds (thread
  wake-ups included). Goal: under 2 % for 33 points on the development machine.

Run: .venv/bin/python benchmarks/scan.py [--seconds S]
"""

from __future__ import annotations

import argparse
import time

from gpiozero.pins.mock import MockFactory

from reedboard.hardware.matrix import MatrixScanner
from reedboard.wiring.layout import load_layout

GPIO = [f"GPIO{n}" for n in range(2, 28)]


def scanner_for(layout_name: str, factory: MockFactory) -> MatrixScanner:
    layout = load_layout(layout_name)
    nrows, ncols = layout.matrix
    return MatrixScanner(
        GPIO[:nrows],
        GPIO[nrows : nrows + ncols],
        layout.switch_map(),
        lambda *_: None,
        pin_factory=factory,
        scan_hz=100,
    )


def per_scan(scanner: MatrixScanner, scans: int = 5000) -> float:
    t0 = time.process_time()
    for _ in range(scans):
        scanner.scan_once()
    return (time.process_time() - t0) / scans


def share_at_100hz(scanner: MatrixScanner, seconds: float) -> tuple[float, float]:
    before = scanner.scans
    c0, w0 = time.process_time(), time.perf_counter()
    scanner.start()
    time.sleep(seconds)
    scanner.close()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return cpu / wall, (scanner.scans - before) / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of the 100 Hz run")
    args = parser.parse_args()
    print(f"{'board':8} {'points':>6} {'CPU/scan':>10} {'share@100Hz':>12} {'scans/s':>8}")
    for name in ("cross33", "brier9"):
        factory = MockFactory()
        scanner = scanner_for(name, factory)
        cost = per_scan(scanner)
        share, rate = share_at_100hz(scanner, args.seconds)
        points = len(load_layout(name).points)
        goal = "  (goal < 2 %)" if name == "cross33" else ""
        print(f"{name:8} {points:>6} {cost * 1e6:>8.1f}us {share * 100:>11.2f}% {rate:>8.1f}{goal}")
        factory.reset()


if __name__ == "__main__":
    main()
