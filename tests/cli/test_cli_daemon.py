"""The daemon-side commands: run's config, replay, history, hint, demo."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reedboard import engine
from reedboard.cli.main import main
from reedboard.daemon.config import load_config
from reedboard.sim.tracegen import random_game_trace
from reedboard.store.games import GameStore
from reedboard.wiring.tomlfile import WiringError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json_prints_one_object_as_design_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace, moves = random_game_trace(engine.start("fox-and-geese"), random.Random(3), 30)
    path = tmp_path / "game.jsonl"
    path.write_text(trace.to_jsonl())
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"game", "moves", "position", "outcome", "alerts"}
    assert result["game"] == "fox-and-geese" and result["moves"] == moves
    position = engine.start("fox-and-geese")
    for m in moves:
        position.push_text(m)
    assert result["position"] == position.to_text()


def test_replay_of_a_bad_trace_names_the_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "solitaire", "occupied": []}\n{"t": 1, "point": "5"}\n')
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert err == f'reedboard: error: {path}:2: a point line needs "on": true or false\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "chess"', "game: unknown game 'chess'"),
        (
            'game = "solitaire"\n[options]\nstart = 40',
            "options: solitaire: start: there is no hole 40",
        ),
        (
            'game = "solitaire"\n[timing]\nsettle_ms = -1',
            "timing.settle_ms: -1.0 is outside 0-5000",
        ),
        ('game = "solitaire"\ncolour = 1', "colour: unknown key"),
        (
            'game = "solitaire"\ndatabase = "~nosuchuser9/g.sqlite3"',
            "database: '~nosuchuser9/g.sqlite3': no such home folder",
        ),
    ],
)
def test_config_mistakes_name_file_line_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(text + "\n")
    with pytest.raises(WiringError, match=message) as err:
        load_config(path)
    assert str(err.value).startswith(str(path) + ":")


def test_config_defaults_and_values(tmp_path: Path) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text('game = "fox-and-rabbit"\ndatabase = "/tmp/x.db"\n[dice]\nseed = 7\n')
    config = load_config(path)
    assert (config.game, config.dice_seed, config.settle, config.grace) == (
        "fox-and-rabbit",
        7,
        0.06,
        2.0,
    )


def test_run_refuses_a_build_whose_board_does_not_play_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(
        f'game = "fox-and-rabbit"\nbuild = "pi-cross33"\ndatabase = "{tmp_path}/g.db"\n'
    )
    code, _, err = run(capsys, "run", "--config", str(path))
    assert code == 2
    assert "build pi-cross33 is a cross33 board, which does not play fox-and-rabbit" in err


def test_history_lists_games_and_exports_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    game = store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    store.add_move(game, 0, "5-17")
    store.add_move(game, 1, "12-10")
    store.close()
    code, out, _ = run(capsys, "history", "--database", str(db))
    assert code == 0 and out == "1\tsolitaire\t2 moves\tplaying\n"
    code, out, _ = run(capsys, "history", "1", "--database", str(db))
    assert out.splitlines() == [
        "# game 1: solitaire",
        "# start: oooooooooooooooo.oooooooooooooooo -",
        "1. 5-17",
        "2. 12-10",
        "# outcome: playing",
    ]
    code, _, err = run(capsys, "history", "9", "--database", str(db))
    assert code == 2 and "no game 9" in err


def test_history_without_a_store_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "history", "--database", str(tmp_path / "none.db"))
    assert code == 2 and "no game store yet" in err


def test_hint_prints_a_legal_move_or_none(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, solitaire_cache: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(solitaire_cache))  # Solitaire's winning set
    _, out, _ = run(
        capsys, "hint", "solitaire", "--position", "oooooooooooooooo.oooooooooooooooo -"
    )
    assert (
        engine.start("solitaire").parse_move(out.strip()) in engine.start("solitaire").legal_moves
    )
    _, out, _ = run(capsys, "hint", "solitaire", "--position", "o" + "." * 32 + " -")
    assert out == "none\n"


def test_demo_plays_the_seed_key_through_the_whole_stack(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from reedboard.cli.demo import demo

    said: list[str] = []
    session = demo("solitaire", speed=1e9, colour=False, out=said.append, sleep=lambda _s: None)
    assert len(session.position.move_stack) == 31
    assert said[-1] == "31 moves; player wins (solved, one peg left, on 17)"
    assert sum(1 for s in said if s.startswith("[") and "move:" in s) == 31


@pytest.mark.parametrize("game", ["skip", "parchesi", "messenger-boy", "jack-rabbits"])
def test_hints_for_the_other_games_are_legal_and_take_when_they_can(game: str) -> None:
    from reedboard.referee.hints import suggest

    rng = random.Random(game)
    p = engine.start(game)
    for _ in range(80):
        if p.is_over():
            break
        if p.is_chance():
            outcomes = p.chance_outcomes()
            p.push(rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0])
            continue
        hint = suggest(p, level=2)  # a quick level: the search is the same at every level
        assert hint in p.legal_moves
        p.push(hint)
    skip = engine.from_text(
        "skip", "..b...../.bb.b.../......../...b..../..r...../......../.rr.r.../r....... r"
    )
    assert "x" in str(suggest(skip))  # a capture when there is one


def test_a_relative_orders_file_in_the_config_is_beside_it(tmp_path: Path) -> None:
    (tmp_path / "orders.toml").write_text('[squares]\n"5" = { kind = "lose-turn" }\n')
    path = tmp_path / "reedboard.toml"
    path.write_text('game = "messenger-boy"\n[options]\norders = "orders.toml"\n')
    assert load_config(path).options["orders"] == str(tmp_path / "orders.toml")


@pytest.mark.parametrize("game", [g for g in engine.game_ids() if engine.game(g).sensed])
def test_the_demo_plays_every_sensed_game(game: str) -> None:
    from reedboard.cli.demo import demo

    said: list[str] = []
    session = demo(game, plies=20, speed=1e9, colour=False, out=said.append, sleep=lambda _s: None)
    assert session.position.move_stack
    assert said[-1].startswith(f"{len(session.position.move_stack)} moves")
    assert not [a for a in session.alerts if a["kind"] in ("mismatch", "error")]


def test_the_demo_refuses_a_table_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--game", "jack-rabbits"]) == 2
    assert "played at the table" in capsys.readouterr().err


NESTS = "Y1@Ynest Y2@Ynest Y3@Ynest Y4@Ynest R1@Rnest R2@Rnest R3@Rnest R4@Rnest"


@pytest.mark.parametrize(
    ("game", "position", "amber"),
    [
        ("messenger-boy", "R@- B@- turn=R", {"A1"}),
        ("parchesi", NESTS + " turn=Y spin=5", {"Ynest", "L4"}),
    ],
)
def test_the_daemon_lights_a_hint_for_a_man_who_must_enter(
    tmp_path: Path, game: str, position: str, amber: set[str]
) -> None:
    import asyncio

    from reedboard.daemon.config import Config
    from reedboard.daemon.core import Daemon
    from reedboard.hardware.lights import AMBER

    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    store.new_game(game, {}, position)  # the daemon resumes it
    store.close()
    said: list[str] = []
    daemon = Daemon(Config(game=game, database=db, settle=0.01), out=said.append)
    board = daemon.board

    async def said_a(prefix: str, task: asyncio.Task[None]) -> None:
        while not any(s.startswith(prefix) for s in said) and not task.done():
            await asyncio.sleep(0.01)

    async def scenario() -> set[str]:
        task = asyncio.create_task(daemon.run())
        async with asyncio.timeout(5):
            await said_a("resumed:", task)
            daemon.command("press hint")
            await said_a("hint:", task)  # said and shown in one step of the daemon's loop
        assert not task.done(), task.exception()  # the daemon lives on
        frame = board.frame  # type: ignore[attr-defined]
        daemon.stop.set()
        await asyncio.wait_for(task, 5)
        return {p for p, light in frame.items() if light.colour == AMBER}

    assert asyncio.run(scenario()) == amber
