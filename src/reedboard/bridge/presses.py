"""Button presses over the link, each delivered exactly once.

The Pico numbers its presses (``pp``, 00-ff, wrapping) and sends each, and every one not yet
acknowledged, until the Pi acknowledges it. The Pi delivers a press only if it is the one after
the last it delivered, and acknowledges cumulatively (``P bb pp``: every press up to ``pp``), so
a repeat is acknowledged again but never delivered twice, and a press after a lost one waits for
the lost one's resend. ``bb`` is the Pico's start-up number: after a restart its presses count
from 00 again, and the hello says where (the last press acknowledged)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PressTracker:
    boot: int | None = None
    """The Pico start-up whose presses we count; None before the first hello."""
    last: int = 0xFF
    """The last press delivered (or, after a hello, the last the Pico had acknowledged)."""
    duplicates: int = 0
    delivered: bool = False
    """Whether a press of this start-up was delivered (and so acknowledged)."""

    def hello(self, boot: int, acked: int) -> bool:
        """A hello: a new start-up counts from where its hello says; the same one goes on.
        True when it is a new start-up.

        The start-up number is one byte: a restart draws the same one 1 time in 256. A hello
        of the same number saying nothing was ever acknowledged (ff) while presses were
        delivered is a restart too (the Pico counts its presses from 00 again, and they would
        all be taken for repeats)."""
        fresh = boot == self.boot and acked == 0xFF and self.last != 0xFF and self.delivered
        if boot != self.boot or fresh:
            self.boot, self.last = boot, acked
            self.delivered = False
            return True
        return False

    def receive(self, boot: int, seq: int) -> tuple[bool, int | None]:
        """A press line: (deliver it?, the sequence number to acknowledge, None if this press
        belongs to a start-up we have not had a hello from)."""
        if boot != self.boot:
            return False, None
        if seq == (self.last + 1) & 0xFF:
            self.last = seq
            self.delivered = True
            return True, seq
        if (self.last - seq) & 0xFF < 128:
            self.duplicates += 1
        return False, self.last
