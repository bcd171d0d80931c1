"""Messenger Boy (docs/rules.md §5, seed 004): a race of 2-4 men over squares 1-43.

Two lanes (A and B) run from their "1. Start" squares to a shared 22, two more from 23 to a
shared 43. A man chooses his lane when he enters and again when he passes 22 (the choice is
part of the move). A six-space spinner is the chance event; the highest first spin starts.
Only one man a square, but for Start: a man whose spin would land on an occupied square stays
and loses the turn. The exact spin reaches 43 and wins. Square orders (go to N, lose a turn,
spin again, prison) come from a TOML table; the shipped one is empty (the sheet lists none).

Point ids: ``A1``-``A21``, ``B1``-``B21``, ``22``, ``A23``-``A42``, ``B23``-``B42``, ``43``.
Text form: ``R@A5 B@B12 G@- turn=R spin=4 prison=B`` (``-``: not yet on the board; ``prison=``
names who is in prison, ``lose=`` who owes a lost turn), and in
the opening spins ``start=R5,B?`` (``?``: still to spin). Moves: ``spin=4`` (a spin),
``R start A`` (enter lane A), ``R A5-A9``, ``R A20-B24`` (taking lane B after 22).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from reedboard.engine.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from reedboard.engine.files import MAX_DEPTH, read_bounded, too_deep
from reedboard.engine.options import FILE
from reedboard.engine.outcome import Outcome, Termination
from reedboard.engine.physical import Carry, Hop, PhysicalMove
from reedboard.engine.position import Move, Position
from reedboard.engine.registry import register
from reedboard.engine.throw import Throw

COLOURS = ("red", "blue", "green", "yellow")
SHIPPED_ORDERS = Path(__file__).parent / "data" / "messenger-boy-orders.toml"
PRISON_KEY = 5
"""The spin that lets a prisoner out (to square 2)."""
SPINS: tuple[Throw, ...] = tuple(Throw((v,), spin=True) for v in range(1, 7))
"""The spinner's six values, ``spin=1`` to ``spin=6``."""


def letter(side: str) -> str:
    """A colour's letter in the text forms (``red``: ``R``)."""
    return side[0].upper()


def token_of(text: str, prefix: str) -> str:
    """The part of a position's text that begins with ``prefix``."""
    return next((t for t in text.split() if t.startswith(prefix)), prefix)


def _opening_fault(
    start: tuple[tuple[str, int | None], ...],
    players: tuple[str, ...],
    at: dict[str, str | None],
    turn: int | None,
    spin: int | None,
    prison: set[str],
    lose: set[str],
) -> str:
    """What makes an opening-spins state one the game cannot reach, or ``""``: all players
    spin in turn order, and the tied highest spin again (two or more, in the same order);
    the spins are made in that order, and the opening is over once all have spun."""
    who = [p for p, _ in start]
    spun = [v for _, v in start]
    if len(set(who)) != len(who):
        return "a player named twice"
    if who != [p for p in players if p in who] or (len(who) < 2 and who != list(players)):
        return "the opening's contenders are every player, or the tied ones, in turn order"
    if None not in spun:
        return "every contender has spun: the opening is over (turn=…)"
    if any(v is not None for v in spun[spun.index(None) :]):
        return "the contenders spin in turn order (spun ones first, then ?)"
    if turn is not None or spin is not None or prison or lose:
        return "during the opening spins there is no turn=, spin=, prison= or lose="
    if any(where is not None for where in at.values()):
        return "during the opening spins every man is off the board (@-)"
    return ""


def square_id(lane: str, number: int) -> str:
    return str(number) if number in (22, 43) else f"{lane}{number}"


def number_of(point: str) -> int:
    return int(point.lstrip("AB"))


def lane_of(point: str) -> str | None:
    return point[0] if point[0] in "AB" else None


POINTS: tuple[str, ...] = tuple(
    [f"{lane}{n}" for lane in "AB" for n in range(1, 22)]
    + ["22"]
    + [f"{lane}{n}" for lane in "AB" for n in range(23, 43)]
    + ["43"]
)
START_SQUARES = frozenset({"A1", "B1"})


@dataclass(frozen=True)
class Order:
    kind: str
    to: int = 0


KINDS = ("go-to", "lose-turn", "spin-again", "prison")


ORDER_KEYS = {"kind", "to"}


_PRISON_WAIT = 6.0
"""The spins a prisoner waits, on average, for the 5 that lets him out."""


def order_chain(orders: dict[str, Order], square: str, taken: set[str]) -> list[str]:
    """The squares a man who reached ``square`` stands on in turn as he obeys the go-tos of
    ``orders`` (docs/rules.md §5): ``square`` first, where he is left standing last. A go-to onto a
    square in ``taken`` leaves him where he is; a square already visited in this chain ends it
    there (the loop guard: a table whose go-tos run in a circle)."""
    chain = [square]
    while True:
        order = orders.get(square)
        if order is None or order.kind != "go-to":
            return chain
        to = square_id(lane_of(square) or "A", order.to)
        if to in taken:
            return chain
        if to in chain:
            return [*chain, to] if to != chain[-1] else chain
        chain.append(to)
        square = to


@functools.cache
def turns_to_finish(orders_path: str) -> dict[str, float]:
    """Point id -> the turns a man alone on the board needs, on average, to reach 43 from it,
    taking the better lane where he may choose, with the board's orders (go-to chains, a lost
    turn, a spin again, prison): value iteration over the 83 points until it settles. Also
    ``prison-A`` and ``prison-B``: a prisoner's, in each lane (his wait for a 5, then square 2
    and whatever order it carries)."""
    orders = load_orders(orders_path)

    def landing(square: str) -> str:
        return order_chain(orders, square, set())[-1]

    def cost(square: str, turns: dict[str, float]) -> float:
        order = orders.get(square)
        kind = order.kind if order is not None else None
        if kind == "spin-again":
            return turns[square] - 1
        if kind == "lose-turn":
            return turns[square] + 1
        if kind == "prison":
            return turns[f"prison-{lane_of(square) or 'A'}"]
        return turns[square]

    def released(lane: str, turns: dict[str, float]) -> float:
        """A prisoner's turns: the wait for his 5, then square 2 and its order."""
        return _PRISON_WAIT + cost(landing(square_id(lane, 2)), turns)

    turns = dict.fromkeys(POINTS, 0.0) | {"prison-A": 0.0, "prison-B": 0.0}
    for _ in range(500):
        change = 0.0
        for lane in "AB":
            new = released(lane, turns)
            change = max(change, abs(new - turns[f"prison-{lane}"]))
            turns[f"prison-{lane}"] = new
        for point in POINTS:
            if point == "43":
                continue
            here = number_of(point)
            total = 0.0
            for spin in range(1, 7):
                n = here + spin
                if n > 43:
                    total += turns[point]
                    continue
                if n in (22, 43):
                    targets = [str(n)]
                elif n <= 21 or here >= 23:
                    targets = [square_id(lane_of(point) or "A", n)]
                else:
                    targets = [square_id("A", n), square_id("B", n)]
                total += min(cost(landing(t), turns) for t in targets)
            new = 1 + total / 6
            change = max(change, abs(new - turns[point]))
            turns[point] = new
        if change < 1e-6:
            break
    return turns


@functools.cache
def load_orders(path: str) -> dict[str, Order]:
    """Point id -> order, from a square-orders TOML file; every fault names file, line, key.

    The orders are the entries of its ``[squares]`` table; anything outside that table, an
    unknown key in an entry, or a square set twice (``"7"`` sets A7 and B7) is a mistake."""
    file = Path(path) if path else SHIPPED_ORDERS
    try:
        text = read_bounded(file).decode("utf-8")
        data = tomllib.loads(text)
    except OSError as exc:  # (a NUL in the name, a FIFO, a device: the reason says)
        raise InvalidOptionError(f"orders: {file}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InvalidOptionError(f"orders: {file}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:  # (before ValueError: it is one)
        raise InvalidOptionError(f"orders: {file}: bad TOML: {exc}") from None
    except RecursionError:  # (the parser's own limit)
        data = None
    if data is None or too_deep(data):
        raise InvalidOptionError(f"orders: {file}: tables nested deeper than {MAX_DEPTH} levels")
    lines = text.splitlines()

    def line_of(key: str, after: int = 0) -> int | None:
        pattern = re.compile(rf"\s*(?:\[\s*)?[\"']?{re.escape(key)}[\"']?\s*[=\].]")
        return next((n for n, t in enumerate(lines, 1) if n > after and pattern.match(t)), None)

    def fail(key: str, what: str, prefix: str = "squares.") -> InvalidOptionError:
        head = (line_of("squares") or 0) if prefix else 0
        line = line_of(key, head)
        where = f"{file}:{line}" if line else str(file)
        return InvalidOptionError(f"orders: {where}: {prefix}{key}: {what}")

    for key in data:
        if key != "squares":
            raise fail(
                key,
                "outside the [squares] table (write the orders under a [squares] line)",
                prefix="",
            )
    squares = data.get("squares", {})
    if not isinstance(squares, dict):
        raise fail("squares", "expected a [squares] table of square = { kind = ... }", prefix="")
    out: dict[str, Order] = {}
    set_by: dict[str, str] = {}
    for key, spec in squares.items():
        if not re.fullmatch(r"[AB]?[0-9]{1,2}", key) or not 1 <= int(key.lstrip("AB")) <= 43:
            raise fail(key, "not a square (1-43, or A7 / B7 for one lane)")
        n = int(key.lstrip("AB"))
        if n in (1, 43):
            raise fail(key, "Start and 43 carry no order")
        if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
            raise fail(key, f"expected {{ kind = ... }}, one of {', '.join(KINDS)}")
        unknown = sorted(set(spec) - ORDER_KEYS)
        if unknown:
            raise fail(key, f"unknown key {unknown[0]!r} (keys: kind, and to for a go-to)")
        to = spec.get("to", 0)
        if spec["kind"] == "go-to":
            if not isinstance(to, int) or isinstance(to, bool) or not 2 <= to <= 43:
                raise fail(key, f"go-to needs a square to = 2..43, not {to!r}")
            if to == n:
                raise fail(key, f"go-to {to} sends a man to the square he is on")
        elif "to" in spec:
            raise fail(key, f"to = {to!r} is only for a go-to")
        lanes = key[0] if key[0] in "AB" else "AB"
        for point in dict.fromkeys(square_id(lane, n) for lane in lanes):  # 22 is shared
            if point in set_by:
                raise fail(key, f"square {point} is set twice (by {set_by[point]} too)")
            set_by[point] = key
            out[point] = Order(spec["kind"], to)
    return out


@dataclass(frozen=True)
class MessengerOptions:
    players: int = 2
    """2, 3 or 4 (red, blue, green, yellow)."""
    orders: str = field(default="", metadata=FILE)
    """A square-orders TOML file; empty: the shipped table (no orders: the sheet lists none)."""

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise InvalidOptionError(f"players: {self.players} is not 2, 3 or 4")
        load_orders(self.orders)  # fail early, naming the file


@dataclass(frozen=True, slots=True)
class Enter(Move):
    """``side``'s man comes onto the Start square of ``lane``: ``R start A``."""

    side: str
    lane: str

    def __str__(self) -> str:
        return f"{letter(self.side)} start {self.lane}"

    def points(self) -> tuple[str, ...]:
        return ("", f"{self.lane}1")  # from off the board ("" is no point) onto Start


@dataclass(frozen=True, slots=True)
class Step(Move):
    """``side``'s man moves on: ``R A5-A9``."""

    side: str
    start: str
    to: str
    """Where the man ends, after any order on the square he reached."""

    def __str__(self) -> str:
        return f"{letter(self.side)} {self.start}-{self.to}"

    def points(self) -> tuple[str, ...]:
        return (self.start, self.to)


MBMove = Throw | Enter | Step


@dataclass(frozen=True, slots=True)
class MessengerBoyState:
    """A snapshot of a Messenger Boy position (see :class:`MessengerBoy`)."""

    at: tuple[str | None, ...]
    """Where each seated side's man stands (None: not yet on the board)."""
    turn: int
    spin: int | None
    prison: frozenset[str]
    lose: frozenset[str]
    start: tuple[tuple[str, int | None], ...] | None
    """During the opening spins: each contender's spin (None: still to spin)."""


_SPIN = re.compile(r"^(?:spin=)?([1-6])$")
_ENTER = re.compile(r"^([RBGY]) start ([AB])$")
_STEP = re.compile(r"^([RBGY]) ([AB]?[0-9]{1,2})-([AB]?[0-9]{1,2})$")


@register
class MessengerBoy(Position[MBMove, MessengerBoyState]):
    game_id = "messenger-boy"
    title = "Messenger Boy"
    sides: ClassVar[tuple[str, ...]] = COLOURS
    Options: ClassVar[type[Any]] = MessengerOptions
    dice_spec = (1, 6)

    def __init__(
        self,
        options: Any,
        at: dict[str, str | None],
        turn: int,
        spin: int | None = None,
        prison: frozenset[str] = frozenset(),
        lose: frozenset[str] = frozenset(),
        start: tuple[tuple[str, int | None], ...] | None = None,
    ) -> None:
        super().__init__(options)
        self._players = COLOURS[: options.players]
        self.orders = load_orders(options.orders)
        self.at = at
        self._turn = turn
        self.spin = spin
        self.prison = prison
        self.lose = lose
        self.start_spins = start
        """During the opening: each contender's spin (None: still to spin)."""

    @classmethod
    def _start(cls, options: Any) -> Self:
        players = COLOURS[: options.players]
        return cls(options, dict.fromkeys(players), 0, start=tuple((p, None) for p in players))

    # -- state -------------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @classmethod
    def most_men(cls) -> int:
        """One man a player, every seat filled (they enter from off the board)."""
        return len(cls.start(players=4).at)

    @property
    def turn(self) -> str:
        if self.start_spins is not None:
            return next(p for p, v in self.start_spins if v is None)
        return self._players[self._turn]

    def in_opening(self) -> bool:
        return self.start_spins is not None

    def is_chance(self) -> bool:
        if self.outcome() is not None:
            return False
        if self.start_spins is not None:
            return True
        return self.spin is None and self.at[self.turn] is not None

    def chance_outcomes(self) -> list[tuple[MBMove, float]]:
        return [(spin, 1 / 6) for spin in SPINS] if self.is_chance() else []

    def throw(self, values: tuple[int, ...]) -> MBMove:
        if len(values) != 1 or values[0] not in range(1, 7):
            raise InvalidMoveError(f"bad messenger-boy spin {values}: one value, 1 to 6")
        return SPINS[values[0] - 1]

    def occupied(self) -> frozenset[str]:
        return frozenset(p for p in self.at.values() if p is not None)

    def waiting(self) -> dict[str, int]:
        return {letter(p): 1 for p in self.players if self.at.get(p) is None}

    def pieces(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for player, point in self.at.items():
            if point is not None:
                out[point] = out.get(point, "") + letter(player)
        return out

    def _save(self) -> MessengerBoyState:
        return MessengerBoyState(
            tuple(self.at[p] for p in self._players),
            self._turn,
            self.spin,
            self.prison,
            self.lose,
            self.start_spins,
        )

    def _restore(self, state: MessengerBoyState) -> None:
        self.at = dict(zip(self._players, state.at, strict=True))
        self._turn, self.spin = state.turn, state.spin
        self.prison, self.lose, self.start_spins = state.prison, state.lose, state.start

    # -- moves -------------------------------------------------------------------------------

    def _generate_moves(self) -> list[MBMove]:
        if self.outcome() is not None:
            return []
        if self.is_chance():
            return list(SPINS)
        player = self.turn
        if self.at[player] is None:
            return [Enter(player, "A"), Enter(player, "B")]
        assert self.spin is not None
        return list(self._steps(player, self.spin))

    def _steps(self, player: str, spin: int) -> list[Step]:
        here = self.at[player]
        assert here is not None
        taken = {p for q, p in self.at.items() if q != player and p is not None}
        if player in self.prison:
            if spin != PRISON_KEY:
                return []
            two = square_id(lane_of(here) or "A", 2)
            if two in taken:
                return []
            return [Step(player, here, self._after_order(two, taken))]
        n = number_of(here) + spin
        if n > 43:
            return []  # the exact spin reaches 43
        if n <= 21:
            targets = [square_id(lane_of(here) or "A", n)]
        elif n in (22, 43):
            targets = [str(n)]
        elif number_of(here) >= 23:
            targets = [square_id(lane_of(here) or "A", n)]
        else:
            targets = [square_id("A", n), square_id("B", n)]  # the lane after 22
        out: list[Step] = []
        for target in targets:
            if target in taken:
                continue  # he would stay and lose the turn
            step = Step(player, here, self._after_order(target, taken))
            if step not in out:  # both lanes' squares may send him to one square
                out.append(step)
        return out

    def _after_order(self, square: str, taken: set[str]) -> str:
        """Where a man who reached ``square`` is left standing: he obeys the square's go-to,
        and the order of the square it sends him onto, and so on (docs/rules.md §5). A go-to whose
        target is occupied leaves him where he is; a square already visited in this chain
        ends it (the loop guard: a table whose go-tos run in a circle)."""
        return self._order_chain(square, taken)[-1]

    def _order_chain(self, square: str, taken: set[str]) -> list[str]:
        """The squares a man who reached ``square`` stands on in turn as he obeys the go-tos
        (:meth:`_after_order`, :func:`order_chain`): ``square`` first, where he is left
        standing last."""
        return order_chain(self.orders, square, taken)

    def _apply(self, move: MBMove) -> None:
        if isinstance(move, Throw):
            (value,) = move.values
            if self.start_spins is not None:
                self._opening_spin(value)
                return
            self.spin = value
            if not self._steps(self.turn, value):
                self._next_turn()  # no move: he stays and the turn passes
            return
        player = self.turn
        if isinstance(move, Enter):
            self.at[player] = f"{move.lane}1"
            return
        self.at[player] = move.to
        self.spin = None
        self.prison = self.prison - {player}  # a prisoner who spun his 5 is out, on square 2
        order = self.orders.get(move.to)  # the square where he is left standing
        if order is not None and order.kind == "spin-again":
            return  # the same man spins again
        if order is not None and order.kind == "lose-turn":
            self.lose = self.lose | {player}
        if order is not None and order.kind == "prison":
            self.prison = self.prison | {player}
        self._next_turn()

    def _opening_spin(self, value: int) -> None:
        assert self.start_spins is not None
        spins = list(self.start_spins)
        i = next(k for k, (_, v) in enumerate(spins) if v is None)
        spins[i] = (spins[i][0], value)
        if any(v is None for _, v in spins):
            self.start_spins = tuple(spins)
            return
        best = max(v for _, v in spins if v is not None)
        tied = [p for p, v in spins if v == best]
        if len(tied) > 1:  # the tied players spin again
            self.start_spins = tuple((p, None) for p in tied)
            return
        self.start_spins = None
        self._turn = self._players.index(tied[0])

    def _next_turn(self) -> None:
        """The turn goes round; a player who owes a lost turn is skipped once (and so pays
        it), even when every player owes one: the order rotates as ever (docs/rules.md §5)."""
        self.spin = None
        while True:
            self._turn = (self._turn + 1) % len(self._players)
            player = self._players[self._turn]
            if player not in self.lose:
                return
            self.lose = self.lose - {player}

    # -- what the controller asks ------------------------------------------------------------

    def physical_steps(self, move: MBMove) -> PhysicalMove:
        """A man entering is set on his Start square from the hand. A man moving is set down
        on the square he reached and, when its go-to order sends him on, on each square the
        orders send him to in turn (docs/rules.md §5)."""
        if isinstance(move, Throw):
            return PhysicalMove()
        if isinstance(move, Enter):
            return PhysicalMove((Carry(None, (Hop(f"{move.lane}1"),)),))
        chain = self._stops(move)
        hops = tuple(Hop(square) for square in chain)
        return PhysicalMove((Carry(move.start, hops, stops=len(hops) > 1),))

    def counts(self, move: MBMove) -> tuple[tuple[str, ...], ...]:
        """A man's count up his lane to the square his spin reaches (either lane after 22,
        where the lanes part); the go-to orders then move him on as :meth:`physical_steps`
        says. None for a man entering or a prisoner let out."""
        if not isinstance(move, Step) or self.spin is None or move.side in self.prison:
            return ()
        here = number_of(move.start)
        lane = lane_of(move.start) or "A"
        end = here + self.spin
        if end > 43:
            return ()
        lanes = (lane,) if end <= 21 or here >= 23 else ("A", "B")
        return tuple(
            dict.fromkeys(
                tuple(
                    square_id(lane if n <= 21 or here >= 23 else way, n)
                    for n in range(here, end + 1)
                )
                for way in lanes
            )
        )

    def _stops(self, move: Step) -> list[str]:
        """The squares ``move``'s man stands on in turn: the square he reached, then each one
        its go-to orders send him to (just his landing when no order moved him)."""
        if self.spin is None or not self.orders:
            return [move.to]
        taken = {p for q, p in self.at.items() if q != move.side and p is not None}
        here = move.start
        if move.side in self.prison:
            reached = [square_id(lane_of(here) or "A", 2)]
        else:
            n = number_of(here) + self.spin
            lanes = (lane_of(here) or "A",) if n <= 21 or number_of(here) >= 23 else ("A", "B")
            reached = list(dict.fromkeys(square_id(lane, n) for lane in lanes))
        for square in reached:
            chain = self._order_chain(square, taken)
            if square not in taken and chain[-1] == move.to:
                return chain
        return [move.to]

    def evaluate(self, side: str) -> float:
        """Ten points a turn fewer than ``side``'s man needs, on his own, to reach 43 from
        where he stands (:func:`turns_to_finish`: the lanes and this board's orders taken into
        account, so a lane with a prison or a go-back on it is worth less), less a turn owed,
        or the spins a prisoner waits for his 5."""
        turns = turns_to_finish(self.options.orders)
        here = self.at.get(side)
        if here is None:
            need = min(turns["A1"], turns["B1"])
        elif side in self.prison:
            need = turns[f"prison-{lane_of(here) or 'A'}"]
        else:
            need = turns[here]
        if side in self.lose:
            need += 1
        return -10.0 * need

    # -- the end -----------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        for player, where in self.at.items():
            if where == "43":
                return Outcome(player, Termination.HOME, f"{player} reached 43")
        return None

    # -- text --------------------------------------------------------------------------------

    def to_text(self) -> str:
        parts = [f"{letter(p)}@{self.at[p] or '-'}" for p in self._players]
        if self.start_spins is not None:
            parts.append(
                "start="
                + ",".join(f"{letter(p)}{'?' if v is None else v}" for p, v in self.start_spins)
            )
        else:
            parts.append(f"turn={letter(self._players[self._turn])}")
        if self.spin is not None:
            parts.append(f"spin={self.spin}")
        if self.prison:
            parts.append("prison=" + ",".join(letter(p) for p in self._players if p in self.prison))
        if self.lose:
            parts.append("lose=" + ",".join(letter(p) for p in self._players if p in self.lose))
        return " ".join(parts)

    @classmethod
    def _from_text(cls, text: str, options: Any) -> Self:
        players = COLOURS[: options.players]
        by_letter = {letter(p): p for p in players}

        def bad(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"bad messenger-boy position {text!r}: {why}")

        def who(ch: str) -> str:
            if ch not in by_letter:
                raise bad(f"{ch!r} is not a player of this game ({' '.join(by_letter)})")
            return by_letter[ch]

        at: dict[str, str | None] = dict.fromkeys(players)
        turn: int | None = None
        spin = None
        prison: set[str] = set()
        lose: set[str] = set()
        start: tuple[tuple[str, int | None], ...] | None = None
        given: set[str] = set()

        def once(key: str, token: str) -> None:
            if key in given:
                raise bad(f"{token}: {key} is given twice")
            given.add(key)

        def group(token: str, items: str) -> set[str]:
            out = [who(c) for c in items.split(",")]
            if len(out) != len(set(out)):
                raise bad(f"{token}: a player named twice")
            return set(out)

        for token in text.split():
            if "@" in token:
                p, _, where = token.partition("@")
                if where != "-" and where not in POINTS:
                    raise bad(f"{token}: no square {where!r}")
                once(who(p), token)
                at[who(p)] = None if where == "-" else where
            elif token.startswith("turn="):
                once("turn=", token)
                turn = players.index(who(token[5:]))
            elif token.startswith("spin="):
                once("spin=", token)
                if not _SPIN.match(token):
                    raise bad(f"{token}: a spin is 1 to 6")
                spin = int(token[5:])
            elif token.startswith("prison="):
                once("prison=", token)
                prison = group(token, token[7:])
            elif token.startswith("lose="):
                once("lose=", token)
                lose = group(token, token[5:])
            elif token.startswith("start="):
                once("start=", token)
                entries = []
                for item in token[6:].split(","):
                    value = item[1:]
                    if not re.fullmatch(r"[1-6?]", value):
                        raise bad(f"{token}: each opening spin is 1 to 6 or ?")
                    entries.append((who(item[:1]), None if value == "?" else int(value)))
                start = tuple(entries)
            else:
                raise bad(f"unknown part {token!r}")
        missing = [letter(p) for p in players if p not in given]
        if missing:
            raise bad(f"give every man: {', '.join(f'{m}@…' for m in missing)} (- off the board)")
        taken = [p for p in at.values() if p is not None and p not in START_SQUARES]
        if len(taken) != len(set(taken)):
            raise bad("two men on one square (only Start may hold more)")
        if start is not None:
            why = _opening_fault(start, players, at, turn, spin, prison, lose)
            if why:
                raise bad(f"{token_of(text, 'start=')}: {why}")
            return cls(options, at, 0, None, frozenset(), frozenset(), start)
        if turn is None:
            raise bad("no turn=PLAYER (or start=… for the opening spins)")
        position = cls(options, at, turn, spin, frozenset(prison), frozenset(lose))
        why = position._inconsistency()
        if why:
            raise bad(why)
        return position

    def _inconsistency(self) -> str:
        """What makes this state (after the opening) one the game cannot reach, or ``""``."""
        mover = self._players[self._turn]
        letters = ",".join(letter(p) for p in sorted(self.prison | self.lose))
        if any(self.at[p] is None for p in self.prison | self.lose):
            return f"prison=/lose= {letters}: a man off the board owes nothing"
        for p in sorted(self.prison):
            order = self.orders.get(self.at[p] or "")
            if order is None or order.kind != "prison":
                return f"prison={letter(p)}: {self.at[p]} is no prison square in the orders"
        if mover in self.lose:
            return f"lose={letter(mover)}: his lost turn is paid as his turn comes"
        if self.spin is not None:
            over = self.outcome()
            if over is not None:
                return f"spin={self.spin}: the game is over ({over})"
            if self.at[mover] is None:
                return f"spin={self.spin}: {mover}'s man enters before he spins"
            if not self._steps(mover, self.spin):
                return f"spin={self.spin}: {mover} has no move for it (the turn would have passed)"
        return ""

    def parse_move(self, text: str) -> MBMove:
        t = " ".join(text.split())
        if m := _SPIN.match(t):
            return SPINS[int(m.group(1)) - 1]
        sides = {letter(c): c for c in self.sides}
        if m := _ENTER.match(t):
            return Enter(sides[m.group(1)], m.group(2))
        if m := _STEP.match(t):
            return Step(sides[m.group(1)], m.group(2), m.group(3))
        raise InvalidMoveError(
            f"bad messenger-boy move {text!r}: expected spin=4, 'R start A' or 'R A5-A9'"
        )
