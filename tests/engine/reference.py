"""An independent, deliberately naive model of the cross-board games, written straight from
docs/rules.md §1 with no code shared with ``engine``: coordinates instead of tables, immutable dicts
instead of byte arrays, recursion over frozensets of captured geese. The engine is checked
against it move by move; it is slow and that is fine.

Below them, the same for the race games' corners (docs/rules.md §3, §5): Parchesi's moves with
every order of a double 6 tried, and Messenger Boy's turns, orders and lost turns."""

from __future__ import annotations

import collections
import dataclasses
import itertools
from dataclasses import dataclass

SEEN: collections.Counter[str] = collections.Counter()
"""How often the race models met each corner (tests check that random games reach them)."""

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


# -- Parchesi (docs/rules.md §3), for the double 6 in any order ------------------------------------
#
# The board transcribed again from the rules' classic layout (not read from the engine's data
# file): 68 loop spaces, three safeties a side, each colour entering on its entry space and
# turning off after its turnoff space onto 7 home-path spaces, then home.

PARCHESI_SAFETIES = {4, 11, 16, 21, 28, 33, 38, 45, 50, 55, 62, 67}
PARCHESI_ENTRY = {"Y": 4, "B": 21, "R": 38, "G": 55}
PARCHESI_TURNOFF = {"Y": 67, "B": 16, "R": 33, "G": 50}


def parchesi_route(colour: str) -> list[str]:
    """A colour's way: its loop spaces from entry to turnoff, its home path, home."""
    route, space = [], PARCHESI_ENTRY[colour]
    while True:
        route.append(f"L{space}")
        if space == PARCHESI_TURNOFF[colour]:
            break
        space = (space + 1) % 68
    return route + [f"{colour}{k}" for k in range(1, 8)] + ["home"]


@dataclass(frozen=True)
class ParchesiRef:
    men: tuple[tuple[str, tuple[str, ...]], ...]  # colour -> its four men's points
    turn: str
    spin: str | None  # "5" / "d6"

    @staticmethod
    def from_text(text: str) -> ParchesiRef:
        men: dict[str, list[str]] = {}
        turn, spin = "", None
        for token in text.split():
            if "@" in token:
                men.setdefault(token[0], []).append(token.partition("@")[2])
            elif token.startswith("turn="):
                turn = token[5:]
            elif token.startswith("spin="):
                spin = token[5:]
        return ParchesiRef(tuple((c, tuple(sorted(m))) for c, m in men.items()), turn, spin)

    def where(self) -> dict[str, list[str]]:
        return {c: list(m) for c, m in self.men}

    def moves(self) -> set[tuple[tuple[str, str], ...]]:
        """Each move as its men's sorted (from, to) pairs; entering is (nest, entry)."""
        if self.spin is None or any("home" in m for _, m in self.men):
            return set()
        c = self.turn
        men = self.where()
        route = parchesi_route(c)
        out: set[tuple[tuple[str, str], ...]] = set()
        double, value = self.spin.startswith("d"), int(self.spin.lstrip("d"))
        if not double and value == 5 and f"{c}nest" in men[c] and self._may_land(men, c, route[0]):
            out.add(((f"{c}nest", route[0]),))
        entered = [p for p in men[c] if p in route and p != "home"]
        steps = 2 * value if double else value
        if double and value == 6:
            for p in set(entered):
                if self._step(men, c, p, 24):
                    out.add(((p, self._step(men, c, p, 24) or ""),))
            for size in range(min(4, len(entered)), 0, -1):
                groups = set()
                for idx in itertools.combinations(range(len(entered)), size):
                    group = [entered[i] for i in idx]
                    legal = [
                        pairs
                        for order in itertools.permutations(group)
                        if (pairs := self._in_turn(men, c, list(order))) is not None
                    ]
                    groups.update(tuple(sorted(pairs)) for pairs in legal)
                    if legal and self._in_turn(men, c, sorted(group, key=route.index)) is None:
                        SEEN["a double 6 group that cannot go back man first"] += 1
                if groups:
                    return out | groups
            return out
        for p in set(entered):
            to = self._step(men, c, p, steps)
            if to:
                out.add(((p, to),))
        return out

    def _in_turn(
        self, men: dict[str, list[str]], c: str, order: list[str]
    ) -> list[tuple[str, str]] | None:
        board = {k: list(v) for k, v in men.items()}
        pairs = []
        for p in order:
            to = self._step(board, c, p, 6)
            if to is None:
                return None
            pairs.append((p, to))
            self._move(board, c, p, to)
        return pairs

    @staticmethod
    def _blockade(men: dict[str, list[str]], point: str) -> bool:
        return any(m.count(point) >= 2 for m in men.values())

    def _step(self, men: dict[str, list[str]], c: str, p: str, n: int) -> str | None:
        route = parchesi_route(c)
        i = route.index(p)
        if i + n >= len(route):
            return None  # home is the last point of the way, by exact count
        for q in route[i + 1 : i + n + 1]:
            if q != "home" and self._blockade(men, q):
                return None
        to = route[i + n]
        return to if self._may_land(men, c, to) else None

    @staticmethod
    def _may_land(men: dict[str, list[str]], c: str, to: str) -> bool:
        if to == "home":
            return True
        there = [k for k, m in men.items() for q in m if q == to]
        if len(there) >= 2:
            return False
        if there and there[0] != c:  # a capture, but never on a safety
            return not (to.startswith("L") and int(to[1:]) in PARCHESI_SAFETIES)
        return True

    @staticmethod
    def _move(men: dict[str, list[str]], c: str, p: str, to: str) -> None:
        men[c][men[c].index(p)] = to
        if to.startswith("L"):
            for k in men:
                if k != c:
                    men[k] = [f"{k}nest" if q == to else q for q in men[k]]

    def play(self, pairs: tuple[tuple[str, str], ...], order: list[tuple[str, str]]) -> ParchesiRef:
        men = self.where()
        for p, to in order:
            self._move(men, self.turn, p, to)
        colours = [k for k, _ in self.men]
        turn = colours[(colours.index(self.turn) + 1) % len(colours)]
        return ParchesiRef(tuple((k, tuple(sorted(men[k]))) for k in colours), turn, None)


# -- Messenger Boy (docs/rules.md §5), for lost turns and chains of orders -------------------------


@dataclass(frozen=True)
class MessengerRef:
    players: tuple[str, ...]  # letters in turn order
    at: tuple[str | None, ...]
    turn: int
    spin: int | None
    prison: frozenset[str]
    lose: frozenset[str]
    orders: tuple[tuple[str, tuple[str, int]], ...]  # point -> (kind, to)

    @staticmethod
    def square(lane: str | None, n: int) -> str:
        return str(n) if n in (22, 43) else f"{lane or 'A'}{n}"

    def order(self, point: str) -> tuple[str, int] | None:
        return dict(self.orders).get(point)

    def text(self) -> str:
        parts = [f"{p}@{a or '-'}" for p, a in zip(self.players, self.at, strict=True)]
        parts.append(f"turn={self.players[self.turn]}")
        if self.spin is not None:
            parts.append(f"spin={self.spin}")
        if self.prison:
            parts.append("prison=" + ",".join(p for p in self.players if p in self.prison))
        if self.lose:
            parts.append("lose=" + ",".join(p for p in self.players if p in self.lose))
        return " ".join(parts)

    def over(self) -> bool:
        return "43" in self.at

    def _others(self) -> set[str]:
        return {a for i, a in enumerate(self.at) if i != self.turn and a is not None}

    def _left_on(self, square: str) -> str:
        """Where a man who reached ``square`` ends, obeying each go-to he is sent by."""
        seen = [square]
        while True:
            order = self.order(square)
            if order is None or order[0] != "go-to":
                return square
            lane = square[0] if square[0] in "AB" else None
            to = self.square(lane, order[1])
            if to in self._others():
                SEEN["go-to onto a man"] += 1
                return square
            if to in seen:
                SEEN["go-tos in a circle"] += 1
                return to
            seen.append(to)
            if len(seen) > 2:
                SEEN["go-to onto a go-to"] += 1
            square = to

    def moves(self) -> list[str]:
        if self.over():
            return []
        me, here = self.players[self.turn], self.at[self.turn]
        if here is None:
            return [f"{me} start A", f"{me} start B"]
        if self.spin is None:
            return [f"spin={v}" for v in range(1, 7)]
        return [f"{me} {here}-{to}" for to in self._landings(here, self.spin)]

    def _landings(self, here: str, spin: int) -> list[str]:
        lane = here[0] if here[0] in "AB" else None
        if self.players[self.turn] in self.prison:
            two = self.square(lane, 2)
            return [] if spin != 5 or two in self._others() else [self._left_on(two)]
        n = int(here.lstrip("AB")) + spin
        if n > 43:
            return []
        if 22 < n < 43 and int(here.lstrip("AB")) <= 22:
            targets = [self.square("A", n), self.square("B", n)]
        else:
            targets = [self.square(lane, n)]
        out: list[str] = []
        for t in targets:
            if t not in self._others() and self._left_on(t) not in out:
                out.append(self._left_on(t))
        return out

    def _rotate(self, lose: frozenset[str]) -> tuple[int, frozenset[str]]:
        turn = self.turn
        while True:
            turn = (turn + 1) % len(self.players)
            if self.players[turn] not in lose:
                return turn, lose
            lose = lose - {self.players[turn]}

    def play(self, move: str) -> MessengerRef:
        me = self.players[self.turn]
        at = list(self.at)
        if move.startswith("spin="):
            spin = int(move[5:])
            if self._landings(self.at[self.turn] or "", spin):
                return dataclasses.replace(self, spin=spin)
            turn, lose = self._rotate(self.lose)
            return dataclasses.replace(self, spin=None, turn=turn, lose=lose)
        if " start " in move:
            at[self.turn] = f"{move[-1]}1"
            return dataclasses.replace(self, at=tuple(at))
        to = move.partition("-")[2]
        at[self.turn] = to
        prison, lose = self.prison - {me}, self.lose
        kind = (self.order(to) or ("", 0))[0]
        if kind == "spin-again":
            return dataclasses.replace(self, at=tuple(at), spin=None, prison=prison)
        if kind == "lose-turn":
            lose = lose | {me}
            if len(lose) == len(self.players):
                SEEN["every player owes a lost turn"] += 1
        if kind == "prison":
            prison = prison | {me}
        turn, lose = dataclasses.replace(self, at=tuple(at))._rotate(lose)
        return dataclasses.replace(
            self, at=tuple(at), spin=None, turn=turn, prison=prison, lose=lose
        )
