"""The ordinary-hands field traces (tests/referee/field_traces/ordinary-hands/README.md):
each replays to the moves the hands played, with no wrong move and no takeback on the way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reedboard.sim.trace import load_trace, replay

HERE = Path(__file__).parent / "field_traces" / "ordinary-hands"
TRACES = sorted(HERE.glob("*.jsonl"))

ROLLED_AFTER = {"04-recog-fox-and-rabbit-overlap-fox-and-rabbit-3"}
"""Traces whose last `roll` was pressed while the piece was in the hand: the board throws once
the piece is down, one throw past the list."""


def test_there_are_ten() -> None:
    assert len(TRACES) == 10
    for trace in TRACES:
        assert trace.with_suffix("").with_suffix(".expected.json").exists(), trace.name


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem[:2])
def test_ordinary_hands_trace_replays_to_the_moves_played(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())["moves"]
    session = replay(load_trace(path))
    got = [str(m) for m in session.position.move_stack]
    if path.stem in ROLLED_AFTER:
        assert got[: len(expected)] == expected
        assert all(m.startswith("dice=") for m in got[len(expected) :]) and len(got) > len(expected)
    else:
        assert got == expected
    kinds = [a["kind"] for a in session.alerts]
    assert "takeback" not in kinds
    assert kinds.count("new-game") == 1
    committed = [a for a in session.alerts if a["kind"] in ("move", "extend", "changed")]
    for alert in committed:  # (a chain committed hop by hop shows its prefixes first)
        move = alert["text"].rsplit(" to ", 1)[-1]
        assert any(m == move or m.startswith(move + "x") for m in expected), f"{alert}"


def test_a_stuck_switch_is_named() -> None:
    path = HERE / "10-recog-fox-and-geese-stuck-fox-and-geese-11.jsonl"
    session = replay(load_trace(path))
    named = [a for a in session.alerts if a["kind"] == "suspect-switch"]
    assert named and named[0]["text"].startswith("switch 11 ")
