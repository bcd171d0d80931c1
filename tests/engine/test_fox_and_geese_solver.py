"""McLoughlin's Fox and Geese proof search (reedboard/engine/fox_and_geese/solver.py), checked
against a plain exhaustive minimax over the engine's own moves, and `reedboard analyse` on it."""

from __future__ import annotations

import contextlib
import io
import time
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.engine.errors import SolverError
from reedboard.engine.fox_and_geese import solver as solver

GAME = "fox-and-geese-mcloughlin"
Mc = engine.game(GAME)


def minimax(position: Any, memo: dict[str, str] | None = None, fox_wins_at: int = 6) -> str:
    """Who wins with best play: every move tried, through the engine's API alone
    (``fox_wins_at``: the fox wins once this many geese are left, not the game's 6)."""
    memo = {} if memo is None else memo
    text = position.to_text()
    if text in memo:
        return memo[text]
    over = position.outcome()
    if position.count("G") <= fox_wins_at:
        won = "fox"
    elif over is not None:
        won = str(over.winner)
    else:
        side = position.turn
        other = "geese" if side == "fox" else "fox"
        won = other
        for move in list(position.legal_moves):
            position.push(move)
            value = minimax(position, memo, fox_wins_at)
            position.pop()
            if value == side:
                won = side
                break
    memo[text] = won
    return won


def text_of(fox: int, geese: set[int], turn: str) -> str:
    cells = ["."] * 34
    for h in geese:
        cells[h] = "G"
    cells[fox] = "F"
    return "".join(cells[1:]) + " " + turn


def progress_left(position: Any) -> int:
    """How many rows the geese could still climb together (a bound on the game's length)."""
    board = position.board
    return sum(board.coords[h][0] for h in position.holes_of("G"))


# -- the search against minimax ----------------------------------------------------------------


LATE = [  # few geese, near the top: minimax runs in moments
    # the fox in the top arm, geese closing in
    ("..F.G.GGGGGGG.................... G", None),
    (".F...G.GGGGG.G................... F", None),
    ("F..GG..GGGGGG.................... F", None),
    ("....F..GGGGGGGG.................. G", None),
    # the fox below the geese: they cannot come back for it
    ("......GGGGGGG...........F........ G", None),
    # a jump the fox must take
    ("...G.G.GGG.GGG..F................ F", None),
    # the fox trapped: the geese have won
    ("FGGGG...G.G........G............. F", "geese"),
    # seven geese that cannot move: the fox has won
    ("GGGGGG.G........F................ G", "fox"),
]


@pytest.mark.parametrize(("text", "known"), LATE)
def test_the_search_agrees_with_minimax_late_in_the_game(text: str, known: str | None) -> None:
    position = Mc.from_text(text)
    want = minimax(position)
    if known is not None:
        assert want == known
    got = solver.solve(position, budget=30)
    assert got.value == want
    assert (got.proof == 0) == (want == "fox") and (got.disproof == 0) == (want == "geese")


@st.composite
def endgames(draw: st.DrawFn) -> Any:
    """A random position with 7-10 geese, all but one at most in the top three rows, and the
    fox in a free hole: little room left for the geese, so minimax runs in moments."""
    geese = draw(st.sets(st.sampled_from(range(1, 14)), min_size=7, max_size=9))
    geese |= draw(st.sets(st.sampled_from(range(14, 21)), max_size=1))
    free = [h for h in range(1, 34) if h not in geese]
    fox = draw(st.sampled_from(free))
    turn = draw(st.sampled_from("FG"))
    return Mc.from_text(text_of(fox, geese, turn))


@given(endgames())
def test_the_search_agrees_with_minimax_on_random_endgames(position: Any) -> None:
    assume(progress_left(position) <= 14)
    assert solver.solve(position, budget=30).value == minimax(position)


@given(st.lists(st.integers(min_value=0, max_value=1000), min_size=200, max_size=200))
def test_the_search_agrees_with_minimax_on_reachable_endgames(picks: list[int]) -> None:
    """Random games from the start, played until the geese have little room left."""
    position = Mc.start()
    for pick in picks:
        if position.is_over() or progress_left(position) <= 12:
            break
        moves = list(position.legal_moves)
        position.push(moves[pick % len(moves)])
    position = position.copy(stack=False)  # over, or little room left for the geese
    got = solver.solve(position, budget=30)
    assert got.value == minimax(position)
    memo: dict[str, str] = {}
    for state in got.moves:  # each first move's proved value too
        if state.value is not None:
            position.push(state.move)
            assert state.value == minimax(position, memo)
            position.pop()


@given(endgames())
def test_best_move_is_a_winning_move_when_there_is_one(position: Any) -> None:
    assume(progress_left(position) <= 14 and not position.is_over())
    move = solver.best_move(position, budget=30)
    if minimax(position) != position.turn:
        assert move is None
        return
    assert move is not None and position.is_legal(move)
    position.push(move)
    assert minimax(position) == position.sides[0 if position.turn == "geese" else 1]


def mirror_text(position: Any) -> str:
    """The position mirrored left to right (column c to 6 - c)."""
    board = position.board
    cells = ["."] * 34
    for hole, piece in position.pieces().items():
        r, c = board.coords[int(hole)]
        cells[board.hole_at(r, 6 - c)] = piece
    return "".join(cells[1:]) + " " + position.to_text()[-1]


@given(endgames(), st.integers(min_value=0, max_value=3))
def test_a_stricter_fox_win_asks_whether_the_geese_win_giving_up_fewer(
    position: Any, spare: int
) -> None:
    """With the fox winning once the geese are down to ``fox_wins_at``, the search agrees with
    minimax under that rule, and a geese win there is a geese win in the game."""
    assume(progress_left(position) <= 14)
    at = max(6, position.count("G") - 1 - spare)
    got = solver.solve(position, budget=30, fox_wins_at=at)
    assert got.value == minimax(position, fox_wins_at=at)
    if got.value == "geese":
        assert minimax(position) == "geese"


@given(endgames())
def test_mirror_images_share_a_key_and_a_value(position: Any) -> None:
    mirrored = Mc.from_text(mirror_text(position))
    game = solver._game_of(position)
    assert game.canonical(solver.key_of(position)) == game.canonical(solver.key_of(mirrored))
    if mirrored.to_text() != position.to_text():
        assert solver.key_of(position) != solver.key_of(mirrored)
    if progress_left(position) <= 14:
        assert solver.solve(mirrored, budget=30).value == minimax(position)


def test_the_search_moves_as_the_engine_does_from_the_start() -> None:
    """A few plies of random play: the search's children are the engine's moves' results."""
    position = Mc.start()
    game = solver._game_of(position)
    for ply in range(30):
        want = sorted(
            {game.canonical(solver.key_of(after(position, m))) for m in position.legal_moves}
        )
        got = sorted({game.canonical(k) for k in game.children(solver.key_of(position))})
        assert got == want, (ply, position.to_text())
        moves = list(position.legal_moves)
        if not moves:
            break
        position.push(moves[(ply * 7) % len(moves)])


def after(position: Any, move: Any) -> Any:
    copy = position.copy(stack=False)
    copy.push(move)
    return copy


# -- the budget ---------------------------------------------------------------------------------


def test_the_budget_is_respected_and_the_bound_reported() -> None:
    started = time.monotonic()
    result = solver.solve(Mc.start(), budget=0.5)
    took = time.monotonic() - started
    assert result.value is None
    assert 0 < result.proof < solver.INF and 0 < result.disproof < solver.INF
    assert result.positions > 0 and result.expanded > 0
    assert took < 0.5 + 1.0, took  # the clock is read every 512 expansions
    assert [str(s.move) for s in result.moves] == [str(m) for m in Mc.start().legal_moves]


def test_a_small_table_still_gives_exact_values() -> None:
    """Positions dropped from a full table are found again; values stay right."""
    position = Mc.from_text(".F...G.GGGGG.G................... F")
    assert solver.solve(position, table_limit=64).value == minimax(position)


def test_options_letting_a_goose_step_back_are_refused() -> None:
    position = Mc.start(sideways_points="7,8")
    with pytest.raises(SolverError, match="sideways_points 7 and 8"):
        solver.solve(position, budget=1)


def test_other_games_are_refused() -> None:
    with pytest.raises(SolverError, match="not fox-and-geese"):
        solver.solve(engine.start("fox-and-geese"), budget=1)


# -- reedboard analyse -----------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_analyse_prints_the_proved_value() -> None:
    text = "F..GG..GGGGGG.................... F"
    code, out, err = run("analyse", GAME, "--position", text, "--budget", "30")
    want = minimax(Mc.from_text(text))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"value: {want} {'wins' if want == 'fox' else 'win'} (proved)"
    assert err.startswith(f"reedboard: {GAME} from position {text!r}: proof search")


def test_analyse_reports_the_bound_when_the_budget_runs_out() -> None:
    """From a start the shipped geese strategy does not hold (14 and 20 left empty: the
    game's own start is answered from it, tests/analysis/test_mcloughlin_shipped.py)."""
    started = time.monotonic()
    code, out, err = run("analyse", GAME, "-o", "empty=14,20", "--budget", "0.3")
    assert time.monotonic() - started < 2
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "value: not proved within 0.3 s"
    assert lines[1].startswith("proof number (fox wins): ")
    assert lines[2].startswith("disproof number (geese win): ")
    assert int(lines[3].removeprefix("positions: ")) > 0
    assert [line.split(":")[0] for line in lines[6:]] == [
        f"move {m}" for m in Mc.start(empty=(14, 20)).legal_moves
    ]
    assert err.startswith(f"reedboard: {GAME} from the start: proof search for at most 0.3 s")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--budget", "0"], "argument --budget: '0' is outside 0.01 to 604800"),
        (["--budget", "-5"], "argument --budget: '-5' is outside"),
        (["--budget", "soon"], "argument --budget: 'soon' is not a number"),
        (["--budget", "nan"], "is not a finite number"),
        (["--budget"], "argument --budget: expected one argument"),
        (["-o", "sideways_points=12,13"], "sideways_points 12 and 13 let a goose step"),
        (["--position", "F" * 33 + " F"], "bad fox-and-geese-mcloughlin position"),
    ],
)
def test_analyse_refuses_in_one_line(argv: list[str], message: str) -> None:
    code, out, err = run("analyse", GAME, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("reedboard: error: ") and message in err and err.count("\n") == 1, err


def test_analyse_solitaire_takes_no_budget() -> None:
    code, out, err = run("analyse", "solitaire", "--budget", "5")
    assert (code, out) == (2, "")
    assert err == (
        "reedboard: error: analyse: --budget is for fox-and-geese-mcloughlin;"
        " solitaire's analysis runs whole\n"
    )


def test_analyse_takes_the_games_options() -> None:
    """Another pair of empty holes, all diagonals: searched from that start."""
    code, out, err = run(
        "analyse", GAME, "-o", "empty=15,19", "-o", "diagonals=all", "--budget", "0.2"
    )
    start = Mc.start(empty="15,19", diagonals="all")
    assert code == 0 and err.startswith(f"reedboard: {GAME} from the start: proof search")
    assert [line.split(":")[0] for line in out.splitlines()[6:]] == [
        f"move {m}" for m in start.legal_moves
    ]
