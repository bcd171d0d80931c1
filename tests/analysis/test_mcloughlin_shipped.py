"""The geese's winning strategy shipped with reedboard (reedboard/engine/data/), checked by the
verifier that uses the engine's rules alone: random lines by default, every fox reply under
``-m slow``; one answer corrupted and the verifier fails."""

from __future__ import annotations

import sys

import pytest

from reedboard import engine
from reedboard.analysis.mcloughlin_verify import VerifyError, start_of, verify
from reedboard.engine.fox_and_geese import strategy as fmt

GAME = "fox-and-geese-mcloughlin"


@pytest.fixture(scope="module")
def shipped() -> fmt.Strategy:
    strategy = fmt.shipped()
    assert strategy is not None, "the strategy is package data: reedboard/engine/data/"
    return strategy


def test_the_shipped_strategy_is_for_the_game_as_played(shipped: fmt.Strategy) -> None:
    start = engine.start(GAME)
    assert shipped.rules == fmt.rules_text(start) == "diagonals=alternate sideways_points=7,13"
    assert shipped.fox_wins_at == 6
    assert shipped.answers(start)


def test_random_lines_of_the_shipped_strategy_end_in_geese_wins(shipped: fmt.Strategy) -> None:
    got = verify(shipped, start_of(shipped), sample=400, seed=30)
    assert got.lines >= 400 and got.answers > 1000


@pytest.mark.slow
def test_every_fox_reply_to_the_shipped_strategy_ends_in_a_geese_win(
    shipped: fmt.Strategy,
) -> None:
    sys.setrecursionlimit(10_000)
    got = verify(shipped, start_of(shipped))
    assert got.answers == len(shipped)  # no entry is off every line


def corrupted(shipped: fmt.Strategy, first: str, legal: bool) -> fmt.Strategy:
    """The strategy with its answer after the fox's ``first`` move changed: to another legal
    goose move, or to the goose stepping back (not a move)."""
    position = engine.start(GAME)
    position.push_text(first)
    key = fmt.key_of(position.holes_of("G"), position.holes_of("F")[0])
    answer = shipped.answer(key)
    assert answer is not None
    if legal:
        bad = next(tuple(m.path) for m in position.legal_moves if tuple(m.path) != answer)
    else:
        bad = answer[::-1]
    rows = [(k, *(bad if k == key else (s, t))) for k, s, t in shipped.entries()]
    return fmt.read(fmt.write(shipped.rules, shipped.fox_wins_at, rows))


@pytest.mark.parametrize("first", ["17-9", "17-10", "17-11", "17-16", "17-18"])
def test_one_answer_corrupted_fails(shipped: fmt.Strategy, first: str) -> None:
    broken = corrupted(shipped, first, legal=False)
    with pytest.raises(VerifyError, match=f"after {first}: .* not a legal goose move"):
        verify(broken, start_of(broken), sample=1)


@pytest.mark.slow
def test_one_answer_changed_to_another_legal_move_fails(shipped: fmt.Strategy) -> None:
    broken = corrupted(shipped, "17-16", legal=True)
    sys.setrecursionlimit(10_000)
    with pytest.raises(VerifyError):
        verify(broken, start_of(broken))


def test_the_top_level_geese_and_the_hint_play_the_strategy(shipped: fmt.Strategy) -> None:
    from reedboard.engine.search import choose
    from reedboard.referee.hints import suggest

    position = engine.start(GAME)
    position.push_text("17-16")
    move = position.strategy_move()  # type: ignore[attr-defined]
    assert move is not None and move in position.legal_moves
    assert choose(position, 5) == move == suggest(position)
    assert position.proof_words(move) == f"geese win with {move}"
    other = next(m for m in position.legal_moves if m != move)
    assert position.proof_words(other) is None
    assert choose(position, 4) is not None  # a lower level searches as before


def test_analyse_says_the_proved_value_from_the_shipped_strategy() -> None:
    class Quiet:
        def say(self, text: str) -> None:
            pass

        def note(self, text: str) -> None:  # pragma: no cover - the search is not run
            raise AssertionError(text)

    analysis = engine.game(GAME).analysis()
    assert analysis is not None
    lines = analysis.run({}, None, 1.0, Quiet())  # type: ignore[arg-type]
    assert lines[0].startswith("value: geese win (proved")
    assert [line.split(":")[0] for line in lines[1:]] == [
        f"move {m}" for m in engine.start(GAME).legal_moves
    ]
    assert all(": geese win with " in line for line in lines[1:])
