"""Switch events over the link: the Pi's view of the switches, kept from events and snapshots.

The Pico numbers its switch events (``ee``, 00-ff, wrapping) and sends each one at once and
again a few times within the next 16 ms; its heartbeat names the last event sent, and a
snapshot is the state of every switch as of the event it names. Lines arrive in order, so:

- the Pi unwraps each number against the newest it has heard of (repeats and heartbeats are
  never more than a few events behind), into a count that does not wrap;
- an event is applied only if it is newer than the last one applied to its switch and than the
  last snapshot: a repeat of an event already had, or of one older than what the Pi knows of its
  switch, is dropped, so no switch ever goes back to an older state;
- a number beyond the next (an event, a heartbeat or a snapshot) means events were lost: they
  are ``missing`` until a repeat of each comes or a snapshot that covers them does. While any
  are missing the Pi asks for a snapshot.
"""

from __future__ import annotations

NEVER = -(1 << 40)
"""A count older than any event."""


class SwitchTracker:
    def __init__(self) -> None:
        self.closed = 0
        """The Pi's view: bit ``i`` set if switch ``i`` is closed."""
        self.stale = True
        """A snapshot is wanted (none since the Pico started, or one was asked for)."""
        self.gaps = 0
        self.repeats = 0
        self._high: int | None = None  # the newest count heard of
        self._floor = NEVER  # the last snapshot's count
        self._applied: dict[int, int] = {}  # switch -> the count of the event last applied
        self._missing: set[int] = set()

    @property
    def synced(self) -> bool:
        """Nothing is missing and no snapshot is wanted."""
        return not self.stale and not self._missing

    @property
    def missing(self) -> frozenset[int]:
        return frozenset(self._missing)

    def restart(self) -> None:
        """The Pico started again: its numbers start again, and a snapshot is wanted."""
        self._high = None
        self._floor = NEVER
        self._applied.clear()
        self._missing.clear()
        self.stale = True

    def _count(self, seq: int) -> int:
        high = self._high
        if high is None:
            return seq
        return high + ((seq - high + 128) & 0xFF) - 128

    def _heard(self, count: int, inclusive: bool) -> bool:
        """A line naming event ``count``; ``inclusive`` if that event itself may not have been
        had (a heartbeat or a snapshot names the last event sent). True if it shows a gap."""
        high = self._high
        if high is None:
            self._high = count
            return False
        if count <= high:
            return False
        last = count + 1 if inclusive else count
        self._missing.update(range(high + 1, last))
        self._high = count
        if last > high + 1:
            self.gaps += 1
            return True
        return False

    def event(self, seq: int, index: int, closed: bool) -> tuple[bool, bool]:
        """``E seq index v``: (the switch changed in the Pi's view, events were lost)."""
        count = self._count(seq)
        gap = self._heard(count, inclusive=False)
        self._missing.discard(count)
        if count <= max(self._applied.get(index, NEVER), self._floor):
            self.repeats += 1
            return False, gap
        self._applied[index] = count
        bit = 1 << index
        if bool(self.closed & bit) == closed:
            return False, gap
        self.closed ^= bit
        return True, gap

    def heartbeat(self, seq: int) -> bool:
        """``K seq``: True if events up to ``seq`` were lost."""
        return self._heard(self._count(seq), inclusive=True)

    def snapshot(self, seq: int, bitmap: int) -> int:
        """``S seq bitmap``: the Pi's view becomes ``bitmap``; returns the bits that changed.

        A snapshot is the whole state as of its event, so the count starts again from it: after
        128 events or more unheard (a link down while the Pico went on), its number unwraps
        into the past, and the counts kept from before would drop every later event as old."""
        count = self._count(seq)
        self._high = count
        self._floor = count
        self._applied.clear()  # (the snapshot holds every switch as of ``count``)
        self._missing.clear()
        self.stale = False
        changed = bitmap ^ self.closed
        self.closed = bitmap
        return changed
