"""Remote play's inputs, without a broker: the settings (config ``[remote]``, ``run --remote``,
``watch``), the messages' bytes and the dice's commit and reveal. Every bad value is one line
naming its key; no message of any bytes raises anything but MessageError."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reedboard import engine
from reedboard.cli.main import main
from reedboard.daemon.config import load_config
from reedboard.daemon.remote.fairdice import ForgedReveal, Secret, check_reveal, combine, commitment
from reedboard.daemon.remote.game import check_proof
from reedboard.daemon.remote.keys import BoardKey
from reedboard.daemon.remote.message import MAX_BYTES, VERSION, MessageError, decode, encode
from reedboard.daemon.remote.settings import (
    RemoteSettingsError,
    check_seats,
    from_values,
    parse_broker,
)
from reedboard.engine.errors import ReedboardError


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# -- settings ----------------------------------------------------------------------------------


def test_broker_urls() -> None:
    broker, user, password = parse_broker("mqtt://pi.local")
    assert (broker.host, broker.port, broker.tls, user) == ("pi.local", 1883, False, None)
    broker, user, password = parse_broker("mqtts://ann:s%40cret@10.0.0.2:8884")
    assert (broker.port, broker.tls, user, password) == (8884, True, "ann", "s@cret")
    assert parse_broker("mqtts://h")[0].port == 8883


@pytest.mark.parametrize(
    "url, what",
    [
        ("", "give the broker"),
        ("http://h:1", "scheme must be mqtt"),
        ("mqtt://", "names no host"),
        ("mqtt://h:99999", "no broker URL"),
        ("mqtt://h:0", "port 0"),
        ("mqtt://h:1/x", "nothing may follow"),
        ("mqtt://h:x", "no broker URL"),
    ],
)
def test_a_bad_broker_is_one_line_naming_the_key(url: str, what: str) -> None:
    with pytest.raises(RemoteSettingsError, match=what) as err:
        parse_broker(url, "remote.broker")
    assert str(err.value).startswith("remote.broker: ") and "\n" not in str(err.value)


@given(st.text(max_size=40))
def test_any_broker_text_is_settings_or_one_error_line(text: str) -> None:
    try:
        parse_broker(text)
    except RemoteSettingsError as exc:
        assert str(exc).startswith("broker: ") and isinstance(exc, ReedboardError)


CONFIG = 'game = "fox-and-rabbit"\n[remote]\nbroker = "mqtt://127.0.0.1:1883"\nmatch = "m"\n'


@pytest.mark.parametrize(
    "extra, key, what",
    [
        ('seats = ["RF"]\ncolour = 1\n', "remote.colour", "unknown key"),
        ("seats = []\n", "remote.seats", "give the seats"),
        ('seats = ["RF", "RF"]\n', "remote.seats", "given twice"),
        ('seats = ["RF"]\nkeepalive = 0\n', "remote.keepalive", "outside 1-3600"),
        ('seats = ["RF"]\npassword = "x"\n', "remote.password", "needs a username"),
        ('seats = ["RF"]\ncafile = "nowhere.pem"\n', "remote.cafile", "no file"),
        ('seats = ["RF"]\nusername = 3\n', "remote.username", "non-empty string"),
    ],
)
def test_a_bad_remote_table_names_file_line_and_key(
    tmp_path: Path, extra: str, key: str, what: str
) -> None:
    path = tmp_path / "reedboard.toml"
    path.write_text(CONFIG + extra)
    with pytest.raises(ReedboardError) as err:
        load_config(path)
    text = str(err.value)
    assert str(path) in text and key in text and what in text and "\n" not in text


def test_a_remote_table_read_and_the_cert_paths_taken_from_its_folder(tmp_path: Path) -> None:
    for name in ("ca.pem", "me.pem", "me.key"):
        (tmp_path / name).write_text("x")
    path = tmp_path / "reedboard.toml"
    path.write_text(
        CONFIG.replace("mqtt://", "mqtts://")
        + 'seats = ["RF"]\ncafile = "ca.pem"\ncertfile = "me.pem"\nkeyfile = "me.key"\n'
    )
    remote = load_config(path).remote
    assert remote is not None and remote.seats == ("RF",) and remote.board == "RF"
    assert remote.cafile == tmp_path / "ca.pem" and remote.keyfile == tmp_path / "me.key"
    assert load_config(_write(tmp_path, 'game = "solitaire"\n')).remote is None  # the default


def _write(folder: Path, text: str) -> Path:
    path = folder / "plain.toml"
    path.write_text(text)
    return path


def test_seats_must_be_the_games_sides_and_leave_one_over() -> None:
    players = engine.start("fox-and-rabbit").players
    with pytest.raises(RemoteSettingsError, match="no side of this game"):
        check_seats(
            from_values({"broker": "mqtt://localhost", "match": "m", "seats": "fox"}), players
        )
    with pytest.raises(RemoteSettingsError, match="leaves no side"):
        check_seats(
            from_values({"broker": "mqtt://localhost", "match": "m", "seats": "WR,RF"}), players
        )


@pytest.mark.parametrize(
    "argv, what",
    [
        (["run", "--remote", "mqtt://h", "--seats", "fox"], "--match ID is needed"),
        (["run", "--remote", "mqtt://h", "--match", "m"], "--remote needs --match ID and --seats"),
        (["run", "--remote", "ftp://h", "--match", "m", "--seats", "fox"], "run --remote:"),
        (
            ["run", "--remote", "mqtt://127.0.0.2", "--match", "a/b", "--seats", "fox"],
            "run --match:",
        ),
        (["run", "--remote", "mqtt://[::1]", "--match", "m", "--seats", "goose"], "--seats: goose"),
        (["run", "--remote", "mqtt://pi.local", "--match", "m", "--seats", "fox"], "not encrypted"),
        (["watch", "--remote", "mqtt://h:1", "--match", "m", "--count", "0"], "outside 1 to"),
        (["watch", "--remote", "mqtt://127.0.0.1:1", "--match", "m"], "mqtt://127.0.0.1:1:"),
        (["watch", "--match", "m"], "watch: --remote URL is needed"),
        (["watch", "--join", "rb1.x"], "watch --join: the invite is damaged"),
        (["run", "--join", "xyz", "--seats", "fox"], "run --join: an invite is a code that begins"),
    ],
)
def test_the_command_lines_remote_options(argv: list[str], what: str, tmp_path: Path) -> None:
    code, out, err = call(
        *argv, *(["--database", str(tmp_path / "g.db")] if argv[0] == "run" else [])
    )
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("reedboard: error: ") and what in err
    assert not (tmp_path / "g.db").exists()  # nothing was begun


# -- messages ----------------------------------------------------------------------------------


def test_a_message_round_trips_and_every_field_is_checked() -> None:
    move = {
        "kind": "move",
        "game": "g",
        "ply": 3,
        "move": "9-4",
        "after": "x",
        "seat": "geese",
        "epoch": 0,
        "sender": "geese",
        "id": "1",
        "sig": "s",
    }
    assert decode(encode(move)) == {"v": VERSION, **move}
    for field in ("ply", "move", "sender", "epoch", "sig"):
        broken = {k: v for k, v in move.items() if k != field}
        with pytest.raises(MessageError, match=field):
            decode(encode(broken))
    with pytest.raises(MessageError, match="negative"):
        decode(encode({**move, "ply": -1}))
    with pytest.raises(MessageError, match="not a number"):
        decode(encode({**move, "ply": True}))
    with pytest.raises(MessageError, match="version"):
        decode(json.dumps({**move, "v": VERSION - 1}).encode())
    with pytest.raises(MessageError, match="at most"):
        decode(b" " * (MAX_BYTES + 1))


@given(st.binary(max_size=300))
def test_any_bytes_are_a_message_or_a_message_error(payload: bytes) -> None:
    with contextlib.suppress(MessageError):
        decode(payload)


@given(
    st.dictionaries(
        st.sampled_from(["kind", "v", "ply", "move", "sender", "id", "game"]),
        st.one_of(st.integers(), st.text(max_size=5), st.none(), st.booleans()),
    )
)
def test_any_json_object_is_a_message_or_a_message_error(fields: dict[str, object]) -> None:
    with contextlib.suppress(MessageError):
        decode(json.dumps(fields).encode())


# -- dice --------------------------------------------------------------------------------------


@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.integers(0, 5), min_size=2, max_size=2),
    st.lists(st.integers(0, 5), min_size=2, max_size=2),
)
def test_a_reveal_checks_only_against_its_own_values(
    nonce: bytes, values: list[int], other: list[int]
) -> None:
    committed = commitment(nonce, values)
    assert check_reveal(committed, nonce.hex(), values, 2, 6).values == tuple(values)
    if other != values:
        with pytest.raises(ForgedReveal, match="do not match"):
            check_reveal(committed, nonce.hex(), other, 2, 6)
    with pytest.raises(ForgedReveal):
        check_reveal(committed, nonce.hex(), [*values, 0], 2, 6)
    with pytest.raises(ForgedReveal):
        check_reveal(committed, "zz", values, 2, 6)


def test_either_boards_uniform_values_make_a_uniform_throw() -> None:
    """Whatever one board picks, the other's uniform value makes every face equally likely."""
    for fixed in range(6):
        faces = Counter(combine([fixed], [v], 6)[0] for v in range(6))
        assert faces == Counter(range(1, 7))
    drawn = Counter(
        combine(Secret.draw(1, 6).values, Secret.draw(1, 6).values, 6)[0] for _ in range(6000)
    )
    assert set(drawn) == set(range(1, 7)) and min(drawn.values()) > 800


def _commit(key: BoardKey, board: str, secret: Secret, ply: int = 0, **more: Any) -> dict[str, Any]:
    fields = dict(kind="commit", sender=board, ply=ply, xid="x", hash=secret.commitment, epoch=0)
    return key.sign({**fields, **more})


def test_a_throws_record_is_checked_whole() -> None:
    position = engine.start("fox-and-rabbit")
    me, other, stranger = BoardKey.generate(), BoardKey.generate(), BoardKey.generate()
    keys = {"RF": me.public, "WR": other.public}
    mine, theirs = Secret.draw(2, 6), Secret.draw(2, 6)
    proof = {
        "xid": "x",
        "commits": {"RF": _commit(me, "RF", mine), "WR": _commit(other, "WR", theirs)},
        "reveals": {
            "RF": {"nonce": mine.nonce.hex(), "values": list(mine.values)},
            "WR": {"nonce": theirs.nonce.hex(), "values": list(theirs.values)},
        },
    }
    assert check_proof(proof, position, keys, 0) == combine(mine.values, theirs.values, 6)

    def broken(change: Any) -> dict[str, Any]:
        copy: dict[str, Any] = json.loads(json.dumps(proof))
        change(copy)
        return copy

    forged = {
        "values not committed": lambda p: p["reveals"]["WR"].update(
            values=[(v + 1) % 6 for v in theirs.values]
        ),
        "a commitment signed by a stranger": lambda p: p["commits"].update(
            WR=_commit(stranger, "WR", theirs)
        ),
        "a commitment changed after signing": lambda p: p["commits"]["WR"].update(hash="0" * 64),
        "this board's commitment not its own": lambda p: p["commits"].update(
            RF=_commit(other, "RF", mine)
        ),
        "another ply's exchange": lambda p: p["commits"].update(
            RF=_commit(me, "RF", mine, ply=2), WR=_commit(other, "WR", theirs, ply=2)
        ),
        "another exchange": lambda p: p.update(xid="y"),
        "a third board in this one's place": lambda p: p.update(
            commits={"GF": p["commits"]["RF"], "WR": p["commits"]["WR"]}
        ),
    }
    for why, change in forged.items():
        with pytest.raises(ForgedReveal):
            check_proof(broken(change), position, keys, 0)
            raise AssertionError(f"{why} was taken")
    with pytest.raises(ForgedReveal, match="two boards"):
        check_proof({"commits": {}, "reveals": {}}, position, keys, 0)
    with pytest.raises(ForgedReveal, match="another throw"):  # from before a takeback
        check_proof(proof, position, keys, 0, epoch=1)
