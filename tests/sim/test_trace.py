"""Reading and replaying traces: every fault is one line naming the file and line; plain
`replay` reports what went wrong replaying on stderr and exits 2; random bytes and mutated
lines give a trace or a TraceError, never anything else."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.hardware.board_io import BUTTONS
from reedboard.sim.trace import Trace, TraceError, read_trace, read_trace_bytes, replay
from reedboard.sim.tracegen import random_game_trace
from reedboard.wiring.layout import layout_for_game

RABBIT = '{"game": "fox-and-rabbit", "occupied": ["a1", "i1"]}'
SOLITAIRE = json.dumps(
    {"game": "solitaire", "occupied": sorted(engine.start("solitaire").occupied())}
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


BAD: list[tuple[str, bytes, str]] = [
    # (id, file's bytes, the error after "FILE:")
    (
        "not-utf8",
        (RABBIT + '\n{"t": 1, "button": "roll"}\n{"t": 2, "butt\xff').encode("latin-1"),
        "3: not UTF-8 (byte 0xff at column 15)",
    ),
    (
        "options-list",
        b'{"game": "fox-and-rabbit", "occupied": [], "options": [1]}\n',
        '1: options: [1] is not an object (like {"players": 4})',
    ),
    (
        "options-value",
        b'{"game": "parchesi", "occupied": [], "options": {"players": {"n": 4}}}',
        '1: options: "players": {"n": 4} is not text, a whole number, true or false, or a list'
        " of them",
    ),
    (
        "options-unknown",
        b'{"game": "parchesi", "occupied": [], "options": {"colour": "red"}}',
        "1: options: parchesi: unknown option 'colour' (options: players)",
    ),
    (
        "options-bad",
        b'{"game": "parchesi", "occupied": [], "options": {"players": true}}',
        "1: options: parchesi: option players='true': invalid literal for int() with base 10:"
        " 'true'",
    ),
    (
        "dice-bool",
        (RABBIT + '\n{"t": 1, "dice": [true, 2]}').encode(),
        "2: dice: [true, 2] is not a list of throws (whole numbers from 1)",
    ),
    (
        "dice-zero",
        (RABBIT + '\n{"t": 1, "dice": [0, 2]}').encode(),
        "2: dice: [0, 2] is not a list of throws (whole numbers from 1)",
    ),
    (
        "dice-float",
        (RABBIT + '\n{"t": 1, "dice": [2.0, 2]}').encode(),
        "2: dice: [2.0, 2] is not a list of throws (whole numbers from 1)",
    ),
    (
        "dice-empty",
        (RABBIT + '\n{"t": 1, "dice": []}').encode(),
        "2: dice: [] is not a list of throws (whole numbers from 1)",
    ),
    (
        "dice-range",
        (RABBIT + '\n{"t": 1, "button": "roll"}\n{"t": 2, "dice": [7, 2]}').encode(),
        "3: dice [7, 2]: fox-and-rabbit throws 2 dice of 1 to 6",
    ),
    (
        "dice-count",
        (RABBIT + '\n{"t": 1, "dice": [1, 2, 3]}').encode(),
        "2: dice [1, 2, 3]: fox-and-rabbit throws 2 dice of 1 to 6",
    ),
    (
        "spin-range",
        b'{"game": "parchesi", "occupied": []}\n{"t": 1, "dice": [13]}',
        "2: dice [13]: parchesi throws one value of 1 to 12",
    ),
    (
        "dice-none",
        (SOLITAIRE + '\n{"t": 1, "dice": [3]}').encode(),
        "2: dice [3], but solitaire throws none",
    ),
    (
        "t-nan",
        (RABBIT + '\n{"t": NaN, "button": "roll"}').encode(),
        "2: not JSON (NaN is no JSON number)",
    ),
    (
        "t-infinity",
        (RABBIT + '\n{"t": Infinity, "button": "roll"}').encode(),
        "2: not JSON (Infinity is no JSON number)",
    ),
    (
        "t-overflow",
        (RABBIT + '\n{"t": 1e999, "button": "roll"}').encode(),
        "2: t=Infinity is not a time from 0 to 1e+09 seconds",
    ),
    (
        "t-huge",
        (RABBIT + '\n{"t": 1e300, "button": "roll"}').encode(),
        "2: t=1e+300 is not a time from 0 to 1e+09 seconds",
    ),
    (
        "t-negative",
        (RABBIT + '\n{"t": -0.5, "button": "roll"}').encode(),
        "2: t=-0.5 is not a time from 0 to 1e+09 seconds",
    ),
    (
        "t-backwards",
        (RABBIT + '\n{"t": 2, "button": "roll"}\n\n{"t": 1.5, "button": "roll"}').encode(),
        "4: t=1.5 goes back in time (the line before is at 2.0)",
    ),
    ("t-bool", (RABBIT + '\n{"t": true, "button": "roll"}').encode(), "2: no time 't' in seconds"),
    ("t-text", (RABBIT + '\n{"t": "1", "button": "roll"}').encode(), "2: no time 't' in seconds"),
    ("t-missing", (RABBIT + '\n{"button": "roll"}').encode(), "2: no time 't' in seconds"),
    (
        "head-list",
        b'["game", "solitaire"]',
        '1: the first line must be {"game": ID, "occupied": [...]}',
    ),
    (
        "head-no-occupied",
        b'{"game": "solitaire"}',
        '1: the first line must be {"game": ID, "occupied": [...]}',
    ),
    (
        "head-extra",
        b'{"game": "solitaire", "occupied": [], "speed": 2}',
        '1: unknown key "speed" in the first line (game, occupied, options)',
    ),
    ("head-game", b'{"game": 7, "occupied": []}', "1: game: 7 is not a game id"),
    (
        "head-occupied",
        b'{"game": "solitaire", "occupied": "1,2"}',
        '1: occupied: "1,2" is not a list of points',
    ),
    (
        "head-occupied-item",
        b'{"game": "solitaire", "occupied": ["1", null]}',
        "1: occupied: null is not a point id",
    ),
    (
        "head-occupied-twice",
        b'{"game": "solitaire", "occupied": ["1", 1]}',
        "1: occupied: point '1' is named twice",
    ),
    (
        "head-off-board",
        b'{"game": "solitaire", "occupied": ["1", "34", "a1"]}',
        "1: occupied: board cross33 has no point a1, 34",
    ),
    ("unknown-game", b'{"game": "chess", "occupied": []}', "1: game: unknown game 'chess'"),
    (
        "table-game",
        b'{"game": "jack-rabbits", "occupied": []}',
        "1: game: jack-rabbits is played at the table: nothing on it is sensed",
    ),
    ("event-list", (RABBIT + "\n[1, 2]").encode(), "2: expected a JSON object, not [1, 2]"),
    (
        "event-kindless",
        (RABBIT + '\n{"t": 1}').encode(),
        "2: expected a point, dice or button line",
    ),
    (
        "event-two-kinds",
        (RABBIT + '\n{"t": 1, "point": "a1", "on": true, "button": "roll"}').encode(),
        "2: one of point, dice or button, not point and button",
    ),
    (
        "event-extra",
        (RABBIT + '\n{"t": 1, "button": "roll", "by": "me"}').encode(),
        '2: unknown key "by" in a button line (t, button)',
    ),
    (
        "point-null",
        (RABBIT + '\n{"t": 1, "point": null, "on": true}').encode(),
        "2: point: null is not a point id",
    ),
    (
        "point-on",
        (RABBIT + '\n{"t": 1, "point": "a1", "on": 1}').encode(),
        '2: a point line needs "on": true or false',
    ),
    (
        "point-off-board",
        (RABBIT + '\n{"t": 1, "point": "j1", "on": true}').encode(),
        "2: board brier9 has no point 'j1'",
    ),
    (
        "button",
        (RABBIT + '\n{"t": 1, "button": "reset"}').encode(),
        '2: no button "reset" (roll, undo, hint, confirm, new)',
    ),
    (
        "u2028",
        (RABBIT + '\n{"t": 1, "button": "ro\u2028ll"}').encode(),
        '2: no button "ro\\u2028ll" (roll, undo, hint, confirm, new)',
    ),
    (
        "not-json",
        (RABBIT + "\n{t: 1}").encode(),
        "2: not JSON (Expecting property name enclosed in double quotes at column 2)",
    ),
    (
        "deep",
        (RABBIT + "\n" + "[" * 100_000 + "]" * 100_000).encode(),
        "2: not JSON a trace can hold (nested too deeply)",
    ),
    (
        "long-int",
        (RABBIT + '\n{"t": 1' + "0" * 5000 + ', "button": "roll"}').encode(),
        "2: not JSON a trace can hold (Exceeds the limit (4300 digits) for integer string"
        " conversion: value has 5001 digits; use sys.set_int_max_str_digits() to increase the"
        " limit)",
    ),
]


@pytest.mark.parametrize(("data", "error"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_trace_is_one_line_naming_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, error: str
) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(data)
    for json_too in ([], ["--json"]):
        code, out, err = run(capsys, "replay", str(path), *json_too)
        assert (code, out) == (2, "")
        assert err.startswith(f"reedboard: error: {path}:{error}") and err.count("\n") == 1


def test_an_empty_trace_and_a_missing_file_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for path, error in [
        (tmp_path / "empty.jsonl", "empty trace (no first line)"),
        (tmp_path / "none.jsonl", "cannot read: No such file or directory"),
        (tmp_path, "cannot read: not a regular file (a folder)"),
    ]:
        if path.name == "empty.jsonl":
            path.write_text("\n  \n")
        code, out, err = run(capsys, "replay", str(path))
        assert (code, out, err) == (2, "", f"reedboard: error: {path}: {error}\n")


def test_replay_as_another_game_checks_the_trace_against_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text(RABBIT + '\n{"t": 1, "dice": [6, 6]}\n')
    code, _, err = run(capsys, "replay", str(path), "--game", "chess")
    assert code == 2 and err.startswith("reedboard: error: --game: unknown game 'chess'")
    code, _, err = run(capsys, "replay", str(path), "--game", "fox-and-geese")
    assert code == 2
    assert err == f"reedboard: error: {path}:1: occupied: board cross33 has no point a1, i1\n"


def test_a_byte_order_mark_and_crlf_lines_are_read(tmp_path: Path) -> None:
    text = RABBIT + '\r\n{"t": 0.1, "dice": [5, 2]}\r\n\r\n{"t": 0.2, "button": "roll"}\r\n'
    path = tmp_path / "trace.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    trace = read_trace_bytes(path.read_bytes(), str(path))
    assert trace.numbers == [2, 4] and trace.where(1) == f"{path}:4"
    assert [a["text"] for a in replay(trace).alerts if a["kind"] == "throw"] == ["dice=5,2"]


def test_options_are_checked_as_the_command_line_checks_them() -> None:
    trace = read_trace(
        '{"game": "fox-and-geese-mcloughlin", "occupied": [], "options": {"empty": [15, 19]}}'
    )
    session = replay(trace)
    assert session.position.option_values() == {"empty": [15, 19]}
    bad = read_trace('{"game": "solitaire", "occupied": [], "options": {"diagonals": 5}}')
    with pytest.raises(TraceError, match=r"^<trace>:1: options: solitaire: option diagonals="):
        replay(bad)


# -- what went wrong replaying: plain replay says it on stderr and exits 2 ------------------


def test_plain_replay_reports_faults_on_stderr_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text(
        RABBIT
        + '\n{"t": 0.5, "button": "roll"}'  # no throw given for it
        + '\n{"t": 1.0, "dice": [5, 2]}'
        + '\n{"t": 1.5, "button": "roll"}'
        + '\n{"t": 2.0, "dice": [3, 3]}\n'  # never rolled
    )
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert out.splitlines() == ["dice=5,2", "WR@a1 RF@i1 turn=WR dice=5,2", "outcome: game goes on"]
    assert err.splitlines() == [
        f"reedboard: error: {path}:2: t=0.500: dice-error: scripted dice: no throw left for"
        " throw 1",
        f"reedboard: error: {path}:5: dice never rolled (1 of 2 throws)",
    ]
    # --json keeps docs/design.md's contract: the one object, the faults among its alerts
    code, out, err = run(capsys, "replay", str(path), "--json")
    result = json.loads(out)
    assert (code, err) == (0, "")
    assert set(result) == {"game", "moves", "position", "outcome", "alerts"}
    assert result["moves"] == ["dice=5,2"]
    assert [a["kind"] for a in result["alerts"]].count("dice-error") == 1


def test_plain_replay_of_a_sound_trace_is_silent_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace, moves = random_game_trace(engine.start("fox-and-rabbit"), random.Random(5), 30)
    path = tmp_path / "game.jsonl"
    path.write_text(trace.to_jsonl())
    code, out, err = run(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines()[: len(moves)] == moves


# -- anything at all: a trace or a TraceError ------------------------------------------------


@cache
def valid_traces() -> tuple[str, ...]:
    """Small real traces: a dice game, a spinner game with options, a jump game."""
    texts = []
    for game, options in [("fox-and-rabbit", {}), ("parchesi", {"players": 3}), ("skip", {})]:
        start = engine.start(game, **options)
        trace, _ = random_game_trace(start, random.Random(game), 6)
        texts.append(trace.to_jsonl())
    return tuple(texts)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["a1", "17", "roll", "fox-and-rabbit", "Ynest", "L5"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
KEYS = st.sampled_from(["t", "point", "on", "dice", "button", "game", "occupied", "options", "x"])


def _mutate(data: st.DataObject, text: str) -> bytes:
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    how = data.draw(
        st.sampled_from(["set", "drop", "replace", "bytes", "swap", "cut", "plausible"]),
        label="how",
    )
    if how == "plausible" and i > 0:  # a line that reads well but tells another story
        line = json.loads(lines[i])
        points = sorted(layout_for_game(json.loads(lines[0])["game"]).points)
        kind = data.draw(st.sampled_from(["t", "point", "dice", "button"]), label="kind")
        if kind == "t":
            line["t"] = data.draw(st.floats(0, 60).map(lambda t: round(t, 3)), label="t")
        else:
            line = {"t": line.get("t", 0)}
            if kind == "point":
                line["point"] = data.draw(st.sampled_from(points), label="point")
                line["on"] = data.draw(st.booleans(), label="on")
            elif kind == "dice":
                dice = st.lists(st.integers(1, 12), min_size=1, max_size=3)
                line["dice"] = data.draw(dice, label="dice")
            else:
                line["button"] = data.draw(st.sampled_from(BUTTONS), label="button")
        lines[i] = json.dumps(line)
    elif how in ("set", "drop"):
        line: dict[str, Any] = json.loads(lines[i])
        key = data.draw(KEYS, label="key")
        if how == "set":
            line[key] = data.draw(JSON, label="value")
        else:
            line.pop(key, None)
        lines[i] = json.dumps(line)
    elif how == "replace":
        lines[i] = json.dumps(data.draw(JSON, label="line"))
    elif how == "swap":
        j = data.draw(st.integers(0, len(lines) - 1), label="other")
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "cut":
        lines = lines[:i]
    raw = "\n".join(lines).encode()
    if how == "bytes":
        at = data.draw(st.integers(0, len(raw)), label="at")
        junk = data.draw(st.binary(max_size=4), label="junk")
        gone = data.draw(st.integers(0, 4), label="gone")
        raw = raw[:at] + junk + raw[at + gone :]
    return raw


def _read_and_replay(raw: bytes) -> None:
    try:
        trace = read_trace_bytes(raw, "t.jsonl")
    except TraceError as exc:
        assert str(exc).startswith("t.jsonl") and "\n" not in str(exc)
        return
    assert isinstance(trace, Trace)
    try:
        replay(trace)
    except TraceError as exc:
        assert str(exc).startswith(("t.jsonl", "--game")) and "\n" not in str(exc)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_trace_reads_and_replays_or_raises_trace_error(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(valid_traces()), label="trace")
    _read_and_replay(_mutate(data, text))


@given(st.binary(max_size=300))
@example(b"\xef\xbb\xbf")
@example(b'{"game": "solitaire", "occupied": []}\n\x00')
@example(b'{"game": "solitaire", "occupied": []}\n{"t": 1, "point": "\\ud800", "on": true}')
def test_random_bytes_read_as_a_trace_or_a_trace_error(data: bytes) -> None:
    _read_and_replay(data)


@given(st.lists(JSON, min_size=1, max_size=4))
def test_random_json_lines_read_as_a_trace_or_a_trace_error(values: list[Any]) -> None:
    head = [{"game": "fox-and-rabbit", "occupied": ["a1"]}]
    _read_and_replay("\n".join(json.dumps(v) for v in head + values).encode())
    _read_and_replay("\n".join(json.dumps(v) for v in values).encode())


def test_a_switch_turned_the_way_it_already_is_is_one_line_naming_it(tmp_path: Path) -> None:
    from reedboard.sim.trace import check_trace

    start = sorted(engine.start("solitaire").occupied())
    for point, on, what in (("17", False, "already off"), (start[0], True, "already on")):
        text = json.dumps({"game": "solitaire", "occupied": start})
        text += "\n" + json.dumps({"t": 0.5, "point": point, "on": on}) + "\n"
        with pytest.raises(TraceError, match=f":2: point {point} is {what}"):
            check_trace(read_trace(text, "t.jsonl"))
