"""Fox and Geese with two foxes (docs/rules.md §1a, seed 001)."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine import IllegalMoveError, InvalidPositionError, Termination


def moves(position: engine.Position) -> set[str]:
    return {str(m) for m in position.legal_moves}


def test_start_foxes_on_9_and_11_and_24_geese() -> None:
    p = engine.start("fox-and-geese")
    assert p.to_text() == "......GGF.FGGGGGGGGGGGGGGGGGGGGGG F"
    assert p.holes_of("F") == [9, 11]
    assert p.holes_of("G") == [7, 8, *range(12, 34)]


def test_fox_player_moves_first_and_turns_alternate() -> None:
    p = engine.start("fox-and-geese")
    assert p.turn == "fox"
    p.push_text("9-4")
    assert p.turn == "geese"
    p.push_text("16-9")
    assert p.turn == "fox"


def test_the_fox_player_moves_one_fox_a_turn() -> None:
    p = engine.start("fox-and-geese")
    assert moves(p) == {"9-4", "9-10", "9-5", "11-6", "11-10", "11-5"}


def test_geese_step_along_a_line_in_any_direction_including_backwards() -> None:
    p = engine.from_text("fox-and-geese", "F.F.............G................ G")
    assert moves(p) == {"17-10", "17-16", "17-18", "17-24", "17-9", "17-11", "17-23", "17-25"}


def test_jumping_is_optional_a_fox_may_step_instead() -> None:
    p = engine.from_text("fox-and-geese", "F...............FG............... F")
    assert "17x18x19" not in moves(p)  # 19 is empty: a single jump only
    assert {"17x19", "17-10", "17-24"} <= moves(p)


def test_every_prefix_of_a_jump_chain_is_a_legal_move() -> None:
    # fox 23 can jump 24 (to 25), then 18 (to 11), then 10 (to 9)
    p = engine.from_text("fox-and-geese", _text({23: "F", 33: "F", 24: "G", 18: "G", 10: "G"}))
    chains = {m for m in moves(p) if "x" in m}
    assert {"23x25", "23x25x11", "23x25x11x9"} <= chains
    for chain in chains:
        parts = chain.split("x")
        for k in range(2, len(parts)):
            assert "x".join(parts[:k]) in chains


def _text(pieces: dict[int, str], turn: str = "F") -> str:
    return "".join(pieces.get(h, ".") for h in range(1, 34)) + " " + turn


def test_a_chain_goes_on_in_any_direction_and_each_goose_leaves_at_once() -> None:
    # fox 23 jumps 24 to 25 (right), then 18 to 11 (up), then 10 to 9 (left)
    p = engine.from_text("fox-and-geese", _text({23: "F", 33: "F", 24: "G", 18: "G", 10: "G"}))
    assert {"23x25", "23x25x11", "23x25x11x9"} <= moves(p)
    p.push_text("23x25x11x9")
    assert p.holes_of("G") == []
    assert p.holes_of("F") == [9, 33]


def test_a_chain_may_land_on_its_own_start() -> None:
    # a closed loop: 24 over 17 to 10, over 9 to 8, over 15 to 22, over 23 back to 24
    p = engine.from_text(
        "fox-and-geese", _text({24: "F", 1: "F", 17: "G", 9: "G", 15: "G", 23: "G"})
    )
    assert "24x10x8x22x24" in moves(p)
    p.push_text("24x10x8x22x24")
    assert p.holes_of("F") == [1, 24]
    assert p.holes_of("G") == []


def test_a_goose_is_never_jumped_twice() -> None:
    # 17 over 18 to 19 and straight back over 18 to 17 would jump the same goose again
    p = engine.from_text("fox-and-geese", _text({17: "F", 1: "F", 18: "G"}))
    assert "17x19x17" not in moves(p)
    assert "17x19" in moves(p)


def test_chains_that_end_alike_by_different_paths_are_different_moves() -> None:
    # 24 over 25 to 26 then over 19 to 12; or 24 over 17 to 10 then over 11 to 12
    p = engine.from_text(
        "fox-and-geese", _text({24: "F", 1: "F", 25: "G", 19: "G", 17: "G", 11: "G"})
    )
    assert {"24x26x12", "24x10x12"} <= moves(p)
    a, b = p.parse_move("24x26x12"), p.parse_move("24x10x12")
    assert a != b and a.end == b.end


def test_two_foxes_may_not_share_a_hole_nor_jump_each_other() -> None:
    p = engine.from_text("fox-and-geese", _text({17: "F", 18: "F", 1: "G"}))
    assert not any(m.endswith("-18") or m.startswith("17x") for m in moves(p))
    assert "18-17" not in moves(p)


def test_geese_never_jump() -> None:
    p = engine.from_text("fox-and-geese", _text({17: "F", 1: "F", 18: "G"}, "G"))
    assert all("x" not in m for m in moves(p))


def test_geese_win_when_neither_fox_can_move_on_the_fox_players_turn() -> None:
    p = engine.from_text(
        "fox-and-geese", _text({1: "F", 3: "F", 2: "G", 4: "G", 5: "G", 6: "G", 9: "G", 11: "G"})
    )
    assert not p.legal_moves
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("geese", Termination.FOXES_TRAPPED)


def test_fox_player_wins_by_taking_every_goose() -> None:
    p = engine.from_text("fox-and-geese", _text({17: "F", 1: "F", 18: "G"}))
    p.push_text("17x19")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("fox", Termination.GEESE_TAKEN)
    assert not p.legal_moves


def test_fox_player_wins_when_the_geese_have_no_move() -> None:
    p = engine.from_text("fox-and-geese", _text({7: "G", 8: "F", 14: "F"}, "G"), diagonals="none")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("fox", Termination.GEESE_BLOCKED)


def test_the_game_goes_on_while_a_side_can_move() -> None:
    assert engine.start("fox-and-geese").outcome() is None


def test_illegal_move_error_names_the_move_and_the_position() -> None:
    p = engine.start("fox-and-geese")
    with pytest.raises(IllegalMoveError) as err:
        p.push_text("9-16")
    assert "'9-16'" in str(err.value)
    assert p.to_text() in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_jump_written_as_a_step_is_illegal() -> None:
    p = engine.from_text("fox-and-geese", _text({17: "F", 1: "F", 18: "G"}))
    with pytest.raises(IllegalMoveError):
        p.push_text("17-19")


def test_position_needs_exactly_two_foxes() -> None:
    with pytest.raises(InvalidPositionError, match="3 foxes"):
        engine.from_text("fox-and-geese", _text({1: "F", 2: "F", 3: "F"}))
