"""An independent, deliberately naive model of the cross-board games, written straight from
RULES.md §1 with no code shared with ``engine``: coordinates instead of tables, immutable dicts
instead of byte arrays, recursion over frozensets of captured geese. The engine is checked
against it move by move; it is slow and that is fine."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

HOLE_RC: dict[int, tuple[int, int]] = {}
for _r in range(7):
    for _c in range(7):
        if 2 <= _r <= 4 or 2 <= _c <= 4:
            HOLE_RC[len(HOLE_RC) + 1] = (_r, _c)
RC_HOLE = {rc: h for h, rc in HOLE_RC.items()}
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def on_line(a: int, d: tuple[int, int], diagonals: str) -> int | None:
    """The hole one step from ``a`` in direction ``d`` if a line joins them, else None."""
    r, c = HOLE_RC[a]
    b = RC_HOLE.get((r + d[0], c + d[1]))
    if b is None:
        return None
    if d[0] and d[1]:
        if diagonals == "none":
            return None
        if diagonals == "alternate" and (r + c) % 2:
            return None
    return b


@dataclass(frozen=True)
class Ref:
    game: str
    pieces: tuple[tuple[int, str], ...]  # sorted (hole, piece)
    turn: str  # "F" / "G" / "-"
    diagonals: str = "alternate"
    sideways: tuple[int, ...] = (7, 13)
    finish: int = 17

    @staticmethod
    def from_text(game: str, text: str, **kw: object) -> Ref:
        holes, turn = text.split()
        pieces = tuple((i + 1, ch) for i, ch in enumerate(holes) if ch != ".")
        return Ref(game, pieces, turn, **kw)  # type: ignore[arg-type]

    def text(self) -> str:
        cells = dict(self.pieces)
        return "".join(cells.get(h, ".") for h in range(1, 34)) + " " + self.turn

    def at(self, hole: int) -> str | None:
        return dict(self.pieces).get(hole)

    def moves(self) -> list[str]:
        cells = dict(self.pieces)
        if self.game == "solitaire":
            out = []
            for a in cells:
                for d in DIRECTIONS:
                    mid = on_line(a, d, self.diagonals)
                    land = on_line(mid, d, self.diagonals) if mid else None
                    if mid and land and cells.get(mid) == "o" and land not in cells:
                        out.append(f"{a}-{land}")
            return out
        geese = [h for h, p in cells.items() if p == "G"]
        mc = self.game == "fox-and-geese-mcloughlin"
        if not geese or (mc and len(geese) <= 6):
            return []
        if self.turn == "G":
            out = []
            for g in geese:
                for d in DIRECTIONS:
                    if mc and not (d[0] == -1 or (d[0] == 0 and g in self.sideways)):
                        continue
                    b = on_line(g, d, self.diagonals)
                    if b and b not in cells:
                        out.append(f"{g}-{b}")
            return out
        steps, chains = [], []
        for fox in [h for h, p in cells.items() if p == "F"]:
            for d in DIRECTIONS:
                b = on_line(fox, d, self.diagonals)
                if b and b not in cells:
                    steps.append(f"{fox}-{b}")
            others = {h: p for h, p in cells.items() if h != fox}
            for path in self._chains(fox, others, frozenset()):
                if len(path) > 1:
                    chains.append(path)
        if mc:
            maximal = [p for p in chains if not any(q[: len(p)] == p and q != p for q in chains)]
            chain_moves = ["x".join(map(str, p)) for p in maximal]
            return chain_moves if chain_moves else steps
        return steps + ["x".join(map(str, p)) for p in chains]

    def _chains(
        self, at: int, cells: dict[int, str], taken: frozenset[int]
    ) -> list[tuple[int, ...]]:
        found: list[tuple[int, ...]] = [(at,)]
        for d in DIRECTIONS:
            mid = on_line(at, d, self.diagonals)
            land = on_line(mid, d, self.diagonals) if mid else None
            if not (mid and land) or mid in taken or cells.get(mid) != "G":
                continue
            if land in cells and land not in taken:
                continue
            for rest in self._chains(land, cells, taken | {mid}):
                found.append((at, *rest))
        return found

    def play(self, move: str) -> Ref:
        sep = "x" if "x" in move else "-"
        path = [int(p) for p in move.split(sep)]
        cells = dict(self.pieces)
        piece = cells.pop(path[0])
        jump = sep == "x" or self.game == "solitaire"
        if jump:
            for a, b in itertools.pairwise(path):
                (ra, ca), (rb, cb) = HOLE_RC[a], HOLE_RC[b]
                del cells[RC_HOLE[((ra + rb) // 2, (ca + cb) // 2)]]
        cells[path[-1]] = piece
        turn = {"F": "G", "G": "F", "-": "-"}[self.turn]
        return Ref(
            self.game,
            tuple(sorted(cells.items())),
            turn,
            self.diagonals,
            self.sideways,
            self.finish,
        )

    def winner(self) -> tuple[str | None] | None:
        """None while the game goes on, else a 1-tuple with the winner (None: nobody)."""
        cells = dict(self.pieces)
        if self.moves():
            return None
        if self.game == "solitaire":
            return ("player" if list(cells) == [self.finish] else None,)
        geese = sum(1 for p in cells.values() if p == "G")
        if geese == 0 or (self.game == "fox-and-geese-mcloughlin" and geese <= 6):
            return ("fox",)
        return ("geese",) if self.turn == "F" else ("fox",)
