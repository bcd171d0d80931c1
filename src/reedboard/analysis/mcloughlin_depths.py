"""The depths of McLoughlin's geese strategy: for each of its answers, how long the fox can make
the geese's win take from there (issue 30: "the fox at the top level resists longest").

A memoized walk of the strategy's tree with the engine's positions and moves, as the verifier
(mcloughlin_verify.py) walks it: an entry's depth is 1 when its answer ends the game, else 2
more than the deepest entry a fox move then leads to (the answer, the fox's move). Every entry
is walked from its own position, in key order, and an entry met again on a line is not walked
again; a fox move that leads out of the strategy or ends the game stops the walk (the
verifier's checks, again). The shipped strategy's 528,566 entries take about half a minute. The file
it writes, and how the fox plays it: reedboard/engine/fox_and_geese/strategy.py.

Run: ``python -m reedboard.analysis.mcloughlin_depths [STRATEGY] OUT`` (the shipped strategy
by default); it prints the deepest line from the start and the file's size.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.analysis.mcloughlin_verify import rules, start_of
from reedboard.engine.fox_and_geese.strategy import (
    Strategy,
    StrategyFileError,
    key_of,
    read,
    read_depths,
    shipped,
    write_depths,
)


class DepthError(engine.ReedboardError):
    """The strategy's tree cannot be walked (it is not a winning strategy): the message says
    where."""


def position_of(strategy: Strategy, key: int, turn: str = "G") -> Any:
    """The position of a key under the strategy's rules (geese to move by default)."""
    geese, fox = key >> 6, key & 63
    text = "".join("F" if h == fox else "G" if geese >> (h - 1) & 1 else "." for h in range(1, 34))
    words = dict(word.split("=", 1) for word in strategy.rules.split())
    return rules(strategy.fox_wins_at).from_text(f"{text} {turn}", **words)


def depths(strategy: Strategy) -> list[int]:
    """Every entry's depth, in key order (odd plies; :class:`DepthError` when the walk finds
    a line that is not a geese win under the strategy)."""
    table = bytearray(len(strategy))
    """Per entry, (depth + 1) / 2 once walked (a byte: depths up to 509 plies), 0 before."""

    def key(position: Any) -> int:
        return key_of(position.holes_of("G"), position.holes_of("F")[0])

    def fail(position: Any, why: str) -> DepthError:
        return DepthError(f"at {position.to_text()}: {why}")

    def walk(position: Any, at: int) -> int:
        """The depth of entry ``at``, whose position (geese to move) is ``position``."""
        if table[at]:
            return 2 * table[at] - 1
        path = (strategy.sources[at], strategy.targets[at])
        answer = next((m for m in position.legal_moves if tuple(m.path) == path), None)
        if answer is None:
            raise fail(position, f"the answer {path[0]}-{path[1]} is not a legal goose move")
        position.push(answer)
        outcome = position.outcome()
        if outcome is not None:
            if outcome.winner != "geese":
                raise fail(position, f"the answer ends the game with {outcome}")
            depth = 1
        else:
            deepest = 0
            for reply in list(position.legal_moves):
                position.push(reply)
                if position.outcome() is not None:
                    raise fail(position, f"the fox's {reply} ends the game")
                after = strategy.index(key(position))
                if after is None:
                    raise fail(position, "the strategy has no answer")
                deepest = max(deepest, walk(position, after))
                position.pop()
            depth = 2 + deepest
        position.pop()
        if depth > 2 * 255 - 1:
            raise fail(position, f"a line of {depth} plies: more than a byte holds")
        table[at] = (depth + 1) // 2
        return depth

    for at, entry in enumerate(strategy.keys):
        if not table[at]:
            walk(position_of(strategy, entry), at)
    return [2 * v - 1 for v in table]


def deepest_from(strategy: Strategy, position: Any) -> int:
    """The plies from ``position`` (fox to move) to the end along the deepest line of the
    strategy's tree, by the depths set on it."""
    found = strategy.fox_depths(position)
    if found is None:
        raise DepthError(f"at {position.to_text()}: not in the strategy (or no depths)")
    return max(depth for _, depth in found)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reedboard.analysis.mcloughlin_depths",
        description="the depths of McLoughlin's geese strategy, for the top level's fox",
    )
    parser.add_argument("strategy", nargs="?", type=Path, help="default: the shipped one")
    parser.add_argument("out", type=Path, help="the depths' file to write")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    began = time.monotonic()
    try:
        plan = shipped() if args.strategy is None else read(args.strategy.read_bytes())
        if plan is None:
            raise DepthError("no strategy is shipped with this reedboard")
        found = depths(plan)
        data = write_depths(plan, found)
        read_depths(data, plan)
        longest = deepest_from(plan, start_of(plan))
    except (DepthError, StrategyFileError, OSError, engine.EngineError) as exc:
        print(f"reedboard: error: {exc}", file=sys.stderr)
        return 1
    args.out.write_bytes(data)
    print(
        f"{len(found):,} depths, the deepest line from the start {longest} plies,"
        f" {len(data):,} bytes, {time.monotonic() - began:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
