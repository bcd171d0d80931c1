"""Dice nobody can bias: commit and reveal.

Each board picks secret values (one per die, 0..sides-1) and a 32-byte nonce, and publishes
only the commitment ``sha256(nonce || values)``. Once a board holds the other's commitment
it reveals its nonce and values; each board checks the other's reveal against its
commitment, and the throw is ``(a + b) mod sides + 1`` per die. Neither board can choose the
throw: its own values are fixed before it sees the other's, and uniform values from either
side make the sum uniform. (A board may still walk away after seeing a reveal; the throw is
then made again with fresh values, which the other board's players see said.)
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.errors import ControllerError


class ForgedReveal(ControllerError, ValueError):
    """A reveal that does not match its commitment, or values no die shows."""


@dataclass(frozen=True)
class Secret:
    nonce: bytes
    values: tuple[int, ...]

    @classmethod
    def draw(cls, count: int, sides: int) -> Secret:
        """Fresh values from the system's cryptographic RNG."""
        return cls(secrets.token_bytes(32), tuple(secrets.randbelow(sides) for _ in range(count)))

    @property
    def commitment(self) -> str:
        return commitment(self.nonce, self.values)


def commitment(nonce: bytes, values: Sequence[int]) -> str:
    return hashlib.sha256(nonce + json.dumps(list(values)).encode()).hexdigest()


def check_reveal(
    committed: str, nonce_hex: str, values: Sequence[object], count: int, sides: int
) -> Secret:
    """The other board's reveal, checked against its commitment; ForgedReveal otherwise."""
    try:
        nonce = bytes.fromhex(nonce_hex)
    except ValueError:
        raise ForgedReveal(f"nonce {nonce_hex[:20]!r} is not hex") from None
    if len(nonce) != 32:
        raise ForgedReveal(f"a nonce of {len(nonce)} bytes (32 are due)")
    if len(values) != count or not all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < sides for v in values
    ):
        raise ForgedReveal(f"values {list(values)} are not {count} numbers 0-{sides - 1}")
    ints = tuple(v for v in values if isinstance(v, int))
    if commitment(nonce, ints) != committed:
        raise ForgedReveal(f"values {list(ints)} do not match the commitment {committed[:12]}...")
    return Secret(nonce, ints)


def combine(a: Sequence[int], b: Sequence[int], sides: int) -> tuple[int, ...]:
    """The throw from both boards' values: (a + b) mod sides + 1 per die."""
    return tuple((x + y) % sides + 1 for x, y in zip(a, b, strict=True))
