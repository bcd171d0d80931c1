"""Judging hand-played games: was every move recognised, and what went wrong where?

:func:`check_games` plays games with the hand model (controller/hands.py) and reports each one:
the recognition tests and ``benchmarks/recognition.py`` call it. The player never presses
``undo`` or ``new``, so every takeback and every new game after the first is spurious; a commit
(``move``, ``extend``, ``throw``) is wrong when it is not the move played at its ply (a jump
chain committed hop by hop as the piece is set down on each landing is a prefix, not wrong).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.hands import Habits, HandGame, play_game
from controller.trace import Commit

CLASSES = ("wrong-move", "takeback", "new-game", "stuck", "mismatch", "missed")
"""Failure classes, in the order a failing game is filed under its first."""


@dataclass
class GameReport:
    game: str
    seed: Any
    recognised: bool
    plies: int
    moves: int
    """Piece moves played (throws left out)."""
    wrong: list[Commit] = field(default_factory=list)
    takebacks: int = 0
    new_games: int = 0
    asks: int = 0
    mismatches: int = 0
    stuck: str | None = None
    classes: list[str] = field(default_factory=list)
    """The failure classes this game shows (empty when it was recognised cleanly)."""
    cause: str = ""
    """The class of the first thing that went wrong (what the game is filed under)."""
    first: str = ""
    """The first thing that went wrong, and what the hands did at that ply."""

    @property
    def failed(self) -> bool:
        """Not recognised, or a wrong move, takeback or new game on the way (each is a
        failure even when the game came right in the end)."""
        return not self.recognised or bool(self.wrong) or bool(self.takebacks or self.new_games)


def is_wrong(commit: Commit, played: list[str]) -> bool:
    if commit.ply < 0 or commit.ply >= len(played):
        return True
    want = played[commit.ply]
    return commit.move != want and not want.startswith(commit.move + "x")


def judge(game: HandGame) -> GameReport:
    """The report of one closed-loop game."""
    played = game.moves
    alerts = game.result["alerts"]
    report = GameReport(
        game=game.game,
        seed=game.seed,
        recognised=game.recognised,
        plies=len(played),
        moves=sum(1 for m in played if not _is_throw(m)),
        wrong=[c for c in game.commits if is_wrong(c, played)],
        takebacks=sum(1 for a in alerts if a["kind"] == "takeback"),
        new_games=sum(1 for a in alerts if a["kind"] == "new-game") - 1,
        asks=sum(1 for a in alerts if a["kind"] == "ambiguous"),
        mismatches=sum(1 for a in alerts if a["kind"] == "mismatch"),
        stuck=game.stuck,
    )
    events: list[tuple[float, str, str]] = [
        (c.t, "wrong-move", f"{c.kind} {c.move} at ply {c.ply}") for c in report.wrong
    ]
    for a in alerts:
        if a["kind"] == "takeback":
            events.append((a["t"], "takeback", f"takeback {a['text']}"))
        elif a["kind"] == "new-game" and a["t"] > 0:
            events.append((a["t"], "new-game", "new game"))
        elif a["kind"] == "mismatch":
            events.append((a["t"], "mismatch", f"mismatch ({a['text']})"))
    present = {kind for _, kind, _ in events}
    if game.stuck:
        present.add("stuck")
    if not game.recognised and not present:
        present.add("missed")
    if not report.failed:
        present.discard("mismatch")  # a mismatch the game recovered from is counted apart
    report.classes = [c for c in CLASSES if c in present]
    if report.failed:
        # filed under the first wrong move, takeback or new game; else the player giving up;
        # else the first mismatch (a move never committed shows first as one)
        events.sort()
        primary = [e for e in events if e[1] != "mismatch"]
        if primary:
            report.cause, shown = primary[0][1], primary
        elif game.stuck:
            report.cause, shown = "stuck", events
        else:
            report.cause, shown = ("mismatch" if events else "missed"), events
        report.first = _first(game, shown)
        if report.cause == "stuck":
            report.first = f"{game.stuck}; {report.first}"
    return report


def _first(game: HandGame, events: list[tuple[float, str, str]]) -> str:
    if events:
        t, _, what = events[0]
    else:
        got = game.result["moves"]
        k = next((i for i, (a, b) in enumerate(zip(got, game.moves, strict=False)) if a != b), 0)
        if k == 0 and got[: len(game.moves)] == game.moves[: len(got)]:
            k = min(len(got), len(game.moves) - 1)
        t = game.starts[k] if k < len(game.starts) else 0.0
        what = f"never committed: {game.moves[k] if k < len(game.moves) else '?'}"
    k = max(0, bisect.bisect_right(game.starts, t) - 1)
    if k >= len(game.moves):
        return f"t={t:.3f} {what}"
    out = f"t={t:.3f} {what}, during ply {k} {game.moves[k]}: {game.notes[k] or 'plain'}"
    done = {c.ply for c in game.commits if c.t <= t and not is_wrong(c, game.moves)}
    missing = next((p for p in range(k) if p not in done), None)
    if missing is not None:  # the trouble began at an earlier ply that was never committed
        out += (
            f"; ply {missing} {game.moves[missing]} was not committed by then:"
            f" {game.notes[missing] or 'plain'}"
        )
    return out


def _is_throw(move: str) -> bool:
    return move.startswith(("dice=", "spin="))


@dataclass
class Report:
    games: list[GameReport]

    @property
    def failures(self) -> list[GameReport]:
        return [g for g in self.games if g.failed]

    def summary(self) -> dict[str, Any]:
        games = self.games
        moves = sum(g.moves for g in games)
        asks = sum(g.asks for g in games)
        return {
            "games": len(games),
            "recognised": sum(not g.failed for g in games),
            "wrong_moves": sum(len(g.wrong) for g in games),
            "takebacks": sum(g.takebacks for g in games),
            "new_games": sum(g.new_games for g in games),
            "asks": asks,
            "moves": moves,
            "ask_rate": asks / moves if moves else 0.0,
            "mismatches": sum(g.mismatches for g in games),
            "stuck": sum(1 for g in games if g.stuck),
            "classes": {c: sum(c in g.classes for g in games) for c in CLASSES},
            "causes": {c: sum(c == g.cause for g in games) for c in CLASSES},
        }


def check_games(
    game_id: str,
    seeds: Iterable[Any],
    *,
    plies: int = 120,
    options: dict[str, Any] | None = None,
    habits: Habits | None = None,
    dump: str | Path | None = None,
    **overrides: Any,
) -> Report:
    """Play one game per seed with the hand model (``overrides`` set :class:`Habits` fields)
    and judge each; with ``dump``, write each failing game's trace and expected moves there
    (``GAME-SEED.jsonl`` and ``GAME-SEED.expected.json``)."""
    reports = []
    for seed in seeds:
        game = play_game(game_id, seed, plies=plies, habits=habits, options=options, **overrides)
        report = judge(game)
        if dump is not None and report.failed:
            write_failure(Path(dump), game)
        reports.append(report)
    return Report(reports)


def write_failure(folder: Path, game: HandGame) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game.game}-{game.seed}.jsonl"
    path.write_text(game.trace.to_jsonl(), encoding="utf-8")
    expected = {"moves": game.moves}
    path.with_suffix(".expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    return path
