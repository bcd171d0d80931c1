"""The player panel beside the board, as JSON-ready dicts: the sides in words with their
swatches, whose turn, who plays whom, the dice, the buttons the game uses, why a move the board
shows breaks the rules; and for the picker, each game's player counts and options.

Pure functions of the session and the config, like ``state.py``: no aiohttp here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from reedboard import engine
from reedboard.daemon import words
from reedboard.engine.names import option_name, side_name
from reedboard.referee.session import Session, SessionState

PLAYER_COUNTS = range(1, 7)
"""The player counts a game with a ``players`` option is tried with (each its options take)."""
CONFIRMS = frozenset({SessionState.PENDING, SessionState.ASKING, SessionState.CARRYING_OUT})
"""The states in which `confirm` means something: a move to say is done, or to choose."""


def buttons(session: Session, *, by_hand: bool = False) -> list[str]:
    """The buttons that mean something in this game now: `roll` only with dice or a spinner,
    `confirm` only while a move waits on it (not a move the simulated board's own hand is
    carrying out, ``by_hand``: nothing is for the players to confirm)."""
    out = []
    if session.cls.dice_spec is not None:
        out.append("roll")
    out += ["undo", "hint"]
    carried = by_hand and session.state is SessionState.CARRYING_OUT
    if session.state in CONFIRMS and not carried:
        out.append("confirm")
    return [*out, "new"]


def panel(
    session: Session,
    *,
    computer: Collection[str],
    level: int,
    dice: Sequence[int] | None,
    physical: frozenset[str],
    by_hand: bool = False,
) -> dict[str, Any]:
    """What the panel shows of the game being played (sent inside each state message);
    ``by_hand``: the simulated board's hand carries out the moves lit for the players."""
    position = session.position
    sides = [
        {
            "side": s,
            "name": side_name(position.game_id, s).name,
            "colour": side_name(position.game_id, s).colour,
            "computer": s in computer,
            "turn": not position.is_over() and s == position.turn,
        }
        for s in position.players
    ]
    shown = session.decider.showing
    if shown is not None and session.state is SessionState.CARRYING_OUT:
        turn = words.shown_line(position, shown, computer, by_hand=by_hand)
    else:
        turn = words.turn_line(position, computer)
    why = None
    if session.state is SessionState.MISMATCH:
        why = words.wrong_move(position, session.recognizer.expected, physical)
    return {
        "sides": sides,
        "turn_text": turn,
        "versus": words.versus(position, computer, level),
        "computer": sorted(computer),
        "level": level,
        "dice": list(dice) if dice else (list(words.last_throw(position) or []) or None),
        "dice_by": words.dice_owner(position),
        "buttons": buttons(session, by_hand=by_hand),
        "why": why,
        "move_words": words.move_list(position),
        "options": position.option_values(),
        "pieces": {
            p: words.piece_words(position, letter) for p, letter in position.pieces().items()
        },
        "example": example(position),
    }


def example(position: engine.Position[Any, Any]) -> str | None:
    """What the typing field shows as an example: a move of the game's notation (``e.g.
    9-4``); when it is time to throw, a move as one throw would allow it, and where the throw
    comes from (the roll button), never a throw (``e.g. WR a1-c6 (after a throw: throws come
    from the roll button)``)."""
    if position.is_over():
        return None
    if not position.is_chance():
        move = next(iter(position.legal_moves), None)
        return None if move is None else f"e.g. {move}"
    for throw in position.legal_moves:
        after = position.copy(stack=False)
        after.push(throw)
        if after.turn == position.turn and not after.is_chance():
            move = next(iter(after.legal_moves), None)
            if move is not None:
                return f"e.g. {move} (after a throw: throws come from the roll button)"
    return "throws come from the roll button"


def computer_seats(game: str, options: dict[str, Any], names: Iterable[str]) -> frozenset[str]:
    """The computer's seats in this game (none where the configured sides are not seated)."""
    from reedboard.daemon.seats import seats

    with contextlib.suppress(ValueError, engine.EngineError):
        return seats(game, options, names)
    return frozenset()


@functools.cache
def game_choices(game: str) -> dict[str, Any]:
    """What the picker offers for ``game``: its sides in words, its player counts (a game
    with a ``players`` option), and its options with their kinds and defaults, each in words
    (``label``, ``help``, a choice's ``choice_labels``: ``engine/data/options.toml``), but not
    an option that names a file (a page may not name a file on the board's machine)."""
    cls = engine.game(game)
    start = cls.start()
    counts = []
    options = []
    files = set(cls.file_options())
    hints = typing.get_type_hints(cls.Options)
    for field in dataclasses.fields(cls.Options):
        if field.name in files:
            continue
        if field.name == "players":
            for n in PLAYER_COUNTS:
                with contextlib.suppress(engine.EngineError, ValueError):
                    cls.options_from({"players": n})
                    counts.append(n)
            continue
        option = _option(field.name, hints[field.name], getattr(cls.Options(), field.name))
        named = option_name(game, field.name)
        option["label"], option["help"] = named.label, named.help
        if "choices" in option:
            option["choice_labels"] = [named.value(v) for v in option["choices"]]
        options.append(option)
    return {
        "id": game,
        "title": cls.title,
        "sides": [
            {"side": s, "name": side_name(game, s).name, "colour": side_name(game, s).colour}
            for s in cls.sides
        ],
        "seated": {str(n): list(cls.start(players=n).players) for n in counts}
        or {"": list(start.players)},
        "players": counts,
        "default_players": len(start.players),
        "options": options,
    }


def _option(key: str, hint: Any, default: Any) -> dict[str, Any]:
    """One option as the picker shows it: a checkbox, a list of choices, or a text field."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    if hint is bool:
        return {"key": key, "kind": "bool", "default": default}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        choices = [m.value for m in hint]
        return {"key": key, "kind": "choice", "choices": choices, "default": default.value}
    if isinstance(default, tuple):
        default = ",".join(map(str, default))
    return {"key": key, "kind": "text", "default": "" if default is None else str(default)}
