"""McLoughlin's Fox and Geese: a proof search for who wins (docs/rules.md §1b).

The game has no draws: a goose only steps forward (towards row 0), or sideways from a sideways
point to a hole that is not one, so every goose move raises the geese's *progress* (each
goose's height, counted twice, plus one off the sideways points), a number no move lowers.
The geese must move on their turn (when they cannot, the fox wins), so a game cannot last
longer than the geese's progress can grow, and no position is ever seen twice in one game.
Options that let a goose step back and forth (two sideways points side by side) break this;
:func:`check_options` refuses them.

So the positions form a layered acyclic graph (by geese left and progress), and every value
found for a position is exact, whatever path reached it: a transposition table may keep
proofs without the graph-history trouble of games with repetitions.

The search is df-pn (depth-first proof-number search, Nagai 2002) with the 1+epsilon trick:
proof numbers for "the fox wins", disproof numbers for "the geese win", a node's numbers
first estimated from its mobility (a fox with less room is nearer a loss). A position is a
bitboard: hole (row, col) is bit ``7 * row + col``, the geese's holes one int, the fox's
bit index and the side to move above them, so a key is one Python int. Pure Python: the work
is a depth-first walk of single positions, where numpy's whole-array operations do not pay.

- :func:`solve`: the value of a position within a time budget (:class:`Result`: proved or
  not, the root's proof and disproof numbers, positions reached, each first move's state).
- :func:`best_move`: a move proved to win for the side to move, from a fresh search.
- :class:`ProofSearch`: ``reedboard analyse fox-and-geese-mcloughlin`` (the engine's
  :meth:`~reedboard.engine.position.Position.analysis` hook).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from reedboard.engine.cross import HOLES, CrossMove, Diagonals, cross33, forward_targets
from reedboard.engine.errors import SolverError
from reedboard.engine.solved import Analysis, Report

GAME = "fox-and-geese-mcloughlin"
"""The game this module solves."""

FOX_WINS = "fox"
GEESE_WIN = "geese"

INF = 1 << 40
"""An infinite proof or disproof number (far above any finite sum the search reaches)."""
EPSILON = 0.25
"""The 1+epsilon trick: a child is searched until its number passes the second best's by
this share, so the search does not switch back and forth between two close children."""
TABLE_LIMIT = 4_000_000
"""Positions kept in the transposition table before the least worked-on are dropped."""
JUMP_WEIGHT = 8
"""Added to the geese's disproof estimate where the fox must jump: a goose given away is
seldom the way to trap the fox."""
CHECK_EVERY = 512
"""Expansions between looks at the clock."""

_GRID = (1 << 49) - 1
_FOX_SHIFT = 49
_TURN_SHIFT = 55
_GEESE_TURN = 1 << _TURN_SHIFT
_REVERSED = tuple(int(f"{b:07b}"[::-1], 2) for b in range(128))
"""Each row's 7 bits mirrored left to right (column c to 6 - c)."""


class _OutOfBudget(Exception):
    """The budget ran out (unwinds the search; never leaves this module)."""


# -- the rules as bitboards -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Tables:
    """The game's moves on the 7x7 grid's bits, for one set of options."""

    bit: tuple[int, ...]
    """Per hole 1..33, its grid bit index (0 for the unused index 0)."""
    hole: dict[int, int]
    """Per grid bit index, its hole."""
    fox_steps: tuple[int, ...]
    """Per grid bit index, the mask of holes a fox there may step to."""
    fox_jumps: tuple[tuple[tuple[int, int], ...], ...]
    """Per grid bit index, (mask of the hole jumped over, bit index of the landing)."""
    goose_steps: tuple[tuple[int, int], ...]
    """(shift, mask of the holes from which a goose steps by that shift)."""
    mirror: tuple[int, ...] | None
    """Per grid bit index, its mirror image left to right, when the rules are symmetric so."""
    lines: tuple[tuple[int, int], ...]
    """(shift, mask of the holes with a line that way): a fox's steps, on whole masks."""


@functools.cache
def _tables(diagonals: Diagonals, sideways: tuple[int, ...]) -> _Tables:
    board = cross33(diagonals)
    bit = [0] * 34
    for h in HOLES:
        r, c = board.coords[h]
        bit[h] = 7 * r + c
    fox_steps = [0] * 49
    fox_jumps: list[tuple[tuple[int, int], ...]] = [()] * 49
    for h in HOLES:
        fox_steps[bit[h]] = sum(1 << bit[t] for t in board.steps[h])
        fox_jumps[bit[h]] = tuple((1 << bit[o], bit[land]) for o, land in board.jumps[h])
    targets = forward_targets(diagonals, sideways)
    lines: dict[int, int] = {}
    for h in HOLES:
        for t in board.steps[h]:
            s = bit[t] - bit[h]
            lines[s] = lines.get(s, 0) | 1 << bit[h]
    by_shift: dict[int, int] = {}
    for h in HOLES:
        for t in targets[h]:
            s = bit[t] - bit[h]
            by_shift[s] = by_shift.get(s, 0) | 1 << bit[h]
    mirror_hole = {h: board.hole_at(board.coords[h][0], 6 - board.coords[h][1]) for h in HOLES}
    symmetric = all(
        sorted(mirror_hole[t] or 0 for t in targets[h]) == sorted(targets[mirror_hole[h] or 0])
        for h in HOLES
    ) and all(
        sorted(mirror_hole[t] or 0 for t in board.steps[h])
        == sorted(board.steps[mirror_hole[h] or 0])
        for h in HOLES
    )
    mirror = [0] * 49
    for h in HOLES:
        mirror[bit[h]] = bit[mirror_hole[h] or 0]
    return _Tables(
        bit=tuple(bit),
        hole={bit[h]: h for h in HOLES},
        fox_steps=tuple(fox_steps),
        fox_jumps=tuple(fox_jumps),
        goose_steps=tuple(sorted(by_shift.items())),
        lines=tuple(sorted(lines.items())),
        mirror=tuple(mirror) if symmetric else None,
    )


def check_options(options: Any) -> None:
    """Refuse options under which a goose could come back to a hole (the search needs every
    game to end): two sideways points joined by a line along their row."""
    board = cross33(options.diagonals)
    points = set(options.sideways_points)
    for h in sorted(points):
        for t in board.steps[h]:
            if t in points and board.coords[t][0] == board.coords[h][0] and h < t:
                raise SolverError(
                    f"the {GAME} solver needs geese that never come back to a hole, but"
                    f" sideways_points {h} and {t} let a goose step between them"
                )


def key_of(position: Any) -> int:
    """A position's key: the geese's bits, the fox's bit index, the side to move."""
    tables = _tables(position.options.diagonals, tuple(position.options.sideways_points))
    geese = 0
    fox = 0
    for h in position.holes_of("G"):
        geese |= 1 << tables.bit[h]
    for h in position.holes_of("F"):
        fox = tables.bit[h]
    return geese | fox << _FOX_SHIFT | (_GEESE_TURN if position.turn == "geese" else 0)


class _Game:
    """Moves and ends on keys (the rules of the game, fox_and_geese/__init__.py, on bitboards)."""

    def __init__(self, tables: _Tables, geese_left_to_win: int) -> None:
        self.t = tables
        self.win_at = geese_left_to_win

    def fox_moves(self, fox: int, geese: int) -> list[tuple[int, int]]:
        """(landing bit index, geese after) of each move: the ends of every maximal jump
        chain when the fox can jump (it must), else its steps."""
        out: set[tuple[int, int]] = set()
        jumps = self.t.fox_jumps
        for over, land in jumps[fox]:
            if geese & over and not geese >> land & 1:
                self._chain(land, geese ^ over, out)
        if out:
            return list(out)
        free = self.t.fox_steps[fox] & ~geese
        moves = []
        while free:
            low = free & -free
            free ^= low
            moves.append((low.bit_length() - 1, geese))
        return moves

    def _chain(self, at: int, geese: int, out: set[tuple[int, int]]) -> None:
        extended = False
        for over, land in self.t.fox_jumps[at]:
            if geese & over and not geese >> land & 1:  # the fox's start is empty: it is lifted
                extended = True
                self._chain(land, geese ^ over, out)
        if not extended:
            out.add((at, geese))

    def goose_moves(self, fox: int, geese: int) -> Iterator[int]:
        """The geese after each goose move."""
        occupied = geese | 1 << fox
        for shift, sources in self.t.goose_steps:
            if shift > 0:
                movers = sources & geese & ~(occupied >> shift)
            else:
                movers = sources & geese & ~(occupied << -shift)
            while movers:
                low = movers & -movers
                movers ^= low
                yield geese ^ low ^ (low << shift if shift > 0 else low >> -shift)

    def fox_region(self, fox: int, geese: int) -> int:
        """The holes the fox could walk to by steps through empty holes (its room)."""
        region = 1 << fox
        lines = self.t.lines
        while True:
            grown = region
            for shift, sources in lines:
                if shift > 0:
                    grown |= (region & sources) << shift
                else:
                    grown |= (region & sources) >> -shift
            grown &= ~geese
            if grown == region:
                return region
            region = grown

    def goose_move_count(self, fox: int, geese: int) -> int:
        occupied = geese | 1 << fox
        n = 0
        for shift, sources in self.t.goose_steps:
            if shift > 0:
                n += (sources & geese & ~(occupied >> shift)).bit_count()
            else:
                n += (sources & geese & ~(occupied << -shift)).bit_count()
        return n

    def children(self, key: int) -> list[int]:
        """The keys after each move (none when the game is over)."""
        geese = key & _GRID
        if geese.bit_count() <= self.win_at:
            return []
        fox = key >> _FOX_SHIFT & 63
        if key & _GEESE_TURN:
            return [g | fox << _FOX_SHIFT for g in self.goose_moves(fox, geese)]
        return [g | land << _FOX_SHIFT | _GEESE_TURN for land, g in self.fox_moves(fox, geese)]

    def decided(self, key: int) -> str | None:
        """Who has won, known without a search: the fox when the geese are down to the
        number that loses, or when the fox stands two rows or more below every goose (geese
        never move down, so no goose ever comes next to it again: it steps along its row
        for ever, is never made to jump, never trapped, and the geese run out of moves)."""
        geese = key & _GRID
        left = geese.bit_count()
        if left <= self.win_at:
            return FOX_WINS
        fox = key >> _FOX_SHIFT & 63
        if fox // 7 >= (geese.bit_length() - 1) // 7 + 2:
            return FOX_WINS
        if left - 1 <= self.win_at and not key & _GEESE_TURN:  # one jump more wins
            for over, land in self.t.fox_jumps[fox]:
                if geese & over and not geese >> land & 1:
                    return FOX_WINS
        return None

    def winner(self, key: int) -> str | None:
        """Who has won in this position, or None while the game goes on."""
        geese = key & _GRID
        if geese.bit_count() <= self.win_at:
            return FOX_WINS
        fox = key >> _FOX_SHIFT & 63
        if key & _GEESE_TURN:
            return None if self.goose_move_count(fox, geese) else FOX_WINS
        return None if self.fox_moves(fox, geese) else GEESE_WIN

    def canonical(self, key: int) -> int:
        """The smaller of the key and its mirror image (when the rules are symmetric)."""
        mirror = self.t.mirror
        if mirror is None:
            return key
        rev = _REVERSED
        image = (
            rev[key & 127]
            | rev[key >> 7 & 127] << 7
            | rev[key >> 14 & 127] << 14
            | rev[key >> 21 & 127] << 21
            | rev[key >> 28 & 127] << 28
            | rev[key >> 35 & 127] << 35
            | rev[key >> 42 & 127] << 42
            | mirror[key >> _FOX_SHIFT & 63] << _FOX_SHIFT
            | key & _GEESE_TURN
        )
        return image if image < key else key


# -- the proof search -----------------------------------------------------------------------------


@dataclass
class MoveState:
    """A first move and what the search knows of it."""

    move: CrossMove
    value: str | None
    """Who wins after it (proved), or None."""
    proof: int
    """Its proof number for "the fox wins" (0: proved; INF: disproved)."""
    disproof: int


@dataclass
class Result:
    """What :func:`solve` found."""

    value: str | None
    """``fox`` or ``geese``: who wins with best play, proved; None when the budget ran out."""
    proof: int
    """The root's proof number for "the fox wins" (0 when proved, INF when disproved)."""
    disproof: int
    """The root's disproof number (the geese's side of the same)."""
    positions: int
    """Positions the search took into its table (one dropped from a full table and met again
    counts again)."""
    expanded: int
    """Expansions (a position's moves generated; one position may be expanded many times)."""
    seconds: float
    moves: list[MoveState] = field(default_factory=list)
    """Each move from the position, in the engine's order, with its state."""


Progress = Callable[[int, int, int, int, float], None]
"""Called now and then: (positions, expanded, root proof, root disproof, seconds)."""


class _Search:
    def __init__(
        self,
        game: _Game,
        budget: float | None,
        progress: Progress | None,
        table_limit: int,
        expansions: int | None = None,
    ) -> None:
        self.game = game
        self.max_expanded = expansions
        """At most this many positions expanded (a budget that replays exactly), or None."""
        self.table: dict[int, tuple[int, int, int]] = {}
        """Canonical key -> (proof, disproof, work): a position's last known numbers."""
        self.started = time.monotonic()
        self.deadline = None if budget is None else self.started + budget
        self.progress = progress
        self.table_limit = table_limit
        self.expanded = 0
        self.positions = 0
        self.root = 0
        self._next_report = self.started + 1.0

    # numbers ---------------------------------------------------------------------------------

    def estimate(self, key: int) -> tuple[int, int]:
        """A new position's numbers: exact at the end, else from mobility. The geese's
        disproof number where the fox is to move: the holes it can walk to (the room they
        must take from it), and the number of chains plus :data:`JUMP_WEIGHT` where it
        must jump; the fox's proof number where the geese are to move: their moves."""
        game = self.game
        if game.decided(key) is not None:
            return 0, INF
        geese = key & _GRID
        fox = key >> _FOX_SHIFT & 63
        if key & _GEESE_TURN:
            n = game.goose_move_count(fox, geese)
            return (n, 1) if n else (0, INF)
        for over, land in game.t.fox_jumps[fox]:
            if geese & over and not geese >> land & 1:  # the fox must jump: a goose is lost
                return 1, len(game.fox_moves(fox, geese)) + JUMP_WEIGHT
        n = (game.t.fox_steps[fox] & ~geese).bit_count()
        if not n:
            return INF, 0
        return 1, game.fox_region(fox, geese).bit_count()

    def numbers(self, key: int) -> tuple[int, int]:
        entry = self.table.get(self.game.canonical(key))
        if entry is not None:
            return entry[0], entry[1]
        return self.estimate(key)

    def store(self, key: int, proof: int, disproof: int, work: int) -> None:
        canon = self.game.canonical(key)
        old = self.table.get(canon)
        if old is None:
            self.positions += 1
            if len(self.table) >= self.table_limit:
                self.collect()
        else:
            work += old[2]
        self.table[canon] = (proof, disproof, work)

    def collect(self) -> None:
        """Drop the positions least worked on until the table is half full (they are found
        again if needed; values are exact either way)."""
        limit = 1
        table = self.table
        while len(table) > self.table_limit // 2:
            for k in [k for k, v in table.items() if v[2] <= limit]:
                del table[k]
            limit *= 2

    # the walk --------------------------------------------------------------------------------

    def mid(self, key: int, thpn: int, thdn: int) -> int:
        """Search ``key`` until its proof number reaches ``thpn`` or its disproof number
        ``thdn``; returns the expansions made (the work)."""
        self.expanded += 1
        if self.expanded % CHECK_EVERY == 0:
            self.tick()
        game = self.game
        won = game.decided(key)
        canon = {} if won else {game.canonical(k): k for k in game.children(key)}
        if not canon:
            won = won or game.winner(key)
            pn, dn = (0, INF) if won == FOX_WINS else (INF, 0)
            self.store(key, pn, dn, 1)
            return 1
        kids = list(canon.values())
        keys = list(canon)
        guesses: list[tuple[int, int] | None] = [None] * len(kids)
        table = self.table
        fox_turn = not key & _GEESE_TURN
        work = 1
        while True:
            nums = []
            for i, k in enumerate(keys):
                entry = table.get(k)
                if entry is not None:
                    nums.append((entry[0], entry[1]))
                    continue
                guess = guesses[i]
                if guess is None:
                    guess = guesses[i] = self.estimate(kids[i])
                nums.append(guess)
            if fox_turn:  # the fox chooses: proved by any child, disproved by all
                pn = min(n[0] for n in nums)
                dn = min(INF, sum(n[1] for n in nums))
            else:
                pn = min(INF, sum(n[0] for n in nums))
                dn = min(n[1] for n in nums)
            if pn >= thpn or dn >= thdn:
                break
            # the most promising child and the second best's number
            pick = 0
            best = second = INF
            for i, n in enumerate(nums):
                v = n[0] if fox_turn else n[1]
                if v < best:
                    best, second, pick = v, best, i
                elif v < second:
                    second = v
            cpn, cdn = nums[pick]
            grow = min(INF, int(second * (1 + EPSILON)) + 1)
            if fox_turn:
                child_pn = min(thpn, grow)
                child_dn = min(INF, thdn - dn + cdn)
            else:
                child_dn = min(thdn, grow)
                child_pn = min(INF, thpn - pn + cpn)
            work += self.mid(kids[pick], child_pn, child_dn)
        self.store(key, pn, dn, work)
        return work

    def tick(self) -> None:
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise _OutOfBudget
        if self.max_expanded is not None and self.expanded >= self.max_expanded:
            raise _OutOfBudget
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + 10.0
            pn, dn = self.root_numbers(self.root)
            self.progress(self.positions, self.expanded, pn, dn, now - self.started)

    def run(self, root: int) -> tuple[int, int]:
        self.root = root
        try:
            while True:
                pn, dn = self.numbers(root)
                if pn == 0 or dn == 0:
                    return pn, dn
                self.mid(root, INF, INF)
        except _OutOfBudget:
            pass
        return self.root_numbers(root)

    def root_numbers(self, root: int) -> tuple[int, int]:
        """The root's numbers from its children's (the walk stopped before it stored them)."""
        kids = self.game.children(root)
        if not kids or self.game.decided(root):
            return self.numbers(root)
        nums = [self.numbers(k) for k in kids]
        if not root & _GEESE_TURN:
            return min(n[0] for n in nums), min(INF, sum(n[1] for n in nums))
        return min(INF, sum(n[0] for n in nums)), min(n[1] for n in nums)


def _game_of(position: Any, fox_wins_at: int | None = None) -> _Game:
    if position.game_id != GAME:
        raise SolverError(f"the proof search plays {GAME}, not {position.game_id}")
    check_options(position.options)
    tables = _tables(position.options.diagonals, tuple(position.options.sideways_points))
    return _Game(tables, position.geese_left_to_win if fox_wins_at is None else fox_wins_at)


def solve(
    position: Any,
    budget: float | None = None,
    progress: Progress | None = None,
    *,
    table_limit: int = TABLE_LIMIT,
    fox_wins_at: int | None = None,
    expansions: int | None = None,
) -> Result:
    """Who wins ``position`` (a McLoughlin Fox and Geese position) with best play, searching
    for at most ``budget`` seconds (None: until proved). ``progress`` hears about every 10 s.

    ``fox_wins_at``: the fox wins when this many geese are left (the game's own 6 by
    default); a larger number asks whether the geese can win while giving up fewer geese,
    which is a smaller question: the geese winning so wins the game itself."""
    game = _game_of(position, fox_wins_at)
    search = _Search(game, budget, progress, table_limit, expansions)
    root = key_of(position)
    pn, dn = search.run(root)
    value = FOX_WINS if pn == 0 else GEESE_WIN if dn == 0 else None
    moves = []
    for move in position.legal_moves:
        after = position.copy(stack=False)
        after.push(move)
        cpn, cdn = search.numbers(key_of(after))
        won = FOX_WINS if cpn == 0 else GEESE_WIN if cdn == 0 else None
        moves.append(MoveState(move, won, cpn, cdn))
    return Result(
        value=value,
        proof=pn,
        disproof=dn,
        positions=search.positions,
        expanded=search.expanded,
        seconds=time.monotonic() - search.started,
        moves=moves,
    )


def best_move(
    position: Any, budget: float | None = None, *, expansions: int | None = None
) -> CrossMove | None:
    """A move proved to win for the side to move, found within ``budget`` seconds and
    ``expansions`` positions expanded; None when the game is over, the side to move loses
    whatever it plays, or nothing was proved."""
    result = solve(position, budget, expansions=expansions)
    side = position.turn
    winner = FOX_WINS if side == "fox" else GEESE_WIN
    if result.value != winner:
        return None
    for state in result.moves:
        if state.value == winner:
            return state.move
    return None  # pragma: no cover - a proved win has a winning move


class ProofSearch(Analysis):
    """``reedboard analyse fox-and-geese-mcloughlin``: who wins, proved within the budget, or
    how far the search got; each first move's state."""

    budgeted = True

    def run(
        self,
        options: Mapping[str, object],
        position: str | None,
        budget: float | None,
        report: Report,
    ) -> list[str]:
        game = self.game
        start = game.start(**options) if position is None else game.from_text(position, **options)
        check_options(start.options)  # refused before anything is said
        where = "the start" if position is None else f"position {start.to_text()!r}"
        if (known := from_strategy(start)) is not None:
            report.say(f"{GAME} from {where}: the shipped geese strategy (the game solved whole)")
            return known
        limit = "" if budget is None else f" for at most {budget:g} s"
        report.say(f"{GAME} from {where}: proof search{limit}")

        def progress(positions: int, expanded: int, pn: int, dn: int, seconds: float) -> None:
            report.note(
                f"searched: {positions:,} positions, {expanded:,} expansions,"
                f" fox {_number(pn)} / geese {_number(dn)} ({seconds:.1f} s)"
            )

        result = solve(start, budget, progress)
        lines = []
        if result.value is not None:
            lines.append(f"value: {_said(result.value)} (proved)")
        else:
            lines.append("value: not proved" + (f" within {budget:g} s" if budget else ""))
        lines += [
            f"proof number (fox wins): {_number(result.proof)}",
            f"disproof number (geese win): {_number(result.disproof)}",
            f"positions: {result.positions}",
            f"expansions: {result.expanded}",
            f"seconds: {result.seconds:.1f}",
        ]
        for state in result.moves:
            if state.value is not None:
                said = _said(state.value)
            else:
                said = f"open (fox {_number(state.proof)} / geese {_number(state.disproof)})"
            lines.append(f"move {state.move}: {said}")
        return lines


def from_strategy(position: Any) -> list[str] | None:
    """``analyse``'s lines from the shipped strategy (reedboard/engine/fox_and_geese/
    strategy.py, verified reply by reply by the rules), or None when it does not hold the
    position: the geese to move with an answer, or the fox to move with an answer to each of
    its moves."""
    if position.is_over():
        return None
    proof = "proved: the geese's strategy shipped with reedboard, the game solved whole"
    if position.turn == "geese":
        move = position.strategy_move()
        if move is None:
            return None
        return [f"value: geese win ({proof})", f"move {move}: geese win (the strategy's move)"]
    lines = [f"value: geese win ({proof})"]
    for move in position.legal_moves:
        after = position.copy(stack=False)
        after.push(move)
        outcome = after.outcome()
        if outcome is not None and outcome.winner == GEESE_WIN:
            lines.append(f"move {move}: geese win ({outcome})")
            continue
        answer = None if outcome is not None else after.strategy_move()
        if answer is None:
            return None
        lines.append(f"move {move}: geese win with {answer}")
    return lines


def _said(value: str) -> str:
    return f"{value} {'wins' if value == FOX_WINS else 'win'}"


def _number(n: int) -> str:
    """A proof or disproof number as `analyse` shows it (infinity as ``inf``)."""
    return "inf" if n >= INF else str(n)
