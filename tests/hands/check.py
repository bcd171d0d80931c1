"""Judging hand-played games: was every move recognised, and what went wrong where?

:func:`check_games` plays games with the hand model (tests/hands/model.py) and reports each one:
the recognition tests and ``benchmarks/recognition.py`` call it. The player never presses
``undo`` or ``new``, so every takeback and every new game after the first is spurious; a commit
(``move``, ``extend``, ``throw``, ``changed``) is wrong when it is not the move played at its ply
(a jump chain committed hop by hop as the piece is set down on each landing is a prefix, not
wrong; nor is a move the hands set down first and thought better of, once a later ``changed``
commit at its ply gives the move played).

A switch that broke (the hand model's ``broken_switch``) is judged on what the board said: the
first ``suspect-switch`` alert naming its point (its text begins ``switch P ``) and how long
after the break first mattered (the switch read otherwise than the pieces on it for 3.5 s or
more: a piece lifted off it and put back sooner leaves nothing to find) it came, a suspect
alert naming another point, and a failed game with no word at all after the break.

:data:`ORDINARY` names the ordinary-hands behaviours the benchmark runs as rows, each a set of
:class:`~tests.hands.model.Habits` fields; :func:`applies` says on which games each is played.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import random
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard import engine
from reedboard.sim.trace import Committed
from tests.hands.model import Habits, HandGame, play_game

CLASSES = ("wrong-move", "takeback", "new-game", "stuck", "mismatch", "missed", "crash")
"""Failure classes, in the order a failing game is filed under its first (``crash``: the
session raised an error, so the game has no report of its own)."""

ORDINARY: dict[str, dict[str, float]] = {
    "careful": {},
    "count_out": {"count_out": 0.7},
    "reach_early": {"reach_early": 0.3},
    "mistake_setdown": {"mistake_setdown": 0.5},
    "knock": {"knock": 0.15},
    "second_thoughts": {"second_thoughts": 0.1},
    "broken_switch": {"broken_switch": 1.0},
    "slide_chatter": {"chatter_ms": 10.0, "bounce": 0.5, "slide": 0.5},
}
"""Ordinary hands: each behaviour's :class:`Habits` fields when it is on, over the
careful mix (``careful``: none of them)."""
ORDINARY["all"] = {key: value for row in ORDINARY.values() for key, value in row.items()}

NAMED_WITHIN = 10.0
"""A broken switch named this soon (seconds after it first mattered) counts as found."""


def applies(behaviour: str, game_id: str) -> bool:
    """Whether ``behaviour`` (a key of :data:`ORDINARY`) can happen in the game: counting out
    needs dice or a spinner, a mistaken set-down a move that takes pieces off."""
    if behaviour == "count_out":
        return engine.game(game_id).dice_spec is not None
    if behaviour == "mistake_setdown":
        return takes_pieces_off(game_id)
    return True


@functools.cache
def takes_pieces_off(game_id: str) -> bool:
    """Whether the game's moves take pieces off the board or send them to a nest (a Fox and
    Rabbit fox only joins the rabbit): seen in a few random games."""
    rng = random.Random(0)
    for _ in range(40):
        position = engine.start(game_id)
        for _ in range(300):
            if position.is_over():
                break
            move = rng.choice(list(position.legal_moves))
            if position.physical_steps(move).removals():
                return True
            position.push(move)
    return False


@dataclass
class GameReport:
    game: str
    seed: Any
    recognised: bool
    plies: int
    moves: int
    """Piece moves played (throws left out)."""
    wrong: list[Committed] = field(default_factory=list)
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
    changes: int = 0
    """Moves the board changed for another at the same ply (``changed`` alerts)."""
    broke: bool = False
    """A switch broke during the game."""
    mattered: bool = False
    """... and read otherwise than the pieces on it at some point (only such games count for
    the alerts below)."""
    named_at: float | None = None
    """When the first ``suspect-switch`` alert after the break naming its point came (None:
    never)."""
    named_delay: float | None = None
    """Seconds from when the break first mattered to that alert."""
    false_suspects: int = 0
    """``suspect-switch`` alerts naming a point whose switch had not broken."""
    no_word: bool = False
    """The break mattered, the game failed, and no ``suspect-switch`` or ``mismatch`` alert
    came after the break: nothing told the players."""

    @property
    def failed(self) -> bool:
        """Not recognised, or a wrong move, takeback or new game on the way (each is a
        failure even when the game came right in the end)."""
        return not self.recognised or bool(self.wrong) or bool(self.takebacks or self.new_games)

    @property
    def stalled(self) -> bool:
        """The board's moves did not end as the moves played, or the player gave up."""
        return not self.recognised or self.stuck is not None

    @property
    def wrong_point(self) -> bool:
        """A ``suspect-switch`` alert named a switch that had not broken."""
        return self.false_suspects > 0


def crashed(game_id: str, seed: Any, error: BaseException) -> GameReport:
    """The report of a game the session raised an error in (filed under ``crash``)."""
    what = f"the session raised {type(error).__name__}: {error}"
    return GameReport(
        game=game_id,
        seed=seed,
        recognised=False,
        plies=0,
        moves=0,
        classes=["crash"],
        cause="crash",
        first=what,
    )


def is_wrong(commit: Committed, played: list[str]) -> bool:
    if commit.ply < 0 or commit.ply >= len(played):
        return True
    want = played[commit.ply]
    move = commit.move.rsplit(" to ", 1)[-1] if commit.kind == "changed" else commit.move
    return move != want and not want.startswith(move + "x")


def changed_later(commit: Committed, game: HandGame, texts: list[str]) -> bool:
    """Whether ``commit`` took a move the hands set down first and thought better of
    (``game.considered``), and a later ``changed`` commit at its ply gave the move played
    (or the same move spelt another way: a loop chain the other way round)."""
    if commit.move not in game.considered.get(commit.ply, ()):
        return False
    want = game.moves[commit.ply]
    return any(
        later.kind == "changed"
        and later.ply == commit.ply
        and later.t >= commit.t
        and (later.move.rsplit(" to ", 1)[-1] == want or spelt_alike(game, later, texts))
        for later in game.commits
    )


def _texts(game: HandGame, moves: list[str]) -> list[str]:
    """The position before the game and after each of ``moves``, as text."""
    position = engine.start(game.game, **game.trace.options)
    out = [position.to_text()]
    for move in moves:
        try:
            position.push_text(move)
        except engine.EngineError:
            break  # (a list that is no game: the positions as far as it goes)
        out.append(position.to_text())
    return out


def spelt_alike(game: HandGame, commit: Committed, texts: list[str]) -> bool:
    """Whether ``commit`` leaves the position the move played at its ply leaves: the same
    move spelt another way (a loop chain one way round or the other), which the board takes
    as one (no player could tell them apart)."""
    if not 0 <= commit.ply < min(len(game.moves), len(texts) - 1):
        return False
    move = commit.move.rsplit(" to ", 1)[-1] if commit.kind == "changed" else commit.move
    before = engine.from_text(game.game, texts[commit.ply], **game.trace.options)
    position = before.copy()
    try:
        position.push_text(move)
    except engine.EngineError:
        return False
    if position.to_text() == texts[commit.ply + 1]:
        return True
    # a jump chain committed hop by hop: the spelling of one of the played chain's prefixes
    hops = game.moves[commit.ply].split("x")
    for n in range(2, len(hops)):
        prefix = before.copy()
        try:
            prefix.push_text("x".join(hops[:n]))
        except engine.EngineError:
            continue
        if prefix.to_text() == position.to_text():
            return True
    return False


def recognised(game: HandGame, texts: list[str]) -> bool:
    """The session's moves are the moves played, each or spelt alike."""
    got = game.result["moves"]
    if got == game.moves:
        return True
    try:
        return len(got) == len(game.moves) and _texts(game, got) == texts
    except engine.EngineError:
        return False


def judge(game: HandGame) -> GameReport:
    """The report of one closed-loop game."""
    played = game.moves
    alerts = game.result["alerts"]
    texts = _texts(game, played)
    report = GameReport(
        game=game.game,
        seed=game.seed,
        recognised=recognised(game, texts),
        plies=len(played),
        moves=sum(1 for m in played if not _is_throw(m)),
        wrong=[
            c
            for c in game.commits
            if is_wrong(c, played)
            and not changed_later(c, game, texts)
            and not spelt_alike(game, c, texts)
        ],
        takebacks=sum(1 for a in alerts if a["kind"] == "takeback"),
        new_games=sum(1 for a in alerts if a["kind"] == "new-game") - 1,
        asks=sum(1 for a in alerts if a["kind"] == "ambiguous"),
        mismatches=sum(1 for a in alerts if a["kind"] == "mismatch"),
        stuck=game.stuck,
        changes=sum(1 for a in alerts if a["kind"] == "changed"),
    )
    judge_break(report, game)
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
    if not report.recognised and not present:
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


def judge_break(report: GameReport, game: HandGame) -> None:
    """Fill in what the board said of the switch that broke (and of switches that did not)."""
    alerts = game.result["alerts"]
    broken = game.broken
    suspects = [(a, _switch_named(a["text"])) for a in alerts if a["kind"] == "suspect-switch"]
    at = broken.point if broken is not None else None
    report.false_suspects = sum(1 for _, point in suspects if point != at)
    if broken is None:
        return
    report.broke = True
    matters = broken.matters
    report.mattered = matters is not None
    if matters is None:
        return
    named = [a["t"] for a, point in suspects if point == at and a["t"] >= broken.t]
    if named:
        report.named_at = named[0]
        report.named_delay = round(max(0.0, named[0] - matters), 6)  # (named before: at once)
    told = any(
        (a["kind"] in ("suspect-switch", "mismatch") and a["t"] >= broken.t)
        or (a["kind"] == "unseen" and a["t"] >= matters)  # (a piece no switch saw come down)
        for a in alerts
    )
    report.no_word = report.failed and not told


def _switch_named(text: str) -> str | None:
    """The point an alert's text ``switch P ...`` names."""
    words = text.split()
    return words[1] if len(words) > 1 and words[0] == "switch" else None


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
        exact = sum(not g.failed for g in games)
        return {
            "games": len(games),
            "recognised": exact,
            "exact": exact,
            "exact_rate": exact / len(games) if games else 0.0,
            "stalls": sum(g.stalled for g in games),
            "changes": sum(g.changes for g in games),
            "crashes": sum(g.cause == "crash" for g in games),
            "breaks": self.breaks(),
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

    def breaks(self) -> dict[str, Any]:
        """Broken switches: games where the break mattered; of those, the games where its
        point was named within :data:`NAMED_WITHIN` s, the median and 95th percentile of the
        time to that alert (over the games where it came at all), the games with no word at
        all; and the games (any) where a suspect alert named a switch that had not broken."""
        mattered = [g for g in self.games if g.mattered]
        delays = sorted(g.named_delay for g in mattered if g.named_delay is not None)
        soon = sum(1 for d in delays if d <= NAMED_WITHIN)
        return {
            "broke": sum(g.broke for g in self.games),
            "mattered": len(mattered),
            "named_in_time": soon,
            "named_in_time_rate": soon / len(mattered) if mattered else 0.0,
            "named": len(delays),
            "delay_median": statistics.median(delays) if delays else None,
            "delay_p95": _percentile(delays, 0.95),
            "no_word": sum(g.no_word for g in mattered),
            "wrong_point": sum(g.wrong_point for g in self.games),
        }


def _percentile(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile of sorted ``values`` (None for none)."""
    if not values:
        return None
    return values[max(0, math.ceil(q * len(values)) - 1)]


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
