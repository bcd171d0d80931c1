"""Without aiohttp (a plain Pi install) or with the view turned off, `reedboard run` goes on
without the web view, saying so in one line."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

import controller.web
from controller.config import Config, WebSettings
from controller.daemon import Daemon


def test_without_aiohttp_the_daemon_says_the_view_is_off_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        controller.web, "missing", lambda: "aiohttp is not installed (pip install 'reedboard[web]')"
    )
    lines: list[str] = []
    daemon = Daemon(Config(game="solitaire", database=tmp_path / "g.sqlite3"), out=lines.append)
    try:
        assert asyncio.run(daemon._serve_web()) is None
    finally:
        daemon.store.close()
    assert lines == ["web view off: aiohttp is not installed (pip install 'reedboard[web]')"]
    controller.web.check_port(WebSettings(port=1))  # nothing to listen on: nothing checked


def test_no_web_serves_nothing(tmp_path: Path) -> None:
    config = replace(Config(database=tmp_path / "g.sqlite3"), web=WebSettings(enabled=False))
    lines: list[str] = []
    daemon = Daemon(config, out=lines.append)
    try:
        assert asyncio.run(daemon._serve_web()) is None
    finally:
        daemon.store.close()
    assert lines == []
