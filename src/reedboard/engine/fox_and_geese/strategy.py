"""McLoughlin's Fox and Geese: the geese's winning strategy, shipped as data (issue 30).

For every position the strategy reaches with the geese to move (every fox reply followed from
the start), the goose move that keeps the win. It was read off the exact solve's layers
(reedboard/analysis/, docs/mcloughlin.md) and is checked, reply by reply, by a verifier that
uses only this engine's rules (reedboard/analysis/mcloughlin_verify.py). The computer's geese
at the top level play it (:meth:`McLoughlinFoxAndGeese.proved_move`), and a hint in a
position it holds is a proof.

The file (``reedboard/engine/data/fox-and-geese-mcloughlin-strategy.bin``), little-endian::

    b"RBMCLSTR"  u16 format version  u16 fox_wins_at  u32 entries  u32 CRC-32 of the body
    u32 length of the rules text, then the rules text (UTF-8, ``diagonals=alternate
    sideways_points=7,13``), then the body, compressed with xz (lzma): the entries' keys in
    increasing order as u64 gaps (the first from 0), then a byte per entry the goose's hole,
    then a byte per entry the hole it steps to.

A key is ``geese << 6 | fox``: ``geese`` has bit h-1 set for a goose on hole h, ``fox`` is
the fox's hole. Loaded, the keys are one ``array('Q')`` (8 bytes an entry) searched by
bisection.

The fox's side of it (issue 30, "the fox at the top level resists longest"): beside the
strategy ships, for each of its entries, how long the fox can make the geese's win take from
there, the *depth*: the plies from that position (geese to move) to the game's end along the
longest line of the strategy's tree, the answer counted (1 when it ends the game; always odd,
since every line ends with a goose move). It was computed once by a memoized walk of the tree
with the engine's moves (reedboard/analysis/mcloughlin_depths.py). With it the top level's fox,
where every fox move leads into the strategy, plays the move whose entry is deepest
(:meth:`Strategy.longest_move`): the one after which the geese need the most moves to win.
Depths of the geese-to-move entries, not of fox-to-move positions, because those are what the
fox's moves lead to, and they need no keys of their own: the strategy's order is theirs.

The depths' file (``reedboard/engine/data/fox-and-geese-mcloughlin-depths.bin``),
little-endian::

    b"RBMCLDEP"  u16 format version  u32 entries  u32 CRC-32 of the strategy's body (the one
    it is for)  u32 CRC-32 of the depths, then the depths compressed with xz: a byte per entry,
    in the strategy's key order, (depth - 1) / 2 (the fox's moves left).
"""

from __future__ import annotations

import contextlib
import functools
import lzma
import struct
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from importlib import resources
from itertools import accumulate, pairwise
from typing import Any

from reedboard.engine.cross import CrossMove
from reedboard.engine.errors import EngineError

MAGIC = b"RBMCLSTR"
VERSION = 1
DATA = "fox-and-geese-mcloughlin-strategy.bin"
"""The shipped strategy's file in ``reedboard/engine/data/``."""
_HEAD = struct.Struct("<8sHHIII")
DEPTHS_MAGIC = b"RBMCLDEP"
DEPTHS_VERSION = 1
DEPTHS_DATA = "fox-and-geese-mcloughlin-depths.bin"
"""The shipped strategy's depths (the fox's side) in ``reedboard/engine/data/``."""
_DEPTHS_HEAD = struct.Struct("<8sHIII")


class StrategyFileError(EngineError, ValueError):
    """Bytes that are not a strategy this engine reads (damaged, cut short, another
    version): the message says what is wrong."""


def rules_text(position_or_options: Any) -> str:
    """The rules a strategy is for, as its file names them (the options that change the
    moves; where the geese start does not: a strategy answers positions)."""
    options = getattr(position_or_options, "options", position_or_options)
    sideways = ",".join(map(str, sorted(options.sideways_points)))
    return f"diagonals={options.diagonals.value} sideways_points={sideways}"


def key_of(geese: Iterable[int], fox: int) -> int:
    """The key of a position: its geese's holes and the fox's hole."""
    mask = 0
    for hole in geese:
        mask |= 1 << (hole - 1)
    return mask << 6 | fox


class Strategy:
    """A strategy read from its file: the goose move for each position it holds."""

    def __init__(
        self,
        rules: str,
        fox_wins_at: int,
        keys: array[int],
        sources: bytes,
        targets: bytes,
        checksum: int = 0,
    ) -> None:
        self.rules = rules
        """The rules it is for (:func:`rules_text`)."""
        self.fox_wins_at = fox_wins_at
        """The fox wins when this many geese or fewer are left."""
        self.keys = keys
        self.sources = sources
        self.targets = targets
        self.checksum = checksum
        """The CRC-32 of its file's body: a depths' file names the strategy it is for by it."""
        self.depths: bytes | None = None
        """Per entry, in key order, its depth (the module's docstring), once read
        (:func:`read_depths`); None without."""

    def __len__(self) -> int:
        return len(self.keys)

    def index(self, key: int) -> int | None:
        """The entry of a position's key (:func:`key_of`) in key order, or None."""
        at = bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return None
        return at

    def answer(self, key: int) -> tuple[int, int] | None:
        """The goose move (from, to) for a position's key (:func:`key_of`), or None."""
        at = self.index(key)
        return None if at is None else (self.sources[at], self.targets[at])

    def depth(self, key: int) -> int | None:
        """The plies from a position (geese to move, its key) to the game's end along the
        deepest line of this strategy's tree, or None (not in it, or no depths read)."""
        at = self.index(key)
        return None if at is None or self.depths is None else 2 * self.depths[at] + 1

    def fox_depths(self, position: Any) -> list[tuple[CrossMove, int]] | None:
        """Each of the fox's legal moves in ``position`` (fox to move) with the plies from
        here to the end along the deepest line of the strategy after it; None when a fox
        move leads out of the strategy (or ends the game), the position is not the fox's to
        move, not for this strategy's rules, or no depths were read."""
        if position.turn != "fox" or self.depths is None or not self.answers(position):
            return None
        found = []
        for move in position.legal_moves:
            position.push(move)
            over = position.outcome() is not None
            depth = None if over else self.depth(_key(position))
            position.pop()
            if depth is None:
                return None
            found.append((move, 1 + depth))
        return found or None

    def longest_move(self, position: Any) -> CrossMove | None:
        """The fox's move in ``position`` that makes the geese's win under this strategy
        take longest (:meth:`fox_depths`, the deepest; of equally deep ones, the one that
        leaves the fox the most moves after the geese's answer, then the first in the
        engine's order), or None where :meth:`fox_depths` is None."""
        found = self.fox_depths(position)
        if found is None:
            return None
        deepest = max(depth for _, depth in found)
        ties = [move for move, depth in found if depth == deepest]
        if len(ties) == 1:
            return ties[0]
        return max(ties, key=lambda move: self._fox_moves_after(position, move))

    def _fox_moves_after(self, position: Any, move: CrossMove) -> int:
        """How many moves the fox has after ``move`` and the strategy's answer to it."""
        position.push(move)
        answer = self.move(position)
        count = 0
        if answer is not None:
            position.push(answer)
            count = 0 if position.outcome() is not None else len(list(position.legal_moves))
            position.pop()
        position.pop()
        return count

    def answers(self, position: Any) -> bool:
        """Whether this strategy is for the position's rules (the position may still be
        outside it)."""
        return (
            getattr(position, "game_id", None) == "fox-and-geese-mcloughlin"
            and getattr(position, "geese_left_to_win", None) == self.fox_wins_at
            and rules_text(position) == self.rules
        )

    def move(self, position: Any) -> CrossMove | None:
        """The strategy's goose move in ``position`` (geese to move), or None when the
        position is not in it (or not for its rules)."""
        if position.turn != "geese" or not self.answers(position):
            return None
        found = self.answer(_key(position))
        if found is None:
            return None
        source, target = found
        for move in position.legal_moves:
            if move.path == (source, target):
                return move  # type: ignore[no-any-return]
        return None  # an entry that is not a legal move: the verifier catches it

    def entries(self) -> Iterable[tuple[int, int, int]]:
        """Every entry: (key, from, to), keys in increasing order."""
        return zip(self.keys, self.sources, self.targets, strict=True)


def write(rules: str, fox_wins_at: int, entries: Iterable[tuple[int, int, int]]) -> bytes:
    """A strategy's file: ``entries`` are (key, from hole, to hole), in any order, one a key."""
    rows = sorted(entries)
    keys = [k for k, _, _ in rows]
    if any(a == b for a, b in pairwise(keys)):
        raise ValueError("a strategy has one answer a position")
    gaps = array("Q", (b - a for a, b in zip([0, *keys], keys, strict=False)))
    body = gaps.tobytes() if _little() else _le(gaps)
    body += bytes(s for _, s, _ in rows) + bytes(t for _, _, t in rows)
    text = rules.encode()
    head = _HEAD.pack(MAGIC, VERSION, fox_wins_at, len(rows), zlib.crc32(body), len(text))
    return head + text + lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)


def read(data: bytes) -> Strategy:
    """A strategy from its file's bytes, checked whole (:class:`StrategyFileError`)."""
    if len(data) < _HEAD.size or not data.startswith(MAGIC):
        raise StrategyFileError("not a reedboard strategy file")
    _, version, fox_wins_at, count, crc, length = _HEAD.unpack_from(data)
    if version != VERSION:
        raise StrategyFileError(f"format {version}, this reedboard reads {VERSION}")
    rules = data[_HEAD.size : _HEAD.size + length].decode(errors="replace")
    try:
        body = lzma.decompress(data[_HEAD.size + length :])
    except lzma.LZMAError as exc:
        raise StrategyFileError(f"damaged ({exc})") from None
    if len(body) != 10 * count or zlib.crc32(body) != crc:
        raise StrategyFileError("damaged (checksum)")
    gaps = array("Q")
    gaps.frombytes(body[: 8 * count])
    if not _little():
        gaps.byteswap()
    keys = array("Q", accumulate(gaps))
    sources, targets = body[8 * count : 9 * count], body[9 * count :]
    return Strategy(rules, fox_wins_at, keys, sources, targets, crc)


def write_depths(strategy: Strategy, depths: Iterable[int]) -> bytes:
    """The depths' file for ``strategy``: ``depths`` are its entries' depths (odd plies, 1 to
    511), in key order."""
    values = list(depths)
    if any(not (d % 2 and 0 < d < 512) for d in values):
        raise ValueError("a depth is an odd number of plies, 1 to 511")
    body = bytes((d - 1) // 2 for d in values)
    if len(body) != len(strategy):
        raise ValueError(f"{len(body)} depths for a strategy of {len(strategy)} entries")
    crc = zlib.crc32(body)
    head = _DEPTHS_HEAD.pack(DEPTHS_MAGIC, DEPTHS_VERSION, len(body), strategy.checksum, crc)
    return head + lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)


def read_depths(data: bytes, strategy: Strategy) -> bytes:
    """The depths read from their file's bytes, checked whole and against the strategy they
    are for (:class:`StrategyFileError`); they are also set as ``strategy.depths``."""
    if len(data) < _DEPTHS_HEAD.size or not data.startswith(DEPTHS_MAGIC):
        raise StrategyFileError("not a reedboard strategy's depths file")
    _, version, count, for_crc, crc = _DEPTHS_HEAD.unpack_from(data)
    if version != DEPTHS_VERSION:
        raise StrategyFileError(f"depths format {version}, this reedboard reads {DEPTHS_VERSION}")
    if count != len(strategy) or for_crc != strategy.checksum:
        raise StrategyFileError("the depths are for another strategy")
    try:
        body = lzma.decompress(data[_DEPTHS_HEAD.size :])
    except lzma.LZMAError as exc:
        raise StrategyFileError(f"depths damaged ({exc})") from None
    if len(body) != count or zlib.crc32(body) != crc:
        raise StrategyFileError("depths damaged (checksum)")
    strategy.depths = body
    return body


@functools.cache
def shipped() -> Strategy | None:
    """The strategy shipped with reedboard (read once), with its depths when they are there
    too, or None when it is not there."""
    data = resources.files("reedboard.engine").joinpath("data")
    try:
        strategy = read(data.joinpath(DATA).read_bytes())
    except (FileNotFoundError, OSError):
        return None
    with contextlib.suppress(OSError):  # without them the fox searches, as at other levels
        read_depths(data.joinpath(DEPTHS_DATA).read_bytes(), strategy)
    return strategy


def _key(position: Any) -> int:
    return key_of(position.holes_of("G"), position.holes_of("F")[0])


def _little() -> bool:
    return array("H", b"\x01\x00")[0] == 1


def _le(values: array[int]) -> bytes:
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()
