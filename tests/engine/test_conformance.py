"""One conformance test over every registered game (OpenSpiel's habit): random playouts check
the state API's promises, whatever the game."""

from __future__ import annotations

import random

import pytest

from reedboard import engine

PLAYOUTS = 25
MAX_PLIES = 300


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_random_playouts_keep_the_state_api_promises(game_id: str) -> None:
    rng = random.Random(game_id)
    cls = engine.game(game_id)
    for _ in range(PLAYOUTS):
        position = cls.start()
        texts = [position.to_text()]
        for _ply in range(MAX_PLIES):
            text = position.to_text()
            # text forms round-trip
            assert cls.from_text(text, **_option_strings(position)).to_text() == text
            assert cls.from_text(text, **_option_strings(position)) == position
            moves = list(position.legal_moves)
            assert len(moves) == len(set(moves)) == position.legal_moves.count()
            over = position.outcome()
            if over is not None:
                # a finished game has no moves
                assert not moves and not position.legal_moves
                assert over.winner is None or over.winner in cls.sides
                break
            assert moves, f"{text}: no moves but no outcome"
            assert position.turn in (*cls.sides, "chance")
            for move in moves:
                # move text round-trips
                assert position.parse_move(str(move)) == move
            if position.is_chance():
                outcomes = position.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(moves)
            copy = position.copy()
            position.push(move)
            assert copy.to_text() == text  # a copy is independent
            texts.append(position.to_text())
        # pop restores the exact text form, all the way back, and the same legal moves as
        # the position read afresh (pop and copy keep them rather than generate them again)
        while position.move_stack:
            texts.pop()
            position.pop()
            assert position.to_text() == texts[-1]
            fresh = cls.from_text(texts[-1], **_option_strings(position))
            assert list(position.legal_moves) == list(fresh.legal_moves)
            assert list(position.copy().legal_moves) == list(fresh.legal_moves)
        assert position == cls.start()


def _option_strings(position: engine.Position) -> dict[str, object]:
    import dataclasses

    return {f.name: getattr(position.options, f.name) for f in dataclasses.fields(position.options)}


def test_pop_on_a_fresh_position_says_so() -> None:
    with pytest.raises(IndexError, match="no moves played"):
        engine.start("solitaire").pop()


def test_pushing_after_the_end_is_illegal_and_says_the_game_is_over() -> None:
    p = engine.from_text("solitaire", "o" + "." * 32 + " -")
    with pytest.raises(engine.IllegalMoveError, match="the game is over"):
        p.push_text("1-3")


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_occupied_after_is_the_occupancy_once_the_move_is_played(game_id: str) -> None:
    rng = random.Random(f"after {game_id}")
    for _ in range(10):
        position = engine.start(game_id)
        for _ply in range(60):
            if position.is_over():
                break
            text = position.to_text()
            for move in position.legal_moves:
                copy = position.copy()
                copy.push(move)
                assert position.occupied_after(move) == copy.occupied(), (text, str(move))
            assert position.to_text() == text
            position.push(rng.choice(list(position.legal_moves)))
