"""Per-switch debouncing on bitmaps: a switch's change is reported only after its raw reading
has stayed the same for a stable window. Pure logic, fed with (bitmap, time) by a scanner."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Debouncer:
    """Report a switch's change once its raw reading has been stable for ``window`` seconds.

    A bounce shorter than the window (back to the reported state before it ends) is never
    reported. Scanning more slowly than the window is fine: a change seen on two scans a period
    apart is stable. But a pulse must span at least two scans to be seen at all.
    """

    def __init__(self, window: float, initial: int = 0) -> None:
        self.window = window - 1e-9  # times are floats: 0.013 - 0.008 < 0.005
        self.reported = initial
        """The debounced bitmap: what has been reported."""
        self._raw = initial
        self._since: dict[int, float] = {}

    def update(self, raw: int, now: float) -> list[tuple[int, bool]]:
        """Feed one scan; returns the (bit, closed) changes now stable, in bit order."""
        changed = raw ^ self._raw
        if changed:
            for bit in bits(changed):
                self._since[bit] = now
            self._raw = raw
        pending = raw ^ self.reported
        if not pending:
            return []
        out: list[tuple[int, bool]] = []
        for bit in bits(pending):
            if now - self._since[bit] >= self.window:
                closed = bool(raw >> bit & 1)
                self.reported ^= 1 << bit
                out.append((bit, closed))
        return out
