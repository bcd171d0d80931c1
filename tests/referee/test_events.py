"""The game's events (reedboard/referee/events.py): typed, in order, the store first."""

from __future__ import annotations

from pathlib import Path

from reedboard import engine
from reedboard.referee.events import EventBus, GameEvent, Lifted, MoveCommitted, Notice, Takeback
from reedboard.store.games import GameStore
from tests.referee.rig import Rig


def test_the_first_listener_hears_at_once_the_rest_once_the_hold_is_off() -> None:
    holding = [True]
    bus = EventBus(hold=lambda: holding[0])
    first: list[GameEvent] = []
    rest: list[GameEvent] = []
    bus.subscribe(first.append, first=True)
    bus.subscribe(rest.append)
    a, b = Notice(1.0, "pass", "a"), Notice(2.0, "pass", "b")
    bus.publish(a)
    bus.publish(b)
    assert first == [a, b] and rest == [] and bus.held_since == 1.0
    assert not bus.flush()  # still holding
    holding[0] = False
    c = Notice(3.0, "pass", "c")
    bus.publish(c)  # held too: it must not overtake a and b
    assert rest == []
    assert bus.flush() and rest == [a, b, c] and not bus.holding


def test_events_serialise_to_the_alerts_replay_prints() -> None:
    move = next(iter(engine.start("fox-and-geese").legal_moves))
    assert MoveCommitted(1.23456, move, 0).as_alert() == {
        "t": 1.235,
        "kind": "move",
        "text": str(move),
    }
    assert MoveCommitted(0, move, 0, extends=True).name == "extend"
    assert Takeback(2.0, 3).as_alert()["text"] == "to ply 3"


def test_a_session_publishes_typed_events_in_the_order_of_its_alerts(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    rig = Rig("fox-and-geese", store=store)
    heard: list[GameEvent] = []
    rig.session.events.subscribe(heard.append)
    rig.move("9", "4")
    rig.move("16", "9")
    moves = [e for e in heard if isinstance(e, MoveCommitted)]
    assert [(str(e.move), e.ply, e.source) for e in moves] == [
        ("9-4", 0, "board"),
        ("16-9", 1, "board"),
    ]
    said = [e for e in heard if e.alert]
    assert [e.as_alert() for e in said] == rig.session.alerts[-len(said) :]
    # a lifted piece is a quiet event: its landings, for listeners that draw the board
    lifted = [e for e in heard if isinstance(e, Lifted)]
    start = engine.start("fox-and-geese")
    from_9 = {m.points()[-1] for m in start.legal_moves if m.points()[0] == "9"}
    assert len(lifted) == 2 and set(lifted[0].landings) == from_9 and lifted[1].landings == ("9",)
    assert "lifted" not in {a["kind"] for a in rig.session.alerts}
    record = store.unfinished("fox-and-geese")
    assert record is not None and record.moves == ("9-4", "16-9")  # the store heard them
