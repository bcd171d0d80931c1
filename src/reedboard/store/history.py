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
    notes = _history_notes(record)  # the move that lost a winnable solved game
    for ply, move in enumerate(record.moves, start=1):
        lines.append(f"{ply}. {move}" + (f"  # {notes[ply]}" if ply in notes else ""))
    lines.append(f"# outcome: {record.status}")
    return "\n".join(lines) + "\n"


def _history_notes(record: GameRecord) -> dict[int, str]:
    """Notes on a stored game's moves: the move that lost a winnable game, once the game's
    solved table (Solitaire's winning set for its finish) is cached (history never builds
    it)."""
    from reedboard.referee import solved

    try:
        table = solved.table_of(record.start_position())
        if table is None:
            return {}
        ws = solved.open_table(table)
        if ws is None:
            return {}
        return solved.lost_plies(record, ws)
    except EngineError:  # numpy missing, or a record the store's checks let through
        return {}
