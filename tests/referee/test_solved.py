"""Peg Solitaire solved on the board (reedboard/referee/solved.py, with the winning set's file of
reedboard/engine/solitaire/solved.py): the cache file, `reedboard analyse` and `hint`, the
verdict after each jump, the losing jump named, the daemon's build."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.daemon.config import Config
from reedboard.daemon.core import Daemon
from reedboard.engine.solitaire import solved as winning_file
from reedboard.engine.solitaire import solver as solver
from reedboard.engine.solitaire.solved import WinningTable
from reedboard.engine.solitaire.solver import WinningSet, bits_of, symmetries_keeping
from reedboard.hardware.lights import AMBER
from reedboard.referee import solved
from reedboard.store.games import GameStore
from tests.engine import solitaire_reference as ref
from tests.referee.rig import Rig

START = engine.start("solitaire").to_text()


def write(path: Path, finish: int, levels: Any) -> None:
    """A winning set's levels written to ``path`` as the cache writes it (atomically)."""
    solved.write(path, lambda out: winning_file.write(out, finish, levels))


def load(path: Path, finish: int) -> Any:
    return solved.load(path, WinningTable(finish))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def endgame_levels() -> dict[int, Any]:
    """Finish 17's levels for positions of up to 6 pegs (cheap), as a cache file holds them."""
    return solver.finish_levels(17, down_to=27)


@pytest.fixture
def cached(monkeypatch: pytest.MonkeyPatch, solitaire_cache: Path) -> WinningSet:
    """The whole winning set for 17 in the cache folder the commands read."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(solitaire_cache))
    ws = solved.open_table(WinningTable(17))
    assert ws is not None
    return ws


def lost_jump(ws: WinningSet) -> tuple[Any, Any]:
    """A winnable position a few jumps in, and a jump from it that loses the game."""
    position = engine.start("solitaire")
    while True:
        winning = ws.winning_moves(position)
        losing = [m for m in position.legal_moves if m not in winning]
        if losing:
            return position, losing[0]
        position.push(winning[0])


# -- the file -----------------------------------------------------------------------------------


def test_a_written_set_loads_back_level_for_level(
    tmp_path: Path, endgame_levels: dict[int, Any]
) -> None:
    assert winning_file.HEADER_SIZE == 788  # where level 32's keys begin (the damage tests below)
    path = tmp_path / "sub" / "w.bin"
    write(path, 17, endgame_levels)
    assert [p.name for p in path.parent.iterdir()] == ["w.bin"]  # no temporary file left
    stored = load(path, 17)
    for pegs in winning_file.LEVELS:
        lows, split = stored.levels[pegs]
        want, want_split = endgame_levels.get(pegs, (np.empty(0, np.uint32), 0))
        assert lows.tolist() == want.tolist() and split == want_split


def test_cache_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert solved.cache_path(WinningTable(5)) == tmp_path / "reedboard" / "solitaire-winning-5.bin"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ignored (XDG)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert solved.cache_dir() == tmp_path / "home" / ".cache" / "reedboard"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert solved.cache_dir() == tmp_path / "home" / ".cache" / "reedboard"


@pytest.fixture(scope="module")
def good_file(tmp_path_factory: pytest.TempPathFactory, endgame_levels: dict[int, Any]) -> bytes:
    path = tmp_path_factory.mktemp("good") / "w.bin"
    write(path, 17, endgame_levels)
    return path.read_bytes()


KEYS = solver.KEY_FORMAT
READS = f"{winning_file.FORMAT_VERSION}.{solver.KEY_FORMAT}"


def _header(data: bytes, **fields: int) -> bytes:
    """The file with header fields changed and the header's checksum made right again."""
    magic, version, key, finish, symmetries, pad = struct.unpack_from("<8sHHBBH", data)
    values = {"version": version, "key": key, "finish": finish, "symmetries": symmetries}
    values.update(fields)
    head = struct.pack(
        "<8sHHBBH",
        magic,
        values["version"],
        values["key"],
        values["finish"],
        values["symmetries"],
        pad,
    )
    head += data[len(head) : winning_file.HEADER_SIZE - 4]
    return head + struct.pack("<I", zlib.crc32(head)) + data[winning_file.HEADER_SIZE :]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: None, "not built yet"),
        (lambda d: b"", "not a reedboard winning-set file"),
        (lambda d: b"SQLite format 3\0" + d[16:], "not a reedboard winning-set file"),
        (lambda d: d[:20] + bytes([d[20] ^ 1]) + d[21:], "damaged header (checksum)"),
        (lambda d: d[:-1], "bytes, the header says"),
        (lambda d: d + b"\0\0\0\0", "bytes, the header says"),
        (lambda d: d[:-3] + bytes([d[-3] ^ 0x40]) + d[-2:], "level 27 is damaged (checksum)"),
        (lambda d: d[:788] + bytes([d[788] ^ 1]) + d[789:], "level 32 is damaged (checksum)"),
        (lambda d: d[:900] + bytes([d[900] ^ 1]) + d[901:], "level 28 is damaged (checksum)"),
        (lambda d: _header(d, version=1), f"format 1.{KEYS}, this reedboard reads {READS}"),
        (
            lambda d: _header(d, key=9),
            f"format {winning_file.FORMAT_VERSION}.9, this reedboard reads",
        ),
        (lambda d: _header(d, finish=5), "holds finish 5, not 17"),
        (
            lambda d: _header(d[:16] + bytes(winning_file.HEADER_SIZE - 16)),
            "holds no positions",
        ),
    ],
)
def test_a_file_that_cannot_be_used_is_named_with_what_is_wrong(
    tmp_path: Path, good_file: bytes, change: Any, why: str
) -> None:
    path = tmp_path / "w.bin"
    data = change(good_file)
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(solved.CacheError) as caught:
        load(path, 17)
    assert str(caught.value).startswith(f"{path}: ") and why in str(caught.value)


@given(st.data())
def test_any_byte_changed_or_cut_is_caught(
    tmp_path_factory: pytest.TempPathFactory, good_file: bytes, data: st.DataObject
) -> None:
    """Every byte is under a checksum or checked against the header: none can change, and
    no cut is taken for a shorter set."""
    path = tmp_path_factory.mktemp("bytes") / "w.bin"
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(good_file) - 1))
        flip = data.draw(st.integers(1, 255))
        path.write_bytes(good_file[:at] + bytes([good_file[at] ^ flip]) + good_file[at + 1 :])
    else:
        path.write_bytes(good_file[: data.draw(st.integers(0, len(good_file) - 1))])
    with pytest.raises(solved.CacheError):
        load(path, 17)


def test_a_file_of_another_finishs_levels_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    write(path, 17, solver.finish_levels(16, down_to=30))  # labelled 17, 16's inside
    with pytest.raises(solved.CacheError, match="does not begin with the start with 17 empty"):
        load(path, 17)


def test_levels_out_of_order_are_refused(tmp_path: Path, endgame_levels: Any) -> None:
    with pytest.raises(ValueError, match="level 28 out of order"):
        write(tmp_path / "w.bin", 17, iter(sorted(endgame_levels.items())))
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_file_and_no_litter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, good_file: bytes, endgame_levels: Any
) -> None:
    path = tmp_path / "w.bin"
    path.write_bytes(b"old")

    def refuse(*_a: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(solved.os, "replace", refuse)
    with pytest.raises(OSError, match="No space"):
        write(path, 17, endgame_levels)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["w.bin"]


@pytest.mark.parametrize("damage", ["missing", "corrupt", "old-version", "good"])
def test_the_set_is_built_again_only_when_the_file_cannot_be_used(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    good_file: bytes,
    endgame_levels: dict[int, Any],
    damage: str,
) -> None:
    built: list[int] = []

    def finish_levels(finish: int, progress: Any) -> Any:
        built.append(finish)
        return iter(sorted(endgame_levels.items(), reverse=True))

    monkeypatch.setattr(solver, "iter_finish_levels", finish_levels)
    path = solved.cache_path(WinningTable(17), tmp_path)
    if damage == "corrupt":
        path.write_bytes(good_file[:-5] + bytes([good_file[-5] ^ 0xFF]) + good_file[-4:])
    elif damage == "old-version":
        path.write_bytes(_header(good_file, version=1))
    elif damage == "good":
        path.write_bytes(good_file)
    said: list[str] = []
    ws = solved.open_table(WinningTable(17), tmp_path, build_missing=True, say=said.append)
    assert ws is not None
    assert built == ([] if damage == "good" else [17])
    if damage != "good":
        assert said and said[0].startswith("building the solitaire winning set for finish 17")
    assert path.read_bytes() == good_file  # what was built is what loads
    # a few pegs: the set answers as a plain search does
    for holes in ([17], [16, 15], [10, 17, 24], [5, 17]):
        x = bits_of(holes)
        assert ws.can_win_boards([x]) == [ref.can_finish(x, 17)]
    assert solved.open_table(WinningTable(17), tmp_path / "none") is None  # not built, not asked to


# -- progress ----------------------------------------------------------------------------------


def test_progress_is_a_bar_on_a_terminal_and_lines_otherwise() -> None:
    tty = io.StringIO()
    bar = solved.ProgressPrinter(tty, [("reachable", 1.0)], tty=True)
    for pegs in (32, 16, 1):
        bar("reachable", pegs, 1234)
    bar.done()
    text = tty.getvalue()
    assert text.count("\r[") == 3 and text.endswith("\n") and text.count("\n") == 1
    assert "100%" in text.splitlines()[-1].split("\r")[-1]
    plain = io.StringIO()
    lines = solved.ProgressPrinter(plain, [("reachable", 1.0)], tty=False)
    lines("reachable", 16, 3312423)
    lines("reachable", 1, 2)
    lines.done()
    got = plain.getvalue().splitlines()
    assert [g.split(" (")[0] for g in got] == [
        "reachable: 16 pegs, 3,312,423 positions",
        "reachable: 1 peg, 2 positions",
    ]
    assert "\r" not in plain.getvalue()


# -- reedboard analyse -----------------------------------------------------------------------------


@given(st.sets(st.sampled_from(list(range(1, 34))), min_size=1, max_size=9))
def test_analyse_from_a_position_prints_the_four_counts(holes: set[int]) -> None:
    x = bits_of(holes)
    text = "".join("o" if h in holes else "." for h in range(1, 34)) + " -"
    out_buf, err_buf = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out_buf), contextlib.redirect_stderr(err_buf):
        code = main(["analyse", "solitaire", "--position", text])
    out, err = out_buf.getvalue(), err_buf.getvalue()
    want = ref.counts(x, 17, symmetries_keeping(x, 17))
    assert code == 0
    assert out.splitlines() == [
        f"reachable: {want.reachable}",
        f"winning: {want.winning}",
        f"solutions: {want.solutions}",
        f"sequences: {want.sequences}",
    ]
    assert "reachable:" in err  # progress on stderr, plain lines (not a terminal)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["fox-and-geese"],
            "analyse: solves solitaire and fox-and-geese-mcloughlin, not fox-and-geese",
        ),
        (["chess"], "unknown game 'chess'"),
        (["solitaire", "-o", "start=40"], "solitaire: start: there is no hole 40 (1-33)"),
        (["solitaire", "-o", "finish=0"], "solitaire: finish: there is no hole 0 (1-33)"),
        (["solitaire", "-o", "colour=red"], "solitaire: unknown option 'colour'"),
        (["solitaire", "-o", "start"], "bad --option 'start': write it as KEY=VALUE"),
        (
            ["solitaire", "-o", "diagonals=all"],
            "analyse: the Peg Solitaire solver plays orthogonal jumps only (diagonals=none),"
            " not diagonals=all",
        ),
        (["solitaire", "--position", "." * 33 + " -"], "no peg on the board"),
        (["solitaire", "--position", "o" * 32 + " -"], "bad solitaire position"),
    ],
)
def test_analyse_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "analyse", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("reedboard: error: ") and message in err and err.count("\n") == 1


def test_without_numpy_analyse_and_hint_name_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver, "np", None)
    for argv in (["analyse", "solitaire"], ["hint", "solitaire"]):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err == (
            "reedboard: error: the Peg Solitaire solver needs numpy:"
            " .venv/bin/pip install -e '.[solver]'\n"
        )


# -- reedboard hint ----------------------------------------------------------------------------


def test_hint_prints_a_jump_that_keeps_the_game_winnable_or_none(
    capsys: pytest.CaptureFixture[str], cached: WinningSet
) -> None:
    position = engine.start("solitaire")
    texts = []
    while not position.is_over():  # a whole game, by the command's hints alone
        code, out, err = run(capsys, "hint", "solitaire", "--position", position.to_text())
        assert (code, err) == (0, "")
        texts.append(out.strip())
        position.push_text(out.strip())
    assert position.holes_of("o") == [17] and len(texts) == 31
    lost, jump = lost_jump(cached)
    lost.push(jump)
    code, out, _ = run(capsys, "hint", "solitaire", "--position", lost.to_text())
    assert (code, out) == (0, "none\n")


def test_hint_builds_a_missing_set_once_and_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Another finish, computed on demand (here only its end-game levels, to be quick)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    real = solver.iter_finish_levels
    built: list[int] = []

    def finish_levels(finish: int, progress: Any) -> Any:
        built.append(finish)
        return real(finish, progress, down_to=27)

    monkeypatch.setattr(solver, "iter_finish_levels", finish_levels)
    text = "." * 9 + "o" + "." * 6 + "o" + "." * 16 + " -"  # pegs on 10 and 17: 17-5 wins
    position = engine.from_text("solitaire", text, start=5)
    code, out, err = run(capsys, "hint", "solitaire", "-o", "start=5", "--position", text)
    assert code == 0
    assert built == [5]
    assert "building the solitaire winning set for finish 5 (once)" in err
    assert "not built yet" in err
    wins = ref.can_finish(bits_of(position.holes_of("o")), 5)
    assert wins and out == "17-5\n"
    code, again, err = run(capsys, "hint", "solitaire", "-o", "start=5", "--position", text)
    assert (code, again, err, built) == (0, out, "", [5])
    assert (tmp_path / "reedboard" / "solitaire-winning-5.bin").exists()


# -- on the board ---------------------------------------------------------------------------------


def test_after_each_jump_the_finish_hole_shows_whether_the_game_can_be_won(
    cached: WinningSet,
) -> None:
    rig = Rig("solitaire")
    rig.session.solved.winning = cached
    rig.lift("5", "10")
    rig.place("17")  # 5-17: still winnable
    assert rig.moves == ["5-17"]
    assert rig.frame.get("17") == solved.Light(solved.WINNABLE)
    rig.wait(solved.PULSE_SECONDS)
    assert "17" not in rig.frame  # the pulse is brief


def test_a_losing_jump_is_named_and_the_finish_hole_says_so(cached: WinningSet) -> None:
    before, jump = lost_jump(cached)
    rig = Rig("solitaire", before.to_text())
    rig.session.solved.winning = cached
    a, b = jump.path
    over = before.board.over[(a, b)]
    rig.lift(str(a), str(over))
    rig.place(str(b))
    assert rig.moves == [str(jump)]
    assert {"kind": "lost", "text": f"{jump} (no win after it)"} in [
        {k: v for k, v in alert.items() if k != "t"} for alert in rig.session.alerts
    ]
    assert rig.frame.get("17") == solved.Light(solved.LOST)
    assert solved.LOST not in (solved.WINNABLE, AMBER)
    rig.press("hint")  # lost: nothing to show
    assert rig.session.alerts[-1]["text"] == "none" and not rig.lit(AMBER)


def test_hint_lights_a_winning_jumps_from_over_and_to(cached: WinningSet) -> None:
    before, _ = lost_jump(cached)
    rig = Rig("solitaire", before.to_text())
    rig.session.solved.winning = cached
    rig.press("hint")
    text = rig.session.alerts[-1]["text"]
    move = before.parse_move(text)
    assert move in cached.winning_moves(before)
    a, b = move.path
    assert rig.lit(AMBER) == {str(a), str(before.board.over[(a, b)]), str(b)}


def test_no_verdict_without_the_set_or_for_another_finish(cached: WinningSet) -> None:
    rig = Rig("solitaire")  # the daemon gives the set; a session alone has none
    rig.lift("5", "10")
    rig.place("17")
    assert "17" not in rig.frame
    other = Rig("solitaire", options={"start": 5})
    other.session.solved.winning = cached  # finish 17's set: not this game's
    assert other.session.solved.usable(other.session.position) is None


def test_history_names_the_jump_that_lost_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cached: WinningSet
) -> None:
    before, jump = lost_jump(cached)
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    game = store.new_game("solitaire", {}, START)
    moves = [str(m) for m in before.move_stack] + [str(jump)]
    after = before.copy()
    after.push(jump)
    moves += [str(m) for m in list(after.legal_moves)[:1]]  # and one more, already lost
    for ply, text in enumerate(moves):
        store.add_move(game, ply, text)
    store.close()
    code, out, _ = run(capsys, "history", str(game), "--database", str(db))
    assert code == 0
    marked = [line for line in out.splitlines() if "#" in line and line[0].isdigit()]
    assert marked == [f"{len(before.move_stack) + 1}. {jump}  # lost: no win after it"]


# -- the daemon ---------------------------------------------------------------------------------


@pytest.fixture
def solver_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(solved.SOLVER_ENV, "on")


def test_the_daemon_opens_the_cached_set(
    tmp_path: Path, cached: WinningSet, solver_on: None
) -> None:
    said: list[str] = []
    daemon = Daemon(Config(game="solitaire", database=tmp_path / "g.db"), out=said.append)

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        deadline = time.monotonic() + 10
        while daemon.session.solved.winning is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        daemon.stop.set()
        await asyncio.wait_for(task, 5)

    asyncio.run(scenario())
    assert daemon.session.solved.winning is not None
    assert "solver: solitaire winning set for finish 17 open: hints are proofs" in said
    assert not any("building" in s for s in said)


def test_the_daemon_builds_a_missing_set_in_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solitaire_cache: Path, solver_on: None
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    source = solved.cache_path(WinningTable(17), solitaire_cache / "reedboard")
    builder = (  # stands in for `python -m reedboard.referee.solved build`: copies a built file
        "import os, shutil, sys; folder = sys.argv[sys.argv.index('--folder') + 1];"
        " os.makedirs(folder); shutil.copy(sys.argv[1], folder)"
    )
    monkeypatch.setattr(solved, "BUILD_COMMAND", [sys.executable, "-c", builder, str(source)])
    said: list[str] = []
    position = engine.start("solitaire")
    ws = asyncio.run(solved.prepare(position, said.append))
    assert ws is not None and ws.hint(position) is not None
    assert said[0].startswith("building the solitaire winning set (once, ~")
    assert said[0].endswith("solitaire-winning-17.bin: not built yet")
    assert said[1].startswith("solitaire winning set built in ")


def test_a_failed_build_is_said_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solver_on: None
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fail = "import sys; print('reedboard: error: no room', file=sys.stderr); sys.exit(2)"
    monkeypatch.setattr(solved, "BUILD_COMMAND", [sys.executable, "-c", fail])
    said: list[str] = []
    assert asyncio.run(solved.prepare(engine.start("solitaire"), said.append)) is None
    assert said[-1] == "building the solitaire winning set failed: reedboard: error: no room"


def test_a_build_stops_with_the_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, solver_on: None
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    pid_file = tmp_path / "pid"
    slow = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    monkeypatch.setattr(solved, "BUILD_COMMAND", [sys.executable, "-c", slow])

    async def scenario() -> None:
        task = asyncio.create_task(solved.prepare(engine.start("solitaire"), lambda _t: None))
        deadline = time.monotonic() + 10
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)

    asyncio.run(scenario())
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone (and reaped)


def test_the_daemon_leaves_the_set_alone_where_it_does_not_apply(
    monkeypatch: pytest.MonkeyPatch, solver_on: None
) -> None:
    said: list[str] = []
    for position in (
        engine.start("fox-and-geese"),
        engine.start("solitaire", diagonals="all"),
    ):
        assert asyncio.run(solved.prepare(position, said.append)) is None
    monkeypatch.setenv(solved.SOLVER_ENV, "off")
    assert asyncio.run(solved.prepare(engine.start("solitaire"), said.append)) is None
    assert said == []


def test_the_build_command_writes_the_set_and_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    endgame_levels: dict[int, Any],
) -> None:
    real = solver.iter_finish_levels
    monkeypatch.setattr(
        solver, "iter_finish_levels", lambda finish, progress: iter(endgame_levels.items())
    )
    monkeypatch.setattr(solved.os, "nice", lambda _n: 0)
    assert solved.main(["build", "solitaire", "--folder", str(tmp_path)]) == 0
    out, _ = capsys.readouterr()
    assert out == f"{tmp_path / 'solitaire-winning-17.bin'}\n"
    load(tmp_path / "solitaire-winning-17.bin", 17)
    monkeypatch.setattr(solver, "iter_finish_levels", real)
    build = ["build", "solitaire", "--options", '{"finish": 40}', "--folder", str(tmp_path)]
    assert solved.main(build) == 2
    _, err = capsys.readouterr()
    assert err == "reedboard: error: solitaire: finish: there is no hole 40 (1-33)\n"


def test_the_build_estimate_is_a_time() -> None:
    seconds = WinningTable(17).estimate_seconds()
    assert 0 < seconds < 3600


def test_hint_with_a_cache_folder_that_cannot_be_made_is_the_bounded_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from reedboard.cli.main import main

    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("REEDBOARD_SOLITAIRE_SOLVER", raising=False)
    assert main(["hint", "solitaire"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() in {str(m) for m in engine.start("solitaire").legal_moves}
    assert "a bounded search instead" in err and "Errno" not in err
