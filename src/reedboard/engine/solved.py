"""Games solved by the engine: what a game offers and what its callers ask, without naming it.

Two hooks on :class:`~reedboard.engine.position.Position`, each None for a game without one:

- :meth:`Position.solved_table` (after python-chess's Syzygy tablebases: built or fetched
  once, kept on disk, opened, then probed): a :class:`SolvedTable` for the game with these
  options, too big to ship and built once on the machine (Peg Solitaire's winning set for a
  finish hole). The table writes itself to a stream and reads itself back, checked whole; the
  caller chooses the file (``reedboard.referee.solved`` keeps it in the user's cache folder,
  ``<stem>.bin``) and writes it atomically. Opened, it is a :class:`Solution`: which
  positions can still be won, and the moves that keep them so.
- :meth:`Position.analysis`: an :class:`Analysis`, what ``reedboard analyse GAME`` runs (the
  game solved whole, or a proof search within a time budget).

The engine does no I/O of its own here: the streams, the progress shown and the lines said
are the caller's. Positions and moves are typed ``Any`` here: position.py names these hooks,
so this module does not import it back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import IO, Any, Protocol

from reedboard.engine.errors import EngineError

Progress = Callable[[str, int, int], None]
"""Called as a table is built: (phase, step, size), e.g. ("reachable", pegs, positions)."""
Write = Callable[[IO[bytes]], None]
"""Writes a table's bytes to a binary stream."""


class TableFileError(EngineError, ValueError):
    """Bytes that are not the table asked for (damaged, cut short, another version or
    variant): the message says what is wrong; the caller names the file."""


class Solution(ABC):
    """A solved table opened: for a one-player game, which positions can still be won."""

    @property
    @abstractmethod
    def table(self) -> SolvedTable:
        """The table this is."""

    @abstractmethod
    def answers(self, position: Any) -> bool:
        """Whether this table answers for the position (its game and variant)."""

    @abstractmethod
    def winnable(self, positions: Sequence[Any]) -> list[bool]:
        """For each position it answers for, whether the game can still be won from it."""

    @abstractmethod
    def best_moves(self, position: Any) -> list[Any]:
        """The moves after which the game can still be won, in the engine's order (none when
        it is lost, or over)."""

    def hint(self, position: Any) -> Any:
        """A move that keeps the game winnable, or None when none does."""
        moves = self.best_moves(position)
        return moves[0] if moves else None


class SolvedTable(ABC):
    """A game's solved table for one variant (a finish hole), not built yet or not opened:
    what it is called, how it is built and read. ``str()`` of it is its name in messages."""

    game_id: str
    """The game it solves."""
    what: str
    """What it is, in a few words (``winning set``)."""
    variant: str
    """Which one of the game's tables (``finish 17``)."""
    stem: str
    """Its file's name without the suffix, the same wherever it is kept
    (``solitaire-winning-17``)."""
    verdict_point: str
    """The board point that shows, after each move, whether the game can still be won."""
    phases: tuple[tuple[str, float], ...] = ()
    """The phases a build reports to :data:`Progress`, each with its share of the work."""

    @property
    def name(self) -> str:
        """The table's name in messages: the game, then what it is (``solitaire winning
        set``)."""
        return f"{self.game_id} {self.what}"

    def __str__(self) -> str:
        return f"{self.name} for {self.variant}"

    def require(self) -> None:
        """Raise an :class:`EngineError` saying what is missing when the table can be neither
        built nor read here (a library not installed). The default needs nothing."""
        return None

    @abstractmethod
    def write(self, out: IO[bytes], progress: Progress | None = None) -> None:
        """Build the table (the long part, reported to ``progress``) and write it to ``out``."""

    @abstractmethod
    def read(self, data: IO[bytes]) -> Solution:
        """The table from a stream of a file the caller opened (from its start; it may be
        mapped into memory, so keep it open while the solution is used), checked whole;
        :class:`TableFileError` says what is wrong."""

    def estimate_seconds(self) -> float:
        """About how long :meth:`write` takes here (a short measurement); 0 unknown."""
        return 0.0


class Report(Protocol):
    """What an :class:`Analysis` tells the person who asked for it, besides its result (the
    command line: standard error)."""

    def say(self, text: str) -> None:
        """A line about the analysis (what it does, why something is not done)."""

    def note(self, text: str) -> None:
        """A line of progress, as it comes."""

    def progress(self, phases: Sequence[tuple[str, float]]) -> AbstractContextManager[Progress]:
        """A :data:`Progress` shown while the block runs (a bar on a terminal)."""

    def keep(self, table: SolvedTable, write: Write) -> None:
        """A table the analysis built on its way: kept where the game's tables are kept."""


class Analysis(ABC):
    """What ``reedboard analyse`` runs for a game."""

    budgeted: bool = False
    """Whether it searches within a time budget (``--budget``); else it runs whole."""

    def __init__(self, game: Any) -> None:
        self.game = game
        """The game's position class."""

    @abstractmethod
    def run(
        self,
        options: Mapping[str, object],
        position: str | None,
        budget: float | None,
        report: Report,
    ) -> list[str]:
        """Analyse the game with these options from its start, or from ``position`` (its text
        form); with ``budget`` seconds at most when :attr:`budgeted`. The result's lines."""
