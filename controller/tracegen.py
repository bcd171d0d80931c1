"""Turn games into what a player's hands do on the board: sensor traces with pieces lifted and
placed in any order, jumped pieces taken off before or after the jumper lands, chains carried
step by step or straight to their end, and switch bounce. Tidy hands, for the replay tests and
the terminal demo; the recognition benchmark plays with the unkinder, closed-loop hand model
of controller/hands.py."""

from __future__ import annotations

import itertools
import random
from typing import Any

from controller.trace import Trace
from engine import Move, Position
from engine.cross33 import CrossMove
from engine.fox_and_rabbit import FOXES, RABBITS, PieceMove, Throw
from engine.parchesi import ManMove


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
    """The switch changes of one move on the board, in a random physical order."""
    rng = hands.rng
    before = position.occupied()
    if isinstance(move, Throw):
        hands.dice(move.dice)
        hands.button("roll")
        return
    if isinstance(move, CrossMove) and move.jump:  # a single jump is a chain of one hop
        if straight is None and len(move.path) > 2:  # one hop: no choice to draw
            straight = rng.random() < 0.5
        over = position.board.over  # type: ignore[attr-defined]
        taken = [str(over[(a, b)]) for a, b in itertools.pairwise(move.path)]
        path = [str(h) for h in move.path]
        if straight:
            _shuffle_lift_place(hands, path[0], path[-1], taken)
        else:
            at = path[0]
            for nxt, goose in zip(path[1:], taken, strict=True):
                _shuffle_lift_place(hands, at, nxt, [goose])
                at = nxt
        return
    if isinstance(move, CrossMove):  # a step
        _shuffle_lift_place(hands, str(move.start), str(move.end), [])
        return
    if isinstance(move, PieceMove):
        after = position.occupied_after(move)
        start_clears = move.start in before and move.start not in after
        at: dict[str, str | None] = position.at  # type: ignore[attr-defined]
        capture = move.piece in FOXES and any(at.get(r) == move.to for r in RABBITS)
        if capture:  # the rabbit comes off, the fox goes on
            hands.switch(move.to, False)
            if start_clears:
                hands.switch(move.start, False)
            hands.switch(move.to, True)
        else:
            if start_clears:
                hands.switch(move.start, False)
            if move.to not in before:
                hands.switch(move.to, True)
        return
    if isinstance(move, ManMove):
        _parchesi(hands, position, move)
        return
    points = move.points()
    if not points:
        raise TypeError(f"no physical form for {move!r}")
    # any other game: pieces taken come off in any order, the mover is lifted and set down
    # on its landing (after whatever stood there came off)
    after = position.occupied_after(move)
    start, landing = points[0], points[-1]
    off = [p for p in sorted(before - after) if p != start]
    if landing in before and landing != start and getattr(move, "capture", False):
        off.append(landing)  # the man taken is lifted off before the taker is set down
    rng.shuffle(off)
    actions: list[tuple[str, bool]] = [(p, False) for p in off]
    if start in before and (start not in after or start == landing):
        actions.insert(rng.randint(0, len(actions)), (start, False))
    if landing not in before or landing in off or landing == start:
        actions.append((landing, True))
    for point, on in actions:
        hands.switch(point, on)


def _parchesi(hands: Hands, position: Position[Any, Any], move: ManMove) -> None:
    """Parchesi men, counted per point: a switch changes only when a point empties or fills.
    A man taken is lifted off and put back in his nest; then the taker is set down."""
    count: dict[str, int] = {}
    owner: dict[str, str] = {}
    for colour in position.players:  # type: ignore[attr-defined]
        for i in range(4):
            point = position.where(colour, i)  # type: ignore[attr-defined]
            count[point] = count.get(point, 0) + 1
            owner[point] = colour
    mover = position.turn

    def take(point: str) -> None:
        count[point] -= 1
        if count[point] == 0:
            hands.switch(point, False)

    def put(point: str) -> None:
        count[point] = count.get(point, 0) + 1
        if count[point] == 1:
            hands.switch(point, True)

    for a, b in move.paths:
        victim = owner.get(b) if b != "home" and count.get(b) else None
        if victim is not None and victim != mover:
            take(b)
            put(f"{victim[0].upper()}nest")
            owner[f"{victim[0].upper()}nest"] = victim
        take(a)
        put(b)
        owner[b] = mover


def _shuffle_lift_place(hands: Hands, start: str, end: str, taken: list[str]) -> None:
    """Lift the mover at ``start``, put it on ``end`` (after lifting), and take each piece in
    ``taken`` off at any moment; a piece returning to its own start needs no switch change."""
    rng = hands.rng
    actions: list[tuple[str, bool]] = [(g, False) for g in taken]
    rng.shuffle(actions)
    mover = [(start, False), (end, True)] if start != end else [(start, False), (start, True)]
    # merge the mover's two steps into the removals at random places, keeping lift before place
    i = rng.randint(0, len(actions))
    j = rng.randint(i, len(actions))
    actions.insert(i, mover[0])
    actions.insert(j + 1, mover[1])
    for point, on in actions:
        hands.switch(point, on)


def lookalikes(position: Position[Any, Any], move: Move) -> list[Move]:
    """The legal moves leaving the same board as ``move`` (itself included), in the order the
    controller shows them."""
    target = position.occupied_after(move)
    out: list[Move] = []
    for m in position.legal_moves:
        if m.points() and position.occupied_after(m) == target and m not in out:
            out.append(m)
    return out


def pick_among_lookalikes(hands: Hands, position: Position[Any, Any], move: Move) -> None:
    """What a player does when the board lights one of several moves that end alike: press
    `hint` until the lit one is theirs, then `confirm`."""
    same = lookalikes(position, move)
    if len(same) > 1:
        for _ in range(same.index(move)):
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
            hands.wait(0.3, 0.8)
            game.push(move)
            moves.append(str(move))
            continue
        move = rng.choice(list(game.legal_moves))
        straight = None if style == "mixed" else style == "straight"
        if straight is None and isinstance(move, CrossMove) and len(move.path) > 2:
            straight = rng.random() < 0.5
        silent = is_silent(game, move)
        play_move(hands, game, move, straight)
        alike = len(lookalikes(game, move)) > 1 if move.points() else False
        if straight and alike and isinstance(move, CrossMove):
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
