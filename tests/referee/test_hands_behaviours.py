"""Ordinary hands: each behaviour of the hand model really happens, with the timings
it promises, and the default habits play exactly the games they played before.

These test the hands, not recognition: the games here are played against a stand-in for the
session (:class:`Deaf`) that takes the lines in time order, hears every ``roll`` as a throw
and says nothing else, so they pass whatever recognition does. (The benchmark and
test_recognition_hands.py play against the real session.)
"""

from __future__ import annotations

import hashlib
import itertools
import random
from types import SimpleNamespace
from typing import Any

import pytest

from reedboard import engine
from reedboard.sim.handplan import count_routes, counts_of, near
from reedboard.sim.trace import Committed, Trace
from reedboard.wiring.layout import layout_for_game
from tests.hands import board as handboard
from tests.hands.board import Break, Table
from tests.hands.check import ORDINARY, Report, applies, judge
from tests.hands.model import HandGame, play_game

SENSED = [g for g in engine.game_ids() if engine.game(g).sensed]
QUIET = {"touch_before": 0, "touch_during": 0, "touch_after": 0, "bounce": 0, "slide": 0}
"""No touches, bounce or slides: every switch line of a ply is the move's own."""
EPS = 2e-6
"""Trace times are whole microseconds: two of them differ from the true gap by this at most."""


class Deaf:
    """A stand-in for the :class:`~reedboard.sim.trace.Replayer`: lines must come in time order
    and not before the last look; every ``roll`` is heard as a throw; nothing else is said,
    except that from its ``suspect_from``-th switch line on it calls switch ``suspect`` broken."""

    suspect_from: int | None = None
    suspect = "1"

    def __init__(self, trace: Trace, game: str | None = None, **_: Any) -> None:
        self.layout = layout_for_game(game or trace.game)
        self.alerts: list[dict[str, Any]] = []
        self.session = SimpleNamespace(alerts=self.alerts, result=self.result)
        self.board = SimpleNamespace(frame={})
        self.commits: list[Committed] = []
        self.now = 0.0
        self.points = 0

    def feed(self, line: dict[str, Any]) -> None:
        assert line["t"] >= self.now, f"a line at {line['t']} before the clock ({self.now})"
        self.now = line["t"]
        if line.get("button") == "roll":
            self.alerts.append({"t": line["t"], "kind": "throw", "text": "thrown"})
        if "point" in line:
            self.points += 1
            if self.points == self.suspect_from:
                text = f"switch {self.suspect} may be broken"
                self.alerts.append({"t": line["t"], "kind": "suspect-switch", "text": text})

    def advance(self, t: float) -> None:
        self.now = max(self.now, t)

    def finish(self) -> Any:
        return self.session

    def result(self) -> dict[str, Any]:
        return {"moves": [], "alerts": list(self.alerts)}


@pytest.fixture
def deaf(monkeypatch: pytest.MonkeyPatch) -> type[Deaf]:
    monkeypatch.setattr(handboard, "Replayer", Deaf)
    return Deaf


def _hash(played: HandGame) -> str:
    return hashlib.sha256(played.trace.to_jsonl().encode()).hexdigest()[:16]


PINNED = {
    ("fox-and-geese", 0): "cde24e7da6e4438b",
    ("fox-and-geese", 1): "3fa644bdff887abc",
    ("fox-and-geese", 2): "2c29014326cc697d",
    ("parchesi", 0): "29b98deeb6e5610f",
    ("parchesi", 1): "3aebd7803800c535",
    ("parchesi", 2): "a421d38e604cf739",
    ("skip", 0): "f860fc8296e3ff38",
    ("skip", 1): "f8b79079722537cc",
    ("skip", 2): "1c57bc01860d9b79",
}
"""Traces of 40 plies the default habits played before the ordinary hands were added."""


def test_default_habits_play_exactly_the_games_they_played_before(deaf: type[Deaf]) -> None:
    for (game_id, seed), want in PINNED.items():
        assert _hash(play_game(game_id, seed, plies=40)) == want, (game_id, seed)


def _window(played: HandGame, k: int) -> list[dict[str, Any]]:
    """The trace's lines from ply ``k``'s first action to the next ply's."""
    end = played.starts[k + 1] - EPS if k + 1 < len(played.starts) else float("inf")
    return [x for x in played.trace.lines if played.starts[k] - EPS <= x["t"] < end]


def _entries(note: str, what: str) -> list[str]:
    """The texts of a ply's notes of one kind (``count-out L7 120ms, L8 over`` -> ...)."""
    return [n[len(what) + 1 :] for n in note.split("; ") if n.startswith(what + " ")]


def _plies(played: HandGame) -> list[tuple[int, Any, Any]]:
    """Each ply with the position before it and its move."""
    position = engine.start(played.game)
    out = []
    for k, text in enumerate(played.moves):
        move = position.parse_move(text)
        out.append((k, position.copy(), move))
        position.push(move)
    return out


@pytest.mark.parametrize("game_id", ["fox-and-rabbit", "parchesi", "messenger-boy"])
def test_count_out_sets_the_piece_down_on_each_space_of_its_route(
    deaf: type[Deaf], game_id: str
) -> None:
    counted = 0
    for seed in range(3):
        played = play_game(game_id, seed, plies=60, count_out=1.0, **QUIET)
        for k, position, move in _plies(played):
            counts = _entries(played.notes[k], "count-out")
            if not counts:
                continue
            first = position.physical_steps(move).carries[0]
            spaces = [entry.split()[0] for entry in counts[0].split(", ")]
            assert spaces in count_routes(position, move, first), (k, str(move))
            lines = _window(played, k)
            occupied = counts_of(position)
            ons = [x["t"] for x in lines if x.get("point") == first.landing and x["on"]]
            landed = ons[0] if ons else float("inf")  # (a landing on a piece: no line)
            for entry in counts[0].split(", "):
                space, how = entry.split()
                mine = [x for x in lines if x.get("point") == space]
                if occupied.get(space):  # passed over, or set on top: no switch changes
                    assert not mine
                    continue
                assert how != "over" and [x["on"] for x in mine] == [True, False]
                assert 0.1 - EPS <= mine[1]["t"] - mine[0]["t"] <= 0.4 + EPS
                assert mine[1]["t"] < landed
                counted += 1
    assert counted > 20


@pytest.mark.parametrize("game_id", ["fox-and-geese", "skip", "parchesi", "fox-and-rabbit"])
def test_the_next_player_reaches_in_while_the_last_piece_is_in_the_air(
    deaf: type[Deaf], game_id: str
) -> None:
    reached = 0
    for seed in range(3):
        played = play_game(game_id, seed, plies=60, reach_early=1.0, **QUIET)
        for k, position, move in _plies(played):
            if "reach-early" not in played.notes[k]:
                continue
            last = position.physical_steps(move).carries[-1]
            if counts_of(position).get(last.landing):
                continue  # a silent landing: no line to time it by
            t = played.starts[k + 1]
            lines = [x for x in played.trace.lines if played.starts[k] - EPS <= x["t"]]
            landed = next(x["t"] for x in lines if x.get("point") == last.landing and x["on"])
            lifted = [x["t"] for x in lines if x.get("point") == last.start and not x["on"]]
            assert 0.05 - EPS <= landed - t <= 1.0 + EPS
            if counts_of(position).get(last.start or "") == 1:  # not from a nest
                assert lifted and lifted[0] < t  # the mover is in the air
            if engine.game(game_id).dice_spec:
                assert {"t": t, "button": "roll"} in lines
            else:
                after = position.copy()
                after.push(move)
                nxt = after.physical_steps(after.parse_move(played.moves[k + 1])).carries[0]
                assert {"t": t, "point": nxt.start, "on": False} in lines
            reached += 1
    assert reached > 10


@pytest.mark.parametrize("game_id", ["solitaire", "fox-and-geese", "skip"])
def test_a_taken_piece_set_down_by_mistake_lands_on_an_empty_point_and_comes_off(
    deaf: type[Deaf], game_id: str
) -> None:
    layout = layout_for_game(game_id)
    mistakes, on_landings = 0, 0
    for seed in range(3):
        played = play_game(game_id, seed, plies=60, mistake_setdown=1.0, **QUIET)
        for k, position, _move in _plies(played):
            for entry in _entries(played.notes[k], "mistake-setdown"):
                taken, _, spot, _ = entry.split()
                assert not counts_of(position).get(spot) and spot in near(layout, taken)
                lines = _window(played, k)
                mine = [x for x in lines if x.get("point") == spot]
                assert [x["on"] for x in mine] == [True, False]
                assert 0.3 - EPS <= mine[1]["t"] - mine[0]["t"] <= 2.0 + EPS
                off = next(x["t"] for x in lines if x.get("point") == taken and not x["on"])
                assert off < mine[0]["t"]
                landings = {p for m in position.legal_moves for p in m.points()[1:]}
                on_landings += spot in landings
                mistakes += 1
    assert mistakes >= 5 and on_landings > 0


@pytest.mark.parametrize("game_id", ["skip", "fox-and-geese", "parchesi"])
def test_a_knocked_piece_reads_empty_for_a_while_and_comes_back(
    deaf: type[Deaf], game_id: str
) -> None:
    layout = layout_for_game(game_id)
    knocks, clean = 0, 0
    for seed in range(3):
        played = play_game(game_id, seed, plies=60, knock=1.0, **QUIET)
        for k, position, move in _plies(played):
            entries = _entries(played.notes[k], "knock-before")
            entries += _entries(played.notes[k], "knock-after")
            for entry in entries:
                point, _, start, _, seconds = entry.split()
                t, dt = float(start), float(seconds[:-1])
                plan = position.physical_steps(move)
                assert point not in plan.points() and counts_of(position).get(point) == 1
                assert any(point in near(layout, p) for p in plan.points())
                assert 0.5 <= dt <= 3.0
                lines = played.trace.lines
                mine = [x for x in lines if x.get("point") == point and x["t"] > t - 1e-3]
                knocks += 1
                if len(mine) >= 2 and mine[0]["t"] - t < 1e-3 and not mine[0]["on"]:
                    clean += mine[1]["on"] and abs(mine[1]["t"] - (t + dt)) < 1e-3
    # (a knock may end early: the next move's hand lifts the piece, or touches it)
    assert knocks > 3 and clean >= 0.8 * knocks


@pytest.mark.parametrize("game_id", ["fox-and-geese", "skip", "messenger-boy"])
def test_second_thoughts_set_the_piece_on_another_landing_first(
    deaf: type[Deaf], game_id: str
) -> None:
    thoughts, back = 0, 0
    for seed in range(3):
        played = play_game(game_id, seed, plies=60, second_thoughts=1.0, **QUIET)
        back += played.tally["back-to-start"]
        for k, position, move in _plies(played):
            for other in played.considered.get(k, []):
                alt = position.parse_move(other)
                assert alt in position.legal_moves and alt != move
                first = position.physical_steps(move).carries[0]
                alt_first = position.physical_steps(alt).carries[0]
                assert alt_first.start == first.start and alt_first.landing != first.landing
                lines = _window(played, k)
                mine = [x for x in lines if x.get("point") == alt_first.landing]
                assert [x["on"] for x in mine] == [True, False]
                assert 0.3 - EPS <= mine[1]["t"] - mine[0]["t"] <= 3.0 + EPS
                landed = [x["t"] for x in lines if x.get("point") == first.landing and x["on"]]
                assert not landed or landed[-1] > mine[1]["t"]
                thoughts += 1
    assert thoughts > 10 and back > 0


def _table(bounce: float = 0.0, chatter_ms: float = 3.0, seed: int = 1) -> Table:
    position = engine.start("solitaire")
    head = Trace("solitaire", position.occupied())
    return Table(head, counts_of(position), random.Random(seed), bounce, chatter_ms)


def test_a_switch_stuck_open_writes_its_line_then_none_bounce_included() -> None:
    table = _table(bounce=1.0)
    table.lift(0.9995, "5")  # its bounce runs past the break
    table.put(0.99999, "5")
    table.break_switch(1.0, "5", closed=False)
    table.lift(2.0, "5")
    table.put(3.0, "5")
    table.flush(10.0)
    assert [x for x in table.lines if x["t"] >= 1.0] == [{"t": 1.0, "point": "5", "on": False}]
    assert table.broken == Break("5", 1.0, False, differs=1.0, spells=[[1.0, 2.0], [3.0, None]])
    assert table.broken.matters == 3.0  # (the first spell, a second long, left nothing)


def test_a_switch_stuck_closed_matters_once_its_piece_is_lifted() -> None:
    table = _table()
    table.break_switch(1.0, "5", closed=True)
    table.lift(2.0, "5")
    table.put(3.0, "5")
    table.flush(10.0)
    assert table.lines == [] and table.broken is not None
    assert table.broken.differs == 2.0 and table.broken.state == "closed"
    assert table.broken.matters is None  # lifted and put back within a second: a touch


def test_a_broken_switch_matters_once_its_reading_differs_longer_than_a_touch() -> None:
    table = _table()
    table.break_switch(1.0, "5", closed=True)
    table.lift(2.0, "5")
    table.put(3.0, "5")  # a touch: nothing to find
    table.lift(4.0, "5")
    table.put(7.4, "5")  # 3.4 s: still not
    table.lift(8.0, "5")
    table.put(11.5, "5")  # 3.5 s: a piece moved off it and back
    table.flush(20.0)
    assert table.broken is not None and table.broken.matters == 8.0


def test_a_knock_reads_empty_until_it_ends_or_a_hand_sets_the_piece() -> None:
    table = _table()
    table.knock(1.0, "5", 2.0)
    table.knock(1.0, "6", 2.0)
    table.lift(1.5, "6")
    table.put(1.8, "6")  # set again: the knock is over
    table.knock(1.0, "16", 0.5)
    table.lift(0.5, "16")  # no piece there to knock
    table.flush(10.0)
    assert [(x["t"], x["point"], x["on"]) for x in table.lines] == [
        (0.5, "16", False),
        (1.0, "5", False),
        (1.0, "6", False),
        (1.8, "6", True),
        (3.0, "5", True),
    ]
    assert table.counts["5"] == 1 and not table.knocked


def test_the_switch_that_breaks_is_one_later_moves_use_and_writes_nothing_after(
    deaf: type[Deaf],
) -> None:
    for game_id, seed in itertools.product(SENSED, range(2)):
        played = play_game(game_id, seed, plies=80, broken_switch=1.0, **QUIET)
        broken = played.broken
        if broken is None:
            continue
        k = max((i for i, t in enumerate(played.starts) if t <= broken.t), default=0)
        assert k < 2 / 3 * len(played.moves) + 1
        later = [
            p for _, pos, move in _plies(played)[k:] for p in pos.physical_steps(move).points()
        ]
        assert broken.point in later
        mine = [x for x in played.trace.lines if x.get("point") == broken.point]
        assert all(x["t"] <= broken.t for x in mine)
        if mine and mine[-1]["t"] == broken.t:
            assert mine[-1]["on"] is broken.closed
        assert broken.differs is None or broken.differs >= broken.t


def test_after_the_board_calls_a_switch_suspect_the_player_confirms_unheard_moves(
    deaf: type[Deaf],
) -> None:
    deaf.suspect_from = 30
    played = play_game("fox-and-geese", 0, plies=30, **QUIET)
    said = next(a["t"] for a in played.result["alerts"] if a["kind"] == "suspect-switch")
    after = [k for k, t in enumerate(played.starts) if t > said + 5]
    assert after and played.tally["confirm-suspect"] >= len(after)
    for k in after:
        assert {"button": "confirm"} in [{"button": x.get("button")} for x in _window(played, k)]


def test_chatter_lasts_up_to_its_knob() -> None:
    for chatter in (3.0, 10.0):
        longest = 0.0
        for seed in range(20):
            table = _table(bounce=1.0, chatter_ms=chatter, seed=seed)
            table.lift(1.0, "5")
            table.flush(2.0)
            assert table.lines[0] == {"t": 1.0, "point": "5", "on": False}
            assert table.lines[-1]["on"] is False
            longest = max(longest, table.lines[-1]["t"] - 1.0)
        assert 0.6 * chatter / 1000 < longest <= chatter / 1000 + EPS


def test_every_behaviour_at_once_plays_legal_games_in_time_order(deaf: type[Deaf]) -> None:
    loud = {key: 1.0 for key in ORDINARY["all"] if key != "chatter_ms"} | {"chatter_ms": 10.0}
    for game_id, habits in itertools.product(SENSED, [ORDINARY["all"], loud]):
        played = play_game(game_id, 3, plies=60, **habits)
        position = engine.start(game_id)
        for text in played.moves:
            position.push_text(text)
        times = [x["t"] for x in played.trace.lines]
        assert times == sorted(times)
        assert played.starts == sorted(played.starts)


def test_the_behaviour_rows_and_where_they_apply() -> None:
    knobs = {"count_out", "reach_early", "mistake_setdown", "knock", "second_thoughts"}
    assert knobs | {"broken_switch", "chatter_ms"} <= set(ORDINARY["all"])
    assert ORDINARY["careful"] == {}
    assert [g for g in SENSED if applies("count_out", g)] == [
        "fox-and-rabbit",
        "fox-and-rabbit-4",
        "messenger-boy",
        "parchesi",
    ]
    assert not applies("mistake_setdown", "messenger-boy")
    assert not applies("mistake_setdown", "fox-and-rabbit")  # the fox only joins the rabbit
    assert applies("mistake_setdown", "solitaire") and applies("mistake_setdown", "parchesi")


def _hand_game(**fields: Any) -> HandGame:
    moves = ["8-22", "27-25"]
    base: dict[str, Any] = {
        "game": "solitaire",
        "seed": 0,
        "trace": Trace("solitaire", engine.start("solitaire").occupied()),
        "moves": moves,
        "result": {"moves": moves, "alerts": []},
        "commits": [],
        "notes": ["", ""],
        "starts": [0.5, 5.0],
    }
    game = HandGame(**(base | fields))
    game.result["alerts"].insert(0, {"t": 0.0, "kind": "new-game", "text": "solitaire"})
    return game


def test_a_move_set_down_first_is_not_wrong_once_changed_to_the_move_played() -> None:
    first = Committed(1.0, "move", "6-22", 0)
    changed = Committed(2.0, "changed", "8-22", 0)
    ok = judge(_hand_game(commits=[first, changed], considered={0: ["6-22"]}))
    assert ok.wrong == [] and not ok.failed
    assert judge(_hand_game(commits=[first, changed])).wrong == [first]  # not set down first
    assert judge(_hand_game(commits=[first], considered={0: ["6-22"]})).wrong == [first]
    late = Committed(0.5, "changed", "8-22", 0)  # before the commit: changes nothing
    assert judge(_hand_game(commits=[first, late], considered={0: ["6-22"]})).wrong == [first]


def test_judge_says_what_the_board_said_of_a_broken_switch() -> None:
    broken = Break("11", 3.0, False, differs=4.0, spells=[[4.0, None]])
    alerts = [
        {"t": 5.0, "kind": "suspect-switch", "text": "switch 12 may be broken: ..."},
        {"t": 6.5, "kind": "suspect-switch", "text": "switch 11 may be broken: ..."},
        {"t": 7.0, "kind": "changed", "text": "6-22 to 8-22"},
    ]
    moves = ["8-22", "27-25"]
    found = judge(_hand_game(broken=broken, result={"moves": moves, "alerts": alerts}))
    assert found.mattered and found.named_at == 6.5 and found.named_delay == 2.5
    assert found.wrong_point
    assert found.changes == 1 and not found.no_word
    silent = judge(_hand_game(broken=broken, result={"moves": moves[:1], "alerts": []}))
    assert silent.failed and silent.no_word and silent.named_delay is None
    never = judge(_hand_game(broken=Break("11", 3.0, True), result={"moves": [], "alerts": []}))
    assert never.broke and not never.mattered and not never.no_word
    breaks = Report([found, silent, never]).summary()["breaks"]
    assert breaks["broke"] == 3 and breaks["mattered"] == 2 and breaks["named_in_time"] == 1
    assert breaks["delay_median"] == 2.5 and breaks["no_word"] == 1 and breaks["wrong_point"] == 1
