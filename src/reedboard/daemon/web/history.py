"""The history page's data: the stored games (reedboard/store/games.py), one game's positions ply
by ply for the replay, and a game as text (the same text as ``reedboard history GAME``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from reedboard.daemon.web.state import layout_message
from reedboard.store.games import GameRecord, GameStore
from reedboard.wiring.layout import Layout, layout_for_game


def game_list(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    store = GameStore(path, readonly=True)
    try:
        return [
            {"id": g.id, "game": g.game, "moves": len(g.moves), "status": g.status}
            for g in store.games()
        ]
    finally:
        store.close()


def _record(path: Path, number: int) -> GameRecord | None:
    if not path.exists():
        return None
    store = GameStore(path, readonly=True)
    try:
        return store.game(number)
    finally:
        store.close()


def replay(record: GameRecord, layout: Layout) -> dict[str, Any]:
    """The game's board before its first move and after each: pieces and dice."""
    position = record.start_position()
    steps: list[dict[str, Any]] = [{"move": None, "pieces": position.pieces(), "dice": None}]
    for text in record.moves:
        chance = position.is_chance()
        move = position.parse_move(text)
        dice = list(position.shown_dice(position.throw_values(move))) if chance else None
        position.push(move)
        steps.append({"move": text, "pieces": position.pieces(), "dice": dice})
    return {
        "id": record.id,
        "game": record.game,
        "status": record.status,
        "layout": layout_message(layout, record.game, (), record.start_position()),
        "steps": steps,
    }


def history_routes(
    app: web.Application, database: Callable[[], Path], layout: Callable[[], Layout]
) -> None:
    def number(request: web.Request) -> int:
        text = request.match_info["number"]
        if not text.isascii() or not text.isdigit() or len(text) > 18:
            raise web.HTTPNotFound(text=f"no game {text}")
        return int(text)

    async def read(request: web.Request) -> GameRecord:
        n = number(request)
        record = await asyncio.to_thread(_record, database(), n)
        if record is None:
            raise web.HTTPNotFound(text=f"no game {n}")
        return record

    async def games(request: web.Request) -> web.Response:
        return web.json_response(await asyncio.to_thread(game_list, database()))

    async def one(request: web.Request) -> web.Response:
        record = await read(request)
        board = layout()
        if record.game not in board.games:
            board = layout_for_game(record.game)
        return web.json_response(replay(record, board))

    async def text(request: web.Request) -> web.Response:
        from reedboard.store.history import history_text

        record = await read(request)
        return web.Response(
            text=history_text(record),
            content_type="text/plain",
            headers={"Content-Disposition": f'attachment; filename="game-{record.id}.txt"'},
        )

    app.router.add_get("/api/games", games)
    app.router.add_get("/api/games/{number}", one)
    app.router.add_get("/api/games/{number}/text", text)
