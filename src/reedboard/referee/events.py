"""Typed game events, and the bus that publishes them in order.

Everything that happens in a game is one of these frozen records. The referee publishes
them; listeners subscribe. The game store listens first (reedboard/store/recorder.py): a move is
handed to the store before anyone else hears of it, and while the store is still making it
durable the bus holds every later event back, so no listener (the console's "move:" line, the
LEDs, a network link) ever hears of a move the store could still lose.

Each event also has the one-line form the daemon prints and ``replay --json`` lists under
``alerts``: ``{"t", "kind", "text"}`` (docs/design.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from reedboard.engine import Move

Source = Literal["board", "console", "computer", "remote"]
"""Where a move came from: the switches (and `confirm`), or elsewhere, to be carried out."""


@dataclass(frozen=True)
class GameEvent:
    t: float
    """When it happened, on the referee's clock."""

    kind: ClassVar[str] = "event"
    alert: ClassVar[bool] = True
    """Whether it is said as an alert (the console, ``replay --json``); a quiet event is for
    the listeners that draw the board (the web view)."""

    @property
    def name(self) -> str:
        """The alert's kind (most events have one; a move's depends on what it did)."""
        return self.kind

    @property
    def text(self) -> str:
        return ""

    def as_alert(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "kind": self.name, "text": self.text}


@dataclass(frozen=True)
class NewGame(GameEvent):
    game: str
    options: dict[str, Any]
    start: str
    """The starting position's text form."""
    abandons: bool = False
    """The game before it was left unfinished."""
    kind: ClassVar[str] = "new-game"

    @property
    def text(self) -> str:
        return self.start


@dataclass(frozen=True)
class Resumed(GameEvent):
    game_id: int
    """The store's number for the game."""
    moves: int
    kind: ClassVar[str] = "resumed"

    @property
    def text(self) -> str:
        return f"game {self.game_id}, {self.moves} moves"


@dataclass(frozen=True)
class MoveCommitted(GameEvent):
    move: Move
    ply: int
    """The move's place in the game, from 0 (throws count)."""
    source: Source = "board"
    extends: bool = False
    """It replaces the move before it (a longer jump chain)."""
    replaces: Move | None = None
    """Second thoughts: the move it replaces, of the same piece (the player moved it on
    before the other side touched anything)."""
    reopens: bool = False
    """The move it replaces (second thoughts, or a longer chain: ``extends``) had ended the
    game, and this one does not: the game goes on."""
    kind: ClassVar[str] = "move"

    @property
    def name(self) -> str:
        if self.replaces is not None:
            return "changed"
        return "extend" if self.extends else "move"

    @property
    def text(self) -> str:
        if self.replaces is not None:
            return f"{self.replaces} to {self.move}"
        return str(self.move)


@dataclass(frozen=True)
class Thrown(GameEvent):
    move: Move
    """The throw (dice or spinner) as the engine's move."""
    ply: int
    kind: ClassVar[str] = "throw"

    @property
    def text(self) -> str:
        return str(self.move)


@dataclass(frozen=True)
class MoveShown(GameEvent):
    """A move from elsewhere is committed and lit: the players are to carry it out."""

    move: Move
    source: Source
    kind: ClassVar[str] = "carry-out"

    @property
    def text(self) -> str:
        return f"{self.move} ({self.source})"


@dataclass(frozen=True)
class MoveCarriedOut(GameEvent):
    move: Move
    kind: ClassVar[str] = "carried-out"

    @property
    def text(self) -> str:
        return str(self.move)


@dataclass(frozen=True)
class Takeback(GameEvent):
    ply: int
    """The game goes on from this ply."""
    reopens: bool = False
    """The game had ended: it goes on again."""
    kind: ClassVar[str] = "takeback"

    @property
    def text(self) -> str:
        return f"to ply {self.ply}"


@dataclass(frozen=True)
class GameOver(GameEvent):
    outcome: Any
    """The engine's outcome (``str`` for people, ``as_dict()`` for the store)."""
    kind: ClassVar[str] = "game-over"

    @property
    def text(self) -> str:
        return str(self.outcome)


@dataclass(frozen=True)
class Abandoned(GameEvent):
    """A remote game abandoned by the board ``by`` (it withheld its dice reveal past the
    timeout): the store ends the game so. Quiet: the remote notice says it."""

    by: str
    detail: str
    kind: ClassVar[str] = "abandoned"
    alert: ClassVar[bool] = False

    @property
    def text(self) -> str:
        return self.detail


@dataclass(frozen=True)
class Lifted(GameEvent):
    """A piece is off the board in hand: where it may land (lit green). Quiet: no alert."""

    landings: tuple[str, ...]
    kind: ClassVar[str] = "lifted"
    alert: ClassVar[bool] = False

    @property
    def text(self) -> str:
        return " ".join(self.landings)


@dataclass(frozen=True)
class Mismatch(GameEvent):
    fixes: str
    """What to do, in words (one fix at a time is lit)."""
    kind: ClassVar[str] = "mismatch"

    @property
    def text(self) -> str:
        return self.fixes


@dataclass(frozen=True)
class Ambiguous(GameEvent):
    candidates: tuple[Move, ...]
    kind: ClassVar[str] = "ambiguous"

    @property
    def text(self) -> str:
        return " | ".join(map(str, self.candidates))


@dataclass(frozen=True)
class HintShown(GameEvent):
    move: Move | None
    proof: str | None = None
    """The hint's words when the move is proved (``geese win with 24-17``); the event's
    text stays the move."""
    kind: ClassVar[str] = "hint"

    @property
    def text(self) -> str:
        return str(self.move) if self.move else "none"


@dataclass(frozen=True)
class ButtonPressed(GameEvent):
    button: str
    kind: ClassVar[str] = "button"

    @property
    def text(self) -> str:
        return self.button


@dataclass(frozen=True)
class LinkChanged(GameEvent):
    up: bool
    detail: str = ""

    @property
    def name(self) -> str:
        return "board-connected" if self.up else "board-disconnected"

    @property
    def text(self) -> str:
        return self.detail


@dataclass(frozen=True)
class Notice(GameEvent):
    """Something the players are told that changes nothing: ``roll-first``, ``move-first``,
    ``no-dice``, ``dice-error``, ``pass``, ``undo`` with nothing to take back, ``waiting`` (a
    button held while a piece may be in the hand), ``unseen`` (no switch saw a piece come
    down, or `confirm` found no move made though switches changed), ``no-move`` (`confirm`
    with nothing changed), ``error`` (a bug the
    board survived), ``store-error``."""

    what: str
    detail: str

    @property
    def name(self) -> str:
        return self.what

    @property
    def text(self) -> str:
        return self.detail


@dataclass(frozen=True)
class RemoteNotice(Notice):
    """Remote play (reedboard/daemon/remote/), one line: ``remote-refused`` (a message from the
    other board refused, never applied), ``remote-online`` / ``remote-offline`` (the other
    board came or went), ``remote-link`` (this board's broker connection), ``remote-dice``
    (the throw's exchange), ``remote-takeback`` (a takeback asked, accepted, refused),
    ``remote-seat`` (a side of the other board moved here), ``remote-keys`` (the other board's
    key pinned), ``remote-abandoned`` (it withheld its dice reveal past the timeout)."""


Listener = Callable[[GameEvent], None]


class EventBus:
    """Publishes events to listeners in order. Listeners subscribed ``first`` (the store)
    hear each event at once; the rest hear it once ``hold()`` is false (the store has made
    it durable): until then events wait, in order, for :meth:`flush`."""

    def __init__(self, hold: Callable[[], bool] = lambda: False) -> None:
        self.hold = hold
        self._first: list[Listener] = []
        self._rest: list[Listener] = []
        self._held: list[GameEvent] = []

    def subscribe(self, listener: Listener, *, first: bool = False) -> None:
        (self._first if first else self._rest).append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        for listeners in (self._first, self._rest):
            if listener in listeners:
                listeners.remove(listener)

    @property
    def holding(self) -> bool:
        """Events wait for the store."""
        return bool(self._held) or self.hold()

    @property
    def held_since(self) -> float | None:
        """The time of the first event held back, if any."""
        return self._held[0].t if self._held else None

    def publish(self, event: GameEvent) -> None:
        for listener in self._first:
            listener(event)
        if self.holding:
            self._held.append(event)
        else:
            self._deliver(event)

    def announce(self, event: GameEvent) -> None:
        """Tell the listeners after the store (not the store) at once, ahead of what is
        held: the store's own failure."""
        self._deliver(event)

    def flush(self) -> bool:
        """Deliver what was held, if the store is done; False while it is not."""
        if self.hold():
            return False
        held, self._held = self._held, []
        for event in held:
            self._deliver(event)
        return True

    def _deliver(self, event: GameEvent) -> None:
        for listener in self._rest:
            listener(event)
