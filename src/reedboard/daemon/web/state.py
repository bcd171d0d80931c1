"""What the page is sent, as JSON-ready dicts: the board's drawing (from its layout in
``reedboard/wiring/``), the referee's state (pieces as the switches read them, whose turn, the
moves,
the dice, what to do in words, the outcome) and the LEDs' colours.

Pure functions of the session, board and layout: no aiohttp here, so they are tested (and
typed) on their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reedboard import engine
from reedboard.daemon.web.drawing import drawing, waiting
from reedboard.daemon.web.shapes import signals
from reedboard.engine import Position
from reedboard.hardware.lights import Colour, Light
from reedboard.referee.session import Session, SessionState
from reedboard.wiring.layout import Layout


def hex_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def layout_message(
    layout: Layout,
    game_id: str,
    games: Iterable[str],
    position: Position[Any, Any] | None = None,
) -> dict[str, Any]:
    """The board to draw: each point at its drawing grid place (``x`` from the left, ``y``
    from the top, in point pitches), the layout's marks, the games the picker offers, and
    ``drawing``: the board as the page draws it for ``position``'s game and options (the
    game's start when None; ``drawing.py``)."""
    cls = engine.game(game_id)
    return {
        "type": "layout",
        "game": game_id,
        "title": cls.title,
        "board": layout.name,
        "size": list(layout.size),
        "points": {p.id: [p.x, p.y] for p in layout.points.values()},
        "marks": layout.marks,
        "dice": cls.dice_spec is not None,
        "drawing": drawing(layout, position if position is not None else engine.start(game_id)),
        "games": [
            {"id": g, "title": engine.game(g).title, "sides": list(engine.start(g).players)}
            for g in games
        ],
    }


def pieces_shown(session: Session, occupied: frozenset[str]) -> dict[str, str]:
    """A piece on every closed switch: its letter where the game expects one there, ``?``
    where it expects none."""
    letters = session.position.pieces()
    return {p: letters.get(p, "?") for p in sorted(occupied)}


def guidance(session: Session, occupied: frozenset[str], *, by_hand: bool = False) -> str:
    """What the players are to do now, in words (``by_hand``: the simulated board's hand
    carries out the moves lit for the players, so they have none to carry out)."""
    state = session.state
    position = session.position
    expected = session.recognizer.expected
    remove = sorted(occupied - expected, key=_order(session.layout))
    place = sorted(expected - occupied, key=_order(session.layout))
    fixes = "; ".join(
        [f"take the piece off {p}" for p in remove] + [f"put a piece on {p}" for p in place]
    )
    if state is SessionState.MISMATCH:
        return f"the board does not match the game: {fixes or 'it does now'}"
    if state is SessionState.RESTORING:
        return f"move taken back: put the board back as it was ({fixes or 'done'})"
    if state is SessionState.CARRYING_OUT:
        if by_hand:
            return "wait: the board is making the move shown in blue"
        return (
            f"carry out the move shown in blue ({fixes})"
            if fixes
            else "carry out the move shown in blue"
        )
    if state is SessionState.ASKING:
        return "the board cannot tell these moves apart: hint shows the next, confirm takes it"
    if state is SessionState.WAITING:
        return "the board shows an earlier position or a new game: it is taken once it stays"
    if state is SessionState.OVER:  # (who won, the player panel says: words.turn_line)
        return "press new to play again"
    if state is SessionState.PENDING:
        return "a move on its way: finish it (confirm if it is done)"
    if position.is_chance():  # (whose turn it is, the player panel says: words.turn_line)
        return "press roll"
    return ""


def _order(layout: Layout) -> Any:
    def key(point: str) -> tuple[int, int]:
        p = layout.points.get(point)
        return (p.y, p.x) if p else (0, 0)

    return key


def state_message(
    session: Session,
    occupied: frozenset[str],
    *,
    dice: Sequence[int] | None,
    version: str,
    board_seq: int,
    simulated: bool,
    alerts: Sequence[Mapping[str, Any]],
    by_hand: bool = False,
) -> dict[str, Any]:
    """The referee's whole state: a page that reconnects draws itself from this alone.
    ``version`` names the game's position (another after a move, a throw, a takeback, a new
    game) and ``board_seq`` counts the switch changes; the page sends them back with each
    action, and an action for a game or board that has moved on since is refused.
    ``by_hand``: the simulated board's own hand carries out the moves lit for the players."""
    position = session.position
    outcome = position.outcome()
    return {
        "type": "state",
        "game": session.game_id,
        "position": position.to_text(),
        "pieces": pieces_shown(session, occupied),
        "waiting": waiting(position),
        "expected": sorted(session.recognizer.expected),
        "turn": position.turn,
        "throw": position.is_chance(),
        "moves": [str(m) for m in position.move_stack],
        "dice": list(dice) if dice else None,
        "state": session.state.value,
        "guidance": guidance(session, occupied, by_hand=by_hand),
        "outcome": str(outcome) if outcome else None,
        "version": version,
        "board_seq": board_seq,
        "simulated": simulated,
        "alerts": list(alerts),
        **signals(
            session, occupied, by_hand=by_hand
        ),  # marks (the shapes) and said (hints, verdicts)
    }


def leds_message(
    layout: Layout, chain: Sequence[Colour], frame: Mapping[str, Light]
) -> dict[str, Any]:
    """Every point's LED as it is lit now (the compositor's chain: blinks arrive as they
    turn on and off) and what it is meant to show (colour and pattern); the dice's pips."""
    points = {
        p.id: hex_colour(chain[p.led])
        for p in layout.points.values()
        if p.led < len(chain) and chain[p.led] != (0, 0, 0)
    }
    pips = [hex_colour(c) for c in chain[layout.dice_start :]]
    meant = {p: [hex_colour(light.colour), light.pattern.value] for p, light in frame.items()}
    return {"type": "leds", "points": points, "pips": pips, "frame": meant}
