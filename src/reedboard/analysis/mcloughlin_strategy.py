"""The geese's winning strategy read off the exact solve's layers, written as the file the
engine ships (reedboard/engine/fox_and_geese/strategy.py has its format).

The C program walks the strategy breadth first from a position the geese win (every fox move,
one winning goose answer per position, a position met again not walked again) and writes one
record an answer; here the records become the shipped file. Why in C: each answer is chosen
among ~15 goose moves by the fox-to-move value of each, a jump chain's end read from a lower
layer, over millions of positions and 12 GB of layers mapped; the engine's Python moves would
take hours. docs/mcloughlin.md has the rules for choosing and the sizes.

Run: ``python -m reedboard.analysis.mcloughlin_strategy DIR OUT [--choose rear|fewest|first]
[--position TEXT] [-o fox_wins_at=N ...]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reedboard.analysis.mcloughlin import ExactError, rules_for, solver_program, variant_of
from reedboard.engine.fox_and_geese import strategy as shipped_format

CHOICES = ("rear", "fewest", "first")


@dataclass(frozen=True)
class Extracted:
    data: bytes
    """The strategy's file."""
    answers: int
    """Positions with the geese to move it answers."""
    fox_positions: int
    """Positions with the fox to move it reaches (the start and every answer's, once)."""
    deepest: int
    """The ply of the answers reached last, breadth first (the longest line, which may reach
    a position later than first, is the verifier's to measure)."""
    by_ply: dict[int, int]
    """Answers per ply (the first goose answer is ply 2)."""
    seconds: float
    """The C program's time."""


def extract(
    options: Mapping[str, object],
    folder: Path,
    position: str | None = None,
    choose: str = "rear",
) -> Extracted:
    """The geese's strategy from the start (or ``position``, fox to move) with ``options``
    (``fox_wins_at`` among them), from the layers solved in ``folder``."""
    if choose not in CHOICES:
        raise ExactError(f"--choose {choose}: one of {', '.join(CHOICES)}")
    variant, rest = variant_of(options)
    rules = rules_for(variant)
    start = rules.start(**rest) if position is None else rules.from_text(position, **rest)
    with tempfile.TemporaryDirectory(prefix="reedboard-strategy-") as tmp:
        out = Path(tmp) / "answers.rec"
        more = ["--choose", choose]
        done = subprocess.run(
            [str(solver_program()), "strategy", str(folder), str(out), *variant.args(), *more],
            input=start.to_text() + "\n",
            capture_output=True,
            text=True,
        )
        if done.returncode:
            last = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
            raise ExactError(last[0].removeprefix("error: "))
        records = array("Q")
        records.frombytes(out.read_bytes())
    words = done.stdout.split()
    summary = dict(zip(words[-8::2], words[-7::2], strict=True))
    geese_bits = (1 << 33) - 1
    entries = [
        ((r & geese_bits) << 6 | (r >> 33 & 63), r >> 39 & 63, r >> 45 & 63) for r in records
    ]
    by_ply = Counter(r >> 51 & 255 for r in records)
    data = shipped_format.write(shipped_format.rules_text(start), variant.win_at, entries)
    return Extracted(
        data,
        answers=len(entries),
        fox_positions=int(summary["fox-positions"]),
        deepest=int(summary["deepest"]),
        by_ply=dict(sorted(by_ply.items())),
        seconds=float(summary["seconds"]),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reedboard.analysis.mcloughlin_strategy",
        description="the geese's winning strategy from the exact solve's layers",
    )
    parser.add_argument("dir", type=Path, help="the folder of the solved layers")
    parser.add_argument("out", type=Path, help="the strategy file to write")
    parser.add_argument("--choose", default="rear", choices=CHOICES)
    parser.add_argument("--position", help="fox to move (the engine's text form)")
    parser.add_argument("-o", "--option", action="append", default=[], help="NAME=VALUE")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    try:
        got = extract(options, args.dir, args.position, args.choose)
    except ExactError as exc:
        print(f"reedboard: error: {exc}", file=sys.stderr)
        return 2
    args.out.write_bytes(got.data)
    print(
        f"{got.answers:,} answers, {got.fox_positions:,} fox-to-move positions, the last first"
        f" reached at ply {got.deepest}, {len(got.data):,} bytes, {got.seconds:.1f} s in C"
    )
    print("answers by ply: " + " ".join(f"{p}:{n}" for p, n in got.by_ply.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
