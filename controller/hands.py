"""A hand model: random legal games played on the board the way people play them, closed-loop.

The player drives a real :class:`~controller.session.Session` (through a
:class:`~controller.trace.Replayer`) on a virtual clock while the trace is written, and reacts
only to what a person at the board sees and hears: the session's alerts (a move heard, dice
thrown, a candidate blinking amber) and the LED frame. It never presses ``undo`` or ``new``, so
any takeback or new game the session makes is spurious.

What the hands do, each with its own chance (:class:`Habits`), all drawn from one seeded
``random.Random``:

- touch pieces that are not moving (lifted and put back after 20 ms-1.5 s) before, during and
  after a move, often near the mover, and the piece that has just moved;
- hesitate with the mover (lift, hold, put back on its start, lift again) and slide it over
  the holes on its way (contacts shorter than the 60 ms settle time);
- pause 0.1-1.5 s with the piece in the hand, sometimes up to 3 s (past the 2 s grace time),
  and so between a capturer's landing and the pieces it takes coming off, or at a chain's
  landing before the next jump;
- take jumped or taken pieces off before, during or after the capturer lands; carry chains
  step by step (set down at each landing) or straight to the end;
- capture fast: the taken man off and the capturer on within 1-60 ms, in either order;
- bounce: 0-3 ms of on/off flips after a switch changes;
- wait 0.3-3 s between moves, with longer thinking pauses.

When a candidate blinks amber the player presses ``hint`` until the candidate shown is theirs,
then ``confirm``. After a move whose landing changes no switch, the next ``roll`` takes it (or
``confirm`` at the end of the game). Dice values are written as ``dice`` lines before ``roll``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import engine
from controller.handboard import Table
from controller.handplan import Counts, counts_of, near, route
from controller.trace import Commit, Trace
from controller.tracegen import is_silent
from engine import Carry, Move, PhysicalMove, Position, Take
from hardware.board_io import AMBER, Pattern


@dataclass(frozen=True)
class Habits:
    """How often the hands do each thing: chances per move unless said otherwise."""

    touch_before: float = 0.15
    """A still piece touched while the player thinks, before the move."""
    touch_during: float = 0.10
    """A still piece touched while the mover is in the hand."""
    touch_after: float = 0.15
    """A piece touched after the move (often the one just moved: ``touch_mover``)."""
    touch_mover: float = 0.4
    """Of the touches after a move: on the piece that has just moved."""
    touch_near: float = 0.6
    """Of the other touches: on a piece near the mover (else anywhere)."""
    touch_overlap: float = 0.3
    """A touch's hand still on when the next action comes (5-100 ms later)."""
    hesitate: float = 0.08
    """The mover lifted, held, put back on its start, then lifted again."""
    slide: float = 0.2
    """The mover slid over the holes on its way (each contact 3-50 ms)."""
    pause: float = 0.2
    """A pause of 0.1-1.5 s in the middle of a move, the piece in the hand (and, as often, at
    each landing of a chain carried step by step, and before each piece taken after the
    capturer landed)."""
    long_pause: float = 0.04
    """Of the same chances: a pause of 1.5-3 s instead (the 2 s grace time passes)."""
    take_before: float = 1.0
    take_during: float = 1.0
    take_after: float = 1.0
    """Weights: when a taken piece comes off, relative to the capturer's landing."""
    stepwise: float = 0.5
    """A jump chain set down at each landing (else carried straight to its end)."""
    fast_capture: float = 0.2
    """A capture's taken man off and capturer on 1-60 ms apart, in either order."""
    lift_joined: float = 0.5
    """A rabbit the fox lands on is lifted aside and put back (else the fox is set beside it)."""
    bounce: float = 0.3
    """Each switch change bounces 0-3 ms."""
    think: float = 0.1
    """A thinking pause of 3-8 s before a move (instead of 0.3-3 s)."""


@dataclass
class HandGame:
    """One closed-loop game: the trace as written, the moves played, what the session did."""

    game: str
    seed: Any
    trace: Trace
    moves: list[str]
    """The moves actually played, throws included, as the engine writes them."""
    result: dict[str, Any]
    """The session's :meth:`~controller.session.Session.result` at the end."""
    commits: list[Commit]
    notes: list[str]
    """What the hands did at each ply (same index as ``moves``)."""
    starts: list[float]
    """When each ply's first hand action (or button) came."""
    tally: Counter[str] = field(default_factory=Counter)
    """How often each behaviour happened."""
    stuck: str | None = None
    """Why the player stopped before the game's end (the board would not throw), if it did."""

    @property
    def recognised(self) -> bool:
        return bool(self.result["moves"] == self.moves)


class Player:
    def __init__(
        self,
        position: Position[Any, Any],
        rng: random.Random,
        habits: Habits,
        **replay: Any,
    ) -> None:
        self.rng = rng
        self.habits = habits
        self.game = position.copy(stack=False)
        head = Trace(position.game_id, position.occupied(), position.option_values())
        self.table = Table(head, counts_of(position), rng, habits.bounce, **replay)
        self.layout = self.table.replayer.layout
        self.t = 0.5
        self.busy: dict[str, float] = {}
        """Until when a point is held by a touch (nothing else happens there before)."""
        self.reserved: set[str] = set()
        """Points the move under way uses: no touch there."""
        self.tally: Counter[str] = Counter()
        self.note: list[str] = []
        self.moves: list[str] = []
        self.notes: list[str] = []
        self.starts: list[float] = []
        self.last_move: Move | None = None
        self.recent: list[Move] = []
        """The piece moves played so far, the last :data:`RECALL` of which the players recall."""
        self.owed = False
        """The last piece move landed without a switch change and is not yet heard."""
        self.stuck: str | None = None
        self.planned: Counts = counts_of(position)
        """Pieces per point once everything scheduled so far has happened."""

    # -- small actions -----------------------------------------------------------------------

    def wait(self, lo: float, hi: float) -> None:
        self.t += self.rng.uniform(lo, hi)

    def _when(self, point: str) -> float:
        """The time an action on ``point`` may happen: not while a touch holds it."""
        held = self.busy.get(point)
        if held is not None and held >= self.t:
            self.t = held + self.rng.uniform(0.02, 0.15)
        return self.t

    def lift(self, point: str) -> None:
        self.table.lift(self._when(point), point)

    def put(self, point: str) -> None:
        self.table.put(self._when(point), point)

    def press(self, button: str) -> None:
        self.table.line(self.t, {"button": button})

    def look(self) -> list[dict[str, Any]]:
        return self.table.look(self.t)

    def do(self, what: str, text: str = "") -> None:
        self.tally[what] += 1
        self.note.append(f"{what} {text}".strip())

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # -- touches -----------------------------------------------------------------------------

    def touch(self, when: str, around: str | None, mover: str | None = None) -> None:
        """A piece that is not moving lifted and put back after 20 ms-1.5 s."""
        h = self.habits
        counts = self.planned
        still = [p for p, n in counts.items() if n > 0 and p not in self.reserved]
        pick: list[str] = []
        kind = "touch"
        if mover is not None and counts.get(mover, 0) > 0 and self.chance(h.touch_mover):
            pick, kind = [mover], "touch-mover"
        elif around is not None and self.chance(h.touch_near):
            pick = sorted(set(still) & near(self.layout, around))
            kind = "touch-near"
        if not pick:
            pick = sorted(still)
            kind = "touch"
        if not pick:
            return
        point = self.rng.choice(pick)
        start = self._when(point)
        hold = self.rng.uniform(0.02, 1.5)
        self.table.lift(start, point)
        self.table.put(start + hold, point)
        self.busy[point] = start + hold
        self.do(f"{kind}-{when}", f"{point} {hold * 1000:.0f}ms")
        if self.chance(h.touch_overlap):
            self.wait(0.005, 0.1)
            self.tally["touch-overlap"] += 1
        else:
            self.t = start + hold
            self.wait(0.05, 0.5)

    # -- a move ------------------------------------------------------------------------------

    def play_move(self, move: Move) -> None:
        h = self.habits
        game = self.game
        plan = game.physical_steps(move)
        silent = is_silent(game, move)
        self.reserved = plan.points()
        first = plan.carries[0]
        around = first.start or first.landing
        self.think()
        self.starts.append(self.t)
        if self.chance(h.touch_before):
            self.touch("before", around)
        for i, carry in enumerate(plan.carries):
            if i:
                self.wait(0.2, 1.2)
            self.carry(carry, plan)
        self.planned = plan.counts_after(self.planned)
        self.reserved = set()
        if self.chance(h.touch_after):
            self.touch("after", plan.carries[-1].landing, mover=plan.carries[-1].landing)
        self.last_move = move
        self.owed = silent
        self.t = max(self.t, self.table.last_due)
        self.wait(0.3, 1.0)  # then a look at the board
        self.answer(self.look(), move)

    def think(self) -> None:
        self.t = max(self.t, self.table.last_due)  # both hands off the board first
        if self.chance(self.habits.think):
            self.wait(3.0, 8.0)
            self.do("think")
        else:
            self.wait(0.3, 3.0)

    def carry(self, carry: Carry, plan: PhysicalMove) -> None:
        """One piece carried over its hops, its takes coming off around it."""
        h, rng = self.habits, self.rng
        stepwise = carry.stops or (carry.chain and self.chance(h.stepwise))
        if carry.chain:
            self.do("stepwise" if stepwise else "straight")
        if carry.stops:  # set down on the square reached, then where its order sends him
            self.do("order-stop", ",".join(hop.to for hop in carry.hops[:-1]))
        takes = [(i, t) for i, hop in enumerate(carry.hops) for t in hop.taken]
        fast = None
        if takes and self.chance(h.fast_capture):
            fast = takes[-1] if not stepwise else rng.choice(takes)
        when: dict[Take, str] = {}
        for i, take in takes:
            if (i, take) == fast:
                when[take] = "fast"
                continue
            same = take.point in (hop.to for hop in carry.hops)
            if take.returns and not self.chance(h.lift_joined):
                when[take] = "stay"
                continue
            options = ["before", "during"] + ([] if same else ["after"])
            weights = [h.take_before, h.take_during, h.take_after][: len(options)]
            when[take] = rng.choices(options, weights)[0]
        after: list[Take] = []
        returns: list[Take] = []
        # pieces taken off before the mover is lifted
        for _, take in takes:
            if when[take] == "before":
                self.take_off(take, "before")
                returns += [take] if take.returns else []
                self.wait(0.1, 0.6)
        at = carry.start
        if at is not None and self.chance(h.hesitate):
            self.lift(at)
            self.wait(0.05, 1.0)
            self.put(at)
            self.do("hesitate", at)
            self.wait(0.1, 1.0)
        if at is not None:
            self.lift(at)
        for i, hop in enumerate(carry.hops):
            last = i == len(carry.hops) - 1
            down = stepwise or last
            during = [t for j, t in takes if j == i and when[t] == "during"]
            self.in_hand(during, returns, at, hop.to)
            if down:
                fast_here = [
                    t for j, t in takes if when[t] == "fast" and (j == i if stepwise else last)
                ]
                if fast_here:
                    self.fast_landing(fast_here[0], hop.to, returns)
                else:
                    self.wait(0.05, 0.4)
                    self.put(hop.to)
                mine = [t for j, t in takes if (j == i or not stepwise) and when[t] == "after"]
                if stepwise and not last:
                    for take in mine:
                        self.wait(0.1, 0.6)
                        self.maybe_pause("before-take")
                        self.take_off(take, "after")
                    self.wait(0.1, 0.8)
                    self.maybe_pause("at-landing")
                    self.lift(hop.to)
                else:
                    after += mine
            at = hop.to
        for take in after:
            self.wait(0.1, 0.7)
            self.maybe_pause("before-take")
            self.take_off(take, "after")
        for take in returns:  # a rabbit lifted aside goes back beside the fox
            self.wait(0.05, 0.8)
            self.put(take.point)

    def take_off(self, take: Take, when: str) -> None:
        self.lift(take.point)
        self.do(f"take-{when}", take.point)
        if take.dest is not None and not take.returns:  # a man sent to his nest
            self.table.put(self.t + self.rng.uniform(0.2, 0.8), take.dest)
            self.busy[take.dest] = max(self.busy.get(take.dest, 0.0), self.t + 0.8)

    def in_hand(self, during: list[Take], returns: list[Take], start: str | None, to: str) -> None:
        """What happens while the mover is in the hand on its way to ``to``."""
        h, rng = self.habits, self.rng
        items: list[Any] = [("take", t) for t in during]
        if self.chance(h.touch_during):
            items.append(("touch", None))
        if self.chance(h.pause):
            items.append(("pause", None))
        rng.shuffle(items)
        for kind, take in items:
            self.wait(0.05, 0.4)
            if kind == "take":
                self.take_off(take, "during")
                if take.returns:
                    returns.append(take)
            elif kind == "touch":
                self.touch("during", to)
            else:
                self.pause("in-hand")
        if start is not None and self.chance(h.slide):
            self.slide(start, to)

    def maybe_pause(self, where: str) -> None:
        if self.chance(self.habits.pause):
            self.pause(where)

    def pause(self, where: str) -> None:
        """0.1-1.5 s, or (``long_pause`` of the time) 1.5-3 s."""
        h = self.habits
        long = self.chance(h.long_pause / h.pause) if h.pause > 0 else False
        held = self.rng.uniform(1.5, 3.0) if long else self.rng.uniform(0.1, 1.5)
        self.t += held
        self.do("long-pause" if long else "pause", f"{where} {held:.1f}s")

    def slide(self, start: str, to: str) -> None:
        """The mover slid over the holes between ``start`` and ``to``: brief contacts."""
        path = route(self.layout, start, to, self.chance(0.5))
        if not path:
            return
        self.wait(0.02, 0.2)
        for point in path:
            touch = self.rng.uniform(0.003, 0.05)
            self.table.put(self.t, point)
            self.table.lift(self.t + touch, point)
            self.t += touch + self.rng.uniform(0.005, 0.06)
        self.do("slide", ",".join(path))

    def fast_landing(self, take: Take, to: str, returns: list[Take]) -> None:
        """The taken man off and the capturer on within 1-60 ms, in either order."""
        gap = self.rng.uniform(0.001, 0.06)
        self.wait(0.05, 0.4)
        start = self._when(take.point)
        if self.chance(0.5):
            self.table.lift(start, take.point)
            self.table.put(start + gap, to)
            self.do("fast-capture", f"{take.point} off, {to} on {gap * 1000:.0f}ms later")
        else:
            self.table.put(start, to)
            self.table.lift(start + gap, take.point)
            self.do("fast-capture", f"{to} on, {take.point} off {gap * 1000:.0f}ms later")
        self.t = start + gap
        if take.dest is not None and not take.returns:
            self.table.put(self.t + self.rng.uniform(0.2, 0.8), take.dest)
            self.busy[take.dest] = self.t + 0.8
        if take.returns:
            returns.append(take)

    # -- what the player sees ----------------------------------------------------------------

    def blinking(self) -> set[str]:
        frame = self.table.replayer.board.frame
        return {p for p, light in frame.items() if light.colour == AMBER and light.pattern is BLINK}

    def answer(self, alerts: list[dict[str, Any]], move: Move | None) -> None:
        """A candidate blinking amber: `hint` until it is the move the players made, then
        `confirm`. The board may ask about a move a ply or two back (one whose landing
        changed no switch, read alike with another until the next moves): the players at the
        table remember what they did."""
        for _ in range(3):
            asked = [a for a in alerts if a["kind"] == "ambiguous"]
            if not asked or not self.blinking() or move is None:
                return
            shown_list = asked[-1]["text"].split(" | ")
            target = _index_of(shown_list, move)
            for earlier in reversed(self.recent[-RECALL:]):
                if target is None:
                    target = _index_of(shown_list, earlier)
            self.tally["asked"] += 1
            if target is None:
                self.do("ask-not-mine", asked[-1]["text"])
                return
            for _ in range(target):
                self.wait(0.3, 1.0)
                self.press("hint")
                self.look()
            self.wait(0.3, 1.0)
            self.press("confirm")
            self.do("confirm-candidate", str(move))
            self.wait(0.3, 1.0)
            alerts = self.look()

    def roll(self, values: tuple[int, ...]) -> bool:
        """Throw: the dice line, then `roll`; True once the board has thrown."""
        self.t = max(self.t, self.table.last_due)
        self.wait(0.3, 1.5)
        self.starts.append(self.t)
        self.table.line(self.t, {"dice": list(values)})
        for attempt in range(3):
            self.t += self.rng.uniform(0.001, 0.03)
            self.press("roll")
            self.wait(0.2, 0.6)
            alerts = self.look()
            if any(a["kind"] == "throw" for a in alerts):
                if self.owed:
                    self.do("silent-roll")
                self.owed = False
                return True
            if any(a["kind"] == "ambiguous" for a in alerts):
                self.answer(alerts, self.last_move)
            elif attempt == 0:
                self.wait(0.3, 1.0)
                self.press("confirm")
                self.do("confirm-to-roll")
                self.wait(0.2, 0.6)
                self.answer(self.look(), self.last_move)
            self.wait(0.3, 1.0)
        return False

    # -- the game ----------------------------------------------------------------------------

    def play(self, max_plies: int) -> None:
        game = self.game
        rng = self.rng
        for _ in range(max_plies):
            if game.is_over():
                break
            self.note = []
            if game.is_chance():
                count, sides = game.dice_spec or (2, 6)
                values = tuple(rng.randint(1, sides) for _ in range(count))
                throw = game.throw(values)
                thrown = self.roll(values)
                game.push(throw)
                self._record(throw)
                if not thrown:
                    self.stuck = f"ply {len(self.moves) - 1}: the board would not throw"
                    break
                continue
            move = rng.choice(list(game.legal_moves))
            self.play_move(move)
            game.push(move)
            self._record(move)
        if self.owed and self.stuck is None:  # no roll will take the last move: confirm it
            self.wait(0.3, 1.0)
            self.press("confirm")
            self.do("confirm-end")
            self.wait(0.3, 1.0)
            self.answer(self.look(), self.last_move)
            if self.notes:
                self.notes[-1] += "; " + "; ".join(self.note[-1:])
        self.table.finish()

    def _record(self, move: Move) -> None:
        self.moves.append(str(move))
        if move.points():
            self.recent.append(move)
        self.notes.append("; ".join(self.note))


BLINK = Pattern.BLINK


RECALL = 4
"""How many piece moves back the players remember what they did, to answer the board."""


def _index_of(shown: list[str], move: Move) -> int | None:
    text = str(move)
    if text in shown:
        return shown.index(text)
    return None


def play_game(
    game: str | Position[Any, Any],
    seed: Any,
    *,
    plies: int = 120,
    habits: Habits | None = None,
    options: dict[str, Any] | None = None,
    **overrides: Any,
) -> HandGame:
    """One random legal game played closed-loop by the hand model; ``seed`` (any value) picks
    the game: the same game id, seed and habits give the same trace."""
    position = engine.start(game, **(options or {})) if isinstance(game, str) else game
    habits = dataclasses.replace(habits or Habits(), **overrides)
    rng = random.Random(f"hands/{position.game_id}/{seed}")
    player = Player(position, rng, habits)
    player.play(plies)
    replayer = player.table.replayer
    player.tally["bounce"] += player.table.bounces
    return HandGame(
        game=position.game_id,
        seed=seed,
        trace=player.table.trace(),
        moves=player.moves,
        result=replayer.session.result(),
        commits=list(replayer.commits),
        notes=player.notes,
        starts=player.starts,
        tally=player.tally,
        stuck=player.stuck,
    )


def hand_game_trace(
    position: Position[Any, Any],
    rng: random.Random,
    max_plies: int = 120,
    habits: Habits | None = None,
) -> tuple[Trace, list[str]]:
    """Like :func:`controller.tracegen.random_game_trace`, with the hand model's hands."""
    player = Player(position, rng, habits or Habits())
    player.play(max_plies)
    return player.table.trace(), player.moves
