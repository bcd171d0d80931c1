"""McLoughlin's Fox and Geese (docs/rules.md §1b, seeds 003/004)."""

from __future__ import annotations

import pytest

from reedboard import engine
from reedboard.engine import InvalidOptionError, Termination

GAME = "fox-and-geese-mcloughlin"


def moves(position: engine.Position) -> set[str]:
    return {str(m) for m in position.legal_moves}


def _text(pieces: dict[int, str], turn: str = "F") -> str:
    return "".join(pieces.get(h, ".") for h in range(1, 34)) + " " + turn


# enough geese far away that the six-geese win does not end these positions
RESERVE = {h: "G" for h in (27, 28, 29, 30, 31, 32, 33)}


def test_start_one_fox_on_17_and_17_geese_with_16_and_18_empty() -> None:
    p = engine.start(GAME)
    assert p.holes_of("F") == [17]
    assert p.holes_of("G") == [14, 15, 19, 20, *range(21, 34)]
    assert p.count("G") == 17


def test_the_player_may_leave_any_two_of_the_geese_holes_empty() -> None:
    p = engine.start(GAME, empty=(20, 33))
    assert 20 not in p.holes_of("G") and 33 not in p.holes_of("G")
    assert p.count("G") == 17


@pytest.mark.parametrize("empty", [(17, 18), (13, 18), (16, 16), (16,), (16, 18, 19)])
def test_the_two_empty_holes_must_be_two_goose_holes(empty: tuple[int, ...]) -> None:
    with pytest.raises(InvalidOptionError, match="empty"):
        engine.start(GAME, empty=empty)


def test_the_fox_moves_first() -> None:
    assert engine.start(GAME).turn == "fox"


def test_the_fox_steps_along_lines_in_any_direction() -> None:
    p = engine.from_text(GAME, _text({17: "F", **RESERVE}))
    assert moves(p) == {"17-9", "17-10", "17-11", "17-16", "17-18", "17-23", "17-24", "17-25"}


def test_geese_step_forward_only_straight_or_along_a_diagonal_line() -> None:
    p = engine.from_text(GAME, _text({1: "F", 17: "G", 24: "G", **RESERVE}, "G"))
    from_17 = {m for m in moves(p) if m.startswith("17-")}
    assert from_17 == {"17-9", "17-10", "17-11"}  # never 16, 18 (sideways) or 23-25 (back)
    from_24 = {m for m in moves(p) if m.startswith("24-")}
    assert from_24 == set()  # 24 (4,3) is odd: no diagonals, and 17 ahead is taken


def test_geese_may_also_step_sideways_on_the_sideways_points_7_and_13() -> None:
    p = engine.from_text(GAME, _text({1: "F", 7: "G", 13: "G", **RESERVE}, "G"))
    assert {"7-8", "13-12"} <= moves(p)
    assert "7-14" not in moves(p)  # still never backwards


def test_sideways_points_is_an_option() -> None:
    text = _text({1: "F", 7: "G", 13: "G", 10: "G", **RESERVE}, "G")
    p = engine.from_text(GAME, text, sideways_points=(10,))
    assert "7-8" not in moves(p) and "13-12" not in moves(p)
    assert {"10-9", "10-11"} <= moves(p)


def test_the_fox_must_jump_whenever_it_can() -> None:
    p = engine.from_text(GAME, _text({17: "F", 18: "G", **RESERVE}))
    assert moves(p) == {"17x19"}


def test_the_fox_must_go_on_jumping_only_maximal_chains_are_legal() -> None:
    p = engine.from_text(GAME, _text({23: "F", 24: "G", 18: "G", 10: "G", **RESERVE}))
    assert moves(p) == {"23x25x11x9"}


def test_a_compulsory_chain_is_one_move() -> None:
    p = engine.from_text(GAME, _text({23: "F", 24: "G", 18: "G", 10: "G", **RESERVE}))
    p.push_text("23x25x11x9")
    assert p.turn == "geese"
    assert p.holes_of("F") == [9]
    assert len(p.move_stack) == 1


def test_the_fox_wins_when_only_six_geese_are_left() -> None:
    seven = {h: "G" for h in (18, 28, 29, 30, 31, 32, 33)}
    p = engine.from_text(GAME, _text({17: "F", **seven}))
    assert p.outcome() is None
    p.push_text("17x19")
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("fox", Termination.SIX_GEESE_LEFT)
    assert not p.legal_moves


def test_the_fox_wins_when_the_geese_cannot_move_on_their_turn() -> None:
    # every goose on row 0 (1-3) can only go forward, off the board
    pieces = {1: "G", 2: "G", 3: "G", 4: "G", 5: "G", 6: "G", 9: "G", 10: "G", 11: "G"}
    p = engine.from_text(GAME, _text({**pieces, 17: "F"}, "G"))
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("fox", Termination.GEESE_BLOCKED)


def test_the_geese_win_when_the_fox_can_neither_step_nor_jump() -> None:
    pieces = {1: "F", 2: "G", 3: "G", 4: "G", 5: "G", 9: "G", 11: "G", **RESERVE}
    p = engine.from_text(GAME, _text(pieces))
    over = p.outcome()
    assert over is not None
    assert (over.winner, over.reason) == ("geese", Termination.FOXES_TRAPPED)
