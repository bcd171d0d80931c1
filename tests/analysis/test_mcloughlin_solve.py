"""The C solver's values against a plain exhaustive minimax over the engine's moves (few geese,
the fox winning at fewer geese than the game's six, every option), its resume after a kill,
and `reedboard analyse --exact`."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.analysis import mcloughlin
from reedboard.analysis.mcloughlin import ExactError, Variant

GAME = mcloughlin.GAME
VARIANTS = [
    Variant("alternate", (7, 13), 2),
    Variant("alternate", (7, 13), 3),
    Variant("alternate", (7, 13), 0),  # chains that take the last geese: where they stop counts
    Variant("alternate", (7, 13), 1),
    Variant("all", (7, 13), 2),
    Variant("none", (), 2),
    Variant("alternate", (14, 20), 2),
]
TOP = 4
"""Geese in the positions compared: layers win_at+1..4 solve in well under a second."""


@functools.cache
def rules(win_at: int) -> Any:
    """The engine's game with the fox winning at ``win_at`` geese (written here, not taken
    from the solver's driver)."""
    base = engine.game(GAME)
    return type("Reduced", (base,), {"geese_left_to_win": win_at})


def minimax(variant: Variant, text: str, memo: dict[str, str]) -> str:
    """Who wins ``text`` with best play: every line followed to its end by the engine's moves."""
    if text in memo:
        return memo[text]
    position = rules(variant.win_at).from_text(text, **options_of(variant))
    if position.count("G") <= variant.win_at:
        winner = "fox"
    else:
        mover = "fox" if position.turn == "fox" else "geese"
        other = "geese" if mover == "fox" else "fox"
        winner = other  # no move: the side to move loses
        for move in position.legal_moves:
            child = position.copy(stack=False)
            child.push(move)
            if minimax(variant, child.to_text(), memo) == mover:
                winner = mover
                break
    memo[text] = winner
    return winner


def options_of(variant: Variant) -> dict[str, str]:
    return {"diagonals": variant.diagonals, "sideways_points": ",".join(map(str, variant.sideways))}


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[Variant, Path]:
    out = {}
    for variant in VARIANTS:
        folder = tmp_path_factory.mktemp(variant.name.replace(",", "_"))
        mcloughlin.solve(variant, TOP, folder)
        out[variant] = folder
    return out


@st.composite
def positions(draw: st.DrawFn, geese: int) -> str:
    holes = draw(st.permutations(range(1, 34)))
    cells = ["."] * 33
    cells[holes[0] - 1] = "F"
    for h in holes[1 : 1 + geese]:
        cells[h - 1] = "G"
    return "".join(cells) + " " + draw(st.sampled_from("FG"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    texts=st.lists(st.integers(1, TOP).flatmap(positions), min_size=1, max_size=10),
)
def test_the_solver_agrees_with_minimax(
    solved: dict[Variant, Path], variant: Variant, texts: list[str]
) -> None:
    memo: dict[str, str] = {}
    want = [minimax(variant, text, memo) for text in texts]
    assert mcloughlin.query(variant, solved[variant], texts) == want


def test_both_sides_win_somewhere(solved: dict[Variant, Path]) -> None:
    """The comparison means something: among late positions each side wins some."""
    variant = VARIANTS[0]
    texts = [
        "....G.GG.G...........F........... F",  # four geese over a fox in the open
        "GFG.G....G....................... F",  # the fox on 2, shut in by four geese
        "GFG.G....G....................... G",  # the same, the geese to move: none can
    ]
    memo: dict[str, str] = {}
    want = [minimax(variant, t, memo) for t in texts]
    assert want == ["fox", "geese", "fox"]
    assert mcloughlin.query(variant, solved[variant], texts) == want


def test_a_solve_killed_mid_layer_goes_on_to_the_same_files(tmp_path: Path) -> None:
    variant = Variant("alternate", (7, 13), 2)
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    mcloughlin.solve(variant, 6, whole)
    args = [str(mcloughlin.solver_program()), "solve", str(cut), *variant.args(), "--top", "6"]
    proc = subprocess.Popen([*args, "--checkpoint-sets", "6400"], stdout=subprocess.DEVNULL)
    checkpoint = cut / "layer-6.checkpoint"
    deadline = time.monotonic() + 60
    while not checkpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert checkpoint.exists(), "no checkpoint before the solve ended: nothing was cut"
    assert (cut / "geese-to-move-6.part").exists()
    notes: list[str] = []
    mcloughlin.solve(variant, 6, cut, notes.append, every=0)
    assert any(n.startswith("layer 6: going on from set") for n in notes)
    for n in range(3, 7):
        name = f"geese-to-move-{n}.bin"
        assert (cut / name).read_bytes() == (whole / name).read_bytes()
    assert sorted(p.name for p in cut.iterdir()) == sorted(p.name for p in whole.iterdir())


def test_the_start_is_answered_for_a_small_game(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reedboard",
            "analyse",
            GAME,
            "--exact",
            "--dir",
            str(tmp_path),
            "-o",
            "fox_wins_at=2",
            "--position",
            "GFG.G....G....................... F",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
    )
    memo: dict[str, str] = {}
    variant = Variant("alternate", (7, 13), 2)
    lines = out.stdout.splitlines()
    winner = minimax(variant, "GFG.G....G....................... F", memo)
    assert lines[0].endswith("geese win" if winner == "geese" else "fox wins")
    assert "exact solve, layers of 3-4 geese" in out.stderr
    assert "of memory" in out.stderr and "of disk" in out.stderr
    position = rules(2).from_text("GFG.G....G....................... F")
    assert [line.split(":")[0] for line in lines[1:]] == [f"move {m}" for m in position.legal_moves]


def test_too_little_memory_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcloughlin, "available_memory", lambda: 10_000)
    with pytest.raises(ExactError, match=r"^the exact solve needs [0-9.]+ MB of memory and this"):
        mcloughlin.analyse(
            {"fox_wins_at": "2"}, "GFG.G....G....................... F", tmp_path, print
        )
    assert not list(tmp_path.glob("*.bin"))


def test_the_whole_game_is_sized_as_the_issue_says() -> None:
    need = mcloughlin.plan(Variant(), 17, Path("/nonexistent"))
    assert need.sets == sum(__import__("math").comb(33, n) for n in range(7, 18))
    assert [layer.geese for layer in need.todo] == list(range(7, 18))


def test_options_with_no_end_and_bad_counts_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExactError, match="step back and forth"):
        mcloughlin.analyse({"sideways_points": "7,8"}, None, tmp_path, print)
    with pytest.raises(ExactError, match=r"fox_wins_at=.x.: a whole number"):
        mcloughlin.analyse({"fox_wins_at": "x"}, None, tmp_path, print)
