"""The game store as the first listener of a game's events (reedboard/referee/events.py).

It hears every event before any other listener and turns those that change the game into
store writes: a new game, each move and throw, a takeback, the end. With a
:class:`~reedboard.store.writer.StoreWriter` the writes run on the writer's thread, and the bus
holds the other listeners back until they are durable.
"""

from __future__ import annotations

from reedboard.referee.events import (
    Abandoned,
    GameEvent,
    GameOver,
    MoveCommitted,
    NewGame,
    RemoteNotice,
    Resumed,
    Takeback,
    Thrown,
)
from reedboard.store.games import GameStore
from reedboard.store.writer import StoreWriter

KEPT_NOTES = frozenset({"remote-dice", "remote-abandoned", "remote-takeback"})
"""The remote notices kept beside a game's moves (each exchange, a fresh exchange refused, a
reveal held back, the game abandoned, takebacks asked and answered); not the refusals of
messages, which anyone on a broker can make many of."""


MAX_NOTES = 2000
"""Notes kept a game (a long remote game has a few hundred throws)."""


class Recorder:
    def __init__(self, store: GameStore | StoreWriter) -> None:
        self.store = store
        self.game_id: int | None = None
        """The store's number for the game being played."""
        self.plies = 0
        """The game's length as stored (where a note is kept)."""
        self.notes = 0
        """Notes kept for the game being played (since this daemon started)."""

    def __call__(self, event: GameEvent) -> None:
        store = self.store
        if isinstance(event, MoveCommitted | Thrown):
            self.plies = event.ply + 1
        elif isinstance(event, Takeback):
            self.plies = event.ply
        if isinstance(event, NewGame):
            if event.abandons and self.game_id is not None:
                store.end_game(self.game_id, "abandoned")
            self.game_id = store.new_game(event.game, event.options, event.start)
            self.plies = self.notes = 0
        elif isinstance(event, Resumed):
            self.game_id, self.plies = event.game_id, event.moves
        elif self.game_id is None:
            return
        elif isinstance(event, RemoteNotice) and event.what in KEPT_NOTES:
            if self.notes < MAX_NOTES:  # (bounded: the other board cannot fill the disk)
                self.notes += 1
                store.add_note(self.game_id, self.plies, event.what, event.detail)
        elif isinstance(event, MoveCommitted):
            if event.reopens:  # (the move it replaces, second thoughts or a shorter chain,
                store.reopen(self.game_id)  # had ended the game)
            if event.replaces is not None:
                store.add_change(self.game_id, event.ply, str(event.replaces), str(event.move))
            else:
                store.add_move(self.game_id, event.ply, str(event.move))
        elif isinstance(event, Thrown):
            store.add_move(self.game_id, event.ply, str(event.move))
        elif isinstance(event, Takeback):
            store.truncate(self.game_id, event.ply)
            if event.reopens:
                store.reopen(self.game_id)
        elif isinstance(event, GameOver):
            store.end_game(self.game_id, event.outcome.as_dict())
        elif isinstance(event, Abandoned):
            store.end_game(self.game_id, {"winner": None, "reason": "abandoned", "by": event.by})
