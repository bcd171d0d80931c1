"""Hand-played field traces (tests/referee/field_traces/README.md) replay to the moves
actually played, with no takeback, new game or mismatch on the way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reedboard.sim.trace import load_trace, replay
from tests.referee.spelling import positions, same_game

HERE = Path(__file__).parent / "field_traces"
TRACES = sorted(HERE.glob("*.jsonl"))


def test_every_field_trace_has_its_moves() -> None:
    assert len(TRACES) >= 10
    for trace in TRACES:
        assert trace.with_suffix(".expected.json").exists(), trace.name


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_field_trace_replays_to_the_moves_played(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())["moves"]
    trace = load_trace(path)
    session = replay(trace)
    got = [str(m) for m in session.position.move_stack]
    assert same_game(trace.game, None, got, expected, **trace.options)  # (a loop: one spelling)
    kinds = [a["kind"] for a in session.alerts]
    # never a spurious takeback or new game (the first new-game is the game beginning)
    assert "takeback" not in kinds
    assert kinds.count("new-game") == 1
    assert "mismatch" not in kinds
    # no move was committed that is not in the record, even for a moment
    committed = [a["text"] for a in session.alerts if a["kind"] in ("move", "extend", "throw")]
    done = set(positions(trace.game, None, expected, **trace.options))
    for text in committed:  # (the spelling the board takes of a loop leaves a position played)
        assert text in expected or _leaves_one_of(session, text, done), f"{text} never played"


def _leaves_one_of(session: object, text: str, done: set[str]) -> bool:
    """Whether the move ``text`` (a loop spelt the other way) leaves a position of the game."""
    from reedboard import engine

    game = session.game_id  # type: ignore[attr-defined]
    position = engine.start(game, **session.options)  # type: ignore[attr-defined]
    for move in session.position.move_stack:  # type: ignore[attr-defined]
        try:
            trial = position.copy()
            trial.push_text(text)
            if trial.to_text() in done:
                return True
        except engine.EngineError:
            pass
        position.push(move)
    return False
