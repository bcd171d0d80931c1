"""The LED chain over the link: what to send so the Pico's chain ends as the Pi wants it.

The Pico keeps a pending chain that ``L`` lines (LED values) write, and shows it on
``F gg cccccccc`` only if its CRC-32 is ``cccccccc``, answering ``A gg`` with the pending
chain's CRC-32 either way. The Pi sends only what changed since what it last sent; it repeats
``F`` every check (its heartbeat), and an answer with another checksum for the current frame
``gg`` sends every LED again under the next ``gg``, in short lines. So a lost or damaged line
costs at most one check period once the link is clean again, a half-written frame is never
shown, and while the link stays bad each resend adds the lines that got through to those that
did before (every line sets LEDs to absolute values), so the chain gets there even then.
"""

from __future__ import annotations

from reedboard.bridge.firmware.wire import GROUPS_PER_LINE, crc32hex, hexw
from reedboard.hardware.lights import Colour

WHOLE_GROUPS_PER_LINE = 2
"""LEDs a line when the whole frame goes again: short lines get through a bad link best."""


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
        """The whole frame again: every LED, then ``F``."""
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
        groups = [
            hexw(i, 2) + "".join(hexw(v, 2) for v in c)
            for i, c in enumerate(self.want)
            if base is None or c != base[i]
        ]
        per = GROUPS_PER_LINE if base is not None else WHOLE_GROUPS_PER_LINE
        lines = ["L " + " ".join(groups[k : k + per]) for k in range(0, len(groups), per)]
        self.sent = list(self.want)
        return [*lines, f"F {hexw(self.gen, 2)} {self.crc}"]
