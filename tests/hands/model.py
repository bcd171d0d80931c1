"""A hand model: random legal games played on the board the way people play them, closed-loop.

The player drives a real :class:`~reedboard.referee.session.Session` (through a
:class:`~reedboard.sim.trace.Replayer`) on a virtual clock while the trace is written, and reacts
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
- bounce: 0-3 ms of on/off flips after a switch changes (up to ``chatter_ms``);
- wait 0.3-3 s between moves, with longer thinking pauses.

Ordinary hands, each off unless its chance is set:

- count out a dice or spinner move: the piece hopped along its route, set down 0.1-0.4 s on
  each space it passes (``count_out``);
- reach early: the next player lifts the next move's first piece, or presses ``roll``, while
  the last piece of the move before is still in the air (``reach_early``);
- set a taken piece down by mistake on an empty point for 0.3-2 s before taking it away
  (``mistake_setdown``);
- knock a still piece near the move off its reed for 0.5-3 s (``knock``);
- set the mover down on another legal landing for 0.3-3 s, then move it on (``second_thoughts``);
- a switch that breaks for good, stuck open or closed, once in the game (``broken_switch``).

When a candidate blinks amber the player presses ``hint`` until the candidate shown is theirs,
then ``confirm``. After a move whose landing changes no switch, the next ``roll`` takes it (or
``confirm`` at the end of the game). Dice values are written as ``dice`` lines before ``roll``.
Once the board has said a switch is suspect (a ``suspect-switch`` alert), a move it did not
take is confirmed with ``confirm`` (or, when a throw comes next, by ``roll``, which presses
``confirm`` when the board will not throw). At the game's end, a last move the board has not
taken, where it says no switch saw the piece come down (``unseen``), is confirmed too.

Every new behaviour draws from the random stream only when its chance is above zero, so the
default habits play exactly the games they played before these were added.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from reedboard import engine
from reedboard.engine import Carry, Move, PhysicalMove, Position, Take
from reedboard.hardware.lights import AMBER, Pattern
from reedboard.sim.handplan import Counts, count_routes, counts_of, near, route
from reedboard.sim.trace import Committed, Trace
from reedboard.sim.tracegen import is_silent
from tests.hands.board import Break, Table


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
    """Each switch change bounces for up to ``chatter_ms``."""
    think: float = 0.1
    """A thinking pause of 3-8 s before a move (instead of 0.3-3 s)."""
    chatter_ms: float = 3.0
    """How long contact bounce lasts at most, in milliseconds (worn contacts: up to 10)."""
    # -- ordinary hands: all off by default -----------------------------------------
    count_out: float = 0.0
    """Of dice and spinner moves that pass spaces: the piece hopped along its route (the
    engine's: a Fox and Rabbit die's run and then the other's at a right angle, the Parchesi
    track, a Messenger Boy lane), set down 0.1-0.4 s on each space before its landing; an
    occupied space passed over or the piece set on top of it."""
    reach_early: float = 0.0
    """The next player lifts the next move's first piece, or presses ``roll``, 0.05-1 s before
    this move's last piece lands (while it is in the air)."""
    mistake_setdown: float = 0.0
    """Of carries that take pieces off: one taken piece set down by mistake for 0.3-2 s on an
    empty point within two of where it stood (often another legal move's landing), then
    taken away."""
    knock: float = 0.0
    """A still piece within two points of the mover's start, landing or counted route knocked
    off its reed: its switch reads empty for 0.5-3 s, though the piece never moved; from the
    move's start to 1 s after its landing."""
    second_thoughts: float = 0.0
    """The mover set down for 0.3-3 s on another legal landing of the same piece, then lifted
    and moved on to its real landing (a third of the time put back on its start for 0.2-1.5 s
    first)."""
    broken_switch: float = 0.0
    """A chance per game: at a random ply in the game's first two thirds, the switch of a point
    the next moves use breaks for good, stuck open or closed (even odds)."""


@dataclass
class HandGame:
    """One closed-loop game: the trace as written, the moves played, what the session did."""

    game: str
    seed: Any
    trace: Trace
    moves: list[str]
    """The moves actually played, throws included, as the engine writes them."""
    result: dict[str, Any]
    """The session's :meth:`~reedboard.referee.session.Session.result` at the end."""
    commits: list[Committed]
    notes: list[str]
    """What the hands did at each ply (same index as ``moves``)."""
    starts: list[float]
    """When each ply's first hand action (or button) came."""
    tally: Counter[str] = field(default_factory=Counter)
    """How often each behaviour happened."""
    stuck: str | None = None
    """Why the player stopped before the game's end (the board would not throw), if it did."""
    considered: dict[int, list[str]] = field(default_factory=dict)
    """Ply -> the moves the hands set down first and then thought better of
    (``second_thoughts``): the board may commit one before it is changed."""
    broken: Break | None = None
    """The switch that broke (``broken_switch``), once it has."""

    @property
    def recognised(self) -> bool:
        return bool(self.result["moves"] == self.moves)


Choice = Move | tuple[int, ...]
"""What a ply will be: a piece move, or the values of a throw."""

COMMIT_KINDS = ("move", "extend", "changed")
"""Alerts by which the board says it has taken a piece move."""


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
        self.table = Table(
            head, counts_of(position), rng, habits.bounce, habits.chatter_ms, **replay
        )
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
        self.now: Counts = dict(self.planned)
        """Pieces per point as the move under way stands (before the carry in hand)."""
        self.ahead: list[Choice] = []
        """The plies chosen before their turn (a game drawn ahead, a move reached early)."""
        self.early: float | None = None
        """When the next ply's first action came, if it came before this ply's end
        (:meth:`reach_early`)."""
        self.mover_up = 0.0
        """When the piece being carried was last lifted (or taken from the hand)."""
        self.mover_down = 0.0
        """When the last piece carried was set on its landing."""
        self.mistaken: Take | None = None
        """The taken piece of the carry under way to be set down by mistake."""
        self.breaking: tuple[int, str, bool] | None = None
        """The switch to break: at which ply, which point, stuck closed or open."""
        self.considered: dict[int, list[str]] = {}
        """Ply -> the moves the hands set down first (:meth:`second_thought`)."""
        self.seen: list[dict[str, Any]] = []
        """Every alert the player has taken in, in order."""
        self.looked = 0.0
        """When the player last looked (the session's clock is there)."""
        self.suspect = False
        """The board has said a switch may be broken (and not since that it is fine)."""
        self.max_plies = 0
        """The plies the game is cut at."""

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
        """The alerts since the last look; a switch the board calls suspect is remembered."""
        alerts = self.table.look(self.t)
        self.looked = max(self.looked, self.t)
        self.seen += alerts
        for alert in alerts:
            if alert["kind"] == "suspect-switch":
                self.suspect = True
            elif alert["kind"] == "switch-ok":
                self.suspect = False
        return alerts

    def _thrown(self) -> bool:
        if self.owed:
            self.do("silent-roll")
        self.owed = False
        return True

    def since(self, t: float, look: bool = False) -> list[dict[str, Any]]:
        """The alerts taken in that came at or after ``t`` (``look``: take in what is new
        first)."""
        if look:
            self.look()
        k = len(self.seen)
        while k and self.seen[k - 1]["t"] >= t:
            k -= 1
        return self.seen[k:]

    def do(self, what: str, text: str = "") -> None:
        self.tally[what] += 1
        self.note.append(f"{what} {text}".strip())

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def maybe(self, p: float) -> bool:
        """Like :meth:`chance`, but a behaviour that is off draws nothing from the stream."""
        return p > 0 and self.rng.random() < p

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
        early, self.early = self.early, None
        routes = self.count_out_routes(move, plan)
        self.reserved = plan.points().union(*routes)
        self.now = dict(self.planned)
        first = plan.carries[0]
        around = first.start or first.landing
        held: str | None = None  # where the first piece was last set down, once in the hand
        if early is None:
            self.think()
            self.starts.append(self.t)
            if self.chance(h.touch_before):
                self.touch("before", around)
        else:  # the first piece was lifted while the move before was still landing
            self.starts.append(early)
            self.wait(0.05, 0.3)
            held = first.start
        if self.maybe(h.second_thoughts):
            held = self.second_thought(move, first, held) or held
            if routes and held != first.start:
                routes[0] = []  # counted from its start no more
        t0 = max(self.starts[-1], self.looked)
        for i, carry in enumerate(plan.carries):
            if i:
                self.wait(0.2, 1.2)
            self.carry(carry, plan, routes[i] if routes else [], held if i == 0 else None)
            self.now = PhysicalMove((carry,)).counts_after(self.now)
        self.planned = plan.counts_after(self.planned)
        self.reserved = set()
        if self.maybe(h.knock):
            self.knock(plan, routes, t0)
        if self.maybe(h.reach_early):
            self.reach_early(move, plan)
        if self.chance(h.touch_after):
            self.touch("after", plan.carries[-1].landing, mover=plan.carries[-1].landing)
        self.last_move = move
        self.owed = silent
        self.t = max(self.t, self.table.last_due)
        self.wait(0.3, 1.0)  # then a look at the board
        self.answer(self.look(), move)
        if self.suspect:
            self.confirm_unheard(move, t0)

    def think(self) -> None:
        self.t = max(self.t, self.table.last_due)  # both hands off the board first
        if self.chance(self.habits.think):
            self.wait(3.0, 8.0)
            self.do("think")
        else:
            self.wait(0.3, 3.0)

    def carry(
        self, carry: Carry, plan: PhysicalMove, count: list[str], held: str | None = None
    ) -> None:
        """One piece carried over its hops, its takes coming off around it; counted out over
        the spaces ``count`` before its first landing; ``held``: already in the hand, last set
        down there (lifted early, or after second thoughts)."""
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
        self.mistaken = self.mistake_to_make(takes, when)
        after: list[Take] = []
        returns: list[Take] = []
        # pieces taken off before the mover is lifted
        for _, take in takes:
            if when[take] == "before":
                self.take_off(take, "before")
                returns += [take] if take.returns else []
                self.wait(0.1, 0.6)
        at = carry.start if held is None else held
        if held is None and at is not None and self.chance(h.hesitate):
            self.lift(at)
            self.wait(0.05, 1.0)
            self.put(at)
            self.do("hesitate", at)
            self.wait(0.1, 1.0)
        if held is None and at is not None:
            self.lift(at)
        self.mover_up = self.t
        for i, hop in enumerate(carry.hops):
            last = i == len(carry.hops) - 1
            down = stepwise or last
            during = [t for j, t in takes if j == i and when[t] == "during"]
            self.in_hand(during, returns, at, hop.to, count if i == 0 else [])
            if down:
                fast_here = [
                    t for j, t in takes if when[t] == "fast" and (j == i if stepwise else last)
                ]
                if fast_here:
                    self.fast_landing(fast_here[0], hop.to, returns)
                else:
                    self.wait(0.05, 0.4)
                    self.put(hop.to)
                    self.mover_down = self.t
                mine = [t for j, t in takes if (j == i or not stepwise) and when[t] == "after"]
                if stepwise and not last:
                    for take in mine:
                        self.wait(0.1, 0.6)
                        self.maybe_pause("before-take")
                        self.take_off(take, "after")
                    self.wait(0.1, 0.8)
                    self.maybe_pause("at-landing")
                    self.lift(hop.to)
                    self.mover_up = self.t
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
        if take == self.mistaken:
            self.mistaken = None
            if self.set_down_by_mistake(take):
                return
        if take.dest is not None and not take.returns:  # a man sent to his nest
            self.table.put(self.t + self.rng.uniform(0.2, 0.8), take.dest)
            self.busy[take.dest] = max(self.busy.get(take.dest, 0.0), self.t + 0.8)

    def in_hand(
        self, during: list[Take], returns: list[Take], start: str | None, to: str, count: list[str]
    ) -> None:
        """What happens while the mover is in the hand on its way to ``to``: then it is
        counted out over ``count``, or perhaps slid."""
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
        if count:
            self.count_out(count)
        elif start is not None and self.chance(h.slide):
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
            self.mover_down = start + gap
            self.do("fast-capture", f"{take.point} off, {to} on {gap * 1000:.0f}ms later")
        else:
            self.table.put(start, to)
            self.table.lift(start + gap, take.point)
            self.mover_down = start
            self.do("fast-capture", f"{to} on, {take.point} off {gap * 1000:.0f}ms later")
        self.t = start + gap
        if take.dest is not None and not take.returns:
            self.table.put(self.t + self.rng.uniform(0.2, 0.8), take.dest)
            self.busy[take.dest] = self.t + 0.8
        if take.returns:
            returns.append(take)

    # -- ordinary hands ----------------------------------------------------------------------

    def count_out_routes(self, move: Move, plan: PhysicalMove) -> list[list[str]]:
        """``count_out``: the spaces each carry of ``move`` is counted out over (one of the
        engine's routes for it, picked at random), or none."""
        if self.habits.count_out <= 0:
            return []
        ways = [count_routes(self.game, move, carry) for carry in plan.carries]
        if not any(any(way) for way in ways) or not self.chance(self.habits.count_out):
            return []
        return [self.rng.choice(way) if way else [] for way in ways]

    def count_out(self, spaces: list[str]) -> None:
        """The mover hopped along ``spaces``: set down 0.1-0.4 s on each and lifted again; an
        occupied space passed over or the mover set on top of it (no switch changes)."""
        done = []
        for point in spaces:
            self.wait(0.05, 0.25)
            if self.now.get(point, 0) > 0 and self.chance(0.5):
                done.append(f"{point} over")
                continue
            self.put(point)
            dwell = self.rng.uniform(0.1, 0.4)
            self.t += dwell
            self.lift(point)
            self.mover_up = self.t
            done.append(f"{point} {dwell * 1000:.0f}ms")
        self.do("count-out", ", ".join(done))

    def second_thought(self, move: Move, first: Carry, held: str | None) -> str | None:
        """``second_thoughts``: the mover set down on another legal landing of the same piece
        for 0.3-3 s and lifted again (a third of the time then put back on its start for
        0.2-1.5 s and lifted). Returns where it was last set down, or None (and nothing done)
        when the piece has no other landing free."""
        others = self.other_landings(move, first)
        if not others:
            return None
        other, landing = self.rng.choice(others)
        if held is None and first.start is not None:
            self.lift(first.start)
        self.wait(0.1, 0.8)
        self.put(landing)
        stay = self.rng.uniform(0.3, 3.0)
        self.t += stay
        self.lift(landing)
        self.considered.setdefault(len(self.moves), []).append(str(other))
        self.do("second-thoughts", f"{other} {stay:.1f}s")
        if first.start is None or not self.chance(0.3):
            return landing
        self.wait(0.1, 0.6)
        self.put(first.start)
        back = self.rng.uniform(0.2, 1.5)
        self.t += back
        self.lift(first.start)
        self.do("back-to-start", f"{first.start} {back:.1f}s")
        return first.start

    def other_landings(self, move: Move, first: Carry) -> list[tuple[Move, str]]:
        """The other legal moves of the piece ``first`` carries (same start) and their
        landings, one move a landing, on empty points the move leaves alone."""
        game = self.game
        out: dict[str, Move] = {}
        for other in game.legal_moves:
            carries = game.physical_steps(other).carries
            if other == move or not carries or carries[0].start != first.start:
                continue
            landing = carries[0].landing
            free = not self.now.get(landing) and landing not in self.reserved
            if landing != first.landing and free:
                out.setdefault(landing, other)
        return [(other, landing) for landing, other in out.items()]

    def mistake_to_make(self, takes: list[tuple[int, Take]], when: dict[Take, str]) -> Take | None:
        """``mistake_setdown``: which taken piece of this carry will be set down by mistake."""
        if self.habits.mistake_setdown <= 0:
            return None
        off = [take for _, take in takes if not take.returns and when[take] != "fast"]
        if not off or not self.chance(self.habits.mistake_setdown):
            return None
        return self.rng.choice(off)

    def set_down_by_mistake(self, take: Take) -> bool:
        """The taken piece, just lifted, set on an empty point near it for 0.3-2 s, then
        taken away (to its nest, if it has one). False when no point near is free."""
        spot = self.mistake_spot(take)
        if spot is None:
            return False
        down = max(self.t + self.rng.uniform(0.1, 0.5), self.busy.get(spot, 0.0) + 0.02)
        stay = self.rng.uniform(0.3, 2.0)
        self.table.put(down, spot)
        self.table.lift(down + stay, spot)
        self.busy[spot] = down + stay
        self.t = down
        if take.dest is not None:
            self.table.put(down + stay + self.rng.uniform(0.2, 0.8), take.dest)
            self.busy[take.dest] = max(self.busy.get(take.dest, 0.0), down + stay + 0.8)
        self.do("mistake-setdown", f"{take.point} on {spot} {stay:.1f}s")
        return True

    def mistake_spot(self, take: Take) -> str | None:
        """An empty point within two of ``take``'s, free of the move; more often than not one
        where another legal move lands (so the board reads like that move)."""
        free = {
            p
            for p in near(self.layout, take.point)
            if not self.now.get(p) and p not in self.reserved and self.busy.get(p, 0.0) < self.t
        }
        if not free:
            return None
        game = self.game
        landings = {p for m in game.legal_moves for p in game.physical_steps(m).landings()}
        likely = sorted(free & landings)
        if likely and self.chance(0.6):
            return self.rng.choice(likely)
        return self.rng.choice(sorted(free))

    def knock(self, plan: PhysicalMove, routes: list[list[str]], t0: float) -> None:
        """``knock``: a still piece within two points of the mover's start, landing or counted
        route knocked off its reed for 0.5-3 s, at a moment from ``t0`` (the move's start) to
        1 s after the landing."""
        moving = plan.points().union(*routes)
        around: set[str] = set()
        for point in moving:
            around |= near(self.layout, point)
        still = sorted(
            p for p in around - moving if self.planned.get(p) == 1 and self.busy.get(p, 0.0) < t0
        )
        if not still:
            return
        point = self.rng.choice(still)
        start = self.rng.uniform(t0, self.mover_down + 1.0)
        seconds = self.rng.uniform(0.5, 3.0)
        self.table.knock(start, point, seconds)
        when = "before" if start < self.mover_down else "after"
        self.do(f"knock-{when}", f"{point} at {start:.3f} for {seconds:.3f}s")

    def reach_early(self, move: Move, plan: PhysicalMove) -> None:
        """``reach_early``: the next player's hand comes in 0.05-1 s before this move's last
        piece lands (while it is in the air): the next move's first piece lifted, or the dice
        line and ``roll``. The next ply is chosen now. Not when the same player goes on (a
        throw after entering, an extra throw, solitaire) or the game is over (or cut)."""
        game = self.game
        after = game.copy(stack=False)
        after.push(move)
        air = self.mover_down - self.mover_up
        last = len(self.moves) + 1 >= self.max_plies
        if last or after.is_over() or after.turn == game.turn or air <= 0.06:
            return
        t = self.mover_down - self.rng.uniform(0.05, min(1.0, air - 0.01))
        choice = self.peek(after)
        if isinstance(choice, tuple):
            self.table.line(t - self.rng.uniform(0.001, 0.03), {"dice": list(choice)})
            self.table.line(t, {"button": "roll"})
            what = "roll"
        else:
            start = after.physical_steps(choice).carries[0].start
            if start is None or start in plan.points() or self.busy.get(start, 0.0) >= t:
                return
            self.table.lift(t, start)
            self.reserved = {start}  # no touch on it before the next move
            what = f"lift {start}"
        self.early = round(t, 6)  # as the trace has it
        self.do("reach-early", f"{what} {(self.mover_down - t) * 1000:.0f}ms before the landing")

    def confirm_unheard(self, move: Move, since: float) -> None:
        """The board has said a switch may be broken and has not taken this move: ``confirm``
        (unless a throw comes next: ``roll`` presses ``confirm`` when the board will not
        throw)."""
        if any(a["kind"] in COMMIT_KINDS for a in self.since(since)):
            return
        after = self.game.copy(stack=False)
        after.push(move)
        if after.is_chance():
            return
        self.wait(0.3, 1.0)
        self.press("confirm")
        self.do("confirm-suspect", str(move))
        self.wait(0.3, 1.0)
        self.answer(self.look(), move)

    def confirm_unseen(self, began: float) -> None:
        """The game over, its last move (begun at ``began``) not taken: the players watch the
        board a few seconds and do what it says (no switch saw the piece come down: confirm if
        it is down). Draws from the random stream only when the move was not taken."""
        for _ in range(4):
            said = self.since(began, look=True)
            if any(
                a["kind"] in COMMIT_KINDS and a["text"].endswith(str(self.last_move)) for a in said
            ):
                return
            if any(a["kind"] == "unseen" for a in said):
                self.confirm_last("confirm-unseen")
                return
            self.wait(1.0, 3.0)

    def confirm_last(self, what: str) -> None:
        """``confirm`` for the game's last move, noted as ``what`` on its ply, and the board's
        answer taken in."""
        self.press("confirm")
        self.do(what)
        self.wait(0.3, 1.0)
        self.answer(self.look(), self.last_move)
        if self.notes:
            self.notes[-1] += "; " + "; ".join(self.note[-1:])

    def plan_break(self, max_plies: int) -> None:
        """``broken_switch``: the game drawn ahead (so the switch that breaks is one the next
        moves use), the ply it breaks at (in the first two thirds), the point, and whether it
        sticks closed or open."""
        position = self.game.copy(stack=False)
        used: list[set[str]] = []
        for _ in range(max_plies):
            if position.is_over():
                break
            choice = self.draw(position)
            self.ahead.append(choice)
            if isinstance(choice, tuple):
                used.append(set())
                position.push(position.throw(choice))
            else:
                used.append(position.physical_steps(choice).points())
                position.push(choice)
        if not used:
            return
        ply = self.rng.randrange(max(1, 2 * len(used) // 3))
        soon = [points for points in used[ply:] if points][:6]
        if soon:
            point = self.rng.choice(sorted(set().union(*soon)))
            self.breaking = (ply, point, self.chance(0.5))

    def break_now(self) -> None:
        """The switch breaks at a moment in the first 2 s of its ply."""
        if self.breaking is None or self.breaking[0] != len(self.moves):
            return
        _, point, closed = self.breaking
        self.breaking = None
        self.table.break_switch(self.t + self.rng.uniform(0.0, 2.0), point, closed)
        self.do("switch-breaks", f"{point} stuck {'closed' if closed else 'open'}")

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
        """Throw: the dice line, then `roll`; True once the board has thrown (three tries,
        one more after each question answered, five at most). When the roll was pressed
        early (:meth:`reach_early`), what the board said since counts as the first
        attempt."""
        early, self.early = self.early, None
        self.t = max(self.t, self.table.last_due)
        if early is None:
            self.wait(0.3, 1.5)
            self.starts.append(self.t)
            self.table.line(self.t, {"dice": list(values)})
        else:
            self.starts.append(early)
        began = self.t if early is None else early
        attempts, attempt = 3, -1
        while (attempt := attempt + 1) < attempts:
            if attempt and any(a["kind"] == "throw" for a in self.since(began, look=True)):
                return self._thrown()  # the dice show it already: no need to press again
            if attempt or early is None:
                self.t += self.rng.uniform(0.001, 0.03)
                self.press("roll")
                self.wait(0.2, 0.6)
            else:
                self.wait(0.05, 0.3)
            self.look()
            # the dice are in sight: a throw since the first press, whenever it came
            if any(a["kind"] == "throw" for a in self.since(began)):
                return self._thrown()
            asked = [a for a in self.since(began) if a["kind"] == "ambiguous"]
            if asked and self.blinking():  # a question since the first press, still put
                self.answer(asked, self.last_move)
                attempts = min(attempts + 1, 5)  # a question answered: roll again after it
            elif attempt == 0:
                self.wait(0.3, 1.0)
                if any(a["kind"] == "throw" for a in self.since(began, look=True)):
                    return self._thrown()
                self.press("confirm")
                self.do("confirm-to-roll")
                self.wait(0.2, 0.6)
                self.answer(self.look(), self.last_move)
            self.wait(0.3, 1.0)
        return False

    # -- the game ----------------------------------------------------------------------------

    def play(self, max_plies: int) -> None:
        game = self.game
        self.max_plies = max_plies
        if self.maybe(self.habits.broken_switch):
            self.plan_break(max_plies)
        for _ in range(max_plies):
            if game.is_over():
                break
            self.note = []
            self.break_now()
            choice = self.ahead.pop(0) if self.ahead else self.draw(game)
            if isinstance(choice, tuple):
                throw = game.throw(choice)
                thrown = self.roll(choice)
                game.push(throw)
                self._record(throw)
                if not thrown:
                    self.stuck = f"ply {len(self.moves) - 1}: the board would not throw"
                    break
                continue
            self.play_move(choice)
            game.push(choice)
            self._record(choice)
        if self.owed and self.stuck is None:  # no roll will take the last move: confirm it
            self.wait(0.3, 1.0)
            self.confirm_last("confirm-end")
        elif self.stuck is None and self.last_move is not None and self.starts:
            self.confirm_unseen(self.starts[-1])
        self.table.finish()

    def draw(self, position: Position[Any, Any]) -> Choice:
        """The next ply at random: a throw's values, or one of the legal moves."""
        if position.is_chance():
            count, sides = position.dice_spec or (2, 6)
            return tuple(self.rng.randint(1, sides) for _ in range(count))
        move: Move = self.rng.choice(list(position.legal_moves))
        return move

    def peek(self, after: Position[Any, Any]) -> Choice:
        """The next ply, chosen now if it is not yet (``after``: the position it is played
        from)."""
        if not self.ahead:
            self.ahead.append(self.draw(after))
        return self.ahead[0]

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
        considered=player.considered,
        broken=player.table.broken,
    )


def hand_game_trace(
    position: Position[Any, Any],
    rng: random.Random,
    max_plies: int = 120,
    habits: Habits | None = None,
) -> tuple[Trace, list[str]]:
    """Like :func:`reedboard.sim.tracegen.random_game_trace`, with the hand model's hands."""
    player = Player(position, rng, habits or Habits())
    player.play(max_plies)
    return player.table.trace(), player.moves
