"""McLoughlin's Fox and Geese solved whole: the driver of the C solver (mcloughlin_solve.c).

The solver works layer by layer over the number of geese and writes one file a layer,
``geese-to-move-N.bin``, into a folder of its variant (by default in the user's cache folder,
``mcloughlin-exact/<variant>/``); an interrupted solve goes on from its last checkpoint. This
module builds the program, says beforehand what a solve costs, runs it with progress, and asks
it who wins a position. docs/mcloughlin.md has the method and the figures.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.analysis.build import program
from reedboard.engine.cross import Diagonals
from reedboard.errors import ControllerError

GAME = "fox-and-geese-mcloughlin"
SOURCE = Path(__file__).with_name("mcloughlin_solve.c")
HEADER = 4096
"""Bytes before a layer file's data."""
HOLES = 33
GEESE = 17
"""The most geese a game has."""
RATE = 1.9e6
"""Geese sets a second assumed before a solve has measured its own (this machine's first
layers: docs/mcloughlin.md)."""
MEMORY_MARGIN = 1.1
"""Memory asked for beyond the estimate (the program, the page tables)."""


class ExactError(ControllerError):
    """A solve that cannot run or answer here (too little memory or disk, an option it does
    not take, a layer missing): one line."""


@dataclass(frozen=True)
class Variant:
    """What the layers depend on: the lines, the sideways points, when the fox wins."""

    diagonals: str = "alternate"
    sideways: tuple[int, ...] = (7, 13)
    win_at: int = 6
    """The fox wins when this many geese or fewer are left (the game's own 6)."""

    @property
    def name(self) -> str:
        """The variant's folder name (``alternate-s7,13-w6``)."""
        return f"{self.diagonals}-s{','.join(map(str, self.sideways))}-w{self.win_at}"

    def args(self) -> list[str]:
        return [
            "--diagonals",
            self.diagonals,
            "--sideways",
            ",".join(map(str, self.sideways)),
            "--win-at",
            str(self.win_at),
        ]


def variant_of(options: Mapping[str, object]) -> tuple[Variant, dict[str, object]]:
    """The variant the game's options and ``fox_wins_at`` ask for, and the game's own options
    (checked by the engine)."""
    rest = dict(options)
    win_at: object = rest.pop("fox_wins_at", 6)
    try:
        win = int(str(win_at))
    except ValueError:
        raise ExactError(f"fox_wins_at={win_at!r}: a whole number of geese") from None
    if not 0 <= win < GEESE:
        raise ExactError(f"fox_wins_at={win}: from 0 to {GEESE - 1} geese")
    game = engine.game(GAME).start(**rest)  # the engine refuses bad options in one line
    # (options under which a goose steps back and forth: the solver refuses them)
    diagonals: Diagonals = game.options.diagonals
    sideways = tuple(sorted(game.options.sideways_points))
    return Variant(diagonals.value, sideways, win), rest


def rules_for(variant: Variant) -> Any:
    """The engine's game with the fox winning at ``variant.win_at`` geese (the game's own
    class when it is 6)."""
    cls = engine.game(GAME)
    if variant.win_at == getattr(cls, "geese_left_to_win", None):
        return cls
    return type(
        f"{cls.__name__}WinAt{variant.win_at}", (cls,), {"geese_left_to_win": variant.win_at}
    )


# -- sizes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layer:
    geese: int
    sets: int
    """Geese sets: every way to place them on the 33 holes."""
    width: int
    """Bits a set: one a fox hole."""

    @property
    def data_bytes(self) -> int:
        return (self.sets * self.width + 63) // 64 * 8

    @property
    def file_bytes(self) -> int:
        return HEADER + self.data_bytes


def layers(win_at: int, top: int) -> list[Layer]:
    """The layers a solve up to ``top`` geese writes, fewest geese first."""
    return [Layer(n, math.comb(HOLES, n), HOLES - n) for n in range(win_at + 1, top + 1)]


@dataclass(frozen=True)
class Plan:
    """What a solve costs, said before it starts."""

    todo: list[Layer]
    sets: int
    """Geese sets still to solve."""
    seconds: float
    memory: int
    """Peak bytes: the layer being solved twice (both sides to move) and every lower layer,
    mapped (the fox's jumps read them)."""
    disk: int
    """Bytes still to write: the layer files, and the largest layer's temporary file."""


def plan(variant: Variant, top: int, folder: Path, rate: float = RATE) -> Plan:
    all_layers = layers(variant.win_at, top)
    todo = [layer for layer in all_layers if not _done(folder, layer)]
    memory = 0
    below = 0
    for layer in all_layers:
        if layer in todo:
            memory = max(memory, 2 * layer.data_bytes + below)
        below += layer.file_bytes
    disk = sum(layer.file_bytes for layer in todo)
    disk += max((layer.data_bytes for layer in todo), default=0)
    sets = sum(layer.sets for layer in todo)
    return Plan(todo, sets, sets / rate, int(memory * MEMORY_MARGIN), disk)


def _done(folder: Path, layer: Layer) -> bool:
    path = folder / f"geese-to-move-{layer.geese}.bin"
    return path.is_file() and path.stat().st_size == layer.file_bytes


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes (None where there is none)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_room(need: Plan, folder: Path) -> None:
    """Refuse in one line when this machine has too little memory or disk for ``need``."""
    memory = available_memory()
    if memory is not None and need.memory > memory:
        raise ExactError(
            f"the exact solve needs {gb(need.memory)} of memory and this machine has"
            f" {gb(memory)} available"
        )
    folder.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(folder).free
    if need.disk > free:
        raise ExactError(
            f"the exact solve needs {gb(need.disk)} of disk in {folder} and {gb(free)} is free"
        )


def gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e8 else f"{n / 1e6:.1f} MB"


# -- running the program ---------------------------------------------------------------------


def solver_program() -> Path:
    from reedboard.referee.solved import cache_dir

    return program(SOURCE, cache_dir() / "bin")


def default_folder(variant: Variant) -> Path:
    from reedboard.referee.solved import cache_dir

    return cache_dir() / "mcloughlin-exact" / variant.name


Note = Callable[[str], None]


def solve(
    variant: Variant,
    top: int,
    folder: Path,
    note: Note | None = None,
    *,
    checkpoint_sets: int = 0,
    every: float = 10.0,
) -> float:
    """Solve layers ``variant.win_at + 1`` to ``top`` into ``folder`` (those already there are
    kept; a layer cut short goes on from its checkpoint). ``note`` hears a line about every
    ``every`` seconds. The seconds it took."""
    folder.mkdir(parents=True, exist_ok=True)
    args = [str(solver_program()), "solve", str(folder), *variant.args(), "--top", str(top)]
    if checkpoint_sets:
        args += ["--checkpoint-sets", str(checkpoint_sets)]
    started = time.monotonic()
    total = sum(layer.sets for layer in plan(variant, top, folder).todo)
    finished = 0
    last = started
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        for line in proc.stdout:
            word, *rest = line.split()
            now = time.monotonic()
            if note is None:
                continue
            if word == "layer" and int(rest[4]):
                note(f"layer {rest[0]}: going on from set {int(rest[4]):,} of {int(rest[2]):,}")
            elif word == "progress" and now - last >= every:
                last = now
                done = finished + int(rest[1])
                left = (now - started) / max(done, 1) * (total - done)
                note(
                    f"layer {rest[0]} geese: {int(rest[1]) / int(rest[2]):.0%} of"
                    f" {int(rest[2]):,} sets; all {done / max(total, 1):.0%}"
                    f" ({_duration(now - started)}, about {_duration(left)} left)"
                )
            elif word == "done":
                finished += math.comb(HOLES, int(rest[0]))
                note(f"layer {rest[0]} geese solved in {float(rest[1]):.1f} s")
        error = proc.stderr.read()
    if proc.returncode:
        last_line = error.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
        raise ExactError(f"the exact solve stopped: {last_line[0].removeprefix('error: ')}")
    return time.monotonic() - started


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _run(args: list[str], lines: Iterable[str]) -> list[str]:
    done = subprocess.run(
        [str(solver_program()), *args],
        input="".join(t + "\n" for t in lines),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        last = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        raise ExactError(last[0].removeprefix("error: "))
    return done.stdout.splitlines()


def query(variant: Variant, folder: Path, positions: Iterable[str]) -> list[str]:
    """Who wins each position (the engine's text form), ``fox`` or ``geese``, from the layers
    in ``folder``."""
    return _run(["query", str(folder), *variant.args()], positions)


def perft(variant: Variant, position: str, depth: int) -> int:
    """The C move generator's perft (chains counted by path, as the engine counts them)."""
    return int(_run(["perft", str(depth), *variant.args()], [position])[0])


def successors(variant: Variant, positions: Iterable[str]) -> list[list[str]]:
    """For each position, the position after each of its moves (by the C move generator)."""
    return [line.split(";") if line else [] for line in _run(["moves", *variant.args()], positions)]


# -- reedboard analyse GAME --exact ----------------------------------------------------------


def analyse(
    options: Mapping[str, object], position: str | None, folder: Path | None, say: Note
) -> list[str]:
    """Solve the game whole (what is not solved yet) and say who wins from the start or
    ``position``, and after each of its moves. Before it starts it says the cost, and refuses
    when this machine has too little memory or disk."""
    variant, rest = variant_of(options)
    rules = rules_for(variant)
    start = rules.start(**rest) if position is None else rules.from_text(position, **rest)
    top = start.count("G")
    if folder is None:
        folder = default_folder(variant)
    _run(["sizes", *variant.args()], [])  # the program refuses options with no end
    if top > variant.win_at:
        need = plan(variant, top, folder)
        if need.todo:
            low, high = need.todo[0].geese, need.todo[-1].geese
            say(
                f"exact solve, layers of {low}-{high} geese: {need.sets:,} geese sets, about"
                f" {_duration(need.seconds)} at {RATE / 1e6:.1f} million sets a second, at most"
                f" {gb(need.memory)} of memory, {gb(need.disk)} of disk in {folder}"
            )
            check_room(need, folder)
            seconds = solve(variant, top, folder, say)
            say(f"solved in {_duration(seconds)}")
        else:
            say(f"the layers up to {top} geese are solved already in {folder}")
    where = "the start" if position is None else f"position {start.to_text()!r}"
    texts = [start.to_text()]
    moves = list(start.legal_moves)
    for move in moves:
        after = start.copy(stack=False)
        after.push(move)
        texts.append(after.to_text())
    values = query(variant, folder, texts) if top > variant.win_at else ["fox"] * len(texts)
    lines = [f"{GAME} from {where}, fox winning at {variant.win_at} geese: {_said(values[0])}"]
    lines += [f"move {move}: {_said(value)}" for move, value in zip(moves, values[1:], strict=True)]
    return lines


def _said(value: str) -> str:
    return "fox wins" if value == "fox" else "geese win"
