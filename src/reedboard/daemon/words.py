"""What happens at the board, in plain words for people: whose turn it is, who plays whom, the
dice, each event, the move list, and why a move the board shows is against the rules.

The sides' names are the engine's (``reedboard/engine/names.py``); these functions only put
them into sentences, for the web view's player panel and the command line alike. Nothing here
changes anything: every function reads a position (and the referee's public state) and
returns text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from reedboard.engine import Move, Position, Throw
from reedboard.engine.names import join, name, side_name
from reedboard.referee.events import (
    Ambiguous,
    ButtonPressed,
    GameEvent,
    GameOver,
    HintShown,
    Lifted,
    LinkChanged,
    Mismatch,
    MoveCarriedOut,
    MoveCommitted,
    MoveShown,
    NewGame,
    Notice,
    Resumed,
    Takeback,
    Thrown,
)

AnyPosition = Position[Any, Any]


def side(position: AnyPosition, who: str | None = None) -> str:
    """A side of ``position``'s game in words (the side to act when ``who`` is None)."""
    return name(position.game_id, position.turn if who is None else who)


def piece_words(position: AnyPosition, letter: str) -> str:
    """What stands on a point, as the drawing's letter says it: ``a goose``, ``White Rabbit``,
    ``a yellow man (4 here)``; ``?`` is a piece the game does not expect there."""
    if letter == "?":
        return "a piece the game does not expect here"
    sides = position.sides
    named = [s for s in sides if s[:1].lower() == letter[:1].lower()]
    if len(named) != 1 and len(sides) == 1:
        named = list(sides)
    if len(named) != 1:
        return "a piece"
    one = side_name(position.game_id, named[0]).one
    many = len(letter) > 1 and len(set(letter)) == 1
    return f"{one} ({len(letter)} here)" if many else one


def throw_words(throw: Move) -> str:
    """A throw as people say it: ``3 and 2``, ``4`` (a spin), ``double 6``."""
    if not isinstance(throw, Throw):
        return str(throw)
    if throw.double:
        return f"double {join([str(v) for v in throw.values])}"
    return join([str(v) for v in throw.values])


def plural(n: int, word: str) -> str:
    """``1 move``, ``3 moves``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _verb(throw: Move) -> str:
    return "spun" if isinstance(throw, Throw) and throw.spin else "threw"


def _spins(position: AnyPosition) -> bool:
    """Whether the game's chance is a spinner (its throws are written ``spin=``)."""
    first = next(iter(position.legal_moves), None) if position.is_chance() else None
    return isinstance(first, Throw) and first.spin


def turn_line(position: AnyPosition, computer: Collection[str] = ()) -> str:
    """Whose turn it is, in words: ``the geese to move``, ``White Rabbit to throw``; who won,
    once the game is over."""
    outcome = position.outcome()
    if outcome is not None:
        why = _named(position, outcome.detail) or outcome.reason.value.replace("-", " ")
        if outcome.winner is None:
            return f"game over: nobody wins ({why})"
        return f"game over: {side(position, outcome.winner)} won ({why})"
    who = side(position)
    what = ("to spin" if _spins(position) else "to throw") if position.is_chance() else "to move"
    by = " (the computer)" if position.turn in computer else ""
    return f"{who}{by} {what}"


def _named(position: AnyPosition, text: str) -> str:
    """The engine's words with each side's id said by its name (``WR reached e9``: ``White
    Rabbit reached e9``; ``red has 3 men left``: ``Red has 3 men left``); a lower-case id
    inside the text is a word of its own (``no fox can move``, ``a red man``) and stays."""
    for who in position.sides:
        pattern = rf"\b{re.escape(who)}\b" if who != who.lower() else rf"^{re.escape(who)}\b"
        text = re.sub(pattern, side(position, who).replace("\\", r"\\"), text)
    return text


def shown_line(
    position: AnyPosition, shown: Move, computer: Collection[str] = (), *, by_hand: bool = False
) -> str:
    """A move from elsewhere (the computer, a remote board), committed and lit: whose it is
    (``position`` is after it), and who carries it out: the players, or on the simulated
    board (``by_hand``) the board's own hand."""
    before = position.copy()
    mover = before.turn
    if before.move_stack and before.move_stack[-1] == shown:
        before.pop()
        mover = before.turn
    who = "the computer" if mover in computer else "the other board"
    then = "the board is making the move" if by_hand else "carry it out on the board"
    return f"{who} moved {side(position, mover)}: {shown}; {then}"


def versus(position: AnyPosition, computer: Collection[str], level: int) -> str:
    """Who plays whom: ``you against the computer (level 3, plays the geese)``."""
    players = position.players
    seats = [p for p in players if p in computer]
    if not seats:
        if len(players) == 1:
            return f"{side(position, players[0])} at the board"
        return f"{join([side(position, p) for p in players])} at the board, no computer"
    if len(seats) == len(players):
        return f"the computer plays every side (level {level})"
    plays = join([side(position, p) for p in seats])
    return f"you against the computer (level {level}, plays {plays})"


def before(position: AnyPosition, ply: int) -> AnyPosition | None:
    """The position before ply ``ply`` of ``position``'s game, or None (the game has no such
    ply any more: taken back)."""
    if not 0 <= ply < len(position.move_stack):
        return None
    copy = position.copy()
    while len(copy.move_stack) > ply:
        copy.pop()
    return copy


def _taken(base: AnyPosition, move: Move) -> int:
    """How many pieces ``move`` takes off the board."""
    try:
        return max(0, len(base.occupied()) - len(base.occupied_after(move)))
    except Exception:  # (a move that no longer fits: said without the count)
        return 0


def move_words(base: AnyPosition, move: Move) -> str:
    """A move of ``base``'s side to move: ``the geese 15-9``, ``the fox 9x25x11, taking 2``;
    a move whose notation begins with the side's own letters says the side once (``White
    Rabbit a1-c6``, not ``White Rabbit WR a1-c6``; ``Yellow enter``)."""
    taken = _taken(base, move)
    takes = f", taking {taken}" if taken else ""
    text = str(move)
    first, _, rest = text.partition(" ")
    if rest and first.lower() in (base.turn.lower(), base.turn[:1].lower()):
        text = rest
    return f"{side(base)} {text}{takes}"


def _the(one: str) -> str:
    """``a goose`` as the one meant: ``the goose``; a name stays (``White Rabbit``)."""
    return "the " + one[2:] if one.startswith("a ") else one


def _owner(position: AnyPosition, point: str) -> str | None:
    """The side whose piece stands on ``point`` (None: none, or more than one side's)."""
    letters = position.pieces().get(point, "")
    sides = {s for s in position.sides for ch in letters if s[:1].lower() == ch.lower()} or (
        set(position.sides) if letters and len(position.sides) == 1 else set()
    )
    return next(iter(sides)) if len(sides) == 1 else None


def _piece_on(position: AnyPosition, point: str) -> str:
    """What stands on ``point``, as the one meant (``the goose``, ``White Rabbit``)."""
    who = _owner(position, point)
    return _the(side_name(position.game_id, who).one) if who is not None else "the piece"


def say_move(base: AnyPosition, move: Move) -> str:
    """A move of ``base``'s side to move as a player would say it, from how a hand makes it
    (the engine's ``physical_steps``): ``move White Rabbit from a1 to e7``, ``the fox jumps
    from 9 over 10 to 11``, ``move the yellow man from the nest to L4``, ``put the red boy on
    A1``, ``move the red man from e3 to d4, taking the blue man``; the notation for a move
    that carries no piece (a throw)."""
    try:
        carries = base.physical_steps(move).carries
    except Exception:  # (a move that does not fit the position: its notation)
        return str(move)
    if not carries:
        return str(move)
    mover = _the(side_name(base.game_id, base.turn).one)
    said = []
    for carry in carries:
        start = carry.start
        one = _piece_on(base, start) if start and _owner(base, start) is not None else mover
        if start is None:
            said.append(f"put {one} on {carry.landing}")
            continue
        if any(t.point != hop.to for hop in carry.hops for t in hop.taken):  # a jump
            way = "".join(
                "".join(f" over {t.point}" for t in hop.taken if t.point != hop.to)
                + f" to {hop.to}"
                for hop in carry.hops
            )
            said.append(f"{one} jumps from {start}{way}")
            continue
        taken = [t.point for hop in carry.hops for t in hop.taken]
        taking = "".join(f", taking {_piece_on(base, p)}" for p in taken)
        where = "the nest" if start.endswith("nest") else start
        said.append(f"move {one} from {where} to {carry.landing}{taking}")
    return join(said)


def hint_words(position: AnyPosition, move: Move) -> str:
    """The hint for ``position`` as a player would say it, its notation at the end: ``hint:
    move White Rabbit from a1 to e7 (WR a1-e7)``, ``hint: the fox jumps from 9 over 10 to 11
    (9x11)``."""
    said = say_move(position, move)
    return f"hint: {said}" if said == str(move) else f"hint: {said} ({move})"


def event_words(event: GameEvent, position: AnyPosition, title: str) -> str | None:
    """One event as a line for people (None: nothing worth a line, such as a piece put back or a
    button pressed: what the press did, or why it did nothing, is its own event).
    ``position`` is the game's now (the events of a move come once it is on disk, so it may
    have gone on since)."""
    if isinstance(event, NewGame):
        left = " (the unfinished game left)" if event.abandons else ""
        return f"new game of {title}{left}"
    if isinstance(event, Resumed):
        return f"game {event.game_id} resumed after {plural(event.moves, 'move')}"
    if isinstance(event, Thrown):
        base = before(position, event.ply)
        who = side(base) if base is not None else "the dice"
        return f"{who} {_verb(event.move)} {throw_words(event.move)}"
    if isinstance(event, MoveCommitted):
        base = before(position, event.ply)
        fits = base is not None and position.move_stack[event.ply] == event.move
        said = move_words(base, event.move) if base is not None and fits else str(event.move)
        if event.replaces is not None:
            goes_on = " (the game goes on)" if event.reopens else ""
            return f"changed {event.replaces} to {event.move}{goes_on}"
        by = "the computer: " if event.source == "computer" else ""
        return f"{by}{said}" + (" (the jump went on)" if event.extends else "")
    if isinstance(event, MoveShown):
        return f"{event.move} to carry out on the board (lit blue)"
    if isinstance(event, MoveCarriedOut):
        return f"{event.move} carried out"
    if isinstance(event, Takeback):
        if event.ply == 0:
            return "taken back to the start"
        return f"taken back to after move {event.ply}"
    if isinstance(event, GameOver):
        return turn_line(position) if position.is_over() else f"game over: {event.outcome}"
    if isinstance(event, Mismatch):
        return f"the board does not match the game: {event.fixes}"
    if isinstance(event, Ambiguous):
        return "the board cannot tell apart " + join([str(m) for m in event.candidates])
    if isinstance(event, HintShown):
        if event.proof:
            return f"hint: {event.proof}"
        if event.move is None:
            return "hint: no move to suggest"
        fits = not position.is_over() and position.is_legal(event.move)
        return hint_words(position, event.move) if fits else f"hint: {event.move}"
    if isinstance(event, Lifted):
        if not event.landings:
            return None
        return f"a piece lifted: it may land on {join(list(event.landings))}"
    if isinstance(event, ButtonPressed):
        return None  # (a press that does something is said by what it does; one refused, by
        # the referee's notice saying why)
    if isinstance(event, LinkChanged):
        detail = f": {event.detail}" if event.detail else ""
        return ("the board is connected" if event.up else "the board is disconnected") + detail
    if isinstance(event, Notice):
        return notice_words(event, position, title)
    return event.text or event.name


def notice_words(notice: Notice, position: AnyPosition, title: str) -> str:
    """A notice (the referee's ``what`` and its detail) in words."""
    what = notice.what
    if what == "pass":
        thrown = last_thrower(position)
        if thrown is None:
            return "no move: the turn passes"
        who, throw = thrown
        to = f" to {side(position)}" if not position.is_over() and side(position) != who else ""
        return f"{who} has no move with {throw_words(throw)}: the turn passes{to}"
    if what == "no-dice":
        return f"{title} has no dice: roll does nothing here"
    if what == "roll-first":
        return f"{side(position)} must throw first: press roll"
    if what == "undo":
        return "nothing to take back"
    return notice.detail or what


def passed(position: AnyPosition, ply: int) -> str | None:
    """Whether the throw at ``ply`` left its thrower no move, so that the turn passed: said so
    (``Blue has no move with 1: the turn passes to Green``), whatever comes next (a throw, or a
    man to put on the board); None for a throw with a move, an opening throw (who begins) or
    one that ended the game."""
    base = before(position, ply)
    if base is None or base.in_opening():
        return None
    throw = position.move_stack[ply]
    if not isinstance(throw, Throw):
        return None
    after = base.copy(stack=False)
    after.push(throw)
    if after.is_over() or (after.turn == base.turn and any(True for _ in after.legal_moves)):
        return None
    to = f" to {side(after)}" if after.turn != base.turn else ""
    return f"{side(base)} has no move with {throw_words(throw)}: the turn passes{to}"


def move_list(position: AnyPosition) -> list[str]:
    """The game's moves for people: a throw joined to the move made with it (``3 and 2:
    WR a1-c6``), a throw with no move after it said so (``double 6: no move``), a throw that
    decides who begins said so (``6: to begin``), a move made with no throw alone (``R start
    A``)."""
    stack = position.move_stack
    plies: list[tuple[str, bool, str, bool]] = []  # each ply's mover, opening, turn after, end
    walk = position.copy()  # (taken back ply by ply: cheap, where replaying is not)
    for _ in stack:
        turn, over = walk.turn, walk.is_over()
        walk.pop()
        plies.append((walk.turn, walk.in_opening(), turn, over))
    plies.reverse()
    out: list[str] = []
    thrown: str | None = None
    thrower = ""
    for move, (mover, opening, turn, over) in zip(stack, plies, strict=True):
        if thrown is not None and (isinstance(move, Throw) or mover != thrower):
            out.append(f"{thrown}: no move")
            thrown = None
        if isinstance(move, Throw) and opening:
            out.append(f"{throw_words(move)}: to begin")
        elif isinstance(move, Throw):
            if turn != mover or over:  # no move: the turn passed
                out.append(f"{throw_words(move)}: no move")
            else:
                thrown, thrower = throw_words(move), mover
        elif thrown is not None:
            out.append(f"{thrown}: {move}")
            thrown = None
        else:
            out.append(str(move))
    if thrown is not None:  # the last throw: its move to come
        out.append(f"{thrown}: to move")
    return out


def last_thrower(position: AnyPosition) -> tuple[str, Move] | None:
    """Who made the game's last throw (in words), and the throw; None before the first."""
    stack = position.move_stack
    for ply in range(len(stack) - 1, -1, -1):
        if isinstance(stack[ply], Throw):
            base = before(position, ply)
            return (side(base), stack[ply]) if base is not None else None
    return None


def dice_owner(position: AnyPosition) -> str | None:
    """Whose the dice shown are, when they are not the side to act's own throw: waiting for
    a throw, the dice still show the last one (``Yellow spun 4``); None when they belong to
    the turn (a throw to move with) or no throw has been made."""
    if not position.is_chance() or position.is_over():
        return None
    thrown = last_thrower(position)
    if thrown is None:
        return None
    who, throw = thrown
    return f"{who} {_verb(throw)} {throw_words(throw)}"


def last_throw(position: AnyPosition) -> tuple[int, ...] | None:
    """The dice as the game's last throw left them (as the board's pips show them), or None:
    what a page shows after the daemon restarts, when the board's dice are dark."""
    stack = position.move_stack
    for ply in range(len(stack) - 1, -1, -1):
        if isinstance(stack[ply], Throw):
            base = before(position, ply)
            if base is None:
                return None
            return tuple(base.shown_dice(base.throw_values(stack[ply])))
    return None


def wrong_move(
    position: AnyPosition, expected: frozenset[str], physical: frozenset[str]
) -> str | None:
    """Why the board is not a legal move, from the rules, when it shows one piece moved from
    where the game has it to an empty point, each thing said once (``taking is compulsory: the
    fox must play 16x18``, ``the goose on 14 moved, but it is the turn of the foxes``, ``from 9,
    the fox may go to 4, 5 or 10, not 17``); None when it shows no such thing or the move is
    legal."""
    placed = physical - expected
    lifted = expected - physical
    if len(placed) != 1 or not lifted or position.is_over():
        return None
    (to,) = placed
    who = side(position)
    if position.is_chance():
        return f"{who} must {'spin' if _spins(position) else 'throw'} first: press roll"
    moves = [m for m in position.legal_moves if m.routes()]
    if not moves:
        return None
    starts = {m.routes()[0][0] for m in moves}
    lands = [m for m in moves if m.routes()[0][0] in lifted and m.routes()[0][-1] == to]
    if lands:
        return None  # a legal move (maybe made only in part): no mistake to explain
    base = position.copy(stack=False)
    captures = [m for m in moves if _taken(base, m)]
    if captures and len(captures) == len(moves):
        shown = _either([str(m) for m in captures[:3]])
        return f"taking is compulsory: {who} must play {shown}"
    mine = sorted(lifted & starts)
    if not mine:
        owners = {_owner(position, p) for p in lifted}
        if len(owners) == 1 and None not in owners and owners != {position.turn}:
            moved = _piece_on(position, min(lifted))
            return f"{moved} on {join(sorted(lifted))} moved, but it is the turn of {who}"
        return f"no move of {who} starts at {join(sorted(lifted))}"
    start = mine[0]
    reach = sorted({m.routes()[0][-1] for m in moves if m.routes()[0][0] == start}, key=_natural)
    return f"from {start}, {_piece_on(position, start)} may go to {_either(reach)}, not {to}"


def _natural(point: str) -> list[Any]:
    """A point's sort key, its numbers as numbers: 4 before 10."""
    return [(0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"([0-9]+)", point)]


def _either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return join(words).rsplit(" and ", 1)[0] + (f" or {words[-1]}" if len(words) > 1 else "")
