"""Hand-played field traces (tests/controller/field_traces/README.md) replay to the moves
actually played, with no takeback, new game or mismatch on the way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.trace import load_trace, replay

HERE = Path(__file__).parent / "field_traces"
TRACES = sorted(HERE.glob("*.jsonl"))


def test_every_field_trace_has_its_moves() -> None:
    assert len(TRACES) >= 10
    for trace in TRACES:
        assert trace.with_suffix(".expected.json").exists(), trace.name


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_field_trace_replays_to_the_moves_played(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())["moves"]
    session = replay(load_trace(path))
    assert [str(m) for m in session.position.move_stack] == expected
    kinds = [a["kind"] for a in session.alerts]
    # never a spurious takeback or new game (the first new-game is the game beginning)
    assert "takeback" not in kinds
    assert kinds.count("new-game") == 1
    assert "mismatch" not in kinds
    # no move was committed that is not in the record, even for a moment
    committed = [a["text"] for a in session.alerts if a["kind"] in ("move", "extend", "throw")]
    for text in committed:
        assert text in expected, f"{text} was committed but never played"
