"""A stored game as text (``reedboard history GAME``, the web view's export)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from reedboard.engine import EngineError

if TYPE_CHECKING:
    from reedboard.store.games import GameRecord


def history_text(record: GameRecord) -> str:
    """A stored game as text (``history GAME``, the web view's export): its header lines, one
    numbered line a move, its outcome."""
    lines = [f"# game {record.id}: {record.game}"]
    if record.options:
        lines.append(f"# options: {json.dumps(record.options, sort_keys=True)}")
    lines.append(f"# start: {record.start}")
    notes = _history_notes(record)  # the jump that lost a winnable Solitaire game
    for ply, move in enumerate(record.moves, start=1):
        lines.append(f"{ply}. {move}" + (f"  # {notes[ply]}" if ply in notes else ""))
    lines.append(f"# outcome: {record.status}")
    return "\n".join(lines) + "\n"


def _history_notes(record: GameRecord) -> dict[int, str]:
    """Notes on a stored game's moves: a Solitaire game's losing jump, once the winning set
    for its finish is cached (history never builds it)."""
    from reedboard.engine.solitaire import solver as solver
    from reedboard.referee import solved

    if record.game != solver.GAME:
        return {}
    try:
        position = record.start_position()
        if not solved.solves(position):
            return {}
        ws = solved.winning_set(solved.finish_of(position.options))
        if ws is None:
            return {}
        return solved.lost_plies(record, ws)
    except EngineError:  # numpy missing, or a record the store's checks let through
        return {}
