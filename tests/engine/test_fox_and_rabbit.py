"""Fox and Rabbit with the Brier Patch (docs/rules.md §2, seed 000)."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine import IllegalMoveError, InvalidMoveError, InvalidPositionError, Termination
from reedboard.engine.brier9 import BRIER_PATCH, CIRCLES, xy
from reedboard.engine.fox_and_rabbit import right_angle_landings
from reedboard.engine.levels import WIN

TWO = "fox-and-rabbit"
FOUR = "fox-and-rabbit-4"


def pos(text: str, game: str = TWO, **options: object) -> engine.Position:
    return engine.from_text(game, text, **options)


def landings(p: engine.Position) -> set[str]:
    return {m.to for m in p.legal_moves}


def moves(p: engine.Position) -> set[str]:
    return {str(m) for m in p.legal_moves}


def test_start_rabbit_a1_fox_i1_rabbit_throws_first() -> None:
    p = engine.start(TWO)
    assert p.to_text() == "WR@a1 RF@i1 turn=WR"
    assert p.turn == "WR" and p.is_chance()
    four = engine.start(FOUR)
    assert four.to_text() == "WR@a1 BR@i9 RF@i1 GF@a9 turn=WR"


def test_the_position_waits_for_a_throw_and_shows_it_until_the_move() -> None:
    p = engine.start(TWO)
    assert p.legal_moves.count() == 36
    assert {str(m) for m in p.legal_moves} == {
        f"dice={a},{b}" for a, b in product(range(1, 7), repeat=2)
    }
    p.push_text("dice=5,2")
    assert p.to_text() == "WR@a1 RF@i1 turn=WR dice=5,2"
    assert not p.is_chance()
    p.push_text("WR a1-c6")
    assert p.to_text() == "WR@c6 RF@i1 turn=RF"


def test_right_angle_only_never_straight() -> None:
    p = pos("WR@e3 RF@i9 turn=WR dice=2,1")
    assert landings(p) == {"c2", "c4", "g2", "g4", "d1", "f1", "d5", "f5"}
    assert "e6" not in landings(p) and "h3" not in landings(p) and "b3" not in landings(p)


def test_a_double_moves_its_count_twice_at_a_right_angle() -> None:
    p = pos("WR@e3 RF@i9 turn=WR dice=3,3")
    assert landings(p) == {"b6", "h6"}  # rows 0 and -3 are off the board below e3


def test_both_legs_stay_on_the_board() -> None:
    p = pos("WR@a2 RF@i9 turn=WR dice=4,3")
    assert landings(p) == {"e5", "d6"}  # every other corner or landing is off the board


@given(st.sampled_from(CIRCLES), st.integers(1, 6), st.integers(1, 6))
def test_landings_are_exactly_the_right_angle_offsets_on_the_board(
    start: str, a: int, b: int
) -> None:
    x, y = xy(start)
    expected = {
        f"{'abcdefghi'[x + dx]}{y + dy + 1}"
        for p, q in ((a, b), (b, a))
        for dx, dy in product((p, -p), (q, -q))
        if 0 <= x + dx < 9 and 0 <= y + dy < 9
    }
    assert set(right_angle_landings(start, (a, b))) == expected


def test_a_rabbit_may_use_one_die_only_to_land_exactly_on_its_own_home() -> None:
    p = pos("WR@e6 RF@a1 turn=WR dice=3,5")
    assert "e9" in landings(p)  # one die, the 3, straight up to its home
    assert "e1" not in landings(p)  # e6 -5 is e1: the brown rabbit's home, not its own
    assert "h6" not in landings(p)  # a die alone goes nowhere else
    p.push_text("WR e6-e9")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("WR", Termination.RABBIT_HOME)


def test_a_fox_never_uses_one_die() -> None:
    p = pos("WR@a1 RF@e6 turn=RF dice=3,5")
    assert "e9" not in landings(p)


def test_a_rabbit_never_lands_on_a_fox() -> None:
    p = pos("WR@a1 RF@c2 turn=WR dice=2,1")
    assert landings(p) == {"b3"}
    with pytest.raises(IllegalMoveError):
        p.push_text("WR a1-c2")


def test_a_rabbit_never_lands_on_a_fox_even_at_home() -> None:
    p = pos("WR@e6 RF@e9 turn=WR dice=3,5")
    assert "e9" not in landings(p)


def test_two_rabbits_may_share_a_circle_and_a_fox_landing_there_takes_both() -> None:
    p = pos("WR@a1 BR@c2 RF@i9 GF@h8 turn=WR dice=2,1", FOUR)
    p.push_text("WR a1-c2")  # rabbits share
    assert p.at["WR"] == p.at["BR"] == "c2"
    p = pos("WR@c2 BR@c2 RF@e3 GF@h8 turn=RF dice=2,1", FOUR)
    p.push_text("RF e3-c2")
    assert p.escape == ("WR", "BR")
    assert p.to_text() == "WR@c2 BR@c2 RF@c2 GF@h8 turn=RF escape=WR,BR"
    assert p.turn == "WR" and p.is_chance()


def test_the_two_foxes_may_share_a_circle() -> None:
    p = pos("WR@a1 BR@i9 RF@e3 GF@c2 turn=RF dice=2,1", FOUR)
    assert "c2" in landings(p)


def test_no_capture_on_a_brier_patch_circle() -> None:
    p = pos("WR@e5 RF@g6 turn=RF dice=2,1")
    assert "e5" not in landings(p)
    with pytest.raises(IllegalMoveError):
        p.push_text("RF g6-e5")


def test_a_fox_may_land_on_an_empty_brier_patch_circle() -> None:
    p = pos("WR@a1 RF@g6 turn=RF dice=2,1")
    assert "e5" in landings(p)


def test_escape_succeeds_only_by_landing_on_a_brier_patch_circle_and_play_goes_on() -> None:
    p = pos("WR@c4 RF@c4 turn=RF escape=WR")
    assert p.turn == "WR"
    p.push_text("dice=2,1")
    assert landings(p) == {"e5"}  # c4 +2,+1; every other landing is off the Patch
    p.push_text("WR c4-e5")
    assert p.outcome() is None
    assert p.to_text() == "WR@e5 RF@c4 turn=WR"  # the rabbit's turn comes next


def test_escape_fails_off_the_brier_patch_and_the_fox_wins() -> None:
    p = pos("WR@a1 RF@a1 turn=RF escape=WR")
    p.push_text("dice=1,1")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("RF", Termination.RABBIT_CAUGHT)
    assert p.to_text() == "RF@a1 turn=RF"  # the rabbit stays off the board
    assert not p.legal_moves


def test_escape_to_home_is_an_option_from_the_seed_sheet() -> None:
    text = "WR@e6 RF@e6 turn=RF escape=WR"
    ruled = pos(text)
    ruled.push_text("dice=3,6")
    assert ruled.outcome() is not None  # docs/rules.md: home is no escape
    seed = pos(text, escape_to_home=True)
    seed.push_text("dice=3,6")
    assert landings(seed) == {"e9"}
    seed.push_text("WR e6-e9")
    over = seed.outcome()
    assert over is not None and over.winner == "WR"


def test_a_fox_capture_then_escape_from_the_capture_circle() -> None:
    p = pos("WR@c4 RF@e5 turn=RF dice=2,1")
    p.push_text("RF e5-c4")
    assert p.to_text() == "WR@c4 RF@c4 turn=RF escape=WR"
    assert p.occupied() == frozenset({"c4"})


def test_a_foxs_first_double_gives_one_more_throw() -> None:
    p = pos("WR@a1 RF@i1 turn=RF dice=2,2")
    p.push_text("RF i1-g3")
    assert p.to_text() == "WR@a1 RF@g3 turn=RF extra"
    assert p.turn == "RF" and p.is_chance()


def test_a_foxs_second_double_gives_nothing_more() -> None:
    p = pos("WR@a1 RF@g3 turn=RF extra")
    p.push_text("dice=3,3")
    p.push_text("RF g3-d6")
    assert p.to_text() == "WR@a1 RF@d6 turn=WR"


def test_a_rabbits_double_gives_no_extra_throw() -> None:
    p = pos("WR@a1 RF@i1 turn=WR dice=2,2")
    p.push_text("WR a1-c3")
    assert p.to_text() == "WR@c3 RF@i1 turn=RF"


def test_a_foxs_extra_throw_follows_a_successful_escape() -> None:
    p = pos("WR@c4 RF@e5 turn=RF dice=1,2")
    p.push_text("RF e5-c4")
    assert p.extra is False
    p = pos("WR@d3 RF@f5 turn=RF dice=2,2")
    p.push_text("RF f5-d3")
    assert p.to_text() == "WR@d3 RF@d3 turn=RF escape=WR extra"
    p.push_text("dice=1,2")
    p.push_text("WR d3-e5")
    assert p.to_text() == "WR@e5 RF@d3 turn=RF extra"


def test_no_legal_move_for_a_throw_the_turn_passes() -> None:
    # a rabbit in the corner with the fox on both 1,1 landings' only circle
    p = pos("WR@a1 RF@b2 turn=WR")
    p.push_text("dice=1,1")
    assert p.to_text() == "WR@a1 RF@b2 turn=RF"
    assert p.pop() == p.parse_move("dice=1,1")
    assert p.to_text() == "WR@a1 RF@b2 turn=WR"


def test_turn_order_for_two_players() -> None:
    p = engine.start(TWO)
    seen = []
    for throw, move in [("dice=1,2", "WR a1-b3"), ("dice=1,2", "RF i1-h3"), ("dice=1,2", None)]:
        seen.append(p.turn)
        p.push_text(throw)
        if move:
            p.push_text(move)
    assert seen == ["WR", "RF", "WR"]


def test_turn_order_for_four_players() -> None:
    p = engine.start(FOUR)
    seen = []
    for _ in range(5):
        seen.append(p.turn)
        p.push_text("dice=1,2")
        p.push(next(iter(p.legal_moves)))
    assert seen == ["WR", "BR", "RF", "GF", "WR"]


def test_the_first_rabbit_home_wins_four_players() -> None:
    p = pos("WR@a1 BR@e4 RF@i1 GF@a9 turn=BR dice=3,1", FOUR)
    p.push_text("BR e4-e1")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("BR", Termination.RABBIT_HOME)
    assert not p.legal_moves


def test_a_rabbit_on_the_other_rabbits_home_does_not_win() -> None:
    p = pos("WR@d2 BR@a1 RF@i1 GF@a9 turn=WR dice=1,1", FOUR)
    p.push_text("WR d2-e1")  # the brown rabbit's home
    assert p.outcome() is None


def test_four_players_the_fox_that_captures_wins() -> None:
    p = pos("WR@a1 BR@i9 RF@i1 GF@b3 turn=GF dice=2,1", FOUR)
    p.push_text("GF b3-a1")
    p.push_text("dice=1,1")  # a1 +1,+1 is b2: no Brier Patch
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("GF", Termination.RABBIT_CAUGHT)


@pytest.mark.parametrize("game", [TWO, FOUR])
def test_legal_moves_from_the_start_summed_over_all_36_throws(game: str) -> None:
    p = engine.start(game)
    total = 0
    for throw in list(p.legal_moves):
        p.push(throw)
        total += p.legal_moves.count()
        p.pop()
    # White Rabbit in the a1 corner: (a,b) and (b,a) up and right; a double lands once
    assert total == 30 * 2 + 6 * 1 == 66
    assert engine.perft(p, 2) == 66


def test_each_throw_is_one_of_36_equally_likely() -> None:
    outcomes = engine.start(TWO).chance_outcomes()
    assert len(outcomes) == 36
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "text",
    [
        "WR@a1 RF@i1 turn=WR",
        "WR@a1 RF@i1 turn=WR dice=5,2",
        "WR@c4 RF@c4 turn=RF escape=WR",
        "WR@c4 RF@c4 turn=RF dice=1,1 escape=WR extra",
        "RF@a1 turn=RF",
        "WR@a1 BR@c2 RF@i1 GF@a9 turn=GF",
    ],
)
def test_text_form_round_trips(text: str) -> None:
    game = FOUR if "GF" in text else TWO
    assert pos(text, game).to_text() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WR@a1 turn=WR", "RF is not on the board"),
        ("WR@a1 RF@i1", "no turn=PIECE"),
        ("WR@a1 RF@j1 turn=WR", "no circle 'j1'"),
        ("WR@a1 GF@i1 turn=WR", "'GF' is not a piece of this game"),
        ("WR@a1 WR@b1 RF@i1 turn=WR", "WR is placed twice"),
        ("WR@a1 RF@i1 turn=WR dice=7,1", "dice=7,1: expected dice=A,B"),
        ("WR@a1 RF@a1 turn=WR", "shares a1 with a fox but is not escaping"),
        ("WR@a1 RF@i1 turn=RF escape=WR", "WR is not a rabbit a fox stands on"),
        ("WR@a1 RF@i1 turn=WR extra", "escape and extra happen on a fox's turn"),
        ("WR@a1 RF@i1 turn=WR hello", "unknown part 'hello'"),
    ],
)
def test_bad_positions_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        pos(text)


@pytest.mark.parametrize("text", ["WR a1", "XX a1-b2", "dice=0,3", "WR a1-j2", "roll"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="expected a throw like dice=3,4"):
        engine.start(TWO).parse_move(text)


def test_a_throw_may_be_written_without_dice_prefix() -> None:
    p = engine.start(TWO)
    assert p.parse_move("3,4") == p.parse_move("dice=3,4")


def test_throwing_while_a_throw_is_pending_is_illegal() -> None:
    p = pos("WR@a1 RF@i1 turn=WR dice=5,2")
    with pytest.raises(IllegalMoveError, match="dice=1,1"):
        p.push_text("dice=1,1")


def test_brier_patch_is_the_five_red_circles() -> None:
    assert frozenset({"e5", "d5", "f5", "e4", "e6"}) == BRIER_PATCH


# -- the computer's rating (evaluate, for reedboard/engine/search.py)
# -----------------------------------


# The four-player game is rated by chances of the next throw (the two-player game is solved).
FAR = "BR@i9 GF@a9"
"""The other rabbit and fox, in their corners, for the four-player rating tests."""


def test_a_rabbit_rates_a_circle_the_fox_can_reach_below_one_it_cannot() -> None:
    # from e4 a 2 and a 1 at a right angle reach c3; from c9 no throw does (a straight line)
    assert _rabbit("WR@c3 RF@e4") < _rabbit("WR@c3 RF@c9")
    # on the Brier Patch no fox may land: where the fox stands does not matter
    assert _rabbit("WR@e6 RF@g7") == _rabbit("WR@e6 RF@a1")


def test_a_fox_on_the_rabbits_home_shuts_it_out() -> None:
    # e8 is one circle from home: a 1 alone would do, unless the fox stands on e9
    assert _rabbit("WR@e8 RF@e9") < _rabbit("WR@e8 RF@a2") - 100


def test_a_fox_rates_a_circle_it_can_catch_from_above_one_as_near_that_it_cannot() -> None:
    # both three circles from a1; from c2 a throw of 2,1 lands on a1, from d1 nothing can
    assert _fox("WR@a1 RF@c2") > _fox("WR@a1 RF@d1")


def _rabbit(text: str) -> float:
    return pos(f"{text} {FAR} turn=GF", FOUR).evaluate("WR")


def _fox(text: str) -> float:
    return pos(f"{text} {FAR} turn=WR", FOUR).evaluate("RF")


def test_the_two_player_game_is_rated_by_its_solution() -> None:
    from reedboard.engine.search import choose

    start = engine.start(TWO)
    assert start.solved_value() == pytest.approx(0.8402, abs=1e-4)
    assert start.evaluate("WR") == pytest.approx(WIN * start.solved_value())
    assert start.evaluate("RF") == pytest.approx(WIN - start.evaluate("WR"))
    # after a throw the side to move takes its best move: the fox the least for the rabbit
    p = pos("WR@b2 RF@g9 turn=RF dice=4,2")
    after = {str(m): _after(p, m) for m in p.legal_moves}
    assert len(set(after.values())) == len(after) == 3
    assert p.solved_value() == min(after.values())
    assert str(choose(p, 2)) == min(after, key=after.__getitem__)
    # four players, or another rule option, are not solved
    assert pos(f"WR@a1 RF@i1 {FAR} turn=WR", FOUR).solved_value() is None
    assert engine.start(TWO, escape_to_home=True).solved_value() is None


def _after(p: engine.Position, move: engine.Move) -> float:
    p.push(move)
    try:
        value = p.solved_value()
        assert value is not None
        return value
    finally:
        p.pop()


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_every_level_from_2_plays_the_solution(level: int) -> None:
    from reedboard.engine.search import choose

    # positions sampled from the table, each with a throw made; here the search once weighed
    # a game over inside its horizon above the table's chances at its edge
    texts = ["WR@d7 RF@g6 turn=RF dice=2,3", "WR@b2 RF@g9 turn=RF dice=4,2"]
    rng = random.Random(level)
    p = engine.start(TWO)
    while len(texts) < 14:
        if p.outcome() is not None:
            p = engine.start(TWO)
        move = rng.choice(list(p.legal_moves))
        p.push(move)
        if not p.is_chance() and p.outcome() is None and p.legal_moves.count() > 1:
            texts.append(p.to_text())
    for text in texts:
        q = pos(text)
        best = q.solved_value()
        chosen = choose(q, level, random.Random(0))
        assert chosen is not None
        assert _after(q, chosen) == pytest.approx(best, abs=1e-9), (text, str(chosen))
