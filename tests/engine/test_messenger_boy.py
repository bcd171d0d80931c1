"""Messenger Boy (docs/rules.md §5, seed 004)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reedboard import engine
from reedboard.engine import InvalidOptionError, Termination

GAME = "messenger-boy"


def pos(text: str, **options: object) -> engine.Position:
    return engine.from_text(GAME, text, **options)


def moves(p: engine.Position) -> set[str]:
    return {str(m) for m in p.legal_moves}


def orders(tmp_path: Path, text: str) -> str:
    path = tmp_path / "orders.toml"
    path.write_text("[squares]\n" + text)
    return str(path)


def test_two_to_four_players_with_a_six_space_spinner() -> None:
    for n in (2, 3, 4):
        p = engine.start(GAME, players=n)
        assert p.is_chance() and p.legal_moves.count() == 6
    with pytest.raises(InvalidOptionError, match="players: 5"):
        engine.start(GAME, players=5)


def test_the_highest_spin_starts() -> None:
    p = engine.start(GAME, players=3)
    for spin in (2, 6, 4):
        p.push_text(f"spin={spin}")
    assert p.turn == "blue" and not p.is_chance()


def test_tied_highest_spins_spin_again() -> None:
    p = engine.start(GAME, players=3)
    for spin in (6, 2, 6):
        p.push_text(f"spin={spin}")
    assert p.to_text() == "R@- B@- G@- start=R?,G?"
    p.push_text("spin=3")
    p.push_text("spin=5")
    assert p.turn == "green"


def test_a_man_enters_on_either_start_square_then_spins_and_moves_forward() -> None:
    p = pos("R@- B@- turn=R")
    assert moves(p) == {"R start A", "R start B"}
    p.push_text("R start B")
    assert p.is_chance()
    p.push_text("spin=4")
    assert moves(p) == {"R B1-B5"}


def test_at_22_the_man_chooses_either_lane_home() -> None:
    p = pos("R@A20 B@B3 turn=R spin=5")
    assert moves(p) == {"R A20-A25", "R A20-B25"}
    p = pos("R@A24 B@B3 turn=R spin=5")
    assert moves(p) == {"R A24-A29"}  # past 22 the lane is kept


def test_only_one_man_a_square_landing_on_one_means_staying_and_losing_the_turn() -> None:
    p = pos("R@A3 B@A7 turn=R")
    p.push_text("spin=4")
    assert p.to_text() == "R@A3 B@A7 turn=B"  # stayed; blue's turn


def test_start_squares_may_hold_more_than_one_man() -> None:
    p = pos("R@A1 B@- turn=B")
    assert "B start A" in moves(p)
    p.push_text("B start A")
    assert p.at["red"] == p.at["blue"] == "A1"


def test_the_exact_spin_reaches_43_and_wins() -> None:
    p = pos("R@A40 B@B3 turn=R")
    p.push_text("spin=4")  # too far: stays
    assert p.at["red"] == "A40" and p.turn == "blue"
    p = pos("R@A40 B@B3 turn=R spin=3")
    p.push_text("R A40-43")
    over = p.outcome()
    assert over is not None and (over.winner, over.reason) == ("red", Termination.HOME)
    assert not p.legal_moves


def test_go_to_orders_come_from_the_table(tmp_path: Path) -> None:
    table = orders(tmp_path, '"5" = { kind = "go-to", to = 9 }\n')
    p = pos("R@A3 B@B2 turn=R spin=2", orders=table)
    assert moves(p) == {"R A3-A9"}


def test_lose_a_turn(tmp_path: Path) -> None:
    table = orders(tmp_path, '"A6" = { kind = "lose-turn" }\n')
    p = pos("R@A3 B@B2 G@B9 turn=R spin=3", orders=table, players=3)
    p.push_text("R A3-A6")
    assert p.turn == "blue"
    p.push_text("spin=1")
    p.push_text("B B2-B3")
    p.push_text("spin=1")
    p.push_text("G B9-B10")
    assert p.turn == "blue"  # red's turn was lost


def test_spin_again(tmp_path: Path) -> None:
    table = orders(tmp_path, '"6" = { kind = "spin-again" }\n')
    p = pos("R@A3 B@B2 turn=R spin=3", orders=table)
    p.push_text("R A3-A6")
    assert p.turn == "red" and p.is_chance()


def test_prison_needs_a_five_then_square_2(tmp_path: Path) -> None:
    table = orders(tmp_path, '"B12" = { kind = "prison" }\n')
    p = pos("R@B10 B@A4 turn=R spin=2", orders=table)
    p.push_text("R B10-B12")
    assert "prison=R" in p.to_text()
    p.push_text("spin=1")
    p.push_text("B A4-A5")
    p.push_text("spin=3")  # not a five: still in prison
    assert p.at["red"] == "B12" and p.turn == "blue"
    p.push_text("spin=1")
    p.push_text("B A5-A6")
    p.push_text("spin=5")
    assert moves(p) == {"R B12-B2"}
    p.push_text("R B12-B2")
    assert "prison" not in p.to_text()


def test_a_bad_orders_table_names_the_file_line_and_square(tmp_path: Path) -> None:
    table = orders(tmp_path, '"7" = { kind = "go-to", to = 9 }\n"50" = { kind = "prison" }\n')
    with pytest.raises(InvalidOptionError, match=r"orders\.toml:3: squares\.50: not a square"):
        engine.start(GAME, orders=table)


def test_the_shipped_table_invents_no_orders() -> None:
    from reedboard.engine.messenger_boy import load_orders

    assert load_orders("") == {}


def test_when_every_player_owes_a_lost_turn_the_turn_order_still_rotates(tmp_path: Path) -> None:
    # blue owes a lost turn; red lands on a lose-turn square: both owe one. Blue's turn comes
    # and is skipped, then red's is skipped, then blue plays (docs/rules.md §5)
    table = orders(tmp_path, '"A6" = { kind = "lose-turn" }\n')
    p = pos("R@A3 B@B2 turn=R spin=3 lose=B", orders=table)
    p.push_text("R A3-A6")
    assert p.turn == "blue" and "lose" not in p.to_text()
    p.push_text("spin=1")
    p.push_text("B B2-B3")
    assert p.turn == "red"


def test_every_one_of_three_owing_a_lost_turn_pays_it_in_turn(tmp_path: Path) -> None:
    table = orders(tmp_path, '"A6" = { kind = "lose-turn" }\n')
    p = pos("R@A3 B@B2 G@B9 turn=R spin=3 lose=B,G", orders=table, players=3)
    p.push_text("R A3-A6")
    assert p.turn == "blue" and "lose" not in p.to_text()  # G, R, B skipped once each


def test_a_man_sent_onto_another_order_square_obeys_that_order_too(tmp_path: Path) -> None:
    table = orders(
        tmp_path,
        '"5" = { kind = "go-to", to = 9 }\n"9" = { kind = "go-to", to = 14 }\n'
        '"14" = { kind = "lose-turn" }\n"20" = { kind = "go-to", to = 24 }\n'
        '"A24" = { kind = "spin-again" }\n',
    )
    p = pos("R@A3 B@B2 G@B20 turn=R spin=2", orders=table, players=3)
    assert moves(p) == {"R A3-A14"}  # 5 -> 9 -> 14
    p.push_text("R A3-A14")
    assert "lose=R" in p.to_text() and p.turn == "blue"  # and 14's order is obeyed
    q = pos("R@A17 B@B2 turn=R spin=3", orders=table)
    q.push_text("R A17-A24")  # 20 sends him to 24, whose order is spin again
    assert q.turn == "red" and q.is_chance()


def test_order_squares_in_a_circle_end_the_chain_at_a_square_already_visited(
    tmp_path: Path,
) -> None:
    table = orders(
        tmp_path,
        '"5" = { kind = "go-to", to = 9 }\n"9" = { kind = "go-to", to = 12 }\n'
        '"12" = { kind = "go-to", to = 5 }\n',
    )
    p = pos("R@A3 B@B2 turn=R spin=2", orders=table)
    assert moves(p) == {"R A3-A5"}  # 5 -> 9 -> 12 -> 5: visited, he stops there
    p.push_text("R A3-A5")
    assert p.turn == "blue"


def test_a_go_to_whose_target_is_occupied_leaves_him_on_the_order_square(tmp_path: Path) -> None:
    table = orders(
        tmp_path, '"5" = { kind = "go-to", to = 9 }\n"9" = { kind = "go-to", to = 14 }\n'
    )
    assert moves(pos("R@A3 B@A9 turn=R spin=2", orders=table)) == {"R A3-A5"}
    assert moves(pos("R@A3 B@A14 turn=R spin=2", orders=table)) == {"R A3-A9"}


def test_a_prisoner_let_out_obeys_the_order_of_square_2(tmp_path: Path) -> None:
    table = orders(tmp_path, '"B12" = { kind = "prison" }\n"2" = { kind = "go-to", to = 4 }\n')
    p = pos("R@B12 B@A9 turn=R spin=5 prison=R", orders=table)
    assert moves(p) == {"R B12-B4"}
    p.push_text("R B12-B4")
    assert "prison" not in p.to_text() and p.turn == "blue"


def test_both_lanes_sent_to_one_shared_square_are_one_move(tmp_path: Path) -> None:
    table = orders(tmp_path, '"25" = { kind = "go-to", to = 43 }\n')
    assert moves(pos("R@A20 B@B3 turn=R spin=5", orders=table)) == {"R A20-43"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"7" = { kind = "go-to", to = 9 }\n', r"orders\.toml:1: 7: outside the \[squares\] table"),
        (
            '[squares]\n"7" = { kind = "go-to", to = 9, lane = "A" }\n',
            r"orders\.toml:2: squares\.7: unknown key 'lane'",
        ),
        (
            '[squares]\n"7" = { kind = "lose-turn", to = 9 }\n',
            r"orders\.toml:2: squares\.7: to = 9 is only for a go-to",
        ),
        (
            '[squares]\n"7" = { kind = "prison" }\n"A7" = { kind = "lose-turn" }\n',
            r"orders\.toml:3: squares\.A7: square A7 is set twice \(by 7 too\)",
        ),
        ('[squares]\n"7" = { kind = "go-to", to = 7 }\n', r"orders\.toml:2: squares\.7: go-to 7"),
        ("squares = 5\n", r"orders\.toml:1: squares: expected a \[squares\] table"),
        ('[squares]\n"7" = { kind = "prison" }\n[extra]\n', r"orders\.toml:3: extra: outside"),
    ],
)
def test_an_orders_file_that_says_more_or_other_than_orders_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "orders.toml"
    path.write_text(text)
    with pytest.raises(InvalidOptionError, match=message) as err:
        engine.start(GAME, orders=str(path))
    assert "\n" not in str(err.value)


def test_an_orders_file_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[squares]\n"7" = { kind = "prison" } # caf\xe9\n')
    with pytest.raises(InvalidOptionError, match=r"latin1\.toml: not UTF-8 text"):
        engine.start(GAME, orders=str(bad))
    with pytest.raises(InvalidOptionError, match="cannot read"):
        engine.start(GAME, orders=str(tmp_path))  # a folder
    with pytest.raises(InvalidOptionError, match="not a file name"):
        engine.start(GAME, orders="a\0b")


# -- the computer's rating (evaluate, for reedboard/engine/search.py)
# -----------------------------------


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        ('{ kind = "prison" }', "prison"),
        ('{ kind = "go-to", to = 2 }', "go-back"),
        ('{ kind = "lose-turn" }', "lose-turn"),
    ],
)
def test_the_computer_takes_the_lane_without_the_bad_square(
    tmp_path: Path, bad: str, kind: str
) -> None:
    from reedboard.engine.search import choose

    # lane A has the bad square at 8 at the start and at 27 after 22; lane B is clear
    table = orders(tmp_path, f'"A8" = {bad}\n"A27" = {bad}\n')
    for level in (2, 5):
        assert str(choose(pos("R@- B@- turn=R", orders=table), level)) == "R start B"
        assert str(choose(pos("R@A20 B@B3 turn=R spin=5", orders=table), level)) == "R A20-B25"
    # and where lane B is the bad one, lane A (a table is read once a path: another folder)
    (tmp_path / "b").mkdir()
    table = orders(tmp_path / "b", f'"B8" = {bad}\n"B27" = {bad}\n')
    assert str(choose(pos("R@A20 B@B3 turn=R spin=5", orders=table), 2)) == "R A20-A25"


def test_the_rating_counts_the_turns_a_man_needs_to_reach_43(tmp_path: Path) -> None:
    from reedboard.engine.messenger_boy import turns_to_finish

    turns = turns_to_finish("")
    # from 37-42 only an exact spin wins: six turns on average whichever square
    assert all(abs(turns[f"A{n}"] - 6) < 1e-6 for n in range(37, 43))
    assert turns["A1"] > turns["22"] > turns["A30"] > turns["A37"]
    # a spin-again square saves a turn, a lost turn costs one
    fast = turns_to_finish(orders(tmp_path, '"A30" = { kind = "spin-again" }\n'))
    assert fast["A29"] < turns["A29"] and fast["A24"] < turns["A24"] and fast["B29"] == turns["B29"]
    (tmp_path / "p").mkdir()
    jail = orders(tmp_path / "p", '"A10" = { kind = "prison" }\n')
    prisoner = pos("R@A10 B@B3 turn=B prison=R", orders=jail)
    assert prisoner.evaluate("red") < pos("R@A11 B@B3 turn=B", orders=jail).evaluate("red") - 50


def test_the_rating_follows_go_to_loops_and_prison_release_as_the_engine_does(
    tmp_path: Path,
) -> None:
    from reedboard.engine.messenger_boy import turns_to_finish

    # A10 sends him to 5 and A5 back to 10: the engine's loop guard leaves him on the square he
    # came to first, so the pair changes nothing
    (tmp_path / "loop").mkdir()
    loop = orders(
        tmp_path / "loop",
        '"A10" = { kind = "go-to", to = 5 }\n"A5" = { kind = "go-to", to = 10 }\n',
    )
    assert moves(pos("R@A7 B@B3 turn=R spin=3", orders=loop)) == {"R A7-A10"}
    assert turns_to_finish(loop) == pytest.approx(turns_to_finish(""))
    # a prisoner let out goes to square 2 and obeys its order: here a lost turn
    (tmp_path / "jail").mkdir()
    jail = orders(tmp_path / "jail", '"B12" = { kind = "prison" }\n"2" = { kind = "lose-turn" }\n')
    turns = turns_to_finish(jail)
    assert turns["prison-B"] == pytest.approx(6 + turns["B2"] + 1)
    prisoner = pos("R@B12 B@A3 turn=B prison=R", orders=jail)
    assert prisoner.evaluate("red") == pytest.approx(-10 * turns["prison-B"])
