"""Turn games into what a player's hands do on the board: sensor traces with pieces lifted and
placed in any order, jumped pieces taken off before or after the jumper lands, chains carried
step by step or straight to their end, and switch bounce. Tidy hands, for the replay tests and
the terminal demo; the recognition benchmark plays with the unkinder, closed-loop hand model
of tests/hands/model.py."""

from __future__ import annotations

import random
from typing import Any

from reedboard.engine import Move, Position, Take
from reedboard.referee.decide import QUIET
from reedboard.sim.handplan import counts_of
from reedboard.sim.trace import Trace


class Hands:
    """Writes trace lines on a clock, with ``bounce`` chance of 1 ms switch chatter."""

    def __init__(
        self, rng: random.Random, bounce: float = 0.3, gap: tuple[float, float] = (0.08, 0.4)
    ):
        self.rng = rng
        self.bounce = bounce
        self.gap = gap
        self.t = 0.5
        self.lines: list[dict[str, Any]] = []

    def wait(self, lo: float | None = None, hi: float | None = None) -> None:
        a, b = self.gap
        self.t = round(
            self.t + self.rng.uniform(lo if lo is not None else a, hi if hi is not None else b), 3
        )

    def switch(self, point: str, on: bool) -> None:
        self.wait()
        if (
            self.rng.random() < self.bounce
        ):  # contact chatter: on-off-on (or off-on-off), 1 ms apart
            for flip in (on, not on):
                self.lines.append({"t": self.t, "point": point, "on": flip})
                self.t = round(self.t + 0.001, 3)
        self.lines.append({"t": self.t, "point": point, "on": on})

    def button(self, name: str) -> None:
        self.wait()
        self.lines.append({"t": self.t, "button": name})

    def dice(self, values: tuple[int, ...]) -> None:
        self.wait(0.01, 0.02)
        self.lines.append({"t": self.t, "dice": list(values)})


def play_move(
    hands: Hands, position: Position[Any, Any], move: Move, straight: bool | None = None
) -> None:
    """The switch changes of one move on the board, in a random physical order: a throw is its
    dice line and `roll`; a piece move is what :meth:`~engine.Position.physical_steps` says,
    pieces taken off at any moment (before the taker is set down where they stood), a chain
    set down at each landing or (``straight``) carried to its end."""
    if position.is_chance():
        hands.dice(position.throw_values(move))
        hands.button("roll")
        return
    counts = counts_of(position)
    for carry in position.physical_steps(move).carries:
        way = straight
        if way is None and carry.chain:  # one hop: no choice to draw
            way = hands.rng.random() < 0.5
        if carry.stops or (carry.chain and not way):  # set down at each landing
            at = carry.start
            for hop in carry.hops:
                _carry(hands, counts, at, hop.to, hop.taken)
                at = hop.to
        else:
            _carry(hands, counts, carry.start, carry.landing, tuple(carry.takes))


def _carry(
    hands: Hands, counts: dict[str, int], start: str | None, end: str, taken: tuple[Take, ...]
) -> None:
    """Lift the mover at ``start`` (None: it comes from the hand), set it down on ``end``, and
    take each piece in ``taken`` off at any moment, but before the mover is set down on the
    point it stood on; a piece taken to a nest goes there at once, one lifted aside comes back
    after the mover. A switch changes only when its point empties or fills."""
    rng = hands.rng
    actions: list[tuple[str, int]] = [(t.point, -1) for t in taken]
    rng.shuffle(actions)
    # merge the mover's two steps into the removals at random places, keeping lift before place
    i = rng.randint(0, len(actions))
    j = rng.randint(i, len(actions))
    if start is not None:
        actions.insert(i, (start, -1))
        j += 1
    actions.insert(j, (end, +1))
    placed = actions.index((end, +1))
    first_off = next((k for k, (p, d) in enumerate(actions) if p == end and d < 0), None)
    if first_off is not None and first_off > placed:  # the taken piece makes room first
        actions.insert(first_off, actions.pop(placed))
    for point, delta in actions:
        _count(hands, counts, point, delta)
        if delta < 0:
            take = next((t for t in taken if t.point == point and t.dest is not None), None)
            if take is not None and not take.returns:
                _count(hands, counts, take.dest, +1)  # off to its nest
    for take in taken:
        if take.returns:
            _count(hands, counts, take.point, +1)  # lifted aside, put back beside the mover


def _count(hands: Hands, counts: dict[str, int], point: str | None, delta: int) -> None:
    if point is None:
        return
    before = counts.get(point, 0)
    counts[point] = before + delta
    if (before > 0) != (counts[point] > 0):
        hands.switch(point, counts[point] > 0)


def lookalikes(position: Position[Any, Any], move: Move) -> list[Move]:
    """The legal moves leaving the same board as ``move`` (itself included), in the order the
    controller shows them: one spelling of each position they leave (moves that leave one
    position are one move to the board, which asks nothing about them)."""
    target = position.occupied_after(move)
    out: list[Move] = []
    seen: set[str] = set()
    for m in position.legal_moves:
        if m.points() and position.occupied_after(m) == target and m not in out:
            after = position.copy()
            after.push(m)
            if (text := after.to_text()) not in seen:
                seen.add(text)
                out.append(m)
    return out


def spelt_as(position: Position[Any, Any], move: Move) -> Move:
    """The spelling of ``move`` the board takes: the first legal move leaving its position
    (a throw is itself: throws that leave one position are still other throws)."""
    if not move.points():
        return move
    after = position.copy()
    after.push(move)
    for m in position.legal_moves:
        other = position.copy()
        other.push(m)
        if other.to_text() == after.to_text():
            spelt: Move = m
            return spelt
    return move


def pick_among_lookalikes(hands: Hands, position: Position[Any, Any], move: Move) -> None:
    """What a player does when the board lights one of several moves that end alike: press
    `hint` until the lit one is theirs, then `confirm`."""
    same = lookalikes(position, move)
    if len(same) > 1:
        for _ in range(same.index(spelt_as(position, move))):
            hands.button("hint")
        hands.button("confirm")


def is_silent(position: Position[Any, Any], move: Move) -> bool:
    """True when a move's landing switch does not change (it lands on an occupied circle), so
    the board cannot tell it from a piece still in the air."""
    points = move.points()
    if not points:
        return False
    before = position.occupied()
    return (points[-1] in before and points[-1] != points[0]) or position.occupied_after(
        move
    ) == before


def random_game_trace(
    position: Position[Any, Any],
    rng: random.Random,
    max_plies: int = 120,
    *,
    bounce: float = 0.3,
    style: str = "mixed",
) -> tuple[Trace, list[str]]:
    """Play a random legal game from ``position`` and return its trace and its move list.

    ``style`` for jump chains: ``stepwise``, ``straight`` or ``mixed``. In Fox and Rabbit the
    throws are random; a move whose landing switch does not change is confirmed by the next
    roll, as on the real board."""
    hands = Hands(rng, bounce)
    owed = False
    game = position.copy(stack=False)
    start = game.occupied()
    moves: list[str] = []
    for _ in range(max_plies):
        if game.is_over():
            break
        if game.is_chance():
            count, sides = game.dice_spec or (2, 6)
            values = tuple(rng.randint(1, sides) for _ in range(count))
            move: Move = game.throw(values)
            hands.dice(values)
            hands.button("roll")
            # the dice show once the board has taken the move before: after a landing that
            # changed no switch, only when the switches have been still a while
            if owed:
                hands.wait(QUIET + 0.1, QUIET + 0.6)
            else:
                hands.wait(0.3, 0.8)
            owed = False
            game.push(move)
            moves.append(str(move))
            continue
        move = rng.choice(list(game.legal_moves))
        straight = None if style == "mixed" else style == "straight"
        chain = any(c.chain for c in game.physical_steps(move).carries)
        if straight is None and chain:
            straight = rng.random() < 0.5
        silent = is_silent(game, move)
        owed = silent
        play_move(hands, game, move, straight)
        alike = len(lookalikes(game, move)) > 1 if move.points() else False
        if straight and alike and chain and not silent:
            # carried straight: chains ending alike need the player's word
            pick_among_lookalikes(hands, game, move)
        elif silent and alike:  # `confirm` shows the moves that read alike; then choose
            hands.button("confirm")
            pick_among_lookalikes(hands, game, move)
        game.push(move)
        moves.append(str(move))
        if silent and not alike and (game.is_over() or len(moves) == max_plies):
            hands.button("confirm")  # no next roll will confirm it
        hands.wait(0.3, 0.8)
    trace = Trace(position.game_id, start, position.option_values(), hands.lines)
    return trace, moves
