"""The verifier of McLoughlin's geese strategy: the proof checked by the rules engine alone.

Written apart from the solver and the extractor (reedboard/analysis/mcloughlin_solve.c,
mcloughlin_strategy.py) and sharing no code with them: it reads the strategy's file
(reedboard/engine/fox_and_geese/strategy.py) and plays it with the engine's positions and
legal moves. From the start, fox to move, it tries every legal fox move; after each, the
game is over with the geese winning, or the strategy holds an answer for the position, the
answer is one of the geese's legal moves, and after it the game is over with the geese
winning (the fox trapped) or the fox is to move again, and so on. A fox-to-move position
met again is not checked again (the game has no cycles: a goose never steps back). When the
walk ends, every line the fox can choose ends in a geese win by the rules: the geese win.

``--sample N`` checks N lines instead of the whole: at each fox-to-move position every fox
move and its answer are checked, and one of them, at random, is followed.

Run: ``python -m reedboard.analysis.mcloughlin_verify [FILE] [--sample N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.engine.fox_and_geese.strategy import Strategy, StrategyFileError, read, shipped

GAME = "fox-and-geese-mcloughlin"


class VerifyError(engine.ReedboardError):
    """The strategy fails: the message says where (the moves from the start) and why."""


@dataclass(frozen=True)
class Verified:
    fox_positions: int
    """Fox-to-move positions checked (every fox move from each)."""
    answers: int
    """Strategy entries used (distinct positions with the geese to move)."""
    lines: int
    """Games ended, counted once at each position where one ends."""
    longest: int
    """The longest line in plies (of those followed, with ``sample``)."""
    seconds: float


@functools.cache
def rules(fox_wins_at: int) -> Any:
    """The engine's game with the fox winning at ``fox_wins_at`` geese (its own class at 6)."""
    base: Any = engine.game(GAME)
    if fox_wins_at == base.geese_left_to_win:
        return base
    return type(f"WinAt{fox_wins_at}", (base,), {"geese_left_to_win": fox_wins_at})


def start_of(strategy: Strategy, position: str | None = None, **options: object) -> Any:
    """The position the strategy is checked from (the start by default), under its rules."""
    words = dict(word.split("=", 1) for word in strategy.rules.split())
    cls = rules(strategy.fox_wins_at)
    merged = {**words, **options}
    start = cls.start(**merged) if position is None else cls.from_text(position, **merged)
    if start.turn != "fox":
        raise VerifyError("the strategy is checked from a position with the fox to move")
    return start


def verify(strategy: Strategy, start: Any, *, sample: int | None = None, seed: int = 0) -> Verified:
    """Check ``strategy`` from ``start`` (fox to move): every fox reply, or ``sample`` lines
    at random. Raises :class:`VerifyError` at the first failure."""
    began = time.monotonic()
    position = start.copy(stack=False)
    left: dict[str, int] = {}
    """Per fox-to-move position checked whole: the longest line from it to its end, in plies."""
    used: set[str] = set()
    counts = {"fox": 0, "lines": 0, "longest": 0}
    rng = random.Random(seed)

    def fail(why: str) -> VerifyError:
        moves = " ".join(str(m) for m in position.move_stack)
        return VerifyError(f"after {moves or 'the start'}: {why}")

    def geese_won() -> None:
        outcome = position.outcome()
        if outcome is None or outcome.winner != "geese":
            raise fail(f"the game ends with {outcome}, not a geese win")
        counts["lines"] += 1

    def answer() -> Any:
        """The strategy's legal goose move here (geese to move), checked."""
        mask = 0
        for hole in position.holes_of("G"):
            mask |= 1 << (hole - 1)
        found = strategy.answer(mask << 6 | position.holes_of("F")[0])
        if found is None:
            raise fail("the strategy has no answer")
        for move in position.legal_moves:
            if tuple(move.path) == found:
                used.add(position.to_text())
                return move
        raise fail(f"the strategy's answer {found[0]}-{found[1]} is not a legal goose move")

    def fox_to_move(follow: bool) -> int:
        """Check every fox move here and the answers; the longest line on, in plies."""
        text = position.to_text()
        if sample is None and text in left:
            return left[text]
        counts["fox"] += 1
        replies = list(position.legal_moves)
        if not replies:
            raise fail("the fox has no move but the game is not over")
        pick = rng.randrange(len(replies)) if sample is not None else -1
        longest = 0
        for i, reply in enumerate(replies):
            position.push(reply)
            if position.outcome() is not None:
                geese_won()
                longest = max(longest, 1)
            else:
                goose = answer()
                position.push(goose)
                if position.outcome() is not None:
                    geese_won()
                    longest = max(longest, 2)
                elif follow and (sample is None or i == pick):
                    longest = max(longest, 2 + fox_to_move(follow))
                position.pop()
            position.pop()
        if sample is None:
            left[text] = longest
        return longest

    if position.outcome() is not None:
        geese_won()
    else:
        for _ in range(1 if sample is None else sample):
            counts["longest"] = max(counts["longest"], fox_to_move(True))
    return Verified(
        fox_positions=counts["fox"],
        answers=len(used),
        lines=counts["lines"],
        longest=counts["longest"],
        seconds=time.monotonic() - began,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reedboard.analysis.mcloughlin_verify",
        description="check the geese's strategy for McLoughlin's Fox and Geese by the rules",
    )
    parser.add_argument("file", nargs="?", type=Path, help="a strategy (default: the shipped)")
    parser.add_argument("--sample", type=int, help="check this many random lines, not all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--position", help="check from here (fox to move), not the start")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    try:
        strategy = shipped() if args.file is None else read(args.file.read_bytes())
        if strategy is None:
            raise VerifyError("no strategy is shipped with this reedboard")
        start = start_of(strategy, args.position)
        got = verify(strategy, start, sample=args.sample, seed=args.seed)
    except (VerifyError, StrategyFileError, OSError, engine.EngineError) as exc:
        print(f"reedboard: the strategy fails: {exc}", file=sys.stderr)
        return 1
    what = "every fox reply" if args.sample is None else f"{args.sample:,} random lines"
    print(
        f"the geese win: {what} checked by the rules, {got.fox_positions:,} fox-to-move"
        f" positions, {got.answers:,} answers used, longest line {got.longest} plies,"
        f" {got.seconds:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
