"""Bad inputs through every command: each answer is exit 0, or exit 2 with one line
``reedboard: error: ...`` on stderr; never a traceback, a hang, another exit code, or any other
error output.

Hypothesis builds each command's arguments from the command's own grammar (its positionals
and options), putting in each place a good value, a bad value of one of the kinds below, or
nothing, and now and then a word too many or an option left without its value. Files given to
commands (configs, builds, traces, stores, orders) are bad in the ways FILE_KINDS lists. The
CLI runs in-process (``reedboard.cli.main.main`` with its output captured, under a watchdog), and
a few command lines through a real process.

How many kinds of bad input it covers: ``len(ALL_KINDS)``; docs/cli.md states the number (in a
block scripts/docs.py writes from this module), and ``test_the_docs_state_how_many_kinds``
keeps the two equal.

Places other work owned (Jack Rabbits' arguments, positions, traces, the store, orders files)
were marked ``xfail(strict=False)`` until that work was merged; all of it is merged, and nothing
is marked now.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.wiring.build import load_build

ROOT = Path(__file__).resolve().parents[2]
WATCHDOG_SECONDS = 30
"""An in-process command taking longer than this has hung."""


# -- the kinds of bad input ------------------------------------------------------------------


def _safe(text: str) -> bool:
    """Argument text the sweep may pass: no NUL (argv cannot hold one), and nothing that
    names a place outside the sweep's own folder (no ``/``, no leading ``~``)."""
    return "\0" not in text and "/" not in text and not text.startswith("~")


_text = st.text(max_size=30).filter(_safe)

VALUE_KINDS: dict[str, st.SearchStrategy[str]] = {
    "random text": _text,
    "empty text": st.just(""),
    "blank text": st.sampled_from([" ", "\t", "  ", "\n", " x "]),
    "control and odd characters": st.text(
        alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs", "So", "Mn"]),
        min_size=1,
        max_size=10,
    ).filter(_safe),
    "very long text": st.text(min_size=1000, max_size=3000).filter(_safe),
    "option-like word": st.sampled_from(["-", "--", "-x", "--nope", "-1x", "---", "-o="]),
    "negative number": st.integers(max_value=-1).map(str),
    "zero": st.sampled_from(["0", "-0", "0.0", "00"]),
    "huge number": st.integers(min_value=2**63).map(str),
    "number too long to read": st.integers(min_value=4301, max_value=6000).map(lambda n: "9" * n),
    "fraction": st.floats(allow_nan=False, allow_infinity=False).map(repr),
    "nan": st.sampled_from(["nan", "NaN", "-nan"]),
    "infinity": st.sampled_from(["inf", "-inf", "Infinity", "1e400", "-1e400"]),
    "tiny number": st.sampled_from(["1e-300", "5e-324", "-1e-300"]),
    "number with words": st.sampled_from(["1_000", " 7 ", "0x10", "1e3", "\u0663", "\uff13"]),
    "list of numbers": st.lists(st.integers(-9, 99), max_size=4).map(
        lambda v: ",".join(map(str, v))
    ),
    "game-like word": st.sampled_from(
        ["chess", "Solitaire", "fox-and-geese ", "jack-rabbits", "skip-2", "", "fox"]
    ),
}
"""Bad values put where an argument goes."""

STRUCTURE_KINDS = (
    "a required argument missing",
    "a word too many",
    "an option without its value",
    "an option given twice",
)
"""Bad shapes of a whole command line."""


def _bad_bytes(draw: st.DrawFn) -> bytes:
    return draw(st.binary(max_size=300))


FILE_KINDS: dict[str, Callable[[st.DrawFn, str], bytes | None]] = {
    "a file that is not there": lambda draw, kind: None,
    "a folder": lambda draw, kind: b"<folder>",
    "an empty file": lambda draw, kind: b"",
    "random bytes": lambda draw, kind: _bad_bytes(draw),
    "text that is not UTF-8": lambda draw, kind: b'game = "\xff\xfe"\n\x80\x81',
    "a good file cut short": lambda draw, kind: GOOD[kind][: draw(st.integers(1, 40))],
    "a good file with one byte changed": lambda draw, kind: _flip(draw, GOOD[kind]),
    "a good file with a bad line added": lambda draw, kind: (
        GOOD[kind] + draw(st.sampled_from(BAD_LINES[kind]))
    ),
    "another program's SQLite database": lambda draw, kind: b"<sqlite>",
    "a FIFO (read, it would wait for ever)": lambda draw, kind: b"<fifo>",
    "a device that never ends (/dev/zero)": lambda draw, kind: b"<zero>",
    "tables nested 3,000 deep": lambda draw, kind: b"a = " + b"{b = " * 3000 + b"1" + b"}" * 3000,
}
"""Bad files given to commands that read them."""

BAD_LINES: dict[str, list[bytes]] = {
    "config": [
        b"x = 1\n",
        b"[nope]\n",
        b"game = 5\n",
        b"[timing]\nsettle_ms = nan\n",
        b"[timing]\ngrace_ms = inf\n",
        b"[timing]\nhold_ms = -1\n",
        b"[dice]\nseed = 1.5\n",
        b"[dice]\nseed = 99999999999999999999\n",
        b'build = "no-such.toml"\n',
        b'build = "~/nothing"\n',
        b'database = "~"\n',
        b'database = ""\n',
        b"options = 3\n",
        b'[options]\nstart = "nan"\n',
        b"[options]\nstart = [1, 2]\n",
        b"[[",
        b"\x00\x00",
    ],
    "build": [
        b'\n[serial]\nport = ""\n',
        b"\n[serial]\nport = 5\n",
        b'\n[serial]\nport = "~"\n',
        b'\nlayout = "nothing.toml"\n',
        b"\n[matrix]\nscan_hz = nan\n",
        b"\n[leds]\nbrightness = inf\n",
        b"\n[pi]\ninterfaces = [1]\n",
        b"[[",
    ],
    "trace": [
        b'{"t": NaN, "point": "5", "on": true}\n',
        b'{"t": 0.1, "point": "5", "on": true}\n',
        b'{"t": 1e400, "point": "5", "on": true}\n',
        b'{"t": 2, "point": 5, "on": 1}\n',
        b'{"t": 2, "point": "99", "on": true}\n',
        b'{"t": 2, "dice": [true, 2]}\n',
        b'{"t": 2, "dice": [0, 99]}\n',
        b'{"t": 2, "dice": "5,2"}\n',
        b'{"t": 2, "button": "fire"}\n',
        b'{"t": 2}\n',
        b"[1, 2]\n",
        b"\xff\xfe\n",
        b'{"game": "solitaire", "occupied": [], "options": 5}\n',
    ],
    "orders": [
        b'"7" = { kind = "go-to", to = 12 }\n',
        b'[squares]\n"7" = { kind = "go-to", to = 99 }\n',
        b'[squares]\n"7" = { kind = "fly" }\n',
        b'[squares]\n"7" = { kind = "lose-turn", extra = 1 }\n',
        b"[squares]\n7 = 3\n",
    ],
    "store": [b"\x00" * 100, b"SQLite format 3\x00" + b"\x00" * 200],
}
"""Lines that make a good file bad, for each kind of file."""

_ROLL = b'{"t": 1, "button": "roll"}\n'
WHOLE_BAD_FILES: dict[str, dict[str, bytes]] = {
    "trace": {
        "options not an object": b'{"game": "solitaire", "occupied": [], "options": 5}\n' + _ROLL,
        "an option's bad value": b'{"game": "solitaire", "occupied": [], '
        b'"options": {"start": "nan"}}\n' + _ROLL,
        "an unknown option": b'{"game": "solitaire", "occupied": [], "options": {"nope": 1}}\n'
        + _ROLL,
        "game and occupied of the wrong types": b'{"game": 5, "occupied": "abc"}\n' + _ROLL,
        "a game not sensed": b'{"game": "jack-rabbits", "occupied": []}\n' + _ROLL,
        "occupied points of the wrong types": b'{"game": "solitaire", '
        b'"occupied": [1, null, {}]}\n' + _ROLL,
        "an occupied point not on the board": b'{"game": "solitaire", "occupied": ["99"]}\n'
        + _ROLL,
    },
    "config": {
        "a byte order mark": b"\xef\xbb\xbfgame = 'solitaire'\n",
        "a key twice": b"game = 'solitaire'\ngame = 'skip'\n",
    },
}
"""Bad files that are not a good file with a line added (a trace's first line)."""


def _flip(draw: st.DrawFn, good: bytes) -> bytes:
    i = draw(st.integers(0, len(good) - 1))
    return good[:i] + bytes([draw(st.integers(0, 255))]) + good[i + 1 :]


GOOD: dict[str, bytes] = {
    "config": b'game = "solitaire"\ndatabase = "g.sqlite3"\n[timing]\nsettle_ms = 60\n',
    "build": load_build("pico-cross33").path.read_bytes(),
    "trace": b'{"game": "solitaire", "occupied": ["1", "2"]}\n'
    b'{"t": 0.5, "point": "1", "on": false}\n{"t": 1.0, "button": "roll"}\n',
    "orders": b'[squares]\n"5" = { kind = "lose-turn" }\n',
    "store": b'{"game": "solitaire"}\n',  # the bad ones: files that are no store at all
}


# -- the commands' grammar -------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One argument of a command: ``flag`` (None for a positional), its good values, and
    whether it is a value or a file of ``file`` kind."""

    flag: str | None
    good: tuple[str, ...] = ()
    file: str | None = None
    required: bool = False
    switch: bool = False  # an option without a value (--divide)


GAME_SLOT = Slot(None, ("solitaire", "fox-and-geese", "fox-and-rabbit", "skip"), required=True)
POSITION = Slot("--position", ("oooooooooooooooo.oooooooooooooooo -",))
OPTION = Slot("-o", ("diagonals=all", "start=5"))

COMMANDS: dict[str, list[Slot]] = {
    "games": [],
    "perft": [
        GAME_SLOT,
        Slot(None, ("0", "1", "2"), required=True),
        POSITION,
        OPTION,
        Slot("--divide", switch=True),
    ],
    "moves": [GAME_SLOT, POSITION, OPTION, Slot("--dice", ("5,2", "1,1"))],
    "apply": [GAME_SLOT, POSITION, OPTION, Slot(None, ("5-17", "9-4", "dice=5,2"))],
    "hint": [Slot(None, ("fox-and-geese", "skip"), required=True), POSITION, OPTION],
    "analyse": [  # from a small position: the whole analysis takes half a minute
        Slot(None, ("solitaire",), required=True),
        Slot("--position", ("....o....oo...ooooo...ooo...o.... -",), required=True),
        Slot("-o", ("finish=5", "start=17")),
        Slot("--budget", ("1", "0.5")),  # fox-and-geese-mcloughlin's: refused for solitaire
    ],
    "wiring diagram": [
        Slot(None, ("pi-cross33", "pico-brier9"), file="build", required=True),
        Slot("--layout", switch=True),
        Slot("-o", ("out.svg", "-"), file="output"),
    ],
    "wiring table": [Slot(None, ("pi-cross33", "pico-skip8"), file="build", required=True)],
    "wiring bom": [
        Slot(None, ("pi-cross33", "pico-parchesi101"), file="build", required=True),
        Slot("--format", ("md", "csv")),
        Slot("-o", ("bom.md", "-"), file="output"),
    ],
    "wiring check": [
        Slot(None, ("pico-cross33",), file="build", required=True),
        Slot("--timeout", ("1", "0.5")),
        Slot("--leds-only", switch=True),
        Slot("--rows", ("0", "1,2")),
        Slot("--cols", ("0,5", "3")),
        Slot("--crosstalk", switch=True),
        Slot("--port", ("port",)),
    ],
    "wiring learn": [
        Slot(None, ("pico-cross33",), file="build", required=True),
        Slot("--out", ("learned.toml",), file="output", required=True),
        Slot("--force", switch=True),
        Slot("--timeout", ("1", "0.5")),
    ],
    "wiring template": [
        Slot(None, ("pi-cross33", "pico-skip8"), file="build", required=True),
        Slot("--out", ("out",), required=True),
        Slot("--paper", ("a4", "letter")),
        Slot("--reed-offset", ("4", "2.5")),
    ],
    "run": [
        Slot("--config", (), file="config"),
        Slot("--game", ("solitaire", "skip")),
        Slot("--database", ("g.sqlite3",), file="store"),
        Slot("--remote", ("mqtt://127.0.0.1:1",)),  # a port nobody listens on
        Slot("--match", ("m1",)),
        Slot("--seats", ("fox", "geese")),
    ],
    "watch": [
        Slot("--remote", ("mqtt://127.0.0.1:1",), required=True),
        Slot("--match", ("m1",), required=True),
        Slot("--count", ("1", "5")),
    ],
    "invite": [
        Slot("--config", (), file="config"),
        Slot("--database", ("g.sqlite3",), file="store"),
        Slot("--remote", ("mqtt://127.0.0.1:1",), required=True),
        Slot("--match", ("m1",), required=True),
        Slot("--seats", ("fox", "geese"), required=True),
        Slot("--watch", switch=True),
    ],
    "doctor": [Slot("--config", (), file="config")],
    "report": [Slot("--config", (), file="config"), Slot("-o", ("r.tar.gz",))],
    "broker-files": [
        Slot("--match", ("m1",), required=True),
        Slot("--board", ("fox", "WR,BR"), required=True),
        Slot("--out", ("out",)),
    ],
    "firmware config": [Slot(None, ("pico-cross33", "pi-cross33"), file="build", required=True)],
    "firmware install": [
        Slot(None, ("pico-cross33",), file="build", required=True),
        Slot("--port", ("port",)),
        Slot("--dry-run", switch=True, required=True),  # never runs mpremote for real
    ],
    "demo": [
        Slot("--game", ("solitaire", "skip", "fox-and-rabbit")),
        Slot("--seed", ("1", "7")),
        Slot("--plies", ("0", "3")),
        Slot("--speed", ("1000",), required=True),  # a good demo is quick
        Slot("--no-colour", switch=True),
    ],
    "replay": [
        Slot(None, (), file="trace", required=True),
        Slot("--game", ("solitaire",)),
        Slot("--json", switch=True),
    ],
    "history": [Slot(None, ("1", "2")), Slot("--database", (), file="store")],
    "jack-rabbits roll": [Slot(None, ("3,5",), required=True), Slot("--hand", ("5H,10S",))],
    "jack-rabbits pay": [Slot(None, ("AD,5H",), required=True), Slot("--price", ("15",))],
    "jack-rabbits acquire": [
        Slot(None, ("KH",), required=True),
        Slot(None, ("5H,6H",), required=True),
    ],
    "jack-rabbits hand": [Slot(None, ("2H,3H",), required=True)],
    "jack-rabbits wins": [
        Slot(None, ("KH,QS,JD",), required=True),
        Slot("--condition", ("simple", "tribal")),
    ],
}

# -- the sweep ----------------------------------------------------------------------------------


class Hang(Exception):
    pass


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    def ring(_sig: int, _frame: FrameType | None) -> None:
        raise Hang(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call(argv: list[str]) -> tuple[int, str, str]:
    """main() in-process: its exit code, stdout and stderr (an empty standard input)."""
    out, err = io.StringIO(), io.StringIO()
    with (
        watchdog(WATCHDOG_SECONDS),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        saved, sys.stdin = sys.stdin, io.StringIO("")
        try:
            code = main(argv)
        finally:
            sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


ONE_ERROR = re.compile(r"reedboard: error: [^\n]+\n")
PROGRESS = re.compile(
    r"(?:reedboard: solitaire from [^\n]+\n"
    r"|(?:reachable|winning): \d+ pegs?, [\d,]+ positions \([\d.]+ s\)\n)*"
)
"""What `analyse` says on stderr as it searches (plain lines: not a terminal)."""


def answered_well(argv: list[str], code: int, out: str, err: str) -> None:
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert ONE_ERROR.fullmatch(err), (argv, err)
    elif argv[:1] == ["analyse"]:
        assert PROGRESS.fullmatch(err), (argv, err)
    else:
        assert err == "", (argv, err)


class Files:
    """The sweep's folder: good files to name, and bad ones written on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        (folder / "home").mkdir()
        good = {
            "config": folder / "good.toml",
            "build": folder / "good-build.toml",
            "trace": folder / "good.jsonl",
            "orders": folder / "orders.toml",
        }
        for kind, path in good.items():
            path.write_bytes(GOOD[kind])
        store = folder / "good.sqlite3"
        from reedboard.store.games import GameStore

        s = GameStore(store)
        s.new_game("solitaire", {}, engine.start("solitaire").to_text())
        s.close()
        self.good = {**{k: str(p) for k, p in good.items()}, "store": str(store)}

    def bad(self, content: bytes | None) -> str:
        self.count += 1
        path = self.folder / f"bad-{self.count}"
        if content == b"<folder>":
            path.mkdir()
        elif content == b"<fifo>":
            os.mkfifo(path)
        elif content == b"<zero>":
            return "/dev/zero"
        elif content == b"<sqlite>":
            db = sqlite3.connect(path)
            db.execute("CREATE TABLE games (name TEXT)")
            db.execute("INSERT INTO games VALUES ('chess')")
            db.commit()
            db.close()
        elif content is not None:
            path.write_bytes(content)
        return str(path)


@st.composite
def command_line(draw: st.DrawFn, name: str, files: Files) -> list[str]:
    argv = name.split()
    for slot in COMMANDS[name]:
        choice = draw(st.sampled_from(["good", "bad", "missing"]))
        if slot.switch:
            if choice != "missing" or slot.required:
                argv.append(slot.flag or "")
            continue
        if choice == "missing" and not slot.required:
            continue
        if choice == "missing":  # a required argument missing
            if slot.flag is None:
                continue
            argv.append(slot.flag)  # ... or its option left without a value
            continue
        value = _value(draw, slot, files, good=choice == "good")
        argv += [slot.flag, value] if slot.flag else [value]
    shape = draw(st.sampled_from(["as is", "as is", "a word too many", "an option twice"]))
    if shape == "a word too many":
        argv.append(draw(st.one_of(*VALUE_KINDS.values())))
    elif shape == "an option twice" and (flags := [s for s in COMMANDS[name] if s.flag]):
        slot = draw(st.sampled_from(flags))
        argv += [slot.flag] if slot.switch else [slot.flag, _value(draw, slot, files, good=True)]
    return [a for a in argv if a is not None]


def _value(draw: st.DrawFn, slot: Slot, files: Files, *, good: bool) -> str:
    if slot.file in ("config", "build", "trace", "store", "orders"):
        if good:
            named = [*slot.good, files.good[slot.file]]
            return draw(st.sampled_from(named))
        kind = draw(st.sampled_from(sorted(FILE_KINDS)))
        return files.bad(FILE_KINDS[kind](draw, slot.file))
    if slot.file == "output":
        return str(files.folder / "out.svg") if good else files.bad(b"<folder>")
    if good and slot.good:
        return draw(st.sampled_from(slot.good))
    return draw(st.sampled_from(sorted(VALUE_KINDS)).flatmap(lambda k: VALUE_KINDS[k]))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, solitaire_cache: Path) -> Iterator[Files]:
    folder = tmp_path_factory.mktemp("sweep")
    with contextlib.chdir(folder):
        kept = ("HOME", "REEDBOARD_DB", "XDG_DATA_HOME", "XDG_CACHE_HOME")
        saved = {k: os.environ.get(k) for k in kept}
        os.environ["HOME"] = str(folder / "home")
        os.environ.pop("REEDBOARD_DB", None)
        os.environ.pop("XDG_DATA_HOME", None)
        os.environ["XDG_CACHE_HOME"] = str(solitaire_cache)  # `hint solitaire` finds its set
        try:
            yield Files(folder)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def _heavy(argv: list[str]) -> bool:
    """A good command line that would take long for a good reason (a deep perft)."""
    return argv[0] == "perft" and any(_depth(a) > 3 for a in argv[1:])


def _depth(word: str) -> int:
    try:
        return int(word)
    except ValueError:
        return 0


@pytest.mark.parametrize("name", list(COMMANDS))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_command_answers_every_bad_argument_in_one_line(
    files: Files, name: str, data: st.DataObject
) -> None:
    argv = data.draw(command_line(name, files))
    assume(not _heavy(argv))
    with contextlib.chdir(files.folder):
        code, out, err = call(argv)
    answered_well(argv, code, out, err)


# -- positions and options: the engine's side ---------------------------------------------------


POSITION_TOKENS = [
    *(
        f"{key}={value}"
        for key in ("spent", "winner", "turn", "phase", "spin", "dice", "escape", "start")
        for value in ("9", "x", "7", "-1", "0,7", "d9", "ZZ", "R3,B4", "true,2", "")
    ),
    *("extra", "R@A99", "Y1@L99", "WR@e5", "RF@a1", "F", "G", "-", "1:", "9:", "1:KH,KH"),
    "start=R3,B4 spin=2",
]
"""Tokens that may not belong in a position: known keys with bad values, pieces off the board."""


POSITION_SPOILS = ("value", "double", "drop", "character", "cut", "added")
"""How a good position is spoiled: a value made bad, a token doubled, dropped or added, a
character changed, the text cut short."""


ALL_KINDS = [
    *VALUE_KINDS,
    *STRUCTURE_KINDS,
    *FILE_KINDS,
    *(f"{kind}: {line!r}" for kind, lines in BAD_LINES.items() for line in lines),
    *(f"{kind}: {label}" for kind, texts in WHOLE_BAD_FILES.items() for label in texts),
    *(f"a position: {how}" for how in POSITION_SPOILS),
    *(f"a position with {token!r}" for token in POSITION_TOKENS),
]
"""Every kind of bad input the sweep puts in: argument values, command-line shapes, kinds of
bad file, the bad lines in each kind of file, and the ways positions are spoiled."""


@st.composite
def mutated_position(draw: st.DrawFn, game: str) -> str:
    """A game's start position with one part spoiled: a value after ``=``, ``@`` or ``:``
    made bad, a token doubled, dropped or added, a character changed, or the whole cut
    short."""
    text = engine.start(game).to_text()
    tokens = text.split(" ")
    i = draw(st.integers(0, len(tokens) - 1))
    how = draw(st.sampled_from(POSITION_SPOILS))
    bad = draw(st.sampled_from(sorted(VALUE_KINDS)).flatmap(lambda k: VALUE_KINDS[k]))
    token = tokens[i]
    if how == "value":
        for sep in ("=", "@", ":"):
            if sep in token:
                tokens[i] = token.split(sep)[0] + sep + bad.replace(" ", "")
                break
        else:
            tokens[i] = bad
    elif how == "double":
        tokens.insert(i, token)
    elif how == "drop":
        del tokens[i]
    elif how == "added":
        tokens.insert(i, draw(st.sampled_from(POSITION_TOKENS)))
    elif how == "character" and token:
        j = draw(st.integers(0, len(token) - 1))
        tokens[i] = token[:j] + draw(st.sampled_from("FGo.rbRBxX9@=,-/ ")) + token[j + 1 :]
    else:
        return text[: draw(st.integers(0, len(text)))]
    return " ".join(tokens)


@pytest.mark.parametrize("game", engine.game_ids())
def test_every_odd_token_in_every_games_position_is_one_line(files: Files, game: str) -> None:
    start = engine.start(game).to_text()
    wrong = []
    for token in POSITION_TOKENS:
        position = f"{start} {token}"
        argv = ["moves", game, "--position", position]
        with contextlib.chdir(files.folder):
            try:
                code, out, err = call(argv)
                answered_well(argv, code, out, err)
                for move in out.splitlines()[:1]:  # accepted: it must play on as well
                    argv = ["apply", game, "--position", position, move]
                    answered_well(argv, *call(argv))
                    argv = ["hint", game, "--position", position]
                    answered_well(argv, *call(argv))
            except Exception as exc:
                wrong.append(f"{argv}: {type(exc).__name__}: {exc}")
    assert not wrong, f"{len(wrong)} positions: " + "; ".join(wrong[:5])


@pytest.mark.parametrize("game", engine.game_ids())
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_spoiled_positions_of_every_game_are_one_line(
    files: Files, data: st.DataObject, game: str
) -> None:
    position = data.draw(mutated_position(game))
    command = data.draw(st.sampled_from([["moves"], ["hint"], ["apply"], ["perft", "-", "1"]]))
    argv = [command[0], game, "--position", position, *command[2:]]
    with contextlib.chdir(files.folder):
        code, out, err = call(argv)
    answered_well(argv, code, out, err)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(engine.game_ids()),
    command=st.sampled_from(["moves", "hint", "apply"]),
    position=st.one_of(_text, st.sampled_from(["F" * 33 + " F", "G" * 33 + " G", "x -"])),
    option=st.one_of(_text, st.sampled_from(["start=nan", "players=9", "diagonals=", "=1"])),
)
def test_bad_positions_and_options_are_one_line(
    files: Files, game: str, command: str, position: str, option: str
) -> None:
    argv = [command, game, "--position", position, "-o", option]
    with contextlib.chdir(files.folder):
        code, out, err = call(argv)
    answered_well(argv, code, out, err)


# -- bad files through the commands that read them ------------------------------------------

READERS: dict[str, list[list[str]]] = {
    "config": [["run", "--config", "{}"]],
    "build": [
        ["wiring", "table", "{}"],
        ["wiring", "bom", "{}"],
        ["firmware", "config", "{}"],
        ["wiring", "check", "{}"],
    ],
    "trace": [["replay", "{}"], ["replay", "{}", "--json"]],
    "orders": [["moves", "messenger-boy", "-o", "orders={}"]],
    "store": [["history", "--database", "{}"], ["run", "--game", "solitaire", "--database", "{}"]],
}
"""The commands that read each kind of file ({} is the file)."""


def _bad_files(kind: str) -> list[tuple[str, bytes | None]]:
    """Every fixed bad file of ``kind``: the generic kinds, the good file cut short at a few
    places, and the good file with each of its bad lines added."""
    good = GOOD[kind]
    out: list[tuple[str, bytes | None]] = [
        ("not there", None),
        ("a folder", b"<folder>"),
        ("empty", b""),
        ("not UTF-8", b'game = "\xff\xfe"\n\x80\x81'),
        ("another program's SQLite", b"<sqlite>"),
        ("a FIFO", b"<fifo>"),
        ("/dev/zero", b"<zero>"),
        ("nested 3,000 deep", b"a = " + b"[" * 3000 + b"]" * 3000 + b"\n"),
        *((f"cut at {n}", good[:n]) for n in (1, 9, len(good) // 2, len(good) - 1) if n > 0),
    ]
    out += [(f"line {line[:30]!r}", good + line) for line in BAD_LINES[kind]]
    out += [(label, text) for label, text in WHOLE_BAD_FILES.get(kind, {}).items()]
    return out


def _file_params() -> list[object]:
    return [
        pytest.param(
            kind,
            content,
            command,
            id=f"{' '.join(w for w in command if '{}' not in w)} {kind} {label}",
        )
        for kind, commands in READERS.items()
        for label, content in _bad_files(kind)
        for command in commands
    ]


@pytest.mark.parametrize(("kind", "content", "command"), _file_params())
def test_every_bad_file_is_one_line(
    files: Files, kind: str, content: bytes | None, command: list[str]
) -> None:
    path = files.bad(content)
    argv = [a.replace("{}", path) for a in command]
    with contextlib.chdir(files.folder):
        code, out, err = call(argv)
    answered_well(argv, code, out, err)


@pytest.mark.parametrize("kind", list(READERS))
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_and_damaged_files_are_one_line(
    files: Files, kind: str, data: st.DataObject
) -> None:
    how = data.draw(st.sampled_from(["random bytes", "a good file with one byte changed"]))
    path = files.bad(FILE_KINDS[how](data.draw, kind))
    argv = [a.replace("{}", path) for a in data.draw(st.sampled_from(READERS[kind]))]
    with contextlib.chdir(files.folder):
        code, out, err = call(argv)
    answered_well(argv, code, out, err)


# -- through a real process -----------------------------------------------------------------

REAL = [
    ["perft", "solitaire", "5000"],
    ["perft", "solitaire", "-1"],
    ["demo", "--speed", "0"],
    ["demo", "--speed=nan"],
    ["history", "99999999999999999999999"],
    ["moves", "chess"],
    ["run", "--config", "no-such.toml"],
    ["wiring", "check", "pico-cross33"],
    ["wiring", "diagram", "no-such-build"],
    ["firmware", "config", "pi-cross33"],
    ["replay", "no-such.jsonl"],
    ["apply"],
    ["nope"],
    [],
]


@pytest.mark.parametrize("argv", REAL, ids=lambda a: " ".join(a) or "nothing")
def test_bad_command_lines_in_a_real_process(tmp_path: Path, argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reedboard", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2 and done.stdout == ""
    assert ONE_ERROR.fullmatch(done.stderr), done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing made on the way to the error


def test_undecodable_bytes_in_arguments_in_a_real_process(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 reach Python as lone surrogates: still one line."""
    for argv in (
        [b"moves", b"\xff\xfe"],
        [b"apply", b"solitaire", b"5-17", b"\xc3("],
        [b"wiring", b"diagram", b"pi-cross33", b"-o", b"\xff.svg"],
    ):
        done = subprocess.run(
            [os.fsencode(sys.executable), b"-m", b"reedboard", *argv],
            capture_output=True,
            timeout=60,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert done.returncode in (0, 2), done.stderr
        if done.returncode == 2:
            assert done.stderr.startswith(b"reedboard: error: ") and done.stderr.count(b"\n") == 1


# -- the count ---------------------------------------------------------------------------------


def test_the_docs_state_how_many_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    count = len(ALL_KINDS)
    with capsys.disabled():
        print(f"\nthe sweep covers {count} kinds of bad input")
    cli = " ".join((ROOT / "docs" / "cli.md").read_text().split())
    lines = sum(map(len, BAD_LINES.values())) + sum(map(len, WHOLE_BAD_FILES.values()))
    for said in (
        f"{count} kinds of bad input",
        f"{len(VALUE_KINDS)} kinds of argument value",
        f"{len(STRUCTURE_KINDS)} wrong shapes of command line",
        f"{len(FILE_KINDS)} kinds of bad file",
        f"{lines} particular bad lines and files",
        f"{len(POSITION_SPOILS)} ways of spoiling a game's position",
        f"{len(POSITION_TOKENS)} odd tokens",
    ):
        assert said in cli, said


def test_every_command_is_swept() -> None:
    from tests.cli.test_cli_inputs import ALL_COMMANDS

    leaves = {" ".join(w) for w in ALL_COMMANDS}
    parents = {" ".join(w[:-1]) for w in ALL_COMMANDS if len(w) > 1}
    assert leaves - parents == set(COMMANDS)
