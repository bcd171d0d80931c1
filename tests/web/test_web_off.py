"""Without aiohttp (a plain Pi install) or with the view turned off, `reedboard run` goes on
without the web view, saying so in one line."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from reedboard.daemon import web
from reedboard.daemon.config import Config, WebSettings
from reedboard.daemon.core import Daemon
from reedboard.daemon.web.view import serve


def test_without_aiohttp_the_daemon_says_the_view_is_off_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        web,
        "missing",
        lambda: "aiohttp is not installed (.venv/bin/pip install -e '.[web]')",
    )
    lines: list[str] = []
    config = replace(Config(game="solitaire", database=tmp_path / "g.sqlite3"), web=WebSettings())
    daemon = Daemon(config, out=lines.append)
    try:
        assert asyncio.run(serve(daemon)) is None
    finally:
        daemon.store.close()
    assert lines == ["web view off: aiohttp is not installed (.venv/bin/pip install -e '.[web]')"]
    web.check_port(WebSettings(port=1))  # nothing to listen on: nothing checked


def test_no_web_serves_nothing(tmp_path: Path) -> None:
    config = replace(Config(database=tmp_path / "g.sqlite3"), web=WebSettings(enabled=False))
    lines: list[str] = []
    daemon = Daemon(config, out=lines.append)
    try:
        assert asyncio.run(serve(daemon)) is None
    finally:
        daemon.store.close()
    assert lines == []


def test_reedboard_web_sets_the_default_and_a_bad_one_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from reedboard.cli.main import main
    from reedboard.daemon.config import load_config, web_default

    monkeypatch.setenv("REEDBOARD_WEB", "127.0.0.2:9000")
    assert web_default() == WebSettings(host="127.0.0.2", port=9000)
    config = tmp_path / "reedboard.toml"
    config.write_text('[web]\ntoken = "t"\n')
    assert load_config(config).web == WebSettings(True, "127.0.0.2", 9000, "t")
    monkeypatch.setenv("REEDBOARD_WEB", "off")
    assert not web_default().enabled
    assert load_config(config).web.enabled  # a [web] table of its own: served
    config.write_text("[web]\nenabled = false\n")
    assert not load_config(config).web.enabled
    monkeypatch.setenv("REEDBOARD_WEB", "everywhere")
    db = tmp_path / "g.sqlite3"
    assert main(["run", "--database", str(db)]) == 2
    _, err = capsys.readouterr()
    assert err == (
        "reedboard: error: $REEDBOARD_WEB: 'everywhere' is not HOST:PORT, like 127.0.0.1:8080"
        " (or off)\n"
    )
    assert not db.exists()
