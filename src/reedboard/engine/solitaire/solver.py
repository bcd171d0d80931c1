"""Peg Solitaire on the 33-hole board solved whole: a bitboard search level by level (numpy).

Positions are bitboards in a ``uint64``: hole (row, col) is bit ``8*row + col`` (the 7x7 cross
inside an 8x8 square). On that layout the board's symmetries are a few word operations: the
mirror top to bottom is a byte swap, left to right two delta swaps inside each byte, the
transpose three delta swaps. A level (every position with the same number of pegs) is a sorted
array of canonical keys, one per class of positions equal under the symmetries in use; the
next level is every jump from every position of this one, canonicalised and deduplicated by a
sort. Counting move sequences carries, for each class, the number of ways to reach any of its
positions, as exact integers in three 32-bit limbs (up to 2^96, checked).

What is solved (`docs/rules.md` §1c, orthogonal jumps only):

- :func:`analyse`: positions reachable from a start hole, those from which the finish can still
  be reached, the move sequences that solve it and all move sequences played out.
- :func:`finish_levels` and :class:`WinningSet`: every position from which one peg can be left
  on the finish hole, as a set a hint looks up in microseconds. A jump reverses into a jump of
  the complement (pegs and holes swapped), so a position can be won exactly when its complement
  is reachable from the start with only the finish hole empty; that one set answers every
  position, whether or not it can occur from the game's start.

numpy is optional (``.venv/bin/pip install -e '.[solver]'``): without it :func:`require_numpy`
raises :class:`SolverUnavailableError` with one line that says so.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from reedboard.engine.cross import HOLES, Diagonals, cross33
from reedboard.engine.errors import EngineError, InvalidOptionError, SolverError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    U64 = npt.NDArray[np.uint64]
    U32 = npt.NDArray[np.uint32]
else:
    try:
        import numpy as np
    except ImportError:  # the solver's extra is not installed: said when it is used
        np = None

KEY_FORMAT = 1
"""The form of the keys :func:`finish_levels` returns (layout, canonical choice); a cache made
with another is stale."""

EXTRA = "solver"
"""The optional extra that installs numpy."""

GAME = "solitaire"
"""The game this module solves."""


class SolverUnavailableError(EngineError, ImportError):
    """numpy, which the solver needs, is not installed."""


def require_numpy() -> ModuleType:
    """numpy, or :class:`SolverUnavailableError` naming the extra that installs it."""
    if np is None:
        raise SolverUnavailableError(
            f"the Peg Solitaire solver needs numpy: .venv/bin/pip install -e '.[{EXTRA}]'"
        )
    return np


# ---------------------------------------------------------------------------------------------
# The board as bits

_BOARD = cross33(Diagonals.NONE)
HOLE_BIT: tuple[int, ...] = (0, *(1 << (8 * r + c) for r, c in _BOARD.coords[1:]))
"""The bitboard bit of each hole (index 0 unused)."""
FULL = sum(HOLE_BIT)
"""Every hole filled."""
_HOLE_OF_BIT = {b.bit_length() - 1: h for h, b in enumerate(HOLE_BIT) if h}

# Jumps go 2 bits along a row (right), 16 bits down a column, or back. For each direction: the
# bits a jump may start from, and the shift from a hole to the next on its line.
_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 1), (1, -1), (8, 1), (8, -1))
"""(step, sign): a jump from bit b goes over b + sign*step to b + 2*sign*step."""


def _from_mask(step: int, sign: int) -> int:
    mask = 0
    for hole in HOLES:
        for over, land in _BOARD.jumps[hole]:
            a, b, c = (HOLE_BIT[h].bit_length() - 1 for h in (hole, over, land))
            if b - a == sign * step and c - a == 2 * sign * step:
                mask |= HOLE_BIT[hole]
    return mask


_FROM = tuple(_from_mask(step, sign) for step, sign in _DIRECTIONS)
assert sum(bin(m).count("1") for m in _FROM) == sum(len(j) for j in _BOARD.jumps)

# Keys: the canonical bitboard folded into 37 bits. Rows 5-6 (bits 42-44, 50-52) drop into
# the unused bits 5-7 and 13-15 of rows 0-1, and the two unused low bits go.
_ROWS04 = sum(b for b in HOLE_BIT if b < 1 << 40)
_FOLDED = (0b111 << 5) | (0b111 << 13)
_YMASK = _ROWS04 | _FOLDED
KEY_BITS = 37
PARENT_BITS = 64 - KEY_BITS


def key_of(x: int) -> int:
    """The key of a bitboard (no symmetry applied): 37 bits, order as the solver sorts."""
    return ((x | (x >> 37)) & _YMASK) >> 2


def board_of(key: int) -> int:
    """The bitboard of a key."""
    y = key << 2
    return (y & _ROWS04) | ((y & _FOLDED) << 37)


def compact_of(key: int) -> int:
    """A key squeezed to 33 bits (its four always-empty bits removed; order kept)."""
    return (
        (key & 0x3F)
        | ((key >> 2) & ((0x3F << 6) | (0x7F << 12)))
        | ((key >> 3) & (0x7F << 19))
        | ((key >> 4) & (0x7F << 26))
    )


def bits_of(holes: Sequence[int] | Iterator[int]) -> int:
    """The bitboard with pegs on these holes."""
    x = 0
    for h in holes:
        x |= HOLE_BIT[h]
    return x


def holes_of(x: int) -> list[int]:
    """The holes with a peg on a bitboard, in order."""
    return sorted(_HOLE_OF_BIT[i] for i in range(64) if x >> i & 1)


# ---------------------------------------------------------------------------------------------
# Symmetries


@dataclass(frozen=True, slots=True, order=True)
class Symmetry:
    """One of the board's 8: transpose (``t``), then mirror left-right (``h``), then
    top-bottom (``v``), each if set."""

    t: bool
    h: bool
    v: bool

    def cell(self, row: int, col: int) -> tuple[int, int]:
        if self.t:
            row, col = col, row
        if self.h:
            col = 6 - col
        if self.v:
            row = 6 - row
        return row, col

    def hole(self, hole: int) -> int:
        at = _BOARD.hole_at(*self.cell(*_BOARD.coords[hole]))
        assert at is not None
        return at

    def apply(self, x: int) -> int:
        """The bitboard moved by this symmetry (one bit at a time: for checks and tests)."""
        moved = _bit_map(self)
        out = 0
        while x:
            low = x & -x
            out |= moved[low]
            x ^= low
        return out

    @property
    def name(self) -> str:
        return "".join(n for n, on in (("v", self.v), ("h", self.h), ("t", self.t)) if on) or "id"


@functools.cache
def _bit_map(s: Symmetry) -> dict[int, int]:
    return {HOLE_BIT[h]: HOLE_BIT[s.hole(h)] for h in HOLES}


SYMMETRIES: tuple[Symmetry, ...] = tuple(
    Symmetry(t, h, v) for t, h, v in itertools.product((False, True), repeat=3)
)


def symmetries_fixing(*holes: int) -> tuple[Symmetry, ...]:
    """The symmetries that keep each of these holes in place (all 8 for the centre)."""
    for h in holes:
        check_hole("hole", h)
    return tuple(s for s in SYMMETRIES if all(s.hole(h) == h for h in holes))


# ---------------------------------------------------------------------------------------------
# numpy kernels. Everything below works on chunks small enough for the core's cache.

CHUNK = 1 << 15
"""Positions a kernel handles at a time."""


def _u(value: int) -> Any:
    return np.uint64(value)


_TRANSPOSE = ((28, 0x0F0F0F0F00000000), (14, 0x3333000033330000), (7, 0x5500550055005500))
"""Three delta swaps that transpose an 8x8 bitboard (bit 8*r + c to 8*c + r)."""


class _Kernels:
    """One thread's scratch arrays and the word operations on them."""

    def __init__(self, group: Sequence[Symmetry], size: int = CHUNK * 4) -> None:
        self.group = tuple(group)
        self._t = np.empty(size, np.uint64)
        self._u = np.empty(size, np.uint64)
        self._img = np.empty(size, np.uint64)
        self._z = np.empty(size, np.uint64)
        self._h = np.empty(size, np.uint64)

    # the three word operations, each written into ``out`` (never ``x``)
    def _transpose(self, x: U64, out: U64, t: U64, u: U64) -> None:
        np.copyto(out, x)
        for shift, mask in _TRANSPOSE:
            s = _u(shift)
            np.left_shift(out, s, out=t)
            np.bitwise_xor(t, out, out=t)
            np.bitwise_and(t, _u(mask), out=t)
            np.right_shift(t, s, out=u)
            np.bitwise_xor(t, u, out=u)
            np.bitwise_xor(out, u, out=out)

    def _mirror_h(self, x: U64, out: U64, t: U64, u: U64) -> None:
        # columns 0-2 swap with 4-6, then 0 with 2 and 4 with 6 (col c -> 6 - c)
        np.copyto(out, x)
        for shift, mask in ((4, 0x0707070707070707), (2, 0x1111111111111111)):
            s = _u(shift)
            np.right_shift(out, s, out=t)
            np.bitwise_xor(t, out, out=t)
            np.bitwise_and(t, _u(mask), out=t)
            np.left_shift(t, s, out=u)
            np.bitwise_xor(t, u, out=u)
            np.bitwise_xor(out, u, out=out)

    @staticmethod
    def _mirror_v(x: U64, out: U64) -> None:
        np.copyto(out, x.view(">u8"), casting="unsafe")  # a byte swap: row r -> 7 - r
        np.right_shift(out, _u(8), out=out)

    def canonical(self, x: U64, out: U64) -> None:
        """``out`` = the least image of each position under the group."""
        n = len(x)
        t, u, img, z, hh = (a[:n] for a in (self._t, self._u, self._img, self._z, self._h))
        np.copyto(out, x)
        for transposed in (False, True):
            mine = [s for s in self.group if s.t == transposed]
            if not mine:
                continue
            if transposed:
                self._transpose(x, z, t, u)
                base: U64 = z
            else:
                base = x
            if any(s.h for s in mine):
                self._mirror_h(base, hh, t, u)
            for s in mine:
                src = hh if s.h else base
                if s.v:
                    self._mirror_v(src, img)
                    np.minimum(out, img, out=out)
                elif s.h or s.t:
                    np.minimum(out, src, out=out)

    def keys(self, x: U64, out: U64) -> None:
        """``out`` = the canonical key of each bitboard ``x``, a piece at a time."""
        step = len(self._t)
        for a in range(0, len(x), step):
            piece = out[a : a + step]
            self.canonical(x[a : a + step], piece)
            self.fold(piece, piece)

    def fold(self, x: U64, out: U64) -> None:
        """``out`` = the keys of bitboards ``x`` (``out`` may be ``x``)."""
        t = self._t[: len(x)]
        np.right_shift(x, _u(37), out=t)
        np.bitwise_or(t, x, out=out)
        np.bitwise_and(out, _u(_YMASK), out=out)
        np.right_shift(out, _u(2), out=out)


def _unfold(keys: U64) -> U64:
    y = keys << _u(2)
    x: U64 = (y & _u(_ROWS04)) | ((y & _u(_FOLDED)) << _u(37))
    return x


def _movable(x: U64, d: int) -> U64:
    """For each position, the bits from which a jump in direction ``d`` can start."""
    step, sign = _DIRECTIONS[d]
    s1, s2 = _u(step), _u(2 * step)
    # a peg, a peg on the next hole along the line, and the hole after that empty
    m = x & (x >> s1) & ~(x >> s2) if sign > 0 else x & (x << s1) & ~(x << s2)
    out: U64 = m & _u(_FROM[d])
    return out


def move_counts(x: U64) -> npt.NDArray[np.uint8]:
    """How many jumps each position has."""
    count = np.zeros(len(x), np.uint8)
    for d in range(4):
        count += np.bitwise_count(_movable(x, d))
    return count


def _children(x: U64, first: int = 0) -> tuple[U64, npt.NDArray[np.int64]]:
    """Every jump from every position: the positions after them and the index (plus
    ``first``) of the position each came from."""
    movable = [_movable(x, d) for d in range(4)]
    which = [np.flatnonzero(m) for m in movable]
    idx = np.concatenate(which)
    m = np.concatenate([movable[d][w] for d, w in enumerate(which)])
    xs = x[idx]
    # per entry: the jump's three bits are (lsb >> low) * pattern
    sizes = [len(w) for w in which]
    lows = [0 if sign > 0 else 2 * step for step, sign in _DIRECTIONS]
    low = np.repeat(np.array(lows, np.uint64), sizes)
    pattern = np.repeat(
        np.array([1 | 1 << step | 1 << 2 * step for step, _ in _DIRECTIONS], np.uint64), sizes
    )
    idx += first
    kids: list[U64] = []
    parents: list[npt.NDArray[np.int64]] = []
    one = _u(1)
    while len(idx):
        lsb = m & (~m + one)
        kids.append(xs ^ ((lsb >> low) * pattern))
        parents.append(idx)
        m ^= lsb
        keep = m != 0
        idx, m, xs, low, pattern = idx[keep], m[keep], xs[keep], low[keep], pattern[keep]
    if not kids:
        return np.empty(0, np.uint64), np.empty(0, np.int64)
    return np.concatenate(kids), np.concatenate(parents)


# ---------------------------------------------------------------------------------------------
# Levels

Progress = Callable[[str, int, int], None]
"""Called as a level is done: (phase, pegs, classes in the level)."""


def _quiet(phase: str, pegs: int, size: int) -> None:
    pass


def _workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def _chunks(n: int, size: int = CHUNK) -> list[tuple[int, int]]:
    return [(a, min(n, a + size)) for a in range(0, n, size)]


class _Pool:
    """Chunks of work on two threads (numpy lets go of the GIL in its loops), each thread
    with scratch arrays of its own."""

    def __init__(self, group: Sequence[Symmetry]) -> None:
        self.group = tuple(group)
        self._executor = ThreadPoolExecutor(_workers())
        self._local = threading.local()

    def kernels(self) -> _Kernels:
        k: _Kernels | None = getattr(self._local, "kernels", None)
        if k is None:
            k = self._local.kernels = _Kernels(self.group)
        return k

    def map(self, fn: Callable[[int, int], None], spans: list[tuple[int, int]]) -> None:
        for future in [self._executor.submit(fn, a, b) for a, b in spans]:
            future.result()

    def close(self) -> None:
        self._executor.shutdown()

    def canonical_keys(self, x: U64, out: U64) -> None:
        """``out`` = the canonical key of each bitboard ``x`` (any length)."""

        def work(a: int, b: int) -> None:
            self.kernels().keys(x[a:b], out[a:b])

        self.map(work, _chunks(len(x), CHUNK * 4))


LEVEL_BYTES = 256 << 20
"""About the most memory one level's children may take at once. A level with more (other
finish holes than the centre, with fewer symmetries) is expanded in several passes, each
keeping the keys of one range: the memory of one, the time of several."""


def _level_children_keys(pool: _Pool, keys: U64) -> U64:
    """The sorted distinct canonical keys of every position one jump on from ``keys``."""
    x = _unfold(keys)
    ends = np.cumsum(move_counts(x), dtype=np.int64)
    total = int(ends[-1]) if len(ends) else 0
    spans = _chunks(len(x), CHUNK // 4)
    if total * 8 <= LEVEL_BYTES:
        buf = np.empty(total, np.uint64)

        def work(a: int, b: int) -> None:
            kids, _ = _children(x[a:b])
            start = int(ends[a - 1]) if a else 0
            pool.kernels().keys(kids, buf[start : start + len(kids)])

        pool.map(work, spans)
        return _distinct(buf)
    # a pass holds its range's keys twice (gathered, then joined): hence 16 bytes a child
    passes = -(-total * 16 // LEVEL_BYTES)
    bounds = _pivots(pool, x, passes)
    done: list[U64] = []
    for lo, hi in itertools.pairwise(bounds):
        parts: list[U64] = []

        def keep(a: int, b: int, lo: int = lo, hi: int = hi, parts: list[U64] = parts) -> None:
            kids, _ = _children(x[a:b])
            found = np.empty(len(kids), np.uint64)
            pool.kernels().keys(kids, found)
            parts.append(found[(found >= _u(lo)) & (found < _u(hi))])

        pool.map(keep, spans)
        joined = np.concatenate(parts) if parts else np.empty(0, np.uint64)
        parts.clear()
        done.append(_distinct(joined))
    return np.concatenate(done)


def _pivots(pool: _Pool, x: U64, passes: int) -> list[int]:
    """Bounds splitting the keys of the children of ``x`` into ``passes`` ranges of about
    the same size, judged from the children of a sample of ``x``."""
    sample = x[:: max(1, len(x) // 20_000)]
    kids, _ = _children(sample)
    found = np.empty(len(kids), np.uint64)
    pool.kernels().keys(kids, found)
    found.sort()
    inner = [int(found[len(found) * i // passes]) for i in range(1, passes)] if len(found) else []
    return [0, *inner, 1 << KEY_BITS]


def _distinct(keys: U64) -> U64:
    """The distinct values of ``keys``, sorted (``keys`` is sorted in place)."""
    a = keys
    a.sort()
    if len(a) == 0:
        return a
    keep = np.empty(len(a), bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    out: U64 = a[keep]
    return out


def start_key(hole: int, group: Sequence[Symmetry]) -> int:
    """The canonical key of the start with only ``hole`` empty."""
    return canonical_key(FULL ^ HOLE_BIT[hole], group)


def canonical_key(x: int, group: Sequence[Symmetry]) -> int:
    """The canonical key of one bitboard: the key of its least image under the group."""
    out = np.empty(1, np.uint64)
    _Kernels(group, size=1).keys(np.array([x], np.uint64), out)
    return int(out[0])


def iter_reachable(
    start: int, group: Sequence[Symmetry], progress: Progress = _quiet, down_to: int = 1
) -> Iterator[tuple[int, U64]]:
    """Every class of position reachable from the start with only ``start`` empty, a level at
    a time from 32 pegs down to ``down_to``: ``(pegs, sorted canonical keys)``. Only the level
    being expanded is held. ``group`` must keep ``start`` in place."""
    require_numpy()
    check_hole("start", start)
    _check_group(group, FULL ^ HOLE_BIT[start])
    pool = _Pool(group)
    try:
        level = np.array([start_key(start, group)], np.uint64)
        progress("reachable", 32, 1)
        yield 32, level
        for pegs in range(31, max(0, down_to - 1), -1):
            level = _level_children_keys(pool, level)
            progress("reachable", pegs, len(level))
            yield pegs, level
    finally:
        pool.close()


def reachable_levels(
    start: int, group: Sequence[Symmetry], progress: Progress = _quiet, down_to: int = 1
) -> dict[int, U64]:
    """:func:`iter_reachable`'s levels, all of them held: ``{pegs: sorted canonical keys}``."""
    return dict(iter_reachable(start, group, progress, down_to))


def symmetries_keeping(board: int, *holes: int) -> tuple[Symmetry, ...]:
    """The symmetries that map the bitboard onto itself and keep each hole in place."""
    return tuple(
        s for s in SYMMETRIES if s.apply(board) == board and all(s.hole(h) == h for h in holes)
    )


def _check_group(group: Sequence[Symmetry], board: int) -> None:
    for s in group:
        if s.apply(board) != board:
            raise SolverError(f"symmetry {s.name} moves the start")
    if Symmetry(False, False, False) not in group:
        raise SolverError("the symmetries must include the identity")


# ---------------------------------------------------------------------------------------------
# Counting


@dataclass(frozen=True, slots=True)
class Counts:
    """What :func:`analyse` finds for one start and finish."""

    finish: int
    symmetries: int
    """How many of the board's symmetries keep the start and the finish in place (positions
    equal under them are counted once)."""
    reachable: int
    """Classes of positions reachable from the start (the start included)."""
    winning: int
    """Of those, the classes from which one peg can still be left on the finish."""
    solutions: int
    """Move sequences from the start that leave one peg, on the finish."""
    sequences: int
    """Move sequences from the start played until no jump is left."""


_LIMB = 32
_LIMB_MASK = (1 << _LIMB) - 1


def _to_int(limbs: npt.NDArray[np.uint32]) -> int:
    """The sum of a (3, n) array of 32-bit limbs (least first), exactly."""
    # each row's sum of n < 2^32 values under 2^32 fits 64 bits
    sums = limbs.sum(axis=1, dtype=np.uint64)
    return sum(int(sums[i]) << (_LIMB * i) for i in range(3))


def _carry(s: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint32]:
    """(3, n) limb sums (each under 2^64) carried so that every limb is under 2^32."""
    mask = _u(_LIMB_MASK)
    s[1] += s[0] >> _u(_LIMB)
    s[2] += s[1] >> _u(_LIMB)
    if s.shape[1] and int(s[2].max()) > _LIMB_MASK:
        raise SolverError("a count passed 2^96: more than the solver carries")
    s &= mask
    out: npt.NDArray[np.uint32] = s.astype(np.uint32)
    return out


def _count_step(
    pool: _Pool, keys: U64, ways: npt.NDArray[np.uint32]
) -> tuple[U64, npt.NDArray[np.uint32], int]:
    """One level on: the next level's keys, the ways into each of its classes, and the ways
    into this level's dead ends (positions with no jump).

    ``ways[:, i]`` (three 32-bit limbs, least first) counts the move sequences from the start
    that end on any position of class ``keys[i]``. Adding it, for each jump from the class's one
    representative, to the class that jump leads to gives the same count one level on: a
    symmetry maps the positions of a class, with their jumps, onto one another, so every
    position of a class has the representative's jumps into each next class.
    """
    n = len(keys)
    if n >= 1 << PARENT_BITS:
        raise SolverError(f"{n} classes in one level: more than the solver can index")
    x = _unfold(keys)
    counts = move_counts(x)
    dead = _to_int(ways[:, counts == 0])
    ends = np.cumsum(counts, dtype=np.int64)
    total = int(ends[-1]) if n else 0
    buf = np.empty(total, np.uint64)
    shift = _u(PARENT_BITS)

    def work(a: int, b: int) -> None:
        kids, parent = _children(x[a:b], a)
        start = int(ends[a - 1]) if a else 0
        out = buf[start : start + len(kids)]
        pool.kernels().keys(kids, out)
        np.left_shift(out, shift, out=out)
        np.bitwise_or(out, parent.astype(np.uint64), out=out)

    pool.map(work, _chunks(n, CHUNK // 4))
    buf.sort()
    next_keys: list[U64] = []
    next_ways: list[npt.NDArray[np.uint32]] = []
    low = _u((1 << PARENT_BITS) - 1)
    a, size = 0, 1 << 20
    while a < total:
        b = min(total, a + size)
        if b < total:  # end on a class's first entry, so no class is split between pieces
            last = buf[b - 1] >> shift
            while b < total and buf[b] >> shift == last:
                b += 1
        piece = buf[a:b]
        child = piece >> shift
        parent = (piece & low).astype(np.intp)
        first = np.empty(len(child), bool)
        first[0] = True
        np.not_equal(child[1:], child[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        next_keys.append(child[starts])
        sums = np.empty((3, len(starts)), np.uint64)
        for limb in range(3):  # one limb at a time: gathers from 2-d arrays are slow
            sums[limb] = np.add.reduceat(ways[limb][parent], starts, dtype=np.uint64)
        next_ways.append(_carry(sums))
        a = b
    if not next_keys:
        return np.empty(0, np.uint64), np.empty((3, 0), np.uint32), dead
    return np.concatenate(next_keys), np.concatenate(next_ways, axis=1), dead


def _winning_levels(
    pool: _Pool, reach: dict[int, U64], finish: int, progress: Progress
) -> dict[int, U64]:
    """The classes of ``reach`` from which one peg can be left on ``finish``, by pegs: from the
    finish back, each level's positions that have a jump into the level below's."""
    group = pool.group
    won = np.array([canonical_key(HOLE_BIT[finish], group)], np.uint64)
    win = {1: _intersect(won, reach.get(1, np.empty(0, np.uint64)))}
    progress("winning", 1, len(win[1]))
    full = _u(FULL)
    for pegs in range(2, 33):
        below = win[pegs - 1]
        if len(below) == 0:
            win[pegs] = below
            continue
        # a jump backwards is a jump forwards on the complement
        holes = full ^ _unfold(below)
        kids, _ = _children(holes)
        before = full ^ kids
        keys = np.empty(len(before), np.uint64)
        pool.canonical_keys(before, keys)
        win[pegs] = _intersect(_distinct(keys), reach.get(pegs, np.empty(0, np.uint64)))
        progress("winning", pegs, len(win[pegs]))
    return win


def _intersect(sorted_a: U64, sorted_b: U64) -> U64:
    """The keys in both sorted, distinct arrays."""
    if len(sorted_a) == 0 or len(sorted_b) == 0:
        return np.empty(0, np.uint64)
    at = np.searchsorted(sorted_b, sorted_a)
    at[at == len(sorted_b)] = 0
    out: U64 = sorted_a[sorted_b[at] == sorted_a]
    return out


def check_hole(key: str, hole: int) -> int:
    """``hole`` if it is a hole of the board, else an error naming ``key``."""
    if hole not in HOLES:
        raise InvalidOptionError(f"{key}: there is no hole {hole} (1-33)")
    return hole


def analyse(
    start: int = 17,
    finish: int | None = None,
    progress: Progress = _quiet,
    keep: Callable[[dict[int, U64], tuple[Symmetry, ...]], None] | None = None,
) -> Counts:
    """The four counts for a start and a finish hole (finish: the start's by default).

    Positions are counted once per class under the symmetries that keep both holes in place.
    ``keep``, if given, receives the reachable levels and that group (to cache them) before
    they are let go.
    """
    require_numpy()
    start = check_hole("start", start)
    finish = check_hole("finish", start if finish is None else finish)
    return analyse_from(FULL ^ HOLE_BIT[start], finish, progress, keep)


def analyse_from(
    board: int,
    finish: int,
    progress: Progress = _quiet,
    keep: Callable[[dict[int, U64], tuple[Symmetry, ...]], None] | None = None,
) -> Counts:
    """:func:`analyse` from any position (a bitboard, :func:`bits_of`)."""
    require_numpy()
    finish = check_hole("finish", finish)
    if not 0 < board <= FULL or board & ~FULL:
        raise SolverError("analyse: the position has no pegs")
    group = symmetries_keeping(board, finish)
    pool = _Pool(group)
    try:
        top = bin(board).count("1")
        level = np.array([canonical_key(board, group)], np.uint64)
        ways = np.array([[1], [0], [0]], np.uint32)
        reach = {top: level}
        sequences = 0
        progress("reachable", top, 1)
        for pegs in range(top - 1, 0, -1):
            level, ways, dead = _count_step(pool, level, ways)
            sequences += dead
            reach[pegs] = level
            progress("reachable", pegs, len(level))
        # the last level holds one peg: no jump is left from any of its positions
        sequences += _to_int(ways)
        won = canonical_key(HOLE_BIT[finish], group)
        at = int(np.searchsorted(level, _u(won)))
        solutions = 0
        if at < len(level) and int(level[at]) == won:
            solutions = _to_int(ways[:, at : at + 1])
        win = _winning_levels(pool, reach, finish, progress)
        if keep is not None:
            keep(reach, group)
        return Counts(
            finish=finish,
            symmetries=len(group),
            reachable=sum(len(v) for v in reach.values()),
            winning=sum(len(v) for v in win.values()),
            solutions=solutions,
            sequences=sequences,
        )
    finally:
        pool.close()


# ---------------------------------------------------------------------------------------------
# The winning set: what a hint looks up

Level = tuple["U32", int]
"""One level of a winning set: the low 32 bits of its sorted compact keys, and the index at
which the keys of 2^32 and over begin."""
LevelSource = Callable[[int], Level]
"""The level of a winning set with so many pegs in the complement (1-32)."""


def _compact(keys: U64) -> U64:
    """:func:`compact_of` on an array."""
    out: U64 = (
        (keys & _u(0x3F))
        | ((keys >> _u(2)) & _u((0x3F << 6) | (0x7F << 12)))
        | ((keys >> _u(3)) & _u(0x7F << 19))
        | ((keys >> _u(4)) & _u(0x7F << 26))
    )
    return out


def lookup_level(keys: U64) -> Level:
    """A level's sorted canonical keys as :class:`WinningSet` looks them up."""
    z = _compact(keys)
    split = int(np.searchsorted(z, _u(1 << 32)))
    return (z & _u(0xFFFFFFFF)).astype(np.uint32), split


def lookup_levels(reach: dict[int, U64]) -> dict[int, Level]:
    """:func:`lookup_level` for each level."""
    return {pegs: lookup_level(keys) for pegs, keys in reach.items()}


def iter_finish_levels(
    finish: int, progress: Progress = _quiet, down_to: int = 1
) -> Iterator[tuple[int, Level]]:
    """What a :class:`WinningSet` for ``finish`` looks up, a level at a time from 32 pegs
    down: the positions reachable from the start with only ``finish`` empty, under the
    symmetries that keep it in place. With ``down_to`` above 1, only the levels from 32 pegs
    down to it: enough to answer for positions of up to ``33 - down_to`` pegs."""
    require_numpy()
    finish = check_hole("finish", finish)
    group = symmetries_fixing(finish)
    for pegs, keys in iter_reachable(finish, group, progress, down_to):
        yield pegs, lookup_level(keys)


def finish_levels(finish: int, progress: Progress = _quiet, down_to: int = 1) -> dict[int, Level]:
    """:func:`iter_finish_levels`, all levels held."""
    return dict(iter_finish_levels(finish, progress, down_to))


class WinningSet:
    """Every position from which one peg can be left on ``finish``, looked up.

    A position can be won exactly when its complement (pegs and holes swapped) can be reached
    from the start with only ``finish`` empty: a jump played backwards is a jump of the
    complement. ``level(m)`` gives those reachable positions with ``m`` pegs
    (:func:`finish_levels`; the controller keeps them on disk).
    """

    def __init__(self, finish: int, level: LevelSource) -> None:
        require_numpy()
        self.finish = check_hole("finish", finish)
        self.group = symmetries_fixing(self.finish)
        self._level = level
        self._kernels = _Kernels(self.group, size=256)

    def can_win_boards(self, boards: Sequence[int]) -> list[bool]:
        """For each bitboard (:func:`bits_of`), whether one peg can still be left on the
        finish."""
        found = [False] * len(boards)
        if not boards:
            return found
        comp = _u(FULL) ^ np.array(boards, np.uint64)
        keys = np.empty(len(comp), np.uint64)
        self._kernels.keys(comp, keys)
        z = _compact(keys)
        pegs = np.bitwise_count(comp)
        for m in np.unique(pegs).tolist():
            if not 1 <= m <= 32:
                continue  # no pegs left, or none taken yet: nothing can be won
            lows, split = self._level(m)
            at = np.flatnonzero(pegs == m)
            for high, part in ((0, lows[:split]), (1, lows[split:])):
                mine = at[(z[at] >> _u(32)) == _u(high)]
                if len(mine) == 0 or len(part) == 0:
                    continue
                want = (z[mine] & _u(0xFFFFFFFF)).astype(np.uint32)
                i = np.searchsorted(part, want)
                i[i == len(part)] = 0
                for j in mine[part[i] == want].tolist():
                    found[j] = True
        return found

    def _check(self, position: Any) -> None:
        if getattr(position, "game_id", None) != GAME:
            raise SolverError(f"the winning set is Peg Solitaire's, not {position.game_id}'s")
        options = position.options
        if options.diagonals is not Diagonals.NONE:
            raise SolverError(
                "the Peg Solitaire solver plays orthogonal jumps only (diagonals=none),"
                f" not diagonals={options.diagonals.value}"
            )
        if options.finish_hole != self.finish:
            raise SolverError(
                f"this winning set is for finish {self.finish}, the game's is {options.finish_hole}"
            )

    def can_win(self, position: Any) -> bool:
        """Whether one peg can still be left on the finish from a Solitaire position."""
        self._check(position)
        return self.can_win_boards([bits_of(position.holes_of("o"))])[0]

    def winning_moves(self, position: Any) -> list[Any]:
        """The position's jumps after which the game can still be won, in the engine's order
        (none when it is lost, or over)."""
        self._check(position)
        x = bits_of(position.holes_of("o"))
        moves = list(position.legal_moves)
        over = position.board.over
        after = [
            x ^ HOLE_BIT[m.start] ^ HOLE_BIT[over[(m.start, m.end)]] ^ HOLE_BIT[m.end]
            for m in moves
        ]
        return [m for m, ok in zip(moves, self.can_win_boards(after), strict=True) if ok]

    def hint(self, position: Any) -> Any:
        """A jump that keeps the game winnable, or None when none does (or the game is over)."""
        moves = self.winning_moves(position)
        return moves[0] if moves else None
