"""The one state API every game implements (after python-chess's Board and OpenSpiel's State).

A :class:`Position` is mutable: :meth:`Position.push` plays a checked move, :meth:`Position.pop`
takes it back. Games implement a handful of hooks (``_generate_moves``, ``_apply``, ``_save``,
``_restore``, ``outcome``, ``turn``, the text form) and register themselves by id.

Everything the controller needs to know about a game is asked here, never by testing game ids
or move classes; each of these hooks has a generic default a game may override:
:meth:`Position.marks` (lights the game wants), :meth:`Position.physical_steps` (what hands do
to make a move), :meth:`Position.evaluate` and :meth:`Position.returns` (for search, with
:attr:`Position.search_depth`), :meth:`Position.demo_line` (a line worth showing),
:meth:`Position.file_options` (options naming files), :meth:`Position.throw_values`,
:meth:`Position.hint_points` (what a hint lights), and for a game solved by a table kept on
disk or analysed by a command, :meth:`Position.solved_table` and :meth:`Position.analysis`
(reedboard/engine/solved.py).
Adding a game touches the engine and a board layout, nothing else.

Chance (dice, spinners) is a player, as in OpenSpiel: while :meth:`Position.is_chance` is true,
the legal "moves" are the possible throws, each with its probability in
:meth:`Position.chance_outcomes`; the caller, never the engine, picks one and pushes it.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from reedboard.engine.errors import EngineError, IllegalMoveError
from reedboard.engine.marks import Mark
from reedboard.engine.options import file_options, make_options
from reedboard.engine.outcome import Outcome
from reedboard.engine.physical import Carry, Hop, PhysicalMove, Take
from reedboard.engine.table import TableAssistant

if TYPE_CHECKING:
    from reedboard.engine.solved import Analysis, SolvedTable


class Move(ABC):
    """A move or chance event: a frozen value whose ``str()`` round-trips through
    its game's :meth:`Position.parse_move`."""

    @abstractmethod
    def __str__(self) -> str: ...

    def points(self) -> tuple[str, ...]:
        """The point ids the moving piece stands on, first to last (a throw moves nothing;
        a piece coming onto the board starts from ``""``)."""
        return ()

    def routes(self) -> tuple[tuple[str, ...], ...]:
        """Each moving piece's route over the board, first point to last, as real point ids
        only: a piece coming on from off the board begins where it lands, a throw has none.
        What the LEDs may show of a move (a hint, a candidate to confirm)."""
        route = tuple(p for p in self.points() if p)
        return (route,) if route else ()


M = TypeVar("M", bound=Move)
S = TypeVar("S")


class LegalMoves(Generic[M]):
    """A lazy view of a position's legal moves: supports ``in``, ``len``, ``bool``, iteration
    and ``count()``. It always reflects the position's current state."""

    __slots__ = ("_position",)

    def __init__(self, position: Position[M, Any]) -> None:
        self._position = position

    def __iter__(self) -> Iterator[M]:
        return iter(self._position._legal())

    def __len__(self) -> int:
        return len(self._position._legal())

    def count(self) -> int:
        return len(self._position._legal())

    def __bool__(self) -> bool:
        return bool(self._position._legal())

    def __contains__(self, move: object) -> bool:
        return move in self._position._legal()

    def __repr__(self) -> str:
        moves = ", ".join(str(m) for m in self)
        return f"<LegalMoves at {self._position.to_text()!r}: {moves}>"


class Position(ABC, Generic[M, S]):
    """A game state. Subclasses set the class metadata and implement the hooks below.

    ``S`` is the immutable snapshot that ``_save`` returns and ``_restore`` reinstates; the move
    stack keeps one per pushed move, so :meth:`pop` restores the exact earlier state (and its
    legal moves, which are a function of that state: they are not generated twice).
    """

    game_id: ClassVar[str]
    """The registry id, as on the command line (``fox-and-geese``)."""
    title: ClassVar[str]
    """The game's name for people."""
    sides: ClassVar[tuple[str, ...]]
    """Every side the game can seat, in turn order: the names ``turn`` takes and
    ``Outcome.winner`` gives, and what a move names its mover by (``fox``, ``WR``, ``yellow``;
    a text form may write a letter for it). :attr:`players` are the ones seated."""
    Options: ClassVar[type[Any]]
    """A frozen dataclass of the game's options, every field with a default."""
    sensed: ClassVar[bool] = True
    """Whether the game is played on a board whose switches sense it (False: an assistant)."""

    @classmethod
    def table_assistant(cls) -> TableAssistant | None:
        """What the game answers on the command line when played at the table
        (reedboard/engine/table.py),
        or None."""
        return None

    dice_spec: ClassVar[tuple[int, int] | None] = None
    """(count, sides) of the game's throw at chance nodes, or None for a game without chance."""
    search_depth: ClassVar[int] = 1
    """How many plies a hint's search looks ahead before it asks :meth:`evaluate`."""

    def __init__(self, options: Any) -> None:
        self.options = options
        self._stack: list[tuple[M, S, list[M] | None]] = []
        self._moves: list[M] | None = None

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def options_from(cls, values: Mapping[str, object]) -> Any:
        """The game's options dataclass from ``key=value`` pairs (strings are converted)."""
        return make_options(cls.Options, cls.game_id, values)

    @classmethod
    def start(cls, **options: object) -> Self:
        """The starting position, with the given options."""
        return cls._start(cls.options_from(options))

    @classmethod
    def from_text(cls, text: str, **options: object) -> Self:
        """The position written as ``text`` (see :meth:`to_text`); raises InvalidPositionError."""
        return cls._from_text(text, cls.options_from(options))

    @classmethod
    def start_from(cls, occupied: frozenset[str], **options: object) -> Self | None:
        """The starting position a board showing ``occupied`` holds, or None. Games whose
        players choose their setup (McLoughlin's two empty holes) read it from the board."""
        start = cls.start(**options)
        return start if start.occupied() == occupied else None

    def option_values(self) -> dict[str, Any]:
        """The options that differ from the defaults, as JSON values (for the game store and
        trace headers); ``start(**option_values())`` plays the same game."""
        out: dict[str, Any] = {}
        default = type(self.options)()
        for f in dataclasses.fields(self.options):
            value = getattr(self.options, f.name)
            if value == getattr(default, f.name):
                continue
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def file_options(cls) -> tuple[str, ...]:
        """The options whose value names a file (Messenger Boy's ``orders``): a config file
        takes a relative one from its own folder."""
        return file_options(cls.Options)

    @property
    def players(self) -> tuple[str, ...]:
        """The sides seated in this game, in turn order (a ``players`` option seats fewer
        than :attr:`sides`)."""
        return self.sides

    @classmethod
    def most_men(cls) -> int:
        """The most pieces the game uses at once, on the board or beside it, every seat
        filled (one magnet each): the start position's, where every piece starts on the
        board."""
        return len(cls.start().occupied())

    def in_opening(self) -> bool:
        """True while throws decide who starts (Messenger Boy's opening spins): such a throw
        never passes a turn."""
        return False

    @classmethod
    @abstractmethod
    def _start(cls, options: Any) -> Self: ...

    @classmethod
    @abstractmethod
    def _from_text(cls, text: str, options: Any) -> Self: ...

    # -- the game's hooks --------------------------------------------------------------------

    @property
    @abstractmethod
    def turn(self) -> str:
        """Who acts now: one of :attr:`sides`. At a chance node it is the side whose throw is
        awaited; :meth:`is_chance` tells the two apart."""

    @abstractmethod
    def to_text(self) -> str:
        """The position's text form; ``from_text(to_text())`` gives an equal position."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """The move written as ``text``; raises InvalidMoveError on bad syntax."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else who won and why."""

    @abstractmethod
    def occupied(self) -> frozenset[str]:
        """The point ids a board's sensors would see occupied in this position."""

    @abstractmethod
    def _generate_moves(self) -> list[M]:
        """Every legal move (or throw, at a chance node); empty when the game is over."""

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Play a move already known to be legal."""

    @abstractmethod
    def _save(self) -> S:
        """An immutable snapshot of the mutable state."""

    @abstractmethod
    def _restore(self, state: S) -> None:
        """Reinstate a snapshot, building fresh mutable objects from it."""

    def pieces(self) -> dict[str, str]:
        """Point id -> a short label of what stands there (for drawing the board)."""
        return dict.fromkeys(self.occupied(), "o")

    def occupied_after(self, move: M) -> frozenset[str]:
        """The points occupied after a legal ``move``, without playing it on this position."""
        state = self._save()
        moves = self._moves
        self._apply(move)
        try:
            return self.occupied()
        finally:
            self._restore(state)
            self._moves = moves

    def is_chance(self) -> bool:
        """True while the position waits for a throw of dice or a spin."""
        return False

    def chance_outcomes(self) -> list[tuple[M, float]]:
        """At a chance node, each possible throw with its probability; else empty."""
        return []

    def shown_dice(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """How a throw shows on the board's pip LEDs (a spinner's double as two equal dice)."""
        return values

    def throw(self, values: tuple[int, ...]) -> M:
        """The chance event for a throw showing ``values`` (to :meth:`push`)."""
        raise EngineError(f"{self.game_id} has no dice")

    def throw_values(self, throw: M) -> tuple[int, ...]:
        """The values a dice source must give for ``throw`` (the inverse of :meth:`throw`);
        raises EngineError when no throw of the game's dice is it."""
        if self.dice_spec is not None:
            count, sides = self.dice_spec
            for values in itertools.product(range(1, sides + 1), repeat=count):
                try:
                    if self.throw(values) == throw:
                        return values
                except EngineError:
                    continue
        raise EngineError(f"no throw of {self.game_id}'s dice is {throw}")

    # -- what the controller asks of a game (generic defaults) -------------------------------

    def marks(self) -> tuple[Mark, ...]:
        """The lights the game wants whatever the play (the Brier Patch), steady or blinking."""
        return ()

    def physical_steps(self, move: M) -> PhysicalMove:
        """What hands do on the board to make the legal ``move`` here, in order: each piece
        carried from where (``None``: from the hand), set down where, taking which pieces off
        to where. Nothing for a throw. The default: one piece from the move's first point to
        its last, taking off every other piece the move leaves the board without."""
        points = move.points()
        if not points:
            return PhysicalMove()
        start, landing = points[0] or None, points[-1]
        before = self.occupied()
        after = self.occupied_after(move)
        gone = sorted(p for p in before - after if p != start and p != landing)
        return PhysicalMove((Carry(start, (Hop(landing, tuple(Take(p) for p in gone)),)),))

    def counts(self, move: M) -> tuple[tuple[str, ...], ...]:
        """Each way a hand may count ``move`` out, space by space: the points its piece is set
        down on in turn, from its start to where the count ends (for several men, a way for
        each). A set-down between the ends is a count under way, not a move; a legal landing
        there is a move only once the evidence says the piece stopped. The default: none
        (boards whose pieces are not counted out)."""
        return ()

    def passes(self, move: M) -> frozenset[str]:
        """The points between the ends of every way of counting ``move`` out
        (:meth:`counts`)."""
        return frozenset(p for way in self.counts(move) for p in way[1:-1])

    def proved_move(self, effort: int) -> M | None:
        """A move proved to win for the side to move, if the game has a solver that proves
        one within ``effort`` positions (a count, so a search replays exactly); or, where a
        shipped solution proves the side to move lost, the move that holds out longest
        (McLoughlin's fox); else None. The computer's top level plays it before it searches.
        The default has no solver."""
        return None

    def proof_words(self, move: M) -> str | None:
        """What a hint of ``move`` says when the move is proved (McLoughlin's Fox and Geese:
        ``geese win with 24-17`` while the position is in its shipped strategy), or None.
        The default proves nothing."""
        return None

    def waiting(self) -> dict[str, int]:
        """The men off the board waiting to come on, counted by piece letter (Messenger Boy's
        boys not yet on their Start square), for a drawing to show beside the board. The
        default: none (men in a nest stand on the board's own points)."""
        return {}

    def evaluate(self, side: str) -> float:
        """How good the position looks for ``side`` without searching (higher is better): a
        hint's search compares moves by it. The default has no opinion."""
        return 0.0

    def returns(self) -> dict[str, float]:
        """Each seated side's payoff: 1 for the winner, -1 for the others once the game is
        over; 0 for all while it goes on or when nobody won (OpenSpiel's ``returns``)."""
        over = self.outcome()
        if over is None or over.winner is None:
            return dict.fromkeys(self.players, 0.0)
        return {side: 1.0 if side == over.winner else -1.0 for side in self.players}

    def demo_line(self) -> tuple[str, ...]:
        """A known line of play worth showing from this position, as move texts (Solitaire's
        seed key); empty when the game has none (the demo then plays at random)."""
        return ()

    def hint_points(self, move: M) -> tuple[str, ...]:
        """The points a hint for the legal ``move`` lights: where its pieces start and end (a
        piece coming on from off the board shows only where it lands). Solitaire adds the peg
        jumped over."""
        return tuple(dict.fromkeys(p for route in move.routes() for p in (route[0], route[-1])))

    @classmethod
    def solved_table(cls, options: Any) -> SolvedTable | None:
        """The game's solved table for these options (its dataclass), too big to ship and
        built once where it is used, or None (reedboard/engine/solved.py): the referee keeps it
        on disk, then a hint is a proof, and after each move the board says whether the game
        can still be won. The default has none."""
        return None

    @classmethod
    def analysis(cls) -> Analysis | None:
        """What ``reedboard analyse`` runs for the game (reedboard/engine/solved.py), or None:
        the default has none."""
        return None

    # -- the common API ----------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves[M]:
        return LegalMoves(self)

    def _legal(self) -> list[M]:
        if self._moves is None:
            self._moves = self._generate_moves()
        return self._moves

    def is_legal(self, move: M) -> bool:
        return move in self._legal()

    def push(self, move: M) -> None:
        """Play ``move``; raises IllegalMoveError naming the move and the position."""
        if move not in self._legal():
            raise IllegalMoveError(self._illegal_message(move))
        state = self._save()
        moves = self._moves
        self._apply(move)
        self._stack.append((move, state, moves))
        self._moves = None

    def push_text(self, text: str) -> M:
        """Parse and play a move written as text; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def _illegal_message(self, move: M) -> str:
        over = self.outcome()
        why = f" (the game is over: {over})" if over else ""
        return f"illegal move {str(move)!r} in {self.game_id} position {self.to_text()!r}{why}"

    def pop(self) -> M:
        """Take back the last move and return it; IndexError when nothing was played."""
        if not self._stack:
            raise IndexError(f"pop from {self.game_id} position with no moves played")
        move, state, moves = self._stack.pop()
        self._restore(state)
        self._moves = moves
        return move

    @property
    def move_stack(self) -> list[M]:
        """The moves played since this position was made, oldest first (a copy)."""
        return [move for move, _, _ in self._stack]

    def is_over(self) -> bool:
        return self.outcome() is not None

    def copy(self, *, stack: bool = True) -> Self:
        """An independent copy; with ``stack=False`` it forgets the moves that led here."""
        new = object.__new__(type(self))  # a shallow copy (copy.copy, without its detours)
        new.__dict__.update(self.__dict__)
        new._stack = list(self._stack) if stack else []
        new._restore(self._save())
        new._moves = self._moves  # the same state has the same legal moves (never mutated)
        return new

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Position)
        return self.options == other.options and self.to_text() == other.to_text()

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_text()!r}>"
