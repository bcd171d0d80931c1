"""Small two-player dice games solved whole: every position a throw is awaited in, and the
chance that one side wins from it when both sides play their best.

It knows no game: it walks the positions a game's start can reach through the common state API
(``is_chance``/``chance_outcomes``, ``legal_moves``, ``push``/``pop``, ``outcome``), keyed by
``to_text``, then runs value iteration: a position awaiting a throw is worth the
probability-weighted mean over the throws; after a throw the side to move takes the move best
for itself (``side`` the most, the other the least, for ``side``'s chance of winning). A game
that never ends is no win for ``side``: the values climb from 0 to the least fixed point, the
chance of winning in finitely many moves.

Only games with few positions fit (two-player Fox and Rabbit: 19,350 positions awaiting a
throw, each of 36 throws with a handful of moves; two to five minutes in pure Python). The result is
shipped as data (:func:`write`, :func:`read`: one ``text<TAB>value`` line a position, gzip), so
the game's rating reads it and no board computes it. Regenerate it with
``python -m reedboard.engine.dice_solver fox-and-rabbit
reedboard/engine/data/fox-and-rabbit-values.txt.gz``.
"""

from __future__ import annotations

import gzip
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard.engine.position import Position

TERMINAL_WIN, TERMINAL_LOSS = -1, -2
"""Child ids for a game over: won or not won by the side solved for."""


@dataclass
class Graph:
    """The positions awaiting a throw (``texts``), and for each its throws: (probability,
    whether the side solved for chooses, the ids of the positions each choice leads to)."""

    side: str
    texts: list[str] = field(default_factory=list)
    throws: list[list[tuple[float, bool, list[int]]]] = field(default_factory=list)


def explore(start: Position[Any, Any], side: str, limit: int = 200_000) -> Graph:
    """Every position awaiting a throw that ``start`` (one awaiting a throw) can reach."""
    graph = Graph(side)
    ids: dict[str, int] = {}
    work = start.copy(stack=False)

    def node(position: Position[Any, Any]) -> int:
        """The id of the next position awaiting a throw (or a game over) from here, when no
        choice lies between: a throw with no move passes straight to the next throw."""
        over = position.outcome()
        if over is not None:
            return TERMINAL_WIN if over.winner == side else TERMINAL_LOSS
        if not position.is_chance():
            raise ValueError(f"{position.to_text()!r}: a choice right after a choice")
        text = position.to_text()
        if text not in ids:
            if len(ids) >= limit:
                raise ValueError(f"more than {limit} positions awaiting a throw")
            ids[text] = len(graph.texts)
            graph.texts.append(text)
            graph.throws.append([])
            todo.append(position.copy(stack=False))
        return ids[text]

    todo: list[Position[Any, Any]] = []
    node(work)
    while todo:
        position = todo.pop()
        here = ids[position.to_text()]
        for throw, p in position.chance_outcomes():
            position.push(throw)
            if position.is_chance() or position.outcome() is not None:
                choices = [node(position)]
                mine = True
            else:
                mine = position.turn == side
                choices = []
                for move in position.legal_moves:
                    position.push(move)
                    choices.append(node(position))
                    position.pop()
            position.pop()
            graph.throws[here].append((p, mine, choices))
    return graph


def solve(
    graph: Graph, tolerance: float = 1e-9, sweeps: int = 10_000, *, opponent: str = "best"
) -> list[float]:
    """Each position's chance that ``graph.side`` wins when it plays its best, against an
    opponent who plays its best too (``opponent="best"``) or picks among its moves at random
    (``"random"``: what the most any player can win against a random player is)."""
    if opponent not in ("best", "random"):
        raise ValueError(f"opponent: {opponent!r} is not 'best' or 'random'")
    at_random = opponent == "random"
    values = [0.0] * len(graph.texts)

    def worth(i: int) -> float:
        if i >= 0:
            return values[i]
        return 1.0 if i == TERMINAL_WIN else 0.0

    order = range(len(values) - 1, -1, -1)
    for _ in range(sweeps):
        change = 0.0
        for i in order:
            total = 0.0
            for p, mine, choices in graph.throws[i]:
                options = [worth(c) for c in choices]
                if mine:
                    total += p * max(options)
                elif at_random:
                    total += p * sum(options) / len(options)
                else:
                    total += p * min(options)
            change = max(change, abs(total - values[i]))
            values[i] = total
        if change < tolerance:
            break
    return values


def write(path: Path, graph: Graph, values: list[float]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(f"# the chance that {graph.side} wins, both sides playing their best\n")
        for text, value in sorted(zip(graph.texts, values, strict=True)):
            f.write(f"{text}\t{value:.6f}\n")


def read(path: Path) -> dict[str, float]:
    """Position text -> value, as :func:`write` wrote them."""
    table: dict[str, float] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            text, value = line.rstrip("\n").split("\t")
            table[text] = float(value)
    return table


def main(argv: list[str]) -> int:
    from reedboard.engine.registry import start as start_of

    game, out = argv
    start = start_of(game)
    side = start.players[0]
    graph = explore(start, side)
    values = solve(graph)
    write(Path(out), graph, values)
    print(f"{game}: {len(values)} positions; {side} wins {values[0]:.4f} from the start")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
