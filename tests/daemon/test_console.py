"""The simulated board's console, on the real daemon loop: every game played from the keyboard
in its own notation (jump chains, captures, throws), a bad command changing nothing, and the
end of standard input ending the daemon with the game kept."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.daemon.config import Config
from reedboard.daemon.console import Plan
from reedboard.daemon.core import Daemon
from reedboard.hardware.board_io import SensorEvent
from reedboard.referee.dice import SeededDice
from reedboard.store.games import GameStore

SENSED = [g for g in engine.game_ids() if engine.game(g).sensed]
CHAIN = "F.......F.......GG.........GGGGGG F"  # foxes on 1 and 9, geese on 17, 18 and 28-33


class Keyboard:
    """A daemon on the simulated board whose standard input is a real pipe we type into."""

    def __init__(self, tmp_path: Path, game: str, start: str | None = None, seed: int = 1):
        db = tmp_path / f"{game}.sqlite3"
        if start is not None:  # the daemon resumes this game
            store = GameStore(db)
            store.new_game(game, {}, start)
            store.close()
        read, write = os.pipe()
        self.said: list[str] = []
        self.daemon = Daemon(
            Config(game=game, database=db),
            out=self.said.append,
            stdin=os.fdopen(read, "r"),
            dice=SeededDice(seed),
        )
        self.keys = os.fdopen(write, "w")
        self.events: list[tuple[str, bool]] = []
        board: Any = self.daemon.board
        put = board.events.put
        board.events.put = lambda e: (self._seen(e), put(e))

    def _seen(self, event: object) -> None:
        if isinstance(event, SensorEvent):
            self.events.append((event.point, event.on))

    def type(self, line: str) -> None:
        self.keys.write(line + "\n")
        self.keys.flush()

    async def said_after(self, count: int, timeout: float = 10.0) -> list[str]:
        """Wait until more than ``count`` lines are said; the new ones."""
        async with asyncio.timeout(timeout):
            while len(self.said) <= count:
                await asyncio.sleep(0.01)
        return self.said[count:]

    async def plies(self, n: int, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while len(self.daemon.session.position.move_stack) < n:
                await asyncio.sleep(0.01)

    @property
    def moves(self) -> list[str]:
        return [str(m) for m in self.daemon.session.position.move_stack]


def on_the_loop(keyboard: Keyboard, play: Callable[[], Awaitable[None]]) -> None:
    """Run the daemon with its console, play, close standard input: the daemon ends."""

    async def scenario() -> None:
        task = asyncio.create_task(keyboard.daemon.run(console=True))
        await asyncio.sleep(0.05)
        await play()
        keyboard.keys.close()
        await asyncio.wait_for(task, 10)

    asyncio.run(scenario())


async def play_random_game(kb: Keyboard, rng: random.Random, plies: int) -> list[str]:
    """Type random legal moves (throws too) in the game's notation; each must be taken as
    typed before the next is typed. Returns the moves typed."""
    typed: list[str] = []
    for _ in range(plies):
        position = kb.daemon.session.position
        if position.is_over():
            break
        move = str(rng.choice(list(position.legal_moves)))
        before = len(position.move_stack)
        kb.type(f"move {move}")
        typed.append(move)
        await kb.plies(before + 1)
        assert kb.moves[before] == move, (kb.moves[before:], kb.said[-5:])
    return typed


@pytest.mark.parametrize("seed", [1])
def test_every_sensed_game_is_played_from_the_keyboard_in_its_own_notation(
    tmp_path: Path, seed: int
) -> None:
    """Random games of every sensed game at once, each on its own daemon: every move and
    throw typed is the move the board takes, and the store keeps them."""
    keyboards = {game: Keyboard(tmp_path, game, seed=seed) for game in SENSED}
    typed: dict[str, list[str]] = {}

    async def scenario() -> None:
        async def one(game: str) -> None:
            kb = keyboards[game]
            task = asyncio.create_task(kb.daemon.run(console=True))
            await asyncio.sleep(0.05)
            typed[game] = await play_random_game(kb, random.Random(f"{game}{seed}"), 40)
            kb.keys.close()
            await asyncio.wait_for(task, 10)

        await asyncio.gather(*(one(game) for game in SENSED))

    asyncio.run(scenario())
    for game, kb in keyboards.items():
        assert typed[game], game
        assert not [s for s in kb.said if s.startswith(("error", "mismatch"))], (game, kb.said)
        store = GameStore(tmp_path / f"{game}.sqlite3")
        record = store.unfinished() or store.game(1)
        store.close()
        assert record is not None
        assert list(record.moves) == kb.moves, game  # passes the game made itself included
        assert [m for m in kb.moves if m in typed[game]] == typed[game], game


def test_a_jump_chain_lifts_the_fox_takes_the_geese_and_places_it(tmp_path: Path) -> None:
    kb = Keyboard(tmp_path, "fox-and-geese", start=CHAIN)

    async def play() -> None:
        await kb.said_after(0)
        kb.type("move 9x25x11")
        await kb.plies(1)

    on_the_loop(kb, play)
    assert kb.moves == ["9x25x11"]
    assert ("9", False) in kb.events and ("11", True) in kb.events
    assert {p for p, on in kb.events if not on} == {"9", "17", "18"}
    assert kb.events.index(("9", False)) < kb.events.index(("11", True))
    assert kb.daemon.board.snapshot() == kb.daemon.session.position.occupied()


def test_throws_and_moves_of_a_dice_game_from_the_keyboard(tmp_path: Path) -> None:
    kb = Keyboard(tmp_path, "fox-and-rabbit")

    async def play() -> None:
        for n, move in enumerate(["dice=5,2", "WR a1-c6", "dice=3,3", "RF i1-f4"], start=1):
            kb.type(f"move {move}")
            await kb.plies(n)

    on_the_loop(kb, play)
    assert kb.moves == ["dice=5,2", "WR a1-c6", "dice=3,3", "RF i1-f4"]
    assert kb.daemon.session.position.to_text() == "WR@c6 RF@f4 turn=RF extra"


BAD = [
    ("move 9-99", "there is no hole 99"),  # 9 must not be lifted on the way to finding out
    ("move 10-17", "illegal move '10-17'"),
    ("move 9x17", "illegal move"),
    ("move", "move what?"),
    ("move WR a1-c6", "bad fox-and-geese move"),
    ("lift 99", "no point '99'"),
    ("lift 5", "nothing on 5"),
    ("place 9", "9 already has a piece"),
    ("lift 9 10", "lift one point"),
    ("press", "press one of"),
    ("press fire", "press one of"),
    ("show me", "show takes nothing"),
    ("quit now", "quit takes nothing"),
    ("dance", "unknown command 'dance'"),
]


def test_a_bad_command_says_so_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    kb = Keyboard(tmp_path, "fox-and-geese")
    replies: list[str] = []

    async def play() -> None:
        await kb.said_after(0)
        await asyncio.sleep(0.2)
        frame = dict(kb.daemon.board.frame)  # type: ignore[attr-defined]
        for line, _ in BAD:
            count = len(kb.said)
            kb.type(line)
            (reply,) = await kb.said_after(count)
            replies.append(reply)
        await asyncio.sleep(0.3)  # anything scheduled would have happened by now
        assert kb.daemon.board.frame == frame  # type: ignore[attr-defined]

    on_the_loop(kb, play)
    for (line, message), reply in zip(BAD, replies, strict=True):
        assert reply.startswith("error: ") and message in reply, (line, reply)
    assert kb.events == []  # not a switch changed
    assert kb.moves == []
    assert kb.daemon.board.snapshot() == engine.start("fox-and-geese").occupied()


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_any_line_is_either_a_whole_command_or_one_error_that_changes_nothing(
    line: str,
) -> None:
    """What the console plans for any line: nothing, one line of text, or a checked plan."""
    daemon = _DAEMON
    before = (daemon.board.snapshot(), daemon.session.position.to_text())
    planned = daemon.console.plan(line)  # type: ignore[union-attr]
    assert (daemon.board.snapshot(), daemon.session.position.to_text()) == before
    assert planned is None or isinstance(planned, Plan | str)
    if isinstance(planned, str) and planned.startswith("error"):
        assert "\n" not in planned


_DAEMON = Daemon(Config(game="fox-and-geese", database=Path(":memory:")), out=lambda _t: None)
_DAEMON.session.start(0.0)


def test_closing_standard_input_ends_the_daemon_cleanly_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "reedboard", "run", "--game", "solitaire", "--database", str(db)],
        input="move 5-17\nmove 12-10\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "move: 5-17" in done.stdout and "move: 12-10" in done.stdout
    store = GameStore(db)
    record = store.unfinished()
    store.close()
    assert record is not None and list(record.moves) == ["5-17", "12-10"]  # kept, playing
    start = time.monotonic()
    again = subprocess.run(
        [sys.executable, "-m", "reedboard", "run", "--game", "solitaire", "--database", str(db)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert again.returncode == 0 and "resumed: game 1, 2 moves" in again.stdout
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("move", ["9x23x11x9", "9x11x23x9"])
def test_a_loop_carried_straight_is_taken_in_one_spelling(tmp_path: Path, move: str) -> None:
    """A loop ends where it began: the board cannot tell its direction, and both ways leave
    one position, so it takes one spelling, however much longer than the console's pace the
    board takes to settle."""
    loop = "G.......FG.....GG.........G.....F F"
    kb = Keyboard(tmp_path, "fox-and-geese", start=loop)
    console = kb.daemon.console
    assert console is not None
    console.pace = kb.daemon.session.settle / 6  # the hands outrun the settle time

    async def play() -> None:
        await kb.said_after(0)
        kb.type(f"move {move}")
        await kb.plies(1)
        await asyncio.sleep(0.2)

    on_the_loop(kb, play)
    # either way round leaves one position: the board takes a spelling and asks nothing
    assert kb.moves in (["9x23x11x9"], ["9x11x23x9"])
    assert not any(s.startswith("ambiguous:") for s in kb.said)
    assert not [s for s in kb.said if s.startswith("error")], kb.said


def test_a_piped_move_is_said_before_the_next_line_runs(tmp_path: Path) -> None:
    """`move` waits until the board has taken the move and it has been said (its events wait
    for the store's disk), so a `show` after it draws the board after the move's line."""
    for run in range(3):
        (tmp_path / str(run)).mkdir()
        kb = Keyboard(tmp_path / str(run), "solitaire")

        async def play(kb: Keyboard = kb) -> None:
            kb.type("move 5-17")
            kb.type("move 12-10")
            kb.type("show")
            async with asyncio.timeout(10):
                while (
                    not any(s.startswith("move: 12-10") for s in kb.said)
                    or len([s for s in kb.said if "\n" in s]) < 2
                ):
                    await asyncio.sleep(0.01)

        on_the_loop(kb, play)
        said = kb.said
        move = next(i for i, s in enumerate(said) if s.startswith("move: 12-10"))
        board = max(i for i, s in enumerate(said) if "\n" in s)  # the board `show` drew
        assert move < board, said
