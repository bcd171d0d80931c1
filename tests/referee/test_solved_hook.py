"""The referee, the daemon's build, history and the command line reach a solved game only
through the engine's hooks (``Position.solved_table``, ``Position.analysis``;
reedboard/engine/solved.py): a game without them gets no solved verdicts, and a table a game
offers is the one they use, whatever it holds."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import pytest

from reedboard import engine
from reedboard.cli.main import main
from reedboard.engine.registry import ANALYSED
from reedboard.engine.solitaire import Solitaire
from reedboard.engine.solitaire.solved import WinningTable
from reedboard.engine.solved import (
    Analysis,
    Progress,
    Report,
    Solution,
    SolvedTable,
    TableFileError,
)
from reedboard.referee import solved
from reedboard.store.games import GameStore
from tests.referee.rig import Rig


class Parity(Solution):
    """A made-up verdict: a board can still be won while its number of pegs is even."""

    def __init__(self, table: ParityTable) -> None:
        self._table = table

    @property
    def table(self) -> ParityTable:
        return self._table

    def answers(self, position: Any) -> bool:
        return bool(position.game_id == "solitaire")

    def winnable(self, positions: Sequence[Any]) -> list[bool]:
        return [len(p.holes_of("o")) % 2 == 0 for p in positions]

    def best_moves(self, position: Any) -> list[Any]:
        return list(position.legal_moves)[-1:]  # not the winning set's first


class ParityTable(SolvedTable):
    game_id = "solitaire"
    what = "parity table"
    variant = "even pegs"
    stem = "solitaire-parity"
    verdict_point = "1"

    def write(self, out: IO[bytes], progress: Progress | None = None) -> None:
        out.write(b"even")

    def read(self, data: IO[bytes]) -> Parity:
        if data.read() != b"even":
            raise TableFileError("not a parity table")
        return Parity(self)


@pytest.fixture
def solver_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(solved.SOLVER_ENV, "on")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


def hook(monkeypatch: pytest.MonkeyPatch, table: SolvedTable | None) -> None:
    monkeypatch.setattr(Solitaire, "solved_table", classmethod(lambda cls, options: table))


def test_solitaire_offers_its_winning_set_through_the_hook() -> None:
    table = solved.table_of(engine.start("solitaire", start=5))
    assert isinstance(table, WinningTable) and table.finish == 5
    assert str(table) == "solitaire winning set for finish 5"
    assert solved.cache_path(table, Path("/c")) == Path("/c/solitaire-winning-5.bin")
    assert solved.table_of(engine.start("solitaire", diagonals="all")) is None
    for game_id in engine.game_ids():
        if game_id != "solitaire":
            assert solved.table_of(engine.start(game_id)) is None, game_id


def test_a_game_without_the_hook_gets_no_table_no_verdict_and_no_note(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    solitaire_cache: Path,
    solver_on: None,
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(solitaire_cache))  # the winning set is there
    ws = solved.open_table(WinningTable(17))
    assert ws is not None
    position = engine.start("solitaire")
    while not (losing := [m for m in position.legal_moves if m not in ws.best_moves(position)]):
        position.push(ws.best_moves(position)[0])
    store = GameStore(tmp_path / "g.sqlite3")
    game = store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    for ply, move in enumerate([*position.move_stack, losing[0]]):
        store.add_move(game, ply, str(move))
    store.close()
    history = ["history", str(game), "--database", str(tmp_path / "g.sqlite3")]
    two = "oo" + "." * 31 + " -"  # 1-3 is the only jump, and it ends on 3, not 17

    def asked() -> tuple[bool, str]:
        assert main(history) == 0
        noted = "# lost: no win after it" in capsys.readouterr().out
        assert main(["hint", "solitaire", "--position", two]) == 0
        return noted, capsys.readouterr().out

    assert asked() == (True, "none\n")  # the winning set, through Solitaire's hook
    hook(monkeypatch, None)
    assert asked() == (False, "1-3\n")  # the bounded search: no table opened, none built
    said: list[str] = []
    assert solved.table_of(position) is None
    assert asyncio.run(solved.prepare(position, said.append)) is None and said == []


def test_the_table_a_game_offers_is_the_one_the_referee_uses(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    solver_on: None,
) -> None:
    table = ParityTable()
    hook(monkeypatch, table)
    said: list[str] = []
    parity = solved.open_table(table, build_missing=True, say=said.append)
    path = tmp_path / "reedboard" / "solitaire-parity.bin"
    assert said == [
        f"building the solitaire parity table for even pegs (once): {path}: not built yet"
    ]
    assert isinstance(parity, Parity) and path.read_bytes() == b"even"
    path.write_bytes(b"odd")
    with pytest.raises(solved.CacheError, match=f"^{path}: not a parity table$"):
        solved.load(path, table)
    path.write_bytes(b"even")
    # the board: after 5-17 (31 pegs, odd) the table's point says lost, and the jump is named
    rig = Rig("solitaire")
    rig.session.solved.winning = parity
    rig.lift("5", "10")
    rig.place("17")
    assert rig.frame.get("1") == solved.Light(solved.LOST) and "17" not in rig.frame
    assert {"kind": "lost", "text": "5-17 (no win after it)"} in [
        {k: v for k, v in alert.items() if k != "t"} for alert in rig.session.alerts
    ]
    # the command's hint is the table's best move
    start = engine.start("solitaire")
    assert main(["hint", "solitaire"]) == 0
    assert capsys.readouterr().out == f"{list(start.legal_moves)[-1]}\n"
    # the daemon opens it
    said.clear()
    opened = asyncio.run(solved.prepare(start, said.append))
    assert isinstance(opened, Parity) and said == []


def test_analyse_runs_the_game_s_own_analysis(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Toy(Analysis):
        def run(
            self,
            options: Any,
            position: str | None,
            budget: float | None,
            report: Report,
        ) -> list[str]:
            report.say(f"toy from {position} with {dict(options)}")
            return [f"budget: {budget}"]

    monkeypatch.setattr(Solitaire, "analysis", classmethod(lambda cls: Toy(cls)))
    assert main(["analyse", "solitaire", "-o", "start=5"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("budget: None\n", "reedboard: toy from None with {'start': '5'}\n")


def test_the_games_analyse_names_are_the_games_with_the_hook() -> None:
    have = {g for g in engine.game_ids() if engine.game(g).analysis() is not None}
    assert set(ANALYSED) == have and len(ANALYSED) == len(have)
    budgeted = [g for g in ANALYSED if engine.game(g).analysis().budgeted]  # type: ignore[union-attr]
    assert budgeted == ["fox-and-geese-mcloughlin"]
