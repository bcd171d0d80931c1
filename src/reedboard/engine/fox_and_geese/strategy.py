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
"""

from __future__ import annotations

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
        self, rules: str, fox_wins_at: int, keys: array[int], sources: bytes, targets: bytes
    ) -> None:
        self.rules = rules
        """The rules it is for (:func:`rules_text`)."""
        self.fox_wins_at = fox_wins_at
        """The fox wins when this many geese or fewer are left."""
        self.keys = keys
        self.sources = sources
        self.targets = targets

    def __len__(self) -> int:
        return len(self.keys)

    def answer(self, key: int) -> tuple[int, int] | None:
        """The goose move (from, to) for a position's key (:func:`key_of`), or None."""
        at = bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return None
        return self.sources[at], self.targets[at]

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
        found = self.answer(key_of(position.holes_of("G"), position.holes_of("F")[0]))
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
    return Strategy(rules, fox_wins_at, keys, body[8 * count : 9 * count], body[9 * count :])


@functools.cache
def shipped() -> Strategy | None:
    """The strategy shipped with reedboard (read once), or None when it is not there."""
    try:
        data = resources.files("reedboard.engine").joinpath("data", DATA).read_bytes()
    except (FileNotFoundError, OSError):
        return None
    return read(data)


def _little() -> bool:
    return array("H", b"\x01\x00")[0] == 1


def _le(values: array[int]) -> bytes:
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()
