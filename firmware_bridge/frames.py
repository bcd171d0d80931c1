"""The LED chain over the link: what to send so the Pico's chain ends as the Pi wants it.

The Pico keeps a pending chain that ``C`` (all off) and ``L`` (LED values) lines write, and
shows it on ``F gg cccccccc`` only if its CRC-32 is ``cccccccc``, answering ``A gg`` with the
pending chain's CRC-32 either way. The Pi sends only what changed since what it last sent; it
repeats ``F`` every check (its heartbeat), and an answer with another checksum for the current
frame ``gg`` sends the whole frame again under the next ``gg``. So a lost or damaged line costs
at most one check period once the link is clean again, and a half-written frame is never shown.
"""

from __future__ import annotations

from firmware_bridge.firmware.wire import GROUPS_PER_LINE, crc32hex, hexw
from hardware.board_io import OFF, Colour


def chain_crc(colours: list[Colour]) -> str:
    return crc32hex(bytes(v for c in colours for v in c))


class LedSync:
    def __init__(self) -> None:
        self.gen = 0
        self.want: list[Colour] | None = None
        self.crc = ""
        self.sent: list[Colour] | None = None
        """What the Pico's pending chain holds if every line since the last whole frame
        arrived; None: unknown (send the whole frame)."""
        self.confirmed = False
        self.resends = 0

    def forget(self) -> None:
        """The Pico may hold anything (a new connection, a restart): the next frame goes whole."""
        self.sent = None
        self.confirmed = False

    def update(self, colours: list[Colour]) -> list[str]:
        """The lines that take the Pico from what it was sent to ``colours``."""
        if colours == self.want and self.sent is not None:
            return []
        self.want = list(colours)
        self.crc = chain_crc(self.want)
        return self._send(self.sent)

    def whole(self) -> list[str]:
        """The whole frame again (``C``, every lit LED, ``F``)."""
        return [] if self.want is None else self._send(None)

    def check(self) -> list[str]:
        """The periodic check of the current frame (the Pi's heartbeat)."""
        return [] if self.want is None else [f"F {hexw(self.gen, 2)} {self.crc}"]

    def answer(self, gen: int, crc: str) -> list[str]:
        """The Pico's ``A gen crc``: nothing to do, or the whole frame again."""
        if gen != self.gen or self.want is None:
            return []  # an answer about an earlier frame
        if crc == self.crc:
            self.confirmed = True
            return []
        self.resends += 1
        return self.whole()

    def _send(self, base: list[Colour] | None) -> list[str]:
        assert self.want is not None
        self.gen = (self.gen + 1) & 0xFF
        self.confirmed = False
        lines = [] if base is not None else ["C"]
        groups = [
            hexw(i, 2) + "".join(hexw(v, 2) for v in c)
            for i, c in enumerate(self.want)
            if (c != base[i] if base is not None else c != OFF)
        ]
        for k in range(0, len(groups), GROUPS_PER_LINE):
            lines.append("L " + " ".join(groups[k : k + GROUPS_PER_LINE]))
        self.sent = list(self.want)
        return [*lines, f"F {hexw(self.gen, 2)} {self.crc}"]
