"""``reedboard report``: one archive with the versions, the config and build with every secret
blanked, what doctor says and the latest games."""

from __future__ import annotations

import io
import tarfile
from contextlib import redirect_stdout
from pathlib import Path

from reedboard import engine
from reedboard.cli.main import main
from reedboard.cli.report import redact
from reedboard.store.games import GameStore


def test_secrets_are_blanked() -> None:
    text = (
        'token = "open sesame"\n[remote]\nbroker = "mqtts://ann:s3cret@pi.local:8883"\n'
        "password = 'x y'\nkeyfile = /etc/k.pem\ngame = \"solitaire\"\n"
    )
    out = redact(text)
    for secret in ("open sesame", "s3cret", "ann", "x y", "/etc/k.pem"):
        assert secret not in out, secret
    assert 'game = "solitaire"' in out and "pi.local:8883" in out


def test_the_archive_holds_what_a_bug_report_needs_and_no_secret(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    game = store.new_game("solitaire", {}, engine.start("solitaire").to_text())
    store.add_move(game, 0, "5-17")
    store.close()
    config = tmp_path / "reedboard.toml"
    config.write_text(
        f'game = "solitaire"\ndatabase = "{db}"\n[web]\nlisten = "0.0.0.0:8080"\n'
        'token = "a long secret token"\n'
    )
    out = tmp_path / "r.tar.gz"
    with redirect_stdout(io.StringIO()) as said:
        assert main(["report", "--config", str(config), "-o", str(out)]) == 0
    assert str(out) in said.getvalue()
    with tarfile.open(out) as archive:
        names = {m.name.split("/", 1)[1] for m in archive.getmembers()}
        texts = {
            n: archive.extractfile(f"reedboard-report/{n}").read().decode()  # type: ignore[union-attr]
            for n in names
        }
    assert names == {"versions.json", "doctor.txt", "config.toml", "games.txt"}
    assert "a long secret token" not in "".join(texts.values())
    assert "<blanked>" in texts["config.toml"] and "5-17" in texts["games.txt"]
    assert '"reedboard"' in texts["versions.json"] and "the game store" in texts["doctor.txt"]


def test_the_archive_holds_the_black_box_replayable(tmp_path: Path) -> None:
    from reedboard.sim.trace import read_trace, replay

    db = tmp_path / "games.sqlite3"
    box = tmp_path / "games.sqlite3.blackbox.jsonl"  # as the daemon keeps it
    box.write_text(
        '{"game": "fox-and-rabbit", "occupied": ["a1", "i1"]}\n'
        '{"t": 0.5, "dice": [5, 2]}\n{"t": 0.5, "button": "roll"}\n'
        '{"t": 1.0, "point": "a1", "on": false}\n{"t": 1.2, "point": "c6", "on": true}\n'
    )
    config = tmp_path / "reedboard.toml"
    config.write_text(f'game = "fox-and-rabbit"\ndatabase = "{db}"\n')
    out = tmp_path / "r.tar.gz"
    with redirect_stdout(io.StringIO()) as said:
        assert main(["report", "--config", str(config), "-o", str(out)]) == 0
    assert "blackbox.jsonl" in said.getvalue() and "sensor events" in said.getvalue()
    with tarfile.open(out) as archive:
        data = archive.extractfile("reedboard-report/blackbox.jsonl").read()  # type: ignore[union-attr]
    assert data == box.read_bytes()
    session = replay(read_trace(data.decode()))
    assert [str(m) for m in session.position.move_stack] == ["dice=5,2", "WR a1-c6"]
