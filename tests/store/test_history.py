"""Each kind of game resumes its own unfinished game; `reedboard history` lists and exports
the store in plain words, and every bad game number is one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.store.games import GameStore
from tests.referee.rig import Rig


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_each_kind_resumes_its_own_unfinished_game(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    fox = Rig("fox-and-geese", store=GameStore(path))
    fox.move("9", "4")
    solitaire = Rig("solitaire", store=GameStore(path))  # another kind: a game of its own
    assert solitaire.kinds()[0] == "new-game"
    solitaire.lift("5", "10")
    solitaire.place("17")  # 5-17, the seed key's first jump
    assert solitaire.moves == ["5-17"]
    again = Rig("fox-and-geese", store=GameStore(path), occupied=fox.session.position.occupied())
    assert again.kinds()[0] == "resumed" and again.moves == ["9-4"]
    back = Rig("solitaire", store=GameStore(path), occupied=solitaire.session.position.occupied())
    assert back.kinds()[0] == "resumed" and back.moves == ["5-17"]
    store = GameStore(path)
    assert [(g.game, g.status) for g in store.games()] == [
        ("fox-and-geese", "playing"),
        ("solitaire", "playing"),
    ]
    store.close()


def test_the_daemon_sets_the_simulated_board_as_its_kinds_game_left_it(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    game = store.new_game("fox-and-geese", {}, engine.start("fox-and-geese").to_text())
    store.add_move(game, 0, "9-4")
    store.new_game("solitaire", {}, engine.start("solitaire").to_text())  # started later
    store.close()
    daemon = Daemon(Config(game="fox-and-geese", database=db), out=lambda _text: None)
    try:
        played = engine.start("fox-and-geese")
        played.push_text("9-4")
        assert daemon.board.snapshot() == played.occupied()
    finally:
        daemon.store.close()


def test_history_shows_plain_status_never_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    won = store.new_game("fox-and-geese", {}, engine.start("fox-and-geese").to_text())
    store.add_move(won, 0, "9-4")
    store.end_game(won, {"winner": "fox", "reason": "geese-blocked"})
    store.new_game("solitaire", {"start": 5}, engine.start("solitaire", start=5).to_text())
    left = store.new_game("skip", {}, engine.start("skip").to_text())
    store.new_game("skip", {}, engine.start("skip").to_text())  # abandons the one before
    store.close()
    code, out, err = run(capsys, "history", "--database", str(db))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "1\tfox-and-geese\t1 move\twon by fox (geese-blocked)",
        "2\tsolitaire\t0 moves\tplaying",
        f"{left}\tskip\t0 moves\tabandoned",
        "4\tskip\t0 moves\tplaying",
    ]
    code, out, _ = run(capsys, "history", "1", "--database", str(db))
    assert out.splitlines()[-1] == "# outcome: won by fox (geese-blocked)"
    code, out, _ = run(capsys, "history", "2", "--database", str(db))
    assert out.splitlines()[1] == '# options: {"start": 5}'


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("99999999999999999999999", "{db}: no game 99999999999999999999999"),
        ("9223372036854775808", "{db}: no game 9223372036854775808"),
        ("9223372036854775807", "{db}: no game 9223372036854775807"),
        ("0", "{db}: no game 0"),
        ("2", "{db}: no game 2"),
        ("-1", "history: '-1' is not a game number (see `reedboard history`)"),
        ("abc", "history: 'abc' is not a game number (see `reedboard history`)"),
        ("1.0", "history: '1.0' is not a game number (see `reedboard history`)"),
        ("\u0661", "history: '\u0661' is not a game number (see `reedboard history`)"),
        ("", "history: '' is not a game number (see `reedboard history`)"),
    ],
)
def test_a_bad_game_number_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, number: str, message: str
) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    store.close()
    code, out, err = run(capsys, "history", number, "--database", str(db))
    assert (code, out) == (2, "")
    assert err == "reedboard: error: " + message.format(db=db) + "\n"


def _history(db: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "history", *argv, "--database", str(db))
    if code == 0:
        assert err == "" and out.startswith("# game 1: solitaire\n")
    else:
        assert code == 2 and out == "" and err.startswith("reedboard: error: ")
        assert err.count("\n") == 1


def test_any_game_argument_gives_the_game_or_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    store.close()

    @given(
        st.text(st.characters(exclude_categories=["Cs"]), max_size=30).filter(
            lambda t: not t.startswith("-") or t.lstrip("-").isdigit()
        )
    )
    def check(text: str) -> None:
        _history(db, [text], capsys)

    check()


def test_history_of_what_is_not_a_store_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    for path, says in [
        (tmp_path / "notes.txt", "not a reedboard game store (not an SQLite database)"),
        (tmp_path, "is a folder, not a game store file"),
        (tmp_path / "none.db", "no game store yet (games are stored once played)"),
    ]:
        code, out, err = run(capsys, "history", "--database", str(path))
        assert (code, out, err) == (2, "", f"reedboard: error: {path}: {says}\n")
    assert (tmp_path / "notes.txt").read_text() == "hello\n"
