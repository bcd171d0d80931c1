"""Replays: physical traces through the whole controller on a virtual clock come back with the
moves that were played, whatever the order of hands and the bounce of switches."""

from __future__ import annotations

import random

import pytest

from reedboard import engine
from reedboard.sim.trace import Trace, read_trace, replay
from reedboard.sim.tracegen import Hands, play_move, random_game_trace
from tests.engine.test_solitaire import SEED_KEY
from tests.referee.spelling import same_game

GAMES_PER_GAME = 100


@pytest.mark.parametrize("seed", range(5))
def test_the_seed_key_played_physically_in_any_order_with_bounce_wins(seed: int) -> None:
    rng = random.Random(seed)
    hands = Hands(rng, bounce=0.5)
    position = engine.start("solitaire")
    start = position.occupied()
    for text in SEED_KEY:
        move = position.parse_move(text)
        play_move(hands, position, move)
        hands.wait(0.3, 0.8)
        position.push(move)
    assert any(  # the bounce really is there: some switch flips twice within 2 ms
        b["t"] - a["t"] <= 0.0011 and a.get("point") == b.get("point")
        for a, b in zip(hands.lines, hands.lines[1:], strict=False)
    )
    trace = read_trace(Trace("solitaire", start, {}, hands.lines).to_jsonl())
    result = replay(trace).result()
    assert result["moves"] == SEED_KEY
    assert len(result["moves"]) == 31
    assert result["outcome"] == {"winner": "player", "reason": "solved"}
    assert not [a for a in result["alerts"] if a["kind"] == "mismatch"]


SENSED = [g for g in engine.game_ids() if engine.game(g).sensed]


@pytest.mark.parametrize("game_id", SENSED)
def test_random_games_as_traces_come_back_with_the_identical_move_list(game_id: str) -> None:
    for i in range(GAMES_PER_GAME):
        rng = random.Random(f"{game_id}-{i}")
        style = ("mixed", "stepwise", "straight")[i % 3]
        trace, moves = random_game_trace(engine.start(game_id), rng, 120, style=style)
        session = replay(read_trace(trace.to_jsonl()))
        got = [str(m) for m in session.position.move_stack]
        assert same_game(game_id, None, got, moves), f"game {i} ({style})"


def test_a_loop_chain_carried_straight_commits_its_first_jump_then_confirm_picks_the_rest() -> None:
    # found by benchmarks/recognition.py: 1x11x13x27x11 carried straight back to 11 first
    # matches its own first jump (1x11), then reads like 1x11x27x13x11 too; `confirm` on the
    # shown candidate must replace the committed jump, not stack a chain on top of it
    rng = random.Random("bench-fox-and-geese-339")
    trace, moves = random_game_trace(engine.start("fox-and-geese"), rng, 120, style="mixed")
    assert "1x11x13x27x11" in moves
    session = replay(read_trace(trace.to_jsonl()))
    assert [str(m) for m in session.position.move_stack] == moves
    assert "error" not in [a["kind"] for a in session.alerts]


ORDERS = """[squares]
"5" = { kind = "go-to", to = 9 }
"A12" = { kind = "lose-turn" }
"15" = { kind = "spin-again" }
"B18" = { kind = "prison" }
"30" = { kind = "go-to", to = 26 }
"""


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("parchesi", {"players": 3}),
        ("parchesi", {"players": 4}),
        ("messenger-boy", {"players": 3}),
        ("messenger-boy", {"players": 4, "orders": "ORDERS"}),
        ("skip", {"max_captures": 3}),
        ("fox-and-rabbit", {"escape_to_home": True}),
    ],
)
def test_variants_replay_too(game_id: str, options: dict[str, object], tmp_path) -> None:  # type: ignore[no-untyped-def]
    if options.get("orders") == "ORDERS":
        path = tmp_path / "orders.toml"
        path.write_text(ORDERS)
        options = {**options, "orders": str(path)}
    for i in range(25):
        rng = random.Random(f"{game_id}-{options}-{i}")
        trace, moves = random_game_trace(engine.start(game_id, **options), rng, 150)
        session = replay(read_trace(trace.to_jsonl()))
        assert [str(m) for m in session.position.move_stack] == moves, f"game {i}"
