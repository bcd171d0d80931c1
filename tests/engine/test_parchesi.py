"""Parchesi (docs/rules.md §3, seed 003)."""

from __future__ import annotations

import random

import pytest

from reedboard import engine
from reedboard.engine import InvalidPositionError, Termination
from reedboard.engine.parchesi import board
from reedboard.engine.search import choose

GAME = "parchesi"


def pos(men: dict[str, str], turn: str = "Y", spin: str = "", players: int = 2) -> engine.Position:
    """Men not named stay in their nests."""
    colours = {2: "YR", 3: "YBR", 4: "YBRG"}[players]
    parts = [f"{c}{i}@{men.get(f'{c}{i}', f'{c}nest')}" for c in colours for i in range(1, 5)]
    text = " ".join(parts) + f" turn={turn}" + (f" spin={spin}" if spin else "")
    return engine.from_text(GAME, text, players=players)


def moves(p: engine.Position) -> set[str]:
    return {str(m) for m in p.legal_moves}


def after_spin(men: dict[str, str], spin: str) -> set[str]:
    """Yellow's moves for a spin; empty when the spin passed the turn (no legal move)."""
    p = pos(men)
    p.push_text(f"spin={spin}")
    return set() if p.turn != "yellow" else moves(p)


def test_the_board_is_data_a_loop_of_68_with_12_safeties_and_7_space_home_paths() -> None:
    b = board()
    assert b.loop == 68 and len(b.safeties) == 12 and b.home_path == 7
    assert b.run("yellow") == 64  # entry to turnoff inclusive


def test_two_to_four_players_four_men_each_starting_off_the_board() -> None:
    for n in (2, 3, 4):
        p = engine.start(GAME, players=n)
        assert p.occupied() == {f"{c[0].upper()}nest" for c in p.players}


def test_the_spinner_has_twelve_equal_segments() -> None:
    outcomes = engine.start(GAME).chance_outcomes()
    assert len(outcomes) == 12 and {p for _, p in outcomes} == {1 / 12}
    assert {str(m) for m, _ in outcomes} == {f"spin={d}{v}" for d in ("", "d") for v in range(1, 7)}


def test_a_man_enters_on_a_spin_of_5() -> None:
    p = pos({}, spin="5")
    assert moves(p) == {"Y enter"}
    p.push_text("Y enter")
    assert p.where("yellow", 0) == "L4"
    for spin in ("4", "d5", "6"):
        assert after_spin({}, spin) == set()


def test_a_spin_of_n_moves_one_man_n_spaces_and_a_double_counts_twice() -> None:
    assert moves(pos({"Y1": "L10", "Y2": "L30"}, spin="3")) == {"Y L10-L13", "Y L30-L33"}
    assert moves(pos({"Y1": "L10"}, spin="d3")) == {"Y L10-L16"}


def test_double_6_moves_four_men_6_each_or_one_man_24() -> None:
    men = {"Y1": "L5", "Y2": "L20", "Y3": "L40", "Y4": "L50"}
    m = moves(pos(men, spin="d6"))
    assert "Y L5-L11 L20-L26 L40-L46 L50-L56" in m
    assert {"Y L5-L29", "Y L20-L44", "Y L40-L64", "Y L50-Y7"} <= m
    assert not any(len(x.split()) in (3, 4) for x in m)  # all four go when all four can


def test_capture_sends_a_man_back_to_his_nest_and_he_reenters_on_a_5() -> None:
    p = pos({"Y1": "L10", "R1": "L13"}, spin="3")
    p.push_text("Y L10-L13")
    assert p.where("red", 0) == "Rnest"
    assert p.where("yellow", 0) == "L13"


def test_no_capture_on_a_safety_no_man_enters_a_safety_held_by_another_colour() -> None:
    assert after_spin({"Y1": "L8", "R1": "L11"}, "3") == set()  # 11 is a safety
    assert after_spin({"R1": "L4"}, "5") == set()  # the yellow entry is a safety too


def test_a_blockade_may_not_be_passed_by_any_man() -> None:
    assert after_spin({"Y1": "L10", "R1": "L12", "R2": "L12"}, "4") == set()
    assert "Y L10-L14" not in after_spin({"Y1": "L10", "Y2": "L12", "Y3": "L12"}, "4")


def test_a_player_must_break_his_blockade_if_he_has_no_other_move() -> None:
    p = pos({"Y1": "L12", "Y2": "L12", "Y3": "L11"}, spin="1")
    assert moves(p) == {"Y L12-L13"}  # the man behind cannot pass: a blockade man must go


def test_two_men_of_one_colour_may_stand_together_no_third() -> None:
    p = pos({"Y1": "L10", "Y2": "L13", "Y3": "L13"}, spin="3")
    assert "Y L10-L13" not in moves(p)
    q = pos({"Y1": "L10", "Y2": "L13"}, spin="3")
    q.push_text("Y L10-L13")
    assert (
        q.occupied() >= {"L13"} and sum(1 for i in range(4) if q.where("yellow", i) == "L13") == 2
    )


def test_home_counts_as_one_space_and_the_last_move_must_be_exact() -> None:
    p = pos({"Y1": "Y6"}, spin="2")
    assert moves(p) == {"Y Y6-home"}
    assert after_spin({"Y1": "Y6"}, "3") == set()


def test_the_first_man_home_wins() -> None:
    p = pos({"Y1": "Y6"}, spin="2")
    p.push_text("Y Y6-home")
    over = p.outcome()
    assert over is not None and (over.winner, over.reason) == ("yellow", Termination.HOME)
    assert not p.legal_moves


def test_no_legal_move_the_turn_passes() -> None:
    p = pos({}, turn="Y")
    p.push_text("spin=3")
    assert p.turn == "red" and p.is_chance()


def test_two_men_on_one_space_are_the_engines_to_count_not_the_switchs() -> None:
    one = pos({"Y1": "L13"})
    two = pos({"Y1": "L13", "Y2": "L13"})
    assert one.occupied() - {"Ynest"} == two.occupied() - {"Ynest"}
    assert one.to_text() != two.to_text()


def test_a_double_shows_as_two_equal_dice() -> None:
    p = engine.start(GAME)
    assert p.shown_dice((9,)) == (3, 3) and p.shown_dice((4,)) == (4,)


def test_bad_positions_say_what_is_wrong() -> None:
    with pytest.raises(InvalidPositionError, match="give all 8 men"):
        engine.from_text(GAME, "Y1@L4 turn=Y")
    with pytest.raises(InvalidPositionError, match="L13 holds yellow, red"):
        pos({"Y1": "L13", "R1": "L13"})


ISSUE_11 = "Y1@L5 Y2@L6 Y3@Ynest Y4@L11 R1@Rnest R2@Rnest R3@Rnest R4@Rnest turn=Y spin=d6"


def test_double_6_men_move_in_any_order_so_a_man_in_front_may_go_first() -> None:
    # lowest first, Y1 L5-L11 makes a blockade with Y4 that Y2 (L6) may not pass; Y4 first,
    # all three go (docs/rules.md §3: in any order the player likes)
    p = engine.from_text(GAME, ISSUE_11)
    assert moves(p) == {"Y L11-L17 L5-L11 L6-L12", "Y L5-L29", "Y L6-L30", "Y L11-L35"}


def test_double_6_in_another_legal_order_is_the_same_move() -> None:
    p = engine.from_text(GAME, ISSUE_11)
    listed = p.parse_move("Y L11-L17 L5-L11 L6-L12")
    for order in ("Y L6-L12 L11-L17 L5-L11", "Y L5-L11 L11-L17 L6-L12", "Y L6-L12 L5-L11 L11-L17"):
        assert p.parse_move(order) == listed
    p.push_text("Y L6-L12 L5-L11 L11-L17")
    assert {p.where("yellow", i) for i in range(4)} == {"L11", "L12", "L17", "Ynest"}
    assert p.turn == "red"


def test_double_6_in_an_order_that_passes_a_blockade_is_illegal() -> None:
    p = engine.from_text(GAME, ISSUE_11)
    with pytest.raises(engine.IllegalMoveError):
        p.push_text("Y L5-L11 L6-L12 L11-L17")  # Y2 would pass the blockade on L11


def test_double_6_lists_each_group_of_men_once_in_the_order_by_number_when_it_can() -> None:
    # two men of one blockade and one behind: by number when that order is legal
    p = pos({"Y1": "L20", "Y2": "L26"}, spin="d6")
    assert "Y L20-L26 L26-L32" in moves(p)  # as the field trace parchesi-255 has it
    groups = [sorted(m.paths) for m in p.legal_moves]
    assert len(groups) == len({tuple(g) for g in groups})


# -- the computer's rating (evaluate, for reedboard/engine/search.py)
# -----------------------------------


def test_the_rating_counts_the_front_man_most_so_the_computer_runs_one_man() -> None:
    p = pos({"Y1": "L20", "Y2": "L10"}, spin="3")
    chosen = {str(choose(p, n, random.Random(seed))) for n in (2, 5) for seed in range(3)}
    assert chosen == {"Y L20-L23"}


def test_the_rating_takes_the_others_front_man_before_running() -> None:
    # red's front man on L30 has come 60 spaces; yellow's spin of 3 from L27 sends him home
    p = pos({"Y1": "L40", "Y2": "L27", "R1": "L30"}, spin="3")
    assert str(choose(p, 2)) == "Y L27-L30"


def test_the_rating_weighs_a_front_man_a_spin_can_hit() -> None:
    # L21 is a safety; L22, one space on, stands 4 in front of red's man (a 4 or a double 2)
    safe = pos({"Y1": "L21", "R1": "L18"})
    exposed = pos({"Y1": "L22", "R1": "L18"})
    assert safe.evaluate("yellow") > exposed.evaluate("yellow")
    # with no red man behind it, the space further on is worth more
    assert pos({"Y1": "L22"}).evaluate("yellow") > pos({"Y1": "L21"}).evaluate("yellow")
