"""The Fox and Geese ratings the computer players search with (``evaluate``): McLoughlin's
geese are paid for coming on as a front and charged for a goose left en prise; the two-fox
game's geese are charged for each hole of the foxes' pen they could not close."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.engine.cross import cross33
from reedboard.engine.fox_and_geese import FoxAndGeese, McLoughlinFoxAndGeese

MC = "fox-and-geese-mcloughlin"
ROW = {h: r for h, (r, _) in enumerate(cross33(engine.start(MC).options.diagonals).coords) if h}


def _text(pieces: dict[int, str], turn: str = "G") -> str:
    return "".join(pieces.get(h, ".") for h in range(1, 34)) + " " + turn


def _played(game: str, seed: int, plies: int) -> engine.Position:
    rng = random.Random(seed)
    p = engine.start(game)
    for _ in range(plies):
        if p.is_over():
            break
        p.push(rng.choice(list(p.legal_moves)))
    return p


def test_a_goose_with_a_hole_behind_it_is_en_prise_and_costs_the_geese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the fox on 10 over the goose on 17: 24 behind it is filled (a solid front) or empty
    geese = {h: "G" for h in range(18, 34)}
    solid = engine.from_text(MC, _text({10: "F", 17: "G", **geese, 22: "."}))
    holed = engine.from_text(MC, _text({10: "F", 17: "G", **geese, 24: "."}))
    assert isinstance(solid, McLoughlinFoxAndGeese) and isinstance(holed, McLoughlinFoxAndGeese)
    assert solid.count("G") == holed.count("G") and solid.geese_advance() == holed.geese_advance()
    assert solid.geese_en_prise() == 0
    assert holed.geese_en_prise() == 1
    weight = McLoughlinFoxAndGeese.en_prise_weight
    assert weight > 0
    with_term = (solid.evaluate("geese"), holed.evaluate("geese"))
    monkeypatch.setattr(McLoughlinFoxAndGeese, "en_prise_weight", 0.0)
    without = (solid.evaluate("geese"), holed.evaluate("geese"))
    assert with_term[0] == without[0]  # nothing en prise: no charge
    assert with_term[1] == without[1] - weight  # the goose the fox can jump costs the geese


def test_a_goose_the_fox_could_jump_from_anywhere_in_its_pen_is_exposed_and_costs_the_geese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fox on 1 in the top arm ({1, 2, 3}: 4-20 geese, 11 empty): from 1 it can jump 5
    into 11 now (en prise); from 3, a step away, 6 into 11 too (exposed, not en prise)."""
    pieces = {1: "F", **{h: "G" for h in range(4, 21)}, 11: "."}
    p = engine.from_text(MC, _text(pieces))
    assert isinstance(p, McLoughlinFoxAndGeese)
    assert p.fox_region() == {1, 2, 3}
    assert p.geese_en_prise() == 1 and p.geese_exposed() == 2
    mended = engine.from_text(MC, _text({**pieces, 11: "G", 20: "."}))
    assert isinstance(mended, McLoughlinFoxAndGeese)
    assert mended.geese_exposed() == mended.geese_en_prise() == 0
    weight = McLoughlinFoxAndGeese.exposed_weight
    assert weight > 0
    with_term = p.evaluate("geese")
    monkeypatch.setattr(McLoughlinFoxAndGeese, "exposed_weight", 0.0)
    assert with_term == p.evaluate("geese") - 2 * weight


@pytest.mark.parametrize("game", ["fox-and-geese", MC])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_geese_en_prise_are_among_the_exposed(game: str, seed: int, plies: int) -> None:
    p = _played(game, seed, plies)
    assert isinstance(p, FoxAndGeese)
    assert p.geese_en_prise() <= p.geese_exposed() <= p.count("G")
    if p.fox_room() == 0:
        assert p.geese_exposed() == p.geese_en_prise()


def test_the_geese_coming_on_a_row_rate_higher(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same seven geese, a row further on; the fox in the top arm either way (a lone row
    # can be jumped from the row before it, nearer the fox's in front: the exposure term is
    # off here, to see the advance alone)
    monkeypatch.setattr(McLoughlinFoxAndGeese, "exposed_weight", 0.0)
    back = engine.from_text(MC, _text({2: "F", **{h: "G" for h in range(21, 28)}}))
    front = engine.from_text(MC, _text({2: "F", **{h: "G" for h in range(14, 21)}}))
    assert isinstance(back, McLoughlinFoxAndGeese) and isinstance(front, McLoughlinFoxAndGeese)
    assert front.geese_advance() == back.geese_advance() + 7
    gain = front.evaluate("geese") - back.evaluate("geese")
    assert gain > 0
    monkeypatch.setattr(McLoughlinFoxAndGeese, "advance_weight", 0.0)
    assert gain == front.evaluate("geese") - back.evaluate("geese") + 7 * 0.25


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_a_goose_step_forward_adds_a_row_of_advance_and_no_step_loses_one(
    seed: int, plies: int
) -> None:
    p = _played(MC, seed, plies)
    assert isinstance(p, McLoughlinFoxAndGeese)
    assert p.geese_advance() == sum(6 - ROW[h] for h in p.holes_of("G"))
    if p.is_over() or p.turn != "geese":
        return
    before = p.geese_advance()
    for move in list(p.legal_moves):
        p.push(move)
        step = ROW[move.start] - ROW[move.end]  # type: ignore[attr-defined]
        assert step in (0, 1)
        assert p.geese_advance() == before + step
        p.pop()


@pytest.mark.parametrize("game", ["fox-and-geese", MC])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_rating_is_one_sides_gain_and_the_others_loss(game: str, seed: int, plies: int) -> None:
    p = _played(game, seed, plies)
    assert p.evaluate("fox") == -p.evaluate("geese")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_two_fox_rating_is_the_sum_of_its_terms(seed: int, plies: int) -> None:
    """Goose taken 10, fox move 1, fox room 0.5, goose move -0.5, a goose en prise
    ``en_prise_weight``, a hole of the pen the geese cannot close ``open_weight``."""
    p = _played("fox-and-geese", seed, plies)
    assert isinstance(p, FoxAndGeese)
    goose_moves = sum(
        1 for g in p.holes_of("G") for to in p.board.steps[g] if p.cells[to] == ord(".")
    )
    expected = 10.0 * (24 - p.count("G")) + p.fox_mobility() + 0.5 * p.fox_room()
    expected -= 0.5 * goose_moves
    expected += FoxAndGeese.en_prise_weight * p.geese_en_prise()
    expected += FoxAndGeese.open_weight * p.open_room()
    if p.dead_pen():
        expected = 0.0  # a pen nobody can win as it stands: a draw
    assert p.evaluate("fox") == pytest.approx(expected)


# The two-fox game's pen (reedboard.engine.fox_and_geese.FoxAndGeese.open_room). Holes 1-6 are the
# top
# arm (1 2 3 over 4 5 6); the rest of the board is full of geese but for a few holes far off.
_FULL = {h: "G" for h in range(4, 34)}


def _two_fox(pieces: dict[int, str], turn: str = "G") -> FoxAndGeese:
    p = engine.from_text("fox-and-geese", _text(pieces, turn))
    assert isinstance(p, FoxAndGeese)
    return p


def _arm(foxes: tuple[int, ...], empty: tuple[int, ...]) -> FoxAndGeese:
    """The foxes in the top arm, the arm's other holes geese but ``empty``, and enough holes
    empty at the bottom (31-33 and then 28-30) to leave 24 geese or fewer."""
    pieces = {**_FULL, 1: "G", 2: "G", 3: "G"}
    for h in foxes:
        pieces[h] = "F"
    for h in empty:
        pieces[h] = "."
    for h in (31, 32, 33, 28, 29, 30):
        if sum(1 for v in pieces.values() if v == "G") <= 24:
            break
        pieces[h] = "."
    return _two_fox(pieces)


def test_a_pen_in_the_arms_corner_cannot_be_closed_but_the_arms_row_can() -> None:
    # foxes on 2 and 4, 1 empty: every goose that could fill 1 leaves a hole by a fox or a
    # jump's landing (5 touches 2 and 4; 3 and 9 are where 1 jumps 2 and 4 to)
    corner = _arm((2, 4), (1,))
    assert corner.fox_region() == {1, 2, 4}
    assert corner.fox_room() == 1 and corner.open_room() == 1
    # foxes on 1 and 2 and 3 empty: 6 steps in, 6 touching no fox and no fox jumping into it
    row = _arm((1, 2), (3,))
    assert row.fox_region() == {1, 2, 3}
    assert row.fox_room() == 1 and row.open_room() == 0
    row.push(row.parse_move("6-3"))
    assert row.outcome() is not None and row.outcome().winner == "geese"  # type: ignore[union-attr]


def test_the_geese_pay_for_a_pen_they_cannot_close(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FoxAndGeese, "dead_pen_draws", False)  # (the corner is a dead pen)
    corner, row = _arm((2, 4), (1,)), _arm((1, 2), (3,))
    assert corner.open_room() - row.open_room() == 1
    weight = FoxAndGeese.open_weight
    assert weight > 0
    with_term = corner.evaluate("geese") - row.evaluate("geese")
    monkeypatch.setattr(FoxAndGeese, "open_weight", 0.0)
    without = corner.evaluate("geese") - row.evaluate("geese")
    assert with_term == without - weight


def test_a_pen_the_geese_cannot_close_at_all_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corner pen (foxes on 2 and 4, 1 empty): the foxes step about in it for ever and
    the geese gain nothing by keeping it, however far ahead: it is rated 0, a draw. A pen
    they can close, or one with a goose the foxes can jump, is rated as ever."""

    def three() -> tuple[FoxAndGeese, ...]:
        return _arm((2, 4), (1,)), _arm((1, 2), (3,)), _arm((2, 4), (1, 16))

    corner, row, holed = three()
    assert corner.fox_room() == corner.open_room() == 1 and not corner.geese_en_prise()
    assert row.open_room() == 0
    assert holed.open_room() == holed.fox_room() and holed.geese_en_prise() >= 1  # 4 over 9
    rated = [p.evaluate("geese") for p in three()]
    assert corner.evaluate("fox") == 0.0
    monkeypatch.setattr(FoxAndGeese, "dead_pen_draws", False)
    plain = [p.evaluate("geese") for p in three()]
    assert rated[0] == 0.0 != plain[0]
    assert rated[1:] == plain[1:]


def test_a_fortress_needs_a_small_pen_and_a_goose_that_can_wait() -> None:
    """The corner pen (foxes on 2 and 4, 1 empty) held by its wall alone (3, 5, 9, and 6,
    10, 11, 16 behind so that no goose is en prise): every goose touches the pen or stands
    where a jump from one of its holes lands, so none can surely wait (11 can while 1 stays
    empty; the rating does not look where the foxes stand): no fortress. Nor with 11 empty,
    where 5 could step to 11 but touches the pen. One goose more far off (30), free to step,
    and it is one."""
    wall = {2: "F", 4: "F", **{h: "G" for h in (3, 5, 9, 6, 10, 11, 16)}}
    bare = _two_fox(wall)
    assert bare.fox_region() == {1, 2, 4} and bare.open_room() == 1
    assert not bare.geese_en_prise()
    assert not bare.dead_pen() and bare.evaluate("fox") != 0.0
    gap = _two_fox({**wall, 11: "."})
    assert gap.fox_region() == {1, 2, 4} and gap.open_room() == 1
    assert not gap.geese_en_prise() and gap.parse_move("5-11") in gap.legal_moves
    assert not gap.dead_pen()
    spare = _two_fox({**wall, 30: "G"})
    assert spare.dead_pen() and spare.evaluate("fox") == 0.0


def test_a_fortress_is_a_small_pen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corner pen with a goose to spare has one empty hole: a fortress while
    ``dead_pen_room`` allows one, open play when it allows none."""
    wall = {2: "F", 4: "F", **{h: "G" for h in (3, 5, 9, 6, 10, 11, 16, 30)}}
    assert _two_fox(wall).fox_room() == 1 and _two_fox(wall).dead_pen()
    monkeypatch.setattr(FoxAndGeese, "dead_pen_room", 0)
    spare = _two_fox(wall)
    assert not spare.dead_pen() and spare.evaluate("fox") != 0.0


def test_an_open_board_with_few_geese_is_no_fortress() -> None:
    """Foxes on 23 and 11, geese on 30-33 (after 9x23 in the next test): no hole of the
    foxes' pen (the whole board) can be closed and no goose is en prise, but the pen is far
    larger than a fortress (:attr:`FoxAndGeese.dead_pen_room`) and no goose can wait."""
    p = _two_fox({23: "F", 11: "F", **{h: "G" for h in (30, 31, 32, 33)}})
    assert p.open_room() == p.fox_room() > FoxAndGeese.dead_pen_room
    assert not p.geese_en_prise()
    assert not p.dead_pen() and p.evaluate("fox") != 0.0


@pytest.mark.parametrize("level_number", [2, 3, 4, 5])
def test_the_foxes_take_a_goose_on_an_open_board(level_number: int) -> None:
    """Foxes on 9 and 11, geese on 16 and 30-33, fox to move: 9 jumps 16 into 23. (With
    every pen the geese cannot close rated a draw, the open board was one too, and the foxes
    stepped about instead.)"""
    from reedboard.engine.search import choose

    p = _two_fox({9: "F", 11: "F", **{h: "G" for h in (16, 30, 31, 32, 33)}}, "F")
    move = choose(p, level_number, random.Random(0))
    assert move == p.parse_move("9x23")


def test_the_top_level_keeps_a_pen_it_can_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """Foxes on 1 and 3, holes 2 and 4 open: no goose can close the pen {1, 2, 3, 4} (9 into
    4 opens 9 to a jump from 1 over 4 and from 3 over 5; 6 into 3 opens 6 to one from 4 over
    5), but 5 stepping into 4 makes it {1, 2, 3, 5}: 10 into 5 (17 behind it) leaves {1, 2, 3},
    which 4 or 6 closes.
    With the pen term the top level reshapes the pen so; without it, it does not. (The pen
    is a dead one, rated a draw by ``dead_pen_draws``: off here, to see the pen term alone.)"""
    from reedboard.engine.search import choose

    monkeypatch.setattr(FoxAndGeese, "dead_pen_draws", False)

    def after_top_level() -> int:
        p = _arm((1, 3), (2, 4))
        assert p.fox_region() == {1, 2, 3, 4} and p.open_room() == 2
        move = choose(p, 5, random.Random(0))
        assert move is not None
        p.push(move)
        return p.open_room()

    assert after_top_level() == 0
    monkeypatch.setattr(FoxAndGeese, "open_weight", 0.0)
    assert after_top_level() > 0


def test_a_pen_in_pieces_is_closed_piece_by_piece() -> None:
    """Foxes on 1 and 10, hole 4 empty, every other hole about them a goose: the fox on 10
    is shut in alone, the one on 1 paces 1-4. Taken as one pen where either fox may stand
    anywhere, 4 looked closable (a fox on 10 could be on 4); piece by piece it is not: 9
    into 4 leaves 9 by the fox on 10 (and for a jump from 1 over 4), 5 into 4 leaves 5 by
    both, and with the fox on 4, 2 into 1 leaves 2 for the jump from 10 over 5. So the
    pen is a fortress, rated a draw."""
    p = _two_fox(
        {1: "F", 10: "F", **{h: "G" for h in (2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17, 24, 30)}}
    )
    assert p.fox_region() == {1, 4, 10}
    assert sorted((sorted(piece), k) for piece, k in p._pieces(frozenset({1, 4, 10}))) == [
        ([1, 4], 1),
        ([10], 1),
    ]
    assert p.open_room() == 1 == p.fox_room()
    assert p.dead_pen() and p.evaluate("fox") == 0.0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 150))
def test_the_pen_left_open_is_at_most_its_room(seed: int, plies: int) -> None:
    p = _played("fox-and-geese", seed, plies)
    assert isinstance(p, FoxAndGeese)
    pen = p.fox_region()
    assert set(p.holes_of("F")) <= pen
    assert all(p.cells[h] == ord(".") for h in pen - set(p.holes_of("F")))
    assert 0 <= p.open_room() <= p.fox_room() == len(pen) - 2


# Counted, not made: the ratings count the moves each side has without making them.
@pytest.mark.parametrize("game", ["fox-and-geese", MC])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_the_moves_counted_for_the_rating_are_the_moves_made(
    game: str, seed: int, plies: int
) -> None:
    p = _played(game, seed, plies)
    assert isinstance(p, FoxAndGeese)
    assert p.fox_mobility() == len(p._fox_moves())
    assert p._goose_mobility() == len(p._goose_moves())
    assert p._fox_holes() == p.holes_of("F")


@pytest.mark.parametrize("game", ["fox-and-geese", MC])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(1, 80))
def test_a_rating_kept_from_before_is_never_read_for_another_position(
    game: str, seed: int, plies: int
) -> None:
    """The search rates a position for each side; the rating is kept for the cells it was
    made on, so a move and its take-back leave no stale rating behind."""
    p = _played(game, seed, plies)
    if p.is_over():
        return
    fresh = engine.from_text(game, p.to_text())
    before = p.evaluate("fox")
    assert before == fresh.evaluate("fox")
    for move in list(p.legal_moves)[:5]:
        p.push(move)
        after = engine.from_text(game, p.to_text())
        assert p.evaluate("geese") == after.evaluate("geese") == -after.evaluate("fox")
        p.pop()
        assert p.evaluate("fox") == before


# McLoughlin's fox must jump: with the fox to move, the geese its chain takes are as good as gone.
def test_the_geese_a_compulsory_jump_takes_count_as_taken_with_the_fox_to_move() -> None:
    # the fox on 10 must jump the goose on 17 into 24, and then the one on 23 into 22
    geese = {h: "G" for h in range(18, 34)}
    pieces = {10: "F", 17: "G", **geese, 24: ".", 22: "."}
    fox_to_move = engine.from_text(MC, _text(pieces, "F"))
    geese_to_move = engine.from_text(MC, _text(pieces, "G"))
    assert isinstance(fox_to_move, McLoughlinFoxAndGeese)
    assert fox_to_move.forced_take() == max(
        len(m.path) - 1 for m in fox_to_move.legal_moves if m.jump
    )
    assert fox_to_move.forced_take() == 2
    gap = fox_to_move.evaluate("fox") - geese_to_move.evaluate("fox")
    assert gap == pytest.approx(10.0 * fox_to_move.forced_take())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_the_forced_take_is_the_longest_chain_the_fox_must_choose_from(
    seed: int, plies: int
) -> None:
    p = _played(MC, seed, plies)
    assert isinstance(p, McLoughlinFoxAndGeese)
    if p.is_over() or p.turn != "fox":
        return
    chains = [len(m.path) - 1 for m in p.legal_moves if m.jump]
    assert p.forced_take() == max(chains, default=0)
    assert not chains or len(chains) == len(list(p.legal_moves))  # a jump is compulsory


def test_the_two_fox_game_has_no_forced_take() -> None:
    p = _arm((2, 4), (1, 16))  # the fox on 4 can jump 9, but need not
    assert p.forced_take() == 0 and not FoxAndGeese.forced_jumps
