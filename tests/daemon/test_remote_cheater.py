"""A scripted cheater against an honest board's remote play (reedboard/daemon/remote/game.py),
without a broker: the honest board is a real session on the simulated board, its messages go to
the cheater, and the cheater's (signed by its pinned key) come back through the same checks the
link makes. The cheater sees the honest board's reveal before its own, and whenever it dislikes
the throw it asks for a fresh exchange of the same ply; it reveals only when that is refused.
Over 1,000 throws it gains no re-throw, and the throws are uniform."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from reedboard.daemon.remote.fairdice import Secret, check_reveal, combine
from reedboard.daemon.remote.game import MAX_PEERS, RemoteGame
from reedboard.daemon.remote.keys import BoardKey
from reedboard.daemon.remote.message import VERSION
from reedboard.daemon.remote.settings import SEP, Broker, RemoteSettings
from reedboard.referee.events import RemoteNotice
from reedboard.referee.session import SessionState
from tests.referee.rig import Rig

GAME = "fox-and-rabbit"
CHI2_1PCT_5DOF = 15.086
"""The chi-square value a fair six-sided die's counts exceed 1 time in 100."""


class Cheater:
    """The other board (WR): sees every message the honest board sends, and answers."""

    def __init__(self, rig: Rig, honest: RemoteGame) -> None:
        self.rig, self.honest = rig, honest
        self.key = BoardKey.generate()
        self.inbox: list[dict[str, Any]] = []
        self.rng = random.Random(7)
        self.asked_again = 0
        self.refused = 0

    def message(self, kind: str, **fields: Any) -> dict[str, Any]:
        body = {
            "v": VERSION,
            "kind": kind,
            "game": GAME,
            "match": "m",
            "epoch": self.honest.epoch,
            "sender": "WR",
            "id": f"{kind}-{self.rng.random()}",
            **fields,
        }
        return self.key.sign(body)

    def deliver(self, message: dict[str, Any]) -> None:
        """As the link does: checked, then heard; the board then plays what waits."""
        if self.honest.trusted(message):
            self.honest.receive(message)
        self.honest.step()
        self.rig.wait(0.05)

    def likes(self, values: tuple[int, ...], mover: str) -> bool:
        return values == (6, 6) if mover == "WR" else values == (1, 1)

    def throw(self) -> None:
        """One throw: whoever is to throw begins; the cheater tries to choose it."""
        position = self.rig.session.position
        ply, mover = len(position.move_stack), str(position.turn)
        mine = Secret.draw(2, 6)
        xid = f"x{ply}-{self.rng.random()}"
        del self.inbox[:]  # (what the honest board said before this throw)
        if mover == "RF":  # the honest board's throw: it commits first
            self.honest.throw()
            theirs_commit = next(m for m in reversed(self.inbox) if m["kind"] == "commit")
            xid = theirs_commit["xid"]
        else:
            theirs_commit = None
        self.deliver(self.message("commit", ply=ply, xid=xid, hash=mine.commitment))
        reveals = [m for m in self.inbox if m["kind"] == "reveal" and m["ply"] == ply]
        assert len(reveals) == 1, "the honest board reveals once a throw"
        commit = theirs_commit or next(
            m for m in reversed(self.inbox) if m["kind"] == "commit" and m["xid"] == xid
        )
        seen = check_reveal(commit["hash"], reveals[0]["nonce"], reveals[0]["values"], 2, 6)
        if not self.likes(combine(mine.values, seen.values, 6), mover):
            for _ in range(3):  # a fresh exchange, again and again
                self.asked_again += 1
                again = Secret.draw(2, 6)
                before = len(self.inbox)
                self.deliver(
                    self.message(
                        "commit", ply=ply, xid=f"y{self.rng.random()}", hash=again.commitment
                    )
                )
                sent = self.inbox[before:]
                if not any(m["kind"] in ("commit", "reveal") for m in sent):
                    self.refused += 1
        self.deliver(
            self.message(
                "reveal", ply=ply, xid=xid, nonce=mine.nonce.hex(), values=list(mine.values)
            )
        )


def sync(rig: Rig) -> None:
    """The players make the board what the game expects (a move carried out, or made)."""
    expected = rig.session.recognizer.expected
    physical = set(rig.session.physical)
    if physical - expected:
        rig.lift(*sorted(physical - expected))
    if expected - physical:
        rig.place(*sorted(expected - physical))
    rig.wait(0.3)


def test_a_cheater_gains_no_rethrow_and_the_throws_stay_uniform() -> None:
    rig = Rig(GAME)
    settings = RemoteSettings(Broker("127.0.0.1", 1883, False), "m", ("RF",), reveal_timeout=60)
    cheater: Cheater
    honest = RemoteGame(
        rig.session,
        settings,
        lambda topic, message, retain: cheater.inbox.append(message),
        clock=lambda: rig.t,
    )
    cheater = Cheater(rig, honest)
    honest.pins.pin(["WR"], cheater.key.public)
    rng = random.Random(3)
    faces: Counter[int] = Counter()
    throws = {"RF": 0, "WR": 0}
    liked = {"RF": 0, "WR": 0}
    while sum(throws.values()) < 1000:
        session = rig.session
        position = session.position
        if position.is_over():
            rig.press("new")
            sync(rig)
            continue
        mover = str(position.turn)
        if position.is_chance():
            plies = len(position.move_stack)
            cheater.throw()
            assert len(session.position.move_stack) == plies + 1, "the throw was made"
            values = session.position.throw_values(session.position.move_stack[-1])
            faces.update(values)
            throws[mover] += 1
            liked[mover] += cheater.likes(values, "WR" if mover == "WR" else "RF")
            continue
        move = rng.choice(sorted(position.legal_moves, key=str))
        if mover == "RF":  # the honest board's player moves
            session.play(move, "board", rig.t)
        else:  # the cheater's move, sent and carried out here
            after = position.copy(stack=False)
            after.push(move)
            ply = len(position.move_stack)
            cheater.deliver(
                cheater.message("move", ply=ply, move=str(move), after=after.to_text(), seat="WR")
            )
            assert len(session.position.move_stack) == ply + 1, f"{move} not played"
        sync(rig)
        assert session.state in (SessionState.PLAYING, SessionState.OVER), session.state
    assert cheater.asked_again > 900 and cheater.refused == cheater.asked_again
    n = sum(faces.values())
    chi2 = sum((faces[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert chi2 < CHI2_1PCT_5DOF, (chi2, faces)
    # what the cheater wanted came as often as chance gives it (1 in 36), no more
    for side in ("RF", "WR"):
        assert liked[side] < throws[side] * 3 / 36 + 10, (side, liked, throws)
    assert honest.abandoned is None


def test_a_record_re_signed_after_seeing_the_reveal_is_refused() -> None:
    """The cheater, having seen the honest reveal, signs another commitment for the same
    exchange with values that make the throw it wants, and offers the record in its state."""
    rig = Rig(GAME)
    settings = RemoteSettings(Broker("127.0.0.1", 1883, False), "m", ("RF",), reveal_timeout=60)
    cheater: Cheater
    honest = RemoteGame(
        rig.session, settings, lambda t, m, r: cheater.inbox.append(m), clock=lambda: rig.t
    )
    cheater = Cheater(rig, honest)
    honest.pins.pin(["WR"], cheater.key.public)
    position = rig.session.position
    ply, mover = len(position.move_stack), str(position.turn)
    mine = Secret.draw(2, 6)
    if mover == "RF":
        honest.throw()
        xid = next(m for m in cheater.inbox if m["kind"] == "commit")["xid"]
    else:
        xid = "x0"
    cheater.deliver(cheater.message("commit", ply=ply, xid=xid, hash=mine.commitment))
    board_commit = next(m for m in cheater.inbox if m["kind"] == "commit" and m["xid"] == xid)
    reveal = next(m for m in cheater.inbox if m["kind"] == "reveal")
    seen = check_reveal(board_commit["hash"], reveal["nonce"], reveal["values"], 2, 6)
    want = (6, 6)
    values = tuple((w - 1 - v) % 6 for w, v in zip(want, seen.values, strict=True))
    chosen = Secret(b"\x01" * 32, values)
    record = {
        "xid": xid,
        "commits": {
            "RF": board_commit,
            "WR": cheater.message("commit", ply=ply, xid=xid, hash=chosen.commitment),
        },
        "reveals": {
            "RF": {"nonce": reveal["nonce"], "values": reveal["values"]},
            "WR": {"nonce": chosen.nonce.hex(), "values": list(chosen.values)},
        },
    }
    throw = position.copy(stack=False).throw(want)
    start = position.copy()
    state = cheater.message(
        "state",
        options={},
        start=start.to_text(),
        moves=[str(throw)],
        position="x",
        throws={str(ply): record},
        seats=["WR"],
    )
    said: list[str] = []
    rig.session.events.subscribe(lambda e: said.append(getattr(e, "detail", "")))
    cheater.deliver(state)
    assert rig.session.position.move_stack == [], "a throw the cheater chose was taken"
    assert any("not the exchange this board revealed in" in line for line in said)
    # the true reveal still makes the fair throw
    cheater.deliver(
        cheater.message(
            "reveal", ply=ply, xid=xid, nonce=mine.nonce.hex(), values=list(mine.values)
        )
    )
    made = rig.session.position.throw_values(rig.session.position.move_stack[-1])
    assert made == combine(mine.values, seen.values, 6)


def _pair() -> tuple[Rig, RemoteGame, RemoteGame, dict[str, float], dict[str, bool]]:
    """Two honest boards joined directly (no broker): ``drop`` says which kinds are lost."""
    rig_a, rig_b = Rig(GAME), Rig(GAME)
    now = {"t": 0.0}
    drop: dict[str, bool] = {}
    games: dict[str, RemoteGame] = {}

    def sender(to: str) -> Any:
        def send(topic: str, message: dict[str, Any], retain: bool) -> None:
            if message and not drop.get(message["kind"]) and games[to].trusted(message):
                games[to].receive(message)

        return send

    base = RemoteSettings(Broker("127.0.0.1", 1883, False), "m", ("RF",), reveal_timeout=60)
    a = RemoteGame(rig_a.session, base, sender("b"), clock=lambda: now["t"])
    b = RemoteGame(
        rig_b.session,
        RemoteSettings(base.broker, "m", ("WR",), reveal_timeout=60),
        sender("a"),
        clock=lambda: now["t"],
    )
    games.update(a=a, b=b)
    a.pins.pin(["WR"], b.key.public)
    b.pins.pin(["RF"], a.key.public)
    a.link_up = b.link_up = True
    return rig_a, a, b, now, drop


def test_a_broker_down_mid_exchange_abandons_nothing() -> None:
    rig, a, b, now, drop = _pair()
    mover = a if str(rig.session.position.turn) == "RF" else b
    drop["reveal"] = True  # both commitments delivered, then the broker dies
    mover.throw()
    a.link_up = b.link_up = False
    for t in range(0, 200, 5):  # three minutes without the broker
        now["t"] = float(t)
        a.tick()
        b.tick()
    assert a.abandoned is None and b.abandoned is None
    a.link_up = b.link_up = True  # it returns: the exchange is sent again, and completes
    drop.clear()
    a.connected()
    b.connected()
    a.step()
    b.step()
    assert len(a.session.position.move_stack) == len(b.session.position.move_stack) == 1


def test_a_throw_taken_from_the_other_boards_state_ends_the_wait() -> None:
    rig, a, b, now, drop = _pair()
    mover, other = (a, b) if str(rig.session.position.turn) == "RF" else (b, a)
    drop["reveal"] = True
    mover.throw()  # the other board's reveal reaches the mover, the mover's is lost...
    drop.clear()
    other.connected()  # (the other board's reveal sent again: the mover makes the throw)
    mover.step()
    assert len(mover.session.position.move_stack) == 1
    state = mover.state()  # ...and the other board takes it from the mover's state
    if other.trusted(state):
        other.receive(state)
    other.step()
    assert len(other.session.position.move_stack) == 1
    for t in range(0, 200, 5):
        now["t"] = float(t)
        a.tick()
        b.tick()
    assert a.abandoned is None and b.abandoned is None


def test_a_state_heard_before_its_boards_presence_is_followed_once_the_presence_pins_it() -> None:
    """A broker may hand a joining board the other's retained state before its retained
    presence: the state is kept, not refused, and heard once the presence pins the key; a
    message kept beside it that another key signed is refused then."""
    rig_a, rig_b = Rig(GAME), Rig(GAME)
    base = RemoteSettings(Broker("127.0.0.1", 1883, False), "m", ("RF",), reveal_timeout=60)
    a = RemoteGame(rig_a.session, base, lambda *_: None)
    said: list[str] = []
    rig_b.session.events.subscribe(
        lambda e: said.append(f"{e.what}: {e.detail}") if isinstance(e, RemoteNotice) else None
    )
    b = RemoteGame(
        rig_b.session, RemoteSettings(base.broker, "m", ("WR",), reveal_timeout=60), a.take
    )
    forged = BoardKey.generate().sign({**a.state(), "kind": "takeback", "id": "forged"})
    for message in (a.state(), forged):
        b.take(message)
    assert "RF" not in b.peers.states and not [s for s in said if "refused" in s]
    b.take(a._stamp("presence", status="online", seats=["RF"], key=a.key.public))
    assert b.pins.keys == {"RF": a.key.public}
    assert b.peers.states["RF"]["position"] == a.state()["position"]
    (refused,) = [s for s in said if "refused" in s]
    assert "a takeback from RF is not signed by RF's key" in refused
    assert not b.peers.early


def test_messages_kept_before_any_presence_are_bounded() -> None:
    """A stranger sending states under many names the game's seats allow (and many of each)
    before any presence: at most MAX_PEERS names are kept, one message of each kept kind."""
    rig = Rig(GAME)
    b = RemoteGame(
        rig.session,
        RemoteSettings(Broker("127.0.0.1", 1883, False), "m", ("WR",), reveal_timeout=60),
        lambda *_: None,
    )
    stranger = BoardKey.generate()
    for n in range(1, 200):
        sender = SEP.join(["RF"] * (n % 20 + 1))
        b.take(stranger.sign({"v": VERSION, "kind": "state", "sender": sender, "id": str(n)}))
    assert len(b.peers.early) == MAX_PEERS
    assert all(len(kept) == 1 for kept in b.peers.early.values())
